"""The boxed grid for a person: what ``str(board)`` prints.

Drawn with Unicode box-drawing characters so that it can never be confused with a grid row
(``-`` is a blank symbol); the grid reader skips those characters, so this form reads back.
"""

from __future__ import annotations

from typing import NamedTuple

from ._data import BoardLike, value_rows


class _Frame(NamedTuple):
    """A frame of one box over the whole board (what a jigsaw is drawn in)."""

    size: int

    @property
    def box_height(self) -> int:
        return self.size

    @property
    def box_width(self) -> int:
        return self.size


def format(board: BoardLike, blank: str = ".") -> str:
    """The board drawn in boxes, each line ending in a newline (a jigsaw's regions are not
    boxes: it is drawn in one frame)."""
    shape = board.shape
    geometry = board.geometry
    if geometry is not None and not geometry.is_boxed(shape):
        shape = _Frame(shape.size)  # type: ignore[assignment]
    table = blank + board.symbols
    segment = "─" * (2 * shape.box_width + 1)
    stacks = shape.size // shape.box_width

    def rule(left: str, middle: str, right: str) -> str:
        return left + middle.join([segment] * stacks) + right + "\n"

    lines = [rule("┌", "┬", "┐")]
    for row, values in enumerate(value_rows(board)):
        if row and row % shape.box_height == 0:
            lines.append(rule("├", "┼", "┤"))
        boxes = (
            " ".join(table[v] for v in values[start : start + shape.box_width])
            for start in range(0, shape.size, shape.box_width)
        )
        lines.append("│ " + " │ ".join(boxes) + " │\n")
    lines.append(rule("└", "┴", "┘"))
    return "".join(lines)
