#!/bin/sh
# bench/kernels.sh: where a GPU program's time goes, launch by launch.
# Runs the program once under Nsight Compute (ncu, from the CUDA
# toolkit), which times every kernel alone (base clocks, caches flushed:
# compare launches with each other, not with the program's own times),
# and prints per kernel and device the launches, their total and each
# launch's time in microseconds, in launch order (the first 16).
#
#   bench/kernels.sh PROGRAM [ARGS...]
#
# NCU= names ncu (default: ncu on PATH); KERNELS_CSV= keeps ncu's CSV.
# Example (bench/results/2026-11-28-lanes.md, call 2):
#   bench/kernels.sh ./partitioned_bfs kron-22.bin 3086300 2 0
set -eu
[ $# -ge 1 ] || { echo "usage: $0 PROGRAM [ARGS...]" >&2; exit 2; }
ncu=${NCU:-ncu}
command -v "$ncu" >/dev/null 2>&1 || { echo "$0: $ncu not found (Nsight Compute)" >&2; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "$0: python3 not found" >&2; exit 1; }
csv=${KERNELS_CSV:-$(mktemp)}
"$ncu" --metrics gpu__time_duration.sum --csv "$@" >"$csv" 2>/dev/null ||
	{ echo "$0: ncu or the program failed (ncu's CSV: $csv)" >&2; exit 1; }
python3 - "$csv" <<'PY'
import csv, sys
# ncu's numbers may carry thousands separators ("1,234"), and its units
# vary with the value ("ns", "us", "msecond", ...).
scale = {'ns': 1e-3, 'nsecond': 1e-3, 'us': 1.0, 'usecond': 1.0,
         'ms': 1e3, 'msecond': 1e3, 's': 1e6, 'second': 1e6}
head, rows = None, {}
for r in csv.reader(open(sys.argv[1], newline='')):
    if 'Kernel Name' in r and 'Metric Value' in r:
        head = r
        continue
    if not head or len(r) != len(head):
        continue
    d = dict(zip(head, r))
    if d.get('Metric Name') != 'gpu__time_duration.sum':
        continue
    unit = d.get('Metric Unit', 'ns')
    if unit not in scale:
        sys.exit('kernels.sh: unknown unit %r' % unit)
    us = float(d['Metric Value'].replace(',', '')) * scale[unit]
    key = (d['Kernel Name'].split('(')[0], d.get('Device', '?'))
    rows.setdefault(key, []).append(us)
if not rows:
    sys.exit('kernels.sh: no kernel times in ncu\'s output')
print('%-40s %6s %8s %12s  %s' % ('kernel', 'device', 'launches', 'total us', 'each (us)'))
for (name, dev), t in sorted(rows.items(), key=lambda kv: -sum(kv[1])):
    print('%-40s %6s %8d %12.1f  %s' % (name[:40], dev, len(t), sum(t),
                                        ' '.join('%.0f' % x for x in t[:16])))
PY
[ -n "${KERNELS_CSV:-}" ] || rm -f "$csv"
