"""Soundness of the human-style engine over the shared puzzle sets: every step is checked.

For each sampled puzzle with exactly one solution, the solving loop takes its steps one at a time
(the easiest technique available, as ``sudokit.explain`` does) and every step is checked against
the solution: an elimination of the cell's true value, or a placement of another value, is
*unsound* and printed with the puzzle and the step. A puzzle the techniques cannot finish is
*stuck* (HoDoKu's rating then places a cell by brute force; ``explain`` stops there). Per set:

    puzzles  steps  unsound  finished  stuck  seconds

then how often each technique was used over all sets. Target: 0 unsound.

    python benchmarks/soundness.py                       # 500 puzzles of every set
    python benchmarks/soundness.py --sample 0 --sets qqwing_expert   # a whole set
    python benchmarks/soundness.py --as sukaku           # each written as a Sukaku (pencil marks)

Written as Sukakus, the puzzles start from pencil marks: the board has no givens, the engine
takes the givens' cells as cells of one candidate and leaves out the deadly-pattern techniques,
whose argument a Sukaku's marks may break.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data"

SETS = {
    "qqwing_expert": "rated/qqwing_expert.sdm",
    "exemplars": "rated/exemplars-1.0.txt",
    "diabolical_se": "rated/diabolical_se.txt",
    "kaggle_bryanpark_sample": "9x9/kaggle_bryanpark_sample.txt",
    "royle_17clue": "9x9/royle_17clue.txt",
    "norvig_top95": "9x9/norvig_top95.txt",
    "magictour_top1465": "9x9/magictour_top1465.txt",
    "forum_hardest_1106": "9x9/forum_hardest_1106.txt",
    "serg_benchmark": "9x9/serg_benchmark.txt",
}


def puzzles(path: Path) -> list[str]:
    """One-line 9x9 puzzles of a file: the first field of each line that is 81 symbols."""
    out = []
    for line in path.read_text().splitlines():
        field = line.strip().split(" ")[0].split(",")[0]
        if len(field) == 81 and not line.startswith("#"):
            out.append(field.replace("0", "."))
    return out


def check(puzzle: str, census: collections.Counter, written_as: str = "line") -> tuple[int, list[str], bool]:
    """Walk one puzzle: (steps taken, unsound step texts, finished)."""
    import sudokit
    from sudokit.formats import sukaku
    from sudokit.logic.grid import CandidateGrid
    from sudokit.logic.human import order_for

    board = sudokit.Board.from_line(puzzle)
    solution = sudokit.solve(board).board.cells
    if written_as == "sukaku":
        board = sudokit.Board.from_sukaku(sukaku.format(board))
    grid = CandidateGrid(board)
    order = order_for(board)
    steps = 0
    while not grid.solved:
        step = grid.next_step(order)
        if step is None:
            return steps, [], False
        steps += 1
        census[step.name] += 1
        wrong = [(c, v) for c, v in step.eliminations if solution[c] == v]
        wrong += [(c, v) for c, v in step.placements if solution[c] != v]
        if wrong:
            return steps, [f"{step.text} (wrong: {wrong})"], False
        grid.apply(step)
    return steps, [], True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
    parser.add_argument("--sets", help="comma-separated set names; default all: " + ",".join(SETS))
    parser.add_argument("--sample", type=int, default=500, help="puzzles per set (seeded sample; 0: all)")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--as", dest="written_as", choices=("line", "sukaku"), default="line",
                        help="walk each puzzle as its line, or written as a Sukaku")
    args = parser.parse_args()

    import sudokit

    rng = random.Random(args.seed)
    census: collections.Counter = collections.Counter()
    names = args.sets.split(",") if args.sets else list(SETS)
    print(f"{'set':26} {'puzzles':>7} {'steps':>8} {'unsound':>7} {'finished':>8} {'stuck':>6} {'seconds':>8}")
    totals = collections.Counter()
    for name in names:
        pool = puzzles(args.data / SETS[name])
        chosen = pool if not args.sample or len(pool) <= args.sample else rng.sample(pool, args.sample)
        unique = [p for p, ok in zip(chosen, sudokit.solve_batch(chosen, limit=2).unique) if ok]
        start = time.perf_counter()
        row = collections.Counter(puzzles=len(unique))
        for puzzle in unique:
            steps, unsound, finished = check(puzzle, census, args.written_as)
            row["steps"] += steps
            row["unsound"] += len(unsound)
            row["finished"] += finished
            row["stuck"] += not finished and not unsound
            for text in unsound:
                print(f"  UNSOUND {name}: {puzzle}: {text}", flush=True)
        seconds = time.perf_counter() - start
        print(
            f"{name:26} {row['puzzles']:7} {row['steps']:8} {row['unsound']:7} {row['finished']:8} {row['stuck']:6} {seconds:8.1f}",
            flush=True,
        )
        totals.update(row)
    print(
        f"{'all':26} {totals['puzzles']:7} {totals['steps']:8} {totals['unsound']:7} {totals['finished']:8} {totals['stuck']:6}"
    )
    print("\nsteps by technique:")
    for technique, count in census.most_common():
        print(f"  {technique:40} {count:8}")
    return 1 if totals["unsound"] else 0


if __name__ == "__main__":
    sys.exit(main())
