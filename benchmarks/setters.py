"""The setters' questions against the obvious way to answer them, in one run.

Boards: seed-generated 9x9 boards with about 2, 10, 100 and 10,000 solutions (a unique puzzle
of ``sudokit.generate`` with givens taken out in a seeded order until the count passes the
target); boards of the shared 16x16 and 25x25 sets with ``--removed`` givens taken out (seeded);
tdoku's 9x9 boards without solution, and shared 16x16 / 25x25 puzzles with one given changed
to a wrong value (no solution).

- *diagnose*, no solution: ``sudokit.diagnose`` against the deletion a person would write: each
  given in turn taken out for good while the rest still has no solution, one solve a given.
- *make_unique*: against counting all the solutions, then the same exact hitting set over
  every one of them (``--count-cap`` solutions or ``--obvious-seconds`` at most).
- *reduce*: on the boards ``make_unique`` made, against taking givens out one at a time with a
  count to two each.
- *estimate*: ``--samples`` probes against counting every solution.

Every answer is checked: cores have no solution (each given needed, proven by both), the two
ways add as many givens, reduced boards are unique. Times are seconds on this machine; the
ratios are what to read.

    python benchmarks/setters.py
    python benchmarks/setters.py --quick
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data"


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    value = function(*args, **kwargs)
    return value, time.perf_counter() - start


def carved_to(target: int, seed: int, cap: int):
    """A 9x9 board with at least ``target`` solutions, carved from a generated puzzle."""
    import sudokit

    best = None
    for attempt in range(40):
        puzzle = sudokit.generate(1, seed=seed + attempt)[0]
        cells = puzzle.cells.copy()
        rng = random.Random(seed + attempt)
        order = np.flatnonzero(cells).tolist()
        rng.shuffle(order)
        for cell in order:
            cells[cell] = 0
            number = sudokit.count(sudokit.Board(cells), cap).count
            if number >= target:
                if number <= 1.5 * target:
                    return sudokit.Board(cells), number
                if best is None or number < best[1]:
                    best = (sudokit.Board(cells.copy()), number)
                break
    return best


def removed(line: str, count: int, seed: int):
    """A shared puzzle with ``count`` givens taken out (seeded)."""
    import sudokit

    board = sudokit.Board.parse(line)
    cells = board.cells.copy()
    rng = random.Random(seed)
    for cell in rng.sample(np.flatnonzero(cells).tolist(), count):
        cells[cell] = 0
    return sudokit.Board(cells, board.shape, board.symbols)


def broken(line: str, seed: int):
    """A shared puzzle with one given changed to a value its house does not hold (no solution
    where the puzzle was unique; checked by the caller)."""
    import sudokit

    board = sudokit.Board.parse(line)
    solution = sudokit.solve(board).board.cells
    rng = random.Random(seed)
    for cell in rng.sample(np.flatnonzero(board.cells == 0).tolist(), board.size * board.size // 4):
        for value in rng.sample(range(1, board.size + 1), board.size):
            if value == solution[cell]:
                continue
            cells = board.cells.copy()
            cells[cell] = value
            trial = sudokit.Board(cells, board.shape, board.symbols)
            if trial.status().valid and sudokit.solve(trial).status.value == "no solution":
                return trial
    return None


def obvious_core(board):
    """Deletion, one given at a time, one solve each."""
    import sudokit

    core = np.flatnonzero(board.cells).tolist()
    for cell in list(core):
        trial = [c for c in core if c != cell]
        values = np.zeros_like(board.cells)
        values[trial] = board.cells[trial]
        if sudokit.solve(sudokit.Board(values, board.shape, board.symbols)).status.value == "no solution":
            core = trial
    return core


def obvious_fewest(board, target, cap: int, seconds: float):
    """Every solution (up to ``cap``, within ``seconds``), then the exact hitting set."""
    from sudokit.setters.clues import hitting_set
    from sudokit.setters.searching import Budget, search

    grids, decided = search(board, cap, Budget(time_limit=seconds))
    if not decided or len(grids) >= cap:
        return None
    sets = []
    for grid in grids:
        differ = np.flatnonzero((grid != target) & (board.cells == 0))
        if len(differ):
            sets.append(sum(1 << int(c) for c in differ))
    chosen, proven = hitting_set(sets, most_nodes=10**9)
    return len(chosen) if proven else None


def obvious_reduce(board):
    """Givens out one at a time, a count to two each."""
    import sudokit

    cells = board.cells.copy()
    for cell in np.flatnonzero(cells).tolist():
        kept = cells[cell]
        cells[cell] = 0
        if sudokit.count(sudokit.Board(cells, board.shape, board.symbols), 2).count != 1:
            cells[cell] = kept
    return sudokit.Board(cells, board.shape, board.symbols)


def row(name: str, what: str, ours: float, obvious: float | None, note: str) -> None:
    ratio = f"{obvious / ours:8.1f}x" if obvious is not None and ours > 0 else f"{'-':>9}"
    other = f"{obvious:10.3f}" if obvious is not None else f"{'over':>10}"
    print(f"| {name:24} | {what:11} | {ours:9.3f} | {other} | {ratio} | {note} |", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--removed", type=int, default=8, help="givens taken out of the 16x16 and 25x25 puzzles")
    parser.add_argument("--samples", type=int, default=2000, help="probes of each estimate")
    parser.add_argument("--count-cap", type=int, default=200_000, help="solutions the obvious methods enumerate at most")
    parser.add_argument("--obvious-seconds", type=float, default=60.0, help="time the obvious enumeration gets")
    parser.add_argument("--budget", type=float, default=120.0, help="make_unique's time limit a board")
    parser.add_argument("--quick", action="store_true", help="targets 2, 10 and 100 only, one board of each big set")
    args = parser.parse_args()

    import sudokit
    from sudokit.setters.searching import with_givens

    sudokit.estimate("." * 81, samples=10, seed=1)  # kernels compiled or loaded before any clock
    sudokit.diagnose("11" + "." * 79)
    print(f"sudokit {sudokit.__version__}, {os.cpu_count()} CPUs\n")
    print("| board | question | sudokit s | obvious s | ratio | check |")
    print("|---|---|---:|---:|---:|---|")

    boards = []
    for target in (2, 10, 100) + (() if args.quick else (10_000,)):
        found = carved_to(target, args.seed + target, cap=10 * target + 10)
        if found is not None:
            board, number = found
            boards.append((f"9x9, {number:,} solutions", board))
    big = [("16x16/gecode_janko.txt", 2), ("25x25/misc_25x25.txt", 2)]
    for name, most in big:
        lines = (args.data / name).read_text().split()[: 1 if args.quick else most]
        for k, line in enumerate(lines):
            board = removed(line, args.removed, args.seed + k)
            counted = sudokit.count(board, args.count_cap, time_limit=args.obvious_seconds)
            more = "" if counted.exhausted else "+"  # the cap or the time stopped the count
            boards.append((f"{name.split('/')[0]} #{k + 1} -{args.removed}, {counted.count:,}{more} sol.", board))

    for name, board in boards:
        result, ours = timed(sudokit.make_unique, board, time_limit=args.budget)
        assert result.board is not None and sudokit.is_unique(result.board)
        target = sudokit.solve(result.board).board.cells
        fewest, obvious = timed(obvious_fewest, board, target, args.count_cap, args.obvious_seconds)
        agree = "" if fewest is None else ("same count" if fewest == len(result.added) else f"DIFFERENT ({fewest})")
        row(name, "make_unique", ours, obvious if fewest is not None else None,
            f"added {len(result.added)}{'' if result.proven else ' (not proven)'} {agree}".strip())
        reduced, ours = timed(sudokit.reduce, result.board)
        assert reduced.proven and sudokit.is_unique(reduced.board)
        plain, obvious = timed(obvious_reduce, result.board)
        row(name, "reduce", ours, obvious, f"removed {len(reduced.removed)} (one at a time: {result.board.givens - plain.givens})")
        guess, ours = timed(sudokit.estimate, board, samples=args.samples, seed=args.seed)
        exact, obvious = timed(sudokit.count, board, args.count_cap, time_limit=args.obvious_seconds)
        known = exact.count_known and exact.count < args.count_cap
        inside = "" if not known else (" holds it" if guess.low <= exact.count <= guess.high else " MISSES it")
        row(name, "estimate", ours, obvious if known else None,
            f"about {guess.value:,.0f} (95%: {guess.low:,.0f}-{guess.high:,.0f}){inside}")

    unsolvable = [(f"9x9 tdoku no-solution #{k + 1}", sudokit.Board.from_line(line))
                  for k, line in enumerate((args.data / "9x9" / "tdoku_test_nosolution.txt").read_text().split()[: 3 if args.quick else 10])]
    for name, count in (("16x16/gecode_janko.txt", 2), ("25x25/misc_25x25.txt", 2)):
        for k, line in enumerate((args.data / name).read_text().split()[: 1 if args.quick else count]):
            board = broken(line, args.seed + k)
            if board is not None:
                unsolvable.append((f"{name.split('/')[0]} #{k + 1}, one wrong given", board))
    for name, board in unsolvable:
        diagnosis, ours = timed(sudokit.diagnose, board, time_limit=600)
        assert diagnosis.proven and sudokit.solve(with_givens(board, diagnosis.core)).status.value == "no solution"
        core, obvious = timed(obvious_core, board)
        chain = f", chain of {len(diagnosis.chain.steps)}" if diagnosis.chain is not None else ""
        row(name, "diagnose", ours, obvious, f"core {len(diagnosis.core)} givens{chain} (one at a time: {len(core)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
