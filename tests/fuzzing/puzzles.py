"""Known puzzles, from the test data alone (their rules rebuilt from the data files), and
writers for every format sudokit reads, in the forms people write them (HoDoKu's bordered
candidate grid, SE's rules, Python-quoted LeetCode, glued layouts ...)."""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from .rules import Rules, diagonal, lines_and_boxes, windows

DATA = Path(__file__).resolve().parent.parent / "data"


#: the box of each usual board size (the squarest, wider than tall)
BOXES = {4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3), 12: (3, 4), 16: (4, 4), 25: (5, 5)}
DIGITS = "123456789"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Puzzle:
    """A puzzle whose answer is known: its rules as data, how many solutions (``count``, exact,
    or None where only ``solvable`` is known) and the solution where there is one."""

    name: str
    size: int
    givens: tuple[int, ...]
    symbols: str
    box: tuple[int, int] | None = None  #: the box shape where the regions are boxes
    regions: str | None = None  #: a jigsaw's region labels
    main: bool = False  #: the main diagonal is a house
    anti: bool = False
    windoku: bool = False
    cages: tuple[tuple[int | None, tuple[int, ...]], ...] = ()
    candidates: tuple[frozenset[int], ...] | None = None
    count: int | None = None
    solvable: bool | None = None
    solution: tuple[int, ...] | None = None

    def __repr__(self) -> str:
        return f"<{self.name}>"

    def _repr_pretty_(self, printer, cycle) -> None:  # hypothesis prints examples this way
        printer.text(repr(self))

    def meaning(self) -> list[frozenset[int]]:
        """Each cell's possible values: a given alone, else its pencil marks or every value."""
        return marks_of(self)

    @property
    def rules(self) -> Rules:
        houses = lines_and_boxes(self.size, self.box, self.regions)
        if self.main:
            houses.append(diagonal(self.size))
        if self.anti:
            houses.append(diagonal(self.size, anti=True))
        if self.windoku:
            houses += windows(self.size)
        return Rules(self.size, tuple(houses), self.givens, self.cages, self.candidates)

    @property
    def classic(self) -> bool:
        """Rows, columns and boxes only: every format writes it."""
        return self.box is not None and not (self.main or self.anti or self.windoku or self.cages or self.candidates is not None)

    @property
    def marks_only(self) -> bool:
        """Boxes and pencil marks: the candidate formats write it."""
        return self.box is not None and not (self.main or self.anti or self.windoku or self.cages)

    def with_marks(self, candidates: Sequence[Iterable[int]]) -> Puzzle:
        """The puzzle with pencil marks (that keep its solution, so its answer stays known)."""
        marks = tuple(frozenset(values) for values in candidates)
        return replace(self, name=self.name + " (pencil marks)", candidates=marks)

    def with_givens(self, cells: Iterable[int]) -> Puzzle:
        """More givens, taken from the solution: a unique puzzle stays unique."""
        assert self.solution is not None
        givens = list(self.givens)
        for cell in cells:
            givens[cell] = self.solution[cell]
        return replace(self, givens=tuple(givens))


def _value_of(symbols: str, blank: str = ".0-") -> Callable[[str], int]:
    return lambda char: 0 if char in blank else symbols.index(char) + 1


def _entries() -> list[Puzzle]:
    """``puzzles.txt``: classic boards of 4x4 to 25x25 with exact counts (from ``naive.py``)."""
    puzzles = []
    for number, line in enumerate((DATA / "puzzles.txt").read_text().splitlines()):
        if not line or line.startswith("#"):
            continue
        text, count, solution = line.split(":")
        n = math.isqrt(len(text))
        symbols = DIGITS[:n] if n <= 9 else LETTERS[:n]
        value = _value_of(symbols)
        puzzles.append(Puzzle(
            f"puzzles.txt:{number + 1}", n, tuple(value(c) for c in text), symbols, box=BOXES[n],
            count=int(count), solvable=int(count) > 0,
            solution=tuple(value(c) for c in solution) if solution else None,
        ))  # fmt: skip
    return puzzles


#: variant puzzles that take tens of seconds (see tests/test_variants.py)
SLOW_VARIANTS = {("pencilmark", 2), ("pencilmark", 6), ("pencilmark", 7)}


def _variants() -> list[Puzzle]:
    """Every record of ``variants/*.jsonl`` but the slow ones, rules read from the JSON here."""
    puzzles = []
    for name in ("jigsaw", "x", "windoku", "killer", "killer_x", "killer_generated", "pencilmark"):
        for number, line in enumerate((DATA / "variants" / f"{name}.jsonl").read_text().splitlines()):
            if (name, number) in SLOW_VARIANTS:
                continue
            record = json.loads(line)
            n = record["size"]
            symbols = DIGITS if n == 9 else "".join(sorted(set(record["solution"])))
            value = _value_of(symbols, ".")
            givens = tuple(value(c) for c in record.get("givens", "." * n * n))
            marks = None
            if "candidates" in record:
                allowed = {cell: frozenset(value(c) for c in chars) for cell, chars in record["candidates"]}
                marks = tuple(allowed.get(cell, frozenset(range(1, n + 1))) for cell in range(n * n))
            diagonals = record.get("diagonals", [])
            unique = record["unique"]
            puzzles.append(Puzzle(
                f"variants/{name}.jsonl:{number + 1}", n, givens, symbols,
                box=None if record.get("regions") else BOXES[n], regions=record.get("regions"),
                main="main" in diagonals, anti="anti" in diagonals, windoku=record.get("windoku", False),
                cages=tuple((total, tuple(cells)) for total, cells in record.get("cages", [])), candidates=marks,
                count=1 if unique else None, solvable=True, solution=tuple(value(c) for c in record["solution"]) if unique else None,
            ))  # fmt: skip
    return puzzles


def _layouts() -> list[Puzzle]:
    """Empty 9x9 jigsaws, 100 that admit a grid and 50 that admit none (two of each here)."""
    puzzles = []
    for name, solvable in (("jigsaw_layouts_valid.txt", True), ("jigsaw_layouts_invalid.txt", False)):
        # the first invalid layouts are quick to refute; some later ones take the search long
        for number, layout in enumerate((DATA / "variants" / name).read_text().split()[:2]):
            puzzles.append(Puzzle(f"variants/{name}:{number + 1}", 9, (0,) * 81, DIGITS, regions=layout,
                                  count=None if solvable else 0, solvable=solvable))
    return puzzles


def _catalogue() -> dict[str, list[Puzzle]]:
    entries = _entries()
    unique = [p for p in entries if p.count == 1]
    return {
        "small": [p for p in entries if p.size <= 8],
        "classic": [p for p in entries if p.size <= 16],
        "unique9": [p for p in unique if p.size == 9],
        "unique_small": [p for p in unique if p.size <= 9],
        "big": [p for p in entries if p.size == 25],
        "variants": _variants(),
        "layouts": _layouts(),
    }


CATALOGUE = _catalogue()


# -- writing a puzzle in every format, in any of the forms people use ---------------------------

#: the formats (``--format`` names) and the extra forms written here
FORMAT_OF = {
    "line": "line", "grid": "grid", "ints": "ints", "leetcode": "leetcode", "pretty": "pretty",
    "sukaku": "sukaku", "candidates": "candidates", "hodoku": "candidates", "variant": "variant",
    "json": "json", "layout": "layout",
}  # fmt: skip
#: formats whose records are blocks of lines, one blank line between records
BLOCKS = ("grid", "ints", "pretty", "candidates", "hodoku")


def writable(puzzle: Puzzle, family: str) -> bool:
    """Whether ``family`` can write ``puzzle`` with all its rules."""
    if family in ("line", "grid", "ints", "leetcode", "pretty"):
        return puzzle.classic
    if family in ("sukaku", "candidates", "hodoku"):
        return puzzle.marks_only
    if family == "variant":  # something past the givens; no pencil marks; cages that do not overlap
        cells = [cell for _, cage in puzzle.cages for cell in cage]
        return puzzle.candidates is None and not puzzle.classic and len(cells) == len(set(cells))
    if family == "layout":
        plain = not (puzzle.cages or puzzle.main or puzzle.anti or puzzle.windoku or puzzle.candidates is not None)
        return puzzle.regions is not None and plain and not any(puzzle.givens)
    return family == "json"


def _symbol(puzzle: Puzzle, value: int, blank: str = ".") -> str:
    return puzzle.symbols[value - 1] if value else blank


def marks_of(puzzle: Puzzle) -> list[frozenset[int]]:
    """Each cell's candidates as a solver would list them: a given alone, else the marks."""
    every = frozenset(range(1, puzzle.size + 1))
    marks = puzzle.candidates or [every] * (puzzle.size * puzzle.size)
    return [frozenset([given]) if given else marks[cell] for cell, given in enumerate(puzzle.givens)]


def write(puzzle: Puzzle, family: str, style: dict[str, Any]) -> str:
    """One record of ``puzzle`` (no final newline) in ``family``, in the form ``style`` picks
    (each choice keeps the meaning: blanks, spaces, rules, quotes, key order, ...)."""
    n = puzzle.size
    rows = [puzzle.givens[r * n : (r + 1) * n] for r in range(n)]
    blank = style.get("blank", ".")
    if family == "line":
        joiner = " " if style.get("spaced") else ""
        return joiner.join(_symbol(puzzle, v, blank) for v in puzzle.givens)
    if family == "grid":
        return "\n".join(_grid_row(puzzle, row, blank, style) for row in _with_rules(rows, puzzle, style))
    if family == "ints":
        return "\n".join(style.get("sep", " ").join(str(v) for v in row) for row in rows)
    if family == "leetcode":
        quote = style.get("quote", '"')
        if style.get("numbers"):
            return "[" + ",".join("[" + ",".join(str(v) for v in row) + "]" for row in rows) + "]"
        cell = lambda v: quote + _symbol(puzzle, v) + quote  # noqa: E731
        spacer = ", " if style.get("spaced") else ","
        return "[" + spacer.join("[" + spacer.join(cell(v) for v in row) + "]" for row in rows) + "]"
    if family == "pretty":
        return _pretty(puzzle)
    if family == "sukaku":
        marks = marks_of(puzzle)
        cells = ["".join(_symbol(puzzle, v) if v in marks[c] else blank for v in range(1, n + 1)) for c in range(n * n)]
        return style.get("gap", "").join(cells)
    if family in ("candidates", "hodoku"):
        return _candidate_grid(puzzle, family == "hodoku", style)
    if family == "variant":
        return _variant_line(puzzle, style)
    if family == "json":
        return _json_record(puzzle, style)
    if family == "layout":
        assert puzzle.regions is not None
        return puzzle.regions
    raise ValueError(family)


def _with_rules(rows: list, puzzle: Puzzle, style: dict[str, Any]) -> list:
    """The rows, with a separator line (None) between bands where the style draws them."""
    if not style.get("rules") or puzzle.box is None:
        return rows
    height = puzzle.box[0]
    out: list = []
    for index, row in enumerate(rows):
        if index and index % height == 0:
            out.append(None)
        out.append(row)
    return out


def _grid_row(puzzle: Puzzle, row, blank: str, style: dict[str, Any]) -> str:
    joiner = " " if style.get("spaced") else ""
    if row is None:  # a separator between bands
        width = puzzle.box[1] if puzzle.box else puzzle.size
        piece = "-" * (width * (2 if joiner else 1) + (1 if joiner else 0))
        return "+".join([piece] * (puzzle.size // width))
    symbols = [_symbol(puzzle, v, blank) for v in row]
    if style.get("rules") and puzzle.box is not None:
        width = puzzle.box[1]
        return (" | " if joiner else "|").join(joiner.join(symbols[k : k + width]) for k in range(0, len(symbols), width))
    return joiner.join(symbols)


def _pretty(puzzle: Puzzle) -> str:
    """The boxed grid drawn with box-drawing characters (``str(board)``'s form)."""
    n = puzzle.size
    height, width = puzzle.box or (n, n)
    segment = "\u2500" * (2 * width + 1)

    def rule(left: str, middle: str, right: str) -> str:
        return left + middle.join([segment] * (n // width)) + right

    lines = [rule("\u250c", "\u252c", "\u2510")]
    for r in range(n):
        if r and r % height == 0:
            lines.append(rule("\u251c", "\u253c", "\u2524"))
        row = [_symbol(puzzle, v) for v in puzzle.givens[r * n : (r + 1) * n]]
        lines.append("\u2502 " + " \u2502 ".join(" ".join(row[k : k + width]) for k in range(0, n, width)) + " \u2502")
    lines.append(rule("\u2514", "\u2534", "\u2518"))
    return "\n".join(lines)


def _candidate_grid(puzzle: Puzzle, bordered: bool, style: dict[str, Any]) -> str:
    """Each cell's candidates, ``n`` lines; ``bordered``: as HoDoKu prints it (``.---.`` edges,
    ``|`` between boxes, ``:---+---:`` between bands), else plain or with SE's ``|`` rules."""
    n = puzzle.size
    marks = marks_of(puzzle)
    full = style.get("full", "digits")  # an open cell: every symbol, or '.'
    texts = []
    for cell in range(n * n):
        values = sorted(marks[cell])
        if len(values) == n and full == "dot" and not puzzle.givens[cell]:
            texts.append(".")
        else:
            texts.append("".join(_symbol(puzzle, v) for v in values) or "-")
    pad = max(len(t) for t in texts) if style.get("aligned", True) else 0
    height, width = puzzle.box or (n, n)
    rows = []
    for r in range(n):
        cells = [texts[r * n + c].ljust(pad) for c in range(n)]
        boxes = ["  ".join(cells[k : k + width]) for k in range(0, n, width)]
        if bordered:
            rows.append("| " + " | ".join(boxes) + " |")
        elif style.get("rules"):
            rows.append(" | ".join(boxes))
        else:
            rows.append("  ".join(boxes))
    if not bordered and not style.get("rules"):
        return "\n".join(rows)
    piece = "-" * (width * (pad + 2) + 1)
    if bordered:
        top, middle, bottom = ("." + ".".join([piece] * (n // width)) + "."), (":" + "+".join([piece] * (n // width)) + ":"), ("'" + "'".join([piece] * (n // width)) + "'")
    else:
        top = bottom = None
        middle = "+".join([piece] * (n // width))
    out = [top] if top else []
    for r, row in enumerate(rows):
        if r and r % height == 0:
            out.append(middle)
        out.append(row)
    if bottom:
        out.append(bottom)
    return "\n".join(out)


def _cell_name(n: int, cell: int) -> str:
    return f"r{cell // n + 1}c{cell % n + 1}"


def _variant_line(puzzle: Puzzle, style: dict[str, Any]) -> str:
    n = puzzle.size
    givens = "".join(_symbol(puzzle, v) for v in puzzle.givens)
    parts = [givens]
    if puzzle.regions:
        if style.get("glued") and not puzzle.cages and not (puzzle.main or puzzle.anti or puzzle.windoku):
            parts = [givens + puzzle.regions]
        else:
            parts.append(puzzle.regions)
    cages = ["?" if total is None else str(total) for total, _ in puzzle.cages]
    cages = [f"{total}:" + ",".join(_cell_name(n, c) for c in cells) for total, (_, cells) in zip(cages, puzzle.cages)]
    words = []
    if puzzle.main and puzzle.anti:
        words.append("diagonals")
    elif puzzle.main:
        words.append("main-diagonal")
    elif puzzle.anti:
        words.append("anti-diagonal")
    if puzzle.windoku:
        words.append("windoku")
    extras = cages + words
    if style.get("shuffle") is not None:
        random.Random(style["shuffle"]).shuffle(extras)
    return " ".join(parts + extras)


def _json_record(puzzle: Puzzle, style: dict[str, Any]) -> str:
    n = puzzle.size
    record: dict[str, Any] = {"givens": "".join(_symbol(puzzle, v) for v in puzzle.givens)}
    if style.get("size", True):
        record["size"] = n
    if puzzle.regions:
        record["boxes"] = False
        if style.get("region_lists"):
            record["regions"] = [list(cells) for cells in lines_and_boxes(n, None, puzzle.regions)[2 * n :]]
        else:
            record["regions"] = puzzle.regions
    if puzzle.main or puzzle.anti:
        record["diagonals"] = True if (puzzle.main and puzzle.anti and style.get("diagonals_true")) else [
            name for name, on in (("main", puzzle.main), ("anti", puzzle.anti)) if on]  # fmt: skip
    if puzzle.windoku:
        record["windoku"] = True
    if puzzle.cages:
        if style.get("cage_objects"):
            record["cages"] = [{"sum": total, "cells": list(cells)} for total, cells in puzzle.cages]
        else:
            record["cages"] = [[total, list(cells)] for total, cells in puzzle.cages]
    if puzzle.candidates is not None:
        marks = marks_of(puzzle)
        every = frozenset(range(1, n + 1))
        texts = ["".join(_symbol(puzzle, v) for v in sorted(marks[cell])) for cell in range(n * n)]
        form = style.get("marks", "pairs")
        if form == "sukaku":
            record["candidates"] = "".join(
                "".join(_symbol(puzzle, v) if v in marks[c] else "." for v in range(1, n + 1)) for c in range(n * n))
        elif form == "cells":
            record["candidates"] = texts
        else:
            record["candidates"] = [[cell, texts[cell]] for cell in range(n * n) if not puzzle.givens[cell] and marks[cell] != every]
    if style.get("named"):
        record = {"name": "fuzz", **record, "source": "tests/fuzzing"}
    if style.get("shuffle") is not None:
        items = list(record.items())
        random.Random(style["shuffle"]).shuffle(items)
        record = dict(items)
    return json.dumps(record, separators=(",", ":") if style.get("compact") else (", ", ": "))
