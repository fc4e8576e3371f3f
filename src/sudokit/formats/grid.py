"""The grid format: ``n`` lines of ``n`` symbols (seed 001, POJ 3076: ``A``-``P``, ``-`` empty).

Puzzles follow one another with or without blank lines between them. Spaces between symbols,
``|`` box rules and separator lines such as ``------+-------+------`` or the box-drawing lines of
``str(board)`` are skipped, so a pretty-printed board reads back. A line of only ``-`` is a row
of empty cells, not a separator: separators contain ``+``, ``|`` or box-drawing characters.

Written boards are ``n`` lines followed by one empty line, exactly as seed 001 prints them.
"""

from __future__ import annotations

import re
from typing import Sequence

from ..errors import FormatError, quote
from ..shape import Shape
from ._data import BoardData, BoardLike, Position
from ._symbols import Located, block_shape, refuse_binary, to_values

#: characters that draw boxes inside a row and are never symbols
RULE_CHARS = frozenset("|") | frozenset(chr(code) for code in range(0x2500, 0x2580))
#: characters that draw the lines between bands; ``+`` and ``=`` only there, since ``+`` is a
#: symbol of the base64 alphabet that writes boards over 26x26
_CORNER_CHARS = RULE_CHARS | frozenset("+=")
_SEPARATOR_CHARS = _CORNER_CHARS | frozenset("- \t")

#: one line of input: its 1-based number and its text without the line end
NumberedLine = tuple[int, str]


#: HoDoKu's borders, ``.-------.-------.`` and ``'-------'-------'``: runs of three or more
#: dashes between corners that are blank symbols elsewhere (``.``) or never symbols
_HODOKU_BORDER = re.compile(r"\s*[.:'+|]?(?:[-=]{3,}[.:'+|])+[-=]{3,}[.:'+|]?\s*")


def is_separator(text: str) -> bool:
    """A line that only draws box edges (it holds ``+``, ``|`` or box drawing, and no symbol),
    or HoDoKu's border."""
    chars = set(text.strip())
    if bool(chars) and chars <= _SEPARATOR_CHARS and bool(chars & _CORNER_CHARS):
        return True
    return _HODOKU_BORDER.fullmatch(text) is not None


#: rules that only draw down a row (``|``, ``│``, ``║``, ...): a line of them alone and spaces
#: is no border between bands
_VERTICAL_CHARS = frozenset("|\u2502\u2503\u2506\u2507\u250a\u250b\u254e\u254f\u2551\u2575\u2577\u2579\u257b")


def is_border(text: str) -> bool:
    """A separator that draws across (``-+-``, ``├──┼``, HoDoKu's ``.---.``), not one of
    vertical rules alone: what a block of rows may start with, where a lone ``|`` is only junk."""
    return is_separator(text) and any(not char.isspace() and char not in _VERTICAL_CHARS for char in text)


def row_items(text: str, line: int) -> list[Located]:
    """The symbols of one grid row, with their columns; rules and spaces are skipped."""
    return [
        (char, line, column)
        for column, char in enumerate(text, 1)
        if not char.isspace() and char not in RULE_CHARS
    ]


def parse(
    text: str, shape: Shape | None = None, symbols: str | None = None, *, line: int = 1
) -> BoardData:
    """One board from ``n`` lines of ``n`` symbols; errors name the line and column."""
    numbered = [(line + offset, row) for offset, row in enumerate(text.splitlines())]
    rows = [(number, row) for number, row in numbered if row.strip() and not is_separator(row)]
    if not rows:
        raise FormatError("no grid rows where a board was expected", line=line, column=1)
    last_line = numbered[-1][0] if numbered else line
    return parse_rows(rows, shape, symbols, end_line=last_line + 1)


def size_of_row(text: str, line: int) -> int:
    """The board size a first grid row implies: its number of symbols."""
    return len(row_items(text, line))


def parse_rows(
    rows: Sequence[NumberedLine],
    shape: Shape | None,
    symbols: str | None,
    *,
    end_line: int,
) -> BoardData:
    """One board from its row lines (separators and blank lines already removed).

    ``end_line`` is the line where the record stopped, for the error when rows are missing.
    """
    for number, text in rows:
        refuse_binary(row_items(text, number))
    first_number, first_text = rows[0]
    shape = block_shape(rows, shape, size_of_row(first_text, first_number), "symbols")
    size = shape.size
    items: list[Located] = []
    for number, text in rows:
        row = row_items(text, number)
        if len(row) < size:
            column = row[-1][2] + 1 if row else 1
            raise FormatError(
                f"grid row has {len(row)} symbols, expected {size}: {quote(text)}",
                line=number,
                column=column,
            )
        if len(row) > size:
            raise FormatError(
                f"grid row has {len(row)} symbols, expected {size}; the extra text starts with "
                f"{quote(''.join(char for char, _, _ in row[size:]), 20)}",
                line=number,
                column=row[size][2],
            )
        items.extend(row)
    if len(rows) < size:
        raise FormatError(
            f"a {shape.name} grid needs {size} rows, found {len(rows)}",
            line=end_line,
            column=1,
        )
    values, alphabet = to_values(items, size, symbols)
    return BoardData(values, shape, alphabet)


def positions(text: str, line: int = 1) -> list[Position]:
    """Where each cell of a grid record (its lines joined by newlines) was written."""
    return [
        (number, column)
        for number, row in enumerate(text.splitlines(), line)
        if row.strip() and not is_separator(row)
        for _, number, column in row_items(row, number)
    ]


def format(board: BoardLike, blank: str = ".") -> str:
    """``n`` lines of ``n`` symbols, each ending in a newline."""
    table = blank + board.symbols
    size = board.shape.size
    cells = board.cells.tolist()
    return "".join(
        "".join(table[value] for value in cells[row * size : (row + 1) * size]) + "\n"
        for row in range(size)
    )
