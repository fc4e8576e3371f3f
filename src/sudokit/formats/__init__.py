"""Text formats: reading streams of puzzles, detecting their format, writing boards back.

========== =================================================== ==========================
format     one record                                          written as
========== =================================================== ==========================
line       ``n*n`` symbols on one line (seed 000)               the line
grid       ``n`` lines of ``n`` symbols (seed 001)              ``n`` lines + empty line
ints       ``n`` lines of ``n`` integers, 0 = empty (seed 003)  ``n`` lines + empty line
leetcode   ``[["5","3",".",...],...]`` (seed 002)               one line of JSON
pretty     the boxed grid of ``str(board)``                    boxed grid + empty line
sukaku     ``n**3`` pencil marks on one line (tdoku, SukakuEx.)  the line
candidates ``n`` lines of ``n`` cells' candidates (HoDoKu, SE)  ``n`` lines + empty line
variant    givens, jigsaw layout, ``15:r1c1,r1c2`` cages, words  the line
json       ``{"givens": ..., "regions": ..., "cages": ...}``     one line of JSON
layout     ``n*n`` region labels: an empty jigsaw               the variant line
========== =================================================== ==========================

The last five carry a variant's rules: pencil marks (``sukaku``, ``candidates``), jigsaw
regions, extra houses and killer cages (``variant``, ``json``; see ``formats/variant.py``).

Reading is streaming: :func:`scan` takes any iterable of lines (``str`` or ``bytes``) and
yields one :class:`Scanned` record per puzzle, a bad puzzle included, so a caller can report it
and go on. A line that is exactly ``end`` ends the input; lines starting with ``#`` are comments.

Formats return plain data (:class:`BoardData`) and write anything shaped like a board, so they
sit below :class:`sudokit.Board`, which wraps them (``Board.from_line``, ``Board.parse``,
``sudokit.read``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator, Literal

from ..errors import FormatError
from ..shape import Shape
from . import grid, ints, leetcode, line, marks, pretty, sukaku, variant
from ._data import BoardData, BoardLike, Position
from ._symbols import NOT_A_SYMBOL, value_table
from .detection import _LINE_PARSERS, LINE_FORMATS, detect, guess_problem

FormatName = Literal["line", "grid", "ints", "leetcode", "pretty", "sukaku", "candidates", "variant", "json", "layout"]
FORMATS: tuple[str, ...] = (
    "line", "grid", "ints", "leetcode", "pretty", "sukaku", "candidates", "variant", "json", "layout",
)  # fmt: skip

#: a line that is exactly this ends the input (seed 000's stream)
END_MARK = "end"


@dataclass(frozen=True)
class Scanned:
    """One record of an input stream as plain data: its board, or the error that stopped it
    being one (:class:`sudokit.Record` wraps it with a :class:`sudokit.Board`)."""

    index: int  #: 0-based position among the records of the input
    line: int  #: 1-based line where the record starts
    column: int  #: 1-based column where it starts on that line (LeetCode boards share lines)
    format: str  #: the format it was read in
    text: str  #: the record's text as read (lines joined with ``\n``)
    data: BoardData | None
    error: FormatError | None


def scan(
    lines: Iterable[str | bytes],
    *,
    format: FormatName | None = None,
    shape: Shape | None = None,
    symbols: str | None = None,
    source: str | None = None,
) -> Iterator[Scanned]:
    """Every puzzle in a stream of lines, in order, one :class:`Scanned` each.

    The format is detected from the first puzzle unless given. Bytes are decoded as UTF-8;
    characters that are not UTF-8 become errors of the records holding them. Raises
    :class:`FormatError` (before the first record) where the first lines leave the format a
    guess that decides which lines make a record (:func:`guess_problem`).
    """
    numbered = clean_lines(lines)
    head = read_head(numbered)
    if format is None:
        judged = judge(head, shape, symbols)
        if judged is None:
            return
        if isinstance(judged, FormatError):
            raise judged.located(source=source)
        chosen = judged
    elif not any(text.strip() for _, text in head):
        return
    else:
        chosen = format
    if chosen not in FORMATS:
        raise ValueError(f"unknown format {chosen!r}; choose one of {', '.join(FORMATS)}")
    stream = _prepend(head, numbered)
    if chosen in _LINE_PARSERS:
        records = _read_lines(stream, shape, symbols, _LINE_PARSERS[chosen])
    elif chosen == "leetcode":
        records = _read_leetcode(stream, shape, symbols)
    else:
        records = _read_blocks(stream, chosen, shape, symbols)
    for index, (number, column, text, data, error) in enumerate(records):
        if error is not None and source is not None:
            error = error.located(source=source)
        yield Scanned(index, number, column, chosen, text, data, error)


def scan_text(text: str | bytes, **options) -> list[Scanned]:
    """:func:`scan` over a whole text."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "surrogateescape")
    return list(scan(text_lines(text), **options))


def text_lines(text: str) -> list[str]:
    """The lines of a whole text, split where a file read line by line splits it: at ``\\n``
    only, not at every break ``str.splitlines`` knows (a NEL or a form feed inside a Sukaku is
    whitespace, as the record's reader takes it; a ``\\r`` before the ``\\n`` goes later)."""
    lines = text.split("\n")
    if lines and not lines[-1]:
        lines.pop()
    return lines


def parse_one(
    text: str,
    format: FormatName | None = None,
    shape: Shape | None = None,
    symbols: str | None = None,
) -> BoardData:
    """Exactly one board from a text; raises :class:`FormatError` otherwise."""
    records = scan_text(text, format=format, shape=shape, symbols=symbols)
    if not records:
        raise FormatError("no board in the text", line=1, column=1)
    first = records[0]
    if first.error is not None:
        raise first.error
    if len(records) > 1:
        raise FormatError(
            "expected one board, found another starting here", line=records[1].line, column=1
        )
    assert first.data is not None
    return first.data


def positions(record: Scanned) -> list[Position]:
    """Where each cell of a record was written (line, column), for messages about cells."""
    if record.format == "line":
        return line.positions(record.text, record.line)
    if record.format == "ints":
        return ints.positions(record.text, record.line)
    if record.format == "leetcode":
        return leetcode.positions(record.text, record.line, record.column)
    if record.format == "sukaku":
        size = record.data.shape.size if record.data is not None else round(len(record.text.strip()) ** (1 / 3))
        return sukaku.positions(record.text, record.line, size)
    if record.format == "variant":
        return variant.positions(record.text, record.line)
    if record.format == "layout":
        return line.positions(record.text, record.line)
    if record.format == "json":
        return variant.json_positions(record.text, record.line)
    if record.format == "candidates":
        return marks.positions(record.text, record.line)
    return grid.positions(record.text, record.line)  # grid and pretty


#: the formats that write a board's givens and rules but not its pencil marks
_NO_MARKS = ("line", "grid", "ints", "leetcode", "pretty", "variant", "layout")


def _keeping_marks(board: BoardLike, format: str) -> str:
    """The format a board is written in: ``format``, unless the board has pencil marks that it
    would drop (a candidate grid read where grids were, then made unique: written as givens
    alone it is another board, with other solutions). Then a candidate grid, or JSON where the
    board has rules beyond rows, columns and boxes."""
    if board.candidates is None or format not in _NO_MARKS:
        return format
    n, geometry = board.shape.size, board.geometry
    boxed = geometry is None or (len(geometry.houses) == 3 * n and geometry.is_boxed(board.shape))
    return "candidates" if boxed and not board.cages else "json"


def format_board(board: BoardLike, format: str) -> str:
    """One output record: the board in ``format``, with its trailing newline(s); a board with
    pencil marks in a format that keeps them (see ``_keeping_marks``)."""
    format = _keeping_marks(board, format)
    if format == "line":
        return line.format(board) + "\n"
    if format == "grid":
        return grid.format(board) + "\n"
    if format == "ints":
        return ints.format(board) + "\n"
    if format == "leetcode":
        return leetcode.format(board) + "\n"
    if format == "pretty":
        return pretty.format(board) + "\n"
    if format == "sukaku":
        return sukaku.format(board) + "\n"
    if format == "candidates":
        return marks.format(board) + "\n"
    if format == "variant" or format == "layout":  # a layout's solution: the variant line
        return variant.format_line(board) + "\n"
    if format == "json":
        return variant.format_json(board) + "\n"
    raise ValueError(f"unknown format {format!r}; choose one of {', '.join(FORMATS)}")


# -- stream plumbing ------------------------------------------------------------------------

#: (1-based line number, text without line end)
Numbered = tuple[int, str]
#: what the readers yield: (first line, first column, record text, board or None, error or None)
Parsed = tuple[int, int, str, "BoardData | None", "FormatError | None"]


def clean_lines(lines: Iterable[str | bytes]) -> Iterator[Numbered]:
    """Numbered lines without line ends, BOM or comments, stopping at ``end``; blank lines
    are kept (they separate grid records)."""
    for number, raw in enumerate(lines, 1):
        text = raw.decode("utf-8", "surrogateescape") if isinstance(raw, bytes) else raw
        text = text.rstrip("\r\n")
        if number == 1 and text.startswith("\ufeff"):
            text = text[1:]
        stripped = text.strip()
        if stripped == END_MARK:
            return
        if stripped.startswith("#"):
            continue
        yield number, text


def read_head(numbered: Iterator[Numbered]) -> list[Numbered]:
    """The lines read ahead to judge an input's format: up to four meaningful ones, with the
    blank lines between them (which :func:`guess_problem` weighs)."""
    head: list[Numbered] = []
    meaningful = 0
    for item in numbered:
        head.append(item)
        meaningful += bool(item[1].strip())
        if meaningful == 4:
            break
    return head


def judge(head: list[Numbered], shape: Shape | None = None, symbols: str | None = None) -> str | FormatError | None:
    """The format of an input from its :func:`read_head` lines (:func:`detect`), or the
    :class:`FormatError` that refuses it where they leave the format a guess
    (:func:`guess_problem`, located at the first meaningful line); None for no line at all."""
    meaningful = [(number, text) for number, text in head if text.strip()]
    if not meaningful:
        return None
    problem = guess_problem([text for _, text in head], shape, symbols)
    if problem is not None:
        return FormatError(problem, line=meaningful[0][0], column=1)
    texts: list[str | None] = [text for _, text in meaningful] + [None] * (4 - len(meaningful))
    first, second, third, fourth = texts
    assert first is not None
    return detect(first, shape=shape, symbols=symbols, next_line=second, third_line=third, fourth_line=fourth)


def _prepend(head: list[Numbered], rest: Iterator[Numbered]) -> Iterator[Numbered]:
    yield from head
    yield from rest


def _read_lines(
    stream: Iterator[Numbered], shape: Shape | None, symbols: str | None, parse=line.parse
) -> Iterator[Parsed]:
    for number, text in stream:
        if not text.strip():
            continue
        try:
            data = parse(text, shape, symbols, line=number)
        except Exception as error:
            yield number, 1, text, None, _record_error(error, number)
        else:
            yield number, 1, text, data, None


def _read_blocks(
    stream: Iterator[Numbered], format: str, shape: Shape | None, symbols: str | None
) -> Iterator[Parsed]:
    """Group rows into records of ``n`` rows: a record ends after ``n`` rows, at a blank line,
    or at the end of the input (the last two are errors when rows are missing). Rows past ``n``
    before the next blank line belong to the record before them (an error: too many rows),
    not to a record of their own: a record ended by its count is held until the next line says
    which."""
    rows: list[Numbered] = []
    held: list[Numbered] = []  # a record its count ended, not yet given out
    size = shape.size if shape else None

    def kind(block: list[Numbered]) -> str:
        # a file of grids may hold candidate grids further on (a grid is a candidate grid
        # whose cells are all solved): a record one of whose first three rows has a cell of
        # several candidates is read as one (its first row may be all solved cells)
        if format in ("grid", "pretty") and any(marks.looks_like(text) for _, text in block[:3]):
            return "candidates"
        return format

    def finish(block: list[Numbered], end_line: int) -> Parsed:
        text = "\n".join(row for _, row in block)
        try:
            if format == "ints" and not _all_ints(block):  # "6 5 . 4": a grid spaced out
                board = grid.parse_rows(block, shape, symbols, end_line=end_line)
            elif format == "ints":
                board = ints.parse_rows(block, shape, end_line=end_line)
            elif kind(block) == "candidates":
                board = marks.parse_rows(block, shape, symbols, end_line=end_line)
            else:
                board = grid.parse_rows(block, shape, symbols, end_line=end_line)
        except Exception as error:
            return block[0][0], 1, text, None, _record_error(error, block[0][0])
        return block[0][0], 1, text, board, None

    def overflow(block: list[Numbered], extra: list[Numbered]) -> Parsed:
        text = "\n".join(row for _, row in block + extra)
        first_error = finish(block, block[-1][0] + 1)[4]
        if first_error is not None:  # the rows' own mistake says more than their number
            return block[0][0], 1, text, None, first_error
        error = FormatError(
            f"{len(extra)} row(s) too many: a record of {len(block)} rows goes on to line {extra[-1][0]} before the blank line",
            line=extra[0][0],
            column=1,
        )
        return block[0][0], 1, text, None, error

    def width(number: int, text: str) -> int:
        if format == "ints":
            return len(ints.tokens(text))
        if kind(rows) == "candidates":
            return len(marks.tokens(text, number))
        return grid.size_of_row(text, number)

    def close(end_line: int) -> Iterator[Parsed]:
        # rows after a count-ended record are its overflow, unless records follow each other
        # without blank lines here: then they are a next record cut short
        if border is not None and not (held or rows or chained):  # a board cut down to its border
            yield border, 1, border_text, None, FormatError(
                "a border line with no rows of a board under it", line=border, column=1
            )
            return
        if held and rows and not chained:
            yield overflow(held, rows)
            return
        if held:
            yield finish(held, held[-1][0] + 1)
        if rows:
            yield finish(rows, end_line)

    last = 0
    chained = False  # two records ended by their count since the last blank line (one given out)
    border: int | None = None  # the line of the first border since the last blank line
    border_text = ""
    for number, text in stream:
        last = number
        if not text.strip():
            yield from close(number)
            held, rows, chained, border = [], [], False, None
            continue
        if format != "ints" and (grid.is_separator(text) or (format == "candidates" and marks.is_separator(text))):
            if border is None:
                border, border_text = number, text
            continue
        rows.append((number, text))
        if len(rows) in (1, 3) and shape is not None and width(*rows[0]) == shape.size:
            size = shape.size  # each record's own: not the size a garbled record before it had
        elif len(rows) in (1, 3):
            # a record has as many rows as its rows have cells: the width two of its first three
            # rows share, so that one garbled row (a stray symbol) does not misalign the rest;
            # rows wider than --shape says are grouped by their own width (one wrong record each)
            widths = [width(*row) for row in rows]
            size = widths[1] if len(widths) == 3 and widths[1] == widths[2] != widths[0] else widths[0]
        if size is not None and len(rows) >= size and ((shape is not None and size == shape.size) or len(rows) >= 3):
            if held and size != len(held):
                continue  # rows of another size straight after a record: its overflow, not the next one
            if held:
                chained = True
                yield finish(held, held[-1][0] + 1)
            held, rows = rows, []
    yield from close(last + 1)


def _all_ints(block: list[Numbered]) -> bool:
    """Whether a block's rows are integers: not when besides single digits they hold only
    a grid's blanks (``.``, ``-``), rows of single symbols spaced out."""
    fields = [field for number, text in block for field, _ in ints.tokens(text)]
    others = [field for field in fields if not ints.is_integer(field)]
    return not others or not all(len(field) == 1 for field in fields) or not all(f in ".-" for f in others)


def _record_error(error: Exception, line: int) -> FormatError:
    """A reader's error as the record's: a FormatError as it is; anything else is a bug of the
    reader, said so, still one record's error rather than the end of the input."""
    if isinstance(error, FormatError):
        return error
    return FormatError(f"internal error reading this record ({type(error).__name__}: {error}); please report it", line=line, column=1)


def _read_leetcode(
    stream: Iterator[Numbered], shape: Shape | None, symbols: str | None
) -> Iterator[Parsed]:
    numbered = list(stream)
    first_line = numbered[0][0]
    # keep skipped comment lines as empty lines so that positions stay true
    lines = [""] * (numbered[-1][0] - first_line + 1)
    for number, row in numbered:
        lines[number - first_line] = row
    text = "\n".join(lines)
    for number, column, body, result in leetcode.boards(text, shape, symbols, line=first_line):
        if isinstance(result, FormatError):
            yield number, 1, lines[number - first_line], None, result
        else:
            yield number, column, body, result, None


__all__ = [
    "END_MARK",
    "FORMATS",
    "LINE_FORMATS",
    "BoardData",
    "BoardLike",
    "FormatName",
    "NOT_A_SYMBOL",
    "Scanned",
    "detect",
    "format_board",
    "guess_problem",
    "judge",
    "read_head",
    "clean_lines",
    "parse_one",
    "positions",
    "scan",
    "scan_text",
    "text_lines",
    "value_table",
]
