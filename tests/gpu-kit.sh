#!/bin/sh
# tests/gpu-kit.sh: `make gpu-kit`.  Readies BUILD (build/ by default) for
# `make check-gpu` on a GPU machine that has nvcc and a driver but not the
# libraries falconc and the tests link: libtree-sitter (falconc is linked
# with the shared one) and liblzma's development files (-llzma).  It puts
# this machine's libtree-sitter.so.0 and liblzma.a into BUILD/kit/ (they
# stay in the ignored build folder: nothing here is committed) and writes
# BUILD/kit/check-gpu, which runs tests/gpu.sh with them:
#
#   here:    make && make gpu-kit
#   there:   GPU_PART=tests2 sh build/kit/check-gpu     (carry "build")
#
# On the GPU machine check-gpu needs neither configure nor the Makefile;
# it takes the tools from the folder it lies in, so the copy may sit at
# another path there.  GPU_LIBS, NVCC, MPICC, MPIRUN and every other
# tests/gpu.sh setting pass through.
set -eu
srcdir=$(cd "${1:-.}" && pwd)
build=${2:-build}
case $build in /*) ;; *) build=$(pwd)/$build ;; esac
[ -x "$build/falconc" ] || { echo "gpu-kit: $build/falconc is not built (make first)" >&2; exit 1; }
kit=$build/kit
mkdir -p "$kit"
# libtree-sitter: the file falconc is linked with (none when it is static)
ts=$(ldd "$build/falconc" 2>/dev/null | sed -n 's/^[[:space:]]*libtree-sitter[^ ]* => \([^ ]*\) .*/\1/p' | head -1)
if [ -n "$ts" ] && [ -f "$ts" ]; then
	rm -f "$kit/libtree-sitter.so.0"
	cp -L "$ts" "$kit/libtree-sitter.so.0"
fi
# liblzma.a: the GPU machines have liblzma.so.5 but not the -llzma link
lz=
for d in $(gcc -print-search-dirs 2>/dev/null | sed -n 's/^libraries: =//p' | tr ':' ' ') \
	/usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib; do
	[ -f "$d/liblzma.a" ] && { lz=$d/liblzma.a; break; }
done
if [ -n "$lz" ]; then
	rm -f "$kit/liblzma.a"
	cp -L "$lz" "$kit/liblzma.a"
else
	echo "gpu-kit: note: no liblzma.a here; the GPU programs will link -llzma" >&2
fi
# the sources: the build folder's parent (the usual build/), else this path
src=$srcdir
[ "$(cd "$build/.." && pwd)" = "$srcdir" ] && src=
cat >"$kit/check-gpu" <<EOF
#!/bin/sh
# Written by tests/gpu-kit.sh: make check-gpu on a machine without
# libtree-sitter or liblzma's development files.  GPU_PART etc. pass through.
kit=\$(cd "\$(dirname "\$0")" && pwd)
b=\$(cd "\$kit/.." && pwd)
src=\$(cd "\${FALCON_SRC:-${src:-\$b/..}}" && pwd)
LD_LIBRARY_PATH=\$kit\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH
if [ -z "\${GPU_LIBS:-}" ] && [ -f "\$kit/liblzma.a" ]; then
	GPU_LIBS="\$kit/liblzma.a -lz -lgomp"
	export GPU_LIBS
fi
mpi=
[ -f "\$b/libfalcon_mpi.a" ] && mpi=\$b/libfalcon_mpi.a
FALCONC=\$b/falconc FALREF=\$b/falref FALGRAPH=\$b/falgraph FALMESH=\$b/falmesh \\
	LIBFALCON=\$b/libfalcon.a LIBFALCON_MPI=\${LIBFALCON_MPI:-\$mpi} NVCC=\${NVCC:-nvcc} \\
	exec sh "\$src/tests/gpu.sh" "\$src"
EOF
chmod +x "$kit/check-gpu"
echo "gpu-kit: $kit ready: there, run GPU_PART=... sh ${kit#"$srcdir"/}/check-gpu (carry ${build#"$srcdir"/})"
