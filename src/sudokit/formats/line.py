"""The one-line format: a board as ``n*n`` symbols on one line (seed 000, POJ 3074).

``.``, ``-`` and ``0`` (where ``0`` is not a value) mark empty cells. The board size comes from
the length: 16 symbols make a 4x4 board, 81 a 9x9, 256 a 16x16, 625 a 25x25.
"""

from __future__ import annotations

import math

from ..errors import FormatError, quote
from ..shape import MAX_SIZE, Shape
from ._data import BoardData, BoardLike, Position
from ._symbols import Located, plain_values, refuse_binary, to_values

#: line lengths that make a board of a usual shape: 16, 36, 64, 81, 100, 144, ...
BOARD_LENGTHS = {
    size * size: size for size in range(4, MAX_SIZE + 1) if Shape.for_size_or_none(size)
}


def parse(
    text: str, shape: Shape | None = None, symbols: str | None = None, *, line: int = 1
) -> BoardData:
    """One board from one line of text; errors name ``line`` and the column.

    Spaces between symbols are ignored, so ``5 3 . . 7 ...`` reads too.
    """
    body = text.rstrip("\r\n")
    if body.isascii() and body.isprintable() and " " not in body:  # no blank, no binary: fast
        cells = len(body)
        size = shape.size if shape is not None else BOARD_LENGTHS.get(cells)
        if size is not None and cells == size * size:
            plain = plain_values(body, size, symbols)
            if plain is not None:
                return BoardData(plain[0], shape or Shape.for_size(size), plain[1])
    if "\n" in body:
        raise FormatError("a line-format board must be on one line", line=line + 1, column=1)
    items = [(char, line, column) for column, char in enumerate(body, 1) if not char.isspace()]
    if not items:
        raise FormatError("empty line where a board was expected", line=line, column=1)
    refuse_binary(items)
    if shape is None:
        shape = _shape_for_length(items)
    if len(items) != shape.cells:
        raise _wrong_length(items, shape.cells, f"for a {shape.name} board")
    values, alphabet = to_values(items, shape.size, symbols)
    return BoardData(values, shape, alphabet)


def _shape_for_length(items: list[Located]) -> Shape:
    length = len(items)
    if length in BOARD_LENGTHS:
        return Shape.for_size(BOARD_LENGTHS[length])
    nearest = min(BOARD_LENGTHS, key=lambda cells: (abs(cells - length), cells))
    if abs(nearest - length) <= max(2, nearest // 10):
        size = BOARD_LENGTHS[nearest]
        raise _wrong_length(items, nearest, f"for a {size}x{size} board")
    root = math.isqrt(length)
    why = f"; {length} = {root}x{root} but {root} has no box shape" if root * root == length else ""
    _, line, column = items[0]
    raise FormatError(
        f"a line of {length} symbols is not a board (a board line has n*n symbols: "
        f"16, 36, 64, 81, 100, 144, 256, 625, ...){why}",
        line=line,
        column=column,
    )


def _wrong_length(items: list[Located], expected: int, what: str) -> FormatError:
    if len(items) < expected:
        _, line, column = items[-1]
        return FormatError(
            f"line ends after {len(items)} symbols; expected {expected} {what}: "
            f"{quote(''.join(char for char, _, _ in items))}",
            line=line,
            column=column + 1,
        )
    extra = "".join(char for char, _, _ in items[expected:])
    _, line, column = items[expected]
    return FormatError(
        f"{len(items) - expected} symbol(s) too many: expected {expected} {what}; "
        f"the extra text starts with {quote(extra, 20)}",
        line=line,
        column=column,
    )


def positions(text: str, line: int = 1) -> list[Position]:
    """Where each cell of a one-line record was written, for messages about cells."""
    return [(line, column) for column, char in enumerate(text, 1) if not char.isspace()]


def format(board: BoardLike, blank: str = ".") -> str:
    """The board on one line (no newline), in its alphabet."""
    table = blank + board.symbols
    return "".join(table[value] for value in board.cells.tolist())
