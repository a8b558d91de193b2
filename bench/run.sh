#!/bin/sh
# bench/run.sh: builds the samples with falconc (--target=cpu) and times
# them on real and generated graphs, printing the median of several trials
# and its ratio to the best hand-written CPU code (bench/references.txt,
# from shared/performance.md).  Not part of `make check`.
#
#   bench/run.sh [--trials N] [--threads T] [--algos "sssp bfs cc pagerank ..."]
#                [--graphs "road-FLA kron-20 slashdot"] [--gpu]
#
# --gpu builds the samples for CUDA (falconc, then nvcc for sm_90) and
# compares with the best hand-written GPU code instead (GPU_LIBS: the
# libraries to link, default -lz -llzma -lgomp).
#
# SSSP and BFS start at point 0, or at the point of highest degree when
# point 0 has no edges.  Graphs are prepared once under bench/cache/ (binary CSR with weights
# 1..1000, seed 1): road-FLA and slashdot from ../shared/data, kron-20 a
# 2^20-point Kronecker graph of average degree 16 (falgraph gen kron 20 16).
# Run from a configured build directory (after ./configure && make).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
build=${BUILD:-$top/build}
data=${DATA:-$top/../shared/data}
trials=5
threads=2
# The data-driven variants (Collections, §3.5) run next to the
# topology-driven samples and are compared with the same references.
algos="sssp sssp_topo sssp_worklist sssp_delta bfs bfs_worklist cc cc_simple pagerank tc tc_simple"
graphs="road-FLA kron-20"
gpu=0
while [ $# -gt 0 ]; do
	case $1 in
	--trials) trials=$2; shift 2 ;;
	--threads) threads=$2; shift 2 ;;
	--algos) algos=$2; shift 2 ;;
	--graphs) graphs=$2; shift 2 ;;
	--gpu) gpu=1; shift ;;
	*) echo "bench: unknown option $1" >&2; exit 2 ;;
	esac
done
for tool in falconc falgraph libfalcon.a; do  # BUILD= names another build
	[ -e "$build/$tool" ] || { echo "bench: $build/$tool missing: run make first" >&2; exit 1; }
done
# config.mk is make syntax: read the two values we need from it.
mkvar() { sed -n "s/^$1 = //p" "$top/config.mk" 2>/dev/null; }
CC=${CC:-$(mkvar CC)}
CC=${CC:-cc}
OPENMP_CFLAGS=${OPENMP_CFLAGS:-$(mkvar OPENMP_CFLAGS)}
cache=$here/cache
mkdir -p "$cache/bin"

prepare() { # prepare NAME -> path of the cached binary graph
	out=$cache/$1.bin
	if [ ! -f "$out" ]; then
		echo "bench: preparing $1 (once)" >&2
		case $1 in
		road-FLA) "$build/falgraph" --weights 1 1000 1 convert "$data/road-FLA.gr.xz" "$out" >&2 ;;
		road-NY) "$build/falgraph" --weights 1 1000 1 convert "$data/road-NY.gr.xz" "$out" >&2 ;;
		slashdot) "$build/falgraph" --weights 1 1000 1 convert "$data/soc-Slashdot0902.txt.gz" "$out" >&2 ;;
		kron-20) "$build/falgraph" --weights 1 1000 1 gen kron 20 16 1 "$out" >&2 ;;
		*) echo "bench: unknown graph $1" >&2; exit 1 ;;
		esac
	fi
	echo "$out"
}

build_sample() { # build_sample ALGO -> path of the binary
	exe=$cache/bin/$1
	if [ "$gpu" = 1 ]; then
		"$build/falconc" -o "$cache/bin/$1.cu" "$top/samples/$1.fal"
		${NVCC:-nvcc} -std=c++17 -O3 -arch=sm_90 -Xcompiler -fopenmp -I"$top/include" \
			-o "$exe" "$cache/bin/$1.cu" "$build/libfalcon.a" ${GPU_LIBS:--lz -llzma -lgomp}
	else
		"$build/falconc" --target=cpu -o "$cache/bin/$1.c" "$top/samples/$1.fal"
		$CC -std=c11 -O3 -march=native ${OPENMP_CFLAGS:--fopenmp} -I"$top/include" \
			-o "$exe" "$cache/bin/$1.c" "$build/libfalcon.a" -lz -llzma -lm
	fi
	echo "$exe"
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
	else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '%-13s %-9s %8s %10s %10s %8s\n' algo graph threads "median ms" "ref ms" ratio
for g in $graphs; do
	gfile=$(prepare "$g")
	# SSSP and BFS start at point 0 unless it is isolated (Kronecker ids are
	# permuted): then at the point of highest degree.
	source=0
	if "$build/falgraph" info "$gfile" | grep -q '^point 0 degree: 0$'; then
		source=$("$build/falgraph" info "$gfile" | sed -n 's/^max degree: .*(point \([0-9]*\))$/\1/p')
	fi
	for a in $algos; do
		exe=$(build_sample "$a")
		: >"$cache/times"
		i=0
		while [ $i -lt "$trials" ]; do
			case $a in sssp* | bfs*) arg=$source ;; *) arg= ;; esac
			# shellcheck disable=SC2086
			OMP_NUM_THREADS=$threads "$exe" "$gfile" $arg >"$cache/out" 2>&1 ||
				{ cat "$cache/out" >&2; exit 1; }
			sed -n 's/.*time \([0-9.]*\) ms.*/\1/p' "$cache/out" >>"$cache/times"
			i=$((i + 1))
		done
		med=$(median <"$cache/times")
		col=3; [ "$gpu" = 1 ] && col=4
		ra=${a%%_*} # sssp_worklist and sssp_delta are SSSPs, bfs_worklist a BFS, cc_simple a CC
		ref=$(awk -v a="$ra" -v g="$g" -v c=$col '$1 == a && $2 == g { print $c }' "$here/references.txt")
		ratio=-
		[ -n "$ref" ] && ratio=$(awk -v m="$med" -v r="$ref" 'BEGIN { printf "%.2f", m / r }')
		printf '%-13s %-9s %8s %10.1f %10s %8s\n' "$a" "$g" "$threads" "$med" "${ref:--}" "$ratio"
	done
done
if [ "$gpu" = 1 ]; then
	echo "(ratio = falconc median / best hand-written GPU code (H200); below 1 is faster)"
else
	echo "(ratio = falconc median / best hand-written CPU code; below 1 is faster)"
fi
