#!/usr/bin/env bash
# The live stream's figures on one board's QEMU (docs/stream-format.md, "The firmware side"): the
# stream example built with each set of options below (PMU_STREAM_DEFINITIONS, a bounded run of a
# few seconds of the board's clock), run under scripts/stream_qemu.sh, its frames checked and
# counted by tests/stream/check_stream.py, and the firmware's own last line (samples, drops, the
# clock ticks inside poll()). Rebuilds only the stream example; puts the options (and the default
# build of it) back at the end.
#   bench/stream_rates.sh PRESET        (after cmake --preset PRESET)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/targets.sh
preset=${1:?usage: bench/stream_rates.sh PRESET}
[ -n "${pmu_dir[$preset]:-}" ] || { echo "stream_rates.sh: unknown preset $preset" >&2; exit 2; }
fw=${pmu_profile[$preset]%_profile}_stream
elf=build/$preset/examples/${pmu_dir[$preset]}/$fw.elf
trap 'cmake -S . -B build/$preset -DPMU_STREAM_DEFINITIONS= >/dev/null && cmake --build build/$preset --target $fw >/dev/null' EXIT
# name: definitions
variants=(
  "sorted, 2000/s, UART unpaced:STREAM_SECONDS=3"
  "unsorted, 2000/s, UART unpaced:STREAM_SECONDS=3;STREAM_SORT=0"
  "sorted, 2000/s, paced at 115200 baud:STREAM_SECONDS=5;STREAM_PACE_BAUD=115200"
  "sorted, 2400/s, paced at 115200 baud:STREAM_SECONDS=5;STREAM_PACE_BAUD=115200;STREAM_SAMPLE_HZ=2400"
  "sorted, 3000/s, paced at 115200 baud:STREAM_SECONDS=5;STREAM_PACE_BAUD=115200;STREAM_SAMPLE_HZ=3000"
)
for v in "${variants[@]}"; do
  name=${v%%:*} defs=${v#*:}
  cmake -S . -B "build/$preset" "-DPMU_STREAM_DEFINITIONS=$defs" >/dev/null
  cmake --build "build/$preset" -j2 --target "$fw" >/dev/null
  out=build/$preset-stream-rates.bin
  bash scripts/stream_qemu.sh "$preset" "$out" --seconds 300 --elf "$elf" 2>/dev/null
  echo "== $preset: $name"
  python3 tests/stream/check_stream.py "$out" | sed -n '1,2p'
  tr -d '\000' <"$out" | grep -a '^stream:' | tail -n 1
done
