import numpy as np
import pytest

from sudokit import Board, Shape

SEED_000 = ".2738..1..1...6735.......293.5692.8...........6.1745.364.......9518...7..8..6534."


def test_value_semantics():
    a = Board.from_line(SEED_000)
    b = Board.from_line(SEED_000.replace(".", "0"))
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1
    assert a != Board.empty(9)
    with pytest.raises(ValueError):
        a.cells[0] = 3  # immutable


def test_alphabet_is_presentation_only():
    line = "1" + "." * 255
    assert Board.from_line(line) == Board.from_line("A" + "." * 255)


def test_access():
    board = Board.from_line(SEED_000)
    assert board[0, 1] == 2 and board[0, 0] == 0
    assert board.givens == 36 and board.size == 9
    assert board.rows()[1][:3] == [0, 1, 0]
    assert board.to_array().shape == (9, 9)
    with pytest.raises(IndexError):
        board[9, 0]


def test_with_values_returns_a_new_board():
    board = Board.from_line(SEED_000)
    changed = board.with_values({(0, 0): 5})
    assert changed[0, 0] == 5 and board[0, 0] == 0


def test_status_finds_repeated_givens_without_raising():
    board = Board.from_line("55" + "." * 79)
    status = board.status()
    assert not status.valid and not status
    kinds = sorted(conflict.kind for conflict in status.conflicts)
    assert kinds == ["box", "row"]
    assert "5 appears 2 times in row 1 (r1c1, r1c2)" in str(status)


def test_status_names_three_problems_and_counts_the_rest():
    status = Board.from_line("5" * 81).status()
    assert len(status.conflicts) == 27
    text = str(status)
    assert text.count(" appears ") == 3 and text.endswith("; and 24 more")
    assert text.startswith("5 appears 9 times in row 1 (r1c1, ")


def test_status_of_a_solution():
    solution = Board.from_line("527389416819426735436751829375692184194538267268174593643217958951843672782965341")
    assert solution.status().solved
    assert solution.is_solution_of(Board.from_line(SEED_000))
    assert not solution.is_solution_of(Board.from_line("1" + "." * 80))


def test_constructor_checks_values_and_sizes():
    with pytest.raises(ValueError, match="0 \\(empty\\) to 9"):
        Board([10] + [0] * 80)
    with pytest.raises(ValueError, match="square"):
        Board([0] * 80)
    with pytest.raises(ValueError, match="cells"):
        Board([0] * 16, Shape(3, 3))


def test_str_draws_boxes_and_rectangular_shapes():
    board = Board(np.arange(36) % 7, Shape(2, 3))
    drawn = str(board)
    lines = drawn.splitlines()
    assert len(lines) == 6 + 2 + 2  # rows, top/bottom rules, 2 box rules
    assert lines[0].startswith("┌") and "┬" in lines[0]
    assert repr(board).startswith("Board.from_line(")


def test_repr_names_a_non_default_shape_and_alphabet():
    board = Board(np.zeros(36), Shape(3, 2))
    assert "shape=Shape(3, 2)" in repr(board)
    hexa = Board.from_line("0" + "." * 255)
    assert "symbols='0123456789ABCDEF'" in repr(hexa)


def test_svg_picture():
    svg = Board.from_line(SEED_000)._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<text") == 36


def test_pickles():
    import pickle

    board = Board.from_line("1" + "." * 255)
    again = pickle.loads(pickle.dumps(board))
    assert again == board and again.symbols == board.symbols


def test_from_ints_takes_text_or_rows():
    rows = [[1, 0, 0, 0], [0, 0, 3, 0], [0, 0, 0, 0], [0, 4, 0, 0]]
    text = "".join(" ".join(map(str, row)) + "\n" for row in rows)
    assert Board.from_ints(rows) == Board.from_ints(text) == Board.from_rows(rows)


def test_a_solved_boards_picture_sets_the_solvers_values_apart():
    import sudokit

    puzzle = Board.from_line(SEED_000)
    solution = sudokit.solve(puzzle).board
    svg = solution.to_svg(puzzle)
    assert svg.count('fill="#1f5fbf"') == 81 - puzzle.givens  # filled cells in blue
    assert 'fill="#1f5fbf"' not in puzzle._repr_svg_()


def test_conflicts_are_written_in_the_boards_alphabet():
    board = Board.from_line("AA" + "." * 254)
    conflict = board.status().conflicts[0]
    assert conflict.symbol == "A" and str(conflict).startswith("A appears 2 times in row 1")


@pytest.mark.parametrize(
    "text,cell,where",
    [
        (SEED_000, (0, 1), (1, 2)),
        ("5 3 . . 7 . . . .\n" + "6 . . 1 9 5 . . .\n" + ". 9 8 . . . . 6 .\n" * 7, (1, 3), (2, 7)),
        ("7 0 0 9 0 0 0 0 1\n" * 9, (2, 3), (3, 7)),
        ('[["5","3",".",".","7",".",".",".","."]' + ',[".",".",".",".",".",".",".",".","."]' * 8 + "]", (0, 1), (1, 7)),
    ],
)
def test_a_record_knows_where_each_cell_was_written(text, cell, where):
    import sudokit

    (record,) = sudokit.read_text(text)
    assert record.position(*cell) == where
