"""The boxed grid for a person: what ``str(board)`` prints.

Drawn with Unicode box-drawing characters so that it can never be confused with a grid row
(``-`` is a blank symbol); the grid reader skips those characters, so this form reads back.
"""

from __future__ import annotations

from ._data import BoardLike, value_rows


def format(board: BoardLike, blank: str = ".") -> str:
    """The board drawn in boxes, each line ending in a newline."""
    shape = board.shape
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
