"""The integer format: ``n`` lines of ``n`` integers, ``0`` = empty (seed 003, NOIP 2009).

Integers are separated by spaces, tabs or commas. Boards follow one another with or without
blank lines between them. Written boards are ``n`` lines of space-separated integers followed by
one empty line.
"""

from __future__ import annotations

import re
from typing import Sequence

import numpy as np

from .. import symbols as alphabets
from ..errors import FormatError, quote
from ..shape import Shape
from ._data import BoardData, BoardLike, Position, value_rows
from ._symbols import block_shape

_TOKEN = re.compile(r"[^\s,]+")

NumberedLine = tuple[int, str]


def tokens(text: str) -> list[tuple[str, int]]:
    """The fields of one line with their 1-based columns."""
    return [(match.group(), match.start() + 1) for match in _TOKEN.finditer(text)]


def is_integer(field: str) -> bool:
    """Whether a field is an integer ``int()`` reads: ASCII digits (``str.isdigit`` also
    takes ``²``, which ``int`` refuses)."""
    return field.isascii() and field.isdigit()


def looks_like_ints(text: str) -> bool:
    """A line of at least four fields that are all integers."""
    fields = tokens(text)
    return len(fields) >= 4 and all(is_integer(field) for field, _ in fields)


def parse(text: str, shape: Shape | None = None, *, line: int = 1) -> BoardData:
    """One board from ``n`` lines of ``n`` integers."""
    numbered = [(line + offset, row) for offset, row in enumerate(text.splitlines())]
    rows = [(number, row) for number, row in numbered if row.strip()]
    if not rows:
        raise FormatError("no rows of integers where a board was expected", line=line, column=1)
    return parse_rows(rows, shape, end_line=numbered[-1][0] + 1)


def parse_rows(rows: Sequence[NumberedLine], shape: Shape | None, *, end_line: int) -> BoardData:
    """One board from its row lines (blank lines already removed)."""
    shape = block_shape(rows, shape, len(tokens(rows[0][1])), "integers")
    size = shape.size
    values = np.zeros(size * size, dtype=np.uint8)
    for row_index, (number, text) in enumerate(rows):
        fields = tokens(text)
        if len(fields) != size:
            column = fields[size][1] if len(fields) > size else len(text.rstrip()) + 1
            raise FormatError(
                f"row has {len(fields)} integers, expected {size}: {quote(text)}",
                line=number,
                column=column,
            )
        for col, (field, column) in enumerate(fields):
            if not is_integer(field):
                raise FormatError(
                    f"expected an integer 0-{size}, found {quote(field)}", line=number, column=column
                )
            value = int(field)
            if value > size:
                raise FormatError(
                    f"value {value} is out of range: a {shape.name} board holds 0 (empty) to {size}",
                    line=number,
                    column=column,
                )
            values[row_index * size + col] = value
    if len(rows) < size:
        raise FormatError(
            f"a {shape.name} board needs {size} rows of integers, found {len(rows)}",
            line=end_line,
            column=1,
        )
    return BoardData(values, shape, alphabets.default(size))


def positions(text: str, line: int = 1) -> list[Position]:
    """Where each cell of an integer record (its lines joined by newlines) was written."""
    return [
        (number, column)
        for number, row in enumerate(text.splitlines(), line)
        for _, column in tokens(row)
    ]


def format(board: BoardLike) -> str:
    """``n`` lines of space-separated integers, each ending in a newline."""
    return "".join(" ".join(map(str, row)) + "\n" for row in value_rows(board))
