#!/usr/bin/env bash
# What running plugins out of process costs (docs/BENCHMARKS.md, "Plugins out of process"):
# `auhost render` of the reference chain over a stereo file (SECONDS_LONG, default 30 s), in process and with every
# plugin isolated (per-unit, together), at --block 64 and 1024, one render thread; the median
# of RUNS runs each (wall, user and system CPU) and the load average before each, then the
# extra time per isolated node per 64-frame cycle. With BASELINE (another build's auhost, its
# auhost-unit-host beside it) every run of AUHOST is paired with one of BASELINE, alternating,
# so that both see the same load. Release build:
#
#     swift build -c release --product auhost && swift build -c release --product auhost-unit-host
#     AUHOST=.build/release/auhost RUNS=5 [BASELINE=/tmp/old/auhost] scripts/bench-isolation.sh
set -euo pipefail
AUHOST=${AUHOST:-.build/release/auhost}
RUNS=${RUNS:-5}
PRESET=${PRESET:-Presets/reference.json}
NODES=5
SECONDS_LONG=${SECONDS_LONG:-30}
MODES=${MODES:-none per-unit together}
BLOCKS=${BLOCKS:-64 1024}
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
spread() { sort -n | awk '{ v[NR] = $1 } END { printf "%s-%s", v[1], v[NR] }'; }
builds=(new)
declare -A binary=([new]=$AUHOST)
if [ -n "${BASELINE:-}" ]; then builds=(baseline new); binary[baseline]=$BASELINE; fi
declare -A wall
printf '%-9s %-6s %-10s %10s %14s %10s %10s %s\n' build block isolation "wall s" "wall spread" "user s" "sys s" "load averages"
for block in $BLOCKS; do
  for mode in $MODES; do
    for build in "${builds[@]}"; do : > "$work/times-$build"; : > "$work/load-$build"; done
    for _ in $(seq "$RUNS"); do
      for build in "${builds[@]}"; do
        cut -d' ' -f1 /proc/loadavg >> "$work/load-$build"
        /usr/bin/time -f '%e %U %S' -a -o "$work/times-$build" "${binary[$build]}" render "$PRESET" "$work/in.wav" -o "$work/out.wav" \
          --tail 0 --block "$block" --threads 1 --isolation "$mode" --force > /dev/null
      done
    done
    for build in "${builds[@]}"; do
      t=$work/times-$build
      w=$(cut -d' ' -f1 "$t" | median); u=$(cut -d' ' -f2 "$t" | median); s=$(cut -d' ' -f3 "$t" | median)
      wall[$build-$block-$mode]=$w
      printf '%-9s %-6s %-10s %10s %14s %10s %10s %s\n' "$build" "$block" "$mode" "$w" "$(cut -d' ' -f1 "$t" | spread)" "$u" "$s" "$(paste -sd' ' "$work/load-$build")"
    done
  done
done
cycles=$((48000 * SECONDS_LONG / 64))
for build in "${builds[@]}"; do
  for mode in $MODES; do
    [ "$mode" = none ] && continue
    if [ -n "${wall[$build-64-$mode]:-}" ] && [ -n "${wall[$build-64-none]:-}" ]; then
      awk -v a="${wall[$build-64-$mode]}" -v b="${wall[$build-64-none]}" -v c="$cycles" -v n="$NODES" -v m="$mode" -v x="$build" \
        'BEGIN { printf "%s: %s at 64 frames: %.1f us more per isolated node per cycle\n", x, m, (a - b) * 1e6 / c / n }'
    fi
    if [ -n "${wall[$build-1024-$mode]:-}" ] && [ -n "${wall[$build-1024-none]:-}" ]; then
      awk -v a="${wall[$build-1024-$mode]}" -v b="${wall[$build-1024-none]}" -v m="$mode" -v x="$build" \
        'BEGIN { printf "%s: %s at 1024 frames: %.2fx the in-process wall time\n", x, m, a / b }'
    fi
  done
done
