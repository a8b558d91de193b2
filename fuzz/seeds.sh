#!/bin/sh
# fuzz/seeds.sh SRCDIR OUT FALGRAPH: the seed inputs of the two harnesses.
#   OUT/seeds/falconc: every .fal in the repository (samples, tests)
#   OUT/seeds/graph:   every graph file under tests/graphs (good and bad),
#                      and small generated graphs in each format, plain,
#                      gzip and xz, each prefixed with the byte that picks
#                      the format (fuzz_graph.c: 0 = detect, 1..7 = forced)
set -eu
src=$1 out=$2 falgraph=$3
rm -rf "$out/seeds"
mkdir -p "$out/seeds/falconc" "$out/seeds/graph" "$out/gen"

i=0
for f in "$src"/samples/*.fal "$src"/tests/*/*.fal; do
	[ -f "$f" ] || continue
	# AFL++ wants small seeds: skip the rare big program.
	[ "$(wc -c <"$f")" -le 16384 ] || continue
	i=$((i + 1))
	cp "$f" "$out/seeds/falconc/$i-$(basename "$f")"
done

# The format byte a file's name suggests (0: detect).
format_byte() {
	case $1 in
	*.bin | *.bin.*) echo 7 ;;
	*galois* | *.gr.gz) echo 6 ;;
	*.mtx | *.mtx.*) echo 5 ;;
	*pace*) echo 4 ;;
	*.gr | *.gr.*) echo 3 ;;
	*snap*) echo 2 ;;
	*.txt | *.txt.*) echo 1 ;;
	*) echo 0 ;;
	esac
}

g=$out/gen
"$falgraph" --weights 1 9 3 gen uniform 12 30 5 "$g/u.txt" >/dev/null
"$falgraph" convert "$g/u.txt" "$g/u.bin" >/dev/null
"$falgraph" convert "$g/u.txt" "$g/u.gr" >/dev/null
"$falgraph" gen grid 3 4 "$g/grid.txt" >/dev/null
gzip -c "$g/u.txt" >"$g/u.txt.gz"
xz -c "$g/u.gr" >"$g/u.gr.xz"
xz -c "$g/u.bin" >"$g/u.bin.xz"

n=0
for f in "$src"/tests/graphs/* "$src"/tests/graphs/bad/* "$g"/*; do
	[ -f "$f" ] || continue
	case $f in *.md) continue ;; esac
	[ "$(wc -c <"$f")" -le 65536 ] || continue
	for b in 0 "$(format_byte "$f")"; do
		n=$((n + 1))
		{ printf "\\$(printf %03o "$b")"; cat "$f"; } >"$out/seeds/graph/$n-$b-$(basename "$f")"
	done
done
echo "seeds: $i programs, $n graph inputs in $out/seeds"
