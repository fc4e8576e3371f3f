"""The classic 9x9 kernel, checked against the general kernel and a tiny reference solver;
its limit, budget and resumption semantics; and ``solve_batch`` on arrays and strings.

Data: ``data/classic_9x9.txt`` (samples of the shared 9x9 sets with exact counts) and tdoku's
multi-solution unit-test puzzles with their published counts (see ``data/SOURCES.md``).
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import sudokit
from sudokit.kernels.search import classic
from sudokit.kernels.search import protocol as P

DATA = Path(__file__).parent / "data"
from sudokit import engines


def _entries() -> list[tuple[str, int, str]]:
    entries = []
    for line in (DATA / "classic_9x9.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            puzzle, count, solution = line.split(":")
            entries.append((puzzle, int(count), solution))
    return entries


ENTRIES = _entries()
MULTI = list(
    zip(
        (DATA / "tdoku_test_multi.txt").read_text().split(),
        (int(n) for n in (DATA / "tdoku_test_multi.counts.txt").read_text().split()),
    )
)


# -- a tiny independent reference: rows/columns/boxes as sets, fewest-options cell first -----


def reference_count(puzzle: str, limit: int) -> tuple[int, list[int] | None]:
    """Solutions of a 9x9 line, up to ``limit``, and the first one (plain backtracking)."""
    grid = [0 if ch in ".0" else int(ch) for ch in puzzle]
    rows = [set() for _ in range(9)]
    cols = [set() for _ in range(9)]
    boxes = [set() for _ in range(9)]
    for cell, value in enumerate(grid):
        if value:
            r, c, b = cell // 9, cell % 9, (cell // 27) * 3 + (cell % 9) // 3
            if value in rows[r] or value in cols[c] or value in boxes[b]:
                return 0, None
            rows[r].add(value), cols[c].add(value), boxes[b].add(value)
    found: list[list[int]] = []
    count = 0

    def options(cell: int) -> list[int]:
        r, c, b = cell // 9, cell % 9, (cell // 27) * 3 + (cell % 9) // 3
        return [v for v in range(1, 10) if v not in rows[r] and v not in cols[c] and v not in boxes[b]]

    def walk() -> bool:
        nonlocal count
        empty = [cell for cell in range(81) if grid[cell] == 0]
        if not empty:
            count += 1
            if not found:
                found.append(list(grid))
            return count >= limit
        cell = min(empty, key=lambda e: len(options(e)))
        r, c, b = cell // 9, cell % 9, (cell // 27) * 3 + (cell % 9) // 3
        for value in options(cell):
            grid[cell] = value
            rows[r].add(value), cols[c].add(value), boxes[b].add(value)
            stop = walk()
            rows[r].discard(value), cols[c].discard(value), boxes[b].discard(value)
            grid[cell] = 0
            if stop:
                return True
        return False

    walk()
    return count, (found[0] if found else None)


def is_solution(solution, puzzle: str) -> bool:
    grid = np.asarray(solution, dtype=int).reshape(9, 9)
    digits = list(range(1, 10))
    if any(sorted(grid[r]) != digits or sorted(grid[:, r]) != digits for r in range(9)):
        return False
    if any(sorted(grid[r : r + 3, c : c + 3].ravel()) != digits for r in (0, 3, 6) for c in (0, 3, 6)):
        return False
    givens = [0 if ch in ".0" else int(ch) for ch in puzzle]
    return all(g == 0 or g == v for g, v in zip(givens, grid.ravel()))


@pytest.fixture
def general_kernel(monkeypatch):
    """Route 9x9 boards to the general kernel for the duration of a test."""
    monkeypatch.setattr(engines, "USE_SHAPE_KERNELS", False)


def _count(puzzle: str, limit: int, general: bool = False) -> sudokit.SolveResult:
    saved = engines.USE_SHAPE_KERNELS
    engines.USE_SHAPE_KERNELS = not general
    try:
        return sudokit.count(puzzle, limit=limit)
    finally:
        engines.USE_SHAPE_KERNELS = saved


# -- agreement ------------------------------------------------------------------------------


def test_classic_kernel_is_chosen_for_9x9_only():
    assert isinstance(engines.search_for(sudokit.Board.empty(9)), engines.ClassicSearch)
    assert isinstance(engines.search_for(sudokit.Board.empty(16)), engines.HexaSearch)
    assert isinstance(
        engines.search_for(sudokit.Board.empty(sudokit.Shape(1, 9))), engines.GeneralSearch
    )


@pytest.mark.parametrize("puzzle,count,solution", ENTRIES, ids=[f"{i}" for i in range(len(ENTRIES))])
def test_exact_counts_agree_with_the_general_kernel(puzzle, count, solution):
    classic_result = _count(puzzle, limit=count + 1)
    general_result = _count(puzzle, limit=count + 1, general=True)
    assert classic_result.exhausted and classic_result.count == count
    assert general_result.exhausted and general_result.count == count
    if count:
        assert is_solution(classic_result.board.cells, puzzle)
    if count == 1:
        assert classic_result.board.to_line() == solution
        assert general_result.board.to_line() == solution


# the reference is slow on the hardest sets: multi-solution, royle, serg, kaggle and top95 samples
@pytest.mark.slow
@pytest.mark.parametrize("puzzle,count,solution", ENTRIES[18:33:2] + ENTRIES[43:55:3] + ENTRIES[-22::3])
def test_counts_agree_with_the_reference(puzzle, count, solution):
    expected, first = reference_count(puzzle, limit=3)
    result = _count(puzzle, limit=3)
    assert result.count == expected == min(count, 3)
    if expected:
        assert is_solution(first, puzzle)
        assert is_solution(result.board.cells, puzzle)


# -- limits ---------------------------------------------------------------------------------


@pytest.mark.parametrize("puzzle,count", MULTI)
def test_limits_on_multi_solution_puzzles(puzzle, count):
    one = sudokit.solve(puzzle)
    assert one.solved and one.count == 1 and not one.exhausted and is_solution(one.board.cells, puzzle)
    two = sudokit.is_unique(puzzle)
    assert two.count == 2 and two.unique is False and two.status is sudokit.SolveStatus.SEVERAL
    exact = sudokit.count(puzzle, limit=count)
    assert exact.count == count
    beyond = sudokit.count(puzzle, limit=count + 1)
    assert beyond.count == count and beyond.exhausted
    short = sudokit.count(puzzle, limit=count - 1)
    assert short.count == count - 1 and not short.exhausted


def test_solutions_are_distinct_and_complete():
    puzzle, count = min(MULTI, key=lambda item: item[1])
    boards = list(sudokit.solutions(puzzle))
    assert len(boards) == count == len({board.to_line() for board in boards})
    assert all(is_solution(board.cells, puzzle) for board in boards)
    expected = {b.to_line() for b in _general_solutions(puzzle)}
    assert {board.to_line() for board in boards} == expected


def _general_solutions(puzzle):
    saved = engines.USE_SHAPE_KERNELS
    engines.USE_SHAPE_KERNELS = False
    try:
        return list(sudokit.solutions(puzzle))
    finally:
        engines.USE_SHAPE_KERNELS = saved


def test_no_solution_and_empty_board():
    for puzzle, count, _ in ENTRIES:
        if count == 0:
            result = sudokit.is_unique(puzzle)
            assert result.count == 0 and result.exhausted
            assert result.status is sudokit.SolveStatus.NO_SOLUTION
    empty = sudokit.count("." * 81, limit=1000)
    assert empty.count == 1000 and not empty.exhausted


# -- resumption and budgets ----------------------------------------------------------------


def _resumed(puzzle: str, limit: int, budget: int) -> tuple[int, int, int, np.ndarray]:
    search = engines.ClassicSearch(sudokit.Board.from_line(puzzle))
    calls = 0
    while True:
        code = search.step(limit, budget, 1)
        calls += 1
        if code != P.BUDGET:
            return code, search.count, search.nodes, search.out.copy()
        assert calls < 1_000_000


@pytest.mark.parametrize("budget", [1, 2, 7])
def test_resuming_in_small_slices_changes_nothing(budget):
    hard = [entry for entry in ENTRIES if entry[1] == 1][-8:] + [(p, c, "") for p, c in MULTI[:3]]
    for puzzle, count, _ in hard:
        for limit in (1, 2, count + 1):
            whole = _resumed(puzzle, limit, 1 << 40)
            sliced = _resumed(puzzle, limit, budget)
            assert sliced[0] == whole[0] and sliced[1] == whole[1] and sliced[2] == whole[2]
            assert np.array_equal(sliced[3], whole[3])


def test_node_and_time_limits_report_unknown_or_an_answer():
    puzzle = max((entry for entry in ENTRIES if entry[1] == 1), key=lambda e: _count(e[0], 2).nodes)[0]
    cut = sudokit.is_unique(puzzle, node_limit=2)
    assert cut.status is sudokit.SolveStatus.UNKNOWN and cut.nodes <= 2 and cut.unique is None
    for time_limit in (0.0, 1e-6, 10.0):  # whatever the clock does, the answer is consistent
        result = sudokit.is_unique(puzzle, time_limit=time_limit)
        assert result.status in (sudokit.SolveStatus.UNKNOWN, sudokit.SolveStatus.SOLVED)
        if result.status is sudokit.SolveStatus.SOLVED:
            assert result.unique and is_solution(result.board.cells, puzzle)


def test_lazy_iteration_resumes_after_each_solution():
    puzzle, count = MULTI[0]
    first_three = list(itertools.islice(sudokit.solutions(puzzle), 3))
    assert len(first_three) == 3 and len({b.to_line() for b in first_three}) == 3


# -- batches --------------------------------------------------------------------------------


def _as_array(lines: list[str]) -> np.ndarray:
    return np.array([[0 if ch in ".0" else int(ch) for ch in line] for line in lines], dtype=np.uint8)


@pytest.mark.parametrize("limit", [1, 2, 1000])
def test_batch_matches_single_board_counts(limit):
    puzzles = [p for p, _, _ in ENTRIES]
    expected = [min(c, limit) for _, c, _ in ENTRIES]
    for source in (puzzles, _as_array(puzzles)):
        result = sudokit.solve_batch(source, limit=limit)
        assert result.counts.tolist() == expected
        assert result.solutions.shape == (len(puzzles), 81) and result.solutions.dtype == np.uint8
        for k, puzzle in enumerate(puzzles):
            if expected[k]:
                assert is_solution(result.solutions[k], puzzle)
            else:
                assert not result.solutions[k].any()
        assert (result.exhausted == (np.array([c for _, c, _ in ENTRIES]) < limit)).all()
        assert (result.guesses >= 0).all() and (result.nodes >= 1).all()


def test_batch_reports_bad_records_and_keeps_going():
    good = ENTRIES[0][0]
    conflict = "11" + "." * 79
    records = [good, "too short", "x" * 81, conflict, good.replace(".", "0"), 42, good + good]
    result = sudokit.solve_batch(records, limit=2)
    assert result.counts.tolist() == [1, -1, -1, 0, 1, -1, -1]
    assert [index for index, _ in result.errors] == [1, 2, 5, 6]
    assert all(isinstance(message, str) and message for _, message in result.errors)
    assert result.conflicts.tolist() == [False, False, False, True, False, False, False]
    assert not result.solutions[1].any() and result.board(1) is None
    assert result.board(0).to_line() == ENTRIES[0][2]


def test_batch_array_with_bad_values_and_shapes():
    array = _as_array([ENTRIES[0][0]] * 3)
    array[1, 5] = 10
    result = sudokit.solve_batch(array)
    assert result.counts.tolist() == [1, -1, 1] and result.errors[0][0] == 1
    assert sudokit.solve_batch(array.reshape(3, 9, 9)).counts.tolist() == [1, -1, 1]
    assert len(sudokit.solve_batch(np.zeros((0, 81), dtype=np.uint8))) == 0
    with pytest.raises(ValueError):
        sudokit.solve_batch(np.zeros((2, 80), dtype=np.uint8))
    with pytest.raises(ValueError):
        sudokit.solve_batch([ENTRIES[0][0]], limit=0)


def test_batch_node_limit():
    puzzles = [p for p, c, _ in ENTRIES if c == 1]
    result = sudokit.solve_batch(puzzles, limit=2, node_limit=1)
    assert (result.nodes <= 1).all()
    assert ((result.counts == 1) | ~result.exhausted).all()


def test_batch_general_shapes_use_the_general_kernel():
    line = "1.3..4.....2.1.."  # 4x4, 2x2 boxes
    boards = [line, "1" * 16, "12.."]
    result = sudokit.solve_batch(boards, limit=10)
    assert result.shape == sudokit.Shape(2, 2)
    assert result.counts[0] == sudokit.count(line, limit=10).count
    assert result.counts[1] == 0 and result.conflicts[1] and result.counts[2] == -1
    six = sudokit.Board.empty(sudokit.Shape(2, 3))
    result = sudokit.solve_batch(np.zeros((2, 36), dtype=np.uint8), limit=5, shape=sudokit.Shape(2, 3))
    assert result.counts.tolist() == [5, 5]
    assert all(sudokit.Board(row, six.shape).status().solved for row in result.solutions)


def test_batch_through_the_general_kernel_agrees(general_kernel):
    puzzles = [p for p, _, _ in ENTRIES[:40]]
    via_general = sudokit.solve_batch(puzzles, limit=2)
    assert via_general.counts.tolist() == [min(c, 2) for _, c, _ in ENTRIES[:40]]


# -- plain Python ---------------------------------------------------------------------------


def test_kernel_runs_without_jit():
    """The kernels run as plain Python under NUMBA_DISABLE_JIT=1 (slowly): a small sample."""
    sample = [ENTRIES[0], MULTI[0] + ("",), next(e for e in ENTRIES if e[1] == 0)]
    script = (
        "import sys, sudokit\n"
        "from sudokit.kernels.build import jit\n"
        "assert jit.JIT_DISABLED\n"
        "for line in sys.stdin.read().split():\n"
        "    puzzle, limit = line.split(':')\n"
        "    r = sudokit.count(puzzle, limit=int(limit))\n"
        "    b = sudokit.solve_batch([puzzle], limit=int(limit))\n"
        "    print(r.count, int(b.counts[0]), r.board.to_line() if r.board else '-')\n"
    )
    stdin = "\n".join(f"{p}:{min(c, 5) + 1}" for p, c, _ in sample)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", SUDOKIT_QUIET="1")
    done = subprocess.run(
        [sys.executable, "-c", script], input=stdin, capture_output=True, text=True, env=env, check=True
    )
    lines = done.stdout.split("\n")
    for (puzzle, count, _), line in zip(sample, lines):
        found, batch_found, board = line.split()
        assert int(found) == int(batch_found) == min(count, 6)
        if count:
            assert is_solution([int(ch) for ch in board], puzzle)


# -- the lane rules, against brute force ---------------------------------------------------

ORDERS = list(itertools.permutations(range(3)))


def _triad_bits(occupancy: int) -> int:
    """A 9-bit triad occupancy (bit 3 * row + box) as the kernel's triad bits (9 * row + 3 * box)."""
    return sum(1 << (9 * (t // 3) + 3 * (t % 3)) for t in range(9) if occupancy >> t & 1)


def _order_triads(order) -> int:
    return sum(1 << (3 * row + order[row]) for row in range(3))


def _lanes_map(name: str, values: np.ndarray) -> np.ndarray:
    """Apply the lane helper ``classic.<name>`` to ``values`` (uint32, a multiple of 32 long),
    32 lanes at a time, compiled."""
    from numba import njit

    from sudokit.kernels.search.lanes import vload, vstore

    helper = getattr(classic, name)

    @njit(cache=False)
    def run(words):
        for start in range(0, words.shape[0], 32):
            vstore(words, start, helper(vload(words, start)))

    out = np.ascontiguousarray(values, dtype=np.uint32).copy()
    run(out)
    return out


@pytest.mark.slow
def test_permutation_rule_and_configurations_agree_with_brute_force():
    occupancies = np.arange(512)
    triads = np.array([_triad_bits(o) for o in occupancies], dtype=np.uint32)
    kept = _lanes_map("_on_permutation", triads)
    # a word holding its triads' cells, so that _configurations sees these triads
    configs = _lanes_map("_configurations", triads * 7)
    alone = _lanes_map("_alone_in_row", kept)
    for occupancy in occupancies:
        fits = [k for k, order in enumerate(ORDERS) if occupancy & _order_triads(order) == _order_triads(order)]
        on_some = sum(1 << t for t in range(9) if any(_order_triads(ORDERS[k]) >> t & 1 for k in fits))
        assert kept[occupancy] == _triad_bits(on_some)
        assert configs[occupancy] == sum(1 << k for k in fits)
        # after the band rule, a triad alone in its row is one every configuration uses
        on_all = 0
        if fits:
            on_all = 0x1FF
            for k in fits:
                on_all &= _order_triads(ORDERS[k])
        assert alone[occupancy] == _triad_bits(on_all)
    for k, order in enumerate(ORDERS):
        cells = classic.CONFIG_CELLS[k]
        assert cells == _triad_bits(_order_triads(order)) * 7


@pytest.mark.parametrize("seed", [0] + [pytest.param(seed, marks=pytest.mark.slow) for seed in range(1, 5)])
def test_band_counts_agree_with_brute_force(seed):
    rng = np.random.default_rng(seed)
    words = np.zeros(32, dtype=np.uint32)
    words[:27] = rng.integers(0, 1 << 27, 27) & rng.integers(0, 1 << 27, 27)
    lane_of = classic.LANE  # digit d, band b: lane_of[3 * d + b], on either layout
    band = [int(classic.LANE_INDEX[lane]) % 3 for lane in range(27)]  # each word lane's band
    counts = [sum(int(words[lane_of[3 * d + b]]) >> bit & 1 for d in range(9)) for b in range(3) for bit in range(27)]
    counts = np.array(counts).reshape(3, 27)

    def at_least(k):
        return [sum(1 << bit for bit in range(27) if counts[b, bit] >= k) for b in range(3)]

    for name, want in (("_band_or", at_least(1)),):
        got = _lanes_map(name, words)
        assert [int(got[lane]) for lane in range(27)] == [want[band[lane]] for lane in range(27)]
    from numba import njit

    from sudokit.kernels.search.lanes import vload, vstore

    @njit(cache=False)
    def fours(w, out):
        c1, c2, c3, c4 = classic._band_four(vload(w, 0))
        once, twice = classic._band_twice(vload(w, 0))
        vstore(out, 0, c1)
        vstore(out, 32, c2)
        vstore(out, 64, c3)
        vstore(out, 96, c4)
        vstore(out, 128, once)
        vstore(out, 160, twice)
        vstore(out, 192, classic._band_sum(vload(w, 0)))
        either, overlap = classic._band_or_twice(vload(w, 0))
        vstore(out, 224, either)
        vstore(out, 256, overlap)

    out = np.zeros(288, dtype=np.uint32)
    fours(words, out)
    for k, offset in ((1, 0), (2, 32), (3, 64), (4, 96), (1, 128), (2, 160), (1, 224)):
        assert [int(out[offset + lane]) for lane in range(27)] == [at_least(k)[band[lane]] for lane in range(27)]
    assert [int(out[192 + lane]) for lane in range(27)] == [
        sum(int(words[lane_of[3 * d + band[lane]]]) for d in range(9)) & 0xFFFFFFFF for lane in range(27)
    ]
    # the overlap test: nonzero somewhere exactly where some band has a cell in two words
    assert bool(out[256:288].any()) == any(at_least(2))
    disjoint = np.zeros(32, dtype=np.uint32)  # each cell in one digit's word at most
    owner = rng.integers(-1, 9, (3, 27))
    for b in range(3):
        for bit in range(27):
            if owner[b, bit] >= 0:
                disjoint[lane_of[3 * owner[b, bit] + b]] |= np.uint32(1 << bit)
    fours(disjoint, out)
    assert not out[256:288].any()


def test_repeated_givens_are_found_as_the_general_check_finds_them():
    """``classic.repeats`` (band words and vector tests) against ``givens.repeats`` (a loop
    over every cell's houses), on boards of the data with values changed at random."""
    from sudokit.kernels.search import givens

    rng = np.random.default_rng(3)
    boards = np.array([[int(ch) if ch not in ".0" else 0 for ch in puzzle] for puzzle, _, _ in ENTRIES], dtype=np.uint8)
    boards = np.concatenate([boards] * 20)
    for k in range(len(boards)):
        for _ in range(int(rng.integers(0, 3))):
            boards[k, rng.integers(81)] = rng.integers(0, 10)
    geometry = sudokit.Shape(3, 3).geometry
    fast = np.zeros(len(boards), dtype=bool)
    slow = np.zeros(len(boards), dtype=bool)
    classic.repeats(boards, fast)
    givens.repeats(boards, geometry.cell_houses, np.zeros(len(geometry.houses), dtype=np.uint64), slow)
    assert fast.tolist() == slow.tolist()
    assert 0 < fast.sum() < len(boards)


@pytest.mark.slow
def test_both_lane_layouts_walk_the_same_tree(tmp_path):
    """On an AVX-512 machine, the band-major layout of AVX2 machines too (numba told to
    compile without AVX-512, in a fresh process): the same counts, nodes, guesses and
    solutions as this process's layout."""
    from sudokit.kernels.search import lanes

    if not lanes.WIDE:
        pytest.skip("this machine compiles the band-major layout already, and cannot run the other")
    features = ",".join(
        "-" + f[1:] if f[1:].startswith("avx512") else f for f in lanes.codegen_features().split(",")
    )
    script = (
        "import json, sys, sudokit\n"
        "from sudokit.kernels.search import classic\n"
        "assert classic.BAND_MAJOR, classic.LAYOUT\n"
        "rows = []\n"
        "for puzzle, limit in json.loads(sys.stdin.read()):\n"
        "    r = sudokit.count(puzzle, limit=limit)\n"
        "    b = sudokit.solve_batch([puzzle], limit=limit)\n"
        "    rows.append([r.count, r.nodes, r.guesses, r.board.to_line() if r.board else None,\n"
        "                 int(b.counts[0]), int(b.guesses[0])])\n"
        "print(json.dumps(rows))\n"
    )
    cases = [(puzzle, limit) for puzzle, _, _ in ENTRIES[:40] for limit in (1, 2)]
    env = dict(os.environ, NUMBA_CPU_FEATURES=features, NUMBA_CACHE_DIR=str(tmp_path), SUDOKIT_QUIET="1",
               SUDOKIT_AHEAD="0")
    done = subprocess.run([sys.executable, "-c", script], input=json.dumps(cases), capture_output=True,
                          text=True, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    here = []
    for puzzle, limit in cases:
        r = sudokit.count(puzzle, limit=limit)
        b = sudokit.solve_batch([puzzle], limit=limit)
        here.append([r.count, r.nodes, r.guesses, r.board.to_line() if r.board else None,
                     int(b.counts[0]), int(b.guesses[0])])
    assert json.loads(done.stdout) == here
