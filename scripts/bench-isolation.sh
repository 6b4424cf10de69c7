#!/usr/bin/env bash
# What running plugins out of process costs (docs/BENCHMARKS.md, "Plugins out of process"):
# `auhost render` of the reference chain over a stereo file (SECONDS_LONG, default 30 s), in process and with every
# plugin isolated (per-unit, together), at --block 64 and 1024, one render thread; the median
# of RUNS runs each (wall, user and system CPU), then the extra time per isolated node per
# 64-frame cycle. Release build:
#
#     swift build -c release --product auhost && swift build -c release --product auhost-unit-host
#     AUHOST=.build/release/auhost RUNS=5 scripts/bench-isolation.sh
set -euo pipefail
AUHOST=${AUHOST:-.build/release/auhost}
RUNS=${RUNS:-5}
PRESET=${PRESET:-Presets/reference.json}
NODES=5
SECONDS_LONG=${SECONDS_LONG:-30}
work=$(mktemp -d -t auhost-bench-isolation-XXXXXX)
trap 'rm -rf "$work"' EXIT
python3 - "$work/in.wav" "$SECONDS_LONG" <<'PY'
import math, random, struct, sys, wave
random.seed(29)
out = wave.open(sys.argv[1], "wb")
out.setnchannels(2); out.setsampwidth(2); out.setframerate(48000)
frames = 48000 * int(sys.argv[2])
out.writeframes(b"".join(struct.pack("<hh", int(8000 * math.sin(i * 0.05)) + random.randint(-3000, 3000), random.randint(-8000, 8000)) for i in range(frames)))
out.close()
PY
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
declare -A wall
printf '%-8s %-10s %10s %10s %10s\n' block isolation "wall s" "user s" "sys s"
for block in 64 1024; do
  for mode in none per-unit together; do
    : > "$work/times"
    for _ in $(seq "$RUNS"); do
      /usr/bin/time -f '%e %U %S' -a -o "$work/times" "$AUHOST" render "$PRESET" "$work/in.wav" -o "$work/out.wav" \
        --tail 0 --block "$block" --threads 1 --isolation "$mode" --force > /dev/null
    done
    w=$(cut -d' ' -f1 "$work/times" | median); u=$(cut -d' ' -f2 "$work/times" | median); s=$(cut -d' ' -f3 "$work/times" | median)
    wall[$block-$mode]=$w
    printf '%-8s %-10s %10s %10s %10s\n' "$block" "$mode" "$w" "$u" "$s"
  done
done
cycles=$((48000 * SECONDS_LONG / 64))
for mode in per-unit together; do
  awk -v a="${wall[64-$mode]}" -v b="${wall[64-none]}" -v c="$cycles" -v n="$NODES" -v m="$mode" \
    'BEGIN { printf "%s at 64 frames: %.1f us more per isolated node per cycle\n", m, (a - b) * 1e6 / c / n }'
  awk -v a="${wall[1024-$mode]}" -v b="${wall[1024-none]}" -v m="$mode" 'BEGIN { printf "%s at 1024 frames: %.2fx the in-process wall time\n", m, a / b }'
done
