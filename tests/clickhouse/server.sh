#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A private ClickHouse server for tests: Debian's clickhouse-server (18.16 in Debian 12) run as
# a plain background process, never the system service, with everything it writes in one
# directory. It listens on 127.0.0.1 and speaks HTTP only: the native TCP port, the
# interserver port and the query log are left out of its configuration, so they are off.
#
#   server.sh check              0 when clickhouse-server and curl are installed, else why and 77
#   server.sh start DIR [PORT]   start on DIR (made if missing); prints http://127.0.0.1:PORT
#   server.sh stop DIR           SIGTERM, SIGKILL after CH_STOP_TIMEOUT s (30); waits until gone
#   server.sh kill DIR           SIGKILL at once, as a crash would; waits until gone
#   server.sh restart DIR        stop it if it runs, start again on the same port and data
#
# DIR holds config.xml and users.xml (written at each start), data/, tmp/, user_files/, log/
# (server.log, error.log, stdout.log), port and, while it runs, pid. Users: default with no
# password, and dio with the password dio-test, both from 127.0.0.1 and ::1 only. Without
# PORT a free port is picked below the ephemeral range, so that no outgoing connection
# takes it between a kill and a restart. A server that does not answer SELECT 1 within
# CH_START_TIMEOUT s (60) is killed, and start exits 1 with a line that says why and the
# tail of its logs.
#
# As root, the server runs as the user clickhouse that the package creates, and DIR is
# handed to it: 18.16 would run as root, but a database server that tests start has no need
# of root. That user must then pass through DIR's parents: DIR from mktemp -d is fine; a
# directory inside one wants chmod o+x on it (start says so). The server locks no memory
# (mlock_executable is off), so a low RLIMIT_MEMLOCK does not matter.
PATH=$PATH:/usr/sbin:/sbin
prog=${0##*/}
RUN_USER=clickhouse

die() {
	echo "$prog: $*" >&2
	exit 1
}

usage() {
	echo "usage: $prog check | start DIR [PORT] | stop DIR | kill DIR | restart DIR" >&2
	exit 2
}

# check: why the server cannot be run here, on stdout; status 77 if so
check() {
	CH=$(command -v clickhouse-server) ||
		{ echo "clickhouse-server is not installed: apt-get install clickhouse-server"; return 77; }
	command -v curl > /dev/null || { echo "curl is not installed: apt-get install curl"; return 77; }
	missing=$(ldd "$CH" 2>&1 | sed -n 's/^[[:space:]]*\([^ ]*\) => not found.*/\1/p' | tr '\n' ' ')
	[ -z "$missing" ] || { echo "clickhouse-server cannot load: $missing"; return 77; }
	return 0
}

# setdir DIR: DIR as an absolute path, and the files in it
setdir() {
	[ -n "$1" ] || usage
	[ -d "$1" ] || mkdir -p "$1" || die "cannot make $1"
	DIR=$(cd "$1" && pwd -P) || die "cannot enter $1"
	CONF=$DIR/config.xml
	PIDF=$DIR/pid
	LOG=$DIR/log
}

# alive PID: PID has not ended (a zombie that nobody reaps has)
alive() {
	[ -n "$1" ] && [ -r "/proc/$1/stat" ] || return 1
	state=$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2> /dev/null) || return 1
	[ -n "$state" ] && [ "$state" != Z ]
}

# running: DIR/pid names a live server of this DIR (not a later process that got its pid);
# the pid in $pid
running() {
	pid=$(cat "$PIDF" 2> /dev/null)
	alive "$pid" &&
		tr '\0' '\n' < "/proc/$pid/cmdline" 2> /dev/null | grep -qxF -- "--config-file=$CONF"
}

# gone SECONDS: wait until $pid has ended; status 1 if it still runs after SECONDS
gone() {
	n=$(($1 * 10))
	while alive "$pid"; do
		[ "$n" -gt 0 ] || return 1
		n=$((n - 1))
		sleep 0.1
	done
	rm -f "$PIDF"
}

# logtail: what the server said last, for a failure message
logtail() {
	for f in "$LOG/error.log" "$LOG/stdout.log"; do
		[ -s "$f" ] || continue
		echo "--- last lines of $f:" >&2
		tail -n 15 "$f" >&2
	done
}

# write_config PORT
write_config() {
	cat > "$CONF" <<EOF
<?xml version="1.0"?>
<!-- written by tests/clickhouse/server.sh at each start: edits are lost -->
<yandex>
    <logger>
        <level>information</level>
        <log>$LOG/server.log</log>
        <errorlog>$LOG/error.log</errorlog>
        <size>10M</size>
        <count>1</count>
    </logger>
    <listen_host>127.0.0.1</listen_host>
    <http_port>$1</http_port>
    <path>$DIR/data/</path>
    <tmp_path>$DIR/tmp/</tmp_path>
    <user_files_path>$DIR/user_files/</user_files_path>
    <format_schema_path>$DIR/format_schemas/</format_schema_path>
    <users_config>$DIR/users.xml</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <!-- the same partitions and dates whatever the machine's time zone -->
    <timezone>UTC</timezone>
    <!-- the defaults (5 GiB of marks, 8 GiB of blocks) are meant for a server of its own -->
    <mark_cache_size>67108864</mark_cache_size>
    <uncompressed_cache_size>67108864</uncompressed_cache_size>
    <mlock_executable>false</mlock_executable>
</yandex>
EOF
	cat > "$DIR/users.xml" <<EOF
<?xml version="1.0"?>
<yandex>
    <profiles><default></default></profiles>
    <users>
        <default>
            <password></password>
            <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </default>
        <dio>
            <password>dio-test</password>
            <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </dio>
    </users>
    <quotas><default></default></quotas>
</yandex>
EOF
}

# listening PORT: something listens on TCP PORT on this machine
listening() {
	# state 0A is LISTEN
	awk -v h="$(printf ':%04X$' "$1")" '$2 ~ h && $4 == "0A" { found = 1 } END { exit !found }' \
		/proc/net/tcp /proc/net/tcp6 2> /dev/null
}

# owns_port PID PORT: PORT's listening socket is PID's (and not another server's, which
# would answer SELECT 1 just as well)
owns_port() {
	for i in $(ls -l "/proc/$1/fd" 2> /dev/null | sed -n 's/.*socket:\[\([0-9]*\)\]$/\1/p'); do
		awk -v h="$(printf ':%04X$' "$2")" -v i="$i" \
			'$2 ~ h && $4 == "0A" && $10 == i { found = 1 } END { exit !found }' \
			/proc/net/tcp /proc/net/tcp6 2> /dev/null && return 0
	done
	return 1
}

# random_port: a port from 20000 to 32767, below Linux's ephemeral range, not listening now
random_port() {
	while :; do
		p=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
		p=$((20000 + p % 12768))
		listening "$p" || break
	done
	echo "$p"
}

# launch PORT: start the server in the background; its pid in $pid and DIR/pid
launch() {
	write_config "$1"
	mkdir -p "$DIR/data" "$DIR/tmp" "$DIR/user_files" "$DIR/format_schemas" "$LOG" ||
		die "cannot make the directories in $DIR"
	: > "$LOG/error.log"
	: > "$LOG/stdout.log"
	set --
	if [ "$(id -u)" -eq 0 ] && id -u "$RUN_USER" > /dev/null 2>&1; then
		set -- setpriv --reuid="$RUN_USER" --regid="$RUN_USER" --init-groups --
		chown -R "$RUN_USER:$RUN_USER" "$DIR" || die "cannot give $DIR to user $RUN_USER"
		"$@" test -w "$DIR/data" -a -x "$DIR/data" ||
			die "user $RUN_USER cannot reach $DIR (a parent is closed to it: chmod o+x it)"
	fi
	# stdout and stderr to a file: a caller's $(server.sh start) or make's log would
	# otherwise wait for the server to end
	"$@" "$CH" --config-file="$CONF" < /dev/null >> "$LOG/stdout.log" 2>&1 &
	pid=$!
	echo "$pid" > "$PIDF"
}

# ready PORT: wait until the server answers SELECT 1; status 2 if it could not bind PORT
ready() {
	n=$((${CH_START_TIMEOUT:-60} * 5))
	while [ "$n" -gt 0 ]; do
		if ! alive "$pid"; then
			rm -f "$PIDF"
			grep -q 'Address already in use' "$LOG/error.log" "$LOG/stdout.log" && return 2
			return 1
		fi
		if owns_port "$pid" "$1"; then
			got=$(curl -s --max-time 2 "http://127.0.0.1:$1/?query=SELECT%201" 2> /dev/null)
			[ "$got" = 1 ] && return 0
		fi
		n=$((n - 1))
		sleep 0.2
	done
	return 3
}

# start [PORT]: with no PORT, the port of the last start on DIR, else a new one
start() {
	! running || die "a server already runs on $DIR (pid $pid)"
	port=${1:-$(cat "$DIR/port" 2> /dev/null)}
	tries=1
	[ -n "$port" ] || { port=$(random_port); tries=5; }
	case $port in
	*[!0-9]*) die "bad port: $port" ;;
	esac
	while :; do
		if listening "$port"; then
			[ "$tries" -gt 1 ] || die "port $port is taken"
			tries=$((tries - 1))
			port=$(random_port)
			continue
		fi
		t0=$(date +%s)
		launch "$port"
		ready "$port"
		rc=$?
		[ "$rc" -eq 0 ] && break
		if [ "$rc" -eq 2 ] && [ "$tries" -gt 1 ]; then
			tries=$((tries - 1))
			port=$(random_port)
			continue
		fi
		case $rc in
		1) why="it exited" ;;
		2) why="port $port is taken" ;;
		*)
			why="it did not answer SELECT 1 within ${CH_START_TIMEOUT:-60} s"
			kill -KILL "$pid" 2> /dev/null
			gone 10
			;;
		esac
		echo "$prog: clickhouse-server on $DIR did not come up: $why" >&2
		logtail
		exit 1
	done
	echo "$port" > "$DIR/port"
	echo "$prog: clickhouse-server pid $pid up in $(($(date +%s) - t0)) s" >&2
	echo "http://127.0.0.1:$port"
}

stop() {
	running || { rm -f "$PIDF"; return 0; }
	kill -TERM "$pid" 2> /dev/null
	gone "${CH_STOP_TIMEOUT:-30}" && return 0
	echo "$prog: pid $pid still runs ${CH_STOP_TIMEOUT:-30} s after SIGTERM: SIGKILL" >&2
	kill9
}

kill9() {
	running || { rm -f "$PIDF"; return 0; }
	kill -KILL "$pid" 2> /dev/null
	gone 10 || die "pid $pid still runs 10 s after SIGKILL"
}

cmd=$1
[ $# -gt 0 ] && shift
case $cmd in
check)
	[ $# -eq 0 ] || usage
	check
	;;
start)
	[ $# -ge 1 ] && [ $# -le 2 ] || usage
	check > /dev/null || die "$(check)"
	setdir "$1"
	start "$2"
	;;
stop)
	[ $# -eq 1 ] || usage
	setdir "$1"
	stop
	;;
kill)
	[ $# -eq 1 ] || usage
	setdir "$1"
	kill9
	;;
restart)
	[ $# -eq 1 ] || usage
	check > /dev/null || die "$(check)"
	setdir "$1"
	[ -s "$DIR/port" ] || die "no server was started on $DIR"
	stop
	start
	;;
*)
	usage
	;;
esac
