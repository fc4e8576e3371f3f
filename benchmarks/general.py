"""Throughput of the general kernel on every shared data set, and start-up times.

    python benchmarks/general.py [--data ../shared/data] [--sample N] [--node-limit N]
                                 [--only PATTERN] [--no-startup]

For each puzzle file, the general kernel runs the whole file in one compiled call (the batch
loop of ``kernels/search/general_batch.py``) in solve mode (limit 1) and uniqueness mode (limit 2),
and prints tdoku's columns: puzzles/sec, usec/puzzle, % solved without guessing,
guesses/puzzle. Every answer is verified: each solution is a valid grid that keeps the givens,
and agrees with the published solutions and counts where the data set has them. Puzzles whose
search passes ``--node-limit`` nodes count as unknown (reported, not hidden).

Start-up is measured apart in fresh processes: ``import sudokit``, the first solve with an
empty kernel cache (compiling), the first solve with a warm cache, and the whole
``sudokit solve`` command on one puzzle (median of several runs).

9x9 boards normally go to the classic kernel; this script measures the general one on them
on purpose, as the baseline every shape gets.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from _data import DEFAULT_DATA, puzzle_files


def load(path: Path, sample: int | None) -> list[str]:
    lines = [line.strip() for line in path.read_text().splitlines() if line.strip()]
    if sample and len(lines) > sample:
        rng = np.random.default_rng(0)
        keep = np.sort(rng.choice(len(lines), sample, replace=False))
        lines = [lines[i] for i in keep]
    return lines


def published(path: Path, lines_used: list[str]) -> tuple[dict[str, str], dict[str, int]]:
    """Published solutions and counts for the puzzles of a file, keyed by puzzle."""
    every = [line.strip() for line in path.read_text().splitlines() if line.strip()]
    solutions: dict[str, str] = {}
    counts: dict[str, int] = {}
    sol_txt = path.with_suffix(".sol.txt")
    sol_tsv = path.with_suffix(".sol.tsv")
    counts_txt = path.with_suffix(".counts.txt")
    if sol_txt.exists():
        solutions = dict(zip(every, sol_txt.read_text().split()))
    if sol_tsv.exists():
        for row in sol_tsv.read_text().splitlines():
            number, solution = row.split("\t")
            solutions[every[int(number) - 1]] = solution.strip()
    if counts_txt.exists():
        counts = dict(zip(every, (int(n) for n in counts_txt.read_text().split())))
    return solutions, counts


def valid_grids(solutions: np.ndarray, puzzles: np.ndarray, shape) -> np.ndarray:
    """For each row, whether it is a complete valid grid that keeps the puzzle's givens."""
    n = shape.size
    houses = solutions[:, shape.houses]  # (N, 3n, n)
    sorted_houses = np.sort(houses, axis=2)
    complete = (sorted_houses == np.arange(1, n + 1)).all(axis=(1, 2))
    keeps = ((puzzles == 0) | (puzzles == solutions)).all(axis=1)
    return complete & keeps


def run_file(path: Path, args) -> list[dict]:
    from sudokit import Board
    from sudokit.kernels.search import general_batch
    from sudokit.variants import plain_variant

    lines = load(path, args.sample)
    if not lines:
        return []
    boards = [Board.from_line(line) for line in lines]
    shape = boards[0].shape
    puzzles = np.array([b.cells for b in boards], dtype=np.uint8)
    known_solutions, known_counts = published(path, lines)
    rows = []
    for limit in (1, 2):
        # the first call of a dispatcher loads (or compiles) it: keep that out of the timing
        geometry = (shape.houses, shape.cell_houses, np.uint64((1 << shape.size) - 1))
        variant = plain_variant(shape.cells, shape.size)
        general_batch.solve_many(
            puzzles[:1].copy(), geometry, limit, 1,
            (puzzles[:1].copy(), np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1, bool)),
            variant, False,
        )
        count = len(lines)
        solutions = np.zeros_like(puzzles)
        counts = np.zeros(count, dtype=np.int64)
        nodes = np.zeros(count, dtype=np.int64)
        guesses = np.zeros(count, dtype=np.int64)
        exhausted = np.zeros(count, dtype=bool)
        start = time.perf_counter()
        general_batch.solve_many(
            puzzles, geometry, limit, args.node_limit, (solutions, counts, nodes, guesses, exhausted), variant, False
        )
        elapsed = time.perf_counter() - start
        unknown = (~exhausted) & (counts < limit)
        found = counts >= 1
        ok = valid_grids(solutions[found], puzzles[found], shape)
        wrong = int((~ok).sum())
        for k, line in enumerate(lines):
            if line in known_solutions and limit == 2 and counts[k] == 1 and exhausted[k]:
                solution_line = Board(solutions[k], shape, boards[k].symbols).to_line()
                wrong += solution_line != known_solutions[line]
            if line in known_counts and not unknown[k]:
                wrong += counts[k] != min(known_counts[line], limit)
        decided = ~unknown
        rows.append(
            {
                "set": f"{path.parent.name}/{path.stem}",
                "mode": "solve" if limit == 1 else "unique",
                "puzzles": count,
                "per_sec": count / elapsed,
                "usec": elapsed / count * 1e6,
                "no_guess": 100.0 * float((guesses[decided] == 0).mean()) if decided.any() else 0.0,
                "guesses": float(guesses[decided].mean()) if decided.any() else 0.0,
                "unknown": int(unknown.sum()),
                "wrong": wrong,
            }
        )
    return rows


def startup(runs: int = 5) -> dict[str, float]:
    """Seconds for import, cold first solve, warm first solve, and the warm one-puzzle CLI."""
    puzzle = ".2738..1..1...6735.......293.5692.8...........6.1745.364.......9518...7..8..6534."
    solve_script = f"import sudokit; sudokit.solve({puzzle!r})"
    times: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, SUDOKIT_QUIET="1")

        def timed(command, **kwargs) -> float:
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True, env=env, **kwargs)
            return time.perf_counter() - start

        times["import sudokit"] = statistics.median(
            timed([sys.executable, "-c", "import sudokit"]) for _ in range(runs)
        )
        times["first solve, cold cache (compiles)"] = timed([sys.executable, "-c", solve_script])
        times["first solve, warm cache"] = statistics.median(
            timed([sys.executable, "-c", solve_script]) for _ in range(runs)
        )
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
            handle.write(puzzle + "\n")
        try:
            times["sudokit solve, one puzzle, warm"] = statistics.median(
                timed([sys.executable, "-m", "sudokit", "solve", handle.name]) for _ in range(runs)
            )
        finally:
            os.unlink(handle.name)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--sample", type=int, default=None, help="at most this many puzzles per file")
    parser.add_argument("--node-limit", type=int, default=2_000_000, help="per puzzle")
    parser.add_argument("--only", default="", help="only files whose path contains this")
    parser.add_argument("--no-startup", action="store_true")
    args = parser.parse_args()

    files = puzzle_files(args.data, only=args.only)
    if not files:
        sys.exit(f"no puzzle files under {args.data}")
    header = f"{'set':36} {'mode':6} {'puzzles':>8} {'puzzles/s':>10} {'usec/puz':>10} {'%no-guess':>9} {'guess/puz':>10} {'unknown':>7} {'wrong':>5}"
    print(header)
    print("-" * len(header))
    total_wrong = 0
    for path in files:
        for row in run_file(path, args):
            total_wrong += row["wrong"]
            print(
                f"{row['set']:36} {row['mode']:6} {row['puzzles']:8d} {row['per_sec']:10.0f} "
                f"{row['usec']:10.1f} {row['no_guess']:9.1f} {row['guesses']:10.2f} "
                f"{row['unknown']:7d} {row['wrong']:5d}",
                flush=True,
            )
    print(f"\nwrong answers: {total_wrong}")
    if not args.no_startup:
        print("\nstart-up (fresh processes, median of 5 where repeated):")
        for name, seconds in startup().items():
            print(f"  {name:40} {seconds:6.2f} s")
    sys.exit(1 if total_wrong else 0)


if __name__ == "__main__":
    main()
