#!/bin/sh
# tests/e2e.sh: end-to-end helpers shared by tests/run.sh (make check) and
# tests/gpu.sh (make check-gpu).  Sourced; expects $tmp, $srcdir, $FALCONC,
# $FALGRAPH, $FALREF and the pass/fail functions of the caller.

e2e_build() { # e2e_build NAME FAL: falconc --target=cpu, then cc with libfalcon
	# (E2E_LIBS: what to link instead of OpenMP, zlib, liblzma and libm;
	# E2E_CFLAGS: added to compile and link, e.g. make check-asan's sanitizers)
	"$FALCONC" --target=cpu -o "$tmp/e2e/$1.c" "$2" 2>"$tmp/err" &&
		${CC:-cc} -std=c11 -O2 ${E2E_CFLAGS:-} ${OPENMP_CFLAGS:-} -I"$srcdir/include" \
			-c -o "$tmp/e2e/$1.o" "$tmp/e2e/$1.c" 2>>"$tmp/err" &&
		${CC:-cc} ${E2E_CFLAGS:-} -o "$tmp/e2e/$1" "$tmp/e2e/$1.o" "$LIBFALCON" \
			${E2E_LIBS:-${OPENMP_CFLAGS:-} -lz -llzma -lm} 2>>"$tmp/err"
}

# The graphs: the hand-written tiny graph in every format, and generated
# graphs (Kronecker, grid, uniform directed; weights 1..100, seed 7) written
# in several formats, some compressed.
e2e_graphs() {
	g=$tmp/e2e/graphs
	mkdir -p "$g"
	for f in "$srcdir"/tests/graphs/tiny*; do
		case $f in *pattern*) continue ;; esac
		cp "$f" "$g/"
	done
	"$FALGRAPH" --weights 1 100 7 gen kron 9 8 3 "$g/kron.bin" >/dev/null &&
		"$FALGRAPH" convert "$g/kron.bin" "$g/kron.txt" >/dev/null &&
		"$FALGRAPH" convert "$g/kron.bin" "$g/kron.gr" >/dev/null &&
		gzip -c "$g/kron.txt" >"$g/kron.txt.gz" && rm "$g/kron.txt" &&
		"$FALGRAPH" --weights 1 100 7 gen grid 17 23 "$g/grid.gr" >/dev/null &&
		xz -c "$g/grid.gr" >"$g/grid.gr.xz" && rm "$g/grid.gr" &&
		"$FALGRAPH" --weights 1 100 7 gen uniform 300 1500 5 "$g/uniform.txt" >/dev/null &&
		"$FALGRAPH" convert "$g/uniform.txt" "$g/uniform.bin" >/dev/null
}

# e2e_pulled WANT NAME AT PLAN CMD...: CMD, run with FALCON_PROFILE=1,
# succeeds, and its profile's line(s) for the loop at line AT with plan
# PLAN ("pull rounds", "pull rounds (kernel)", "pull rounds (ranks)": one
# line per rank that prints one) count the rounds that pulled as WANT
# says: some (a line, and every count above 0), zero (a line, and every
# count 0) or none (no line, or every count 0: a loop that cannot pull).
e2e_pulled() {
	pwant=$1 pname=$2 pat=$3 pplan=$4
	shift 4
	if ! FALCON_PROFILE=1 "$@" >"$tmp/e2e/run" 2>&1; then
		fail "$pname: the sample failed"; sed 's/^/    /' "$tmp/e2e/run" | head
		return
	fi
	n=$(sed -n "s/^falcon profile: \(rank [0-9]*: \)\{0,1\}[^ ]*:$pat  *$pplan  *[0-9]*  *\([0-9]*\) .*/\2/p" \
		"$tmp/e2e/run" | tr '\n' ' ')
	n=${n% }
	pos=0 zero=0
	for v in $n; do
		if [ "$v" -gt 0 ]; then pos=$((pos + 1)); else zero=$((zero + 1)); fi
	done
	case $pwant:$pos:$zero in
	some:0:*| some:*:[1-9]* | zero:*:0 | zero:[1-9]*:* | none:[1-9]*:*)
		fail "$pname: ${n:-no} pulled rounds, expected $pwant"; sed 's/^/    /' "$tmp/e2e/run" | head ;;
	none:*) pass "$pname: none pulled" ;;
	*) pass "$pname: $n rounds pulled" ;;
	esac
}

# The source for SSSP and BFS: point 0, or the point of highest degree
# when point 0 has no out-edges (Kronecker ids are permuted).
e2e_source() {
	"$FALGRAPH" info "$1" >"$tmp/info" 2>&1
	if grep -q '^point 0 degree: 0$' "$tmp/info"; then
		sed -n 's/^max degree: .*(point \([0-9]*\))$/\1/p' "$tmp/info"
	else
		echo 0
	fi
}

e2e_run() { # e2e_run ALGO GRAPH [BINDIR [TAG]]: sample vs reference, full vectors
	a=$1; gf=$2; bindir=${3:-$tmp/e2e}; name="${4:-e2e} $a $(basename "$gf")"
	ref=$a
	case $a in
	sssp | bfs) args=$(e2e_source "$gf"); kind=exact ;;
	sssp_worklist | sssp_delta | sssp_topo | read_first | topo_filter | loop_graph_copy)
		args=$(e2e_source "$gf"); kind=exact; ref=sssp ;;
	bfs_worklist) args=$(e2e_source "$gf"); kind=exact; ref=bfs ;;
	cc) args=""; kind=cc ;;
	cc_simple) args=""; kind=cc; ref=cc ;;
	tc) args=""; kind=tc ;;
	tc_simple) args=""; kind=tc; ref=tc ;;
	pagerank) args=""; kind=pagerank ;;
	mst) args=""; kind=lines ;;
	matching) args=""; kind=exact ;;
	set_global) args=""; kind=cc; ref=cc ;;
	esac
	# shellcheck disable=SC2086 # args are words
	if ! OMP_NUM_THREADS=${E2E_THREADS:-4} "$bindir/$a" "$gf" $args "$tmp/e2e/out" >"$tmp/e2e/run" 2>&1; then
		fail "$name: the sample failed"; sed 's/^/    /' "$tmp/e2e/run" | head -5; return
	fi
	# shellcheck disable=SC2086
	if ! "$FALREF" "$ref" "$gf" $args "$tmp/e2e/ref" >"$tmp/e2e/log" 2>&1; then
		fail "$name: the reference failed"; sed 's/^/    /' "$tmp/e2e/log" | head -5; return
	fi
	if "$FALREF" compare "$kind" "$tmp/e2e/out" "$tmp/e2e/ref" >"$tmp/e2e/cmp" 2>&1; then
		pass "$name ($(sed -n 's/.*time \(.*\)/\1/p' "$tmp/e2e/run"))"
	else
		fail "$name: differs from the reference"; sed 's/^/    /' "$tmp/e2e/cmp" | head -5
	fi
}

# cuda_build NAME FAL DIR: falconc (CUDA target), then nvcc for Hopper and
# as portable PTX, linked with libfalcon.  GPU_LIBS may name static
# archives where the machine lacks the shared libraries.
# CUDA_PRELIBS: archives that go before libfalcon (libfalcon_mpi).
cuda_build() { # cuda_build NAME FAL DIR (CUDA_FLAGS: more falconc options, CUDA_NVFLAGS: more nvcc options)
	# A program cuda_prebuild already built (same NAME, DIR and flags) is
	# taken as it is, with its messages.
	if [ -f "$3/$1.st" ] && [ "$(sed -n 2p "$3/$1.st")" = "${CUDA_FLAGS:-}|${CUDA_NVFLAGS:-}|$2" ]; then
		cp "$3/$1.err" "$tmp/err"
		return "$(sed -n 1p "$3/$1.st")"
	fi
	mkdir -p "$3"
	# shellcheck disable=SC2086
	"$FALCONC" ${CUDA_FLAGS:-} -o "$3/$1.cu" "$2" 2>"$tmp/err" &&
		"$NVCC" -std=c++17 -O3 ${CUDA_NVFLAGS:-} -gencode arch=compute_90,code=sm_90 \
			-gencode arch=compute_75,code=compute_75 -Xcompiler -fopenmp \
			-I"$srcdir/include" -o "$3/$1" "$3/$1.cu" ${CUDA_PRELIBS:-} "$LIBFALCON" \
			${GPU_LIBS:--lz -llzma -lgomp} 2>>"$tmp/err"
}

# cuda_prebuild NAME FAL DIR: cuda_build in the background, CUDA_JOBS at a
# time (nvcc is most of check-gpu's time; the GPU machine has many
# cores); cuda_prebuild_wait waits for the last ones.  A later cuda_build
# of the same program takes the result.
cuda_prebuild_n=0
cuda_prebuild() {
	mkdir -p "$3"
	(
		tmp=$3/$1.tmp; mkdir -p "$tmp"
		cuda_build "$1" "$2" "$3"; st=$?
		mv "$tmp/err" "$3/$1.err"; rm -rf "$tmp"
		printf '%s\n%s\n' "$st" "${CUDA_FLAGS:-}|${CUDA_NVFLAGS:-}|$2" >"$3/$1.st"
	) &
	cuda_prebuild_n=$((cuda_prebuild_n + 1))
	if [ "$cuda_prebuild_n" -ge "${CUDA_JOBS:-8}" ]; then
		wait; cuda_prebuild_n=0
	fi
}
cuda_prebuild_wait() { wait; cuda_prebuild_n=0; }

# e2e_multigpu GRAPH BINDIR TAG: the SSSP+BFS parallel-sections sample,
# both result vectors against the references, in parallel and one after
# the other.
e2e_multigpu() {
	gf=$1; bindir=$2; name="$3 multigpu_sssp_bfs $(basename "$gf")"
	src=$(e2e_source "$gf")
	"$FALREF" sssp "$gf" "$src" "$tmp/e2e/ref.d" >/dev/null 2>&1 &&
		"$FALREF" bfs "$gf" "$src" "$tmp/e2e/ref.l" >/dev/null 2>&1 ||
		{ fail "$name: the references failed"; return; }
	for mode in parallel serial; do
		if ! OMP_NUM_THREADS=4 "$bindir/multigpu_sssp_bfs" "$gf" "$src" "$tmp/e2e/out.d" \
			"$tmp/e2e/out.l" $mode >"$tmp/e2e/run" 2>&1; then
			fail "$name ($mode): the sample failed"; sed 's/^/    /' "$tmp/e2e/run" | head -5
		elif "$FALREF" compare exact "$tmp/e2e/out.d" "$tmp/e2e/ref.d" >"$tmp/e2e/cmp" 2>&1 &&
			"$FALREF" compare exact "$tmp/e2e/out.l" "$tmp/e2e/ref.l" >>"$tmp/e2e/cmp" 2>&1; then
			pass "$name ($mode, $(sed -n 's/^multigpu: time //p' "$tmp/e2e/run"))"
		else
			fail "$name ($mode): differs from the references"; sed 's/^/    /' "$tmp/e2e/cmp" | head -5
		fi
	done
}

# e2e_pair BIN GRAPH TAG: BIN GRAPH SOURCE DIST LEVELS (tests/e2e/
# gettype_pair.fal) must write SSSP distances and BFS levels equal to the
# serial references.
e2e_pair() {
	name="$3 $(basename "$1") $(basename "$2")"
	src=$(e2e_source "$2")
	"$FALREF" sssp "$2" "$src" "$tmp/e2e/ref.d" >/dev/null 2>&1 &&
		"$FALREF" bfs "$2" "$src" "$tmp/e2e/ref.l" >/dev/null 2>&1 ||
		{ fail "$name: the references failed"; return; }
	if ! OMP_NUM_THREADS=${E2E_THREADS:-4} "$1" "$2" "$src" "$tmp/e2e/out.d" "$tmp/e2e/out.l" \
		>"$tmp/e2e/run" 2>&1; then
		fail "$name: the test failed"; sed 's/^/    /' "$tmp/e2e/run" | head -5
	elif grep -q 'not computed' "$tmp/e2e/run"; then
		fail "$name: $(head -1 "$tmp/e2e/run")"
	elif "$FALREF" compare exact "$tmp/e2e/out.d" "$tmp/e2e/ref.d" >"$tmp/e2e/cmp" 2>&1 &&
		"$FALREF" compare exact "$tmp/e2e/out.l" "$tmp/e2e/ref.l" >>"$tmp/e2e/cmp" 2>&1; then
		pass "$name: SSSP and BFS on two getType copies equal the references"
	else
		fail "$name: differs from the references"; sed 's/^/    /' "$tmp/e2e/cmp" | head -5
	fi
}

# e2e_selfcheck BIN GRAPH TAG: a self-checking test prints "NAME: ok".
e2e_selfcheck() {
	t=$(basename "$1")
	if OMP_NUM_THREADS=${E2E_THREADS:-8} timeout 120 "$1" "$2" >"$tmp/e2e/log" 2>&1 &&
		grep -q "^$t: ok" "$tmp/e2e/log"; then
		pass "$3 $(grep "^$t: ok" "$tmp/e2e/log") on $(basename "$2")"
	else
		fail "$3 $t on $(basename "$2")"; sed 's/^/    /' "$tmp/e2e/log" | head -5
	fi
}

# e2e_part ALGO GRAPH BINDIR TAG RUNNER "NGPU NCPU"...: a partitioned
# sample (§7: partitioned_sssp, partitioned_bfs, partitioned_pagerank)
# against its serial reference, for each split.  RUNNER (words, may be
# empty) starts the program, e.g. "mpirun -np 2"; a run that takes more
# than 120 s counts as hung.  Under a runner the summary must be printed
# once (by rank 0).
e2e_part() {
	a=$1; gf=$2; bindir=$3; tag=$4; runner=$5; shift 5
	case $a in
	partitioned_sssp) ref=sssp; src=$(e2e_source "$gf"); kind=exact ;;
	partitioned_bfs) ref=bfs; src=$(e2e_source "$gf"); kind=exact ;;
	*) ref=pagerank; src=; kind=pagerank ;;
	esac
	# shellcheck disable=SC2086 # src is empty or one word
	"$FALREF" $ref "$gf" $src "$tmp/e2e/ref.p" >/dev/null 2>&1 ||
		{ fail "$tag $a $(basename "$gf"): the reference failed"; return; }
	for split in "$@"; do
		name="$tag $a $(basename "$gf") ($split)"
		rm -f "$tmp/e2e/out.p"
		# shellcheck disable=SC2086 # the runner and the split are words
		if ! OMP_NUM_THREADS=${PART_THREADS:-4} timeout 120 $runner "$bindir/$a" "$gf" $src $split \
			"$tmp/e2e/out.p" >"$tmp/e2e/run" 2>&1; then
			fail "$name: the sample failed or hung"; sed 's/^/    /' "$tmp/e2e/run" | head -5
		elif [ -n "$runner" ] && [ "$(grep -c "^$a: time" "$tmp/e2e/run")" != 1 ]; then
			fail "$name: the summary is not printed exactly once"; sed 's/^/    /' "$tmp/e2e/run" | head -5
		elif "$FALREF" compare $kind "$tmp/e2e/out.p" "$tmp/e2e/ref.p" >"$tmp/e2e/cmp" 2>&1; then
			pass "$name: $(sed -n "s/^$a: time //p" "$tmp/e2e/run")"
		else
			fail "$name: differs from the reference"; sed 's/^/    /' "$tmp/e2e/cmp" | head -5
		fi
	done
}

# e2e_few_points A BINDIR TAG MPIRUN SPLIT: partitioned sample A (in
# BINDIR) with more ranks than points, on a graph of 2 points with 4
# ranks and of 1 point with 3 (kept in BINDIR, out of e2e/graphs, which
# check-gpu's loops take whole): the ranks that own none still take part
# in every exchange and reduction.  PART_THREADS as for e2e_part.
e2e_few_points() {
	[ -f "$2/two.txt" ] || printf '2 1\n0 1 3\n' >"$2/two.txt"
	[ -f "$2/one.txt" ] || printf '1 0\n' >"$2/one.txt"
	e2e_part "$1" "$2/two.txt" "$2" "$3 -np 4, more ranks than points" "$4 --oversubscribe -np 4" "$5"
	e2e_part "$1" "$2/one.txt" "$2" "$3 -np 3, more ranks than points" "$4 --oversubscribe -np 3" "$5"
}

# e2e_partitioned GRAPH BINDIR TAG "NGPU NCPU"...: partitioned SSSP,
# compared with Dijkstra for each split.
e2e_partitioned() {
	gf=$1; bindir=$2; tag=$3; shift 3
	e2e_part partitioned_sssp "$gf" "$bindir" "$tag" "" "$@"
}

# nvcc_mpi_link MPICC: Open MPI's link words (mpicc --showme:link) as
# nvcc takes them (-Wl, as -Xlinker; other options as -Xcompiler);
# nothing when MPICC cannot say.
nvcc_mpi_link() {
	words=
	for w in $("$1" --showme:link 2>/dev/null); do
		case $w in
		-L* | -l*) words="$words $w" ;;
		-Wl,*) words="$words -Xlinker ${w#-Wl,}" ;;
		*) words="$words -Xcompiler $w" ;;
		esac
	done
	echo "$words"
}

# e2e_build_mpi NAME FAL: falconc --mpi (§7 under MPI), then mpicc with
# libfalcon_mpi and libfalcon.
e2e_build_mpi() {
	"$FALCONC" --mpi -o "$tmp/e2e/mpi/$1.c" "$2" 2>"$tmp/err" &&
		"$MPICC" -std=c11 -O2 ${E2E_CFLAGS:-} ${OPENMP_CFLAGS:-} -I"$srcdir/include" \
			-o "$tmp/e2e/mpi/$1" "$tmp/e2e/mpi/$1.c" "$LIBFALCON_MPI" "$LIBFALCON" \
			${E2E_LIBS:-${OPENMP_CFLAGS:-} -lz -llzma -lm} 2>>"$tmp/err"
}

# e2e_grow BIN GRAPH TAG: tests/e2e/grow_parallel (§6, additions and
# deletions from parallel code, 4 rounds) must equal its serial version
# and the parallel version's capacity must have grown at least twice
# (FALCON_VERBOSE, the lines before the program says it is done).
e2e_grow() {
	name="$3 grow_parallel $(basename "$2")"
	if ! FALCON_VERBOSE=1 OMP_NUM_THREADS=${E2E_THREADS:-8} "$1" "$2" 4 \
		>"$tmp/grow.log" 2>&1 || ! grep -q '^grow_parallel: ok' "$tmp/grow.log"; then
		fail "$name"; sed 's/^/    /' "$tmp/grow.log" | head -5; return
	fi
	grows=$(sed '/^grow_parallel: parallel version done/q' "$tmp/grow.log" |
		grep -c '^falcon: graph grown')
	if [ "$grows" -lt 2 ]; then
		fail "$name: the capacity grew $grows times, not at least twice"
	else
		pass "$name: $(sed -n 's/^grow_parallel: ok (\(.*\))/\1/p' "$tmp/grow.log"), grown $grows times"
	fi
}

# e2e_dynamic BINDIR TAG: dynamic_sssp (§6) adds 30000 edges to a
# 2000-point grid in 4 batches (enough to grow the capacity at least
# twice, counted from FALCON_VERBOSE) and must give Dijkstra's distances
# on the final graph (the base and added edge lists concatenated).
# e2e_dynamic BINDIR TAG [BASE]: dynamic_sssp against Dijkstra on the final
# graph.  Without BASE: a 2000-point grid gets 30000 random edges in 4
# batches, which must grow the capacity at least twice.  With BASE (a
# real graph): 2n random edges (weights 1..100, seed 9) in 4 batches.
e2e_dynamic() {
	bindir=$1; name="$2 dynamic_sssp${3:+ $(basename "${3:-}")}"
	d=$tmp/e2e/dyn
	mkdir -p "$d"
	if [ -n "${3:-}" ]; then
		n=$("$FALGRAPH" info "$3" | sed -n 's/^points: //p')
		"$FALGRAPH" convert "$3" "$d/base.txt" >/dev/null &&
			"$FALGRAPH" --weights 1 100 9 gen uniform "$n" $((2 * n)) 4 "$d/add.txt" >/dev/null ||
			{ fail "$name: cannot make the graphs"; return; }
		src=$(e2e_source "$d/base.txt"); want=0; what="$((2 * n)) edges"
	else
		"$FALGRAPH" --weights 1 100 7 gen grid 40 50 "$d/base.txt" >/dev/null &&
			"$FALGRAPH" --weights 1 100 9 gen uniform 2000 30000 4 "$d/add.txt" >/dev/null ||
			{ fail "$name: cannot make the graphs"; return; }
		src=0; want=2; what="30000 edges"
	fi
	n=$(head -1 "$d/base.txt" | cut -d' ' -f1)
	m1=$(head -1 "$d/base.txt" | cut -d' ' -f2)
	m2=$(head -1 "$d/add.txt" | cut -d' ' -f2)
	{ echo "$n $((m1 + m2))"; tail -n +2 "$d/base.txt"; tail -n +2 "$d/add.txt"; } >"$d/merged.txt"
	"$FALREF" sssp "$d/merged.txt" "$src" "$d/ref" >/dev/null 2>&1 ||
		{ fail "$name: the reference failed"; return; }
	if ! FALCON_VERBOSE=1 OMP_NUM_THREADS=${E2E_THREADS:-4} "$bindir/dynamic_sssp" "$d/base.txt" \
		"$d/add.txt" 4 "$src" "$d/out" >"$d/run" 2>&1; then
		fail "$name: the sample failed"; sed 's/^/    /' "$d/run" | head -5; return
	fi
	grows=$(grep -c '^falcon: graph grown' "$d/run")
	if ! "$FALREF" compare exact "$d/out" "$d/ref" >"$d/cmp" 2>&1; then
		fail "$name: differs from Dijkstra on the final graph"; sed 's/^/    /' "$d/cmp" | head -5
	elif [ "$grows" -lt $want ]; then
		fail "$name: the capacity grew $grows times, not at least twice"
	else
		pass "$name: $what in 4 batches, capacity grown $grows times, equal to Dijkstra"
	fi
}

# e2e_big_graph BFS TAG (FALCON_BIG_TEST=1): a graph of more than 2^31
# edges (tests/runtime/big_graph.c: 2^22 points of out-degree 513, 8.6 GB
# in the binary format, written to BIG_DIR, default $tmp) loads and the
# BFS sample BFS (a CPU or a GPU build) gives the levels big_graph
# computes.  Needs about 18 GB of memory.
e2e_big_graph() {
	bfs=$1 tag=$2
	dir=${BIG_DIR:-$tmp}
	${CC:-cc} -O2 -o "$tmp/big_graph" "$srcdir/tests/runtime/big_graph.c" ||
		{ fail "$tag: building tests/runtime/big_graph.c"; return; }
	"$tmp/big_graph" 4194304 513 "$dir/big.bin" >"$tmp/big.want" ||
		{ fail "$tag: writing the 2^31+-edge graph"; rm -f "$dir/big.bin"; return; }
	start=$(date +%s)
	"$bfs" "$dir/big.bin" 0 >"$tmp/big.out" 2>&1
	st=$?
	secs=$(($(date +%s) - start))
	if [ $st -eq 0 ] && grep -q '^bfs: 4194304 points, 2151677952 edges, source 0$' "$tmp/big.out" &&
		[ "$(sed -n 2p "$tmp/big.out")" = "$(cat "$tmp/big.want")" ]; then
		pass "$tag: bfs over 2,151,677,952 edges (load and run: ${secs}s; $(sed -n 3p "$tmp/big.out"))"
	else
		fail "$tag: bfs over 2,151,677,952 edges (status $st)"
		sed 's/^/    /' "$tmp/big.out" | head -5; sed 's/^/    want: /' "$tmp/big.want"
	fi
	rm -f "$dir/big.bin"
}

# e2e_dmr BIN TAG: Delaunay mesh refinement (samples/dmr.fal, §3.6) on
# meshes of the unit square made by `falmesh gen` (tests/ref/mesh.c), under
# several angle bounds; `falmesh check` checks each result: the input's
# points kept, triangles counterclockwise, neighbours equal to those
# computed from the triangles, area and boundary length kept, a disk
# (T = 2V - B - 2), no triangle below the bound, every interior edge
# locally Delaunay.  One input is gzip-compressed and has no .neigh (the
# reader computes the neighbours).  Malformed inputs must stop the
# program with `path:line: error:` and status 2.
e2e_dmr() {
	bin=$1 tag=$2 d=$tmp/e2e/mesh
	mkdir -p "$d"
	if ! { "$FALMESH" gen 10 1 "$d/sq10" >/dev/null && "$FALMESH" gen 40 2 "$d/sq40" >/dev/null &&
		"$FALMESH" gen 25 3 "$d/sq25" >/dev/null && gzip -c "$d/sq25.node" >"$d/sq25z.node" &&
		gzip -c "$d/sq25.ele" >"$d/sq25z.ele"; }; then
		fail "$tag dmr: cannot make the meshes"; return
	fi
	# INPUT ANGLE [PLAIN]: sq25z is sq25 compressed, without .neigh (the
	# checker reads the plain copy)
	for run in "sq10 25" "sq10 30" "sq40 30" "sq40 33" "sq25z 28 sq25"; do
		set -- $run
		name="$tag dmr $1 (bound $2 degrees)"
		if ! OMP_NUM_THREADS=${E2E_THREADS:-4} "$bin" "$d/$1" "$d/out" "$2" >"$d/run" 2>&1; then
			fail "$name: the sample failed"; sed 's/^/    /' "$d/run" | head -5; continue
		fi
		if "$FALMESH" check "$d/${3:-$1}" "$d/out" "$2" >"$d/cmp" 2>&1; then
			pass "$name: $(sed -n 's/^dmr: \(.* inserted .*\)/\1/p' "$d/run"); $(sed -n 's/^falmesh: ok: //p' "$d/cmp")"
		else
			fail "$name: the refined mesh is not valid"; sed 's/^/    /' "$d/cmp" | head -5
		fi
		rm -f "$d/out.node" "$d/out.ele" "$d/out.neigh"
	done
	# Malformed input: a clear error and status 2, never a crash.
	cp "$d/sq10.node" "$d/bad.node"; cp "$d/sq10.neigh" "$d/bad.neigh"
	for bad in "missing .ele" "vertex 999" "clockwise" "neigh" "letters" "short"; do
		cp "$d/sq10.ele" "$d/bad.ele"; cp "$d/sq10.neigh" "$d/bad.neigh"; cp "$d/sq10.node" "$d/bad.node"
		case $bad in
		"missing .ele") rm "$d/bad.ele" ;;
		"vertex 999") sed '3s/^\([0-9]*\) \([0-9]*\)/\1 999/' "$d/sq10.ele" >"$d/bad.ele" ;;
		clockwise) sed '3s/^\([0-9]*\) \([0-9]*\) \([0-9]*\)/\1 \3 \2/' "$d/sq10.ele" >"$d/bad.ele" ;;
		neigh) sed '2s/^\([0-9]*\) [-0-9]*/\1 7/' "$d/sq10.neigh" >"$d/bad.neigh" ;;
		letters) sed '5s/ [0-9.e-]*$/ x1/' "$d/sq10.node" >"$d/bad.node" ;;
		short) head -20 "$d/sq10.node" >"$d/bad.node" ;;
		esac
		"$bin" "$d/bad" "$d/out" 25 >"$d/run" 2>&1
		st=$?
		if [ $st -eq 2 ] && grep -q 'bad\.[a-z]*\(:[0-9]*\)\?: error: ' "$d/run"; then
			pass "$tag dmr: malformed input ($bad): $(grep -m1 'error: ' "$d/run" | sed 's|.*/||')"
		else
			fail "$tag dmr: malformed input ($bad): status $st"; sed 's/^/    /' "$d/run" | head -3
		fi
	done
}

# e2e_dmr_checker: the checker rejects what it must (an unrefined mesh
# under a bound it breaks; a broken neighbour; a lost triangle).
e2e_dmr_checker() {
	d=$tmp/e2e/mesh
	mkdir -p "$d"
	"$FALMESH" gen 10 1 "$d/ck" >/dev/null || { fail "falmesh: gen"; return; }
	ok=1
	"$FALMESH" check "$d/ck" "$d/ck" 0 >/dev/null 2>&1 || ok=0
	"$FALMESH" check "$d/ck" "$d/ck" 30 >/dev/null 2>&1 && ok=0
	cp "$d/ck.node" "$d/ck2.node"; cp "$d/ck.ele" "$d/ck2.ele"
	sed '2s/^\([0-9]*\) [-0-9]*/\1 -1/' "$d/ck.neigh" >"$d/ck2.neigh"
	"$FALMESH" check "$d/ck" "$d/ck2" 0 >/dev/null 2>&1 && ok=0
	n=$(sed -n '1s/ .*//p' "$d/ck.ele")
	{ echo "$((n - 1)) 3 0"; sed -n "2,${n}p" "$d/ck.ele"; } >"$d/ck2.ele"
	{ echo "$((n - 1)) 3"; sed -n "2,${n}p" "$d/ck.neigh" | sed "s/ $n\( \|$\)/ -1\1/g"; } >"$d/ck2.neigh"
	"$FALMESH" check "$d/ck" "$d/ck2" 0 >/dev/null 2>&1 && ok=0
	if [ $ok = 1 ]; then pass "falmesh: the mesh checker accepts the input and rejects broken meshes"
	else fail "falmesh: the mesh checker does not tell broken meshes"; fi
}
