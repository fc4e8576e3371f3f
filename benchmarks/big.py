"""Big boards, 16x16 to 49x49: sudokit beside OR-tools CP-SAT, python-sat and seed 001's approach.

For every 16x16 and 25x25 puzzle file under ``--data`` (default ``../shared/data`` from the
repository root; ``*.sol.txt`` / ``*.sol.tsv`` beside them are checked against), and for
36x36 and 49x49 boards generated here (a random full grid from a seeded search, then a
seeded share of the cells kept), in solve mode (limit 1) and uniqueness mode (limit 2), one
row per solver with tdoku's columns:

    puzzles/sec  usec/puzzle  %no_guess  guesses/puzzle  done  sudokit/this

* ``sudokit``: ``sudokit.count`` one board per call (the Python API, parsing included);
  boards up to 16x16 also run whole through ``solve_batch`` (one compiled call).
* ``seed 001 (numba)``: seed 001's search (singles, hidden singles in every house,
  fewest-candidates branching) rewritten in the same numba (``benchmarks/seed001.py``).
* ``CP-SAT``: OR-tools, one integer variable per cell, ``AddAllDifferent`` per house, one
  worker. ``python-sat``: MiniSat 2.2 on the standard encoding (a variable per cell and
  value; each cell and each house-value exactly once, pairwise), one incremental solver per
  set and mode, puzzles as assumptions; and CaDiCaL 1.9.5, the strongest solver python-sat
  ships, on the same encoding with a solver per puzzle and the givens as unit clauses.

Every solver gets ``--budget`` seconds per set and mode (a puzzle still running then is cut
off); sudokit also stops a puzzle after ``--puzzle-limit`` seconds. Rates are over the
puzzles finished, so ``sudokit/this`` compares times on exactly the puzzles that solver
finished: a slow peer is never credited with its easy half only. Every answer from every
solver is verified (a valid grid keeping the givens; the right count where the set says).

``--switches`` adds, per set, what each inference rule and branching of the depth-first
kernel costs and saves (nodes and time; ``kernels/search/general.py``; with the default's lazy
start and value order each switched off), the 16x16 kernel's rules and
branchings on 16x16 sets (``kernels/search/hexa.py``), and the learning kernel's options
(``kernels/search/learn.py``), each puzzle stopped after ``--switch-limit`` seconds.

    pip install -e '.[bench-peers]'        # ortools, python-sat (MiniSat and CaDiCaL)
    python benchmarks/big.py               # everything, 10 s per solver, set and mode
    python benchmarks/big.py --sets gecode_frisch --modes 1 --budget 30
    python benchmarks/big.py --switches --peers none --sizes none

Only ratios between rows of one run mean anything: the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # idle BLAS threads spin on a shared machine

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _sat import grid_from_model, standard_cnf  # noqa: E402  (needs the line above)

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: givens kept on generated boards: with half the cells of a 36x36 grid (or 55% of a 49x49)
#: random puzzles sit at the phase transition of quasigroup completion, where every solver
#: here runs for minutes; a little above it they are solvable and still need search
KEEP = {36: 0.56, 49: 0.6}


# -- data ----------------------------------------------------------------------------------


@dataclass
class DataSet:
    name: str
    size: int
    values: np.ndarray  #: (N, cells) uint8
    solutions: dict[int, np.ndarray] = field(default_factory=dict)  #: row -> known solution
    several: bool = False  #: the puzzles have two or more solutions by design
    unique: bool = True  #: every puzzle has exactly one solution (known)


def read_file(path: Path) -> DataSet:
    lines = [line.strip() for line in path.read_text().splitlines() if line.strip()]
    size = int(round(len(lines[0]) ** 0.5))
    table = np.zeros(256, dtype=np.uint8)
    for value, char in enumerate(LETTERS[:size], start=1):
        table[ord(char)] = value
    values = table[np.frombuffer("".join(lines).encode(), dtype=np.uint8)].reshape(len(lines), size * size)
    data = DataSet(path.stem, size, values)
    data.several = path.stem.endswith("_multi")
    data.unique = not data.several
    sol_txt = path.with_name(path.stem + ".sol.txt")
    sol_tsv = path.with_name(path.stem + ".sol.tsv")
    if sol_txt.exists():
        for row, line in enumerate(sol_txt.read_text().split()):
            data.solutions[row] = table[np.frombuffer(line.encode(), dtype=np.uint8)]
    if sol_tsv.exists():
        for record in sol_tsv.read_text().splitlines():
            number, line = record.split("\t")
            data.solutions[int(number) - 1] = table[np.frombuffer(line.strip().encode(), dtype=np.uint8)]
    return data


def generated(size: int, count: int, keep: float, seed: int) -> DataSet:
    """``count`` boards of ``size``: each a random full grid (depth-first search with a seeded
    random value order and restarts on an empty board), then a seeded ``keep`` share of its
    cells kept.
    Uniqueness is not enforced: the count is whatever the puzzle has."""
    import sudokit
    from sudokit.kernels.search import general
    from sudokit.engines import GeneralSearch
    from sudokit.results import Limits

    shape = sudokit.Shape.for_size(size)
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(count):
        # random value orders have heavy tails on empty boards (some 49x49 orders met
        # millions of dead ends): restarts after 100 of them, 1.5 times more each time
        options = general.options_for(shape, rules=general.LOCKED, branch=general.CELL,
                                      restart=100, seed=int(rng.integers(1, 2**62)))
        search = GeneralSearch(sudokit.Board.empty(shape), options, engine="dfs")
        if search.run(Limits(1, time_limit=60)) != 1:
            raise RuntimeError(f"no random {size}x{size} grid in 60 s")
        grid = search.out.copy()
        relabel = np.concatenate([[0], rng.permutation(size) + 1]).astype(np.uint8)
        grid = relabel[grid]
        mask = rng.random(shape.cells) < keep
        rows.append(np.where(mask, grid, 0).astype(np.uint8))
    data = DataSet(f"generated_{size}x{size}_keep{int(keep * 100)}", size, np.array(rows))
    data.unique = False
    return data


def houses_of(size: int) -> np.ndarray:
    import sudokit

    return sudokit.Shape.for_size(size).houses


def valid(grid: np.ndarray, puzzle: np.ndarray, houses: np.ndarray) -> bool:
    size = houses.shape[1]
    if (grid[puzzle != 0] != puzzle[puzzle != 0]).any():
        return False
    return bool((np.sort(grid[houses], axis=1) == np.arange(1, size + 1)).all())


# -- results -------------------------------------------------------------------------------


@dataclass
class Row:
    solver: str
    times: dict[int, float] = field(default_factory=dict)  #: puzzle -> seconds, finished ones
    guesses: dict[int, int] = field(default_factory=dict)
    wrong: int = 0
    note: str = ""
    batch_rate: float | None = None  #: puzzles/sec of a whole-set compiled run, if any

    @property
    def done(self) -> int:
        return len(self.times)

    def rate(self, on: set[int] | None = None) -> float:
        keys = self.times.keys() if on is None else on & self.times.keys()
        spent = sum(self.times[k] for k in keys)
        return len(keys) / spent if spent else 0.0


def check(row: Row, data: DataSet, index: int, count: int, grid, limit: int, houses) -> None:
    """Count a wrong answer: an invalid grid, a grid unlike the published solution, or a
    count that contradicts what the set says."""
    expect = None
    if data.unique:
        expect = 1
    elif data.several:
        expect = min(2, limit)
    if expect is not None and count != expect:
        row.wrong += 1
        return
    if count and grid is not None:
        if not valid(np.asarray(grid, dtype=np.int64), data.values[index].astype(np.int64), houses):
            row.wrong += 1
        elif index in data.solutions and data.unique and not (grid == data.solutions[index]).all():
            row.wrong += 1


# -- solvers -------------------------------------------------------------------------------


def run_sudokit(data: DataSet, limit: int, budget: float, puzzle_limit: float, houses) -> Row:
    import sudokit

    shape = sudokit.Shape.for_size(data.size)
    row = Row("sudokit")
    spent = 0.0
    for index, puzzle in enumerate(data.values):
        if spent >= budget:
            row.note = f"{row.done} of {len(data.values)} in the budget"
            break
        board = sudokit.Board(puzzle.reshape(data.size, data.size), shape)
        start = time.perf_counter()
        result = sudokit.count(board, limit=limit, time_limit=min(puzzle_limit, budget - spent + 0.01))
        elapsed = time.perf_counter() - start
        spent += elapsed
        if result.status is sudokit.SolveStatus.UNKNOWN:
            row.note = "some stopped at --puzzle-limit"
            continue
        row.times[index] = elapsed
        row.guesses[index] = result.guesses
        check(row, data, index, result.count, result.board.cells.reshape(-1) if result.board else None, limit, houses)
    if data.size <= 16:
        best = None
        for _ in range(3):
            start = time.perf_counter()
            batch = sudokit.solve_batch(data.values, limit=limit)
            elapsed = time.perf_counter() - start
            best = elapsed if best is None else min(best, elapsed)
        row.batch_rate = len(data.values) / best
        for index in range(len(data.values)):
            check(Row(""), data, index, int(batch.counts[index]), batch.solutions[index], limit, houses)
    return row


def run_seed001(data: DataSet, limit: int, budget: float, node_budget: int, houses) -> Row:
    import seed001
    import sudokit

    shape = sudokit.Shape.for_size(data.size)
    full = np.uint64((1 << data.size) - 1)
    row = Row("seed 001 (numba)")
    one = data.values[:1]
    seed001.solve_many(one, shape.houses, shape.cell_houses, full, limit, 10, np.zeros_like(one),
                       np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1, np.int64))  # compile
    spent = 0.0
    # one compiled call per chunk of puzzles (a numba loop cannot be interrupted: chunks keep
    # the budget honest, and a puzzle past ``node_budget`` nodes counts as not finished)
    chunk = 64 if data.size <= 16 else 1
    for begin in range(0, len(data.values), chunk):
        if spent >= budget:
            row.note = f"{row.done} of {len(data.values)} in the budget"
            break
        part = np.ascontiguousarray(data.values[begin : begin + chunk])
        solutions = np.zeros_like(part)
        counts = np.zeros(len(part), np.int64)
        nodes = np.zeros(len(part), np.int64)
        guesses = np.zeros(len(part), np.int64)
        start = time.perf_counter()
        seed001.solve_many(part, shape.houses, shape.cell_houses, full, limit, node_budget,
                           solutions, counts, nodes, guesses)
        elapsed = time.perf_counter() - start
        spent += elapsed
        for k in range(len(part)):
            if counts[k] < 0:
                row.note = f"some passed {node_budget:,} nodes"
                continue
            row.times[begin + k] = elapsed / len(part)
            row.guesses[begin + k] = int(guesses[k])
            check(row, data, begin + k, int(counts[k]), solutions[k], limit, houses)
    return row


def run_cpsat(data: DataSet, limit: int, budget: float, houses) -> Row:
    from _cpsat import cpsat_count

    row = Row("CP-SAT (AllDifferent, 1 worker)")
    spent = 0.0
    house_list = houses.tolist()
    for index, puzzle in enumerate(data.values):
        left = budget - spent
        if left <= 0:
            row.note = f"{row.done} of {len(data.values)} in the budget"
            break
        start = time.perf_counter()
        count, first, finished = cpsat_count(puzzle, data.size, house_list, limit, time_limit=left)
        elapsed = time.perf_counter() - start
        spent += elapsed
        if not finished:
            row.note = "cut off inside a puzzle"
            break
        row.times[index] = elapsed
        check(row, data, index, count, first, limit, houses)
    return row


#: python-sat's solvers this script runs: name, label, and whether each puzzle gets a solver of
#: its own (givens as unit clauses) rather than one solver per set (givens as assumptions)
PYSAT_SOLVERS = {
    "pysat": ("minisat22", "python-sat (MiniSat 2.2, standard encoding)", False),
    "cadical": ("cadical195", "python-sat (CaDiCaL 1.9.5, standard encoding)", True),
}


def _pysat_count(solver, puzzle, size: int, limit: int, assumptions: list[int], switch: int):
    """Solve, and with ``limit`` 2 look for a second solution under a blocking clause that
    the fresh variable ``switch`` turns on for this puzzle only. Returns (count, first grid),
    count None when interrupted."""
    answer = solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
    if answer is None:
        return None, None
    if not answer:
        return 0, None
    grid = grid_from_model(solver.get_model(), size)
    if limit == 1:
        return 1, grid
    open_cells = [c for c in range(size * size) if not puzzle[c]]
    solver.add_clause([-switch] + [-(c * size + int(grid[c])) for c in open_cells])
    again = solver.solve_limited(assumptions=assumptions + [switch], expect_interrupt=True)
    solver.add_clause([-switch])
    if again is None:
        return None, None
    return (2 if again else 1), grid


def _pysat_fresh(name: str, cnf, puzzle, size: int, limit: int, conn) -> None:
    """In a child process (python-sat's CaDiCaL cannot be interrupted, so a puzzle past the
    budget is stopped by ending the process): load the clauses and the givens, then time the
    search alone."""
    from pysat.solvers import Solver

    start = time.perf_counter()
    solver = Solver(name=name, bootstrap_with=cnf)
    for c, v in enumerate(puzzle):
        if v:
            solver.add_clause([c * size + int(v)])
    loading = time.perf_counter() - start
    start = time.perf_counter()
    count, grid = _pysat_count(solver, puzzle, size, limit, [], size * size * size + 1)
    conn.send((time.perf_counter() - start, loading, count, grid))
    solver.delete()


#: python-sat's solvers this script runs: name, label, and whether each puzzle gets a solver of
#: its own (givens as unit clauses) rather than one solver per set (givens as assumptions)
PYSAT_SOLVERS = {
    "pysat": ("minisat22", "python-sat (MiniSat 2.2, standard encoding)", False),
    "cadical": ("cadical195", "python-sat (CaDiCaL 1.9.5, standard encoding)", True),
}


def run_pysat(data: DataSet, limit: int, budget: float, houses, cnf, peer: str = "pysat") -> Row:
    """One python-sat solver over the set. MiniSat keeps one incremental solver for the set,
    the puzzles as assumptions (what suits easy puzzles: nothing is loaded again); CaDiCaL
    gets a solver per puzzle with the givens as unit clauses (what suits hard ones: the
    solver simplifies with them and carries nothing to the next puzzle). Loading the clauses
    is not counted in the rates, but CaDiCaL's loading counts against ``budget``, which
    otherwise would not bound the run on sets of thousands of easy puzzles."""
    import multiprocessing

    from pysat.solvers import Solver

    name, label, fresh = PYSAT_SOLVERS[peer]
    row = Row(label)
    size = data.size
    loading = 0.0
    if not fresh:
        start = time.perf_counter()
        solver = Solver(name=name, bootstrap_with=cnf)
        loading = time.perf_counter() - start
    switch = size * size * size
    spent = 0.0
    for index, puzzle in enumerate(data.values):
        left = budget - spent
        if left <= 0:
            row.note = f"{row.done} of {len(data.values)} in the budget"
            break
        if fresh:
            context = multiprocessing.get_context("fork")
            receive, send = context.Pipe(duplex=False)
            child = context.Process(target=_pysat_fresh, args=(name, cnf, puzzle, size, limit, send))
            child.start()
            send.close()  # the child's copy is the only one left: its end reads as EOF here
            # the budget counts from the end of loading: wait for the loading too
            try:
                answer = receive.recv() if receive.poll(left + 30.0) else None
            except EOFError:
                row.note = "the solver's process ended without an answer"
                break
            finally:
                child.join(1.0)
                if child.is_alive():
                    child.kill()
                    child.join()
            if answer is None or answer[0] > left:
                row.note = "cut off inside a puzzle"
                break
            elapsed, loaded, count, grid = answer
            loading += loaded
            spent += loaded
        else:
            switch += 1
            assumptions = [c * size + int(v) for c, v in enumerate(puzzle) if v]
            timer = threading.Timer(left, solver.interrupt)
            start = time.perf_counter()
            timer.start()
            try:
                count, grid = _pysat_count(solver, puzzle, size, limit, assumptions, switch)
            finally:
                timer.cancel()
                solver.clear_interrupt()
            elapsed = time.perf_counter() - start
            if count is None:
                row.note = "cut off inside a puzzle"
                break
        spent += elapsed
        row.times[index] = elapsed
        check(row, data, index, count, grid, limit, houses)
    if not fresh:
        solver.delete()
    where = "per puzzle" if fresh else "once"
    row.note = (f"clauses loaded {where} in {loading:.2f} s (not counted)"
                + (f"; {row.note}" if row.note else ""))
    return row


# -- the per-switch table --------------------------------------------------------------------


def switches(data: DataSet, limit: int, puzzle_limit: float) -> list[str]:
    """Nodes and time for every rule and branching of the depth-first kernel (and the
    learning kernel's options, and on 16x16 the 16x16 kernel's), each puzzle stopped after
    ``puzzle_limit`` seconds."""
    import sudokit
    from sudokit.kernels.search import general as G
    from sudokit.kernels.search import hexa
    from sudokit.kernels.search import learn
    from sudokit.engines import GeneralSearch, HexaSearch
    from sudokit.results import Limits

    shape = sudokit.Shape.for_size(data.size)
    configs = []
    for rules, rules_name in ((0, "singles"), (G.LOCKED, "+locked"), (G.SUBSETS, "+subsets"),
                              (G.LOCKED | G.SUBSETS, "+locked+subsets")):
        for branch, branch_name in ((G.CELL, "cell"), (G.CELL_DEGREE, "cell+degree"),
                                    (G.PLACE, "place"), (G.BEST, "best"), (G.WDEG, "dom/wdeg")):
            configs.append((f"dfs {rules_name}, {branch_name}", "dfs", rules, branch, None))
    default = G.options_for(shape)
    if default[G.LAZY]:  # the default, with its rules from the first node instead
        configs.append(("dfs default, rules from the first node (no lazy start)", "dfs",
                        default[G.RULES], default[G.BRANCH], {"lazy": 0}))
    if default[G.VALUES] != G.IN_ORDER:  # the default, with values in increasing order
        configs.append(("dfs default, values in increasing order", "dfs", default[G.RULES],
                        default[G.BRANCH], {"values": G.IN_ORDER}))
    hexa_default = None
    if data.size == 16:
        for rules, rules_name in ((0, "singles"), (hexa.LOCKED, "+locked")):
            for branch, branch_name in ((hexa.CELL, "cell"), (hexa.WDEG, "dom/wdeg")):
                configs.append((f"16x16 kernel {rules_name}, {branch_name}", "hexa", rules, branch, None))
        hexa_default = (hexa.DEFAULT_RULES, hexa.DEFAULT_BRANCHING)
    if data.size >= 25:
        for locked in (False, True):
            for alldiff in (False, True):
                name = f"learn{' +locked' if locked else ''}{' +alldiff' if alldiff else ''}"
                configs.append((name, "learn", None, None, (locked, alldiff)))
    lines = [f"| {data.name} ({len(data.values)}), limit {limit}: engine, rules, branching | solved | nodes/puzzle | usec/puzzle | note",
             "|---|---:|---:|---:|---"]
    for name, engine, rules, branch, extra in configs:
        solved = nodes = 0
        spent = 0.0
        for puzzle in data.values:
            board = sudokit.Board(puzzle.reshape(data.size, data.size), shape)
            if engine == "dfs":
                search = GeneralSearch(board, G.options_for(shape, rules, branch, **(extra or {})),
                                       engine="dfs")
            elif engine == "hexa":
                search = HexaSearch(board, branch, rules)
            else:
                search = GeneralSearch(board, engine="learn")
                search.learner = learn.Learner(search.givens, search.houses, search.cell_houses,
                                               data.size, *extra)
            start = time.perf_counter()
            code = search.run(Limits(limit, time_limit=puzzle_limit))
            spent += time.perf_counter() - start
            nodes += search.nodes
            solved += code != 2
        if hexa_default is not None:  # 16x16 boards go to the 16x16 kernel
            is_default = engine == "hexa" and (rules, branch) == hexa_default
        else:
            is_default = (engine == "dfs" and rules == default[G.RULES] and branch == default[G.BRANCH]
                          and extra is None)
        lines.append(f"| {name} | {solved}/{len(data.values)} | {nodes / len(data.values):,.0f} | "
                     f"{1e6 * spent / len(data.values):,.0f} | {'default' if is_default else ''}")
    return lines


# -- report --------------------------------------------------------------------------------


def table(title: str, rows: list[Row], total: int) -> str:
    """tdoku's columns, and two ratios: sudokit's time over this solver's on the puzzles this
    solver finished, through the Python API (``api``) and, where the set ran whole in one
    ``solve_batch`` call and this solver finished every puzzle, through that (``batch``)."""
    ours = rows[0]
    head = (f"| {title:<46} | puzzles/sec | usec/puzzle | %no_guess | guesses/puzzle | done | "
            "sudokit/this api | batch | note")
    rule = ("|" + "-" * 48 + "|------------:|------------:|----------:|---------------:|-----:|"
            "-----------------:|------:|------")
    out = [head, rule]
    for row in rows:
        rate = row.rate()
        if row.done == 0:
            out.append(f"| {row.solver:<46} | {'-':>11} | {'-':>11} | {'-':>9} | {'-':>14} | {0:>4} | "
                       f"{'-':>16} | {'-':>5} | {row.note}")
            continue
        if row.guesses:
            no_guess = f"{100 * np.mean([g == 0 for g in row.guesses.values()]):.1f}%"
            guesses = f"{np.mean(list(row.guesses.values())):.1f}"
        else:
            no_guess = guesses = "-"
        batch = "-"
        if row is ours:
            ratio = "1.0x"
        else:
            common = set(row.times) & set(ours.times)
            ratio = f"{ours.rate(common) / row.rate(common):.1f}x" if common and row.rate(common) else "-"
            if ours.batch_rate and row.done == total:
                batch = f"{ours.batch_rate / rate:.1f}x"
        note = row.note + (f"; {row.wrong} WRONG" if row.wrong else "")
        out.append(f"| {row.solver:<46} | {rate:>11,.1f} | {1e6 / rate:>11,.0f} | {no_guess:>9} | "
                   f"{guesses:>14} | {row.done:>4} | {ratio:>16} | {batch:>5} | {note}")
        if row.batch_rate:
            out.append(f"| {'  sudokit, whole set in one solve_batch call':<46} | {row.batch_rate:>11,.1f} | "
                       f"{1e6 / row.batch_rate:>11,.0f} | {'':>9} | {'':>14} | {total:>4} | {'':>16} | "
                       f"{'':>5} | best of 3")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder with 16x16/ and 25x25/")
    parser.add_argument("--sets", help="comma-separated file stems; default every 16x16 and 25x25 file")
    parser.add_argument("--sizes", default="36,49", help="generated board sizes, or 'none'")
    parser.add_argument("--generated", type=int, default=10, help="boards per generated size")
    parser.add_argument("--keep", type=float, help="share of givens kept on generated boards "
                        "(default: 0.56 at 36x36, 0.6 at 49x49, just above where random puzzles "
                        "turn hard for every solver)")
    parser.add_argument("--seed", type=int, default=5, help="seed of the generated boards")
    parser.add_argument("--modes", default="1,2", help="limits to run: 1 solves, 2 proves uniqueness")
    parser.add_argument("--budget", type=float, default=10.0, help="seconds per solver, set and mode")
    parser.add_argument("--puzzle-limit", type=float, default=10.0, help="seconds per puzzle for sudokit")
    parser.add_argument("--seed-nodes", type=int, default=2_000_000, help="node budget per puzzle of seed 001")
    parser.add_argument("--peers", default="cpsat,pysat,cadical,seed001",
                        help="comma-separated (cpsat, pysat, cadical, seed001), or 'none'")
    parser.add_argument("--switches", action="store_true", help="add the per-switch tables")
    parser.add_argument("--switch-limit", type=float, default=2.0, help="seconds per puzzle in those tables")
    args = parser.parse_args(argv)

    import sudokit  # noqa: F401  (compile the kernels before the clocks start)

    datasets = []
    for folder in ("16x16", "25x25"):
        for path in sorted((args.data / folder).glob("*.txt")):
            if path.name.endswith((".sol.txt", ".counts.txt")):
                continue
            if args.sets and path.stem not in args.sets.split(","):
                continue
            datasets.append(read_file(path))
    if args.sizes != "none":
        for size in (int(s) for s in args.sizes.split(",")):
            keep = args.keep if args.keep is not None else KEEP.get(size, 0.6)
            datasets.append(generated(size, args.generated, keep, args.seed))
    if not datasets:
        print(f"no puzzle files under {args.data}", file=sys.stderr)
        return 2
    peers = [] if args.peers == "none" else args.peers.split(",")
    for peer, module in (("cpsat", "ortools"), ("pysat", "pysat.solvers"),
                         ("cadical", "pysat.solvers")):
        if peer in peers:
            try:
                __import__(module)
            except ImportError as error:
                print(f"- skipped {peer}: not installed ({error}); pip install -e '.[bench-peers]'")
                peers.remove(peer)
    print("- warming up (compiling) ...", flush=True)
    for size in sorted({d.size for d in datasets}):
        shape = sudokit.Shape.for_size(size)
        sudokit.count(sudokit.Board.empty(shape), limit=1)
        from sudokit.engines import GeneralSearch
        from sudokit.results import Limits

        GeneralSearch(sudokit.Board.empty(shape), engine="learn").run(Limits(1, node_limit=50))
    print()
    wrong = 0
    cnfs: dict[int, list] = {}
    for data in datasets:
        houses = houses_of(data.size)
        for limit in (int(m) for m in args.modes.split(",")):
            rows = [run_sudokit(data, limit, args.budget, args.puzzle_limit, houses)]
            if "seed001" in peers:
                rows.append(run_seed001(data, limit, args.budget, args.seed_nodes, houses))
            if "cpsat" in peers:
                rows.append(run_cpsat(data, limit, args.budget, houses))
            for peer in PYSAT_SOLVERS:
                if peer in peers:
                    if data.size not in cnfs:
                        cnfs[data.size] = standard_cnf(data.size, houses)
                    rows.append(run_pysat(data, limit, args.budget, houses, cnfs[data.size], peer))
            mode = "solve" if limit == 1 else "uniqueness"
            print(table(f"{data.name} ({len(data.values)}), {mode}", rows, len(data.values)))
            print(flush=True)
            wrong += sum(row.wrong for row in rows)
            if args.switches:
                print("\n".join(switches(data, limit, args.switch_limit)))
                print(flush=True)
    print(f"wrong answers: {wrong}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
