"""LeetCode 37's interface (seed 002): ``Solution().solveSudoku(board)`` fills ``board`` in place.

``board`` is a list of ``n`` lists of ``n`` one-character strings, ``"."`` for empty; any size
sudokit reads works (9x9 with ``1``-``9``, 16x16 with ``A``-``P``, ...), and the answer is
written in the board's own symbols.

LeetCode promises a puzzle with exactly one solution; where a board breaks that promise this
class says so instead of returning a half-filled board: a board with no solution raises
:class:`Unsolvable` (a ``ValueError``) and is left as it was; a malformed board raises
:class:`sudokit.FormatError`. With several solutions, the first one found is written.
"""

from __future__ import annotations

from .board import Board, describe_problems
from .solver import solve


class Unsolvable(ValueError):
    """The board has no solution."""


class Solution:
    """LeetCode's class: ``Solution().solveSudoku(board)``."""

    def solveSudoku(self, board: list[list[str]]) -> None:  # noqa: N802 (LeetCode's name)
        """Fill every ``"."`` of ``board`` in place. Returns None, as LeetCode expects."""
        puzzle = Board.from_leetcode(board)
        result = solve(puzzle)
        if result.board is None:
            conflicts = describe_problems(result.conflicts)
            raise Unsolvable("the board has no solution" + (f": {conflicts}" if conflicts else ""))
        for row, values in zip(board, result.board.to_leetcode()):
            row[:] = values
