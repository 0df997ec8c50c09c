#!/usr/bin/env bash
# Captures a dump the way a debugger would from a board: the firmware is started under GDB's stub,
# stopped at pmukit_dump_ready() (profiler/dump/debugger_capture.hpp), the dump copied out of
# target memory with `dump binary memory`, and the firmware left to run to its end.
#   tools/capture/gdb_capture.sh ELF OUT -- QEMU-COMMAND...     (without -kernel: added here)
# On a real board, the same GDB commands run against OpenOCD's or a probe's GDB server instead of
# QEMU's (docs/capture.md). Exit status: the emulator's; 4 when no dump was captured.
set -uo pipefail
[ $# -ge 4 ] && [ "$3" = "--" ] || { echo "usage: $0 ELF OUT -- QEMU-COMMAND..." >&2; exit 2; }
elf=$(realpath "$1") out=$(realpath -m "$2") out_arg=$2
shift 3
# OUT is removed before the capture (its size says whether one happened): only a regular file of
# its own, never a device node, FIFO or the firmware itself (a link is followed by realpath).
if [ -e "$out" ] && { [ ! -f "$out" ] || [ "$out" -ef "$elf" ]; }; then
  echo "gdb_capture: OUT '$out_arg' is not a file of its own (a device, FIFO, folder or the ELF): refusing it" >&2
  exit 2
fi
# The emulator runs in OUT's directory: a firmware that also writes a semihosting file
# (docs/capture.md) leaves it there, not wherever this was started.
cd "$(dirname "$out")" || exit 2
command -v gdb-multiarch >/dev/null || { echo "gdb_capture: gdb-multiarch is not installed" >&2; exit 2; }
rm -f "$out"
sock=$(mktemp -u /tmp/pmukit-gdb.XXXXXX)
"$@" -kernel "$elf" -S -chardev "socket,path=$sock,server=on,wait=off,id=gdb0" -gdb chardev:gdb0 &
qemu=$!
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
timeout 120 gdb-multiarch -q -batch -nx "$elf" \
  -ex "target remote $sock" \
  -ex "break pmukit_dump_ready" \
  -ex "continue" \
  -ex "printf \"gdb_capture: %u bytes at %p\\n\", pmukit_dump_size, &pmukit_dump_buffer" \
  -ex "dump binary memory $out pmukit_dump_buffer pmukit_dump_buffer+pmukit_dump_size" \
  -ex "delete" \
  -ex "continue" >&2
wait $qemu
status=$?
rm -f "$sock"
[ -s "$out" ] || { echo "gdb_capture: no dump captured (did the firmware reach pmukit_dump_ready?)" >&2; exit 4; }
exit $status
