#!/bin/sh
# tests/gpu.sh: `make check-gpu`.  Builds every sample for the GPU
# (falconc, then nvcc), runs it on graphs and compares the full result
# vectors with the serial references.  Skips, saying so, where there is no
# GPU.  The last line is "N passed, N failed[, N skipped]".
#
#   FALCONC= NVCC= LIBFALCON= FALREF= FALGRAPH= FALMESH= sh tests/gpu.sh SRCDIR
#
# GPU_GRAPHS: more graph files to test on (e.g. the real graphs);
# KRON=N: also a generated 2^N-point Kronecker graph (weights 1..1000);
# CPU_GRAPHS: also run the CPU builds of every sample on these graphs;
# SANITIZE=0: skip compute-sanitizer (memcheck, racecheck and synccheck
# of every GPU program built, on a small graph); GPU_LIBS:
# libraries to link instead of -lz -llzma -lgomp (also for CPU_GRAPHS);
# FALCON_BIG_TEST=1: also BFS on the GPU over a graph of more than 2^31
# edges; CUDA_JOBS, SAN_JOBS: nvcc and compute-sanitizer runs at a time.

srcdir=$(cd "${1:-.}" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/falconc-gpu.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "[PASS] $*"; }
fail() { failed=$((failed + 1)); echo "[FAIL] $*"; }
# pulled NAME AT PLAN CMD...: CMD's profile counts rounds that pulled
# at the loop at line AT with plan PLAN, on every rank that prints one
# (tests/e2e.sh e2e_pulled; docs/optimiser.md "Pull rounds on GPU parts").
pulled() { e2e_pulled some "$@"; }
. "$srcdir/tests/e2e.sh"
# cpu_twin NAME FAL DIR: FAL's --target=cpu build as DIR/NAME_cpu, whose
# output the GPU builds' are compared with
cpu_twin() {
	"$FALCONC" --target=cpu -o "$3/$1_cpu.c" "$2" 2>>"$tmp/err" &&
		${CC:-cc} -std=c11 -O2 -fopenmp -I"$srcdir/include" -o "$3/$1_cpu" \
			"$3/$1_cpu.c" "$LIBFALCON" ${GPU_LIBS:--lz -llzma -lgomp} -lm 2>>"$tmp/err"
}

if ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
	echo "check-gpu: skipped: no GPU here (nvidia-smi lists none)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
# The mesh checker (tests/ref/mesh.c, no dependencies) is built here when
# the build carried to this machine has none.
if [ ! -x "${FALMESH:-}" ]; then
	FALMESH=$tmp/falmesh
	${CC:-cc} -O2 -o "$FALMESH" "$srcdir/tests/ref/mesh.c" -lm || fail "check-gpu: building tests/ref/mesh.c"
fi
for v in FALCONC NVCC LIBFALCON FALREF FALGRAPH; do
	eval "val=\${$v:-}"
	[ -n "$val" ] || { echo "check-gpu: $v is not set (run make check-gpu)"; exit 2; }
done
nvidia-smi -L

mkdir -p "$tmp/e2e"
e2e_graphs || { fail "check-gpu: cannot make the test graphs"; }
if [ -n "${KRON:-}" ]; then
	"$FALGRAPH" --weights 1 1000 1 gen kron "$KRON" 16 1 "$tmp/e2e/graphs/kron-$KRON.bin" >/dev/null ||
		fail "check-gpu: generating kron-$KRON"
fi
# MST also runs on weighted copies of GPU_GRAPHS: weights 1..1000 from
# `falgraph --weights 1 1000 11` (deterministic; both directions of an
# undirected edge alike).
mkdir -p "$tmp/e2e/weighted"
for gf in ${GPU_GRAPHS:-}; do
	cp "$gf" "$tmp/e2e/graphs/" || fail "check-gpu: cannot read $gf"
	"$FALGRAPH" --weights 1 1000 11 convert "$gf" \
		"$tmp/e2e/weighted/$(basename "$gf" | sed 's/\..*//')-w1000.bin" >/dev/null ||
		fail "check-gpu: weighting $gf"
done

# Build the GPU programs first, CUDA_JOBS at a time (tests/e2e.sh
# cuda_prebuild); the cuda_build calls below take the results, and build
# any that is not here one at a time.  GPU_PART=tests1, tests2 and tests3
# build what their part runs (nvcc took 190 s of tests2's 568 on one H200
# when every part built everything, near a device command's 600 s);
# GPU_PART=mpi builds its own, GPU_PART=multi only its programs.
# prebuild_samples DIR NAME...; prebuild_e2e DIR NAME...
prebuild_samples() {
	pb_dir=$1; shift
	for a in "$@"; do cuda_prebuild "$a" "$srcdir/samples/$a.fal" "$pb_dir"; done
}
prebuild_e2e() {
	pb_dir=$1; shift
	for t in "$@"; do cuda_prebuild "$t" "$srcdir/tests/e2e/$t.fal" "$pb_dir"; done
}
# The --gpu-loops=device builds (gpudev/).  The flags are set and unset
# around the calls, as below: a shell may keep an assignment that
# prefixes a function call.
prebuild_dev() {
	CUDA_FLAGS=--gpu-loops=device
	prebuild_samples "$tmp/gpudev" sssp bfs cc_simple
	prebuild_e2e "$tmp/gpudev" loop_plan
	unset CUDA_FLAGS
}
prebuild_tests1() {
	prebuild_samples "$tmp/gpu" sssp sssp_topo bfs cc cc_simple tc tc_simple pagerank bfs_worklist \
		sssp_worklist sssp_delta mst matching partitioned_sssp partitioned_bfs partitioned_pagerank
	prebuild_e2e "$tmp/gpu" coll_loop loop_plan
	prebuild_dev
}
prebuild_tests2() {
	prebuild_samples "$tmp/gpu" dynamic_sssp multigpu_sssp_bfs partitioned_sssp partitioned_bfs \
		partitioned_pagerank
	prebuild_e2e "$tmp/gpu" part_mixed part_phases part_topo part_own part_sync merge_scalar
	CUDA_NVFLAGS=-DFAL_MINMAX_READ_FIRST=1
	prebuild_samples "$tmp/gpurf" sssp bfs cc partitioned_sssp
	unset CUDA_NVFLAGS
}
prebuild_tests3() {
	prebuild_samples "$tmp/gpu" sssp bfs cc_simple pagerank bfs_worklist sssp_worklist sssp_delta dmr
	prebuild_e2e "$tmp/gpu" lost_update single_once single_coll local_coll ordered_drain gettype_pair \
		redux_host sort_edges frontier_ptr hd_scalar set_global grow_parallel grow_limits read_first
}
case ${GPU_PART:-all} in
multi)
	prebuild_samples "$tmp/gpu" partitioned_sssp partitioned_bfs partitioned_pagerank
	prebuild_e2e "$tmp/gpu" part_phases part_topo
	cuda_prebuild_wait
	;;
mpi) ;;
pull)
	prebuild_samples "$tmp/gpu" bfs partitioned_bfs
	cuda_prebuild_wait
	;;
tests1 | tests2 | tests3)
	"prebuild_$GPU_PART"
	cuda_prebuild_wait
	;;
*)
	# Every part and the sanitizers' programs (these, coll_loop's t/ and
	# t2/ and the parts' px/ below).
	prebuild_samples "$tmp/gpu" sssp sssp_topo bfs cc cc_simple tc tc_simple pagerank bfs_worklist \
		sssp_worklist sssp_delta mst matching dynamic_sssp multigpu_sssp_bfs partitioned_sssp \
		partitioned_bfs partitioned_pagerank dmr
	prebuild_e2e "$tmp/gpu" lost_update single_once single_coll local_coll ordered_drain gettype_pair \
		redux_host sort_edges frontier_ptr hd_scalar set_global grow_parallel grow_limits coll_loop \
		part_phases part_topo read_first loop_plan
	prebuild_dev
	cuda_prebuild_wait
	;;
esac
# coll_loop again with a thread per element in every round of its loop
# kernel (t/), and a copy (t2/) the sanitizers run with the kernel from
# the start (below).
mkdir -p "$tmp/gpu/t" "$tmp/gpu/t2"
if [ -f "$tmp/gpu/coll_loop.cu" ]; then
	cp "$tmp/gpu/coll_loop" "$tmp/gpu/t2/"
	# shellcheck disable=SC2086
	"$NVCC" -std=c++17 -O3 -gencode arch=compute_90,code=sm_90 -DFAL_LOOP_WARP_ROUNDS=0 \
		-Xcompiler -fopenmp -I"$srcdir/include" -o "$tmp/gpu/t/coll_loop" "$tmp/gpu/coll_loop.cu" \
		"$LIBFALCON" ${GPU_LIBS:--lz -llzma -lgomp} >"$tmp/gpu/t.err" 2>&1 || sed 's/^/    /' "$tmp/gpu/t.err" | head
fi
[ "${GPU_PART:-all}" = mpi ] || echo "check-gpu: built the GPU programs ($(date +%T))"

# run_vs_cpu NAME OUT REF COMMAND...: runs COMMAND (120 s at most, its
# messages in $tmp/e2e/run), which must succeed and write OUT equal to
# REF, the CPU build's output.
run_vs_cpu() {
	rvc_name=$1 rvc_out=$2 rvc_ref=$3
	shift 3
	if ! timeout 120 "$@" >"$tmp/e2e/run" 2>&1; then
		fail "$rvc_name: failed"; sed 's/^/    /' "$tmp/e2e/run" | head -5
	elif ! cmp -s "$rvc_out" "$rvc_ref"; then
		fail "$rvc_name: differs from the CPU build"
		diff "$rvc_out" "$rvc_ref" | head -5 | sed 's/^/    /'
	else
		pass "$rvc_name"
	fi
}

# Pull rounds on one GPU (docs/optimiser.md "Pull rounds on GPU parts"):
# bfs.fal's host rounds forced to pull, forced to push and chosen, on
# every graph; the profile must count pulled rounds when forced.
# (gpu_pull_one: in GPU_PART=tests1 and =pull)
gpu_pull_one() {
if [ -x "$tmp/gpu/bfs" ]; then
	for d in pull push auto; do
		for gf in "$tmp"/e2e/graphs/*; do
			FALCON_GPU_LOOPS=host FALCON_DIRECTION=$d e2e_run bfs "$gf" "$tmp/gpu" \
				"gpu pull rounds (one GPU) FALCON_DIRECTION=$d"
		done
	done
	g=$tmp/e2e/graphs/kron.bin
	pulled "gpu pull rounds: bfs on kron.bin, FALCON_DIRECTION=pull, the profile's count" \
		47 "pull rounds" env FALCON_GPU_LOOPS=host FALCON_DIRECTION=pull timeout 120 \
		"$tmp/gpu/bfs" "$g" "$(e2e_source "$g")"
fi
}

# Pull rounds on GPU parts (docs/optimiser.md "Pull rounds on GPU parts"):
# partitioned BFS's host rounds with every round forced to pull, forced
# to push, and chosen by frontier size, on every split (with a host part
# the rounds push); FALCON_PROFILE must count pulled rounds where every
# part is on a GPU and the direction is pull, and none with a host part.
# (gpu_pull_parts: in GPU_PART=tests2 and =pull)
gpu_pull_parts() {
if [ -x "$tmp/gpu/partitioned_bfs" ]; then
	for d in pull push auto; do
		for gf in "$tmp"/e2e/graphs/*; do
			case $gf in *tiny*) continue ;; esac
			e2e_part partitioned_bfs "$gf" "$tmp/gpu" "gpu pull rounds FALCON_DIRECTION=$d" \
				"env FALCON_GPU_LOOPS=host FALCON_DIRECTION=$d" "1 0" "2 0" "3 0" "2 1"
		done
	done
	# ... and in the kernel with one barrier a round (two GPU parts; the
	# other splits keep the host's rounds): FALCON_PULL_IN=kernel enters
	# it at the first round, FALCON_GPU_LOOPS=device too
	for d in pull push auto; do
		for gf in "$tmp"/e2e/graphs/*; do
			case $gf in *tiny*) continue ;; esac
			e2e_part partitioned_bfs "$gf" "$tmp/gpu" "gpu kernel pull rounds FALCON_DIRECTION=$d" \
				"env FALCON_PULL_IN=kernel FALCON_DIRECTION=$d" "2 0" "3 0"
			e2e_part partitioned_bfs "$gf" "$tmp/gpu" "gpu kernel pull rounds FALCON_GPU_LOOPS=device FALCON_DIRECTION=$d" \
				"env FALCON_GPU_LOOPS=device FALCON_DIRECTION=$d" "2 0"
		done
	done
	g=$tmp/e2e/graphs/kron.bin
	# (forced: the test graphs are too small for the rule to be sure to pull)
	pulled "gpu kernel pull rounds: partitioned_bfs on kron.bin (2 0), FALCON_DIRECTION=pull, the kernel's count" \
		55 "pull rounds (kernel)" env FALCON_PULL_IN=kernel FALCON_DIRECTION=pull timeout 120 \
		"$tmp/gpu/partitioned_bfs" "$g" "$(e2e_source "$g")" 2 0
	for split in "1 0" "2 0" "2 1"; do
		case $split in
		*" 0") want=some ;;
		*) want=none ;; # a host part: the rounds push
		esac
		# shellcheck disable=SC2086 # the split is two words
		e2e_pulled $want "gpu pull rounds: partitioned_bfs on kron.bin ($split), FALCON_DIRECTION=pull, the profile's count" \
			55 "pull rounds" env FALCON_GPU_LOOPS=host FALCON_DIRECTION=pull timeout 120 \
			"$tmp/gpu/partitioned_bfs" "$g" "$(e2e_source "$g")" $split
	done
fi
}

# GPU_PART=sanitize runs only the compute-sanitizer part at the end,
# GPU_PART=mpi only the MPI part (gpu_mpi; with GPU_MPI_PART=runs only its
# runs against the references, =checks only what follows them: the
# verbose checks, compute-sanitizer, mpi_mixed), GPU_PART=tests the rest
# (gpu_tests_a, gpu_tests_b and gpu_tests_c; GPU_PART=tests1, tests2 or
# tests3 one of them), so that check-gpu can run in several commands where
# a command's time is limited; by default all.
gpu_tests_a() {

for a in sssp sssp_topo bfs cc cc_simple tc tc_simple pagerank bfs_worklist sssp_worklist sssp_delta mst matching; do
	if ! cuda_build "$a" "$srcdir/samples/$a.fal" "$tmp/gpu"; then
		fail "gpu: building samples/$a.fal"; sed 's/^/    /' "$tmp/err" | head; continue
	fi
	for gf in "$tmp"/e2e/graphs/*; do
		e2e_run "$a" "$gf" "$tmp/gpu" gpu
	done
	if [ $a = mst ]; then
		for gf in "$tmp"/e2e/weighted/*; do
			[ -e "$gf" ] && e2e_run mst "$gf" "$tmp/gpu" gpu
		done
	fi
done
gpu_pull_one

# A block per hub (docs/optimiser.md "A block per hub"): with
# FALCON_HUB_DEGREE=4 and FALCON_WARP=on every point of 4 edges or more
# is a hub, so the hub blocks (the whole block as a point's lanes) run
# on every graph, in front of the warp kernels' warps, and must give the references'
# answers; FALCON_VERBOSE must show that a hub list was made.
export FALCON_HUB_DEGREE=4 FALCON_WARP=on
for a in sssp sssp_topo bfs cc cc_simple tc pagerank; do
	[ -x "$tmp/gpu/$a" ] || continue
	for gf in "$tmp"/e2e/graphs/*; do
		e2e_run "$a" "$gf" "$tmp/gpu" "gpu hubs (FALCON_HUB_DEGREE=4)"
	done
done
for a in partitioned_sssp partitioned_bfs partitioned_pagerank; do
	[ -x "$tmp/gpu/$a" ] || continue
	for gf in "$tmp"/e2e/graphs/*; do
		case $gf in *tiny*) continue ;; esac
		e2e_part $a "$gf" "$tmp/gpu" "gpu hubs (FALCON_HUB_DEGREE=4)" "" "1 0" "2 0"
	done
done
if [ -x "$tmp/gpu/pagerank" ] && FALCON_VERBOSE=1 "$tmp/gpu/pagerank" "$tmp/e2e/graphs/kron.bin" \
	>"$tmp/log" 2>&1 && grep -q '^falcon: [1-9][0-9]* hubs (degree 4 or more) on GPU 0' "$tmp/log"; then
	pass "gpu hubs: pagerank made its hub list: $(grep '^falcon: .* hubs' "$tmp/log")"
else
	fail "gpu hubs: pagerank on kron.bin made no hub list"; sed 's/^/    /' "$tmp/log" | head -5
fi
# A hub over several blocks (docs/optimiser.md): with pieces of 8 edges
# every hub of more than 8 edges is dealt to several blocks, whose first
# piece decides for the others whether the hub runs (its filter, and the
# skip of a topology-driven loop); the answers must not change.
FALCON_HUB_PIECE=8
export FALCON_HUB_PIECE
for a in sssp bfs cc_simple; do
	[ -x "$tmp/gpu/$a" ] || continue
	for gf in "$tmp"/e2e/graphs/*; do
		e2e_run "$a" "$gf" "$tmp/gpu" "gpu hub pieces (FALCON_HUB_PIECE=8)"
	done
done
for a in partitioned_sssp partitioned_bfs; do
	[ -x "$tmp/gpu/$a" ] || continue
	for gf in "$tmp"/e2e/graphs/*; do
		case $gf in *tiny*) continue ;; esac
		e2e_part $a "$gf" "$tmp/gpu" "gpu hub pieces (FALCON_HUB_PIECE=8)" "" "1 0" "2 0"
	done
done
# Parts kernels with a warp per point (docs/optimiser.md): with
# FALCON_WARP=on every graph takes the warp form (hubs from 4 edges, in
# pieces of 8, each hub decided once a round); under
# FALCON_GPU_LOOPS=device partitioned SSSP's own-rounds kernel and BFS's
# one-barrier kernel run every round in it, and with
# FALCON_PARTS_WARP=off in the thread form; then in auto partitioned
# SSSP must move into its kernels at the first round (the profile's
# "auto" line counts no host round).
for a in partitioned_sssp partitioned_bfs; do
	[ -x "$tmp/gpu/$a" ] || continue
	for gf in "$tmp"/e2e/graphs/*; do
		case $gf in *tiny*) continue ;; esac
		e2e_part $a "$gf" "$tmp/gpu" "gpu parts warp form (device)" "env FALCON_GPU_LOOPS=device" "2 0" "3 0"
		e2e_part $a "$gf" "$tmp/gpu" "gpu parts thread form (device)" \
			"env FALCON_GPU_LOOPS=device FALCON_PARTS_WARP=off" "2 0"
	done
done
if [ -x "$tmp/gpu/partitioned_sssp" ]; then
	g=$tmp/e2e/graphs/kron.bin
	for w in auto off; do
		name="gpu parts warp form: partitioned_sssp on kron.bin, 2 parts, FALCON_PARTS_WARP=$w"
		if FALCON_PARTS_WARP=$w FALCON_PROFILE=1 timeout 120 "$tmp/gpu/partitioned_sssp" "$g" \
			"$(e2e_source "$g")" 2 0 >"$tmp/e2e/run" 2>&1 &&
			if [ $w = auto ]; then grep -q '^falcon profile: [^ ]*:54  *parts (own rounds) ' "$tmp/e2e/run" &&
				grep -q '^falcon profile: [^ ]*:54  *auto  *1  *0 ' "$tmp/e2e/run"
			else grep -q '^falcon profile: [^ ]*:54  *auto  *1  *[1-9]' "$tmp/e2e/run"; fi; then
			pass "$name: $(grep ':54 ' "$tmp/e2e/run" | sed 's/^falcon profile: *//' | tr -s ' ' | tr '\n' ';')"
		else
			fail "$name"; grep 'falcon profile' "$tmp/e2e/run" | sed 's/^/    /' | head -5
		fi
	done
fi
unset FALCON_HUB_DEGREE FALCON_WARP FALCON_HUB_PIECE

# Convergence loops as one cooperative kernel each (--gpu-loops=device,
# falconc/plan.c): the samples whose loops plan, against the references,
# and the self-checking loop test (fused phases, break, host variables).
for a in sssp bfs cc_simple; do
	if ! CUDA_FLAGS=--gpu-loops=device cuda_build "$a" "$srcdir/samples/$a.fal" "$tmp/gpudev"; then
		fail "gpu: building samples/$a.fal with --gpu-loops=device"; sed 's/^/    /' "$tmp/err" | head; continue
	fi
	# Both kernels of a loop with flag lists (falcon/cuda.cuh fal_dfront):
	# the lists forced on and off on every graph.
	for fr in on off; do
		export FALCON_FRONTIERS=$fr
		for gf in "$tmp"/e2e/graphs/*; do
			e2e_run "$a" "$gf" "$tmp/gpudev" "gpu device-loop FALCON_FRONTIERS=$fr"
		done
	done
	unset FALCON_FRONTIERS
done
if CUDA_FLAGS=--gpu-loops=device cuda_build loop_plan "$srcdir/tests/e2e/loop_plan.fal" "$tmp/gpudev"; then
	for gf in "$tmp/e2e/graphs/kron.bin" "$tmp/e2e/graphs/grid.gr.xz" \
		"$srcdir/tests/graphs/dups.snap.txt" ${GPU_GRAPHS:-}; do
		for cap in 3 1000000; do
			for fr in on off; do
				if FALCON_FRONTIERS=$fr "$tmp/gpudev/loop_plan" "$gf" $cap >"$tmp/log" 2>&1 &&
					grep -q "^loop_plan: ok" "$tmp/log"; then
					pass "gpu device-loop FALCON_FRONTIERS=$fr: $(basename "$gf") cap $cap: $(cat "$tmp/log")"
				else
					fail "gpu device-loop FALCON_FRONTIERS=$fr: loop_plan on $(basename "$gf") cap $cap"
					sed 's/^/    /' "$tmp/log" | head
				fi
			done
		done
	done
else
	fail "gpu: building tests/e2e/loop_plan.fal with --gpu-loops=device"; sed 's/^/    /' "$tmp/err" | head
fi

# --gpu-loops=auto (the default, built above): a loop that moves into its
# kernel after its first window of 16 rounds (FALCON_LOOP_SWITCH_US so
# large that every window is "short"), and one that starts there
# (FALCON_GPU_LOOPS=device): the host and device halves of one loop must
# give the references' answers.
for sw in "FALCON_LOOP_SWITCH_US=1000000000" "FALCON_GPU_LOOPS=device"; do
	export "${sw?}"
	for a in sssp bfs cc_simple bfs_worklist sssp_worklist; do
		[ -x "$tmp/gpu/$a" ] || continue
		for gf in "$tmp"/e2e/graphs/*; do
			e2e_run "$a" "$gf" "$tmp/gpu" "gpu auto ($sw)"
		done
	done
	if [ -x "$tmp/gpu/loop_plan" ]; then
		for gf in "$tmp/e2e/graphs/kron.bin" "$tmp/e2e/graphs/grid.gr.xz" ${GPU_GRAPHS:-}; do
			if "$tmp/gpu/loop_plan" "$gf" 1000000 >"$tmp/log" 2>&1 && grep -q "^loop_plan: ok" "$tmp/log"; then
				pass "gpu auto ($sw): loop_plan $(basename "$gf"): $(cat "$tmp/log")"
			else
				fail "gpu auto ($sw): loop_plan on $(basename "$gf")"; sed 's/^/    /' "$tmp/log" | head
			fi
		done
	fi
	unset "${sw%%=*}"
done
# ... and FALCON_PROFILE shows the move: 16 rounds from the host ("auto"),
# the rest in the kernel ("device", or "frontier" for its kernel with
# lists, which a grid gets).
if [ -x "$tmp/gpu/sssp" ]; then
	FALCON_PROFILE=1 FALCON_LOOP_SWITCH_US=1000000000 "$tmp/gpu/sssp" "$tmp/e2e/graphs/grid.gr.xz" 0 \
		>"$tmp/log" 2>&1
	if grep -q '^falcon profile: sssp.fal:[0-9]* *auto  *1  *16 ' "$tmp/log" &&
		grep -Eq '^falcon profile: sssp.fal:[0-9]* *(device|frontier)  *1  *[1-9]' "$tmp/log"; then
		pass "gpu auto: the profile shows the move: $(grep -c '^falcon profile: sssp' "$tmp/log") loop lines"
	else
		fail "gpu auto: FALCON_PROFILE does not show the move into the kernel"; sed 's/^/    /' "$tmp/log" | head
	fi
fi

# Collection rounds on the device (docs/optimiser.md): the worklist loop
# of coll_loop.fal against its copy kept on the host, from the start on
# the device, as auto runs it (one host round, then the kernel:
# FAL_COLL_LOOP_AFTER) and all on the host; the profile must show the
# one host round and the rounds the kernel ran.
if cuda_build coll_loop "$srcdir/tests/e2e/coll_loop.fal" "$tmp/gpu"; then
	for sw in "FALCON_GPU_LOOPS=device" "FALCON_GPU_LOOPS=auto" "FALCON_GPU_LOOPS=host"; do
		export "${sw?}"
		for gf in "$tmp"/e2e/graphs/* ${GPU_GRAPHS:-}; do
			e2e_selfcheck "$tmp/gpu/coll_loop" "$gf" "gpu ($sw):"
		done
		unset "${sw%%=*}"
	done
	# Its loop kernel has a warp per element (falconc/lower_plan.c
	# loop_warp_form) while a round fits the grid's warps twice, which
	# these graphs' rounds do: built again with a thread per element in
	# every round (the kernel's blocks tell the warp bodies, fal_wsolo).
	if [ -x "$tmp/gpu/t/coll_loop" ]; then
		for gf in "$tmp/e2e/graphs/kron.bin" "$tmp/e2e/graphs/grid.gr.xz" "$tmp/e2e/graphs/uniform.bin" ${GPU_GRAPHS:-}; do
			FALCON_GPU_LOOPS=device e2e_selfcheck "$tmp/gpu/t/coll_loop" "$gf" "gpu (a thread per element in the loop kernel):"
		done
	else
		fail "gpu: building coll_loop.cu with FAL_LOOP_WARP_ROUNDS=0"
	fi
	# Where the graph picks the warp kernels (forced here), auto keeps the
	# loop's rounds on the host (FAL_COLL_LOOP_NEVER).
	FALCON_WARP=on FALCON_PROFILE=1 "$tmp/gpu/coll_loop" "$tmp/e2e/graphs/grid.gr.xz" >"$tmp/log" 2>&1
	if grep -q '^coll_loop: ok' "$tmp/log" &&
		grep -Eq '^falcon profile: coll_loop.fal:75 +auto +1 +([2-9]|[1-9][0-9]+) ' "$tmp/log" &&
		! grep -Eq '^falcon profile: coll_loop.fal:75 +device' "$tmp/log"; then
		pass "gpu: coll_loop's worklist loop stays on the host where the warp kernels are picked (FALCON_PROFILE)"
	else
		fail "gpu: FALCON_WARP=on: coll_loop's loop moved to its kernel or failed"; sed 's/^/    /' "$tmp/log" | head
	fi
	FALCON_PROFILE=1 "$tmp/gpu/coll_loop" "$tmp/e2e/graphs/grid.gr.xz" >"$tmp/log" 2>&1
	if grep -q '^coll_loop: ok' "$tmp/log" &&
		grep -Eq '^falcon profile: coll_loop.fal:75 +auto +1 +1 ' "$tmp/log" &&
		grep -Eq '^falcon profile: coll_loop.fal:75 +device +1 +[1-9]' "$tmp/log"; then
		pass "gpu: coll_loop's worklist loop ran one host round, then the rest in its kernel (FALCON_PROFILE)"
	else
		fail "gpu: FALCON_PROFILE does not show coll_loop's loop in its kernel"; sed 's/^/    /' "$tmp/log" | head
	fi
else
	fail "gpu: building tests/e2e/coll_loop.fal"; sed 's/^/    /' "$tmp/err" | head
fi

}

# part_one_gpu T: tests/e2e/T.fal with 2 and 3 parts on this GPU and
# 1 + a host part, its loops on the device and auto, against its CPU
# build, on the Kronecker, grid and uniform graphs.
part_one_gpu() {
	pog=$1
	if cuda_build "$pog" "$srcdir/tests/e2e/$pog.fal" "$tmp/gpu" &&
		cpu_twin "$pog" "$srcdir/tests/e2e/$pog.fal" "$tmp/gpu"; then
		for gf in "$tmp"/e2e/graphs/kron.bin "$tmp"/e2e/graphs/grid.gr.xz "$tmp"/e2e/graphs/uniform.bin; do
			src=$(e2e_source "$gf")
			"$tmp/gpu/${pog}_cpu" "$gf" "$src" 1 0 "$tmp/e2e/$pog.ref" >/dev/null 2>&1 ||
				{ fail "gpu $pog $(basename "$gf"): the CPU build failed"; continue; }
			for mode in device auto; do
				for split in "2 0" "3 0" "1 1"; do
					# shellcheck disable=SC2086 # the split is two words
					run_vs_cpu "gpu $pog $(basename "$gf") ($mode, $split)" "$tmp/e2e/$pog.out" \
						"$tmp/e2e/$pog.ref" env FALCON_GPU_LOOPS=$mode \
						"$tmp/gpu/$pog" "$gf" "$src" $split "$tmp/e2e/$pog.out"
				done
			done
		done
	else
		fail "gpu: building tests/e2e/$pog.fal"; sed 's/^/    /' "$tmp/err" | head
	fi
}

# The second part (GPU_PART=tests2): the partitioned programs on one GPU.
gpu_tests_b() {
# A growing graph (§6): additions on the host, copies to the GPU.
if cuda_build dynamic_sssp "$srcdir/samples/dynamic_sssp.fal" "$tmp/gpu"; then
	e2e_dynamic "$tmp/gpu" gpu
	for gf in ${GPU_GRAPHS:-}; do
		e2e_dynamic "$tmp/gpu" gpu "$gf"
	done
else
	fail "gpu: building samples/dynamic_sssp.fal"; sed 's/^/    /' "$tmp/err" | head
fi

# SSSP and BFS at once in parallel sections, each graph on a GPU of its
# own where there are two (§4.5).
if cuda_build multigpu_sssp_bfs "$srcdir/samples/multigpu_sssp_bfs.fal" "$tmp/gpu"; then
	for gf in "$tmp"/e2e/graphs/*; do
		case $gf in *tiny*) continue ;; esac
		e2e_multigpu "$gf" "$tmp/gpu" gpu
	done
else
	fail "gpu: building samples/multigpu_sssp_bfs.fal"; sed 's/^/    /' "$tmp/err" | head
fi

# SSSP, BFS and PageRank over partitions on GPUs and the host (§7).
for a in partitioned_sssp partitioned_bfs partitioned_pagerank; do
	if cuda_build $a "$srcdir/samples/$a.fal" "$tmp/gpu"; then
		for gf in "$tmp"/e2e/graphs/*; do
			case $gf in *tiny*) continue ;; esac
			e2e_part $a "$gf" "$tmp/gpu" gpu "" "1 0" "2 0" "1 1" "2 1"
		done
	else
		fail "gpu: building samples/$a.fal"; sed 's/^/    /' "$tmp/err" | head
	fi
done
gpu_pull_parts

# MIN and MAX that read first (nvcc -DFAL_MINMAX_READ_FIRST=1,
# docs/optimiser.md "MIN and MAX that read first"): the same answers.
# (Set and unset around the loop: a shell may keep an assignment that
# prefixes a function call.)
CUDA_NVFLAGS=-DFAL_MINMAX_READ_FIRST=1
for a in sssp bfs cc partitioned_sssp; do
	if cuda_build $a "$srcdir/samples/$a.fal" "$tmp/gpurf"; then
		for gf in "$tmp"/e2e/graphs/*; do
			case $a:$gf in
			*tiny*) continue ;;
			partitioned_sssp:*) e2e_part $a "$gf" "$tmp/gpurf" "gpu read-first" "" "1 0" "2 0" ;;
			*) e2e_run "$a" "$gf" "$tmp/gpurf" "gpu read-first" ;;
			esac
		done
	else
		fail "gpu: building samples/$a.fal with -DFAL_MINMAX_READ_FIRST=1"; sed 's/^/    /' "$tmp/err" | head
	fi
done
unset CUDA_NVFLAGS

# The border exchange between GPU parts (docs/lowering.md "Partitioned
# graphs (§7)"): loops that it runs and loops that copy every property,
# with host code in between; the output must equal the --target=cpu
# build's (the parts share one copy there).  With two GPU parts it must
# have run (FALCON_VERBOSE lists the parts' ghosts), host parts must be in
# it too, and FALCON_BORDERS=off must give the same result through the
# copies.
if cuda_build part_mixed "$srcdir/tests/e2e/part_mixed.fal" "$tmp/gpu" &&
	cpu_twin part_mixed "$srcdir/tests/e2e/part_mixed.fal" "$tmp/gpu"; then
	for gf in "$tmp"/e2e/graphs/*; do
		case $gf in *tiny*) continue ;; esac
		src=$(e2e_source "$gf")
		"$tmp/gpu/part_mixed_cpu" "$gf" "$src" 2 0 "$tmp/e2e/mixed.ref" >/dev/null 2>&1 ||
			{ fail "gpu part_mixed $(basename "$gf"): the CPU build failed"; continue; }
		for run in "1 0" "2 0" "1 1" "2 1" "1 2" "2 0 off" "2 1 off"; do
			set -- $run
			name="gpu part_mixed $(basename "$gf") ($run)"
			if ! FALCON_BORDERS=${3:-on} FALCON_VERBOSE=1 timeout 120 "$tmp/gpu/part_mixed" "$gf" "$src" "$1" "$2" \
				"$tmp/e2e/mixed.out" >"$tmp/e2e/run" 2>&1; then
				fail "$name: failed"; sed 's/^/    /' "$tmp/e2e/run" | head -5
			elif ! cmp -s "$tmp/e2e/mixed.out" "$tmp/e2e/mixed.ref"; then
				fail "$name: differs from the CPU build"
				diff "$tmp/e2e/mixed.out" "$tmp/e2e/mixed.ref" | head -5 | sed 's/^/    /'
			elif [ "$run" = "2 0" ] && ! grep -q '^falcon: part 1: GPU' "$tmp/e2e/run"; then
				fail "$name: the border exchange did not run"; sed 's/^/    /' "$tmp/e2e/run" | head -5
			elif [ "$2" != 0 ] && [ "${3:-on}" = on ] &&
				! grep -q "^falcon: part $1: host, exchanged by GPU" "$tmp/e2e/run"; then
				fail "$name: the host part is not in the border exchange"; sed 's/^/    /' "$tmp/e2e/run" | head -5
			else
				pass "$name"
			fi
		done
	done
else
	fail "gpu: building tests/e2e/part_mixed.fal"; sed 's/^/    /' "$tmp/err" | head
fi

# A planned loop over a partitioned graph as a kernel per part
# (docs/optimiser.md "Partitioned loops on the devices").  With
# FALCON_GPU_LOOPS=device the loop takes the kernels at once (one per
# part; two and three parts share the one GPU and exchange their borders
# in device code) and must give the references' answers; FALCON_PROFILE
# names the loop's plan "parts", and no run waits at the start line.  "1 1"
# (a host part) keeps the host's rounds.  part_mixed in the kernel must
# write what its CPU build writes.
export FALCON_GPU_LOOPS=device
for a in partitioned_sssp partitioned_bfs; do
	[ -x "$tmp/gpu/$a" ] || continue
	for gf in "$tmp"/e2e/graphs/*; do
		case $gf in *tiny*) continue ;; esac
		e2e_part $a "$gf" "$tmp/gpu" "gpu parts kernel" "" "1 0" "2 0" "3 0" "1 1"
	done
	gf=$tmp/e2e/graphs/kron.bin
	for split in "1 0" "2 0" "3 0" "1 1"; do
		set -- $split
		if FALCON_PROFILE=1 FALCON_VERBOSE=1 timeout 120 "$tmp/gpu/$a" "$gf" "$(e2e_source "$gf")" $split \
			>"$tmp/log" 2>&1; then
			plan=host; grep -q '^falcon profile: [^ ]*:[0-9]*  *parts ' "$tmp/log" && plan=parts
			ms=$(sed -n "s/^$a: time \([0-9.]*\) ms/\1/p" "$tmp/log")
			want=parts; [ "$2" = 1 ] && want=host
			if [ "$plan" != "$want" ]; then
				fail "gpu parts kernel $a kron.bin ($split): the loop ran in '$plan' rounds, not '$want'"
				sed 's/^/    /' "$tmp/log" | head -8
			elif [ "$want" = host ] && ! grep -q "runs from the host: a host part" "$tmp/log"; then
				fail "gpu parts kernel $a kron.bin ($split): no note on why the kernels did not run"
			elif grep -q "did not all start" "$tmp/log" || awk -v t="$ms" 'BEGIN { exit !(t > 1000) }'; then
				fail "gpu parts kernel $a kron.bin ($split): $ms ms (waited at the start line?)"
			else
				pass "gpu parts kernel $a kron.bin ($split): plan $plan, $ms ms"
			fi
		else
			fail "gpu parts kernel $a kron.bin ($split): failed"; sed 's/^/    /' "$tmp/log" | head -5
		fi
	done
done
if [ -x "$tmp/gpu/part_mixed" ] && [ -x "$tmp/gpu/part_mixed_cpu" ]; then
	for gf in "$tmp"/e2e/graphs/*; do
		case $gf in *tiny*) continue ;; esac
		src=$(e2e_source "$gf")
		name="gpu parts kernel part_mixed $(basename "$gf") (1 0)"
		if ! "$tmp/gpu/part_mixed_cpu" "$gf" "$src" 1 0 "$tmp/e2e/mixed.ref" >/dev/null 2>&1; then
			fail "$name: the CPU build failed"
		else
			run_vs_cpu "$name" "$tmp/e2e/mixed.out" "$tmp/e2e/mixed.ref" \
				"$tmp/gpu/part_mixed" "$gf" "$src" 1 0 "$tmp/e2e/mixed.out"
		fi
	done
fi
# Two exchanges a round (one after a foreach that writes only its own
# points) and steps that overwrite a graph property the exchange combined
# (tests/e2e/part_phases.fal): the kernels with 1, 2 and 3 parts must
# write what the CPU build writes.
if cuda_build part_phases "$srcdir/tests/e2e/part_phases.fal" "$tmp/gpu" &&
	cpu_twin part_phases "$srcdir/tests/e2e/part_phases.fal" "$tmp/gpu"; then
	for gf in "$tmp"/e2e/graphs/*; do
		case $gf in *tiny*) continue ;; esac
		src=$(e2e_source "$gf")
		"$tmp/gpu/part_phases_cpu" "$gf" "$src" 1 0 "$tmp/e2e/phases.ref" >/dev/null 2>&1 ||
			{ fail "gpu parts kernel part_phases $(basename "$gf"): the CPU build failed"; continue; }
		# "S": FALCON_PX_SYS=on, the system-scope fences and atomics that
		# parts on several GPUs take, here on one GPU
		for run in "1 0" "2 0" "3 0" "2 0 S" "3 0 S"; do
			split=${run% S}; pxs=off; desc=$split
			[ "$split" != "$run" ] && pxs=on desc="$split, FALCON_PX_SYS=on"
			name="gpu parts kernel part_phases $(basename "$gf") ($desc)"
			if ! FALCON_PX_SYS=$pxs FALCON_VERBOSE=1 FALCON_PROFILE=1 timeout 120 "$tmp/gpu/part_phases" "$gf" "$src" $split \
				"$tmp/e2e/phases.out" >"$tmp/e2e/run" 2>&1; then
				fail "$name: failed"; sed 's/^/    /' "$tmp/e2e/run" | head -5
			elif [ $pxs = on ] && ! grep -q 'system-scope fences and atomics (FALCON_PX_SYS=on)' "$tmp/e2e/run"; then
				fail "$name: the barriers did not take system scope"; sed 's/^/    /' "$tmp/e2e/run" | head -5
			elif ! grep -q '^falcon profile: [^ ]*:[0-9]*  *parts ' "$tmp/e2e/run"; then
				fail "$name: the loop did not run as a kernel per part"; sed 's/^/    /' "$tmp/e2e/run" | head -5
			elif ! cmp -s "$tmp/e2e/phases.out" "$tmp/e2e/phases.ref"; then
				fail "$name: differs from the CPU build"
				diff "$tmp/e2e/phases.out" "$tmp/e2e/phases.ref" | head -5 | sed 's/^/    /'
			else
				pass "$name"
			fi
		done
	done
else
	fail "gpu: building tests/e2e/part_phases.fal"; sed 's/^/    /' "$tmp/err" | head
fi
# Topology-driven parts loops (tests/e2e/part_topo.fal, plan.c
# parts_topo_rule): the parts skip points whose value did not change, in
# the kernels per part (device), in the host's rounds (host: a thread, a
# warp or a block per point; on kron points of 32 edges or more take
# hub blocks) and both in one run (auto); all must write what the CPU
# build writes.
if cuda_build part_topo "$srcdir/tests/e2e/part_topo.fal" "$tmp/gpu" &&
	cpu_twin part_topo "$srcdir/tests/e2e/part_topo.fal" "$tmp/gpu"; then
	for gf in "$tmp"/e2e/graphs/*; do
		case $gf in *tiny*) continue ;; esac
		src=$(e2e_source "$gf")
		"$tmp/gpu/part_topo_cpu" "$gf" "$src" 1 0 "$tmp/e2e/topo.ref" >/dev/null 2>&1 ||
			{ fail "gpu part_topo $(basename "$gf"): the CPU build failed"; continue; }
		for mode in device host auto; do
			for run in "1 0" "2 0" "3 0" "1 1" "2 0 S" "3 0 R" "2 0 F" "3 0 F"; do
				split=${run% [SRF]}; pxs=off; rmt=on; desc=$split
				case $run in
				*S) pxs=on desc="$split, FALCON_PX_SYS=on" ;;
				*R) rmt=off desc="$split, FALCON_PX_REMOTE=off" ;;
				*F) rmt=fetch desc="$split, FALCON_PX_REMOTE=fetch" ;;
				esac
				# shellcheck disable=SC2086 # the split is two words
				run_vs_cpu "gpu part_topo $(basename "$gf") ($mode, $desc)" "$tmp/e2e/topo.out" \
					"$tmp/e2e/topo.ref" env FALCON_HUB_DEGREE=32 FALCON_GPU_LOOPS=$mode FALCON_PX_SYS=$pxs \
					FALCON_PX_REMOTE=$rmt "$tmp/gpu/part_topo" "$gf" "$src" $split "$tmp/e2e/topo.out"
			done
		done
	done
	# tests/e2e/part_own.fal: one loop in own rounds, two refused, with
	# parts on this GPU (and a host part: in step from the host)
	part_one_gpu part_own
	# tests/e2e/part_sync.fal: two level-synchronous loops with one
	# barrier a round (two parts on this GPU), two refused; three parts
	# and a host part keep the exchange
	part_one_gpu part_sync
	# tests/e2e/merge_scalar.fal: an updateFunction that writes GPU
	# scalars, called by the merge kernels (GPU parts) and on the host (a
	# host part); with two GPU parts on the grid it must have run and
	# lowered a distance, read back from device memory.
	part_one_gpu merge_scalar
	if [ -x "$tmp/gpu/merge_scalar" ]; then
		g=$tmp/e2e/graphs/grid.gr.xz
		if timeout 120 "$tmp/gpu/merge_scalar" "$g" "$(e2e_source "$g")" 2 0 "$tmp/e2e/ms.out" \
			>"$tmp/e2e/run" 2>&1 && grep -q '^merge_scalar: merged 1, lowered 1$' "$tmp/e2e/run"; then
			pass "gpu merge_scalar: the merge kernels wrote the GPU scalars (2 0, grid)"
		else
			fail "gpu merge_scalar: the merge kernels' GPU scalars (2 0, grid)"
			sed 's/^/    /' "$tmp/e2e/run" | head -5
		fi
	fi
	# Parts that run their own rounds (plan.c parts_own_rule, docs/optimiser.md
	# "Cut edges that write their owner"): with 2 parts on this GPU, the
	# first two loops (MIN, MAX) must have run so, the third in step, and
	# with FALCON_PX_REMOTE=off all three in step.
	g=$tmp/e2e/graphs/grid.gr.xz
	for rmt in on off; do
		name="gpu part_topo: loops in own rounds with FALCON_PX_REMOTE=$rmt"
		if FALCON_PX_REMOTE=$rmt FALCON_GPU_LOOPS=device FALCON_PROFILE=1 timeout 120 "$tmp/gpu/part_topo" \
			"$g" "$(e2e_source "$g")" 2 0 "$tmp/e2e/topo.out" >"$tmp/e2e/run" 2>&1 &&
			grep -q '^falcon profile: [^ ]*:75  *parts  ' "$tmp/e2e/run" &&
			{ [ $rmt = off ] || grep -q '^falcon profile: [^ ]*:56  *parts (own rounds) ' "$tmp/e2e/run"; } &&
			{ [ $rmt = off ] || grep -q '^falcon profile: [^ ]*:65  *parts (own rounds) ' "$tmp/e2e/run"; } &&
			{ [ $rmt = on ] || ! grep -q 'own rounds' "$tmp/e2e/run"; }; then
			pass "$name"
		else
			fail "$name"; grep 'falcon profile' "$tmp/e2e/run" | sed 's/^/    /' | head -8
		fi
	done
else
	fail "gpu: building tests/e2e/part_topo.fal"; sed 's/^/    /' "$tmp/err" | head
fi
unset FALCON_GPU_LOOPS

}

# The third part (GPU_PART=tests3).
gpu_tests_c() {
# Atomics that lose no update, single, and ordered drains (one
# cooperative kernel) on the GPU.
"$FALGRAPH" gen uniform 200000 1 1 "$tmp/lu.bin" >/dev/null
for t in lost_update single_once single_coll local_coll ordered_drain; do
	if ! cuda_build "$t" "$srcdir/tests/e2e/$t.fal" "$tmp/gpu"; then
		fail "gpu: building tests/e2e/$t.fal"; sed 's/^/    /' "$tmp/err" | head; continue
	fi
	for gf in "$tmp/lu.bin" "$tmp/e2e/graphs/kron.bin" "$srcdir/tests/graphs/dups.snap.txt" \
		"$tmp/e2e/graphs/grid.gr.xz" ${GPU_GRAPHS:+${GPU_GRAPHS%% *}}; do
		[ $t = lost_update ] && [ "$gf" != "$tmp/lu.bin" ] && continue
		[ $t = single_once ] && [ "$gf" != "$tmp/e2e/graphs/kron.bin" ] &&
			[ "$gf" != "$srcdir/tests/graphs/dups.snap.txt" ] && continue
		arg=; [ $t = lost_update ] && arg=20
		# shellcheck disable=SC2086
		if "$tmp/gpu/$t" "$gf" $arg >"$tmp/log" 2>&1 && grep -q "^$t: ok" "$tmp/log"; then
			pass "gpu: $(cat "$tmp/log")"
		else
			fail "gpu: $t on $(basename "$gf")"; sed 's/^/    /' "$tmp/log" | head
		fi
	done
done
# Warp-per-point kernels (falconc/lower_warp.c) on every graph, also the
# sparse ones where the default keeps a thread per point; the worklist
# samples' warp-per-element kernels (falconc/lower_coll.c) also with
# their drains and loops in the kernels from the start (the ordered
# drain's kernel, whose warp form has two-dimensional blocks).
export FALCON_WARP=on
for a in sssp bfs cc_simple pagerank bfs_worklist sssp_worklist sssp_delta; do
	[ -x "$tmp/gpu/$a" ] || continue
	for gf in "$tmp"/e2e/graphs/*; do
		e2e_run "$a" "$gf" "$tmp/gpu" "gpu FALCON_WARP=on"
		case $a/$(basename "$gf") in *_worklist/kron.bin | *_worklist/grid.gr.xz | *_worklist/uniform.bin | \
			*_delta/kron.bin | *_delta/grid.gr.xz | *_delta/uniform.bin)
			FALCON_GPU_LOOPS=device e2e_run "$a" "$gf" "$tmp/gpu" "gpu FALCON_WARP=on FALCON_GPU_LOOPS=device" ;;
		esac
	done
done
unset FALCON_WARP

# sssp_delta with narrow buckets (SHIFT 2; its GPU default, 16, makes one
# or two buckets of these graphs): the drain's bucket changes in its
# kernel, with a thread and with a warp per element.
if [ -x "$tmp/gpu/sssp_delta" ]; then
	for gf in "$tmp/e2e/graphs/kron.bin" "$tmp/e2e/graphs/grid.gr.xz" "$tmp/e2e/graphs/uniform.bin"; do
		src=$(e2e_source "$gf")
		"$FALREF" sssp "$gf" "$src" "$tmp/e2e/ref" >/dev/null 2>&1 || { fail "gpu sssp_delta SHIFT 2 $(basename "$gf"): the reference failed"; continue; }
		for w in on off; do
			if FALCON_WARP=$w FALCON_GPU_LOOPS=device "$tmp/gpu/sssp_delta" "$gf" "$src" "$tmp/e2e/out" 2 >"$tmp/log" 2>&1 &&
				"$FALREF" compare exact "$tmp/e2e/out" "$tmp/e2e/ref" >"$tmp/e2e/cmp" 2>&1; then
				pass "gpu sssp_delta SHIFT 2 FALCON_WARP=$w $(basename "$gf")"
			else
				fail "gpu sssp_delta SHIFT 2 FALCON_WARP=$w $(basename "$gf")"; sed 's/^/    /' "$tmp/log" "$tmp/e2e/cmp" | head -5
			fi
		done
	done
fi

# The ordered drain again as launches per batch from the host.
if [ -x "$tmp/gpu/ordered_drain" ]; then
	for gf in "$tmp/e2e/graphs/kron.bin" "$tmp/e2e/graphs/grid.gr.xz" ${GPU_GRAPHS:+${GPU_GRAPHS%% *}}; do
		if FALCON_GPU_LOOPS=host "$tmp/gpu/ordered_drain" "$gf" >"$tmp/log" 2>&1 &&
			grep -q "^ordered_drain: ok" "$tmp/log"; then
			pass "gpu (FALCON_GPU_LOOPS=host): $(cat "$tmp/log")"
		else
			fail "gpu (FALCON_GPU_LOOPS=host): ordered_drain on $(basename "$gf")"; sed 's/^/    /' "$tmp/log" | head
		fi
	done
fi

# Issue 13: two getType copies in parallel sections (§2), reductions into
# host variables in kernels (§4.4), sortEdges in a kernel (§3.1),
# Collection pointers and the double-buffer idiom (§3.5; the worklist
# samples above use it too), a file-scope Set of a GPU graph (§3.4).
if cuda_build gettype_pair "$srcdir/tests/e2e/gettype_pair.fal" "$tmp/gpu"; then
	for gf in "$tmp"/e2e/graphs/* ${GPU_GRAPHS:-}; do
		e2e_pair "$tmp/gpu/gettype_pair" "$gf" gpu
	done
else
	fail "gpu: building tests/e2e/gettype_pair.fal"; sed 's/^/    /' "$tmp/err" | head
fi
for t in redux_host sort_edges frontier_ptr hd_scalar; do
	if ! cuda_build "$t" "$srcdir/tests/e2e/$t.fal" "$tmp/gpu"; then
		fail "gpu: building tests/e2e/$t.fal"; sed 's/^/    /' "$tmp/err" | head; continue
	fi
	for gf in "$tmp/e2e/graphs/kron.bin" "$tmp/e2e/graphs/grid.gr.xz" \
		"$tmp/e2e/graphs/uniform.bin" "$srcdir/tests/graphs/dups.snap.txt" ${GPU_GRAPHS:-}; do
		e2e_selfcheck "$tmp/gpu/$t" "$gf" gpu:
	done
done
if cuda_build set_global "$srcdir/tests/e2e/set_global.fal" "$tmp/gpu"; then
	for gf in "$tmp"/e2e/graphs/* ${GPU_GRAPHS:-}; do
		e2e_run set_global "$gf" "$tmp/gpu" gpu
	done
else
	fail "gpu: building tests/e2e/set_global.fal"; sed 's/^/    /' "$tmp/err" | head
fi

# MIN that reads first (docs/optimiser.md): the sweep's MIN on dist loads
# first, those on d2 and d3 stay atomic; all three SSSPs agree (the program checks) and
# the first equals falref's, with the loops in kernels and on the host.
if cuda_build read_first "$srcdir/tests/e2e/read_first.fal" "$tmp/gpu"; then
	for lp in device host; do
		export FALCON_GPU_LOOPS=$lp
		for gf in "$tmp"/e2e/graphs/* ${GPU_GRAPHS:-}; do
			e2e_run read_first "$gf" "$tmp/gpu" "gpu (FALCON_GPU_LOOPS=$lp)"
		done
	done
	unset FALCON_GPU_LOOPS
else
	fail "gpu: building tests/e2e/read_first.fal"; sed 's/^/    /' "$tmp/err" | head
fi

# Delaunay mesh refinement (§3.6, §4.3, §6): triangles as a graph view,
# cavities in per-thread Collections, single on a cavity, points added in
# kernels; each refined mesh checked by falmesh (tests/e2e.sh e2e_dmr).
if cuda_build dmr "$srcdir/samples/dmr.fal" "$tmp/gpu"; then
	e2e_dmr "$tmp/gpu/dmr" gpu
else
	fail "gpu: building samples/dmr.fal"; sed 's/^/    /' "$tmp/err" | head
fi

# Mutation inside kernels (§6): additions (growing the graph at least
# twice) and deletions, against the same changes made serially on the host.
if cuda_build grow_parallel "$srcdir/tests/e2e/grow_parallel.fal" "$tmp/gpu"; then
	for gf in "$tmp/e2e/graphs/kron.bin" "$tmp/e2e/graphs/grid.gr.xz" \
		"$tmp/e2e/graphs/uniform.bin" "$srcdir/tests/graphs/dups.snap.txt" ${GPU_GRAPHS:-}; do
		e2e_grow "$tmp/gpu/grow_parallel" "$gf" gpu
	done
else
	fail "gpu: building tests/e2e/grow_parallel.fal"; sed 's/^/    /' "$tmp/err" | head
fi
# What one launch cannot add stops the program with a message: more
# points than the spare ids, more waiting edges than the overflow buffer.
if cuda_build grow_limits "$srcdir/tests/e2e/grow_limits.fal" "$tmp/gpu"; then
	"$FALGRAPH" gen uniform 1000 4000 1 "$tmp/u1k.bin" >/dev/null
	for mode in "points:addPoint in a GPU kernel: more than" "edges 1100:did not fit"; do
		args=${mode%%:*}; want=${mode#*:}
		# shellcheck disable=SC2086
		if "$tmp/gpu/grow_limits" "$tmp/u1k.bin" $args >"$tmp/log" 2>&1; then
			fail "gpu: grow_limits $args: no error"; sed 's/^/    /' "$tmp/log" | head -3
		elif grep -q "$want" "$tmp/log"; then
			pass "gpu: grow_limits $args: $(grep "$want" "$tmp/log" | head -1)"
		else
			fail "gpu: grow_limits $args: unclear failure"; sed 's/^/    /' "$tmp/log" | head -3
		fi
	done
	if "$tmp/gpu/grow_limits" "$tmp/u1k.bin" edges 1000 >"$tmp/log" 2>&1 &&
		grep -q '^grow_limits: done (2000 points, 1004000 edges)' "$tmp/log"; then
		pass "gpu: 1M edges added in one launch: $(cat "$tmp/log")"
	else
		fail "gpu: grow_limits edges 1000"; sed 's/^/    /' "$tmp/log" | head -3
	fi
else
	fail "gpu: building tests/e2e/grow_limits.fal"; sed 's/^/    /' "$tmp/err" | head
fi

# CPU_GRAPHS: the CPU builds (--target=cpu) of the samples on real graphs
# too, here where there are many cores (make check has only small ones).
if [ -n "${CPU_GRAPHS:-}" ]; then
	[ -n "${GPU_LIBS:-}" ] && E2E_LIBS="$GPU_LIBS -lm" && export E2E_LIBS
	OPENMP_CFLAGS=${OPENMP_CFLAGS:--fopenmp}
	for a in sssp sssp_topo bfs cc cc_simple tc tc_simple pagerank bfs_worklist sssp_worklist sssp_delta mst matching dynamic_sssp \
		grow_parallel; do
		src=$srcdir/samples/$a.fal
		[ $a = grow_parallel ] && src=$srcdir/tests/e2e/$a.fal
		if ! e2e_build "$a" "$src"; then
			fail "cpu: building $src"; sed 's/^/    /' "$tmp/err" | head; continue
		fi
		for gf in $CPU_GRAPHS; do
			if [ $a = grow_parallel ]; then
				E2E_THREADS=${CPU_THREADS:-16} e2e_grow "$tmp/e2e/$a" "$gf" cpu
			elif [ $a = dynamic_sssp ]; then
				E2E_THREADS=${CPU_THREADS:-16} e2e_dynamic "$tmp/e2e" cpu "$gf"
			else
				E2E_THREADS=${CPU_THREADS:-16} e2e_run "$a" "$gf" "$tmp/e2e" cpu
			fi
		done
	done
fi

# Limits: a graph that does not fit the GPU's memory (here a budget of
# FALCON_GPU_MEM_LIMIT=1M for a graph of 200,000 points that needs about
# 5 MiB, include/falcon/cuda.cuh fal_gpu_fits) stops with an error naming
# the sizes, before any copy.
if [ -x "$tmp/gpu/sssp" ]; then
	FALCON_GPU_MEM_LIMIT=1M "$tmp/gpu/sssp" "$tmp/lu.bin" 0 >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ $st -eq 1 ] && grep -q 'error: the graph (200000 points, .* edges, 3 properties) needs .* MiB on GPU 0, which has 1.0 MiB free' "$tmp/err"; then
		pass "gpu: a graph too big for the GPU: $(head -1 "$tmp/err")"
	else
		fail "gpu: a graph too big for the GPU (status $st)"; head -5 "$tmp/err" | sed 's/^/    /'
	fi
fi

# FALCON_BIG_TEST=1: the GPU BFS over a graph of more than 2^31 edges
# (tests/e2e.sh e2e_big_graph; about 17 GB on the GPU).
if [ "${FALCON_BIG_TEST:-0}" = 1 ] && [ -x "$tmp/gpu/bfs" ]; then
	e2e_big_graph "$tmp/gpu/bfs" gpu
fi

}

# GPU parts under MPI (falconc --mpi --target=gpu, docs/lowering.md "GPU
# parts under MPI"): the partitioned samples on 1, 2 and 3 ranks, each
# rank's points on a GPU (rank r takes GPU r % count, so ranks share the
# GPUs when there are fewer), against the references; FALCON_VERBOSE must
# show every rank on a GPU and the changed entries it staged;
# tests/e2e/mpi_mixed.fal (host writes and reads between loops, neighbours
# written with MIN and MAX and merged) must give the output of its
# --target=cpu build without MPI.  Each also runs once with
# FALCON_MPI_STAGING=all (every ghost and border entry staged) and once
# with FALCON_MPI_REPEAT=0 (each phase once a round, not repeated until
# it settles); FALCON_VERBOSE must show partitioned_sssp's repetitions,
# and compute-sanitizer (memcheck, racecheck, synccheck) must find
# nothing in 2 ranks of it.  libfalcon_mpi is
# built here with this machine's mpicc when LIBFALCON_MPI is not given.
# mpi_sample NAME: whether gpu_mpi builds and runs NAME (GPU_MPI_SAMPLES,
# every sample by default; mpi_mixed unless GPU_MPI_PART=runs).
mpi_sample() {
	case $1 in
	mpi_mixed) [ "${GPU_MPI_PART:-all}" != runs ] ;;
	*) case " ${GPU_MPI_SAMPLES:-$1} " in *" $1 "*) return 0 ;; *) return 1 ;; esac ;;
	esac
}
gpu_mpi() {
	mpicc=${MPICC:-$(command -v mpicc)}
	mpirun=${MPIRUN:-$(command -v mpirun)}
	if [ -z "$mpicc" ] || [ -z "$mpirun" ]; then
		echo "(no MPI here: GPU parts under MPI are not checked)"
		return
	fi
	if [ "$(id -u)" = 0 ]; then
		OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
		export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
	fi
	lib=${LIBFALCON_MPI:-}
	if [ -z "$lib" ]; then
		lib=$tmp/libfalcon_mpi.a
		if ! "$mpicc" -std=c11 -O2 -fopenmp -I"$srcdir/include" -c -o "$tmp/mpi.o" \
			"$srcdir/runtime/mpi.c" 2>"$tmp/err" || ! ar rcs "$lib" "$tmp/mpi.o"; then
			fail "gpu mpi: building runtime/mpi.c with $mpicc"; sed 's/^/    /' "$tmp/err" | head
			return
		fi
	fi
	mpilibs=$(nvcc_mpi_link "$mpicc")
	[ -n "$mpilibs" ] || mpilibs=-lmpi
	glibs="${GPU_LIBS:--lz -llzma -lgomp} $mpilibs"
	# (GPU_MPI_SAMPLES: some of the three samples, where a change touches
	# only theirs and device time is short; every one by default;
	# mpi_mixed only for the checks after the runs)
	for a in partitioned_sssp partitioned_bfs partitioned_pagerank mpi_mixed; do
		mpi_sample $a || continue
		f=$srcdir/samples/$a.fal
		[ $a = mpi_mixed ] && f=$srcdir/tests/e2e/$a.fal
		CUDA_FLAGS="--mpi --target=gpu" CUDA_PRELIBS=$lib GPU_LIBS=$glibs cuda_prebuild $a "$f" "$tmp/gpumpi"
	done
	cuda_prebuild_wait
	if [ "${GPU_MPI_PART:-all}" != checks ]; then
	for a in partitioned_sssp partitioned_bfs partitioned_pagerank; do
		mpi_sample $a || continue
		if ! CUDA_FLAGS="--mpi --target=gpu" CUDA_PRELIBS=$lib GPU_LIBS=$glibs \
			cuda_build $a "$srcdir/samples/$a.fal" "$tmp/gpumpi"; then
			fail "gpu mpi: building samples/$a.fal"; sed 's/^/    /' "$tmp/err" | head; continue
		fi
		for gf in "$tmp"/e2e/graphs/*; do
			e2e_part $a "$gf" "$tmp/gpumpi" "gpu mpi -np 1" "$mpirun -np 1" "1 0"
			e2e_part $a "$gf" "$tmp/gpumpi" "gpu mpi -np 2" "$mpirun --oversubscribe -np 2" "1 0"
		done
		e2e_part $a "$tmp/e2e/graphs/kron.bin" "$tmp/gpumpi" "gpu mpi -np 3" \
			"$mpirun --oversubscribe -np 3" "1 0" "2 1"
		e2e_few_points $a "$tmp/gpumpi" "gpu mpi" "$mpirun" "1 0"
		e2e_part $a "$tmp/e2e/graphs/kron.bin" "$tmp/gpumpi" "gpu mpi -np 2 FALCON_MPI_STAGING=all" \
			"env FALCON_MPI_STAGING=all $mpirun --oversubscribe -np 2" "1 0"
		e2e_part $a "$tmp/e2e/graphs/kron.bin" "$tmp/gpumpi" "gpu mpi -np 2 FALCON_MPI_REPEAT=0" \
			"env FALCON_MPI_REPEAT=0 $mpirun --oversubscribe -np 2" "1 0"
		# By default the ranks read each other's large rounds from their
		# GPUs (CUDA IPC; the runs above, 3 ranks on kron share a GPU on
		# a machine with 2); FALCON_MPI_IPC=off exchanges every round
		# through the hosts: every graph with 2 ranks, and 3 on kron
		for gf in "$tmp"/e2e/graphs/*; do
			e2e_part $a "$gf" "$tmp/gpumpi" "gpu mpi -np 2 FALCON_MPI_IPC=off" \
				"env FALCON_MPI_IPC=off $mpirun --oversubscribe -np 2" "1 0"
		done
		e2e_part $a "$tmp/e2e/graphs/kron.bin" "$tmp/gpumpi" "gpu mpi -np 3 FALCON_MPI_IPC=off" \
			"env FALCON_MPI_IPC=off $mpirun --oversubscribe -np 3" "1 0"
		# The test graphs' rounds are small enough to go in messages:
		# FALCON_MPI_INLINE=0 makes every non-empty round read over IPC
		for gf in "$tmp"/e2e/graphs/*; do
			e2e_part $a "$gf" "$tmp/gpumpi" "gpu mpi -np 2 FALCON_MPI_INLINE=0" \
				"env FALCON_MPI_INLINE=0 $mpirun --oversubscribe -np 2" "1 0"
		done
		e2e_part $a "$tmp/e2e/graphs/kron.bin" "$tmp/gpumpi" "gpu mpi -np 3 FALCON_MPI_INLINE=0" \
			"env FALCON_MPI_INLINE=0 $mpirun --oversubscribe -np 3" "1 0"
		# Ranks of one machine run the single process's kernels, one a
		# rank (falcon/mpi.cuh fal_mpx; SSSP's own rounds, BFS's one
		# barrier a round): FALCON_GPU_LOOPS=device moves each loop into
		# them at its first round (auto: after short rounds), =host
		# never (its host rounds send their MINs to the owners, no
		# exchange); 3 ranks on kron (two share a GPU where there are
		# two: refused, the exchange stays); FALCON_PX_REMOTE=off: the
		# exchange every round
		for gf in "$tmp"/e2e/graphs/*; do
			e2e_part $a "$gf" "$tmp/gpumpi" "gpu mpi -np 2 FALCON_GPU_LOOPS=device" \
				"env FALCON_GPU_LOOPS=device $mpirun --oversubscribe -np 2" "1 0"
			e2e_part $a "$gf" "$tmp/gpumpi" "gpu mpi -np 2 FALCON_GPU_LOOPS=host" \
				"env FALCON_GPU_LOOPS=host $mpirun --oversubscribe -np 2" "1 0"
			# BFS's host rounds merging borders and refreshing ghosts over
			# the maps instead of pushing (FALCON_MPX_HOST=gather, opt-in)
			if [ $a = partitioned_bfs ]; then
				e2e_part $a "$gf" "$tmp/gpumpi" \
					"gpu mpi -np 2 FALCON_GPU_LOOPS=host FALCON_MPX_HOST=gather" \
					"env FALCON_GPU_LOOPS=host FALCON_MPX_HOST=gather $mpirun --oversubscribe -np 2" "1 0"
				# pull rounds in the ranks' kernel (docs/optimiser.md "Pull
				# rounds inside the parts' kernel"): forced each way (chosen,
				# the default, is the plain -np 2 run above)
				for d in pull push; do
					e2e_part $a "$gf" "$tmp/gpumpi" "gpu mpi -np 2 kernel pull rounds FALCON_DIRECTION=$d" \
						"env FALCON_GPU_LOOPS=device FALCON_DIRECTION=$d $mpirun --oversubscribe -np 2" "1 0"
					# the host rounds of ranks that do not map each other
					# (docs/lowering.md "Pull rounds on host ranks")
					e2e_part $a "$gf" "$tmp/gpumpi" "gpu mpi -np 2 host pull rounds FALCON_DIRECTION=$d" \
						"env FALCON_MPI_IPC=off FALCON_GPU_LOOPS=host FALCON_DIRECTION=$d $mpirun --oversubscribe -np 2" "1 0"
				done
			fi
		done
		e2e_part $a "$tmp/e2e/graphs/kron.bin" "$tmp/gpumpi" "gpu mpi -np 3 FALCON_GPU_LOOPS=device" \
			"env FALCON_GPU_LOOPS=device $mpirun --oversubscribe -np 3" "1 0"
		if [ $a = partitioned_bfs ]; then
			# the ranks' host rounds pulled on their GPUs (FALCON_PROFILE
			# "pull rounds (ranks)", every rank), where they do not map
			# each other
			g=$tmp/e2e/graphs/kron.bin
			pulled "gpu mpi -np 2: partitioned_bfs on kron.bin, host rounds, FALCON_DIRECTION=pull, pulled rounds" \
				55 "pull rounds (ranks)" env FALCON_MPI_IPC=off FALCON_GPU_LOOPS=host FALCON_DIRECTION=pull \
				timeout 300 $mpirun --oversubscribe -np 2 "$tmp/gpumpi/$a" "$g" "$(e2e_source "$g")" 1 0
			pulled "gpu mpi -np 3: partitioned_bfs on kron.bin, host rounds, chosen directions, pulled rounds" \
				55 "pull rounds (ranks)" env FALCON_MPI_IPC=off FALCON_GPU_LOOPS=host \
				timeout 300 $mpirun --oversubscribe -np 3 "$tmp/gpumpi/$a" "$g" "$(e2e_source "$g")" 1 0
		fi
		if [ $a = partitioned_bfs ] && [ "$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')" -ge 2 ]; then
			# the ranks' kernel pulled: FALCON_PROFILE counts its rounds
			# (two GPUs: two ranks on one GPU keep their host rounds)
			g=$tmp/e2e/graphs/kron.bin
			pulled "gpu mpi -np 2: partitioned_bfs on kron.bin, FALCON_DIRECTION=pull, the kernel's pulled rounds" \
				55 "pull rounds (kernel)" env FALCON_DIRECTION=pull timeout 300 $mpirun --oversubscribe -np 2 \
				"$tmp/gpumpi/$a" "$g" "$(e2e_source "$g")" 1 0
		fi
		e2e_part $a "$tmp/e2e/graphs/kron.bin" "$tmp/gpumpi" "gpu mpi -np 2 FALCON_GPU_LOOPS=device FALCON_PX_REMOTE=off" \
			"env FALCON_GPU_LOOPS=device FALCON_PX_REMOTE=off $mpirun --oversubscribe -np 2" "1 0"
		# the owners' values back into the ghosts (ranks that map each
		# other: two GPUs; docs/optimiser.md "The owner's value back")
		e2e_part $a "$tmp/e2e/graphs/kron.bin" "$tmp/gpumpi" "gpu mpi -np 2 FALCON_GPU_LOOPS=device FALCON_PX_REMOTE=fetch" \
			"env FALCON_GPU_LOOPS=device FALCON_PX_REMOTE=fetch $mpirun --oversubscribe -np 2" "1 0"
		# Rows only (each rank holds its points' edges): with many hubs,
		# every rank's hub list must still hold all of its own.
		FALCON_HUB_DEGREE=16
		export FALCON_HUB_DEGREE
		e2e_part $a "$tmp/e2e/graphs/kron.bin" "$tmp/gpumpi" "gpu mpi -np 2 hubs of degree 16" \
			"$mpirun --oversubscribe -np 2" "1 0"
		unset FALCON_HUB_DEGREE
	done
	fi
	[ "${GPU_MPI_PART:-all}" = runs ] && return
	p=$tmp/gpumpi/partitioned_sssp
	# (from a point that reaches others: the first foreach, t.dist = INF,
	# exchanges nothing, docs/lowering.md "A foreach that writes alike on
	# every copy", so the entries copied are the loop's)
	if [ -x "$p" ] && FALCON_VERBOSE=1 timeout 120 $mpirun --oversubscribe -np 2 "$p" \
		"$tmp/e2e/graphs/kron.bin" "$(e2e_source "$tmp/e2e/graphs/kron.bin")" 1 0 >"$tmp/e2e/run" 2>&1 &&
		[ "$(grep -c '^falcon: rank [01]: points \[[0-9]*, [0-9]*) on GPU [0-9]*; [1-9][0-9]* ghosts' "$tmp/e2e/run")" = 2 ] &&
		[ "$(grep -c '^falcon: rank [01] of 2 reads points' "$tmp/e2e/run")" = 2 ] &&
		[ "$(grep -c '^falcon: rank [01]: [1-9][0-9]* ghost and border entries copied from its GPU' "$tmp/e2e/run")" = 2 ] &&
		[ "$(grep -c '^falcon: rank [01]: [1-9][0-9]* launches of phases repeated until they settled' "$tmp/e2e/run")" = 2 ]; then
		pass "gpu mpi: each of 2 ranks reads its points' edges and runs them on a GPU, its changed ghosts and border points staged, its phase repeated until it settled"
	else
		fail "gpu mpi: the ranks' GPUs (FALCON_VERBOSE)"; sed 's/^/    /' "$tmp/e2e/run" | head -8
	fi
	# The ranks' kernels (fal_mpx): with two GPUs, both ranks of each
	# sample map each other's point properties, and the profile names
	# the kernels' rounds
	if [ "$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')" -ge 2 ]; then
		for a in partitioned_sssp partitioned_bfs; do
			q=$tmp/gpumpi/$a
			case $a in *sssp) form="own rounds" ;; *) form="one barrier" ;; esac
			if [ -x "$q" ] && FALCON_GPU_LOOPS=device FALCON_VERBOSE=1 FALCON_PROFILE=1 timeout 120 \
				$mpirun --oversubscribe -np 2 "$q" "$tmp/e2e/graphs/kron.bin" 0 1 0 >"$tmp/e2e/run" 2>&1 &&
				[ "$(grep -c "note: rank [01]: the ranks' GPUs reach each other's 1 point property over CUDA IPC" "$tmp/e2e/run")" = 2 ] &&
				grep -q "ranks ($form)" "$tmp/e2e/run"; then
				pass "gpu mpi: $a: 2 ranks run the loop as the single process's kernels ($form)"
			else
				fail "gpu mpi: $a: the ranks' kernels (FALCON_VERBOSE, FALCON_PROFILE)"
				sed 's/^/    /' "$tmp/e2e/run" | head -12
			fi
		done
	fi
	# CUDA IPC (FALCON_MPI_IPC=on asks for it and notes a fallback): both
	# ranks say they read over IPC (a rank that could not would make both
	# exchange through the host, with a note)
	if [ -x "$p" ] && FALCON_MPI_IPC=on FALCON_VERBOSE=1 timeout 120 $mpirun --oversubscribe -np 2 "$p" \
		"$tmp/e2e/graphs/kron.bin" 0 1 0 >"$tmp/e2e/run" 2>&1 &&
		[ "$(grep -c '^falcon: rank [01]: points .*read by the neighbours over CUDA IPC' "$tmp/e2e/run")" = 2 ]; then
		pass "gpu mpi: FALCON_MPI_IPC=on: 2 ranks read each other's pairs from their GPUs"
	else
		fail "gpu mpi: FALCON_MPI_IPC=on (FALCON_VERBOSE)"; sed 's/^/    /' "$tmp/e2e/run" | head -8
	fi
	# compute-sanitizer on 2 ranks of partitioned_sssp (the repeated
	# phase's word and early return, hub blocks from 16 edges): both ranks
	# clean, and the distances of the run without it
	if command -v compute-sanitizer >/dev/null 2>&1 && [ -x "$p" ]; then
		g=$tmp/e2e/graphs/kron.bin
		src=$(e2e_source "$g")
		rm -f "$tmp/e2e/san.ref"
		FALCON_HUB_DEGREE=16 timeout 120 $mpirun --oversubscribe -np 2 "$p" "$g" "$src" 1 0 \
			"$tmp/e2e/san.ref" >/dev/null 2>&1
		# the last: memcheck with every round's pairs read from the other
		# rank's GPU (CUDA IPC mappings)
		for run in memcheck racecheck synccheck memcheck,0; do
			tool=${run%,*} inl= what=
			case $run in *,*) inl=${run#*,} what=", FALCON_MPI_INLINE=$inl" ;; esac
			rm -f "$tmp/e2e/san.out"
			if env ${inl:+FALCON_MPI_INLINE=$inl} FALCON_HUB_DEGREE=16 timeout 300 $mpirun \
				--oversubscribe -np 2 compute-sanitizer --tool $tool --error-exitcode 9 \
				"$p" "$g" "$src" 1 0 "$tmp/e2e/san.out" >"$tmp/e2e/san.log" 2>&1 &&
				[ "$(grep -c 'SUMMARY: 0 errors\|(0 errors, 0 warnings)' "$tmp/e2e/san.log")" = 2 ] &&
				[ -s "$tmp/e2e/san.ref" ] && cmp -s "$tmp/e2e/san.out" "$tmp/e2e/san.ref"; then
				pass "gpu mpi: compute-sanitizer $tool on 2 ranks of partitioned_sssp$what"
			else
				fail "gpu mpi: compute-sanitizer $tool on 2 ranks of partitioned_sssp$what"
				grep -v '^$' "$tmp/e2e/san.log" | tail -12 | sed 's/^/    /'
			fi
		done
	fi
	if ! CUDA_FLAGS="--mpi --target=gpu" CUDA_PRELIBS=$lib GPU_LIBS=$glibs \
		cuda_build mpi_mixed "$srcdir/tests/e2e/mpi_mixed.fal" "$tmp/gpumpi" ||
		! cpu_twin mpi_mixed "$srcdir/tests/e2e/mpi_mixed.fal" "$tmp/gpumpi"; then
		fail "gpu mpi: building tests/e2e/mpi_mixed.fal"; sed 's/^/    /' "$tmp/err" | head
		return
	fi
	for gf in "$tmp"/e2e/graphs/*; do
		src=$(e2e_source "$gf")
		"$tmp/gpumpi/mpi_mixed_cpu" "$gf" "$src" 1 0 "$tmp/e2e/mixed.ref" >/dev/null 2>&1 ||
			{ fail "gpu mpi mpi_mixed $(basename "$gf"): the CPU build failed"; continue; }
		# -np 2 all: FALCON_MPI_STAGING=all (every ghost and border
		# entry staged each round, the host compares)
		# -np 2 once: FALCON_MPI_REPEAT=0 (each phase once a round)
		for np in 1 2 3 "2 all" "2 once"; do
			name="gpu mpi mpi_mixed $(basename "$gf") (-np $np)"
			rm -f "$tmp/e2e/mixed.out"
			st= rep=
			case $np in *all) st=all ;; *once) rep=0 ;; esac
			if ! FALCON_MPI_STAGING=$st FALCON_MPI_REPEAT=$rep timeout 120 $mpirun --oversubscribe -np ${np%% *} \
				"$tmp/gpumpi/mpi_mixed" "$gf" "$src" 1 0 \
				"$tmp/e2e/mixed.out" >"$tmp/e2e/run" 2>&1; then
				fail "$name: failed"; sed 's/^/    /' "$tmp/e2e/run" | head -5
			elif ! cmp -s "$tmp/e2e/mixed.out" "$tmp/e2e/mixed.ref"; then
				fail "$name: differs from the CPU build"
				diff "$tmp/e2e/mixed.out" "$tmp/e2e/mixed.ref" | head -5 | sed 's/^/    /'
			else
				pass "$name"
			fi
		done
	done
}

# Parts on several GPUs (§7; docs/optimiser.md "Partitioned loops on the
# devices"): with 2 GPUs or more, the partitioned samples with 2, 3 and 4
# GPU parts (and 2 + a host part), their loops in a kernel per part (the
# default) and from the host (FALCON_PX_MULTI=off), against the
# references, on one graph of each shape (the loaders are checked
# elsewhere); FALCON_VERBOSE must put parts 0 and 1 on GPUs 0 and 1, and
# FALCON_PROFILE must show the kernels per part.  part_phases (two
# exchanges a round) and part_topo (the skip) against their CPU builds.
# MPI ranks on several GPUs are gpu_mpi's (a rank's GPU is its local
# rank modulo the GPUs).
gpu_multi() {
	ng=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
	if [ "$ng" -lt 2 ]; then
		echo "(one GPU here: parts on several GPUs are not checked)"
		return
	fi
	for a in partitioned_sssp partitioned_bfs partitioned_pagerank; do
		if ! cuda_build $a "$srcdir/samples/$a.fal" "$tmp/gpu"; then
			fail "gpu multi: building samples/$a.fal"; sed 's/^/    /' "$tmp/err" | head; continue
		fi
		for gf in "$tmp"/e2e/graphs/kron.bin "$tmp"/e2e/graphs/grid.gr.xz "$tmp"/e2e/graphs/uniform.bin \
			"$tmp"/e2e/graphs/tiny.txt ${KRON:+"$tmp/e2e/graphs/kron-$KRON.bin"}; do
			e2e_part $a "$gf" "$tmp/gpu" "gpu $ng GPUs" "env" "2 0" "3 0" "4 0" "2 1"
			e2e_part $a "$gf" "$tmp/gpu" "gpu $ng GPUs FALCON_PX_MULTI=off" "env FALCON_PX_MULTI=off" \
				"2 0" "2 1"
			e2e_part $a "$gf" "$tmp/gpu" "gpu $ng GPUs FALCON_PX_REMOTE=off" "env FALCON_PX_REMOTE=off" \
				"2 0"
			# the owners' values back into the ghosts (docs/optimiser.md
			# "The owner's value back")
			e2e_part $a "$gf" "$tmp/gpu" "gpu $ng GPUs FALCON_PX_REMOTE=fetch" "env FALCON_PX_REMOTE=fetch" \
				"2 0" "3 0"
			# every round from the host: the exchange after every foreach
			e2e_part $a "$gf" "$tmp/gpu" "gpu $ng GPUs FALCON_GPU_LOOPS=host" "env FALCON_GPU_LOOPS=host" \
				"2 0" "3 0" "4 0"
		done
	done
	p=$tmp/gpu/partitioned_sssp
	g=$tmp/e2e/graphs/grid.gr.xz
	if [ -x "$p" ] && FALCON_GPU_LOOPS=device FALCON_VERBOSE=1 FALCON_PROFILE=1 timeout 120 "$p" "$g" \
		"$(e2e_source "$g")" 2 0 >"$tmp/e2e/run" 2>&1 &&
		grep -q '^falcon: part 0: GPU 0,' "$tmp/e2e/run" && grep -q '^falcon: part 1: GPU 1,' "$tmp/e2e/run" &&
		grep -q '^falcon profile: [^ ]*:[0-9]*  *parts ' "$tmp/e2e/run"; then
		pass "gpu multi: 2 parts on GPUs 0 and 1, the loop in a kernel per part"
	else
		fail "gpu multi: 2 parts on GPUs 0 and 1, the loop in a kernel per part"
		grep 'falcon' "$tmp/e2e/run" | sed 's/^/    /' | head -12
	fi
	# ... and BFS's level-synchronous loop with one barrier a round, its
	# MINs sent to the owners and the ghosts (plan.c parts_sync_rule,
	# fal_rs_round), the levels against falref's
	p=$tmp/gpu/partitioned_bfs
	src=$(e2e_source "$g")
	"$FALREF" bfs "$g" "$src" "$tmp/e2e/sync.ref" >/dev/null 2>&1
	if [ -x "$p" ] && FALCON_GPU_LOOPS=device FALCON_VERBOSE=1 FALCON_PROFILE=1 timeout 120 "$p" "$g" \
		"$src" 2 0 "$tmp/e2e/sync.out" >"$tmp/e2e/run2" 2>&1 &&
		"$FALREF" compare exact "$tmp/e2e/sync.out" "$tmp/e2e/sync.ref" >/dev/null 2>&1 &&
		grep -q '^falcon profile: [^ ]*:[0-9]*  *parts (one barrier) ' "$tmp/e2e/run2" &&
		grep -q "note: the parts' MINs on other parts' points go to their owners, and to every part that holds the point" "$tmp/e2e/run2"; then
		pass "gpu multi: BFS's rounds on GPUs 0 and 1 take one barrier each"
	else
		fail "gpu multi: BFS's rounds on GPUs 0 and 1 take one barrier each"
		grep 'falcon' "$tmp/e2e/run2" | sed 's/^/    /' | head -12
	fi
	# ... and in kernels that run their own rounds, the MINs sent over the
	# link (plan.c parts_own_rule, fal_ra_round)
	if grep -q '^falcon profile: [^ ]*:[0-9]*  *parts (own rounds) ' "$tmp/e2e/run" &&
		grep -q "note: the parts' MINs on other parts' points go to their owners" "$tmp/e2e/run"; then
		pass "gpu multi: 2 parts on GPUs 0 and 1 run their own rounds"
	else
		fail "gpu multi: 2 parts on GPUs 0 and 1 run their own rounds"
		grep 'falcon' "$tmp/e2e/run" | sed 's/^/    /' | head -12
	fi
	for t in part_phases part_topo part_own part_sync; do
		if ! cuda_build $t "$srcdir/tests/e2e/$t.fal" "$tmp/gpu" || ! cpu_twin $t "$srcdir/tests/e2e/$t.fal" "$tmp/gpu"; then
			fail "gpu multi: building tests/e2e/$t.fal"; sed 's/^/    /' "$tmp/err" | head; continue
		fi
		for gf in "$tmp"/e2e/graphs/kron.bin "$tmp"/e2e/graphs/grid.gr.xz "$tmp"/e2e/graphs/uniform.bin; do
			src=$(e2e_source "$gf")
			"$tmp/gpu/${t}_cpu" "$gf" "$src" 1 0 "$tmp/e2e/multi.ref" >/dev/null 2>&1 ||
				{ fail "gpu multi $t $(basename "$gf"): the CPU build failed"; continue; }
			for mode in device auto host; do
				for split in "2 0" "3 0" "4 0"; do
					# shellcheck disable=SC2086 # the split is two words
					run_vs_cpu "gpu multi $t $(basename "$gf") ($mode, $split)" "$tmp/e2e/multi.out" \
						"$tmp/e2e/multi.ref" env FALCON_HUB_DEGREE=32 FALCON_GPU_LOOPS=$mode \
						"$tmp/gpu/$t" "$gf" "$src" $split "$tmp/e2e/multi.out"
				done
			done
		done
	done
}

# GPU_PART=tests: all but the sanitizers, MPI and several GPUs (tests1,
# tests2 and tests3: its three parts, for machines where one command's
# time is limited); GPU_PART=mpi: only MPI; GPU_PART=multi: only parts on several
# GPUs; GPU_PART=sanitize: only the sanitizers; GPU_PART=pull: only the
# loops that pull (bfs.fal on one GPU, partitioned_bfs.fal's parts and
# its MPI runs: a few minutes, for changes to the direction rounds);
# by default everything.
case ${GPU_PART:-all} in
all) gpu_tests_a; gpu_tests_b; gpu_tests_c; gpu_mpi; gpu_multi ;;
tests) gpu_tests_a; gpu_tests_b; gpu_tests_c ;;
tests1) gpu_tests_a ;;
tests2) gpu_tests_b ;;
tests3) gpu_tests_c ;;
mpi) gpu_mpi ;;
multi) gpu_multi ;;
pull)
	for a in bfs partitioned_bfs; do
		cuda_build $a "$srcdir/samples/$a.fal" "$tmp/gpu" ||
			{ fail "gpu: building samples/$a.fal"; sed 's/^/    /' "$tmp/err" | head; }
	done
	gpu_pull_one
	gpu_pull_parts
	GPU_MPI_PART=runs
	GPU_MPI_SAMPLES=partitioned_bfs
	gpu_mpi
	;;
esac
case ${GPU_PART:-all} in tests | tests1 | tests2 | tests3 | mpi | multi | pull) SANITIZE=0 ;; esac

# compute-sanitizer memcheck, racecheck and synccheck on every sample and
# the GPU e2e programs built above, on a small Kronecker graph (SANITIZE=0
# skips this).
if [ "${SANITIZE:-1}" = 1 ]; then
	"$FALGRAPH" --weights 1 100 3 gen kron 10 8 2 "$tmp/small.bin" >/dev/null
	# Start SSSP at the point of highest degree (Kronecker ids are permuted,
	# point 0 may be isolated).
	hub=$("$FALGRAPH" info "$tmp/small.bin" | sed -n 's/^max degree: .*(point \([0-9]*\))$/\1/p')
	# Points of 32 edges or more take hub blocks (a block each), so
	# the sanitizers see their barriers and shared memory too.
	export FALCON_HUB_DEGREE=32
	printf '1 0\n' >"$tmp/noedges.txt"
	# The partitioned programs again with their loops in the kernels, a
	# kernel per part (px/; two parts on the one GPU: the exchange in
	# device code and the barriers between the parts' kernels).
	mkdir -p "$tmp/gpu/px"
	for a in partitioned_sssp partitioned_bfs part_phases part_topo; do
		[ -x "$tmp/gpu/$a" ] && cp "$tmp/gpu/$a" "$tmp/gpu/px/"
	done
	# The runs share the GPU, SAN_JOBS at a time; then the reports, in order.
	n=0
	for prog in "$tmp"/gpu/* "$tmp"/gpudev/* "$tmp"/gpu/t/* "$tmp"/gpu/t2/* "$tmp"/gpu/px/*; do
		[ -x "$prog" ] && [ -f "$prog" ] || continue
		a=$(basename "$prog")
		case $a in
		*.*) continue ;;
		sssp | sssp_topo | bfs | sssp_worklist | bfs_worklist | sssp_delta | coll_loop) args="$tmp/small.bin $hub" ;;
		dynamic_sssp) args="$tmp/small.bin $tmp/noedges.txt 1 $hub" ;;
		multigpu_sssp_bfs) args="$tmp/small.bin $hub" ;;
		# two GPU parts (on one device here): the border exchange's kernels
		partitioned_sssp | partitioned_bfs) args="$tmp/small.bin $hub 2 0" ;;
		partitioned_pagerank) args="$tmp/small.bin 2 0" ;;
		part_mixed | part_phases | part_topo) args="$tmp/small.bin $hub 2 0 $prog.out" ;;
		part_mixed_cpu | part_phases_cpu) continue ;; # the --target=cpu builds they are compared with
		loop_plan) args="$tmp/small.bin 3" ;;
		gettype_pair) args="$tmp/small.bin $hub $prog.d $prog.l" ;;
		grow_limits) args="$tmp/small.bin edges 10" ;;
		lost_update) args="$tmp/small.bin 3" ;;
		set_global) args="$tmp/small.bin $prog.out" ;;
		read_first) args="$tmp/small.bin $hub $prog.out" ;;
		dmr) "$FALMESH" gen 6 1 "$tmp/sanmesh" >/dev/null; args="$tmp/sanmesh $prog.out 30" ;;
		*) args="$tmp/small.bin" ;;
		esac
		for tool in memcheck racecheck synccheck; do
			(
				# shellcheck disable=SC2086 # args are words
				# The device-loop builds with their flag lists (off by default
				# on this dense graph).
				case $prog in
				*/gpudev/*) export FALCON_FRONTIERS=on ;;
				*/gpu/t/* | */gpu/t2/* | */gpu/px/*) export FALCON_GPU_LOOPS=device ;;
				esac
				compute-sanitizer --tool $tool --error-exitcode 9 "$prog" $args >"$prog.san.$tool" 2>&1
				echo $? >"$prog.san.$tool.st"
			) &
			n=$((n + 1))
			[ "$n" -ge "${SAN_JOBS:-6}" ] && { wait; n=0; }
		done
	done
	wait
	for prog in "$tmp"/gpu/* "$tmp"/gpudev/* "$tmp"/gpu/t/* "$tmp"/gpu/t2/* "$tmp"/gpu/px/*; do
		[ -x "$prog" ] && [ -f "$prog" ] || continue
		a=$(basename "$prog")
		case $a in *.* | part_mixed_cpu | part_phases_cpu) continue ;; esac # (not run above)
		case $prog in
		*/gpudev/*) tag="$a (--gpu-loops=device, FALCON_FRONTIERS=on)" ;;
		*/gpu/t/*) tag="$a (FALCON_GPU_LOOPS=device, a thread per element in its loop kernel)" ;;
		*/gpu/t2/*) tag="$a (FALCON_GPU_LOOPS=device)" ;;
		*/gpu/px/*) tag="$a (FALCON_GPU_LOOPS=device: a kernel per part, 2 parts on one GPU)" ;;
		*) tag=$a ;;
		esac
		for tool in memcheck racecheck synccheck; do
			st=$(cat "$prog.san.$tool.st" 2>/dev/null || echo 99)
			# memcheck/synccheck: "ERROR SUMMARY: 0 errors"; racecheck:
			# "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)".
			summary=$(grep 'SUMMARY' "$prog.san.$tool" | tail -1)
			if [ "$st" -eq 0 ] && echo "$summary" | grep -q ' 0 errors\|(0 errors, 0 warnings)'; then
				pass "compute-sanitizer $tool $tag: $summary"
			else
				fail "compute-sanitizer $tool $tag (status $st)"; tail -20 "$prog.san.$tool" | sed 's/^/    /'
			fi
		done
	done
fi
echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
