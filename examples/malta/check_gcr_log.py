#!/usr/bin/env python3
"""Compares QEMU's `-d unimp` log of a Malta CPS run with the GCR offsets the firmware says its
driver may touch (the console line "GCR offsets the driver may touch: ...").

Passes when the log holds at least one GCR access and every GCR offset in it is one of the claimed
offsets. Exit status: 0 pass, 1 mismatch, 2 a file is missing or unreadable."""
import re
import sys


def main(argv):
    if len(argv) != 3:
        print("usage: check_gcr_log.py UNIMP_LOG CONSOLE_LOG", file=sys.stderr)
        return 2
    try:
        unimp = open(argv[1], encoding="utf-8", errors="replace").read()
        console = open(argv[2], encoding="utf-8", errors="replace").read()
    except OSError as e:
        print(f"check_gcr_log: {e}", file=sys.stderr)
        return 2
    m = re.search(r"GCR offsets the driver may touch:((?: 0x[0-9a-fA-F]+)+)", console)
    if not m:
        print("check_gcr_log: the console log has no 'GCR offsets the driver may touch' line")
        return 1
    claimed = {int(x, 16) for x in m.group(1).split()}
    # QEMU 7.2 hw/misc/mips_cmgcr.c: "Read|Write <n> bytes at GCR offset 0x<off>".
    seen = {}
    for op, off in re.findall(r"(Read|Write) \d+ bytes at GCR offset 0x([0-9a-fA-F]+)", unimp):
        seen.setdefault(int(off, 16), set()).add(op)
    if not seen:
        print("check_gcr_log: no GCR access in QEMU's unimp log (was -d unimp given?)")
        return 1
    stray = sorted(o for o in seen if o not in claimed)
    for off in sorted(seen):
        print(f"  GCR +0x{off:04x}: {'/'.join(sorted(seen[off]))}"
              f"{'' if off in claimed else '  <-- not claimed'}")
    if stray:
        print("check_gcr_log: FAIL: the driver touched GCR offsets it does not claim")
        return 1
    print(f"check_gcr_log: PASS: {len(seen)} unimplemented GCR offset(s) touched, all claimed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
