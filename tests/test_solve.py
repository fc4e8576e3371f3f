"""The search against the reference solver and the shared puzzle:count:solution file."""

import naive
import numpy as np
import pytest
from conftest import ENTRIES, sample_lines

import sudokit
from sudokit import Board, Shape, SolveStatus
from sudokit.results import Limits


def board_of(line: str) -> Board:
    return Board.from_line(line)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: f"{e.size}x{e.size}:{e.count}:{e.puzzle[:12]}")
def test_counts_and_solutions_agree_with_the_shared_file(entry):
    board = board_of(entry.puzzle)
    result = sudokit.count(board, limit=entry.count + 1)
    assert result.count == entry.count and result.exhausted
    if entry.count == 0:
        assert result.status is SolveStatus.NO_SOLUTION and result.board is None
    elif entry.count == 1:
        assert result.status is SolveStatus.SOLVED and result.unique
        assert result.board.to_line() == entry.solution
    else:
        assert result.status is SolveStatus.SEVERAL and result.unique is False
    if entry.count:
        assert result.board.is_solution_of(board)


@pytest.mark.parametrize("entry", [e for e in ENTRIES if e.count >= 2][:12], ids=lambda e: e.puzzle[:12])
def test_limits_cap_the_count(entry):
    board = board_of(entry.puzzle)
    assert sudokit.solve(board).status is SolveStatus.SOLVED
    capped = sudokit.count(board, limit=2)
    assert capped.count == 2 and not capped.exhausted and capped.status is SolveStatus.SEVERAL
    assert sudokit.is_unique(board).unique is False


@pytest.mark.parametrize(
    "name,box",
    [
        pytest.param("sample_9x9.txt", (3, 3), marks=pytest.mark.slow),
        pytest.param("sample_16x16.txt", (4, 4), marks=pytest.mark.slow),
        ("sample_25x25.txt", (5, 5)),
    ],
)
def test_samples_against_the_reference(name, box):
    """Solution validity on every sample; counts (to 2) against the reference where it is quick."""
    checked = 0
    for line in sample_lines(name):
        board = board_of(line)
        result = sudokit.count(board, limit=2, time_limit=5)
        if result.status is SolveStatus.UNKNOWN:
            continue  # a hard 25x25: the big-board work makes these fast
        puzzle = board.cells.tolist()
        if result.board is not None:
            assert naive.is_solution(result.board.cells.tolist(), puzzle, *box)
        if board.size <= 16 or board.givens > 300:
            assert result.count == naive.count(puzzle, *box, limit=2), line
            checked += 1
    assert checked >= min(5, len(sample_lines(name)) - 2)


SMALL_SHAPES = [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(2, 4)]


@pytest.mark.parametrize("shape", SMALL_SHAPES, ids=str)
@pytest.mark.parametrize("seed", range(6))
def test_every_solution_is_listed_once(shape, seed):
    """The lazy iterator yields exactly the reference's solutions, each once."""
    rng = np.random.default_rng(seed)
    full = next(naive.solutions([0] * shape.cells, shape.box_height, shape.box_width))
    keep = rng.random(shape.cells) < (0.25 if shape.size == 4 else 0.45)
    puzzle = [v if k else 0 for v, k in zip(full, keep)]
    expected = {tuple(s) for s in naive.solutions(puzzle, shape.box_height, shape.box_width)}
    board = Board(puzzle, shape)
    found = [tuple(b.cells.tolist()) for b in sudokit.solutions(board)]
    assert len(found) == len(set(found)) == len(expected)
    assert set(found) == expected
    assert sudokit.count(board, limit=10**6).count == len(expected)


def test_solutions_are_lazy():
    first_three = []
    for board in sudokit.solutions(Board.empty(9)):
        first_three.append(board)
        if len(first_three) == 3:
            break
    assert len(set(first_three)) == 3
    assert len(list(sudokit.solutions(Board.empty(9), limit=5))) == 5


def test_givens_that_clash_are_no_solution_with_the_reason():
    result = sudokit.solve("55" + "." * 79)
    assert result.status is SolveStatus.NO_SOLUTION and result.nodes == 0
    assert result.conflicts and result.conflicts[0].value == 5
    assert list(sudokit.solutions("55" + "." * 79)) == []


@pytest.mark.parametrize("size", [4, 6, 9, 16, 25])
def test_clashing_givens_in_every_kernel_are_reported(size):
    # the compiled check routes every board; the conflicts still come from Board.status()
    board = Board.empty(size)
    cells = board.cells.copy()
    cells[0] = cells[(size - 1) * size] = 2  # the same value twice in column 0
    result = sudokit.is_unique(Board(cells, board.shape))
    assert result.status is SolveStatus.NO_SOLUTION and result.exhausted and result.nodes == 0
    assert [(c.value, c.kind, c.index) for c in result.conflicts] == [(2, "column", 0)]


def test_parsed_and_solved_boards_are_read_only():
    puzzle = Board.from_line("." * 256)
    solution = sudokit.solve(puzzle).board
    for board in (puzzle, solution):
        with pytest.raises(ValueError):
            board.cells[0] = 1
    assert solution.symbols == puzzle.symbols


def test_a_complete_board_is_its_own_solution():
    solution = "527389416819426735436751829375692184194538267268174593643217958951843672782965341"
    result = sudokit.is_unique(solution)
    assert result.solved and result.unique and result.guesses == 0
    assert result.board.to_line() == solution


def test_node_limit_gives_unknown():
    hard = next(e.puzzle for e in ENTRIES if e.size == 9 and e.count == 1 and "..." in e.puzzle)
    result = sudokit.count(Board.empty(9), limit=10**9, node_limit=50)
    assert result.status is SolveStatus.SEVERAL and not result.exhausted
    none = sudokit.solve(hard, node_limit=1)
    assert none.nodes <= 1
    assert none.status in (SolveStatus.UNKNOWN, SolveStatus.SOLVED)


def test_time_limit_stops_a_long_count():
    result = sudokit.count(Board.empty(9), limit=10**12, time_limit=0.3)
    assert result.status is SolveStatus.SEVERAL and not result.exhausted and result.count > 1
    result = sudokit.count(Board.empty(16), limit=10**12, time_limit=0.2)
    assert result.elapsed < 30  # generous: a hang would blow far past this


def test_unknown_when_nothing_found_in_budget():
    result = sudokit.solve(Board.empty(64), node_limit=1)
    assert result.status is SolveStatus.UNKNOWN and result.board is None and result.unique is None


def test_big_empty_boards_solve():
    for size in (25, 36, 49, 64):
        shape = Shape.for_size_or_none(size) or Shape(7, 7)
        result = sudokit.solve(Board.empty(shape), time_limit=60)
        assert result.solved, size
        assert naive.is_solution(result.board.cells.tolist(), [0] * shape.cells, shape.box_height, shape.box_width)


def test_stack_grows_for_deep_searches():
    from sudokit.engines import GeneralSearch

    search = GeneralSearch(Board.empty(Shape(6, 6)))
    levels = len(search.stack)
    search.run(Limits(1))
    assert search.count == 1 and len(search.stack) >= levels


@pytest.mark.parametrize(
    "puzzle",
    [
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        [[5, 3, 0, 0, 7, 0, 0, 0, 0]] + [[0] * 9] * 8,
        [["5", "3", ".", ".", "7", ".", ".", ".", "."]] + [["."] * 9] * 8,
        np.zeros((9, 9), dtype=np.uint8),
        b"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    ],
    ids=["text", "ints", "leetcode", "array", "bytes"],
)
def test_every_input_kind_is_accepted(puzzle):
    assert sudokit.solve(puzzle).solved


def test_bad_inputs_raise_clear_errors():
    with pytest.raises(sudokit.FormatError, match="1:5"):
        sudokit.solve("1234x" + "." * 76)
    with pytest.raises(TypeError):
        sudokit.solve(42)
    with pytest.raises(ValueError, match="limit"):
        sudokit.count("." * 81, limit=0)


def test_result_repr_and_truth():
    result = sudokit.solve("." * 81)
    assert result and "solved" in repr(result)
    assert not sudokit.solve("55" + "." * 79)
