"""The Sukaku line: a board as pencil marks, ``n**3`` characters on one line.

Cell by cell, row by row, ``n`` characters each: the symbol of value ``v`` at position
``v - 1`` where ``v`` is still a candidate, ``.`` or ``0`` where it is not (``0`` only where it
is not a symbol). tdoku and SukakuExplainer read this 729-character form for 9x9. A Sukaku has
no givens: a cell with one candidate is still a candidate, and solving keeps to the marks.

Written boards give each cell its candidates, a filled cell its value alone.
"""

from __future__ import annotations

import numpy as np

from .. import symbols as alphabets
from ..errors import FormatError
from ..shape import MAX_SIZE, Shape
from ._data import BoardData, BoardLike, Position
from ._symbols import describe_char, refuse_binary, user_alphabet

#: line lengths of a Sukaku for a board of a usual shape: 64, 216, 512, 729, ...
SUKAKU_LENGTHS = {size**3: size for size in range(4, MAX_SIZE + 1) if Shape.for_size_or_none(size)}


def _size_of(length: int, shape: Shape | None) -> int | None:
    if shape is not None:
        return shape.size if shape.size**3 == length else None
    return SUKAKU_LENGTHS.get(length)


def _alphabet(size: int, symbols: str | None) -> str:
    return alphabets.check(symbols, size) if symbols else alphabets.default(size)


def looks_like(text: str, shape: Shape | None = None, symbols: str | None = None) -> bool:
    """Whether one line is a Sukaku: ``n**3`` characters, each a blank or the symbol of its
    own position's value, with at least one candidate. (A board line of that length can
    only match where its values keep to one per column, with at most ``n`` givens.) Whitespace
    inside does not count, as the reader skips it."""
    body = "".join(text.split())
    size = _size_of(len(body), shape)
    if size is None:
        return False
    try:
        alphabet = _alphabet(size, symbols)
    except ValueError:
        return False
    blanks = set(alphabets.BLANKS) | ({alphabets.ZERO} if alphabets.ZERO not in alphabet else set())
    marked = False
    for index, char in enumerate(body):
        if char == alphabet[index % size]:
            marked = True
        elif char not in blanks:
            return False
    return marked


def parse(text: str, shape: Shape | None = None, symbols: str | None = None, *, line: int = 1) -> BoardData:
    """One board from a Sukaku line: no givens, every cell's candidates. Errors name the line
    and the column of the character at fault."""
    body = text.rstrip("\r\n")
    items = [(char, line, column) for column, char in enumerate(body, 1) if not char.isspace()]
    if not items:
        raise FormatError("empty line where a Sukaku was expected", line=line, column=1)
    refuse_binary(items)
    size = _size_of(len(items), shape)
    if size is None:
        root = round(len(items) ** (1 / 3))
        expected = f"{shape.size ** 3} for a {shape.name} board" if shape else "n**3: 64, 216, 512, 729, ..."
        why = ""
        if root**3 == len(items) and shape is not None:
            why = f" (a {root}x{root} board's; --shape says {shape.name})"
        elif root**3 == len(items):
            why = f" ({root}**3, but {root} has no box shape)"
        _, at_line, column = items[0]
        raise FormatError(
            f"a Sukaku line of {len(items)} characters{why}: expected {expected}, each cell's candidates",
            line=at_line,
            column=column,
        )
    shape = shape or Shape.for_size(size)
    alphabet = user_alphabet(symbols, size, line, items[0][2]) if symbols else alphabets.default(size)
    blanks = set(alphabets.BLANKS) | ({alphabets.ZERO} if alphabets.ZERO not in alphabet else set())
    masks = np.zeros(size * size, dtype=np.uint64)
    for index, (char, at_line, column) in enumerate(items):
        cell, value = divmod(index, size)
        if char == alphabet[value]:
            masks[cell] |= np.uint64(1 << value)
        elif char not in blanks:
            expected = f"{alphabet[value]!r} (value {value + 1} of r{cell // size + 1}c{cell % size + 1}) or '.'"
            raise FormatError(
                f"unexpected {describe_char(char)} in a Sukaku line: expected {expected}", line=at_line, column=column
            )
    return BoardData(np.zeros(size * size, dtype=np.uint8), shape, alphabet, candidates=masks)


def positions(text: str, line: int = 1, size: int = 9) -> list[Position]:
    """Where each cell of a Sukaku record starts (its first character)."""
    columns = [column for column, char in enumerate(text, 1) if not char.isspace()]
    return [(line, columns[cell * size]) for cell in range(len(columns) // size)]


def format(board: BoardLike, blank: str = ".") -> str:
    """The Sukaku line (no newline): each cell's candidates, a filled cell's value alone."""
    size = board.shape.size
    alphabet = board.symbols
    marks = board.candidates
    out = []
    for cell, value in enumerate(board.cells.tolist()):
        if value:
            mask = 1 << (value - 1)
        elif marks is not None:
            mask = int(marks[cell])
        else:
            mask = (1 << size) - 1
        out.append("".join(alphabet[v] if mask >> v & 1 else blank for v in range(size)))
    return "".join(out)


