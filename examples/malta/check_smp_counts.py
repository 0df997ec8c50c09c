#!/usr/bin/env python3
"""Runs cps_smp under pmusim and checks its per-core figures against pmusim's own per-core counts
(issue 35, item 4): each VP's samples equal the timer interrupts pmusim delivered to that core
(one sample per interrupt taken), the per-VP samples add up to the dump's, and each core executed at
least its workload's instructions. With a host pmukit (third argument, used if it exists), the dump
reported with --core 0 and --core 1 holds each core's samples, all in that core's loop.
Usage: check_smp_counts.py PMUSIM FIRMWARE.elf [PMUKIT]"""
import os
import re
import subprocess
import sys
import tempfile


def report_by_core(pmukit, log, elf, core):
    """{function: samples} of `pmukit report LOG --elf ELF --core N --format flat`."""
    r = subprocess.run([pmukit, "report", log, "--elf", elf, "--core", str(core), "--format", "flat"],
                       capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        raise RuntimeError(f"pmukit report --core {core}: {r.stderr.strip()}")
    rows = {}
    for line in r.stdout.splitlines():
        m = re.match(r"\s*(\d+)\s+[\d.]+\s+[\d.]+\s+0x[0-9a-f]+\s+(\S+)", line)
        if m:
            rows[m[2]] = rows.get(m[2], 0) + int(m[1])
    return rows


def main() -> int:
    pmusim, elf = sys.argv[1], sys.argv[2]
    run = subprocess.run([pmusim, elf, "--quiet", "--log", "/dev/stdout"], capture_output=True, text=True,
                         timeout=120)
    out, err = run.stdout, run.stderr
    failures = []
    if run.returncode != 0 or "SMP PASS" not in out:
        failures.append(f"firmware did not pass (exit {run.returncode})")
    samples = {int(m[0]): int(m[1]) for m in re.findall(r"^VP (\d): (\d+) samples", out, re.M)}
    workload = {int(m[0]): int(m[1]) for m in re.findall(r"^VP (\d): workload (\d+) instructions", out, re.M)}
    dump = re.search(r"^samples: VP 0 (\d+) \+ VP 1 (\d+) = (\d+) in the dump", out, re.M)
    core0 = re.search(r"pmusim: (\d+) instructions in .* (\d+) timer interrupts", err)
    core1 = re.search(r"pmusim: core 1: (\d+) instructions, \d+ PMU interrupts, (\d+) timer interrupts", err)
    if len(samples) != 2 or len(workload) != 2 or not dump or not core0 or not core1:
        print(out[-2000:], err, sep="\n")
        print("check_smp_counts: FAIL: a line is missing from the firmware's or pmusim's output")
        return 1
    cores = {0: (int(core0[1]), int(core0[2])), 1: (int(core1[1]), int(core1[2]))}
    for vp in (0, 1):
        insns, ticks = cores[vp]
        print(f"core {vp}: {insns} instructions executed (pmusim), {ticks} timer interrupts taken, "
              f"{samples[vp]} samples in VP {vp}'s ring, workload {workload[vp]} instructions")
        if samples[vp] != ticks:
            failures.append(f"VP {vp}: {samples[vp]} samples but pmusim delivered {ticks} timer interrupts")
        if insns < workload[vp]:
            failures.append(f"core {vp} executed fewer instructions than its workload")
    if samples[0] + samples[1] != int(dump[3]):
        failures.append("the VPs' samples do not add up to the dump's")
    pmukit = sys.argv[3] if len(sys.argv) > 3 else ""
    if pmukit and os.path.exists(pmukit):
        with tempfile.NamedTemporaryFile("w", suffix=".log") as log:
            log.write(out)
            log.flush()
            for vp in (0, 1):
                try:
                    rows = report_by_core(pmukit, log.name, elf, vp)
                except RuntimeError as e:
                    failures.append(str(e))
                    continue
                print(f"pmukit report --core {vp}: {rows}")
                if rows != {f"smp_work_vp{vp}": samples[vp]}:
                    failures.append(f"--core {vp} should hold VP {vp}'s {samples[vp]} samples, all in smp_work_vp{vp}")
    else:
        print("check_smp_counts: the report by core not checked (no host pmukit at '" + pmukit + "')")
    for f in failures:
        print("check_smp_counts: FAIL: " + f)
    if failures:
        return 1
    print(f"check_smp_counts: PASS: per-core samples equal each core's timer interrupts, "
          f"{samples[0]} + {samples[1]} = {dump[3]} in the dump")
    return 0


if __name__ == "__main__":
    sys.exit(main())
