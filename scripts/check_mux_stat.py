#!/usr/bin/env python3
"""Multiplexing checked through the host tool: `pmukit stat --format csv` of an example's pmusim
dump, whose firmware counted the same steady workload multiplexed (region "steady") and with each
group alone on the counters ("steady_exact"; examples/common/multiplex_check.hpp). Every event's
scaled estimate and every metric computed from the estimates must be within 2% of the exact one
(both 0 where the exact one is 0). Prints the error table; exits 1 on a miss, 2 on a bad input.

usage: check_mux_stat.py PMUKIT DUMP_OR_LOG
"""
import csv
import io
import subprocess
import sys

BOUND = 0.02


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    pmukit, dump = sys.argv[1], sys.argv[2]
    run = subprocess.run([pmukit, "stat", dump, "--format", "csv"], capture_output=True, text=True)
    if run.returncode != 0:
        print(f"pmukit stat failed ({run.returncode}): {run.stderr.strip()}", file=sys.stderr)
        return 2
    rows = list(csv.DictReader(io.StringIO(run.stdout)))
    values = {}
    for r in rows:
        if r["region"] not in ("steady", "steady_exact") or r["count"] == "":
            continue
        key = (r["row"], r["name"], r["code"], r["qualifier"])
        values.setdefault(key, {})[r["region"]] = float(r["count"])
    if not values:
        print(f"{dump}: no multiplexed regions 'steady' and 'steady_exact'", file=sys.stderr)
        return 2
    worst, missed = 0.0, []
    for key, v in sorted(values.items()):
        if "steady" not in v or "steady_exact" not in v:
            missed.append(f"{key[0]} {key[1]}: in one region only")
            continue
        est, exact = v["steady"], v["steady_exact"]
        err = abs(est - exact) / exact if exact else (0.0 if est == 0 else float("inf"))
        worst = max(worst, err)
        name = key[1] + (f" ({key[3]})" if key[0] == "event" and key[3] not in ("", "0x0") else "")
        print(f"  {key[0]:6} {name:40} exact {exact:16.4f}  multiplexed {est:16.4f}  error {100 * err:6.2f}%")
        if err > BOUND:
            missed.append(f"{key[0]} {name}: {100 * err:.2f}%")
    metrics = sum(1 for k in values if k[0] == "metric")
    print(f"{dump}: {len(values) - metrics} events, {metrics} metrics, worst error {100 * worst:.2f}% "
          f"(bound {100 * BOUND:.0f}%)")
    for m in missed:
        print(f"  MISSED: {m}", file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
