"""Benchmark the classic 9x9 kernel against pip-installable peers, with tdoku's columns.

For each 9x9 puzzle file (default ``../shared/data/9x9`` from the repository root; solution
and count files beside them are used for checking), in solve mode (limit 1) and uniqueness
mode (limit 2), one row per solver:

    puzzles/sec  usec/puzzle  %no_guess  guesses/puzzle  sudokit/peer

sudokit runs each set whole through ``solve_batch`` (one compiled call per pass; the best of
several passes counts, the machine being shared), and once more through ``sudokit.solve``
one board per call, to show what the Python API costs per board. Every peer runs on the
same puzzles in a seeded random order until its time budget is spent; its rate is over the
puzzles it finished. Peers that are not installed are skipped with a note:

    pip install -e '.[bench-peers]'    # python-sat, pycosat, exact-cover, ortools, py-sudoku, hodoku-py

Every sudokit answer on every puzzle is verified: each solution is a valid grid that keeps
the givens and matches the set's solution file where there is one, and the counts are right
(1 on proper puzzles, 0 on the no-solution set, 2 in uniqueness mode on the multi-solution
sets, and the exact counts of tdoku_test_multi.counts.txt). Peer answers are checked too
(valid grids, same count class as sudokit). Import and first-compile times are measured
apart, in fresh processes, with an empty and with a warm compile cache. Exit status 1 when
any check fails.

    python benchmarks/classic.py                      # every set, 5 s per peer and mode
    python benchmarks/classic.py --sets royle_17clue,magictour_top1465 --budget 10
    python benchmarks/classic.py --peers none         # sudokit only
    python benchmarks/classic.py --peers none --tdoku ~/tdoku/build/run_benchmark

``--tdoku PATH`` runs tdoku's own harness (``run_benchmark``, from a tdoku you built yourself,
outside this project) beside sudokit in the same run: ``-r 0`` (the puzzles as given, not
shuffled, so that both see the same ones), ``-f`` in solve mode, and the two measured in turn,
``--rounds`` times each (default 3), the best of each counting. Its answers are checked by
the harness itself (it validates solutions while warming up). Every table is followed by the
CPU's vector extensions and the lane layout of sudokit's 9x9 kernel (numba compiles for the
host CPU; ``NUMBA_CPU_NAME`` and ``NUMBA_CPU_FEATURES`` make it compile for another one, e.g.
AVX2 code on an AVX-512 machine).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "9x9"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _cpu import cpu_line  # noqa: E402  (needs the line above)
from _sat import grid_from_model, standard_cnf  # noqa: E402

#: sets whose puzzles have several solutions by design, and the one with none
SEVERAL = {"serg_benchmark", "tdoku_test_multi"}
NONE = {"tdoku_test_nosolution"}

ROWS = [[9 * r + c for c in range(9)] for r in range(9)]
HOUSES = np.array(
    ROWS
    + [[9 * r + c for r in range(9)] for c in range(9)]
    + [[9 * (3 * (b // 3) + r) + 3 * (b % 3) + c for r in range(3) for c in range(3)] for b in range(9)]
)


# -- data and checks ------------------------------------------------------------------------


def read_set(path: Path) -> tuple[list[str], np.ndarray]:
    lines = [line.strip() for line in path.read_text().splitlines() if line.strip()]
    table = np.zeros(256, dtype=np.uint8)
    for digit in range(1, 10):
        table[ord(str(digit))] = digit
    values = table[np.frombuffer("".join(lines).encode(), dtype=np.uint8)].reshape(len(lines), 81)
    return lines, values


def valid_grids(solutions: np.ndarray, puzzles: np.ndarray) -> np.ndarray:
    """For each row, whether it is a finished Sudoku that keeps the puzzle's givens."""
    houses = np.sort(solutions[:, HOUSES], axis=2)
    complete = (houses == np.arange(1, 10, dtype=np.uint8)).all(axis=(1, 2))
    kept = ((puzzles == 0) | (puzzles == solutions)).all(axis=1)
    return complete & kept


def expected_counts(name: str, path: Path, count: int, limit: int) -> np.ndarray | None:
    """The count each puzzle must give at ``limit``, where the set says; None if unknown."""
    counts_file = path.with_name(name + ".counts.txt")
    if counts_file.exists():
        exact = np.array([int(n) for n in counts_file.read_text().split()])
        return np.minimum(exact, limit)
    if name in NONE:
        return np.zeros(count, dtype=np.int64)
    if name in SEVERAL:
        return np.full(count, min(2, limit))
    return np.ones(count, dtype=np.int64)


# -- measurements ---------------------------------------------------------------------------


@dataclass
class Row:
    solver: str
    done: int = 0  #: puzzles finished within the budget
    seconds: float = 0.0
    no_guess: float | None = None  #: fraction solved without a guess
    guesses: float | None = None  #: guesses per puzzle
    failures: int = 0  #: answers that failed a check
    note: str = ""
    measured: float | None = None  #: a rate measured elsewhere (tdoku's harness reports its own)

    @property
    def rate(self) -> float:
        if self.measured is not None:
            return self.measured
        return self.done / self.seconds if self.seconds else 0.0


@dataclass
class Verdict:
    checked: int = 0
    failed: list[str] = field(default_factory=list)


def run_sudokit(name: str, path: Path, lines: list[str], values: np.ndarray, limit: int,
                min_time: float, verdict: Verdict, least_passes: int = 3) -> Row:
    import sudokit

    best = None
    passes = 0
    spent = 0.0
    while passes < least_passes or spent < min_time:
        start = time.perf_counter()
        result = sudokit.solve_batch(values, limit=limit)
        elapsed = time.perf_counter() - start
        spent += elapsed
        passes += 1
        best = elapsed if best is None else min(best, elapsed)
    row = Row("sudokit", len(lines), best, float(np.mean(result.guesses == 0)), float(np.mean(result.guesses)))
    row.note = f"best of {passes} passes"
    failures = verify(name, path, values, result, limit)
    row.failures = len(failures)
    verdict.checked += len(lines)
    verdict.failed += [f"{name} limit {limit}: {message}" for message in failures]
    return row


def verify(name: str, path: Path, values: np.ndarray, result, limit: int) -> list[str]:
    failures = []
    expected = expected_counts(name, path, len(values), limit)
    if expected is not None:
        for index in np.nonzero(result.counts != expected)[0][:5]:
            failures.append(f"line {index + 1}: count {result.counts[index]}, expected {expected[index]}")
        failures += ["..."] * max(0, int(np.count_nonzero(result.counts != expected)) - 5)
    solved = result.counts >= 1
    bad = solved & ~valid_grids(result.solutions, values)
    for index in np.nonzero(bad)[0][:5]:
        failures.append(f"line {index + 1}: the solution is not a valid grid keeping the givens")
    if (~solved & result.solutions.any(axis=1)).any():
        failures.append("a solution row is filled where no solution was found")
    solution_file = path.with_name(name + ".sol.txt")
    if limit == 1 and solution_file.exists():
        _, known = read_set(solution_file)
        differ = solved & (known != result.solutions).any(axis=1)
        for index in np.nonzero(differ)[0][:5]:
            failures.append(f"line {index + 1}: the solution differs from {solution_file.name}")
    if name == "tdoku_test_multi" and limit == 2:  # exact counts, not just "several"
        import sudokit

        exact = np.array([int(n) for n in path.with_name(name + ".counts.txt").read_text().split()])
        counted = sudokit.solve_batch(values, limit=int(exact.max()) + 1)
        if not (counted.exhausted.all() and (counted.counts == exact).all()):
            failures.append("exact counts differ from tdoku_test_multi.counts.txt")
    return failures


def run_single_calls(lines: list[str], limit: int, budget: float) -> Row:
    """sudokit's Python API, one board per call (parsing and a result object each time)."""
    import sudokit

    row = Row("sudokit, one call per board")
    guesses = []
    start = time.perf_counter()
    for line in lines:
        result = sudokit.count(line, limit=limit)
        guesses.append(result.guesses)
        row.done += 1
        if time.perf_counter() - start > budget:
            break
    row.seconds = time.perf_counter() - start
    row.no_guess = float(np.mean(np.array(guesses) == 0))
    row.guesses = float(np.mean(guesses))
    return row


def run_tdoku(harness: str, path: Path, limit: int, seconds: int) -> Row:
    """One run of tdoku's own harness on the file: its rate, share without a guess and
    guesses a puzzle, as it reports them (``-c1``: one CSV line)."""
    argv = [harness, "-r", "0", "-s", "tdoku", "-c1", "-t", str(seconds), "-w", "1"]
    argv += (["-f"] if limit == 1 else []) + [str(path)]
    done = subprocess.run(argv, capture_output=True, text=True)
    row = Row("tdoku (its own harness, -r 0)")
    fields = done.stdout.strip().splitlines()[-1].split(",") if done.stdout.strip() else []
    try:
        rate, _, no_guess, guesses = (float(x) for x in fields[-4:])
    except ValueError:
        row.note = f"the harness failed: {(done.stdout + done.stderr).strip().splitlines()[:1]}"
        return row
    row.measured, row.no_guess, row.guesses = rate, no_guess / 100, guesses
    row.done, row.note = 1, f"-t {seconds}"
    return row


def interleaved(name: str, path: Path, lines: list[str], values: np.ndarray, limit: int, args,
                verdict: Verdict) -> tuple[Row, Row]:
    """sudokit and tdoku's harness measured in turn, ``args.rounds`` times: the best of each."""
    ours: Row | None = None
    theirs: Row | None = None
    for _ in range(args.rounds):
        row = run_sudokit(name, path, lines, values, limit, args.min_time / args.rounds, verdict, least_passes=1)
        ours = row if ours is None or row.rate > ours.rate else ours
        other = run_tdoku(args.tdoku, path, limit, args.tdoku_seconds)
        theirs = other if theirs is None or other.rate > theirs.rate else theirs
    assert ours is not None and theirs is not None
    ours.note = f"best of {args.rounds} rounds, interleaved with tdoku"
    if theirs.measured is not None:
        theirs.note = f"best of {args.rounds} runs of -t {args.tdoku_seconds}"
    return ours, theirs


class Cutoff(Exception):
    pass


#: whether a timer signal now should interrupt the puzzle under way (a late one is ignored)
_armed = [False]


def _alarm(signum, frame):
    if _armed[0]:
        _armed[0] = False
        raise Cutoff


def run_peer(label: str, solve_one: Callable[[str, np.ndarray, int], tuple[int, np.ndarray | None]],
             lines: list[str], values: np.ndarray, limit: int, budget: float,
             reference_counts: np.ndarray) -> Row:
    """Run a peer over the puzzles in a seeded random order until ``budget`` seconds pass.

    ``solve_one(line, values, limit)`` returns (count capped at limit, first solution or None).
    A puzzle still running when the budget ends is abandoned (a timer interrupts Python code;
    native code is interrupted when it returns)."""
    order = list(range(len(lines)))
    random.Random(0).shuffle(order)
    row = Row(label)
    spent = 0.0
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for index in order:
            left = budget - spent
            if left <= 0:
                break
            start = time.perf_counter()
            try:
                _armed[0] = True
                signal.setitimer(signal.ITIMER_REAL, left)
                count, solution = solve_one(lines[index], values[index], limit)
                _armed[0] = False
            except Cutoff:
                row.note = "cut off inside a puzzle"
                break
            finally:
                _armed[0] = False
                signal.setitimer(signal.ITIMER_REAL, 0)
            spent += time.perf_counter() - start
            row.done += 1
            if min(count, limit) != min(int(reference_counts[index]), limit):
                row.failures += 1
            elif count >= 1 and solution is not None:
                if not valid_grids(solution.reshape(1, 81).astype(np.uint8), values[index : index + 1])[0]:
                    row.failures += 1
    finally:
        signal.signal(signal.SIGALRM, previous)
    row.seconds = spent
    if row.done < len(lines) and not row.note:
        row.note = f"{row.done} of {len(lines)} in the budget"
    return row


# -- peers ----------------------------------------------------------------------------------


def _variable(cell: int, digit: int) -> int:
    return 9 * cell + digit  # digit 1..9 -> variables 1..729


def make_pycosat():
    import pycosat

    base = standard_cnf(9, HOUSES)

    def solve_one(line, values, limit):
        clauses = base + [[_variable(c, int(v))] for c, v in enumerate(values) if v]
        first = None
        count = 0
        for model in pycosat.itersolve(clauses):
            count += 1
            if first is None:
                first = grid_from_model(model, 9)
            if count >= limit:
                break
        return count, first

    return solve_one


def make_pysat():
    from pysat.solvers import Solver

    solver = Solver(name="minisat22", bootstrap_with=standard_cnf(9, HOUSES))
    fresh = [729]

    def solve_one(line, values, limit):
        assumptions = [_variable(c, int(v)) for c, v in enumerate(values) if v]
        if not solver.solve(assumptions=assumptions):
            return 0, None
        first = grid_from_model(solver.get_model(), 9)
        if limit == 1:
            return 1, first
        fresh[0] += 1
        selector = fresh[0]  # the blocking clause lives only while the selector is assumed
        open_cells = [c for c in range(81) if not values[c]]
        solver.add_clause([-selector] + [-_variable(c, int(first[c])) for c in open_cells])
        again = solver.solve(assumptions=assumptions + [selector])
        solver.add_clause([-selector])
        return (2 if again else 1), first

    return solve_one


def make_exact_cover():
    import exact_cover
    from exact_cover.error import NoSolution

    rows = np.zeros((729, 324), dtype=np.int32)
    for cell in range(81):
        r, c = divmod(cell, 9)
        b = 3 * (r // 3) + c // 3
        for d in range(9):
            index = 9 * cell + d
            rows[index, [cell, 81 + 9 * r + d, 162 + 9 * c + d, 243 + 9 * b + d]] = 1
    cells = np.repeat(np.arange(81), 9)
    digits = np.tile(np.arange(1, 10), 81)

    def solve_one(line, values, limit):
        keep = (values[cells] == 0) | (values[cells] == digits)
        matrix = np.ascontiguousarray(rows[keep])
        kept = np.nonzero(keep)[0]
        try:
            if limit == 1:
                found = [exact_cover.get_exact_cover(matrix)]
            else:
                found = list(exact_cover.get_all_solutions(matrix, max_count=limit))
        except NoSolution:
            return 0, None
        grid = np.zeros(81, dtype=np.uint8)
        chosen = kept[np.asarray(found[0], dtype=np.int64)]
        grid[cells[chosen]] = digits[chosen]
        return len(found), grid

    return solve_one


def make_ortools():
    import ortools.sat.python.cp_model  # noqa: F401  (absent: the peer is skipped)
    from _cpsat import cpsat_count

    houses = HOUSES.tolist()

    def solve_one(line, values, limit):
        count, first, _ = cpsat_count(values, 9, houses, limit)
        return count, first

    return solve_one


def make_py_sudoku():
    from sudoku import Sudoku

    def solve_one(line, values, limit):
        board = [[int(values[9 * r + c]) or None for c in range(9)] for r in range(9)]
        puzzle = Sudoku(3, 3, board=board)
        solved = puzzle.solve()
        if solved is None or any(cell is None for row in solved.board for cell in row):
            return 0, None
        grid = np.array([cell for row in solved.board for cell in row], dtype=np.uint8)
        if limit == 1:
            return 1, grid
        return (2 if puzzle.has_multiple_solutions() else 1), grid

    return solve_one


def make_hodoku():
    from hodoku.generator.generator import SudokuGenerator, _gen_accel

    if _gen_accel is None:
        raise ImportError("hodoku-py's C search is not built")
    generator = SudokuGenerator()

    def solve_one(line, values, limit):
        generator.solve_string(line)  # always counts up to 2: uniqueness mode only
        count = generator.get_solution_count()
        grid = np.array(generator.get_solution(), dtype=np.uint8) if count else None
        return count, grid

    return solve_one


PEERS = {
    "hodoku": (make_hodoku, "hodoku-py (its C search)", (2,)),
    "pysat": (make_pysat, "python-sat (minisat22, incremental)", (1, 2)),
    "pycosat": (make_pycosat, "pycosat (picosat)", (1, 2)),
    "exact-cover": (make_exact_cover, "exact-cover (DLX in C)", (1, 2)),
    "ortools": (make_ortools, "ortools CP-SAT (1 worker)", (1, 2)),
    "py-sudoku": (make_py_sudoku, "py-sudoku", (1, 2)),
}


# -- start-up costs -------------------------------------------------------------------------


def startup_costs() -> list[tuple[str, float, float]]:
    """(cache state, import seconds, first solve_batch seconds) in fresh processes."""
    script = (
        "import time; t0 = time.perf_counter(); import sudokit; t1 = time.perf_counter(); "
        "sudokit.solve_batch(['.' * 81], limit=2); t2 = time.perf_counter(); "
        "print(t1 - t0, t2 - t1)"
    )
    results = []
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, SUDOKIT_QUIET="1")
        for state in ("empty compile cache", "warm compile cache"):
            out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                                 text=True, check=True)
            imported, first = (float(x) for x in out.stdout.split())
            results.append((state, imported, first))
    return results


# -- report ---------------------------------------------------------------------------------


def table(title: str, rows: list[Row]) -> str:
    ours = rows[0].rate
    head = f"| {title:<44} | puzzles/sec | usec/puzzle | %no_guess | guesses/puzzle | sudokit/this | note"
    rule = "|" + "-" * 46 + "|------------:|------------:|----------:|---------------:|-------------:|------"
    out = [head, rule]
    for row in rows:
        if row.done == 0:
            out.append(f"| {row.solver:<44} | {'-':>11} | {'-':>11} | {'-':>9} | {'-':>14} | {'-':>12} | {row.note}")
            continue
        no_guess = f"{100 * row.no_guess:.1f}%" if row.no_guess is not None else "-"
        guesses = f"{row.guesses:.2f}" if row.guesses is not None else "-"
        ratio = f"{ours / row.rate:.1f}x" if row.rate else "-"
        note = row.note + (f"; {row.failures} WRONG" if row.failures else "")
        out.append(
            f"| {row.solver:<44} | {row.rate:>11,.1f} | {1e6 / row.rate:>11.1f} | {no_guess:>9} "
            f"| {guesses:>14} | {ratio:>12} | {note}"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of 9x9 puzzle files")
    parser.add_argument("--sets", help="comma-separated set names (file stems); default all")
    parser.add_argument("--budget", type=float, default=5.0, help="seconds per peer, set and mode")
    parser.add_argument("--min-time", type=float, default=1.0, help="least seconds of sudokit passes")
    parser.add_argument("--peers", default="all", help="comma-separated peers, 'all' or 'none': " + ",".join(PEERS))
    parser.add_argument("--no-single", action="store_true", help="skip the one-call-per-board row")
    parser.add_argument("--tdoku", help="tdoku's run_benchmark (built outside the project), run beside sudokit")
    parser.add_argument("--tdoku-seconds", type=int, default=2, help="its -t: seconds of each harness run")
    parser.add_argument("--rounds", type=int, default=3, help="with --tdoku: turns of each, the best counting")
    parser.add_argument("--no-startup", action="store_true", help="skip the import and first-compile times")
    args = parser.parse_args(argv)
    if args.tdoku and not os.access(args.tdoku, os.X_OK):
        parser.error(f"--tdoku {args.tdoku}: not an executable")

    import sudokit  # noqa: F401  (import cost is measured apart, below)

    files = sorted(
        path for path in args.data.glob("*.txt")
        if not path.name.endswith((".sol.txt", ".counts.txt"))
    )
    if args.sets:
        wanted = set(args.sets.split(","))
        files = [path for path in files if path.stem in wanted]
    if not files:
        print(f"no puzzle files in {args.data}", file=sys.stderr)
        return 2

    if not args.no_startup:
        print("## start-up (fresh processes)\n")
        for state, imported, first in startup_costs():
            print(f"- {state}: import sudokit {imported:.2f} s; first solve_batch (compile or cache load) {first:.2f} s")
        print()
    machine = f"{cpu_line()}\nsudokit's 9x9 kernel: {kernel_layout()}"

    chosen = list(PEERS) if args.peers == "all" else [] if args.peers == "none" else args.peers.split(",")
    peers = {}
    for key in chosen:
        make, label, modes = PEERS[key]
        try:
            make()
        except ImportError as error:
            print(f"- skipped {key}: not installed ({error}); pip install -e '.[bench-peers]'")
        else:
            peers[key] = (make, label, modes)
    print()

    verdict = Verdict()
    for path in files:
        name = path.stem
        lines, values = read_set(path)
        for limit, mode in ((1, "solve"), (2, "uniqueness")):
            tdoku_row = None
            if args.tdoku and name not in NONE:  # its harness takes a puzzle without a solution for an error
                ours, tdoku_row = interleaved(name, path, lines, values, limit, args, verdict)
                rows = [ours]
            else:
                rows = [run_sudokit(name, path, lines, values, limit, args.min_time, verdict)]
            reference = sudokit_counts(values, limit)
            if tdoku_row is not None:
                rows.append(tdoku_row)
            if not args.no_single:
                rows.append(run_single_calls(lines, limit, min(args.budget, 2.0)))
            for key, (make, label, modes) in peers.items():
                if limit not in modes:
                    rows.append(Row(label, note="counts to 2 always: uniqueness mode only"))
                    continue
                # a fresh peer per set and mode: an incremental SAT solver keeps what it learnt
                rows.append(run_peer(label, make(), lines, values, limit, args.budget, reference))
            print(table(f"{name} ({len(lines)}), {mode} (limit {limit})", rows))
            print(machine, flush=True)
            print(flush=True)
    print(f"verified {verdict.checked} sudokit answers; {len(verdict.failed)} failures")
    for message in verdict.failed[:50]:
        print("  FAIL", message)
    return 1 if verdict.failed else 0


def kernel_layout() -> str:
    """How the classic kernel lays out its words on this machine (it chooses at import)."""
    from sudokit.kernels.search import classic

    return getattr(classic, "LAYOUT", "32 x int32 lanes, digit-major")


def sudokit_counts(values: np.ndarray, limit: int) -> np.ndarray:
    import sudokit

    return sudokit.solve_batch(values, limit=limit).counts


if __name__ == "__main__":
    sys.exit(main())
