"""LeetCode's format (seed 002): a list of ``n`` lists of ``n`` one-character strings.

As text it is JSON, ``[["5","3",".",...],...]``; Python's ``[['5','3','.',...],...]`` and
integers (``0`` = empty) read too. A text may hold several boards one after another, or one list
of boards. Written boards are compact JSON on one line, exactly as LeetCode shows them.

The reader is a small scanner rather than ``json.loads`` so that every error names its line and
column, including errors of shape (a row too short, a two-character string).
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass
from typing import Iterator, Sequence, Union

import numpy as np

from .. import symbols as alphabets
from ..errors import FormatError, quote
from ..shape import Shape
from ._data import BoardData, BoardLike, Position, value_rows
from ._symbols import Located, describe_char, to_values

_TOKEN = re.compile(
    r"""(?P<space>\s+)|(?P<open>\[)|(?P<close>\])|(?P<comma>,)"""
    r"""|(?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')|(?P<int>-?\d+)"""
)


@dataclass
class _Node:
    """A scanned value with the offset where it starts."""

    offset: int
    value: Union[str, int, list["_Node"]]
    end: int = 0  #: the offset just past the value


class _Scanner:
    def __init__(self, text: str, first_line: int) -> None:
        self.text = text
        self.first_line = first_line
        self.line_starts = [0] + [match.end() for match in re.finditer("\n", text)]
        self.pos = 0

    def where(self, offset: int) -> dict[str, int]:
        index = bisect.bisect_right(self.line_starts, offset) - 1
        return {"line": self.first_line + index, "column": offset - self.line_starts[index] + 1}

    def error(self, message: str, offset: int) -> FormatError:
        where = self.where(offset)
        return FormatError(message, line=where["line"], column=where["column"])

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def at_end(self) -> bool:
        self.skip_space()
        return self.pos >= len(self.text)

    def token(self) -> tuple[str, str, int]:
        self.skip_space()
        if self.pos >= len(self.text):
            return "end", "", self.pos
        match = _TOKEN.match(self.text, self.pos)
        if match is None:
            char = self.text[self.pos]
            raise self.error(
                f"unexpected {describe_char(char)} in a LeetCode board "
                f"(expected [, ], a comma or a quoted one-character string)",
                self.pos,
            )
        self.pos = match.end()
        return match.lastgroup or "", match.group(), match.start()

    def value(self) -> _Node:
        kind, text, offset = self.token()
        if kind == "open":
            items: list[_Node] = []
            while True:
                save = self.pos
                kind, text, item_offset = self.token()
                if kind == "close":
                    return _Node(offset, items, self.pos)
                if kind == "end":
                    raise self.error("unclosed '[': the text ends inside a list", offset)
                if items:
                    if kind != "comma":
                        raise self.error(f"expected ',' or ']', found {quote(text)}", item_offset)
                else:
                    self.pos = save
                items.append(self.value())
        if kind == "string":
            try:
                decoded = json.loads(text) if text[0] == '"' else json.loads('"' + text[1:-1].replace('"', '\\"') + '"')
            except json.JSONDecodeError:
                raise self.error(f"bad string {quote(text)}", offset) from None
            return _Node(offset, decoded, self.pos)
        if kind == "int":
            return _Node(offset, int(text), self.pos)
        if kind == "end":
            raise self.error("the text ends where a value was expected", offset)
        raise self.error(f"unexpected {quote(text)} where a value was expected", offset)


def _depth(node: _Node) -> int:
    depth = 0
    while isinstance(node.value, list) and node.value:
        depth += 1
        node = node.value[0]
    return depth


#: what :func:`boards` yields for each board: where its text starts (line, column), the text
#: itself (the whole line for a syntax error), and the board or the error
Found = tuple[int, int, str, Union[BoardData, FormatError]]


def boards(
    text: str, shape: Shape | None = None, symbols: str | None = None, *, line: int = 1
) -> Iterator[Found]:
    """Every board in a text, in order; a malformed board yields its error and reading goes on
    with the next top-level value. A syntax error yields its error once, and reading goes on at
    the next line that starts with ``[`` (what follows the error on its own lines cannot be
    trusted), or at a line that opens a board (``[[``) before the error when the broken value
    never closed."""
    scanner = _Scanner(text, line)
    lines = text.split("\n")
    while not scanner.at_end():
        start = scanner.where(scanner.pos)
        try:
            node = scanner.value()
            if not isinstance(node.value, list):  # not a board's start: the line is lost
                raise scanner.error("a board is a list of rows, each a list of cells", node.offset)
            nodes = node.value if _depth(node) >= 3 and isinstance(node.value, list) else [node]
            for board_node in nodes:
                where = scanner.where(board_node.offset)
                body = text[board_node.offset : board_node.end]
                yield where["line"], where["column"], body, _try_board(scanner, board_node, shape, symbols)
            save = scanner.pos
            start = scanner.where(save)
            kind, _, _ = scanner.token()
            if kind != "comma":
                scanner.pos = save
        except FormatError as error:
            yield start["line"], 1, lines[start["line"] - line] if text else "", error
            failed = scanner.where(max(scanner.pos, scanner.line_starts[start["line"] - line]))["line"]
            # a line that opens a board (``[[``) between the start and the error is the next
            # record (the broken one never closed); else the next line that starts with ``[``
            first = start["line"] - line + 1
            opening = next((n for n in range(first, failed - line + 1) if lines[n].lstrip().startswith("[[")), None)
            opened = lines[start["line"] - line].lstrip().startswith("[")
            scanner.pos = _next_board_line(scanner, lines, failed - line + 1 if opening is None else opening, opened)


def _next_board_line(scanner: _Scanner, lines: list[str], index: int, opened: bool) -> int:
    """The offset of the first line from ``index`` on that may start a value: not blank, and,
    where the broken value opened a list, not its closing ``]`` or ``,`` (a ``,`` after a
    value that opened none, ``s``, is a wrong record of its own); the end if none."""
    closers = "]," if opened else ""
    for number in range(index, len(lines)):
        if lines[number].strip() and lines[number].lstrip()[0] not in closers:
            return scanner.line_starts[number] + len(lines[number]) - len(lines[number].lstrip())
    return len(scanner.text)


def _try_board(scanner: _Scanner, node: _Node, shape, symbols) -> BoardData | FormatError:
    try:
        return _board(scanner, node, shape, symbols)
    except FormatError as error:
        return error


def parse(
    text: str, shape: Shape | None = None, symbols: str | None = None, *, line: int = 1
) -> BoardData:
    """Exactly one board from LeetCode-style text."""
    results = [board for _, _, _, board in boards(text, shape, symbols, line=line)]
    if not results:
        raise FormatError("no board in the text", line=line, column=1)
    first = results[0]
    if isinstance(first, FormatError):
        raise first
    if len(results) > 1:
        raise FormatError("more than one board in the text", line=line, column=1)
    return first


def positions(text: str, line: int = 1, column: int = 1) -> list[Position]:
    """Where each cell of one board's text (starting at ``line`` and ``column``) was written."""
    scanner = _Scanner(text, line)
    node = scanner.value()
    places = []
    for row in node.value if isinstance(node.value, list) else ():
        for cell in row.value if isinstance(row.value, list) else ():
            where = scanner.where(cell.offset)
            shift = column - 1 if where["line"] == line else 0
            places.append((where["line"], where["column"] + shift))
    return places


def _board(scanner: _Scanner, node: _Node, shape: Shape | None, symbols: str | None) -> BoardData:
    rows = node.value
    if not isinstance(rows, list) or not rows or not all(isinstance(r.value, list) for r in rows):
        raise scanner.error("a board is a list of rows, each a list of cells", node.offset)
    if shape is None:
        shape = Shape.for_size_or_none(len(rows))
        if shape is None:
            raise scanner.error(f"a board of {len(rows)} rows has no usual shape", node.offset)
    size = shape.size
    if len(rows) != size:
        raise scanner.error(f"a {shape.name} board has {size} rows, found {len(rows)}", node.offset)
    items: list[Located] = []
    numbers: list[int] = []
    for row in rows:
        cells = row.value
        assert isinstance(cells, list)
        if len(cells) != size:
            raise scanner.error(f"row has {len(cells)} cells, expected {size}", row.offset)
        for cell in cells:
            where = scanner.where(cell.offset)
            if isinstance(cell.value, list):
                raise scanner.error("expected a cell, found a list", cell.offset)
            if isinstance(cell.value, int):
                if not 0 <= cell.value <= size:
                    raise scanner.error(f"value {cell.value} is out of range 0-{size}", cell.offset)
                numbers.append(cell.value)
                items.append(("0", where["line"], where["column"]))
                continue
            if len(cell.value) != 1:
                raise scanner.error(
                    f"a cell is a one-character string, found {quote(cell.value)}", cell.offset
                )
            numbers.append(-1)
            items.append((cell.value, where["line"], where["column"]))
    if all(number >= 0 for number in numbers):
        return BoardData(np.array(numbers, dtype=np.uint8), shape, alphabets.default(size))
    values, alphabet = to_values(
        [item for item, number in zip(items, numbers) if number < 0], size, symbols
    )
    merged = np.array(numbers, dtype=np.int64)
    merged[merged < 0] = values
    return BoardData(merged.astype(np.uint8), shape, alphabet)


def from_lists(rows: Sequence[Sequence[str]], shape: Shape | None = None) -> BoardData:
    """A board from a Python list of lists of one-character strings (or integers)."""
    return parse(json.dumps([list(row) for row in rows]), shape)


def to_lists(board: BoardLike) -> list[list[str]]:
    """The board as LeetCode's list of lists, ``'.'`` for empty."""
    table = "." + board.symbols
    return [[table[value] for value in row] for row in value_rows(board)]


def format(board: BoardLike) -> str:
    """Compact one-line JSON, as LeetCode prints a board (no newline)."""
    return json.dumps(to_lists(board), separators=(",", ":"))

