#!/bin/sh
# fuzz/run.sh DIR SECONDS [HARNESS...]: runs the AFL++ harnesses built by
# make fuzz (default: falconc and graph), at once (one core each), for
# SECONDS each, then prints per harness the
# executions, paths (corpus entries), crashes and hangs from fuzzer_stats.
# Findings are in DIR/out/HARNESS/default/{crashes,hangs}; replay one with
# DIR/replay_HARNESS FILE (same sanitizers, no AFL) to see the report.
# A second run resumes from the corpus of the first (AFL_AUTORESUME).
set -eu
dir=$1 secs=$2
shift 2
harnesses=${*:-falconc graph}
export AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_AUTORESUME=1 AFL_NO_AFFINITY=1
export AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
# A huge allocation fails (NULL) rather than aborting: the runtime's and
# falconc's allocators must then report "out of memory" and exit, which is
# a clean failure, not a finding.  Leaks are not findings either.
# Graphs bigger than 256 MiB are refused (runtime/util.c, fal_mem_limit):
# a tiny SNAP file naming point 10^9 is a real graph, too slow to build
# under the fuzzer.
export FALCON_MEM_LIMIT=256M
export ASAN_OPTIONS=abort_on_error=1:symbolize=0:detect_leaks=0:allocator_may_return_null=1:max_allocation_size_mb=1024
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
for h in $harnesses; do
	dict=
	[ $h = falconc ] && dict="-x $(dirname "$0")/falcon.dict"
	mkdir -p "$dir/out/$h"
	# shellcheck disable=SC2086 # dict is two words or none
	nice afl-fuzz -V "$secs" -t 2000 -m none $dict -i "$dir/seeds/$h" \
		-o "$dir/out/$h" -- "$dir/fuzz_$h" >"$dir/out/$h.log" 2>&1 &
done
wait
for h in $harnesses; do
	s=$dir/out/$h/default/fuzzer_stats
	if [ ! -f "$s" ]; then
		echo "$h: no fuzzer_stats (see $dir/out/$h.log)"
		continue
	fi
	awk -v h=$h -F' *: *' '{v[$1] = $2}
		END {printf "%-8s executions %s, paths %s, crashes %s, hangs %s, run time %ss\n",
			h, v["execs_done"], v["corpus_count"], v["saved_crashes"], v["saved_hangs"], v["run_time"]}' "$s"
done
