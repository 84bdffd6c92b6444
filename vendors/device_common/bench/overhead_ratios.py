#!/usr/bin/env python3
"""The per-size figures of a host library's overhead benchmark (bench_openblas,
bench_blis, bench_onednn): from the JSON that --benchmark_out writes with
--benchmark_repetitions, the median wall time of each layer per M x N x K and
the ratios to the bare library call, and the smallest size from which the
worker's ratio stays at most 2 (the issue's target).

    overhead_ratios.py RESULT.json [RESULT.json ...]
"""
import json
import sys


def medians(path):
    with open(path) as f:
        runs = json.load(f)["benchmarks"]
    return {r["run_name"]: r["real_time"] for r in runs if r.get("aggregate_name") == "median"}


for path in sys.argv[1:]:
    median = medians(path)
    sizes = [name.split("/", 1)[1] for name in median if name.startswith("Bare/")]
    print(f"{path}: median wall time (us); ratio to bare")
    within = None
    for size in sizes:
        bare, adapter, worker = (median[f"{layer}/{size}"] for layer in ("Bare", "Adapter", "Isolated"))
        if worker / bare > 2:
            within = None  # the first size of the run of sizes within 2 x, to the largest
        elif within is None:
            within = size
        print(f"  {size:>12}  bare {bare:9.1f}  adapter {adapter:9.1f} ({adapter / bare:5.2f})  "
              f"worker {worker:9.1f} ({worker / bare:5.2f})")
    print(f"  worker <= 2 x bare from {within or 'no size'} on")
