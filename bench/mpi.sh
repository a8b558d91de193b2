#!/bin/sh
# bench/mpi.sh: partitioned samples under MPI (falconc --mpi, host parts).
# Builds partitioned_sssp, partitioned_bfs and partitioned_pagerank with
# mpicc and, on each graph and rank count, prints the median time and the
# ghost traffic (FALCON_VERBOSE: records sent per round, all ranks),
# checking every result against the serial references.
#
#   bench/mpi.sh [--trials N] [--ranks "1 2 4"] [--compare VAR=VALUE]
#                [GRAPH.bin ...]
#
# --compare runs each row a second time with VAR=VALUE in the ranks'
# environment, trial by trial in turn with the first (for example
# FALCON_MPI_WINDOW=off: docs/lowering.md "Ranks that share a window"),
# and prints the ratio.  SAMPLES= some of partitioned_sssp,
# partitioned_bfs and partitioned_pagerank (default: all three).
# Default graphs: road-FLA (../shared/data, weights 1..1000) and a
# 2^20-point Kronecker graph (degree 16), made once under bench/cache/.
# BUILD= names the build directory; MPIRUN_FLAGS are added to mpirun
# (default --oversubscribe); OMP_NUM_THREADS (default 1) per rank.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
build=${BUILD:-$top/build}
data=${DATA:-$top/../shared/data}
trials=3
ranks="1 2 4"
compare=
while [ $# -gt 0 ]; do
	case $1 in
	--trials) trials=$2; shift 2 ;;
	--ranks) ranks=$2; shift 2 ;;
	--compare) compare=$2; shift 2 ;;
	*) break ;;
	esac
done
[ -f "$build/libfalcon_mpi.a" ] || { echo "bench: no $build/libfalcon_mpi.a (configure found no MPI)" >&2; exit 1; }
cache=$here/cache
mkdir -p "$cache/mpi"
if [ $# -eq 0 ]; then
	[ -f "$cache/road-FLA.bin" ] ||
		"$build/falgraph" --weights 1 1000 1 convert "$data/road-FLA.gr.xz" "$cache/road-FLA.bin" >/dev/null
	[ -f "$cache/kron-20.bin" ] ||
		"$build/falgraph" --weights 1 1000 1 gen kron 20 16 1 "$cache/kron-20.bin" >/dev/null
	set -- "$cache/road-FLA.bin" "$cache/kron-20.bin"
fi
if [ "$(id -u)" = 0 ]; then
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
fi
OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
export OMP_NUM_THREADS
samples=${SAMPLES:-partitioned_sssp partitioned_bfs partitioned_pagerank}
for s in $samples; do
	"$build/falconc" --mpi -o "$cache/mpi/$s.c" "$top/samples/$s.fal"
	${MPICC:-mpicc} -std=c11 -O3 -fopenmp -I"$top/include" -o "$cache/mpi/$s" \
		"$cache/mpi/$s.c" "$build/libfalcon_mpi.a" "$build/libfalcon.a" -lz -llzma -lm
done

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
	else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# once NP OUT ENV COMMAND...: one run (ENV: VAR=VALUE, or - for none),
# its time appended to OUT
once() {
	np=$1 out=$2 env=$3; shift 3
	[ "$env" = - ] && env=FALCON_BENCH_NONE=1
	# shellcheck disable=SC2086
	FALCON_VERBOSE=1 mpirun ${MPIRUN_FLAGS:---oversubscribe} -np "$np" env "$env" "$@" \
		>"$cache/mpi/out" 2>&1 || { cat "$cache/mpi/out" >&2; exit 1; }
	sed -n 's/^[a-z_]*: time \([0-9.]*\) ms$/\1/p' "$cache/mpi/out" >>"$out"
}

# run LABEL NP KIND REF COMMAND...: median time, records per round, check
# (with --compare also the second environment's, each result checked)
run() {
	label=$1 np=$2 kind=$3 ref=$4; shift 4
	: >"$cache/mpi/times"
	: >"$cache/mpi/times2"
	i=0
	while [ $i -lt "$trials" ]; do
		if [ -n "$compare" ]; then
			once "$np" "$cache/mpi/times2" "$compare" "$@"
			"$build/falref" compare "$kind" "$cache/mpi/res" "$ref" >/dev/null ||
				{ echo "bench: wrong result ($label, $np ranks, $compare)" >&2; exit 1; }
		fi
		once "$np" "$cache/mpi/times" - "$@"
		i=$((i + 1))
	done
	"$build/falref" compare "$kind" "$cache/mpi/res" "$ref" >/dev/null ||
		{ echo "bench: wrong result ($label, $np ranks)" >&2; exit 1; }
	per=$(sed -n 's/.* \([0-9]*\) rounds, [0-9]* messages, \([0-9]*\) records sent.*/\1 \2/p' "$cache/mpi/out" |
		awk '{ r = $1; s += $2 } END { if (r) printf "%.0f", s / r; else print 0 }')
	rounds=$(sed -n 's/.* \([0-9]*\) rounds, [0-9]* messages.*/\1/p' "$cache/mpi/out" | head -1)
	t=$(median <"$cache/mpi/times")
	if [ -n "$compare" ]; then
		t2=$(median <"$cache/mpi/times2")
		printf '  %-22s %2d rank(s) %10.1f ms %5s rounds %10s records/round; %s: %10.1f ms (%.2fx)\n' \
			"$label" "$np" "$t" "${rounds:-?}" "$per" "$compare" "$t2" "$(echo "$t $t2" | awk '{ print $1 / $2 }')"
	else
		printf '  %-22s %2d rank(s) %10.1f ms %10s records/round\n' "$label" "$np" "$t" "$per"
	fi
}

for g in "$@"; do
	src=0
	if "$build/falgraph" info "$g" | grep -q '^point 0 degree: 0$'; then
		src=$("$build/falgraph" info "$g" | sed -n 's/^max degree: .*(point \([0-9]*\))$/\1/p')
	fi
	echo "$(basename "$g") (source $src):"
	case " $samples " in *" partitioned_sssp "*) "$build/falref" sssp "$g" "$src" "$cache/mpi/ref.d" >/dev/null ;; esac
	case " $samples " in *" partitioned_bfs "*) "$build/falref" bfs "$g" "$src" "$cache/mpi/ref.l" >/dev/null ;; esac
	case " $samples " in *" partitioned_pagerank "*) "$build/falref" pagerank "$g" "$cache/mpi/ref.r" >/dev/null ;; esac
	for np in $ranks; do
		case " $samples " in *" partitioned_sssp "*)
			run "partitioned SSSP" "$np" exact "$cache/mpi/ref.d" \
				"$cache/mpi/partitioned_sssp" "$g" "$src" 0 1 "$cache/mpi/res" ;;
		esac
		case " $samples " in *" partitioned_bfs "*)
			run "partitioned BFS" "$np" exact "$cache/mpi/ref.l" \
				"$cache/mpi/partitioned_bfs" "$g" "$src" 0 1 "$cache/mpi/res" ;;
		esac
		case " $samples " in *" partitioned_pagerank "*)
			run "partitioned PageRank" "$np" pagerank "$cache/mpi/ref.r" \
				"$cache/mpi/partitioned_pagerank" "$g" 0 1 "$cache/mpi/res" ;;
		esac
	done
done
