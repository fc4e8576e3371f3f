"""Benchmark weighted optimisation: sudokit's branch and bound against exhaustive search and
OR-tools CP-SAT, on the same 9x9 boards in one run.

Three solvers answer the same question: the best score ``sum(weight * value)`` over every
completion of a board (seed 003's "target" weights by default, or ``--weights random``):

``sudokit``
    ``sudokit.maximize``: branch and bound with house-assignment and dual bounds.
``exhaustive``
    seed 003's algorithm, rewritten here from its description and compiled with the same numba
    so that the ratio measures the algorithm and not the language: depth-first search over
    row/column/box bitmasks, always filling the empty cell with the fewest legal values, trying
    every value, visiting every completion and keeping the best score. No bound, no pruning
    beyond "no legal value". A node is one call of its recursive ``dfs``. On boards with
    millions of completions it cannot finish; it runs up to ``--dfs-nodes`` nodes and the
    table then shows ">=" ratios (its node count is a lower bound on what it would need).
``cp-sat``
    OR-tools CP-SAT (``pip install -e '.[bench-peers]'``; skipped when absent): one Boolean
    per cell and value, exactly one value per cell and one place per value in every house,
    givens fixed, maximise the weighted sum. ``--cp-workers`` sets its threads (default 1, as
    sudokit uses one core; 0 lets it use every core). Its time is its own ``wall_time``
    (model building in Python not counted); its nodes are its ``num_branches``.

Boards: seed 003's two samples, then ``--per`` boards for each number of givens in
``--givens`` (default 20..35 step 3, plus 45 and 55 where exhaustive search finishes), made
by keeping that many cells, chosen with ``random.Random(--seed)``, of solutions from the
shared 9x9 data (``kaggle_bryanpark_sample.sol.txt``, default ``../shared/data/9x9``). The
same seed always gives the same boards.

Every answer is checked: sudokit's value must equal CP-SAT's optimum, and exhaustive
search's when it finished; sudokit's board must be a completion scoring that value. Exit 1
on any disagreement.

    python benchmarks/optimize.py                     # the default table
    python benchmarks/optimize.py --givens 20,25 --per 5 --dfs-nodes 20000000
    python benchmarks/optimize.py --weights random    # random weights in -50..50

Times are wall-clock on whatever machine runs it; only the ratios in one run mean anything.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "9x9"
SAMPLES = ROOT / "tests" / "data"

sys.path.insert(0, str(ROOT / "src"))

import sudokit  # noqa: E402
from sudokit.optimize import preset  # noqa: E402


# -- seed 003's algorithm, exhaustive ---------------------------------------------------------


@njit(cache=True)
def exhaustive(grid, weights, node_budget):
    """Best score over all completions by seed 003's depth-first search.

    Returns (best score or -1, nodes, finished). ``grid`` is 81 values (0 empty), ``weights``
    81 integers. Iterative, with the recursion's frames in arrays.
    """
    full = (1 << 9) - 1
    row = np.full(9, full, dtype=np.int64)
    col = np.full(9, full, dtype=np.int64)
    box = np.full(9, full, dtype=np.int64)
    board = np.zeros(81, dtype=np.int64)
    score = 0
    empty = 0
    for cell in range(81):
        value = grid[cell]
        if value:
            bit = 1 << (value - 1)
            r, c = cell // 9, cell % 9
            b = (r // 3) * 3 + c // 3
            board[cell] = value
            row[r] &= ~bit
            col[c] &= ~bit
            box[b] &= ~bit
            score += weights[cell] * value
        else:
            empty += 1
    # one frame per level: the cell being filled, the values left to try, the value placed
    frame_cell = np.zeros(82, dtype=np.int64)
    frame_rest = np.zeros(82, dtype=np.int64)
    frame_bit = np.zeros(82, dtype=np.int64)
    popcount = np.zeros(1 << 9, dtype=np.int64)
    for mask in range(1 << 9):
        popcount[mask] = popcount[mask >> 1] + (mask & 1)
    best = -1
    found = False
    nodes = 1  # the root call
    depth = 0
    entering = True
    while True:
        if entering:
            if depth == empty:  # cnt == 0: a completion
                if not found or score > best:
                    best = score
                    found = True
                rest = 0
            else:
                fewest = 1 << 30
                chosen = -1
                for cell in range(81):
                    if board[cell] == 0:
                        r, c = cell // 9, cell % 9
                        state = row[r] & col[c] & box[(r // 3) * 3 + c // 3]
                        if popcount[state] < fewest:
                            fewest = popcount[state]
                            chosen = cell
                r, c = chosen // 9, chosen % 9
                rest = row[r] & col[c] & box[(r // 3) * 3 + c // 3]
                frame_cell[depth] = chosen
            frame_rest[depth] = rest
            entering = False
        # undo the value this level placed last, then place the next one
        cell = frame_cell[depth]
        r, c = cell // 9, cell % 9
        b = (r // 3) * 3 + c // 3
        bit = frame_bit[depth]
        if bit:
            value = 0
            while (1 << value) != bit:
                value += 1
            value += 1
            board[cell] = 0
            row[r] |= bit
            col[c] |= bit
            box[b] |= bit
            score -= weights[cell] * value
            frame_bit[depth] = 0
        rest = frame_rest[depth]
        if rest == 0 or depth == empty:
            if depth == 0:
                return best, nodes, True
            depth -= 1
            continue
        if nodes >= node_budget:
            return best, nodes, False
        bit = rest & -rest
        frame_rest[depth] = rest ^ bit
        frame_bit[depth] = bit
        value = 0
        while (1 << value) != bit:
            value += 1
        value += 1
        board[cell] = value
        row[r] &= ~bit
        col[c] &= ~bit
        box[b] &= ~bit
        score += weights[cell] * value
        nodes += 1
        depth += 1
        frame_bit[depth] = 0
        entering = True


# -- CP-SAT ---------------------------------------------------------------------------------


def cp_sat(grid: np.ndarray, weights: np.ndarray, workers: int, time_limit: float):
    """(best score or None, proven, branches, wall seconds) from CP-SAT."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    x = {}
    for cell in range(81):
        for value in range(1, 10):
            if grid[cell] and grid[cell] != value:
                continue
            x[cell, value] = model.NewBoolVar(f"x{cell}_{value}")
    for cell in range(81):
        model.AddExactlyOne(x[cell, v] for v in range(1, 10) if (cell, v) in x)
    houses = sudokit.Shape.for_size(9).houses
    for house in houses:
        for value in range(1, 10):
            model.AddExactlyOne(x[int(c), value] for c in house if (int(c), value) in x)
    model.Maximize(sum(int(weights[c]) * v * var for (c, v), var in x.items()))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.max_time_in_seconds = time_limit
    status = solver.Solve(model)
    proven = status == cp_model.OPTIMAL
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        value = int(round(solver.ObjectiveValue()))
    else:
        value = None
    if status == cp_model.INFEASIBLE:
        proven = True
    return value, proven, int(solver.NumBranches()), float(solver.WallTime())


# -- boards ---------------------------------------------------------------------------------


@dataclass
class Case:
    name: str
    grid: np.ndarray  # 81 uint8


def make_cases(data: Path, givens: list[int], per: int, seed: int) -> list[Case]:
    cases = []
    for name in ("target_01", "target_02"):
        board = sudokit.Board.from_ints((SAMPLES / f"{name}.in").read_text())
        cases.append(Case(name, np.array(board.cells, dtype=np.uint8)))
    path = data / "kaggle_bryanpark_sample.sol.txt"
    if not path.exists():
        print(f"note: {path} not found; only seed 003's samples are run", file=sys.stderr)
        return cases
    solutions = [line.strip() for line in path.read_text().splitlines() if line.strip()]
    rng = random.Random(seed)
    for count in givens:
        for index in range(per):
            line = rng.randrange(len(solutions))
            solution = np.array([int(ch) for ch in solutions[line]], dtype=np.uint8)
            keep = rng.sample(range(81), count)
            grid = np.zeros(81, dtype=np.uint8)
            grid[keep] = solution[keep]
            cases.append(Case(f"g{count}-{index} (sol line {line + 1})", grid))
    return cases


# -- run ------------------------------------------------------------------------------------


def fmt_ratio(value: float, lower: bool) -> str:
    text = f"{value:,.0f}" if value >= 100 else f"{value:.1f}"
    return (">=" if lower else "") + text + "x"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--givens", default="20,23,26,29,32,35,45,55")
    parser.add_argument("--per", type=int, default=4, help="boards per number of givens")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--weights", choices=("target", "random"), default="target")
    parser.add_argument("--dfs-nodes", type=int, default=50_000_000, help="node budget of exhaustive search")
    parser.add_argument("--cp-workers", type=int, default=1)
    parser.add_argument("--cp-time", type=float, default=120.0, help="CP-SAT time limit per board")
    parser.add_argument("--repeat", type=int, default=3, help="runs per solver and board; the fastest counts (runs over 1 s are not repeated)")
    parser.add_argument("--peers", default="exhaustive,cp-sat", help="comma-separated, or 'none'")
    args = parser.parse_args()
    peers = set() if args.peers == "none" else set(args.peers.split(","))
    if "cp-sat" in peers:
        try:
            import ortools  # noqa: F401
        except ImportError:
            print("note: ortools is not installed (pip install -e '.[bench-peers]'); CP-SAT skipped", file=sys.stderr)
            peers.discard("cp-sat")

    givens = [int(part) for part in args.givens.split(",") if part]
    cases = make_cases(args.data, givens, args.per, args.seed)
    rng = np.random.default_rng(args.seed)

    # compile outside the timings
    sudokit.maximize(cases[0].grid.reshape(9, 9).tolist(), "target")
    exhaustive(cases[0].grid, preset("target", 9).reshape(-1), 10)

    header = (
        f"{'board':<26} {'givens':>6} {'optimum':>9} | {'sudokit nodes':>13} {'ms':>8} | "
        f"{'dfs nodes':>12} {'ms':>9} {'nodes ratio':>12} {'time ratio':>11} | "
        f"{'cp-sat branches':>15} {'ms':>8} {'time ratio':>10}"
    )
    print(header)
    print("-" * len(header))
    failures = 0
    rows = []
    for case in cases:
        if args.weights == "random":
            weights = rng.integers(-50, 51, size=(9, 9)).astype(np.int64)
        else:
            weights = preset("target", 9)
        flat = weights.reshape(-1)
        board = sudokit.Board(case.grid)
        result = sudokit.maximize(board, weights)
        ms = result.elapsed * 1e3
        for _ in range(args.repeat - 1):  # the best of a few runs: the machine may be shared
            ms = min(ms, sudokit.maximize(board, weights).elapsed * 1e3)
        checks = []
        if result.board is not None:
            if not result.board.is_solution_of(board):
                checks.append("board is not a completion")
            elif int((flat * result.board.cells.astype(np.int64)).sum()) != result.value:
                checks.append("board does not score the value")
        cells = [f"{case.name:<26} {board.givens:>6} {str(result.value):>9} | {result.nodes:>13,} {ms:>8.1f} |"]
        if "exhaustive" in peers:
            dfs_ms = float("inf")
            for attempt in range(args.repeat):
                began = time.perf_counter()
                best, nodes, finished = exhaustive(case.grid, flat, args.dfs_nodes)
                dfs_ms = min(dfs_ms, (time.perf_counter() - began) * 1e3)
                if dfs_ms > 1000:
                    break
            if finished and best != (result.value if result.value is not None else -1):
                checks.append(f"exhaustive search says {best}")
            node_ratio = nodes / max(result.nodes, 1)
            time_ratio = dfs_ms / max(ms, 1e-3)
            cells.append(
                f"{nodes:>12,}{'' if finished else '+'} {dfs_ms:>8.0f} {fmt_ratio(node_ratio, not finished):>12} "
                f"{fmt_ratio(time_ratio, not finished):>11} |"
            )
        else:
            node_ratio = time_ratio = None
            finished = False
            cells.append(f"{'':>12} {'':>9} {'':>12} {'':>11} |")
        cp_ratio = None
        if "cp-sat" in peers:
            value, proven, branches, wall = cp_sat(case.grid, flat, args.cp_workers, args.cp_time)
            for _ in range(args.repeat - 1 if wall < 1.0 else 0):
                wall = min(wall, cp_sat(case.grid, flat, args.cp_workers, args.cp_time)[3])
            if proven and value != result.value:
                checks.append(f"CP-SAT says {value}")
            cp_ratio = wall * 1e3 / max(ms, 1e-3)
            cells.append(f"{branches:>15,} {wall * 1e3:>8.1f} {fmt_ratio(cp_ratio, not proven):>10}")
        print(" ".join(cells), flush=True)
        for problem in checks:
            failures += 1
            print(f"  FAIL {case.name}: {problem}", flush=True)
        rows.append((board.givens, node_ratio, finished, time_ratio, cp_ratio, case.name))

    print()
    in_range = [row for row in rows if 20 <= row[0] <= 35]
    if in_range and "exhaustive" in peers:
        worst = min(in_range, key=lambda row: row[1])
        print(
            f"boards with 20-35 givens: fewest-nodes ratio exhaustive/sudokit "
            f"{fmt_ratio(worst[1], not worst[2])} ({worst[5]})"
        )
    if in_range and "cp-sat" in peers:
        worst = min(in_range, key=lambda row: row[4])
        print(f"boards with 20-35 givens: worst time ratio CP-SAT/sudokit {fmt_ratio(worst[4], False)} ({worst[5]})")
    if failures:
        print(f"{failures} check(s) failed", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
