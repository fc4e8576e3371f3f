"""Benchmark ``sudokit batch``: records/sec for 1 vs all workers, memory for 1M vs 10M lines,
and what the file pipeline costs over ``solve_batch`` on the same puzzles in memory.

Input files are built in a temporary folder (never in the repository) from the shared 9x9
sets, by drawing lines at random (seeded) from the pooled puzzles:

* ``mix``: every 9x9 set in proportion to its size (a third are forum_hardest_1905_11+,
  which dominate the time: the kernel's share of the work is large);
* ``easy``: Kaggle, Norvig's 10k and Royle's 17-clue sets (a few usec a puzzle: reading
  and writing weigh most), also used for memory at 1M and 10M lines (the hard sets would
  make the 10M run last an hour on one core).

Every run is a fresh process (``python -c``) writing NDJSON to a file with the journal, as
``sudokit batch -o`` does; pool start-up and kernel loading count, importing sudokit in the
main process does not. Rows:

    run  records/s  seconds  vs 1 worker  rec/CPU-s  peak RSS main / largest worker

``rec/CPU-s`` is records per second of CPU time, all processes and threads together (worker
processes' start-up included): on a busy machine the wall-clock ratio understates what more cores give, while this column shows
what parallel running costs in extra work (equal figures: no cost).

``solve_batch in memory`` reads the same file into a list first (not timed) and solves it
in one compiled call: the floor the pipeline is measured against. The outputs of the
parallel runs are compared byte for byte with the one-worker run. The machine may be
shared: compare the ratios of one run of this script, not its absolute figures.

    python benchmarks/batch.py                           # 1M mix, 1M easy, 10M easy
    python benchmarks/batch.py --lines 200000 --big 0    # quicker: no 10M file
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _data import DEFAULT_DATA, puzzle_files  # noqa: E402

EASY = ("kaggle_bryanpark_sample", "norvig_sudoku10k", "royle_17clue")

#: one run in a fresh process: its time, summary and peak memory, as JSON on stdout
DRIVER = r"""
import json, resource, sys, time
import sudokit
from sudokit.batch import solve_file
def cpu(who):
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime
mode, source, output, workers = sys.argv[1:5]
if mode == "memory":
    lines = [line for line in open(source).read().split("\n") if line]
    start_cpu = cpu(resource.RUSAGE_SELF)
    began = time.perf_counter()
    result = sudokit.solve_batch(lines)
    records, elapsed = len(result), time.perf_counter() - began
else:
    start_cpu = cpu(resource.RUSAGE_SELF)
    began = time.perf_counter()
    summary = solve_file(source, output, workers=int(workers), threads=(mode == "threads"))
    records, elapsed = summary.records, time.perf_counter() - began
print(json.dumps({
    "records": records,
    "seconds": elapsed,
    "cpu": cpu(resource.RUSAGE_SELF) - start_cpu + cpu(resource.RUSAGE_CHILDREN),
    "main_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    "worker_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
}))
"""


def pool(data: Path, only: tuple[str, ...] = ()) -> np.ndarray:
    """The pooled puzzles as an ``(n, 82)`` byte array, each row a line with its newline."""
    rows = []
    for path in puzzle_files(data, ("9x9",)):
        if only and path.stem not in only:
            continue
        lines = [line.strip() for line in path.read_text().splitlines() if len(line.strip()) == 81]
        rows.append(np.frombuffer("".join(line + "\n" for line in lines).encode(), dtype=np.uint8).reshape(-1, 82))
    return np.concatenate(rows)


def build(path: Path, puzzles: np.ndarray, lines: int, seed: int) -> Path:
    """``lines`` lines drawn at random from ``puzzles``, written a block at a time."""
    rng = np.random.default_rng(seed)
    with open(path, "wb") as handle:
        for start in range(0, lines, 1_000_000):
            picks = rng.integers(0, len(puzzles), size=min(1_000_000, lines - start))
            handle.write(puzzles[picks].tobytes())
    return path


def run(mode: str, source: Path, output: Path, workers: int) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, mode, str(source), str(output), str(workers)],
        capture_output=True, text=True, check=False,
    )
    if done.returncode != 0:
        sys.exit(f"{mode} run failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def row(name: str, result: dict, base: dict | None) -> str:
    rate = result["records"] / result["seconds"]
    ratio = f"{rate / (base['records'] / base['seconds']):.2f}x" if base else ""
    per_cpu = result["records"] / result["cpu"]
    memory = f"{result['main_kib'] / 1024:,.0f} / {result['worker_kib'] / 1024:,.0f} MiB"
    return f"  {name:<28} {rate:>11,.0f} {result['seconds']:>9.2f} {ratio:>12} {per_cpu:>13,.0f}   {memory}"


HEADER = (
    f"  {'run':<28} {'records/s':>11} {'seconds':>9} {'vs 1 worker':>12} {'rec/CPU-s':>13}"
    "   peak RSS main / largest worker"
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
    parser.add_argument("--lines", type=int, default=1_000_000, help="lines of the throughput and small memory files")
    parser.add_argument("--big", type=int, default=10_000_000, help="lines of the big memory file (0: skip)")
    parser.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)), help="'all workers' (default: every CPU)")
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args()
    if not (args.data / "9x9").is_dir():
        sys.exit(f"no 9x9 sets in {args.data}; pass --data")
    failed = False
    with tempfile.TemporaryDirectory(prefix="sudokit-batch-bench-") as folder:
        tmp = Path(folder)
        print(f"{args.workers} CPUs; every run writes NDJSON to a file, with the journal")
        sets = {"mix": pool(args.data), "easy": pool(args.data, EASY)}
        parallel: dict = {}
        for name, puzzles in sets.items():
            source = build(tmp / f"{name}.txt", puzzles, args.lines, args.seed)
            print(f"\n{args.lines:,} lines of the {name} set ({source.stat().st_size / 2**20:,.0f} MiB)")
            print(HEADER)
            memory = run("memory", source, tmp / "unused", 1)
            one = run("processes", source, tmp / "one.ndjson", 1)
            print(row("solve_batch in memory", memory, None))
            print(row("batch, 1 worker", one, None))
            for mode in ("processes", "threads"):
                output = tmp / f"{mode}.ndjson"
                parallel[name, mode] = result = run(mode, source, output, args.workers)
                print(row(f"batch, {args.workers} {mode}", result, one))
                if not filecmp.cmp(output, tmp / "one.ndjson", shallow=False):
                    print(f"  MISMATCH: {mode} output differs from the one-worker output")
                    failed = True
                output.unlink()
            wall, cpu = one["seconds"] / memory["seconds"], one["cpu"] / memory["cpu"]
            print(f"  file pipeline (1 worker) / solve_batch in memory: {wall:.2f}x the time, {cpu:.2f}x the CPU time")
            for path in (source, tmp / "one.ndjson"):
                path.unlink()

        print(f"\nmemory: the easy set, {args.workers} worker processes")
        print(HEADER)
        print(row(f"{args.lines:,} lines", parallel["easy", "processes"], None))
        if args.big:
            source = build(tmp / "big.txt", sets["easy"], args.big, args.seed)
            result = run("processes", source, tmp / "big.ndjson", args.workers)
            print(row(f"{args.big:,} lines ({source.stat().st_size / 2**20:,.0f} MiB)", result, None))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
