"""Variant boards as text: the JSON form and the variant line.

**JSON** (``json``): one object a line, the form of the shared variant data::

    {"givens": "3.......7...", "regions": "111111123...", "diagonals": ["main", "anti"],
     "windoku": true, "houses": [[0, 10, 20, ...]], "cages": [[15, [0, 9, 18]], [null, [1, 2]]],
     "candidates": [[0, "12"], [4, "146"]]}

``givens``: ``n*n`` symbols (``.`` empty; the alphabet is inferred as in the line format);
``size``: the board size (optional); ``boxes``: false where ``regions`` replace the boxes, or the
box shape (``"3x2"``) where it is not the size's usual one;
``regions``: the jigsaw layout, ``n*n`` region labels (or ``n`` lists of cells); ``diagonals``:
``["main", "anti"]``, either, or true for both; ``windoku``: the four (``k*k`` for a board of
``k**2``) extra windows; ``houses``: more cell sets that must not repeat (each ``n`` cells);
``cages``: ``[sum, [cells]]`` (or ``{"sum": ..., "cells": [...]}``), ``null`` for a cage with no
sum; ``candidates``: ``[cell, "symbols"]`` pairs (pencil marks), a Sukaku string of ``n**3``
characters, or ``n*n`` strings. Cells count from 0, row by row. ``name``, ``source``,
``solution`` and ``unique`` are kept by the data and ignored here. Cages may overlap in this
form (as in the Interactive Sudoku Solver's puzzles).

**The variant line** (``variant``): the givens, then what the variant adds, separated by
spaces::

    3.......71.......5....68..... 111111123456616123456666... 15:r1c1,r2c1,r3c1 ?:r1c2,r1c3 diagonals windoku

a jigsaw layout of ``n*n`` region labels (also written straight after the givens, without a
space), killer cages as ``sum:cells`` (``?`` for no sum; cells as ``r1c1``, comma-separated),
and the words ``diagonals`` (or ``main-diagonal``, ``anti-diagonal``) and ``windoku``. Cages do
not overlap in this form: a cell in two cages is an error.

Errors name the line, the column (of the key, the cage, the region's cell) and the region or
cage at fault, as every format's do.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import numpy as np

from .. import symbols as alphabets
from ..errors import FormatError, quote
from ..shape import Cage, Geometry, Shape, jigsaw_problem
from . import line as line_format
from . import sukaku
from ._data import BoardData, BoardLike, Position
from ._symbols import user_alphabet

#: JSON keys that describe a record and are not rules
IGNORED = ("name", "source", "solution", "unique", "comment", "id")
#: JSON keys of the rules
KEYS = ("givens", "size", "boxes", "regions", "diagonals", "windoku", "houses", "cages", "candidates")

_CAGE = re.compile(r"^(\d+|\?):(.*)$")
_CELL = re.compile(r"^r(\d+)c(\d+)$")
_WORDS = {"diagonals": (True, True), "main-diagonal": (True, False), "anti-diagonal": (False, True)}


# -- the JSON form -----------------------------------------------------------------------------


def parse_json(text: str, shape: Shape | None = None, symbols: str | None = None, *, line: int = 1) -> BoardData:
    """One board from one JSON object on one line; errors name ``line`` and the column."""
    body = text.rstrip("\r\n")
    try:
        record = json.loads(body)
    except json.JSONDecodeError as error:
        raise FormatError(f"not a JSON object: {error.msg}", line=line, column=error.colno) from None
    except ValueError:  # an integer of more digits than Python converts (4,300)
        raise FormatError("not a JSON object sudokit reads: a number of thousands of digits", line=line, column=1) from None
    except RecursionError:
        raise FormatError("not a JSON object: nested too deep", line=line, column=1) from None
    if not isinstance(record, dict):
        raise FormatError(f"expected a JSON object with 'givens', not {type(record).__name__}", line=line, column=1)
    where = _Where(body, line)
    for key in record:
        if key not in KEYS and key not in IGNORED:
            raise where.error(key, f"unknown key {key!r}; a variant record has {', '.join(KEYS)}")
    shape = _box_shape(record, shape, where)
    size = _size(record, shape, where)
    givens = record.get("givens")
    if givens is None:
        if size is None:
            raise FormatError("a variant record needs 'givens' (or 'size' with 'candidates')", line=line, column=1)
        givens = "." * (size * size)
    if not isinstance(givens, str):
        raise where.error("givens", f"'givens' must be a string of n*n symbols, not {type(givens).__name__}")
    if size is not None and shape is None:
        shape = Shape.for_size_or_none(size) or Shape(1, size)
    marks_text = _marks_symbols(record.get("candidates"))
    try:
        data = _givens(givens, shape, symbols, marks_text, line)
    except FormatError as error:
        raise FormatError(error.message, line=line, column=(error.column or 1) + where.value("givens")) from None
    shape = data.shape
    n = shape.size
    if size is not None and size != n:
        raise where.error("size", f"'size' is {size} but the givens make a {n}x{n} board")
    geometry = _json_geometry(record, shape, where)
    cages = _json_cages(record.get("cages"), n, where)
    marks = _json_candidates(record.get("candidates"), data, where)
    return BoardData(data.cells, shape, data.symbols, geometry, cages, marks)


def _box_shape(record: dict[str, Any], shape: Shape | None, where: _Where) -> Shape | None:
    """The board's shape where ``boxes`` names its box (``"3x2"``: boxes 3 rows tall and 2
    wide, which a board of that size does not have by default); else ``shape``."""
    boxes = record.get("boxes")
    if not isinstance(boxes, str):
        return shape
    try:
        height, width = (int(part) for part in boxes.lower().split("x"))
        named = Shape(height, width)
    except ValueError:
        raise where.error("boxes", f"'boxes' must be true, false or a box shape such as '3x2', not {boxes!r}") from None
    if shape is not None and shape != named:
        raise where.error("boxes", f"'boxes' is {boxes} but --shape is {shape.name}")
    return named


def _size(record: dict[str, Any], shape: Shape | None, where: _Where) -> int | None:
    size = record.get("size")
    if size is None:
        return None
    if isinstance(size, bool) or not isinstance(size, int) or not 2 <= size <= 64:
        raise where.error("size", f"'size' must be a board size from 2 to 64, not {size!r}")
    if shape is not None and shape.size != size:
        raise where.error("size", f"'size' is {size} but --shape is {shape.name}")
    return size


def _givens(givens: str, shape: Shape | None, symbols: str | None, marks: str, line: int) -> BoardData:
    """The givens, in the alphabet they and the pencil marks use together."""
    if shape is None:
        root = math.isqrt(len(givens))
        if root * root == len(givens) and root not in line_format.BOARD_LENGTHS.values() and 2 <= root <= 64:
            shape = Shape(1, root)  # a prime size: only a jigsaw makes it a board
    if marks and symbols is None:
        size = shape.size if shape is not None else line_format.BOARD_LENGTHS.get(len(givens))
        if size is not None:
            symbols = alphabets.infer(size, set(givens + marks) - {" "})
    return line_format.parse(givens, shape, symbols, line=line)


def _marks_symbols(candidates: Any) -> str:
    """Every symbol the pencil marks use (so the alphabet fits them too)."""
    if isinstance(candidates, list):
        found = []
        for item in candidates:
            if isinstance(item, list) and len(item) == 2 and isinstance(item[1], str):
                found.append(item[1])
            elif isinstance(item, str):
                found.append(item)
        return "".join(sorted(set("".join(found)) - set(".0 ")))
    return ""


def _json_geometry(record: dict[str, Any], shape: Shape, where: _Where) -> Geometry | None:
    n = shape.size
    regions = record.get("regions")
    boxes = record.get("boxes", regions is None)
    if isinstance(boxes, str):  # a box shape (see _box_shape)
        boxes = True
    if not isinstance(boxes, bool):
        raise where.error("boxes", f"'boxes' must be true or false, not {boxes!r}")
    if regions is not None and boxes:
        raise where.error("boxes", "'boxes' is true but 'regions' replace the boxes (give one of them)")
    if regions is None and not boxes:
        raise where.error("boxes", "'boxes' is false but there are no 'regions' to replace them")
    if regions is None:
        named = isinstance(record.get("boxes"), str)  # "1x4": rows for boxes, asked for by name
        if (shape.box_height == 1 or shape.box_width == 1) and not named:
            raise where.error("givens", f"a {n}x{n} board has no boxes: give its 'regions'")
        geometry = shape.geometry
    elif isinstance(regions, str):
        geometry = jigsaw(regions, n, where.value("regions"), where.line)
    elif isinstance(regions, list):
        geometry = _region_lists(regions, n, where)
    else:
        raise where.error("regions", "'regions' must be a string of n*n region labels or n lists of cells")
    diagonals = record.get("diagonals")
    if diagonals is not None:
        if diagonals is True:
            main, anti = True, True
        elif diagonals is False:
            main, anti = False, False
        elif isinstance(diagonals, list) and all(isinstance(d, str) for d in diagonals) and set(diagonals) <= {"main", "anti"}:
            main, anti = "main" in diagonals, "anti" in diagonals
        else:
            raise where.error("diagonals", f"'diagonals' must list 'main' and/or 'anti' (or be true), not {diagonals!r}")
        geometry = geometry.with_diagonals(main, anti)
    windoku = record.get("windoku", False)
    if not isinstance(windoku, bool):
        raise where.error("windoku", f"'windoku' must be true or false, not {windoku!r}")
    if windoku:
        side = math.isqrt(n)
        if side * side != n or n < 4:
            raise where.error("windoku", f"windoku windows need a square box side; a {n}x{n} board has none")
        geometry = geometry.with_windows(side)
    houses = record.get("houses")
    if houses is not None:
        if not isinstance(houses, list):
            raise where.error("houses", "'houses' must be a list of cell lists")
        for number, house in enumerate(houses, 1):
            column = where.element("houses", number - 1)
            cells = _cell_list(house, n, f"house {number}", where.line, column)
            if len(cells) != n or len(set(cells)) != n:
                raise FormatError(f"house {number} must hold {n} distinct cells, not {len(cells)} ({len(set(cells))} distinct)", line=where.line, column=column)
            geometry = geometry.with_houses([cells], "house")
    return None if geometry == shape.geometry else geometry


def jigsaw(regions: str, n: int, column: int, line: int) -> Geometry:
    """A jigsaw geometry from ``n*n`` region labels written from ``column``; errors point at
    the cell at fault."""
    if len(regions) != n * n:
        raise FormatError(
            f"a jigsaw layout of a {n}x{n} board has {n * n} region labels, not {len(regions)}: {quote(regions)}",
            line=line,
            column=column,
        )
    for cell, label in enumerate(regions):
        if label in ". -":
            raise FormatError(
                f"r{cell // n + 1}c{cell % n + 1} is in no region ({label!r} is not a region label)",
                line=line,
                column=column + cell,
            )
    problem = jigsaw_problem(list(regions))
    if problem is not None:
        raise FormatError(problem[0], line=line, column=column + problem[1])
    return Geometry.jigsaw(regions)


def _region_lists(regions: list[Any], n: int, where: _Where) -> Geometry:
    if len(regions) != n:
        raise where.error("regions", f"a {n}x{n} board has {n} regions, not {len(regions)}")
    owner: dict[int, int] = {}
    for number, region in enumerate(regions, 1):
        column = where.element("regions", number - 1)
        cells = _cell_list(region, n, f"region {number}", where.line, column)
        if len(cells) != n:
            raise FormatError(f"region {number} has {len(cells)} cells, a {n}x{n} board needs {n}", line=where.line, column=column)
        for cell in cells:
            if cell in owner:
                raise FormatError(
                    f"r{cell // n + 1}c{cell % n + 1} is in region {owner[cell]} and region {number}",
                    line=where.line,
                    column=column,
                )
            owner[cell] = number
    labels = [0] * (n * n)
    for cell, number in owner.items():
        labels[cell] = number
    missing = [cell for cell in range(n * n) if cell not in owner]
    if missing:  # pragma: no cover - n regions of n distinct cells cover the board
        cell = missing[0]
        raise where.error("regions", f"r{cell // n + 1}c{cell % n + 1} is in no region")
    problem = jigsaw_problem(labels)
    if problem is not None:
        raise FormatError(problem[0], line=where.line, column=where.element("regions", labels[problem[1]] - 1))
    return Geometry.jigsaw(labels)


def _cell_list(value: Any, n: int, what: str, line: int, column: int) -> list[int]:
    if not isinstance(value, list) or not all(_is_integer(c) for c in value):
        raise FormatError(f"{what}: expected a list of cell numbers (0 to {n * n - 1})", line=line, column=column)
    for cell in value:
        if not 0 <= cell < n * n:
            raise FormatError(f"{what}: cell {cell} is not on a {n}x{n} board (cells 0 to {n * n - 1})", line=line, column=column)
    return value


def _json_cages(cages: Any, n: int, where: _Where) -> tuple[Cage, ...]:
    if cages is None:
        return ()
    if not isinstance(cages, list):
        raise where.error("cages", "'cages' must be a list of [sum, [cells]]")
    out = []
    for number, item in enumerate(cages, 1):
        column = where.element("cages", number - 1)
        if isinstance(item, dict):
            total, cells = item.get("sum"), item.get("cells")
        elif isinstance(item, list) and len(item) == 2:
            total, cells = item
        else:
            raise FormatError(f"cage {number}: expected [sum, [cells]], not {quote(json.dumps(item))}", line=where.line, column=column)
        if total is not None and not _is_integer(total):
            raise FormatError(f"cage {number}: the sum must be an integer or null, not {total!r}", line=where.line, column=column)
        out.append(_cage(total, _cell_list(cells, n, f"cage {number}", where.line, column), n, number, where.line, column))
    return tuple(out)


def _cage(total: int | None, cells: list[int], n: int, number: int, line: int, column: int) -> Cage:
    """A checked cage; errors name it, its cells and the column it was written at."""
    try:
        cage = Cage(total, tuple(cells))
        cage.check(n)
    except ValueError as error:
        where = ",".join(f"r{c // n + 1}c{c % n + 1}" for c in dict.fromkeys(cells) if 0 <= c < n * n)
        raise FormatError(f"cage {number} ({where}): {error}", line=line, column=column) from None
    return cage


def _json_candidates(candidates: Any, data: BoardData, where: _Where) -> np.ndarray | None:
    if candidates is None:
        return None
    n = data.shape.size
    alphabet = data.symbols
    lookup = {char: value for value, char in enumerate(alphabet)}
    full = (1 << n) - 1
    masks = np.full(n * n, full, dtype=np.uint64)
    if isinstance(candidates, str):
        try:
            marks = sukaku.parse(candidates, data.shape, alphabet, line=where.line).candidates
        except FormatError as error:
            raise FormatError(error.message, line=where.line, column=(error.column or 1) + where.value("candidates")) from None
        assert marks is not None
        masks = marks
        pairs: list[tuple[int, int, int]] = [(cell, int(masks[cell]), where.value("candidates")) for cell in range(n * n)]
    elif isinstance(candidates, list):
        pairs = []
        per_cell = len(candidates) == n * n and all(isinstance(item, str) for item in candidates)
        seen: set[int] = set()
        for index, item in enumerate(candidates):
            column = where.element("candidates", index)
            if per_cell:
                cell, marks_text = index, item
            elif isinstance(item, list) and len(item) == 2 and _is_integer(item[0]) and isinstance(item[1], str):
                cell, marks_text = item
            else:
                raise FormatError(
                    f"candidates: expected [cell, \"symbols\"] pairs, not {quote(json.dumps(item))}", line=where.line, column=column
                )
            if not 0 <= cell < n * n:
                raise FormatError(f"candidates: cell {cell} is not on a {n}x{n} board", line=where.line, column=column)
            if cell in seen:
                raise FormatError(f"candidates: r{cell // n + 1}c{cell % n + 1} is listed twice", line=where.line, column=column)
            seen.add(cell)
            mask = 0
            for char in marks_text:
                if char not in lookup:
                    raise FormatError(
                        f"candidates of r{cell // n + 1}c{cell % n + 1}: {char!r} is not a symbol of this board ({alphabet})",
                        line=where.line,
                        column=column,
                    )
                mask |= 1 << lookup[char]
            masks[cell] = mask
            pairs.append((cell, mask, column))
    else:
        raise where.error("candidates", "'candidates' must be [cell, \"symbols\"] pairs or a Sukaku string")
    for cell, mask, column in pairs:
        value = int(data.cells[cell])
        if value and not mask >> (value - 1) & 1:
            raise FormatError(
                f"r{cell // n + 1}c{cell % n + 1}: the candidates {_spelled(mask, alphabet)!r} leave out the given {alphabet[value - 1]}",
                line=where.line,
                column=column,
            )
    return masks


def _is_integer(value: Any) -> bool:
    """A JSON integer (Python's ``bool`` is an ``int``, JSON's ``true`` is not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _spelled(mask: int, alphabet: str) -> str:
    return "".join(char for value, char in enumerate(alphabet) if mask >> value & 1)


class _Where:
    """Columns in one JSON line, found only when an error needs one."""

    def __init__(self, text: str, line: int) -> None:
        self.text = text
        self.line = line
        self._layout: dict[str, tuple[int, int, list[int]]] | None = None

    def _scan(self) -> dict[str, tuple[int, int, list[int]]]:
        """key -> (key column, value column, columns of the value's elements), top level."""
        if self._layout is not None:
            return self._layout
        layout: dict[str, tuple[int, int, list[int]]] = {}
        text = self.text
        stack: list[str] = []
        key: str | None = None
        name: str | None = None
        name_column = 1
        previous = ""
        i = 0
        while i < len(text):
            char = text[i]
            if char.isspace():
                i += 1
                continue
            if key is not None and stack == ["{", "["] and previous in "[," and char != "]":
                layout[key][2].append(i + 1)  # an element of the key's list starts here
            if char == '"':
                end = i + 1
                while end < len(text) and text[end] != '"':
                    end += 2 if text[end] == "\\" else 1
                if len(stack) == 1 and previous in "{,":
                    try:
                        name = json.loads(text[i : end + 1])
                    except ValueError:
                        name = text[i + 1 : end]
                    name_column = i + 1
                previous = '"'
                i = end + 1
                continue
            if char == ":" and len(stack) == 1 and name is not None:
                j = i + 1
                while j < len(text) and text[j].isspace():
                    j += 1
                key = name
                layout[key] = (name_column, j + 1, [])
            elif char in "[{":
                stack.append(char)
            elif char in "]}" and stack:
                stack.pop()
            previous = char
            i += 1
        self._layout = layout
        return layout

    def _before(self, i: int) -> str:
        j = i - 1
        while j >= 0 and self.text[j].isspace():
            j -= 1
        return self.text[j] if j >= 0 else ""

    def value(self, key: str) -> int:
        """The column of a key's value (its first character inside a string's quotes)."""
        found = self._scan().get(key)
        if found is None:
            return 1
        column = found[1]
        return column + 1 if self.text[column - 1 : column] == '"' else column

    def element(self, key: str, index: int) -> int:
        """The column of element ``index`` of the list under ``key``."""
        found = self._scan().get(key)
        if found is None:
            return 1
        return found[2][index] if index < len(found[2]) else found[1]

    def error(self, key: str, message: str) -> FormatError:
        found = self._scan().get(key)
        return FormatError(message, line=self.line, column=found[0] if found else 1)


def format_json(board: BoardLike) -> str:
    """One JSON object on one line (no newline): the givens and every rule of the board."""
    n = board.shape.size
    record: dict[str, Any] = {"givens": line_format.format(board), "size": n}
    shape = board.shape
    usual = Shape.for_size_or_none(n)
    if usual is not None and shape != usual:
        record["boxes"] = f"{shape.box_height}x{shape.box_width}"  # not the size's usual boxes (1x4 too)
    geometry = board.geometry
    if geometry is not None:
        kinds = geometry.kinds
        if kinds[2 * n] == "region" and not geometry.is_boxed(board.shape):
            record["boxes"] = False
            record["regions"] = geometry.region_labels()
        diagonals = [name for kind, name in (("diagonal", "main"), ("anti-diagonal", "anti")) if kind in kinds[3 * n :]]
        if diagonals:
            record["diagonals"] = diagonals
        if "window" in kinds[3 * n :]:
            record["windoku"] = True
        extra = [cells for kind, cells in zip(kinds[3 * n :], geometry.houses[3 * n :].tolist()) if kind not in ("diagonal", "anti-diagonal", "window")]
        if extra:
            record["houses"] = extra
    if board.cages:
        record["cages"] = [[cage.total, list(cage.cells)] for cage in board.cages]
    if board.candidates is not None:
        record["candidates"] = [
            [cell, _spelled(int(mask), board.symbols)]
            for cell, mask in enumerate(board.candidates.tolist())
            if not board.cells[cell] and mask != (1 << n) - 1
        ]
    return json.dumps(record, separators=(", ", ": "))


# -- the variant line --------------------------------------------------------------------------


def looks_like_line(text: str) -> bool:
    """Whether one line is a variant line: a board line, then a layout or rules, or givens and
    layout written together."""
    tokens = text.split()
    if not tokens:
        return False
    first = tokens[0]
    root = math.isqrt(len(first))
    if len(tokens) == 1:  # givens and a layout written together: n labels in the layout
        half = len(first) // 2
        side = math.isqrt(half)
        return len(first) == 2 * half and side * side == half and side >= 4 and len(set(first[half:])) == side
    if root * root != len(first) or root < 4:
        return False
    second = tokens[1]
    # a layout repeats its labels (n regions over n*n cells); a 16x16 candidate row's first two
    # cells, each of all sixteen symbols, are as long but repeat none
    layout = len(second) == len(first) and len(set(second)) < len(second)
    return layout or bool(_CAGE.match(second)) or second in _WORDS or second == "windoku"


def parse_line(text: str, shape: Shape | None = None, symbols: str | None = None, *, line: int = 1) -> BoardData:
    """One board from a variant line; errors name ``line`` and the column."""
    body = text.rstrip("\r\n")
    tokens = [(match.group(), match.start() + 1) for match in re.finditer(r"\S+", body)]
    if not tokens:
        raise FormatError("empty line where a board was expected", line=line, column=1)
    first, column = tokens[0]
    half = len(first) // 2
    side = math.isqrt(half)
    glued = len(first) == 2 * half and side >= 2 and side * side == half and math.isqrt(len(first)) ** 2 != len(first)
    if glued:  # the givens and the layout, written together
        tokens = [(first[:half], column), (first[half:], column + half)] + tokens[1:]
        first = first[:half]
    root = math.isqrt(len(first))
    if shape is None and root >= 2 and root * root == len(first) and root not in line_format.BOARD_LENGTHS.values() and len(tokens) > 1:
        if len(tokens[1][0]) == len(first):
            shape = Shape(1, root)  # a prime size: the layout makes it a board
    data = line_format.parse(first, shape, symbols, line=line)
    n = data.shape.size
    geometry = data.shape.geometry
    start = 1
    if len(tokens) > 1 and len(tokens[1][0]) == n * n and not _CAGE.match(tokens[1][0]):
        geometry = jigsaw(tokens[1][0], n, tokens[1][1], line)
        start = 2
    cages: list[Cage] = []
    owner: dict[int, int] = {}
    main = anti = windoku = False
    for token, at in tokens[start:]:
        if token in _WORDS:
            more_main, more_anti = _WORDS[token]
            main, anti = main or more_main, anti or more_anti
            continue
        if token == "windoku":
            side = math.isqrt(n)
            if side * side != n or n < 4:
                raise FormatError(f"windoku windows need a square box side; a {n}x{n} board has none", line=line, column=at)
            windoku = True
            continue
        match = _CAGE.match(token)
        if not match:
            raise FormatError(
                f"expected a cage such as 15:r1c1,r1c2 (or ?: for no sum), 'diagonals' or 'windoku', not {quote(token)}",
                line=line,
                column=at,
            )
        number = len(cages) + 1
        total = None if match.group(1) == "?" else int(match.group(1))
        cells = []
        offset = at + len(match.group(1)) + 1
        for part in match.group(2).split(","):
            cell_match = _CELL.match(part)
            if not cell_match or not (1 <= int(cell_match.group(1)) <= n and 1 <= int(cell_match.group(2)) <= n):
                raise FormatError(
                    f"cage {number}: expected cells r1c1 to r{n}c{n}, comma-separated, not {quote(part)}",
                    line=line,
                    column=offset,
                )
            cell = (int(cell_match.group(1)) - 1) * n + int(cell_match.group(2)) - 1
            if cell in owner and owner[cell] != number:
                raise FormatError(
                    f"cage {number} overlaps cage {owner[cell]} at {part} (a cell belongs to one cage)",
                    line=line,
                    column=offset,
                )
            owner[cell] = number
            cells.append(cell)
            offset += len(part) + 1
        cages.append(_cage(total, cells, n, number, line, at))
    if main or anti:
        geometry = geometry.with_diagonals(main, anti)
    if windoku:
        geometry = geometry.with_windows(math.isqrt(n))
    return BoardData(data.cells, data.shape, data.symbols, None if geometry == data.shape.geometry else geometry, tuple(cages))


def format_line(board: BoardLike) -> str:
    """The variant line (no newline): givens, layout, cages and words."""
    n = board.shape.size
    parts = [line_format.format(board)]
    geometry = board.geometry
    words = []
    if geometry is not None:
        if not geometry.is_boxed(board.shape):
            parts.append(geometry.region_labels())
        kinds = geometry.kinds[3 * n :]
        if "diagonal" in kinds and "anti-diagonal" in kinds:
            words.append("diagonals")
        elif "diagonal" in kinds:
            words.append("main-diagonal")
        elif "anti-diagonal" in kinds:
            words.append("anti-diagonal")
        if "window" in kinds:
            words.append("windoku")
    for cage in board.cages:
        parts.append(("?" if cage.total is None else str(cage.total)) + ":" + cage.where(n))
    return " ".join(parts + words)


def json_positions(text: str, line: int = 1) -> list[Position]:
    """Where each cell's given was written in a JSON record (inside its ``givens``)."""
    where = _Where(text, line)
    start = where.value("givens")
    try:
        count = len(json.loads(text).get("givens", ""))
    except (ValueError, AttributeError):
        count = 0
    return [(line, start + k) for k in range(count)]


def looks_like_layout(text: str) -> bool:
    """Whether a line is a jigsaw layout rather than a board: ``n*n`` labels, no blank, ``n``
    labels of ``n`` cells each, every label's cells one orthogonally connected piece, and some
    label twice in a row and some twice in a column. No board with a solution looks so: equal
    values never share a row or a column, so never an edge."""
    body = "".join(text.split())  # blanks between labels read as in a board's line
    n = math.isqrt(len(body))
    if n < 4 or n * n != len(body) or any(char in ".-" for char in body):
        return False
    if len(set(body)) != n:
        return False
    rows = [body[k : k + n] for k in range(0, n * n, n)]
    # regions that are all rows or all columns would be a board's line ("1234" * 4) as well
    if all(len(set(row)) == n for row in rows) or all(len(set(column)) == n for column in zip(*rows)):
        return False
    return jigsaw_problem(list(body)) is None


def parse_layout(text: str, shape: Shape | None = None, symbols: str | None = None, *, line: int = 1) -> BoardData:
    """An empty jigsaw from a line that is only its layout, ``n*n`` region labels (the shared
    data's ``jigsaw_layouts_*.txt``): detected from the first line (``looks_like_layout``) or
    chosen with ``--format layout``."""
    # blanks between labels are skipped, as in a board's line: a line that reads as a layout
    # with them reads as one without them, the form a layout is written back in
    labels = [(column, char) for column, char in enumerate(text, 1) if not char.isspace()]
    body = "".join(char for _, char in labels)
    n = math.isqrt(len(body))
    if n * n != len(body) or not 2 <= n <= 64:
        raise FormatError(f"a jigsaw layout has n*n region labels, not {len(body)}: {quote(body)}", line=line, column=1)
    if shape is not None and shape.size != n:
        raise FormatError(f"a layout of a {n}x{n} board, but --shape is {shape.name}", line=line, column=1)
    column = labels[0][0]
    try:
        geometry = jigsaw(body, n, column, line)
    except FormatError as error:  # the column of the label at fault, blanks counted
        at = labels[min(max((error.column or column) - column, 0), len(labels) - 1)][0]
        raise FormatError(error.message, line=line, column=at) from None
    board_shape = shape or Shape.for_size_or_none(n) or Shape(1, n)
    alphabet = user_alphabet(symbols, n, line, column) if symbols else alphabets.default(n)
    return BoardData(np.zeros(n * n, dtype=np.uint8), board_shape, alphabet, geometry)


def positions(text: str, line: int = 1) -> list[Position]:
    """Where each cell's given was written in a variant line (its first token)."""
    first = re.search(r"\S+", text)
    if first is None:
        return []
    return [(line, first.start() + 1 + k) for k in range(len(first.group()))]
