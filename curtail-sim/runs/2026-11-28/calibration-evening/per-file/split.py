#!/usr/bin/env python3
"""Per-file look at stock's throttled reads, measured or simulated.

usage: split.py SAMPLES.csv [MODES]   (MODES: stock,oracle by default)

SAMPLES.csv is the benchmark's samples.csv or the simulator's (`calibrate --samples FILE`, which
adds a seed column). A run is one (scenario, mode, seed, round). A file is stuck when it took
400 ms or more. For each non-stuck file, k is the number of OTHER clients with a stuck file in
flight at the file's midpoint, in the same run. Printed per scenario and mode: stuck files per
run, their durations, the non-stuck files' latency by k and the share of them at each k, the
position (in its client's sequence) of stuck files, and the k=0 files done before the run's first
stuck file began.
"""
import csv
import math
import statistics as st
import sys
from collections import defaultdict


def q(v, p):
    v = sorted(v)
    return v[max(0, min(len(v) - 1, math.ceil(p * len(v)) - 1))] if v else float('nan')


def load(path):
    runs = defaultdict(list)
    with open(path) as f:
        for r in csv.DictReader(f):
            key = (r['scenario'], r['mode'], r.get('seed', ''), r['round'])
            runs[key].append((int(r['client']), int(r['file']), float(r['start_s']),
                              float(r['latency_ms'])))
    return runs


def analyse(runs, scen, mode):
    byk = defaultdict(list)
    stuck_per_run, stuck_ms, nonstuck, allf = [], [], [], []
    pos = defaultdict(lambda: [0, 0])
    pre = 0
    for (s, m, _, _), files in runs.items():
        if s != scen or m != mode:
            continue
        stuck = [(c, t, t + l / 1000) for c, _, t, l in files if l >= 400]
        first = min((a for _, a, _ in stuck), default=math.inf)
        stuck_per_run.append(len(stuck))
        for c, f, t, l in files:
            allf.append(l)
            pos[f][0] += l >= 400
            pos[f][1] += 1
            if l >= 400:
                stuck_ms.append(l)
                continue
            mid = t + l / 2000
            k = len({sc for sc, a, b in stuck if sc != c and a <= mid < b})
            byk[k].append(l)
            nonstuck.append(l)
            pre += k == 0 and mid < first
    if not stuck_per_run:
        return
    n = len(stuck_per_run)
    print(f"{scen} {mode}: {n} runs; stuck files per run min {min(stuck_per_run)}"
          f" median {st.median(stuck_per_run)} max {max(stuck_per_run)}"
          f" mean {st.mean(stuck_per_run):.2f} ({sum(stuck_per_run)} of {len(allf)});"
          f" p50 of all files {q(allf, .5):.1f} ms, of non-stuck {q(nonstuck, .5):.1f} ms")
    if stuck_ms:
        print(f"  stuck files' ms: min {min(stuck_ms):.0f} p10 {q(stuck_ms, .1):.0f}"
              f" p50 {q(stuck_ms, .5):.0f} p90 {q(stuck_ms, .9):.0f} max {max(stuck_ms):.0f}")
        print("  stuck share by position in the client's sequence: "
              + " ".join(f"{f}:{a / b:.2f}" for f, (a, b) in sorted(pos.items()))
              + f"; k=0 files before the run's first stuck file: {pre / n:.1f} per run")
    for k in sorted(byk):
        v = byk[k]
        print(f"  k={k}: {len(v):5d} files ({100 * len(v) / len(nonstuck):4.1f}%)"
              f"  p25 {q(v, .25):6.1f}  p50 {q(v, .5):6.1f}  p75 {q(v, .75):6.1f} ms")


if __name__ == '__main__':
    runs = load(sys.argv[1])
    modes = sys.argv[2].split(',') if len(sys.argv) > 2 else ['stock', 'oracle']
    for scen in ['read-throttled', 'pread-throttled']:
        for mode in modes:
            analyse(runs, scen, mode)
