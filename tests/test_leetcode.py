import pytest

from sudokit import FormatError
from sudokit.leetcode import Solution, Unsolvable

EXAMPLE = [
    ["5", "3", ".", ".", "7", ".", ".", ".", "."],
    ["6", ".", ".", "1", "9", "5", ".", ".", "."],
    [".", "9", "8", ".", ".", ".", ".", "6", "."],
    ["8", ".", ".", ".", "6", ".", ".", ".", "3"],
    ["4", ".", ".", "8", ".", "3", ".", ".", "1"],
    ["7", ".", ".", ".", "2", ".", ".", ".", "6"],
    [".", "6", ".", ".", ".", ".", "2", "8", "."],
    [".", ".", ".", "4", "1", "9", ".", ".", "5"],
    [".", ".", ".", ".", "8", ".", ".", "7", "9"],
]
ANSWER = [
    ["5", "3", "4", "6", "7", "8", "9", "1", "2"],
    ["6", "7", "2", "1", "9", "5", "3", "4", "8"],
    ["1", "9", "8", "3", "4", "2", "5", "6", "7"],
    ["8", "5", "9", "7", "6", "1", "4", "2", "3"],
    ["4", "2", "6", "8", "5", "3", "7", "9", "1"],
    ["7", "1", "3", "9", "2", "4", "8", "5", "6"],
    ["9", "6", "1", "5", "3", "7", "2", "8", "4"],
    ["2", "8", "7", "4", "1", "9", "6", "3", "5"],
    ["3", "4", "5", "2", "8", "6", "1", "7", "9"],
]


def test_leetcode_example_is_filled_in_place():
    board = [row[:] for row in EXAMPLE]
    rows = list(board)
    assert Solution().solveSudoku(board) is None
    assert board == ANSWER
    assert all(a is b for a, b in zip(board, rows))  # the same row lists, filled in place


def test_sixteen_by_sixteen_in_letters(data_dir):
    lines = (data_dir / "poj3076_sample.in").read_text().split()
    board = [["." if ch == "-" else ch for ch in line] for line in lines]
    Solution().solveSudoku(board)
    assert ["".join(row) for row in board] == (data_dir / "poj3076_sample.out").read_text().split()


def test_no_solution_raises_and_leaves_the_board_alone():
    board = [row[:] for row in EXAMPLE]
    board[0][2] = "5"  # a second 5 in row 1
    before = [row[:] for row in board]
    with pytest.raises(Unsolvable, match="5 appears 2 times in row 1"):
        Solution().solveSudoku(board)
    assert board == before
    assert issubclass(Unsolvable, ValueError)


def test_malformed_board_is_a_format_error():
    board = [row[:] for row in EXAMPLE]
    board[3][4] = "x"
    with pytest.raises(FormatError, match="'x'"):
        Solution().solveSudoku(board)
    with pytest.raises(FormatError):
        Solution().solveSudoku([row[:8] for row in EXAMPLE])
