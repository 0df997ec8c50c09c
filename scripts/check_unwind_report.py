#!/usr/bin/env python3
"""The unwind table example's dump through the host tool (examples/common/unwind_table_run.hpp):
`pmukit report LOG --elf ELF --format folded` must give every walked sample the program's whole
call chain, root first: _start, main, the ten levels from the 10th to the 1st, innermost,
cost_x10. One check per frame level; exit 1 if any stack misses one (a walk that skipped,
repeated or misplaced a frame), 77 (skipped) without the host tool.

usage: check_unwind_report.py PMUKIT LOG ELF
"""
import os
import re
import subprocess
import sys

LEVELS = 10


def name(frame):
    """A frame's function without GCC's clone suffix."""
    return re.sub(r" \[clone [^]]*\]", "", frame)


def expected():
    """(label, predicate) per frame from the root; run<Board>() may be inlined into main."""
    want = [("_start", lambda f: f == "_start"), ("main", lambda f: f == "main" or f.startswith("main(")),
            ("run (or inlined into main)", None)]
    for n in range(LEVELS, 0, -1):
        want.append(("level %d" % n, (lambda n: lambda f: re.search(r"examples::unwind::level<.*, %du?>\(" % n, f) is not None)(n)))
    want.append(("innermost", lambda f: "examples::unwind::innermost<" in f))
    want.append(("cost_x10", lambda f: "examples::unwind::cost_x10<" in f))
    return want


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    pmukit, log, elf = sys.argv[1:]
    if not os.access(pmukit, os.X_OK):
        print("no host tool at %s: skipped" % pmukit)
        return 77
    r = subprocess.run([pmukit, "report", log, "--elf", elf, "--format", "folded"], capture_output=True, text=True)
    if r.returncode != 0 or r.stderr.strip():
        print("pmukit report failed (%d):\n%s" % (r.returncode, r.stderr))
        return 1
    stacks = []
    for line in r.stdout.splitlines():
        chain, _, count = line.rpartition(" ")
        stacks.append(([name(f) for f in chain.split(";")], int(count)))
    total = sum(c for _, c in stacks)
    if total == 0:
        print("no walked samples in the report")
        return 1
    ok = True
    # Each stack's frames matched in order; run<Board>() may be there or inlined.
    positions = [0] * len(stacks)
    for label, pred in expected():
        have = 0
        for i, (frames, count) in enumerate(stacks):
            k = positions[i]
            if pred is None:  # optional: run<Board>()
                if k < len(frames) and "examples::unwind::run<" in frames[k]:
                    positions[i] = k + 1
                have += count
                continue
            if k < len(frames) and pred(frames[k]):
                positions[i] = k + 1
                have += count
            else:
                positions[i] = len(frames) + 1  # no further match
        good = have == total
        ok = ok and good
        print("frame %-28s %d of %d walked samples %s" % (label, have, total, "ok" if good else "MISSING"))
    print("UNWIND REPORT " + ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
