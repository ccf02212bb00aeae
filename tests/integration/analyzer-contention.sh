#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The contention analyzer on tests/workloads/kvstore: four "rocksdb:low"
# threads writing as fast as they can with fsync make the two "client" threads'
# small writes and fdatasyncs slow and rare, which must give one finding whose
# interval is the background phase, whose background threads are the four, and
# whose rates and p99 call times are the ones worked out from the client calls
# the workload timed itself; the same threads rate-limited must give none; and
# the finding of a recorded trace analyzed offline is the one dio made inline.
#
# It needs a disk: the files go to /var/tmp (tmpfs has no device queue to
# fill, so there the test is skipped).
. "$top_srcdir/tests/integration/lib.sh"
need_root_bpf
fail=0

if [ "$(stat -f -c %T /var/tmp)" = tmpfs ]; then
	echo "SKIP: /var/tmp is a tmpfs: no disk whose queue background writes could fill"
	exit 77
fi
DATA=$(mktemp -d /var/tmp/dio-contention.XXXXXX) || exit 1
trap 'rm -rf "$DATA"; cleanup' EXIT

W=100000000	# the analyzer's default window, ns

# run NAME MODE [OPTIONS]: the workload under dio; its facts in $TMP/NAME.facts
run() {
	run_dio trace --no-summary -o /dev/null --sink "json:file=$TMP/$1.json" \
		--analyzer "contention$3" -- "$WL/kvstore" "$DATA" "$2" 9> "$TMP/$1.facts"
	if [ "$RC" -ne 0 ]; then
		echo "FAIL: $1: dio exited with $RC"
		fail=1
		return 1
	fi
	grep -v '^call ' "$TMP/$1.facts" | tr '\n' ' ' | sed "s/^/$1: workload: /"
	echo
}

fact() {
	sed -n "s/^$2=//p" "$TMP/$1.facts"
}

findings() {
	jq -c 'select(.type == "finding" and .analyzer == "contention")' "$TMP/$1.json"
}

# expected START END: from the client calls, as the analyzer must count them
# with windows of W ns aligned on START and the contended ones in [START, END):
# "baseline_rate baseline_p99 contended_rate contended_p99", rates in calls a
# second over the windows that had a call in flight, as had the windows either
# side (the edges of the clients' activity are partly idle and do not count),
# p99 in ns
expected() {
	awk -v s="$1" -v e="$2" -v w="$W" -v out="$TMP/durations" '
	function win(t) { return t >= s ? int((t - s) / w) : -int((s - t + w - 1) / w) }
	$1 == "call" {
		for (k = win($2); k <= win($2 + $3); k++)
			present[k] = 1
		n++
		at[n] = win($2)
		dur[n] = $3
	}
	END {
		for (k in present)
			if ((k - 1) in present && (k + 1) in present)
				windows[k + 0 >= 0 && k + 0 < (e - s) / w]++
		for (i = 1; i <= n; i++) {
			k = at[i]
			if (!((k - 1) in present && (k + 1) in present))
				continue
			c = k >= 0 && k < (e - s) / w
			calls[c]++
			print c, dur[i] > out
		}
		printf "%.0f %.0f\n", calls[0] * 1e9 / (windows[0] * w), calls[1] * 1e9 / (windows[1] * w)
	}' > "$TMP/rates"
	read -r ex_br ex_cr < "$TMP/rates"
	for c in 0 1; do
		# the p99 as the analyzer ranks it: the ceil(0.99 n)-th smallest
		awk -v c=$c '$1 == c { print $2 }' "$TMP/durations" | sort -n |
			awk '{ d[NR] = $1 } END { print d[int((NR * 99 + 99) / 100)] }' > "$TMP/p99.$c"
	done
	echo "$ex_br $(cat "$TMP/p99.0") $ex_cr $(cat "$TMP/p99.1")"
}

# ns TEXT: "262 us", "16.8 ms", "1.50 s" in ns, and half the unit of its last digit
ns() {
	echo "$1" | awk '{ m = $2 == "s" ? 1e9 : $2 == "ms" ? 1e6 : 1e3
		r = $2 == "s" ? 5e6 : $2 == "ms" ? 5e4 : 1e3
		printf "%.0f %.0f\n", $1 * m, r }'
}

# near GOT WANT PCT: GOT within PCT % of WANT (and 1 either way, for rounding)
near() {
	awk -v g="$1" -v w="$2" -v p="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= w * p / 100 + 1) }'
}

if run saturate saturate; then
	n=$(findings saturate | grep -c .)
	if [ "$n" -ne 1 ]; then
		echo "FAIL: $n contention findings for the saturating workload, expected 1"
		findings saturate
		fail=1
	else
		f=$(findings saturate)
		echo "saturate: $(printf "%s\n" "$f" | jq -r .title)"
		get() { printf "%s\n" "$f" | jq -r "$1"; }
		[ "$(get .code)" = contention.background-io ] || { echo "FAIL: code $(get .code)"; fail=1; }
		[ "$(get .pid)" = "$(fact saturate pid)" ] || { echo "FAIL: pid $(get .pid)"; fail=1; }
		case " $(fact saturate fg_tids) " in
		*" $(get .tid) "*) ;;
		*) echo "FAIL: tid $(get .tid) is no client thread"; fail=1 ;;
		esac
		[ "$(get .comm)" = client ] || { echo "FAIL: group '$(get .comm)', expected client"; fail=1; }
		[ "$(get .count)" = 1 ] || { echo "FAIL: $(get .count) harmful intervals, expected 1"; fail=1; }
		msg=$(get .message)
		bgs=$(printf "%s\n" "$msg" | sed -n 's/^Background threads doing I\/O then: \(.*\) (.*/\1/p' |
			tr -d ' ' | tr ',' '\n' | sort | paste -sd, | sed 's/,/, /g')
		if [ "$bgs" != "$(fact saturate bg_threads)" ]; then
			echo "FAIL: background threads '$bgs', expected '$(fact saturate bg_threads)'"
			fail=1
		fi
		printf "%s\n" "$msg" | grep -q '^The foreground threads client[01], client[01] (group client)' ||
			{ echo "FAIL: the message does not name the two client threads"; fail=1; }
		if printf "%s\n" "$msg" | grep -q 'did no harm\|before there was a baseline'; then
			echo "FAIL: contended intervals other than the background phase:"
			echo "$msg"
			fail=1
		fi
		# the interval is the background phase, to within a window either side
		start=$(get .ts_ns)
		end=$(get .last_ts_ns)
		bs=$(fact saturate bg_start_ns)
		be=$(fact saturate bg_end_ns)
		if [ "$start" -lt $((bs - W)) ] || [ "$start" -gt $((bs + W)) ] ||
		   [ "$end" -lt "$be" ] || [ "$end" -gt $((be + 5 * W)) ]; then
			echo "FAIL: interval [$start, $end) is not the background phase [$bs, $be)"
			fail=1
		fi
		# the numbers of the title, against the client calls the workload timed
		title=$(get .title)
		set -- $(printf "%s\n" "$title" | sed -n 's/^client: \([0-9]*\) I\/O calls\/s instead of \([0-9]*\) ([-+0-9]*%), p99 \([0-9.]* [mu]*s\) instead of \([0-9.]* [mu]*s\) (x[0-9.]*) while \([0-9]*\) background threads did I\/O$/\1 \2 \3 \4 \5/p')
		if [ $# -ne 7 ]; then
			echo "FAIL: title not as expected: $title"
			fail=1
		else
			got_cr=$1 got_br=$2 got_cp=$(ns "$3 $4") got_bp=$(ns "$5 $6") peak=$7
			# "value rounding" each
			set -- $(expected "$start" "$end" < "$TMP/saturate.facts")
			echo "saturate: expected from the calls: baseline $1 calls/s p99 $2 ns," \
			     "contended $3 calls/s p99 $4 ns; dio: $got_br, ${got_bp% *}, $got_cr," \
			     "${got_cp% *}"
			near "$got_br" "$1" 1 || { echo "FAIL: baseline rate $got_br, expected $1"; fail=1; }
			near "$got_cr" "$3" 1 || { echo "FAIL: contended rate $got_cr, expected $3"; fail=1; }
			# a histogram p99 is the top of its bucket: at most 25 % high, then rounded
			for pair in "$got_bp $2 baseline" "$got_cp $4 contended"; do
				set -- $pair
				if ! awk -v g="$1" -v r="$2" -v w="$3" \
					'BEGIN { exit !(g >= w - r && g <= w * 1.25 + r) }'; then
					echo "FAIL: $4 p99 $1 ns (shown to $2 ns), expected $3 ns to 25 % above"
					fail=1
				fi
			done
			[ "$peak" = 4 ] || { echo "FAIL: $peak background threads at once, expected 4"; fail=1; }
			# the effect itself: at least a 30 % drop or twice the p99, as the workload saw it
			awk -v br="$(fact saturate base_rate)" -v cr="$(fact saturate cont_rate)" \
			    -v bp="$(fact saturate base_p99_us)" -v cp="$(fact saturate cont_p99_us)" \
			    'BEGIN { exit !(cr <= 0.7 * br || cp >= 2 * bp) }' ||
				{ echo "FAIL: the workload itself saw no harm: the disk did not saturate"; fail=1; }
		fi
	fi
fi

if run throttled throttled; then
	if [ -n "$(findings throttled)" ]; then
		echo "FAIL: the rate-limited background threads got a finding:"
		findings throttled | jq -r '.title, .message'
		fail=1
	fi
fi

# inline == offline
inline_is_offline contention 1 "$WL/kvstore" "$DATA" saturate 9> /dev/null || fail=1
exit $fail
