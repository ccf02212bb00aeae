# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the real-program cases (tests/real/README.md). On top of the
# integration tests' lib.sh (root and BTF or SKIP, the ext4 image on $MNT,
# cleanup, run_dio): the programs a case needs, a recording with every
# analyzer, optionally with strace inside it, and the Python checks.
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
REAL=$top_srcdir/tests/real
PYTHONPATH=$REAL
PYTHONDONTWRITEBYTECODE=1
export PYTHONPATH PYTHONDONTWRITEBYTECODE TMP
# daemons and admin tools live in sbin, which a user's PATH may lack
PATH=$PATH:/usr/local/sbin:/usr/sbin:/sbin
# the programs' messages in one language, whatever the machine's locale, and
# no dotfiles of the user who runs the tests (~/.gitconfig, ~/.sqliterc)
LC_ALL=C.UTF-8
HOME=$TMP/home
mkdir -p "$HOME"
export PATH LC_ALL HOME

# need PROGRAM:PACKAGE...: each PROGRAM must be installed. install-deps.sh
# installs the packages, so a missing one fails the case; it is skipped only
# when apt knows no PACKAGE to install on this machine.
need() {
	for np in "$@"; do
		prog=${np%%:*}
		pkg=${np#*:}
		command -v "$prog" > /dev/null && continue
		if apt-cache policy "$pkg" 2> /dev/null | grep -q 'Candidate: [0-9]'; then
			echo "FAIL: $prog is not installed: apt-get install $pkg (install-deps.sh does)"
			exit 1
		fi
		echo "SKIP: $prog is not installed and no package $pkg can be installed here"
		exit 77
	done
}

# record NAME CMD ARGS...: CMD under dio record (trace in $TMP/NAME.dio, its
# output in $TMP/NAME.out and .err), then dio analyze --analyzer all with the
# json sink ($TMP/NAME.json). With STRACE=1, CMD runs under strace -f -y, its
# log in $TMP/strace/NAME.log; dio leaves out the calls on that directory, so
# that strace's own writes are not in the trace. DIO_LIMIT: seconds dio may
# record, and analyze (default 30, run_dio's deadline).
record() {
	rec_name=$1
	shift
	mkdir -p "$TMP/strace"
	if [ -n "$STRACE" ]; then
		set -- strace -f -y -o "$TMP/strace/$rec_name.log" "$@"
	fi
	timeout -s INT -k 5 "${DIO_LIMIT:-30}" "$DIO" record --no-summary \
		--exclude-path "$TMP/strace/" -o "$TMP/$rec_name.dio" -- "$@" \
		> "$TMP/$rec_name.out" 2> "$TMP/$rec_name.err"
	RC=$?
	if [ "$RC" -ne 0 ]; then
		echo "FAIL: $rec_name: dio record -- $* exited with $RC"
		tail -n 20 "$TMP/$rec_name.err" "$TMP/$rec_name.out"
		exit 1
	fi
	# analyzing a recording may take as long as recording it was allowed to
	DIO_TIMEOUT=${DIO_LIMIT:-30} run_dio analyze --no-summary "$TMP/$rec_name.dio" \
		--analyzer all --sink "json:file=$TMP/$rec_name.json,paths=false" > /dev/null \
		2> "$TMP/$rec_name.analyze"
	if [ "$RC" -ne 0 ]; then
		echo "FAIL: $rec_name: dio analyze exited with $RC"
		tail -n 20 "$TMP/$rec_name.analyze"
		exit 1
	fi
}

# ground NAME CMD ARGS...: CMD under strace -f -y alone, not recorded by dio,
# its log in $TMP/strace/NAME.log as record's with STRACE=1: the facts of a
# case whose findings depend on timing (bursts of calls, CPU waits) that
# strace would change, taken from a run of its own before the recorded one.
ground() {
	gr_name=$1
	shift
	mkdir -p "$TMP/strace"
	if ! strace -f -y -o "$TMP/strace/$gr_name.log" "$@" > "$TMP/$gr_name.ground.out" 2>&1; then
		echo "FAIL: $gr_name: strace -- $* failed"
		tail -n 20 "$TMP/$gr_name.ground.out"
		exit 1
	fi
}

# offsets_view NAME PATH: dio report of the recording NAME, and what the page's
# offset view shows of PATH's readers after the file was cut: a line per
# reading series, "PID COMM stale=N after=M" (tests/report/offsets.py)
offsets_view() {
	run_dio report "$TMP/$1.dio" -o "$TMP/$1.html" > /dev/null 2> "$TMP/$1.report"
	[ "$RC" -eq 0 ] || { echo "FAIL: $1: dio report exited with $RC"; cat "$TMP/$1.report"; exit 1; }
	python3 "$top_srcdir/tests/report/offsets.py" "$TMP/$1.html" "$2" > "$TMP/$1.offsets" || exit 1
	sed "s/^/$1: the report's offset view: /" "$TMP/$1.offsets"
}

# check: the Python on standard input, with corpus.py and stracelog.py at hand,
# decides the case; its exit status is the case's.
check() {
	python3 - "$@"
	exit $?
}

# wait_for SECONDS CMD ARGS...: run CMD every 0.1 s until it succeeds; fail
# the case when it has not after SECONDS.
wait_for() {
	wf_n=$(($1 * 10))
	shift
	while ! "$@"; do
		wf_n=$((wf_n - 1))
		if [ "$wf_n" -le 0 ]; then
			echo "FAIL: waited in vain for: $*"
			exit 1
		fi
		sleep 0.1
	done
}

# sqlite_inserts NAME MODE: sqlite3 makes $MNT/app.db with a table and 200
# INSERTs, each its own transaction (MODE autocommit), all in one (transaction)
# or each its own in WAL mode (wal); recorded with strace as NAME.
sqlite_inserts() {
	{
		[ "$2" = wal ] && echo "PRAGMA journal_mode=WAL;"
		echo "CREATE TABLE log(id INTEGER PRIMARY KEY, msg TEXT);"
		[ "$2" = transaction ] && echo "BEGIN;"
		for i in $(seq 200); do
			echo "INSERT INTO log(msg) VALUES('message $i');"
		done
		[ "$2" = transaction ] && echo "COMMIT;"
	} > "$TMP/insert.sql"
	STRACE=1 record "$1" sqlite3 "$MNT/app.db" < "$TMP/insert.sql"
	rows=$(sqlite3 "$MNT/app.db" 'SELECT count(*) FROM log')
	[ "$rows" = 200 ] || { echo "FAIL: $1: the table has $rows rows, not 200"; exit 1; }
}

# shell_loop NAME SHELL: SHELL appends 200 lines to $MNT/app.log, each with
# its own `echo ... >>`, recorded with strace as NAME.
shell_loop() {
	cd "$MNT" || exit 1
	STRACE=1 record "$1" "$2" -c 'for i in $(seq 200); do echo "line $i" >> app.log; done'
}

# follow_helpers: $TMP/follow.sh, for the scenarios of followers to source
# (they are given $TMP as t): `lines N TEXT` writes "line I TEXT" for I = 1
# to N to fd 3, the application's log; `delivered N TENTHS` waits until
# $t/delivered.log has N lines, `delivered_line TEXT TENTHS` until it has a
# line TEXT, or TENTHS tenths of a second went by.
follow_helpers() {
	cat > "$TMP/follow.sh" << 'SH'
lines() {
	i=1
	while [ $i -le "$1" ]; do echo "line $i $2" >&3; i=$((i + 1)); done
}
delivered() {
	n=0
	until [ "$(cat "$t/delivered.log" 2> /dev/null | wc -l)" -ge "$1" ] || [ $n -ge "$2" ]; do
		sleep 0.1
		n=$((n + 1))
	done
}
delivered_line() {
	n=0
	until grep -qx "$1" "$t/delivered.log" 2> /dev/null || [ $n -ge "$2" ]; do
		sleep 0.1
		n=$((n + 1))
	done
}
SH
}

# copytruncate NAME FOLLOWER [AFTER [stop]]: an application keeps $MNT/app.log open (O_APPEND)
# and writes 100 lines; FOLLOWER (a shell command run with exec in the
# background, in $MNT) follows the log and writes what it delivers to
# $TMP/delivered.log. Once it has delivered the 100 lines, logrotate rotates
# the log with copytruncate (copy to app.log.1, truncate app.log to 0), the
# application writes 40 more lines (less than the follower's offset), and
# the follower has 2 s to deliver them before it is stopped with SIGTERM
# (its exit status goes to $TMP/follower.status). AFTER: the lines written
# after the rotation (40); with stop, the follower is stopped (SIGSTOP) from
# before the rotation until those lines are written, as a busy follower
# would be, and it has 10 s to deliver the last line after it is let go on.
# Recorded with strace as NAME.
copytruncate() {
	printf '%s {\n\trotate 1\n\tcopytruncate\n}\n' "$MNT/app.log" > "$TMP/logrotate.conf"
	follow_helpers
	cat > "$TMP/scenario.sh" << 'SH'
cd "$1" || exit 1
t=$2
. "$t/follow.sh"
exec 3>> app.log
sh -c "exec $3" &
follower=$!
lines 100 "of the first file"
delivered 100 100
[ "$5" = stop ] && kill -STOP $follower
logrotate -f -s "$t/logrotate.state" "$t/logrotate.conf"
lines "$4" "after the rotation"
if [ "$5" = stop ]; then
	kill -CONT $follower
	delivered_line "line $4 after the rotation" 100
else
	delivered $((100 + $4)) 20
fi
kill $follower
wait $follower
echo "the follower exited with $?" > "$t/follower.status"
SH
	STRACE=1 record "$1" sh "$TMP/scenario.sh" "$MNT" "$TMP" "$2" "${3:-40}" "$4"
	echo "$1: the follower delivered $(wc -l < "$TMP/delivered.log") of the $((100 + ${3:-40})) lines"
}

# rsyslog_follower on|off: prints the command for copytruncate of an rsyslogd
# whose imfile follows $MNT/app.log (inotify mode, reopenOnTruncate on or off)
# and writes each of its lines to $TMP/delivered.log, nothing else.
rsyslog_follower() {
	mkdir -p "$TMP/rsyslog"
	cat > "$TMP/rsyslog.conf" <<- EOF
	global(workDirectory="$TMP/rsyslog")
	module(load="imfile" mode="inotify")
	input(type="imfile" file="$MNT/app.log" tag="app:" reopenOnTruncate="$1")
	template(name="line" type="string" string="%msg%\n")
	if \$syslogtag == "app:" then action(type="omfile" file="$TMP/delivered.log" template="line")
	EOF
	echo "rsyslogd -n -f $TMP/rsyslog.conf -i $TMP/rsyslog.pid"
}

# nginx_conf DIR LISTEN ROOT [HTTP]: DIR/nginx.conf, for one worker in the
# foreground (it runs as root because $TMP is private), its pid file, logs
# (DIR/logs/access.log, error.log) and temporary files in DIR, sendfile on
# as in Debian's nginx.conf, a server on LISTEN serving ROOT; HTTP: more
# directives of the http block. DIR/logs and DIR/tmp are made.
nginx_conf() {
	mkdir -p "$1/logs" "$1/tmp"
	cat > "$1/nginx.conf" <<- EOF
	worker_processes 1;
	user root;
	daemon off;
	pid $1/nginx.pid;
	error_log $1/logs/error.log;
	events { worker_connections 64; }
	http {
		sendfile on;
		tcp_nopush on;
		access_log $1/logs/access.log;
		client_body_temp_path $1/tmp/body;
		proxy_temp_path $1/tmp/proxy;
		fastcgi_temp_path $1/tmp/fastcgi;
		uwsgi_temp_path $1/tmp/uwsgi;
		scgi_temp_path $1/tmp/scgi;
		$4
		server {
			listen $2;
			root $3;
		}
	}
	EOF
}

# nginx_keepalive NAME: nginx_conf for a server on 127.0.0.1 (port $PORT)
# with keep-alive and open_file_cache, nginx in $TMP/nginx (an access log of
# 300000 requests would fill the ext4 image), serving a 4000-byte page,
# $MNT/www/index.html; recorded (serve) as NAME until unserve.
nginx_keepalive() {
	NGINX=$TMP/nginx
	mkdir -p "$MNT/www"
	head -c 4000 /usr/share/common-licenses/GPL-2 > "$MNT/www/index.html"
	PORT=$(free_port)
	nginx_conf "$NGINX" "127.0.0.1:$PORT" "$MNT/www" "keepalive_timeout 65;
		keepalive_requests 100000;
		open_file_cache max=64 inactive=60s;
		open_file_cache_valid 60s;"
	serve "$1" nginx -p "$NGINX" -c "$NGINX/nginx.conf" -e "$NGINX/logs/error.log"
	wait_for 20 test -s "$NGINX/nginx.pid"
}

# nginx_serve NAME on|off: nginx (nginx_conf) serves
# $MNT/www/index.html on a Unix socket, with the open_file_cache on or off;
# recorded with strace as NAME while a client that dio does not trace
# fetches the page 200 times, then stopped with SIGQUIT (graceful).
nginx_serve() {
	n=$MNT/nginx
	mkdir -p "$MNT/www"
	echo "<html><body>a small static page</body></html>" > "$MNT/www/index.html"
	cache=
	[ "$2" = on ] && cache="open_file_cache max=64 inactive=60s; open_file_cache_valid 60s;"
	nginx_conf "$n" "unix:$n/sock" "$MNT/www" "$cache"
	STRACE=1 record "$1" nginx -p "$n" -c "$n/nginx.conf" -e "$n/logs/error.log" &
	ns_rec=$!
	wait_for 20 test -S "$n/sock"
	python3 - "$n/sock" 200 << 'PY' || { kill -QUIT "$(cat "$n/nginx.pid")"; exit 1; }
import socket, sys
path, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    s.sendall(b"GET /index.html HTTP/1.0\r\nHost: localhost\r\n\r\n")
    reply = b""
    while chunk := s.recv(65536):
        reply += chunk
    s.close()
    if not reply.startswith(b"HTTP/1.1 200") or b"a small static page" not in reply:
        sys.exit(f"FAIL: request {i + 1}: {reply[:200]!r}")
PY
	kill -QUIT "$(cat "$n/nginx.pid")"
	wait $ns_rec || exit 1
}

# demo_deb: $TMP/corpus-demo.deb, a package of 20 small files in
# /usr/share/corpus-demo made with dpkg-deb (owner and group root/root, by
# name, in its data archive), and that archive alone in $TMP/data.tar.
demo_deb() {
	pkg=$TMP/pkg
	mkdir -p "$pkg/DEBIAN" "$pkg/usr/share/corpus-demo"
	for i in $(seq 20); do
		echo "file $i" > "$pkg/usr/share/corpus-demo/f$i"
	done
	cat > "$pkg/DEBIAN/control" <<- EOF
	Package: corpus-demo
	Version: 1.0
	Architecture: all
	Maintainer: dio <dio@localhost>
	Description: twenty small files
	EOF
	dpkg-deb -b "$pkg" "$TMP/corpus-demo.deb" > /dev/null &&
		dpkg-deb --fsys-tarfile "$TMP/corpus-demo.deb" > "$TMP/data.tar" ||
		{ echo "FAIL: dpkg-deb"; exit 1; }
}

# Servers a case started (serve): killed at exit, should the case fail before
# it stops them, so that none outlives its test.
SERVERS=
real_cleanup() {
	for sv in $SERVERS; do
		[ -s "$sv" ] && kill -KILL "$(cat "$sv")" 2> /dev/null
	done
	cleanup
}
trap real_cleanup EXIT

# serve NAME CMD ARGS...: record (in the background, as NAME) CMD, a server
# that stays in the foreground; SERVED is its pid once it runs. unserve
# stops it.
serve() {
	sv_name=$1
	shift
	record "$sv_name" sh -c 'echo $$ > "$0"; exec "$@"' "$TMP/$sv_name.pid" "$@" &
	SERVE_REC=$!
	SERVERS="$SERVERS $TMP/$sv_name.pid"
	wait_for 20 test -s "$TMP/$sv_name.pid"
	SERVED=$(cat "$TMP/$sv_name.pid")
}

# unserve SIGNAL: stop the server serve started with SIGNAL and wait until
# its recording and analysis are done; fail the case if they failed.
unserve() {
	kill -"$1" "$SERVED"
	wait "$SERVE_REC" || exit 1
	rm -f "$TMP/$sv_name.pid"
}

# free_port: a TCP port on 127.0.0.1 that nothing listens on now
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# c_project DIR: a small C program of 17 source files (main.c and m1.c to
# m16.c, each with a function of its own, and a header) in DIR, with a
# Makefile and a CMakeLists.txt; the program prints "sum 136".
c_project() {
	mkdir -p "$1"
	: > "$1/m.h"
	for i in $(seq 16); do
		echo "int m$i(int x);" >> "$1/m.h"
		cat > "$1/m$i.c" <<- EOF
		#include <errno.h>
		#include <stdint.h>
		#include <stdio.h>
		#include <stdlib.h>
		#include <string.h>
		#include <unistd.h>
		#include "m.h"
		static int twice(int x) { return 2 * x; }
		int m$i(int x)
		{
			char buf[32];
			snprintf(buf, sizeof(buf), "%d", twice(x));
			return (int)strlen(buf) * 0 + x + $i;
		}
		EOF
	done
	{
		echo '#include <stdio.h>'
		echo '#include "m.h"'
		echo 'int main(void)'
		echo '{'
		echo '	int s = 0;'
		for i in $(seq 16); do echo "	s = m$i(s) - s + s;"; done
		printf '\tprintf("sum %%d\\n", s);\n'
		echo '	return 0;'
		echo '}'
	} > "$1/main.c"
	{
		printf 'OBJS = main.o'
		for i in $(seq 16); do printf ' m%d.o' "$i"; done
		printf '\nCFLAGS = -O2 -g -Wall\n'
		printf 'app: $(OBJS)\n\t$(CC) -o $@ $(OBJS)\n'
		printf '%%.o: %%.c m.h\n\t$(CC) $(CFLAGS) -c -o $@ $<\n'
		printf 'clean:\n\trm -f app $(OBJS)\n'
	} > "$1/Makefile"
	{
		echo 'cmake_minimum_required(VERSION 3.13)'
		echo 'project(app C)'
		printf 'add_executable(app main.c'
		for i in $(seq 16); do printf ' m%d.c' "$i"; done
		echo ')'
	} > "$1/CMakeLists.txt"
}

# redis_verbose_log NAME: redis-server on a Unix socket, no snapshots, its
# log $MNT/redis.log at loglevel verbose, recorded with strace as NAME while
# redis-benchmark -k 0 connects anew for each of 200 requests (so that Redis
# logs two lines per connection), then stopped with SIGTERM.
redis_verbose_log() {
	mkdir "$TMP/redis"
	STRACE=1 serve "$1" redis-server --port 0 --unixsocket "$TMP/redis.sock" \
		--dir "$TMP/redis" --save "" --logfile "$MNT/redis.log" --loglevel verbose
	wait_for 20 test -S "$TMP/redis.sock"
	redis-benchmark -s "$TMP/redis.sock" -n 200 -c 1 -k 0 -t ping_inline -q \
		> "$TMP/bench.out" 2>&1 || { echo "FAIL: redis-benchmark"; cat "$TMP/bench.out"; exit 1; }
	unserve TERM
}

# fill_fs: fill $MNT, the blocks kept for root too (the programs run as root)
fill_fs() {
	dd if=/dev/zero of="$MNT/fill" bs=1M 2> /dev/null
	ff_i=0
	while echo "a line to fill the last blocks" >> "$MNT/fill2" 2> /dev/null &&
		[ $ff_i -lt 100000 ]; do
		ff_i=$((ff_i + 1))
	done
}

# make_tree DIR LINES: 300 files in DIR/d1 to DIR/d10, each the numbers from
# d*f to d*f+LINES (file f of directory d)
make_tree() {
	for mt_d in $(seq 10); do
		mkdir -p "$1/d$mt_d"
		for mt_f in $(seq 30); do
			seq "$((mt_d * mt_f))" "$((mt_d * mt_f + $2))" > "$1/d$mt_d/f$mt_f"
		done
	done
}
