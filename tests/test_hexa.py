"""The 16x16 kernel (4x4 boxes), checked against the general kernel: with the general
kernel's branching (``hexa.CELL``) and the same rules (singles, or singles and locked
candidates) both must walk the same tree (same counts, nodes, guesses and solutions in the same order); with its own default
(dom/wdeg) the same counts and solutions, found in another order. Also against the slow
reference on boards with several solutions, and its limits, budgets, resumption and batch
entry.

Data: ``data/sample_16x16.txt`` (goomii17 and janko.at puzzles) and the 16x16 lines of
``data/puzzles.txt`` (see ``data/SOURCES.md``); boards with several solutions are made here
from their solutions, seeded.
"""

from __future__ import annotations

import naive
import numpy as np
import pytest
from conftest import ENTRIES, sample_lines

import sudokit
from sudokit import engines
from sudokit.kernels.search import general
from sudokit.kernels.search import hexa
from sudokit.kernels.search import protocol as P
from sudokit.results import Limits

SAMPLES = sample_lines("sample_16x16.txt")
UNIQUE = [e for e in ENTRIES if e.size == 16]
ALPHABET = "ABCDEFGHIJKLMNOP"


def _general(function, *args, **kwargs):
    """``function`` with 16x16 boards sent to the general kernel."""
    saved = engines.USE_SHAPE_KERNELS
    engines.USE_SHAPE_KERNELS = False
    try:
        return function(*args, **kwargs)
    finally:
        engines.USE_SHAPE_KERNELS = saved


def _same_tree(puzzle: str, limit: int) -> None:
    """The 16x16 kernel with the general kernel's branching walks the general kernel's tree,
    with singles alone and with locked candidates."""
    board = sudokit.Board.from_line(puzzle)
    for rules, general_rules in ((0, 0), (hexa.LOCKED, general.LOCKED)):
        fast = engines.HexaSearch(board, hexa.CELL, rules)
        options = general.options_for(board.shape, general_rules, general.CELL)
        slow = engines.GeneralSearch(board, options, engine="dfs")
        codes = fast.run(Limits(limit)), slow.run(Limits(limit))
        assert codes[0] == codes[1]
        assert (fast.count, fast.nodes, fast.guesses) == (slow.count, slow.nodes, slow.guesses), (puzzle, rules)
        if fast.count:
            assert fast.solution() == slow.solution()


def _holes(solution: str, keep: float, seed: int) -> str:
    """``solution`` with all but about ``keep`` of its cells emptied (seeded)."""
    rng = np.random.default_rng(seed)
    return "".join(ch if rng.random() < keep else "." for ch in solution)


def _several() -> list[str]:
    """Boards with from a few to thousands of solutions: solved samples, mostly emptied."""
    boards = []
    for k, entry in enumerate(UNIQUE[:6]):
        for keep in (0.7, 0.5, 0.35):
            boards.append(_holes(entry.solution, keep, seed=100 * k + int(keep * 100)))
    return boards


SEVERAL = _several()


def test_hexa_kernel_is_chosen_for_4x4_boxes_only():
    assert isinstance(engines.search_for(sudokit.Board.empty(16)), engines.HexaSearch)
    for shape in (sudokit.Shape(2, 8), sudokit.Shape(8, 2), sudokit.Shape(3, 4), sudokit.Shape(5, 5)):
        assert isinstance(engines.search_for(sudokit.Board.empty(shape)), engines.GeneralSearch)


@pytest.mark.parametrize("limit", [1, 2])
def test_same_tree_as_the_general_kernel(limit):
    for puzzle in SAMPLES + [e.puzzle for e in UNIQUE]:
        _same_tree(puzzle, limit)


@pytest.mark.parametrize("limit", [1, 2])
def test_same_answers_as_the_general_kernel(limit):
    for puzzle in SAMPLES + [e.puzzle for e in UNIQUE]:
        fast = sudokit.count(puzzle, limit=limit)
        general = _general(sudokit.count, puzzle, limit=limit)
        assert (fast.count, fast.exhausted, fast.status) == (general.count, general.exhausted, general.status)
        assert fast.board == general.board  # every sample has one solution
        assert fast.status is sudokit.SolveStatus.SOLVED


def test_unique_solutions_match_the_published_ones():
    for entry in UNIQUE:
        result = sudokit.is_unique(entry.puzzle)
        assert result.unique is True
        assert result.board.to_line() == entry.solution


@pytest.mark.parametrize("index", range(len(SEVERAL)))
def test_counts_with_several_solutions(index):
    puzzle = SEVERAL[index]
    _same_tree(puzzle, 300)
    fast = sudokit.count(puzzle, limit=300)
    general = _general(sudokit.count, puzzle, limit=300)
    assert (fast.count, fast.exhausted) == (general.count, general.exhausted)
    boards = list(sudokit.solutions(puzzle, limit=300))
    lines = {b.to_line() for b in boards}
    assert len(lines) == len(boards) == fast.count
    if fast.exhausted:  # all of them: the same set, whatever the order
        assert lines == {b.to_line() for b in _general(list, sudokit.solutions(puzzle))}
    values = naive.parse_line(puzzle, ALPHABET)
    for board in boards[:5]:
        assert naive.is_solution(board.cells.reshape(-1).tolist(), values, 4, 4)


def test_counts_agree_with_the_reference():
    # near-complete boards: the reference enumerates them in well under a second
    for k, entry in enumerate(UNIQUE[:4]):
        puzzle = _holes(entry.solution, 0.8, seed=7 + k)
        expected = naive.count(naive.parse_line(puzzle, ALPHABET), 4, 4, limit=50)
        assert sudokit.count(puzzle, limit=50).count == expected


def _peers(cell: int) -> list[int]:
    row, col = divmod(cell, 16)
    return [
        p for p in range(256)
        if p // 16 == row or p % 16 == col or (p // 64 == row // 4 and (p % 16) // 4 == col // 4)
    ]


def test_no_solution():
    # a unique puzzle with a wrong value (breaking no rule) in an open cell has no solution
    for entry in UNIQUE[:5]:
        cells = list(entry.puzzle)
        cell = cells.index(".")
        seen = {cells[p] for p in _peers(cell)}
        cells[cell] = next(ch for ch in ALPHABET if ch not in seen and ch != entry.solution[cell])
        board = "".join(cells)
        assert sudokit.Board.from_line(board).status().valid
        result = sudokit.is_unique(board)
        assert result.status is sudokit.SolveStatus.NO_SOLUTION and result.exhausted
        _same_tree(board, 2)


def test_empty_board_and_limits():
    empty = "." * 256
    result = sudokit.count(empty, limit=100)
    assert result.count == 100 and not result.exhausted
    values = [0] * 256
    assert naive.is_solution(result.board.cells.reshape(-1).tolist(), values, 4, 4)
    _same_tree(empty, 100)


def test_node_budget_and_resumption():
    puzzle = SEVERAL[-1]
    whole = sudokit.count(puzzle, limit=200)
    search = engines.HexaSearch(sudokit.Board.from_line(puzzle))
    codes = []
    while True:
        code = search.step(200, 3, 1)
        codes.append(code)
        if code != P.BUDGET:
            break
    assert P.BUDGET in codes
    assert (search.count, search.nodes, search.guesses) == (whole.count, whole.nodes, whole.guesses)
    assert search.solution() == whole.board
    short = sudokit.count(puzzle, limit=200, node_limit=5)
    assert short.status is sudokit.SolveStatus.UNKNOWN or short.nodes <= 5


def test_stack_grows_when_a_search_goes_deep():
    puzzle = "." * 256
    search = engines.HexaSearch(sudokit.Board.from_line(puzzle))
    search.stack = search.stack[: hexa.SLOTS].copy()  # one level: every branch must grow it
    search.branch_cell = search.branch_cell[:1].copy()
    search.branch_rest = search.branch_rest[:1].copy()
    assert search.run(Limits(3)) == P.LIMIT
    whole = sudokit.count(puzzle, limit=3)
    assert (search.count, search.nodes, search.solution()) == (whole.count, whole.nodes, whole.board)
    # the batch kernel grows its own stack the same way
    empty = np.zeros((1, 256), dtype=np.uint8)
    batch = sudokit.solve_batch(empty, limit=3)
    assert batch.counts[0] == 3 and batch.nodes[0] == whole.nodes


def test_batch_matches_one_by_one():
    puzzles = SAMPLES[:20] + SEVERAL[:6]
    for limit in (1, 2, 7):
        batch = sudokit.solve_batch(puzzles, limit=limit)
        for k, puzzle in enumerate(puzzles):
            one = sudokit.count(puzzle, limit=limit)
            assert batch.counts[k] == one.count
            assert batch.nodes[k] == one.nodes and batch.guesses[k] == one.guesses
            assert bool(batch.exhausted[k]) == one.exhausted
            assert batch.solutions[k].tolist() == one.board.cells.reshape(-1).tolist()
    budgeted = sudokit.solve_batch(SEVERAL[2::3], limit=1000, node_limit=10)
    assert (budgeted.nodes <= 11).all() and not budgeted.exhausted.any()
