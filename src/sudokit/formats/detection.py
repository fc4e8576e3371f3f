"""Which format an input is in, judged from its first meaningful lines (:func:`detect`), and
when those lines leave it a guess (:func:`guess_problem`).

Well-formed records tell their format at once. Garbled ones are the hard part: two lines that
follow each other may be one grid's rows or two records of their own, and a wrong guess breaks
one answer per record. The rules below weigh what the first four lines are (a record of one
line, a border, rows of one board's width, lines too long for any row) and refuse, asking for
``--format``, where they disagree.
"""

from __future__ import annotations

from ..errors import FormatError
from ..shape import MAX_SIZE, Shape
from . import grid, ints, line, marks, sukaku, variant
from ._symbols import is_binary

#: formats whose records are one line each (the rest are blocks of rows, but LeetCode's)
LINE_FORMATS = ("line", "sukaku", "variant", "json", "layout")
#: the line readers of the one-line formats
_LINE_PARSERS = {
    "line": line.parse,
    "sukaku": sukaku.parse,
    "variant": variant.parse_line,
    "json": variant.parse_json,
    "layout": variant.parse_layout,
}


def detect(
    first_line: str,
    *,
    shape: Shape | None = None,
    symbols: str | None = None,
    next_line: str | None = None,
    third_line: str | None = None,
    fourth_line: str | None = None,
) -> str:
    """The format of a stream, judged from its first meaningful lines (up to four).

    A line of ``n*n`` region labels in ``n`` connected pieces is a jigsaw layout (no board
    with a solution looks so); a line of ``n*n`` symbols that reads as a board is a board;
    otherwise a line of ``n`` symbols followed by another of the same width starts a grid.
    One garbled first line does not decide for the whole input: where the second line reads
    as a board line of its own, or the first reads as nothing and the second starts a block
    of rows, the second line's format is the stream's. Where no line reads as a record of its
    own, but two of the first four are rows of one board's width (or the first is a row of a
    board's width and neither it nor the next is as long as any board line, or three are all
    too short for one), the lines are a block of rows with a garbled row or two: one record,
    not one per line.
    """
    chosen = _detect_one(first_line, shape, symbols, next_line)
    if chosen in ("grid", "ints", "candidates") and not _starts_rows(first_line, chosen, shape) and not (
        next_line is not None and _row_width(next_line, chosen) == _row_width(first_line, chosen)
    ):
        chosen = "line"  # "66,6", two integers: no row of a board, nor of two rows of one width
    if next_line is None:
        return chosen
    if chosen in LINE_FORMATS and _reads_as(first_line, chosen, shape, symbols) and not _border_over_rows(first_line, next_line):
        return chosen
    if chosen == "ints":
        chosen = _refine_ints(next_line)
    following = _detect_one(next_line, shape, symbols, third_line)
    if chosen not in LINE_FORMATS and chosen != "leetcode":  # a block: unless row 2 is a board
        if following in LINE_FORMATS and _reads_as(next_line, following, shape, symbols):
            return following
        return _lines_after_a_lone_row(first_line, next_line, third_line, fourth_line, shape=shape, symbols=symbols) or chosen
    if chosen == "line" and following in ("grid", "ints", "candidates", "pretty") and _starts_rows(next_line, following, shape):
        return following
    if chosen in LINE_FORMATS and not (following in LINE_FORMATS and _reads_as(next_line, following, shape, symbols)):
        # a record of one line further on: lines, the first ones garbled
        for later in (text for text in (third_line, fourth_line) if text is not None):
            found = _detect_one(later, shape, symbols, None)
            if found in LINE_FORMATS and _reads_as(later, found, shape, symbols):
                return found
        lines = [text for text in (first_line, next_line, third_line, fourth_line) if text is not None]
        return _block_by_border(lines, shape, symbols) or _rows_of_one_width(lines, shape, symbols) or chosen
    return chosen


def _lines_after_a_lone_row(first_line: str, *later: str | None, shape: Shape | None = None, symbols: str | None = None) -> str | None:
    """The format of a record of one line among the third and fourth lines, where the first
    line, taken for a block's row, has no row of its width beside it (a garbled line of 56
    candidate cells, another of 79, then a 4x4 board's line): lines, the first ones garbled,
    not a block that would swallow the rest of the input; None otherwise."""
    if grid.is_border(first_line) or marks.is_separator(first_line):
        return None
    texts = [first_line] + [text for text in later if text is not None]
    reads: list[str | None] = []
    for text in texts[2:]:
        format = _detect_one(text, shape, symbols, None)
        reads.append(format if format in LINE_FORMATS and _reads_as(text, format, shape, symbols) else None)
    found = next((format for format in reads if format is not None), None)
    if found is None:
        return None
    rows = texts[:2] + [text for text, format in zip(texts[2:], reads) if format is None]
    return None if _two_of_a_width(rows, shape) else found


def guess_problem(lines: list[str], shape: Shape | None = None, symbols: str | None = None) -> str | None:
    """Why the first lines of an input (up to four that are not blank, with the blank lines
    between them) leave its format a guess, or None where they tell it. Two lines that follow
    each other are one record of a grid or two records of their own. Where none of them reads
    as a record of one line, none is a border and no two are rows of one width, either reading
    is a guess; so it is where the first line reads as nothing, a later one reads as a record
    of its own (a 4x4 board line) and two others are rows of one width (a garbled candidate
    grid, one of whose rows holds 16 symbols). A wrong guess breaks one answer per record: the
    input is refused instead, with the ``--format`` that settles it."""
    meaningful = [k for k, text in enumerate(lines) if text.strip()]
    if len(meaningful) < 2 or meaningful[1] != meaningful[0] + 1:
        return None  # one line, or lines apart: a record each whatever the format
    texts = [lines[k] for k in meaningful]
    records = []
    for text in texts:
        if any(is_binary(char) for char in text) or _too_wide_for_a_row(text, shape):
            return None  # binary bytes, or a line too long for a row: a record of its own
        found = _detect_one(text, shape, symbols, None)
        if found in ("json", "leetcode") or grid.is_border(text) or marks.is_separator(text):
            return None
        records.append(found in LINE_FORMATS and _reads_as(text, found, shape, symbols))
    if not any(records):
        return None if _rows_of_a_width(texts, shape, symbols) is not None else _NEITHER
    others = [text for text, reads in zip(texts, records) if not reads]
    return _BOTH if not records[0] and _two_of_a_width(others, shape) else None


#: how a refused guess ends: the option that settles it (the web API names its field instead)
ASK_FOR_FORMAT = "say the format with --format"
_NEITHER = ("the first lines are neither puzzles of a line each nor rows of one grid, so which lines make a "
            f"puzzle would be a guess: {ASK_FOR_FORMAT}")
_BOTH = ("the first lines hold both a puzzle of one line and rows of one grid, so which lines make a "
         f"puzzle would be a guess: {ASK_FOR_FORMAT}")


def _block_by_border(lines: list[str], shape: Shape | None, symbols: str | None) -> str | None:
    """Where no line reads as a record of its own and one of the first is a border
    (``---+---``, ``:----+----:``, a HoDoKu border with a space in it): a block of rows, in the
    format of the first row that says one (a grid's, if none does); no record line is a
    border."""
    borders = [k for k, text in enumerate(lines) if grid.is_border(text) or marks.is_separator(text)]
    if not borders:
        return None
    rows = [lines[k] for k in range(len(lines)) if k not in borders]
    for k, text in enumerate(rows):
        following = rows[k + 1] if k + 1 < len(rows) else None
        found = _detect_one(text, shape, symbols, following)
        if found == "ints" and following is not None:
            found = _refine_ints(following)
        if found in ("grid", "ints", "candidates"):
            return found
    return "grid"


def _spaced_words(text: str) -> bool:
    """A line of words of unlike lengths (``.# a comment between records``): no grid row,
    whose symbols stand alone or in boxes of one width."""
    words = "".join(" " if char in grid.RULE_CHARS else char for char in text).split()
    return len(words) > 1 and len({len(word) for word in words}) > 1 and not all(ints.is_integer(word) for word in words)


#: the formats whose records are blocks of rows
_BLOCK_FORMATS = ("grid", "ints", "candidates", "pretty")


def _widths(text: str) -> tuple[int, int]:
    """A row's width as a grid's (symbols; none for words) and as a row of fields (integers,
    candidates)."""
    return (-1 if _spaced_words(text) else len(grid.row_items(text, 1))), len(marks.tokens(text, 1))


def _boxed(text: str) -> bool:
    """Whether a line is a ruled row: rules (``|``, ``│``) between boxes of as many symbols
    each. A lone ``|`` rules nothing; one put into a line of region labels
    (``111112|2223...``) leaves pieces of unlike widths."""
    if not any(char in grid.RULE_CHARS for char in text):
        return False
    pieces, count = [], 0
    for char in text + "|":
        if char in grid.RULE_CHARS:
            if count:
                pieces.append(count)
            count = 0
        elif not char.isspace():
            count += 1
    return bool(pieces) and len(set(pieces)) == 1


def _border_over_rows(text: str, next_line: str) -> bool:
    """A line of blanks and dashes (``.------ .-------.``: a HoDoKu border with a space in it
    reads as an empty 4x4 board) over a ruled row: a block's broken border, not a board."""
    drawn = set(text.strip())
    ruled = any(char in grid.RULE_CHARS for char in next_line) and bool(grid.row_items(next_line, 2))
    return "---" in text and drawn <= set(".-=:'+ ") and ruled


def _row_width(text: str, format: str) -> int:
    """A row's width as ``format`` counts it: integers, candidate cells or symbols."""
    if format == "ints":
        return len(ints.tokens(text))
    if format == "candidates":
        return len(marks.tokens(text, 1))
    return len(grid.row_items(text, 1))


def _row_size(width: int, shape: Shape | None) -> bool:
    """Whether ``width`` is a board's row; under ``--shape``, a row of a board nearer in size
    to the shape's rows than to its lines (64 symbols under 4x4 are a 4x4 Sukaku line)."""
    if shape is not None:
        return width == shape.size or (Shape.for_size_or_none(width) is not None and _row_like(width, shape))
    return Shape.for_size_or_none(width) is not None


def _starts_rows(text: str, format: str, shape: Shape | None) -> bool:
    """Whether a line that suggests a block format can be the first row of a block: a border,
    or a row as wide as a board (``00 1``, two integers, starts none)."""
    if format == "pretty" or grid.is_border(text):
        return True
    return _row_size(_row_width(text, format), shape)


def _rows_of_one_width(lines: list[str], shape: Shape | None, symbols: str | None) -> str | None:
    """The block format of first lines that read as no record, where two of them are rows of
    one width (:func:`_rows_of_a_width`), or the first is a row of a board's width and neither
    it nor the next is as wide as any board line (``9, 2``: a grid cut short; ``9, 10``: with a
    symbol too many), or three or more lines are all too short for board lines (``7, 5, 4``: a
    4x4 grid's garbled rows); None otherwise. (Where only the last two say so, ``scan``
    refuses the guess: :func:`guess_problem`.)"""
    found = _rows_of_a_width(lines, shape, symbols)
    if found is not None:
        return found
    widths = [_widths(text) for text in lines]
    shortest = min(line.BOARD_LENGTHS)
    if len(lines) > 2 and all(0 <= width < shortest for width, _ in widths):  # three rows too short for board lines
        found = _detect_one(lines[0], shape, symbols, lines[1])
        return found if found in _BLOCK_FORMATS and _starts_rows(lines[0], found, shape) else "grid"
    if len(lines) > 1:
        first, following = widths[0][0], widths[1][0]
        if _row_size(first, shape) and first < shortest and following < shortest:
            found = _detect_one(lines[0], shape, symbols, None)
            found = "grid" if found == "line" else found
            return found if found in _BLOCK_FORMATS and _starts_rows(lines[0], found, shape) else None
    return None


def _rows_of_a_width(lines: list[str], shape: Shape | None, symbols: str | None) -> str | None:
    """The block format of lines two of which are rows of one board's width, or of one width
    too short for any board line (``9, 6, 9`` symbols, or ``5, 10, 5``: a grid with a garbled
    row); None otherwise."""
    widths = [_widths(text) for text in lines]
    shortest = min(line.BOARD_LENGTHS)
    for i, j in ((i, j) for i in range(len(lines)) for j in range(i + 1, len(lines))):
        (symbols_i, fields_i), (symbols_j, fields_j) = widths[i], widths[j]
        # symbols: a board's width, or any width too short for a board line (a small grid's
        # garbled rows); fields (integers, candidates): a board's width, and rows that read so
        by_symbols = symbols_i == symbols_j and (_row_size(symbols_i, shape) or 4 <= symbols_i < shortest)
        by_fields = fields_i == fields_j and _row_size(fields_i, shape)
        if not (by_symbols or by_fields):
            continue
        for row, other in ((i, j), (j, i)):  # the rows' format, as either row tells it (one may be garbled)
            found = _detect_one(lines[row], shape, symbols, lines[other])
            if found == "ints":
                found = _refine_ints(lines[other])
            if found in ("ints", "candidates") or (by_symbols and found in ("grid", "pretty", "line")):
                return "grid" if found == "line" else found
    return None


def _too_wide_for_a_row(text: str, shape: Shape | None) -> bool:
    """Whether a line is too wide for a row of ``shape`` (nearer its line than its row), or,
    with no shape, of any board: more symbols than the biggest board's row, and not a
    candidate row (whose fields, its cells, are as many as a board's row)."""
    symbols = len(grid.row_items(text, 1))
    if shape is not None:
        return not _row_like(symbols, shape)
    return symbols > MAX_SIZE and not _row_size(len(marks.tokens(text, 1)), None)


def _two_of_a_width(lines: list[str], shape: Shape | None) -> bool:
    """Whether two of ``lines`` are as wide as one row of a board, in symbols or in fields
    (``.  5  2`` is either), whatever format they are rows of."""
    widths = [_widths(text) for text in lines]
    return any(
        (a == c and _row_size(a, shape)) or (b == d and _row_size(b, shape))
        for k, (a, b) in enumerate(widths) for c, d in widths[k + 1:]
    )


def _row_like(width: int, shape: Shape) -> bool:
    """Whether ``width`` symbols are nearer, in ratio, a row of ``shape`` (``n``) than its line
    (``n*n``): under ``--shape 64``, lines of 729 symbols (Sukaku records) are no rows of one
    grid, each is a wrong record of its own."""
    return width * width < shape.size * shape.cells


def _refine_ints(next_line: str) -> str:
    """The block format of rows of integers whose first row alone did not tell: a second row
    with a blank (``.``) is a grid's, one with numbers past the board's size a candidate
    grid's."""
    fields = ints.tokens(next_line.strip())
    if fields and not all(ints.is_integer(field) for field, _ in fields):
        return "grid"
    if fields and any(int(field) > len(fields) for field, _ in fields) and marks.looks_like(next_line):
        return "candidates"
    return "ints"


def _reads_as(text: str, format: str, shape: Shape | None, symbols: str | None) -> bool:
    """Whether one line reads as a record of a one-line format."""
    try:
        _LINE_PARSERS[format](text, shape, symbols)
    except (FormatError, ValueError):
        return False
    return True


def _detect_one(first_line: str, shape: Shape | None, symbols: str | None, next_line: str | None) -> str:
    """The format that one line, and the one after it, suggest."""
    text = first_line.strip()
    if any(is_binary(char) for char in text):
        return "line"  # every line then reports its own binary bytes
    if text.startswith("{"):
        return "json"
    if text.startswith("["):
        return "leetcode"
    if sukaku.looks_like(text, shape, symbols):
        return "sukaku"
    if variant.looks_like_line(text):
        return "variant"
    if variant.looks_like_layout(text):
        return "layout"
    if grid.is_border(text) or marks.is_separator(text):  # HoDoKu's border is .---.---.
        if next_line is not None and marks.looks_like(next_line):
            return "candidates"
        if grid.is_border(text):
            return "pretty"
    fields = ints.tokens(text)
    if len(fields) > 1 and all(ints.is_integer(field) for field, _ in fields):
        count = len(fields)
        if any(int(field) > count for field, _ in fields) and marks.looks_like(text):
            return "candidates"  # "12 3 456 ...": no value of the board is that big
        if shape is not None:  # rows of another size, two of one width: one wrong record
            following = len(ints.tokens(next_line)) if next_line is not None else 0
            return "ints" if count == shape.size or (_row_like(count, shape) and following == count) else "line"
        if any(len(field) > 1 for field, _ in fields) or Shape.for_size_or_none(count):
            return "ints"
        return "line"
    if marks.looks_like(text):
        return "candidates"
    items = grid.row_items(text, 1)
    length = len(items)
    ruled = _boxed(text)
    same_width = next_line is not None and len(grid.row_items(next_line, 2)) == length
    if shape is not None:
        if length == shape.size:
            return "grid"
        # rows of another size (ruled, or two of one width) are a grid's all the same: one
        # record whose rows are wrong, not one wrong record a row
        return "grid" if _row_like(length, shape) and (ruled or same_width) and not _spaced_words(text) else "line"
    if ruled:
        return "grid"
    if length in line.BOARD_LENGTHS:
        try:
            line.parse(text, symbols=symbols)
        except FormatError:
            pass
        else:
            return "line"
    if Shape.for_size_or_none(length) and same_width and not _spaced_words(text):
        return "grid"
    return "line"  # the line reader explains what is wrong, if anything
