"""The candidate grid: a board as pencil marks, ``n`` lines of ``n`` cells.

Each cell is written as its candidates run together (``1`` ``37`` ``4689``), cells separated by
spaces; a cell with one symbol is a filled cell, ``.`` a cell with every value still open,
``-`` one with none left.
``|`` box rules and separator lines (``------+------``, ``.-----.-----.``) are skipped, so the
candidate grids of HoDoKu and Sudoku Explainer read as they print::

    .----------------.----------------.
    | 5    3    12   | 6    7    248  |
    ...

Records are ``n`` rows each, blank lines between them optional. Written boards are ``n``
lines with the cells padded to a column each, followed by one empty line.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .. import symbols as alphabets
from ..errors import FormatError, quote
from ..shape import Shape
from ._data import BoardData, BoardLike, Position
from ._symbols import block_shape, describe_char, refuse_binary, user_alphabet
from .grid import RULE_CHARS

#: one cell of a row: its text and where it starts (line, column)
Token = tuple[str, int, int]


def tokens(text: str, line: int) -> list[Token]:
    """The cells of one row, with where each starts; rules are skipped."""
    found: list[Token] = []
    start = -1
    for column, char in enumerate(text + " ", 1):
        if char.isspace() or char in RULE_CHARS:
            if start >= 0:
                found.append((text[start - 1 : column - 1], line, start))
                start = -1
        elif start < 0:
            start = column
    return found


def is_separator(text: str) -> bool:
    """A line that only draws the lines between bands (no symbol, some ``-`` or ``=``)."""
    stripped = text.strip()
    return bool(stripped) and not any(char.isalnum() for char in stripped) and any(char in "-=" for char in stripped)


def looks_like(text: str) -> bool:
    """Whether a row is a candidate grid's: ``n`` cells for a usual ``n``, one of them of
    several symbols, none repeating a symbol."""
    cells = [cell for cell, _, _ in tokens(text, 1)]
    if not Shape.for_size_or_none(len(cells)) or not any(len(cell) > 1 for cell in cells):
        return False
    shown = set("".join(cells)) - set(".-")
    if len(shown) > len(cells):  # "ku 9 4 3": more symbols than a row of 4 has
        return False
    if len(cells) <= 9 and all(char.isdigit() for char in shown):  # "- 5 03 -": no 4x4 digits
        if not (shown <= set("123456789"[: len(cells)]) or shown <= set("0123456789"[: len(cells)])):
            return False
    elif len(cells) <= 9 and any(char.isdigit() for char in shown):  # "k9 . 6 3": up to 9x9, one kind
        return False
    return all(len(set(cell)) == len(cell) <= len(cells) and (cell.isalnum() or cell in ".-") for cell in cells)


def parse_rows(rows: Sequence[tuple[int, str]], shape: Shape | None, symbols: str | None, *, end_line: int) -> BoardData:
    """One board from its row lines (separators and blank lines already removed)."""
    cells: list[Token] = []
    first_number, first_text = rows[0]
    first_row = tokens(first_text, first_number)
    refuse_binary([(char, first_number, column) for column, char in enumerate(first_text, 1)])
    shape = block_shape(rows, shape, len(first_row), "cells")
    n = shape.size
    for number, text in rows:
        refuse_binary([(char, number, column) for column, char in enumerate(text, 1)])
        row = tokens(text, number)
        if len(row) != n:
            at = row[n][2] if len(row) > n else (row[-1][2] + len(row[-1][0]) if row else 1)
            raise FormatError(f"a candidate grid row has {len(row)} cells, expected {n}: {quote(text)}", line=number, column=at)
        cells.extend(row)
    if len(rows) < n:
        raise FormatError(f"a {shape.name} candidate grid needs {n} rows, found {len(rows)}", line=end_line, column=1)
    used = {char for cell, _, _ in cells for char in cell} - {"."}
    alphabet = user_alphabet(symbols, n, first_number, 1) if symbols else alphabets.infer(n, used)
    if alphabet is None:
        alphabet = alphabets.default(n)
    lookup = {char: value for value, char in enumerate(alphabet)}
    values = np.zeros(n * n, dtype=np.uint8)
    masks = np.full(n * n, (1 << n) - 1, dtype=np.uint64)
    for index, (cell, number, column) in enumerate(cells):
        if cell == ".":
            continue
        if cell == "-":  # no candidate left
            masks[index] = 0
            continue
        mask = 0
        for offset, char in enumerate(cell):
            if char not in lookup:
                raise FormatError(
                    f"unexpected {describe_char(char)} in the candidates of r{index // n + 1}c{index % n + 1}; "
                    f"a {n}x{n} board uses {alphabets.describe(alphabet)}",
                    line=number,
                    column=column + offset,
                )
            if mask >> lookup[char] & 1:
                raise FormatError(
                    f"r{index // n + 1}c{index % n + 1} lists candidate {char!r} twice", line=number, column=column + offset
                )
            mask |= 1 << lookup[char]
        if len(cell) == 1:
            values[index] = lookup[cell] + 1
        masks[index] = mask
    return BoardData(values, shape, alphabet, candidates=masks)


def positions(text: str, line: int = 1) -> list[Position]:
    """Where each cell of a candidate-grid record (its lines joined by newlines) starts."""
    return [
        (number, column)
        for number, row in enumerate(text.splitlines(), line)
        if row.strip() and not is_separator(row)
        for _, number, column in tokens(row, number)
    ]


def format(board: BoardLike) -> str:
    """``n`` lines of candidates, cells padded to a column each, each line ending in a
    newline; a filled cell shows its value."""
    n = board.shape.size
    alphabet = board.symbols
    marks = board.candidates
    cells = []
    for cell, value in enumerate(board.cells.tolist()):
        if value:
            cells.append(alphabet[value - 1])
            continue
        mask = (1 << n) - 1 if marks is None else int(marks[cell])
        cells.append("".join(char for v, char in enumerate(alphabet) if mask >> v & 1) or "-")
    width = max(len(cell) for cell in cells)
    return "".join(" ".join(cell.ljust(width) for cell in cells[r * n : (r + 1) * n]).rstrip() + "\n" for r in range(n))
