#!/bin/sh
# fuzz/run.sh DIR SECONDS [HARNESS...]: runs the AFL++ harnesses built by
# make fuzz (default: falconc and graph), all at once, for SECONDS each,
# then prints per harness the executions, paths (corpus entries of the
# main instance), crashes and hangs, summed over its instances.
# FUZZ_JOBS=N: N instances per harness (one -M, the others -S; default 1).
# Findings are in DIR/out/HARNESS/*/{crashes,hangs}; replay one with
# DIR/replay_HARNESS FILE (same sanitizers, no AFL) to see the report.
# A second run resumes from the corpus of the first (AFL_AUTORESUME).
set -eu
dir=$1 secs=$2
shift 2
harnesses=${*:-falconc graph}
jobs=${FUZZ_JOBS:-1}
export AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_AUTORESUME=1 AFL_NO_AFFINITY=1
export AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
# Graphs bigger than 64 MiB are refused (runtime/util.c, fal_mem_limit):
# a tiny SNAP file naming point 10^8 is a real graph, too slow to build
# under the fuzzer.
export FALCON_MEM_LIMIT=64M
# A huge allocation fails (NULL) rather than aborting: the runtime's and
# falconc's allocators must then report "out of memory" and exit, which is
# a clean failure, not a finding.  Leaks are not findings either.
export ASAN_OPTIONS=abort_on_error=1:symbolize=0:detect_leaks=0:allocator_may_return_null=1:max_allocation_size_mb=1024
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
for h in $harnesses; do
	dict=
	[ $h = falconc ] && dict="-x $(dirname "$0")/falcon.dict"
	mkdir -p "$dir/out/$h"
	j=1
	while [ $j -le "$jobs" ]; do
		if [ $j -eq 1 ]; then role="-M default"; else role="-S sec$j"; fi
		# shellcheck disable=SC2086 # dict and role are words
		nice afl-fuzz $role -V "$secs" -t 2000 -m none $dict -i "$dir/seeds/$h" \
			-o "$dir/out/$h" -- "$dir/fuzz_$h" >"$dir/out/$h.$j.log" 2>&1 &
		j=$((j + 1))
	done
done
wait
for h in $harnesses; do
	cat "$dir"/out/$h/*/fuzzer_stats 2>/dev/null | awk -v h=$h -F' *: *' '
		$1 == "execs_done" { ex += $2 } $1 == "saved_crashes" { cr += $2 }
		$1 == "saved_hangs" { hg += $2 } $1 == "run_time" { if ($2 > rt) rt = $2 }
		$1 == "corpus_count" { if ($2 > paths) paths = $2 } $1 == "start_time" { n++ }
		END { if (!n) printf "%s: no fuzzer_stats\n", h;
			else printf "%-8s executions %d, paths %d, crashes %d, hangs %d (%d instances, %ds)\n",
				h, ex, paths, cr, hg, n, rt }'
done
