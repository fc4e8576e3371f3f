"""Benchmark the variants: jigsaw, X-Sudoku, windoku, killer (and killer X) and pencil-mark
puzzles, sudokit against OR-tools CP-SAT and python-sat on the same puzzles in one run.

Every solver proves uniqueness (counts to two) on every puzzle of each set of the shared
variant data (``../shared/data/variants/*.jsonl``, ``--data`` elsewhere):

``sudokit``
    ``sudokit.count(board, 2)`` on the board the JSON record reads as (parsing not timed).
    The tables a layout's cages become (combinations, the 45 rule's sums) are cached per
    layout; the cache is emptied before every puzzle, so each pays for its own.
``cp-sat``
    OR-tools CP-SAT, one worker: an integer per cell (its domain the pencil marks), an
    ``AddAllDifferent`` per house and per cage, a linear sum per cage (``_cpsat.py``); its
    own ``wall_time`` (model building in Python not counted), solutions enumerated to two.
``minisat``
    python-sat's MiniSat 2.2: the standard encoding over the variant's houses, givens and
    pencil marks as units, a cage's sum as its enumerated combinations (``_sat.py``); a
    solver per puzzle, the time of loading the clauses and solving (writing them in Python
    not counted); a blocking clause for the second solution.

Every answer is checked against the data (the count, and the recorded solution where it is
unique) and against an independent check of the puzzle's own rules; exit 1 on any
disagreement. A peer that runs past ``--peer-time-limit`` seconds on a puzzle is stopped there
and its row says so (its rate is then an upper bound, the ratio a lower one).

    python benchmarks/variants.py                       # every set, every peer
    python benchmarks/variants.py --sets killer,x --peers cp-sat
    python benchmarks/variants.py --peer-time-limit 20  # quicker; the hard pencil marks cut

The columns are tdoku's where they apply: puzzles/s and usec/puzzle (the mean), then the
median, guesses/puzzle for sudokit, and each peer's time as a multiple of sudokit's over the
set. Times are wall-clock on whatever machine runs it; only the ratios in one run mean
anything.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import sudokit  # noqa: E402
from _cpsat import cpsat_count  # noqa: E402
from _data import DEFAULT_DATA  # noqa: E402
from _sat import grid_from_model, variant_cnf  # noqa: E402
from sudokit import variants  # noqa: E402

SETS = ("jigsaw", "x", "windoku", "killer", "killer_x", "killer_generated", "pencilmark")
PEERS = ("cp-sat", "minisat")


@dataclass
class Row:
    """One solver over one set: seconds per puzzle, what it found, where it was cut."""

    solver: str
    times: list[float] = field(default_factory=list)
    guesses: list[int] = field(default_factory=list)
    cut: int = 0

    def line(self, puzzles: int, base: float | None) -> str:
        total = sum(self.times)
        rate = puzzles / total if total else float("inf")
        mean = 1e6 * total / puzzles
        median = 1e3 * statistics.median(self.times)
        guesses = f"{statistics.mean(self.guesses):10.1f}" if self.guesses else f"{'':>10}"
        ratio = "" if base is None else f"{total / base:8.1f}x"
        if self.cut:
            ratio = f">={ratio.strip()}" if ratio else ""
            ratio = f"{ratio:>9} ({self.cut} cut)"
        return f"  {self.solver:<9}{rate:12.1f}{mean:14.0f}{median:12.2f}{guesses}  {ratio}"


def follows_rules(solution: str, record: dict) -> bool:
    """The puzzle's own rules, from its JSON keys alone: every house and cage without a
    repeat, every sum, every given and pencil mark (the tests' checker, in short)."""
    n = record["size"]
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    houses = rows + [list(col) for col in zip(*rows)]
    if record.get("regions"):
        labels = record["regions"]
        houses += [[c for c in range(n * n) if labels[c] == label] for label in set(labels)]
    else:
        side = int(round(n**0.5))
        houses += [[(t + r) * n + l + c for r in range(side) for c in range(side)] for t in range(0, n, side) for l in range(0, n, side)]
    if "main" in record.get("diagonals", []):
        houses.append([r * n + r for r in range(n)])
    if "anti" in record.get("diagonals", []):
        houses.append([r * n + n - 1 - r for r in range(n)])
    if record.get("windoku"):
        houses += [[(t + r) * n + l + c for r in range(3) for c in range(3)] for t in (1, 5) for l in (1, 5)]
    houses += [cells for _, cells in record.get("cages", [])]
    givens = record.get("givens", "." * n * n)
    ok = "." not in solution and all(g in ".0" or g == s for g, s in zip(givens, solution))
    ok = ok and all(len({solution[c] for c in h}) == len(h) for h in houses)
    ok = ok and all(t is None or sum(int(solution[c]) for c in cells) == t for t, cells in record.get("cages", []))
    return ok and all(solution[c] in allowed for c, allowed in record.get("candidates", []))


def run_sudokit(board: sudokit.Board) -> tuple[float, int, str | None, int]:
    variants.cage_tables.cache_clear()
    start = time.perf_counter()
    result = sudokit.count(board, 2)
    elapsed = time.perf_counter() - start
    return elapsed, result.count, None if result.board is None else result.board.to_line(), result.guesses


def run_cpsat(board: sudokit.Board, limit: float) -> tuple[float, int, str | None, bool]:
    stats: dict = {}
    count, first, finished = cpsat_count(
        board.cells, board.size, board.geometry.houses.tolist(), 2, time_limit=limit,
        cages=[(cage.total, cage.cells) for cage in board.cages], candidates=board.candidates, stats=stats,
    )  # fmt: skip
    text = None if first is None else sudokit.Board(first, board.shape, board.symbols).to_line()
    return stats["wall_time"], count, text, not finished


def run_minisat(board: sudokit.Board, limit: float) -> tuple[float, int, str | None, bool]:
    from threading import Timer

    from pysat.solvers import Solver

    n = board.size
    clauses, _ = variant_cnf(
        n, board.geometry.houses, board.cells, [(cage.total, cage.cells) for cage in board.cages], board.candidates
    )
    start = time.perf_counter()
    solver = Solver(name="m22", bootstrap_with=clauses, use_timer=False)
    timer = Timer(limit, solver.interrupt)
    timer.start()
    count, first, cut = 0, None, False
    try:
        while count < 2:
            answer = solver.solve_limited(expect_interrupt=True)
            if answer is None:
                cut = True
                break
            if not answer:
                break
            count += 1
            model = [lit for lit in solver.get_model() if 0 < lit <= n**3]
            if first is None:
                first = sudokit.Board(grid_from_model(model, n), board.shape, board.symbols).to_line()
            solver.add_clause([-lit for lit in model])
    finally:
        timer.cancel()
        solver.delete()
    return time.perf_counter() - start, count, first, cut


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder (holds variants/)")
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated sets (file stems)")
    parser.add_argument("--peers", default=",".join(PEERS), help="comma-separated peers, or none")
    parser.add_argument("--peer-time-limit", type=float, default=180.0, metavar="SECONDS")
    args = parser.parse_args()
    peers = [] if args.peers == "none" else args.peers.split(",")
    folder = args.data / "variants"
    sudokit.count(sudokit.Board.parse('{"givens": "' + "." * 81 + '", "cages": [[3, [0, 1]]]}'), 2)  # compile first
    print(f"variant sets in {folder}, uniqueness proven (count to 2) by every solver\n")
    print(f"  {'solver':<9}{'puzzles/s':>12}{'usec/puzzle':>14}{'median ms':>12}{'guesses':>10}  time vs sudokit")
    wrong = 0
    summary = []
    for name in args.sets.split(","):
        lines = [line for line in (folder / f"{name}.jsonl").read_text().splitlines() if line.strip()]
        records = [json.loads(line) for line in lines]
        boards = [sudokit.Board.parse(line) for line in lines]
        rows = {"sudokit": Row("sudokit")} | {peer: Row(peer) for peer in peers}
        for record, board in zip(records, boards):
            expected = 1 if record["unique"] else 2
            elapsed, count, solution, guesses = run_sudokit(board)
            rows["sudokit"].times.append(elapsed)
            rows["sudokit"].guesses.append(guesses)
            answers = [("sudokit", count, solution, False)]
            for peer in peers:
                run = run_cpsat if peer == "cp-sat" else run_minisat
                seconds, found, first, cut = run(board, args.peer_time_limit)
                rows[peer].times.append(seconds)
                rows[peer].cut += cut
                answers.append((peer, found, first, cut))
            for solver, found, first, cut in answers:
                if cut:
                    continue
                good = found == expected and first is not None and follows_rules(first, record)
                good = good and (not record["unique"] or first == record["solution"])
                if not good:
                    wrong += 1
                    print(f"  WRONG: {solver} on {name} {record.get('name', '')!r}: count {found}, {first}")
        base = sum(rows["sudokit"].times)
        print(f"{name} ({len(boards)} puzzles)")
        for solver, row in rows.items():
            print(row.line(len(boards), None if solver == "sudokit" else base))
        summary.append((name, rows))
    print()
    for name, rows in summary:
        if name.startswith("killer"):
            median = 1e3 * statistics.median(rows["sudokit"].times)
            print(f"{name}: sudokit's median {median:.3f} ms a puzzle")
    if wrong:
        print(f"{wrong} wrong answers")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
