#!/bin/sh
# bench/multi.sh: several devices (§4.5, §7).  Builds the two multi-device
# samples for CUDA and, on each graph, times
#   - SSSP and BFS one after the other vs. at once in parallel sections
#     (samples/multigpu_sssp_bfs.fal; with two GPUs each gets one);
#   - samples/sssp.fal and samples/bfs.fal unpartitioned on one GPU;
#   - one SSSP and one BFS over partitions: 1 GPU, 2 GPUs (the border
#     exchange), and with MULTI_HOST=1 2 GPUs + the host
#     (samples/partitioned_sssp.fal, samples/partitioned_bfs.fal), with
#     the speed-up of 2 GPUs over 1 and the ratio to the unpartitioned time;
#   - the same two under MPI (falconc --mpi --target=gpu), 2 ranks with a
#     GPU part each, against the single-process 2-GPU time (MPIRUN_FLAGS:
#     mpirun's options, default --bind-to none);
# checking every result against the serial references, and prints medians.
#
#   bench/multi.sh [--trials N] [GRAPH.bin ...]
#   bench/multi.sh --build-only
#
# --build-only compiles the programs into bench/cache/bin and stops: on
# a machine with nvcc and falconc (this one), so that a GPU machine
# without libtree-sitter runs them with BINDIR=bench/cache/bin (carry
# bench/cache/bin and build; the graphs are made there).
#
# Default graphs: road-FLA (../shared/data, weights 1..1000) and a
# 2^22-point Kronecker graph (degree 16), made once under bench/cache/;
# KRON="22 24" makes and runs Kronecker graphs of those scales instead
# (issue 15 asks for at least 2^22 points; kron-24 takes about 4.5 GB).
# BUILD= names the build directory, GPU_LIBS the libraries to link,
# BINDIR= a directory of these five programs built already, NVCC= the
# compiler and its options.  Parts on GPUs send their MINs on other
# parts' points to the owners unless FALCON_PX_REMOTE=off
# (docs/optimiser.md "Cut edges that write their owner"), and their
# kernels take a warp per point on graphs whose degree asks for it unless
# FALCON_PARTS_WARP=off (docs/optimiser.md "Parts kernels with a warp per
# point"; MPI ranks only with FALCON_PARTS_WARP=on); with 2 GPUs or more
# the script times the runs each way, and SSSP's two GPUs also with
# FALCON_PX_REMOTE=fetch (docs/optimiser.md "The owner's value back").
# BFS also runs its two parts with FALCON_PULL_IN=kernel (the one-barrier
# kernel, which pulls, from the first round) and its MPI ranks with
# FALCON_PULL_IN=host (docs/optimiser.md "Pull rounds inside the parts'
# kernel").
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
build=${BUILD:-$top/build}
data=${DATA:-$top/../shared/data}
trials=3 build_only=0
[ "${1:-}" = --trials ] && { trials=$2; shift 2; }
[ "${1:-}" = --build-only ] && { build_only=1; shift; }
cache=$here/cache
mkdir -p "$cache/bin"
# The GPU machines have no ../shared: --build-only copies road-FLA's
# source next to the programs, and a run with BINDIR takes it from there.
if [ $build_only = 1 ] && [ -f "$data/road-FLA.gr.xz" ]; then
	rm -f "$cache/bin/road-FLA.gr.xz"
	cp "$data/road-FLA.gr.xz" "$cache/bin/road-FLA.gr.xz"
elif [ ! -f "$data/road-FLA.gr.xz" ] && [ -f "${BINDIR:-$cache/bin}/road-FLA.gr.xz" ]; then
	data=${BINDIR:-$cache/bin}
fi
if [ $# -eq 0 ] && [ $build_only = 0 ]; then
	[ -f "$cache/road-FLA.bin" ] ||
		"$build/falgraph" --weights 1 1000 1 convert "$data/road-FLA.gr.xz" "$cache/road-FLA.bin" >/dev/null
	set -- "$cache/road-FLA.bin"
	for k in ${KRON:-22}; do # KRON="22 24": Kronecker graphs of 2^22 and 2^24 points
		case $k in 1[0-9] | 2[0-6]) ;; *) echo "bench: KRON=$k: a scale from 10 to 26" >&2; exit 2 ;; esac
		[ -f "$cache/kron-$k.bin" ] ||
			"$build/falgraph" --weights 1 1000 1 gen kron "$k" 16 1 "$cache/kron-$k.bin" >/dev/null
		set -- "$@" "$cache/kron-$k.bin"
	done
fi
for s in multigpu_sssp_bfs partitioned_sssp partitioned_bfs sssp bfs; do
	# BINDIR: programs built already (nvcc elsewhere), taken as they are
	if [ -n "${BINDIR:-}" ]; then
		[ "$BINDIR/$s" -ef "$cache/bin/$s" ] || cp "$BINDIR/$s" "$cache/bin/$s"
		continue
	fi
	"$build/falconc" -o "$cache/bin/$s.cu" "$top/samples/$s.fal"
	${NVCC:-nvcc} -std=c++17 -O3 -arch=sm_90 -Xcompiler -fopenmp -I"$top/include" \
		-o "$cache/bin/$s" "$cache/bin/$s.cu" "$build/libfalcon.a" ${GPU_LIBS:--lz -llzma -lgomp}
done
# MPI (docs/lowering.md "GPU parts under MPI"): the partitioned samples
# built with falconc --mpi --target=gpu, run as 2 ranks with one GPU part
# each, against the single-process 2-GPU time.  Needs mpirun and
# libfalcon_mpi (configure found MPI), and mpicc to link, or the two
# programs in BINDIR as mp_partitioned_sssp and mp_partitioned_bfs.
mpi=0
if command -v mpirun >/dev/null 2>&1 && [ -f "$build/libfalcon_mpi.a" ]; then
	mpi=1
	for s in partitioned_sssp partitioned_bfs; do
		if [ -n "${BINDIR:-}" ]; then
			[ -x "$BINDIR/mp_$s" ] || { mpi=0; continue; }
			[ "$BINDIR/mp_$s" -ef "$cache/bin/mp_$s" ] || cp "$BINDIR/mp_$s" "$cache/bin/mp_$s"
			continue
		fi
		command -v mpicc >/dev/null 2>&1 || { mpi=0; break; }
		mpilibs=
		for w in $(mpicc --showme:link); do # mpicc's link words, for nvcc
			case $w in
			-L* | -l*) mpilibs="$mpilibs $w" ;;
			-Wl,*) mpilibs="$mpilibs -Xlinker ${w#-Wl,}" ;;
			*) mpilibs="$mpilibs -Xcompiler $w" ;;
			esac
		done
		"$build/falconc" --mpi --target=gpu -o "$cache/bin/mp_$s.cu" "$top/samples/$s.fal"
		# shellcheck disable=SC2086
		${NVCC:-nvcc} -std=c++17 -O3 -arch=sm_90 -Xcompiler -fopenmp -I"$top/include" \
			-o "$cache/bin/mp_$s" "$cache/bin/mp_$s.cu" "$build/libfalcon_mpi.a" "$build/libfalcon.a" \
			${GPU_LIBS:--lz -llzma -lgomp} $mpilibs
	done
fi
[ $mpi = 1 ] || echo "bench: note: no MPI runs (mpirun, libfalcon_mpi or mpicc missing)"
if [ $build_only = 1 ]; then
	echo "bench: the programs are in $cache/bin: run BINDIR=${cache#"$top"/}/bin $0 from $top"
	exit 0
fi
if [ "$(id -u)" = 0 ]; then
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
fi
nvidia-smi -L 2>/dev/null || echo "bench: no GPU visible"
ngpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
[ "$ngpus" -ge 2 ] ||
	echo "bench: note: fewer than 2 GPUs: the 2-GPU runs put both parts on one device"

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
	else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# run LABEL COMMAND...: the median of the "time" lines of several runs
run() {
	label=$1; shift
	: >"$cache/times"
	i=0
	while [ $i -lt "$trials" ]; do
		"$@" >"$cache/out" 2>&1 || { cat "$cache/out" >&2; exit 1; }
		sed -n 's/^[a-z_]*: time \([0-9.]*\) ms$/\1/p' "$cache/out" >>"$cache/times"
		i=$((i + 1))
	done
	last=$(median <"$cache/times")
	printf '  %-42s %10.1f ms\n' "$label" "$last"
}

# An MPI row with one setting (NAME=VALUE) for sample $a on graph $g:
# timed, checked against the reference, and its ratio to the single
# process's two GPUs ($t2).
mpi_variant() {
	# shellcheck disable=SC2086
	run "partitioned $a, MPI 2 ranks x (1 0), $1" env "$1" \
		mpirun ${MPIRUN_FLAGS:---bind-to none} -np 2 \
		"$cache/bin/mp_partitioned_$a" "$g" "$src" 1 0 "$cache/out.p"
	"$build/falref" compare exact "$cache/out.p" "$cache/$ref" >/dev/null ||
		{ echo "bench: wrong partitioned $a result (MPI, 2 ranks, $1)" >&2; exit 1; }
	awk -v a="$a" -v s="$1" -v m="$last" -v t2="$t2" 'BEGIN {
		printf "  partitioned %s: MPI 2 ranks, %s / single process 2 GPUs %.2f\n", a, s, m / t2 }'
}

for g in "$@"; do
	src=0
	if "$build/falgraph" info "$g" | grep -q '^point 0 degree: 0$'; then
		src=$("$build/falgraph" info "$g" | sed -n 's/^max degree: .*(point \([0-9]*\))$/\1/p')
	fi
	echo "$(basename "$g") (source $src):"
	"$build/falref" sssp "$g" "$src" "$cache/ref.d" >/dev/null
	"$build/falref" bfs "$g" "$src" "$cache/ref.l" >/dev/null
	for mode in serial parallel; do
		run "SSSP + BFS, $mode" "$cache/bin/multigpu_sssp_bfs" "$g" "$src" \
			"$cache/out.d" "$cache/out.l" $mode
		"$build/falref" compare exact "$cache/out.d" "$cache/ref.d" >/dev/null &&
			"$build/falref" compare exact "$cache/out.l" "$cache/ref.l" >/dev/null ||
			{ echo "bench: wrong result ($mode)" >&2; exit 1; }
	done
	# The unpartitioned samples (frontiers, loops on the device) on one GPU
	run "SSSP unpartitioned (samples/sssp)" "$cache/bin/sssp" "$g" "$src" "$cache/out.u"
	"$build/falref" compare exact "$cache/out.u" "$cache/ref.d" >/dev/null ||
		{ echo "bench: wrong unpartitioned SSSP result" >&2; exit 1; }
	t_sssp=$last
	run "BFS unpartitioned (samples/bfs)" "$cache/bin/bfs" "$g" "$src" "$cache/out.u"
	"$build/falref" compare exact "$cache/out.u" "$cache/ref.l" >/dev/null ||
		{ echo "bench: wrong unpartitioned BFS result" >&2; exit 1; }
	t_bfs=$last
	# Partitions: 1 GPU, 2 GPUs (the border exchange), and with
	# MULTI_HOST=1 2 GPUs + the host (every property copied: slow).
	for a in sssp bfs; do
		case $a in sssp) ref=ref.d; t_un=$t_sssp ;; *) ref=ref.l; t_un=$t_bfs ;; esac
		# With 2 GPUs or more, "2,0,r" runs 2 GPUs again with
		# FALCON_PX_REMOTE=off: MINs on other parts' points wait for the
		# exchange and the rounds go in step, where the default sends them
		# to their owners at once and, in loops that allow it, lets each
		# part run its own rounds (docs/optimiser.md "Cut edges that write
		# their owner").
		# "2,0,w" (and "1,0,w" with it) runs with FALCON_PARTS_WARP=off:
		# the parts kernels' thread form and the switch's window
		# (docs/optimiser.md "Parts kernels with a warp per point").
		splits="1,0 2,0"
		[ "$ngpus" -ge 2 ] && splits="$splits 2,0,r 1,0,w 2,0,w"
		# "2,0,f" (SSSP, 2 GPUs): FALCON_PX_REMOTE=fetch, the owner's
		# value back into the ghost (docs/optimiser.md "The owner's value
		# back"; opt-in until this row says otherwise)
		[ "$ngpus" -ge 2 ] && [ $a = sssp ] && splits="$splits 2,0,f"
		[ "${MULTI_HOST:-0}" = 1 ] && splits="$splits 2,1"
		# "2,0,k" (BFS): the one-barrier kernel from the first round, which
		# pulls too, instead of the host's rounds (FALCON_PULL_IN=kernel;
		# docs/optimiser.md "Pull rounds inside the parts' kernel")
		[ $a = bfs ] && splits="$splits 2,0,k"
		t2r= t1w= t2w= t2k= t2f=
		for sp in $splits; do
			split=$(echo "${sp%,[rwkf]}" | tr , ' ')
			remote=on warp=auto pin=host label="partitioned $a, $split (GPUs CPUs)"
			case $sp in
			*,r) remote=off label="partitioned $a, $split, FALCON_PX_REMOTE=off" ;;
			*,f) remote=fetch label="partitioned $a, $split, FALCON_PX_REMOTE=fetch" ;;
			*,w) warp=off label="partitioned $a, $split, FALCON_PARTS_WARP=off" ;;
			*,k) pin=kernel label="partitioned $a, $split, FALCON_PULL_IN=kernel" ;;
			esac
			FALCON_PX_REMOTE=$remote FALCON_PARTS_WARP=$warp FALCON_PULL_IN=$pin
			export FALCON_PX_REMOTE FALCON_PARTS_WARP FALCON_PULL_IN
			# shellcheck disable=SC2086
			run "$label" "$cache/bin/partitioned_$a" "$g" "$src" \
				$split "$cache/out.p"
			"$build/falref" compare exact "$cache/out.p" "$cache/$ref" >/dev/null ||
				{ echo "bench: wrong partitioned $a result ($split, FALCON_PX_REMOTE=$remote," \
					"FALCON_PARTS_WARP=$warp, FALCON_PULL_IN=$pin)" >&2; exit 1; }
			case $sp in 1,0) t1=$last ;; 2,0) t2=$last ;; 2,0,r) t2r=$last ;; 1,0,w) t1w=$last ;; 2,0,w) t2w=$last ;; 2,0,k) t2k=$last ;; 2,0,f) t2f=$last ;; esac
		done
		unset FALCON_PARTS_WARP FALCON_PULL_IN
		awk -v a="$a" -v t1="$t1" -v t2="$t2" -v u="$t_un" 'BEGIN {
			printf "  partitioned %s: 2 GPUs %.2fx as fast as 1 GPU; 2 GPUs / unpartitioned %.2f\n",
				a, t1 / t2, t2 / u }'
		unset FALCON_PX_REMOTE
		[ -z "$t2r" ] || awk -v a="$a" -v t1="$t1" -v t2="$t2r" -v u="$t_un" 'BEGIN {
			printf "  partitioned %s, FALCON_PX_REMOTE=off: 2 GPUs %.2fx as fast as 1 GPU; 2 GPUs / unpartitioned %.2f\n",
				a, t1 / t2, t2 / u }'
		[ -z "$t2f" ] || awk -v a="$a" -v t1="$t1" -v t2="$t2f" -v u="$t_un" 'BEGIN {
			printf "  partitioned %s, FALCON_PX_REMOTE=fetch: 2 GPUs %.2fx as fast as 1 GPU; 2 GPUs / unpartitioned %.2f\n",
				a, t1 / t2, t2 / u }'
		[ -z "$t2w" ] || awk -v a="$a" -v t1="$t1w" -v t2="$t2w" -v u="$t_un" 'BEGIN {
			printf "  partitioned %s, FALCON_PARTS_WARP=off: 2 GPUs %.2fx as fast as 1 GPU; 2 GPUs / unpartitioned %.2f\n",
				a, t1 / t2, t2 / u }'
		[ -z "$t2k" ] || awk -v a="$a" -v t1="$t1" -v t2="$t2k" -v u="$t_un" 'BEGIN {
			printf "  partitioned %s, FALCON_PULL_IN=kernel: 2 GPUs %.2fx as fast as 1 GPU; 2 GPUs / unpartitioned %.2f\n",
				a, t1 / t2, t2 / u }'
		if [ $mpi = 1 ]; then
			# shellcheck disable=SC2086
			run "partitioned $a, MPI 2 ranks x (1 0)" mpirun ${MPIRUN_FLAGS:---bind-to none} -np 2 \
				"$cache/bin/mp_partitioned_$a" "$g" "$src" 1 0 "$cache/out.p"
			"$build/falref" compare exact "$cache/out.p" "$cache/$ref" >/dev/null ||
				{ echo "bench: wrong partitioned $a result (MPI, 2 ranks)" >&2; exit 1; }
			awk -v a="$a" -v m="$last" -v t2="$t2" -v t2r="${t2r:-0}" 'BEGIN {
				printf "  partitioned %s: MPI 2 ranks / single process 2 GPUs %.2f", a, m / t2
				if (t2r > 0) printf " (%.2f against FALCON_PX_REMOTE=off)", m / t2r
				printf "\n" }'
			# The ranks' kernels in their warp form (FALCON_PARTS_WARP=on,
			# opt-in for ranks: docs/optimiser.md "Parts kernels with a
			# warp per point")
			mpi_variant FALCON_PARTS_WARP=on
			# BFS: host rounds that merge and refresh over the ranks' maps
			# instead of pushing each MIN (FALCON_MPX_HOST=gather, opt-in;
			# docs/lowering.md "Ranks on one machine run the single
			# process's kernels")
			if [ $a = bfs ]; then
				mpi_variant FALCON_MPX_HOST=gather
				# the ranks' host rounds (which push) until the usual
				# switch, instead of their kernel, which pulls, from the
				# first round (FALCON_PULL_IN=host)
				mpi_variant FALCON_PULL_IN=host
			fi
			# The same with the ranks exchanging every round through
			# their hosts (FALCON_MPI_IPC=off; by default ranks of one
			# machine read each other's large rounds from their GPUs,
			# docs/lowering.md "GPU ranks of one machine read each
			# other's pairs")
			mpi_variant FALCON_MPI_IPC=off
		fi
	done
done
