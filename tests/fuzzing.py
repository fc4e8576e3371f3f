"""Fuzzing sudokit: mutated records of every format it reads, sent through every command and
every endpoint of the JSON API, and the invariants each answer must keep.

Shared by ``tests/test_fuzz.py`` (hypothesis, fixed seed, bounded) and ``benchmarks/fuzz.py``
(the same strategies for minutes, random seeds, findings counted and cut down). The invariants:

- a command exits 0, 1, 2 or 3, never 70 ("internal error"), with no traceback on stderr; an
  endpoint never answers 500;
- one output record per input record, in order; each malformed one says line and column;
- every solution keeps every rule of its record (houses, extra houses, cages, pencil marks,
  givens), checked here without sudokit; an answer known from the data (a count, "no
  solution", the solution) stays that answer after a rewrite that keeps the meaning;
- a step of ``hint`` or ``explain`` never places a wrong value nor removes the true one;
- a budget (``--time-limit``, the API's ``time_limit``) is honoured within a second.

Nothing here trusts sudokit to judge sudokit: the rules of a known puzzle are built from the
data files, the puzzles are written by the writers below, and counts come from ``naive.py``
(classic boards) or :func:`brute_force` (any rules, small boards). Where a mutated record's
rules can only be known by reading it, they are sudokit's reading, and only the solver's answer
is judged against them.

The commands run in a worker process (:class:`Worker`), in-process there through click's
runner, so that a command that never ends can be stopped: its worker is killed and replaced.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import multiprocessing
import random
import re
import time
import traceback
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import httpx
import numpy as np
from click.testing import CliRunner
from hypothesis import strategies as st

import naive
import sudokit
from sudokit import Shape, engines
from sudokit.canon import canonical
from sudokit.cli import cli
from sudokit.web import api, create_app

DATA = Path(__file__).resolve().parent / "data"

#: a budget is honoured when the answer comes within this many seconds past it
BUDGET_SLACK = 1.0
#: what measuring in a worker adds (the runner, reading the input, writing the answers)
MEASURE_SLACK = 0.5
#: seconds a command without a budget may take before it counts as hanging
NO_BUDGET = 20.0
#: exit statuses a run may end with (ExitCode: OK, UNSOLVED, BAD_INPUT, UNKNOWN)
EXITS = (0, 1, 2, 3)

# -- rules and an independent checker -------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """What a solution must keep: ``houses`` (each distinct values 1..n), ``cages`` ((total or
    None, cells): distinct values adding up to total), ``candidates`` (each cell's allowed
    values, or None) and ``givens`` (0 for empty)."""

    size: int
    houses: tuple[tuple[int, ...], ...]
    givens: tuple[int, ...]
    cages: tuple[tuple[int | None, tuple[int, ...]], ...] = ()
    candidates: tuple[frozenset[int], ...] | None = None


def lines_and_boxes(n: int, box: tuple[int, int] | None, regions: str | Sequence[Sequence[int]] | None = None) -> list[tuple[int, ...]]:
    """Rows, columns, and boxes ``box`` (height, width) or jigsaw ``regions`` (labels or cell lists)."""
    houses = [tuple(r * n + c for c in range(n)) for r in range(n)]
    houses += [tuple(r * n + c for r in range(n)) for c in range(n)]
    if isinstance(regions, str):
        houses += [tuple(cell for cell in range(n * n) if regions[cell] == label) for label in dict.fromkeys(regions)]
    elif regions is not None:
        houses += [tuple(cells) for cells in regions]
    elif box is not None:
        height, width = box
        houses += [
            tuple((top + r) * n + left + c for r in range(height) for c in range(width))
            for top in range(0, n, height)
            for left in range(0, n, width)
        ]
    return houses


def diagonal(n: int, anti: bool = False) -> tuple[int, ...]:
    return tuple(r * n + (n - 1 - r if anti else r) for r in range(n))


def windows(n: int) -> list[tuple[int, ...]]:
    """Windoku's extra boxes: squares of side sqrt(n), one cell in from the edge and apart."""
    side = math.isqrt(n)
    starts = range(1, n - side, side + 1)
    return [tuple((top + r) * n + left + c for r in range(side) for c in range(side)) for top in starts for left in starts]


def broken_rules(rules: Rules, values: Sequence[int]) -> list[str]:
    """Every rule ``values`` (a full grid, 1..n) breaks, in words; empty when it is a solution."""
    n = rules.size
    if len(values) != n * n:
        return [f"{len(values)} cells where a {n}x{n} board has {n * n}"]
    broken = [f"cell {cell} holds {value}, not a value 1-{n}" for cell, value in enumerate(values) if not 1 <= value <= n]
    broken += [f"cell {cell} holds {values[cell]} where {given} is given" for cell, given in enumerate(rules.givens) if given and values[cell] != given]
    for house in rules.houses:
        seen = [values[cell] for cell in house]
        if len(set(seen)) != len(seen):
            broken.append(f"cells {list(house)} repeat a value: {seen}")
    for total, cells in rules.cages:
        seen = [values[cell] for cell in cells]
        if len(set(seen)) != len(seen):
            broken.append(f"cage {list(cells)} repeats a value: {seen}")
        if total is not None and sum(seen) != total:
            broken.append(f"cage {list(cells)} adds up to {sum(seen)}, not {total}")
    if rules.candidates is not None:
        broken += [
            f"cell {cell} holds {values[cell]}, not one of its candidates {sorted(allowed)}"
            for cell, allowed in enumerate(rules.candidates)
            if values[cell] not in allowed
        ]
    return broken


def brute_force(rules: Rules, limit: int = 2, nodes: int = 200_000) -> list[tuple[int, ...]] | None:
    """Up to ``limit`` solutions of any rules, by plain backtracking on the cell with the fewest
    legal values; None when ``nodes`` placements were not enough to know (meant for boards up
    to 6x6 and for well-filled bigger ones)."""
    n = rules.size
    cells = n * n
    every = frozenset(range(1, n + 1))
    allowed = list(rules.candidates) if rules.candidates is not None else [every] * cells
    groups = [set(house) for house in rules.houses] + [set(cells_) for _, cells_ in rules.cages]
    totals = [None] * len(rules.houses) + [total for total, _ in rules.cages]
    groups_of: list[list[int]] = [[] for _ in range(cells)]
    for index, group in enumerate(groups):
        for cell in group:
            groups_of[cell].append(index)
    grid = [0] * cells
    used: list[set[int]] = [set() for _ in groups]
    sums = [0] * len(groups)
    left = [len(group) for group in groups]

    def fits(cell: int, value: int) -> bool:
        if value not in allowed[cell]:
            return False
        for index in groups_of[cell]:
            if value in used[index]:
                return False
            total = totals[index]
            if total is not None:
                rest = left[index] - 1
                free = sorted(every - used[index] - {value})
                if len(free) < rest:
                    return False
                have = sums[index] + value
                if have + sum(free[:rest]) > total or have + sum(free[len(free) - rest :] if rest else []) < total:
                    return False
        return True

    def place(cell: int, value: int, sign: int) -> None:
        grid[cell] = value if sign > 0 else 0
        for index in groups_of[cell]:
            (used[index].add if sign > 0 else used[index].discard)(value)
            sums[index] += sign * value
            left[index] -= sign

    for cell, value in enumerate(rules.givens):
        if value:
            if not fits(cell, value):
                return []
            place(cell, value, 1)
    found: list[tuple[int, ...]] = []
    budget = [nodes]

    def search() -> bool:
        best, options = -1, None
        for cell in range(cells):
            if grid[cell] == 0:
                legal = [value for value in range(1, n + 1) if fits(cell, value)]
                if options is None or len(legal) < len(options):
                    best, options = cell, legal
                    if len(legal) <= 1:
                        break
        if options is None:
            found.append(tuple(grid))
            return len(found) >= limit
        for value in options:
            budget[0] -= 1
            if budget[0] < 0:
                return True
            place(best, value, 1)
            done = search()
            place(best, value, -1)
            if done:
                return True
        return False

    search()
    return None if budget[0] < 0 else found


# -- known puzzles, from the test data alone ---------------------------------------------------

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
        return _marks(self)

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


def _marks(puzzle: Puzzle) -> list[frozenset[int]]:
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
        marks = _marks(puzzle)
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
    marks = _marks(puzzle)
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
        marks = _marks(puzzle)
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
        record = {"name": "fuzz", **record, "source": "tests/fuzzing.py"}
    if style.get("shuffle") is not None:
        items = list(record.items())
        random.Random(style["shuffle"]).shuffle(items)
        record = dict(items)
    return json.dumps(record, separators=(",", ":") if style.get("compact") else (", ", ": "))


# -- records: a known puzzle written in a family, then perhaps mutated --------------------------


@dataclass(frozen=True)
class Case:
    """One input record: its text (no final newline), its family, and the puzzle it still
    means (None once a mutation may have changed the meaning)."""

    family: str
    text: str
    puzzle: Puzzle | None
    how: str  #: what it was made from, for the report

    def __repr__(self) -> str:
        return f"<{self.how}: {self.text!r}>"

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(repr(self))


FAMILIES = tuple(FORMAT_OF)
#: families that write classic boards and nothing else
PLAIN = ("line", "grid", "ints", "leetcode", "pretty")
#: characters a mutation puts in: symbols, blanks, rules, JSON, whitespace of every kind,
#: look-alike digits, box drawing, a BOM, control characters, undecodable bytes (the
#: surrogates below are written as the bytes 0x80-0xff)
NASTY = (
    "0", "1", "5", "9", "a", "G", "Z", ".", "-", " ", "  ", "\t", "|", "+", "=", "#", ",", ":", "?", "[", "]",
    "{", "}", '"', "'", "\\", "/", "\u00a0", "\u0085", "\u2028", "\u3000", "\u2500", "\u2502", "\u253c", "\ufeff",
    "\u00e9", "\u0663", "\u00b2", "\uff11", "\x00", "\x1b", "\x7f", "\x0b", "\udcff", "\udc80", "\U0001f600",
    "r1c1", "15:", "?:", "null", "true", "1e400", "-1", "end", "#x", "diagonals", "windoku",
)  # fmt: skip


def _small_variant(rng: random.Random) -> Puzzle:
    """A 4x4 or 6x6 variant made here: diagonals, windoku or killer cages over a grid that keeps
    them, some givens from it; its count from :func:`brute_force`."""
    n = rng.choice((4, 6))
    main, anti = rng.random() < 0.4, rng.random() < 0.4
    windoku = n == 4 and rng.random() < 0.3
    base = Puzzle("", n, (0,) * (n * n), DIGITS[:n], box=BOXES[n], main=main, anti=anti, windoku=windoku)
    grids = brute_force(base.rules, limit=1)
    if not grids:  # these extras admit no grid: a puzzle without solution is a case too
        return replace(base, name=f"{n}x{n} variant without grid", count=0, solvable=False)
    names = list(range(1, n + 1))
    rng.shuffle(names)  # renaming values keeps every house rule
    grid = tuple(names[v - 1] for v in grids[0])
    cages = []
    if rng.random() < 0.7:
        cells = list(range(n * n))
        rng.shuffle(cells)
        while cells:
            size = rng.randint(1, min(4, len(cells)))
            cage = tuple(sorted(cells[:size]))
            cells = cells[size:]
            if len({grid[c] for c in cage}) == len(cage) and rng.random() < 0.7:
                cages.append((None if rng.random() < 0.1 else sum(grid[c] for c in cage), cage))
    givens = tuple(v if rng.random() < 0.25 else 0 for v in grid)
    puzzle = replace(base, name=f"{n}x{n} variant", givens=givens, cages=tuple(cages))
    found = brute_force(puzzle.rules, limit=50, nodes=100_000)
    if found is None or len(found) >= 50:
        return replace(puzzle, solvable=True)
    return replace(puzzle, count=len(found), solvable=True, solution=found[0] if len(found) == 1 else None)


@st.composite
def puzzles(draw, family: str, small: bool = False, unique: bool = False) -> Puzzle:
    """A known puzzle ``family`` can write: ``small`` keeps to boards up to 9x9, ``unique``
    to puzzles with one solution (what hints and ratings take)."""
    pool: list[Puzzle] = []
    if family in PLAIN or family in ("sukaku", "candidates", "hodoku", "json"):
        pool += CATALOGUE["unique_small" if unique else ("small" if small else "classic")]
        if small and not unique:
            pool += CATALOGUE["unique9"][:8] + [p for p in CATALOGUE["classic"] if p.size == 9 and p.count != 1][:6]
    if family in ("sukaku", "candidates", "hodoku", "json", "variant"):
        pool += [p for p in CATALOGUE["variants"] if writable(p, family) and (not small or p.size <= 9) and (not unique or p.count == 1)]
    if family in ("variant", "json", "layout") and not unique:
        pool += [p for p in CATALOGUE["layouts"] if writable(p, family)]
    choice = draw(st.sampled_from(["catalogue"] * 4 + (["made"] if family in ("variant", "json") else [])
                                  + (["marks"] if family in ("sukaku", "candidates", "hodoku", "json") else [])))
    if choice == "made":
        puzzle = _small_variant(draw(st.randoms(use_true_random=False)))
        if (not unique or puzzle.count == 1) and writable(puzzle, family):
            return puzzle
    if choice == "marks":  # pencil marks that keep the one solution: the answer stays known
        base = draw(st.sampled_from(CATALOGUE["unique9"] if not small else CATALOGUE["unique_small"]))
        rng = draw(st.randoms(use_true_random=False))
        keep = draw(st.sampled_from((0.2, 0.5, 0.8)))
        assert base.solution is not None
        n = base.size
        marks = [
            {value for value in range(1, n + 1) if value == base.solution[cell] or rng.random() < keep}
            for cell in range(n * n)
        ]
        return base.with_marks(marks)
    fitting = [p for p in pool if writable(p, family)]
    if not fitting:  # no unique puzzle in this family (empty jigsaws): any will do
        return draw(puzzles(family, small=small))
    puzzle = draw(st.sampled_from(fitting))
    if puzzle.solution is not None and draw(st.integers(0, 3)) == 0:  # more givens, the same answer
        rng = draw(st.randoms(use_true_random=False))
        puzzle = puzzle.with_givens(cell for cell in range(len(puzzle.givens)) if rng.random() < 0.2)
    return puzzle


@st.composite
def styles(draw, family: str, size: int, full: bool = False) -> dict[str, Any]:
    """The form a record is written in: choices that keep its meaning."""
    style: dict[str, Any] = {}
    if family in ("line", "grid", "sukaku"):
        style["blank"] = draw(st.sampled_from(".0-" if size <= 9 else ".-"))
    if family in ("line", "grid", "leetcode"):
        # spaced digits with 0 for empty (or none empty) are rows of integers as well: not those
        style["spaced"] = draw(st.booleans()) and (family == "leetcode" or (style["blank"] != "0" and not full))
    if family in ("grid", "candidates"):
        # and a row of '-' (empty) cells split by '|' is a separator line: not that pair either
        style["rules"] = draw(st.booleans()) and style.get("blank") != "-"
    if family == "ints":
        style["sep"] = draw(st.sampled_from([" ", "  ", "\t", " \t"]))
    if family == "leetcode":
        style["quote"] = draw(st.sampled_from(['"', "'"]))
        style["numbers"] = draw(st.integers(0, 4)) == 0
    if family == "sukaku":
        style["gap"] = draw(st.sampled_from(["", "", "", " ", "\t", "\u0085"]))
    if family in ("candidates", "hodoku"):
        style["full"] = draw(st.sampled_from(["digits", "dot"]))
        style["aligned"] = draw(st.booleans())
    if family == "variant":
        style["glued"] = draw(st.booleans())
        style["shuffle"] = draw(st.none() | st.integers(0, 100))
    if family == "json":
        style.update(
            size=draw(st.booleans()), region_lists=draw(st.booleans()), diagonals_true=draw(st.booleans()),
            cage_objects=draw(st.booleans()), marks=draw(st.sampled_from(["pairs", "cells", "sukaku"])),
            named=draw(st.booleans()), compact=draw(st.booleans()), shuffle=draw(st.none() | st.integers(0, 100)),
        )  # fmt: skip
    return style


def repaired(text: str) -> str:
    """The text with no line that would end or hide a record: none blank, none a comment,
    none ``end`` (those are the stream's, not the record's)."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or stripped == "end":
            lines[index] = "." + line
    return "\n".join(lines)


@st.composite
def char_edits(draw, text: str) -> tuple[str, list[str]]:
    """A few edits of single characters or spans; never a new line (records keep their lines)."""
    done = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["replace", "insert", "delete", "span", "swap", "cut"]))
        at = draw(st.integers(0, max(0, len(text) - 1)))
        if kind == "replace" and text:
            new = draw(st.sampled_from(NASTY))
            text = text[:at] + new + text[at + 1 :]
            done.append(f"{at}:={new!r}")
        elif kind == "insert":
            new = draw(st.sampled_from(NASTY))
            text = text[:at] + new + text[at:]
            done.append(f"{at}:+{new!r}")
        elif kind == "delete":
            length = draw(st.integers(1, 3))
            text = text[:at] + text[at + length :]
            done.append(f"{at}:-{length}")
        elif kind == "span":  # a piece repeated
            length = draw(st.integers(1, 12))
            text = text[:at] + text[at : at + length] * 2 + text[at + length :]
            done.append(f"{at}:*{length}")
        elif kind == "swap" and len(text) > 1:
            other = draw(st.integers(0, len(text) - 1))
            chars = list(text)
            chars[at], chars[other] = chars[other], chars[at]
            text = "".join(chars)
            done.append(f"{at}<>{other}")
        elif kind == "cut":
            text = text[: at + 1]
            done.append(f"cut {at + 1}")
    return text.replace("\r", ""), done


#: values any JSON field may get in place of its own: the wrong type, null, a boolean, integers
#: too big for a float or for Python's int-to-text limit ("HUGE", see :func:`dumps`), a lone surrogate
ODD_VALUES: tuple[Any, ...] = (None, True, False, "HUGE", 10**400, 2**63, -1, 0, 1.5, "", "x", "\ud800", [], {}, [[]])
#: values that only make sense as mistakes of one field
ODD_BY_KEY: dict[str, tuple[Any, ...]] = {
    "givens": ("." * 80, "." * 81 + "\ud800", "1" * 81, "." * 625),
    "size": (1, 2, 4, 9, 25, 64, 65),
    "boxes": (0, "false"),
    "regions": ("1" * 81, "12" * 40 + "1", [[0, 1]], [list(range(9))] * 9, [list(range(k, 81, 9)) for k in range(9)]),
    "diagonals": ([["main"]], ["main", 1], "main", ["up"], [None]),
    "windoku": (1, "true"),
    "houses": ([[0, 1]], [list(range(9)), list(range(9))], [[0, 0, 1, 2, 3, 4, 5, 6, 7]], [[81] * 9], [[True] * 9]),
    "cages": ([[None, [0, 1]]], [[3, [0, 0]]], [[0, [0, 1]]], [[99, [0, 1, 2]]], [[-1, [5]]], [[True, [1]]], [[1.5, [0]]],
              [{"sum": 3}], [[3, []]], [["HUGE", [0]]], [[3, [81]]], [[3, [0, 1]], [4, [1, 2]]]),
    "candidates": ([[True, "1"]], [[0, "12"], [0, "3"]], [[81, "1"]], [[-1, "1"]], [[0, ""]], [[0, "x"]], [[0, 1]],
                   "1" * 729, "1" * 728, ["1"] * 81, [["HUGE", "1"]]),
}  # fmt: skip
JSON_KEYS = tuple(ODD_BY_KEY) + ("name", "solution", "extra", "\ud800")


def odd_value(key: str) -> st.SearchStrategy:
    """An odd value for a field: one of its own mistakes, or one any field may get."""
    own = ODD_BY_KEY.get(key, ())
    return (st.sampled_from(own) | st.sampled_from(ODD_VALUES)) if own else st.sampled_from(ODD_VALUES)


def dumps(value: Any) -> str:
    """JSON text, with the string ``"HUGE"`` written as an integer of 5,000 digits (more than
    Python's int-to-text limit, so no ``json.dumps`` can write it)."""
    return json.dumps(value).replace('"HUGE"', "1" * 5000)


@st.composite
def json_edits(draw, text: str) -> tuple[str, list[str]]:
    """Odd values for the keys of a JSON record, or for one element of a list in it."""
    record = json.loads(text)
    done = []
    for _ in range(draw(st.integers(1, 2))):
        key = draw(st.sampled_from(list(record) or JSON_KEYS) | st.sampled_from(tuple(ODD_BY_KEY)) | st.sampled_from(JSON_KEYS))
        action = draw(st.sampled_from(["set", "set", "drop", "element"]))
        if action == "drop":
            record.pop(key, None)
            done.append(f"-{key}")
        elif action == "element" and isinstance(record.get(key), list) and record[key]:
            index = draw(st.integers(0, len(record[key]) - 1))
            record[key][index] = draw(st.sampled_from(ODD_VALUES))
            done.append(f"{key}[{index}]={record[key][index]!r:.20}")
        else:
            record[key] = draw(odd_value(key))
            done.append(f"{key}={record[key]!r:.20}")
    return dumps(record), done


#: tokens a variant line gets in place of, or besides, its own
ODD_TOKENS = (
    "0:r1c1", "99:r1c1,r1c2", "-5:r1c1", "?:r0c0", "15:r1c1,r1c1", "15:", "?:", "3:r1c1,r1c2", "10:r10c10",
    "r1c1", "diagonals", "windoku", "main-diagonal", "anti-diagonal", "1" * 81, "12" * 40 + "1", "9" * 30 + ":r1c1",
    "3:r1c1", "17:r1c1,r1c2,r1c3", "4:r9c9,r8c9", "x", "DIAGONALS", "1" * 16, "12341234" * 2,
)  # fmt: skip


@st.composite
def token_edits(draw, text: str) -> tuple[str, list[str]]:
    tokens = text.split(" ")
    done = []
    for _ in range(draw(st.integers(1, 2))):
        at = draw(st.integers(0, len(tokens)))
        action = draw(st.sampled_from(["insert", "replace", "drop", "repeat"]))
        if action == "insert" or not tokens or at >= len(tokens):
            token = draw(st.sampled_from(ODD_TOKENS))
            tokens.insert(at, token)
            done.append(f"+{token[:20]}")
        elif action == "replace":
            tokens[at] = draw(st.sampled_from(ODD_TOKENS))
            done.append(f"{at}={tokens[at][:20]}")
        elif action == "drop" and len(tokens) > 1:
            done.append(f"-{tokens.pop(at)[:20]}")
        else:
            tokens.insert(at, tokens[at])
            done.append(f"*{tokens[at][:20]}")
    return " ".join(tokens), done


@st.composite
def row_edits(draw, text: str) -> tuple[str, list[str]]:
    """A row of a block record dropped, repeated or moved."""
    rows = text.split("\n")
    action = draw(st.sampled_from(["drop", "repeat", "move"]))
    at = draw(st.integers(0, len(rows) - 1))
    if action == "drop" and len(rows) > 1:
        rows.pop(at)
    elif action == "repeat":
        rows.insert(at, rows[at])
    else:
        rows.insert(draw(st.integers(0, len(rows) - 1)), rows.pop(at))
    return "\n".join(rows), [f"row {at} {action}"]


@st.composite
def records(draw, family: str, small: bool = False, unique: bool = False, mutate: float | None = None,
            structural: bool = False) -> Case:
    """A record of ``family``: a known puzzle in some form, mutated with probability
    ``mutate`` (None: drawn); ``structural``: always by the family's own edits (odd JSON
    values, variant tokens, rows) where it has them."""
    puzzle = draw(puzzles(family, small=small, unique=unique))
    style = draw(styles(family, puzzle.size, all(puzzle.givens)))
    text = write(puzzle, family, style)
    how = f"{puzzle.name} as {family} {style}"
    chance = draw(st.sampled_from((0.0, 0.5, 1.0))) if mutate is None else mutate
    if chance == 0.0 or (chance < 1.0 and draw(st.booleans())):
        return Case(family, text, puzzle, how)
    edits: list[str] = []
    if family == "json" and (structural or draw(st.booleans())):
        text, done = draw(json_edits(text))
        edits += done
    if family == "variant" and (structural or draw(st.booleans())):
        text, done = draw(token_edits(text))
        edits += done
    if family in BLOCKS and (structural or draw(st.integers(0, 3)) == 0):
        text, done = draw(row_edits(text))
        edits += done
    if not edits or (not structural and draw(st.booleans())):
        text, done = draw(char_edits(text))
        edits += done
    return Case(family, repaired(text), None, how + f" edited {edits}")


# -- feeds: a file of records and the options that read it --------------------------------------


@dataclass(frozen=True)
class Feed:
    """An input: records of one family, the bytes of the file that holds them, and the
    reading options (``--format``, ``--shape``, ``--symbols``)."""

    family: str
    cases: tuple[Case, ...]
    data: bytes
    options: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"Feed({self.family}, {len(self.cases)} records, options {self.options}, data={self.data!r})"

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(repr(self))

    @property
    def options_keep(self) -> bool:
        """The reading options keep the records' meaning (none, or the true ones)."""
        return "odd" not in self.options


def encode(text: str) -> bytes:
    """Bytes of a text whose surrogates U+DC80-U+DCFF stand for single undecodable bytes."""
    return text.encode("utf-8", "surrogateescape")


ODD_SHAPES = ("2x2", "3x3", "2x3", "3x2", "9", "7", "1x9", "0", "x", "4x4", "9x9", "25x25", "64", "65", "-3", "3x3x3", " 9 ")
ODD_SYMBOLS = ("12", "123456789", "ABCDEFGHI", "abcdefghi", "0123456789ABCDEF", "aa", "12345678\u00e9", "1234 6789", "123456789" * 2)


@st.composite
def reading_options(draw, family: str, cases: Sequence[Case]) -> tuple[str, ...]:
    """``--format``, ``--shape``, ``--symbols``: mostly none; the true ones (which keep the
    meaning); or odd ones (marked with a trailing ``odd`` word, dropped from the command)."""
    kind = draw(st.sampled_from(["none", "none", "true", "odd"]))
    if kind == "none":
        return ()
    options: list[str] = []
    if kind == "true":
        known = [case.puzzle for case in cases if case.puzzle is not None]
        if draw(st.booleans()):
            options += ["--format", FORMAT_OF[family]]
        sizes = {p.size for p in known}
        boxes = {p.box for p in known}
        if len(sizes) == 1 and len(boxes) == 1 and None not in boxes and len(known) == len(cases) and draw(st.booleans()):
            height, width = next(iter(boxes))
            options += ["--shape", draw(st.sampled_from([f"{height}x{width}", str(height * width)]))]
        alphabets = {p.symbols for p in known}
        if len(alphabets) == 1 and len(known) == len(cases) and family not in ("ints", "layout") and draw(st.booleans()):
            options += ["--symbols", next(iter(alphabets))]
        return tuple(options)
    if draw(st.booleans()):
        options += ["--format", draw(st.sampled_from(sorted(set(FORMAT_OF.values()))))]
    if draw(st.booleans()):
        options += ["--shape", draw(st.sampled_from(ODD_SHAPES))]
    if draw(st.booleans()):
        options += ["--symbols", draw(st.sampled_from(ODD_SYMBOLS))]
    return tuple(options) + ("odd",)


@st.composite
def feeds(draw, families: Sequence[str] = FAMILIES, most: int = 3, small: bool = False, unique: bool = False,
          mutate: float | None = None, options: bool = True, structural: bool = False) -> Feed:
    """A file of 1 to ``most`` records of one family, in any of the ways a file is laid out:
    CRLF, a BOM, comments and blank lines between records, ``end`` after the last."""
    family = draw(st.sampled_from(list(families)))
    cases = draw(st.lists(records(family, small=small, unique=unique, mutate=mutate, structural=structural), min_size=1, max_size=most))
    layout = draw(st.fixed_dictionaries({
        "crlf": st.booleans(), "bom": st.booleans(), "comment": st.booleans(), "blank": st.booleans(),
        "end": st.booleans(), "newline": st.booleans(),
    }))  # fmt: skip
    parts = []
    for index, case in enumerate(cases):
        if index and (family in BLOCKS or layout["blank"]):
            parts.append("")
        if index and layout["comment"]:
            parts.append("# a comment between records")
        parts.append(case.text)
    if layout["end"]:
        parts.append("end")
    text = "\n".join(parts) + ("\n" if layout["newline"] or layout["end"] else "")
    if layout["crlf"]:
        text = text.replace("\n", "\r\n")
    if layout["bom"]:
        text = "\ufeff" + text
    chosen = draw(reading_options(family, cases)) if options else ()
    return Feed(family, tuple(cases), encode(text), chosen)


# -- the worker: commands and requests run in a process that can be stopped ---------------------


@dataclass
class Outcome:
    """What one command or request did."""

    exit_code: int | None = None  #: the command's exit status (70 for an exception, as ``main`` says)
    stdout: str = ""
    stderr: str = ""
    error: str | None = None  #: the traceback of an unexpected exception
    elapsed: float = 0.0  #: seconds, measured around the call in the worker
    hung: bool = False  #: no answer within the deadline: the worker was stopped
    status: int | None = None  #: HTTP status of a request
    body: str = ""


def _warm_up(what: str) -> None:
    """Load (or compile, once) the kernels the strategies reach: the searches (``search``) or
    every one (``all``), so that a cold cache is not taken for a broken budget (the first
    call's own promise is the business of tests of their own)."""
    engines.warm_up()
    if what != "all":
        return
    for shape in ("4x4", "6x6", "9x9"):
        board = sudokit.generate(1, shape=shape, seed=1, mixing=1, symmetry="rot180")[0]
        sudokit.generate(1, shape=shape, seed=1, level="easy", time_limit=30)
        sudokit.rate(board)
        sudokit.explain(board)
    big = next(p for p in CATALOGUE["classic"] if p.size == 16 and p.count == 1)
    sudokit.rate(sudokit.Board.parse(write(big, "line", {})))  # the 16x16 rating loops
    canonical(sudokit.generate(1, seed=2)[0])
    api.warm_up()
    for puzzle in CATALOGUE["variants"][::4] + CATALOGUE["layouts"][:1]:  # the variant kernels
        sudokit.count(sudokit.Board.parse(write(puzzle, "json", {})), 2, node_limit=20_000)
    sukaku = write(CATALOGUE["unique9"][0].with_marks([range(1, 10)] * 81), "sukaku", {})
    sudokit.hint(sudokit.Board.parse(sukaku))
    sudokit.solve_batch(np.zeros((1, 81), dtype=np.uint8))


def _serve(conn, warm: str | None) -> None:
    """The worker's loop: a job in, its outcome out, until the pipe closes."""
    if warm:
        _warm_up(warm)
    logging.getLogger("sudokit.web").disabled = True  # a 500's traceback is the finding's, not the log's
    app = create_app()
    conn.send("ready")
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job["kind"] == "cli":
            outcome = _run_cli(CliRunner(), cli, job)
        else:
            outcome = _run_web(app, job)
        conn.send(outcome)


def _run_cli(runner, cli, job: dict) -> Outcome:
    start = time.perf_counter()
    result = runner.invoke(cli, job["args"], input=job["stdin"], catch_exceptions=True)
    elapsed = time.perf_counter() - start
    error = None
    code = result.exit_code
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        error = "".join(traceback.format_exception(result.exception))
        code = 70  # what sudokit.cli.main turns an exception into
    return Outcome(code, result.stdout_bytes.decode("utf-8", "surrogateescape"),
                   result.stderr_bytes.decode("utf-8", "surrogateescape"), error, elapsed)  # fmt: skip


def _run_web(app, job: dict) -> Outcome:
    async def go():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            headers = {"content-type": "application/json"}
            return await client.request(job["method"], job["path"], content=job["body"], headers=headers)

    start = time.perf_counter()
    try:
        response = asyncio.run(go())
    except Exception:  # the app let an exception through: what a server answers with 500
        return Outcome(error=traceback.format_exc(), elapsed=time.perf_counter() - start, status=500)
    elapsed = time.perf_counter() - start
    jobs = app.state.jobs
    waited = time.perf_counter()
    while jobs.running and time.perf_counter() - waited < 5:  # calls given up on: keep the cores free
        time.sleep(0.05)
    outcome = Outcome(elapsed=elapsed, status=response.status_code, body=response.content.decode("utf-8", "replace"))
    if jobs.running:
        outcome.stderr = "busy"  # the worker is replaced before the next job
    return outcome


class Worker:
    """A process that runs commands and requests (:data:`Outcome` each), replaced when one
    outlives its deadline. ``warm``: the kernels it loads before the first job (``all``,
    ``search`` or None)."""

    def __init__(self, warm: str | None = "all", start_timeout: float = 1800.0) -> None:
        self.warm = warm
        self.start_timeout = start_timeout
        self._process = None
        self._conn = None
        self.started = 0  #: processes started (the first, and one after each hang)

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe()
        self._process = context.Process(target=_serve, args=(child, self.warm), daemon=True, name="sudokit-fuzz")
        self._process.start()
        child.close()
        self.started += 1
        if not self._conn.poll(self.start_timeout):
            self.stop()
            raise RuntimeError(f"the fuzzing worker did not start within {self.start_timeout:g} s")
        self._conn.recv()

    def run(self, job: dict, deadline: float) -> Outcome:
        """Run ``job``; a hung outcome when no answer comes within ``deadline`` seconds."""
        if self._process is None or not self._process.is_alive():
            self.stop()
            self._start()
        assert self._conn is not None
        self._conn.send(job)
        try:
            ready = self._conn.poll(deadline)
            outcome = self._conn.recv() if ready else None
        except (EOFError, OSError):  # the worker died (a crash of the interpreter itself)
            self.stop()
            return Outcome(error="the worker process died", elapsed=deadline, exit_code=-1)
        if outcome is None:
            self.stop()
            return Outcome(hung=True, elapsed=deadline)
        if outcome.stderr == "busy":
            self.stop()
            outcome.stderr = ""
        return outcome

    def stop(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.join()
            self._process.close()
        if self._conn is not None:
            self._conn.close()
        self._process = self._conn = None

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


# -- runs: a command line over a feed -----------------------------------------------------------

TIME_LIMITS = ("0", "0.001", "0.05", "0.2", "0.5", "1")
ODD_TIME_LIMITS = ("nan", "inf", "-1", "1e400", "1e-400", "0x10", "")
NODE_LIMITS = ("1", "10", "1000", "100000")
#: node limits that bound a run's time as well (see :func:`runs`)
SMALL_NODE_LIMITS = ("1", "10", "1000")
ODD_NODE_LIMITS = ("0", "-5", "99999999999999999999999", "1.5", "9223372036854775807")
ODD_COUNT_LIMITS = ("0", "99999999999999999999999", "9223372036854775807", "-1")


@dataclass(frozen=True)
class Run:
    """A command line over a feed (or none, for ``generate``)."""

    command: str
    args: tuple[str, ...]  #: every argument after ``sudokit``
    feed: Feed | None
    #: seconds the whole run may take under its time limits (None: no time budget)
    budget: float | None

    @property
    def deadline(self) -> float:
        """How long the worker waits before it calls the run hung."""
        return NO_BUDGET if self.budget is None else self.budget + BUDGET_SLACK + MEASURE_SLACK + 2.0

    def option(self, name: str, default: str | None = None) -> str | None:
        args = list(self.args)
        return args[args.index(name) + 1] if name in args and args.index(name) + 1 < len(args) else default

    def flag(self, name: str) -> bool:
        return name in self.args

    def __repr__(self) -> str:
        return f"Run({self.shell()})"

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(repr(self))

    def job(self) -> dict:
        return {"kind": "cli", "args": list(self.args), "stdin": self.feed.data if self.feed else b""}

    def shell(self) -> str:
        """The command that shows what this run did, as one shell line."""
        command = "sudokit " + " ".join(_shell_word(arg) for arg in self.args)
        if self.feed is None:
            return command
        return f"printf {_printf(self.feed.data)} | {command}"


def _shell_word(word: str) -> str:
    if word and re.fullmatch(r"[\w./:=+-]+", word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"


def _printf(data: bytes) -> str:
    """A ``printf`` format that writes exactly ``data``."""
    out = []
    for byte in data:
        char = chr(byte)
        if char == "%":
            out.append("%%")
        elif char == "\\":
            out.append("\\\\")
        elif char == "'":
            out.append("'\\''")
        elif char == "\n":
            out.append("\\n")
        elif 32 <= byte < 127:
            out.append(char)
        else:
            out.append(f"\\{byte:03o}")
    return "'" + "".join(out) + "'"


def _seconds(text: str | None) -> float | None:
    """A time limit as the command reads it; None for none or one it must refuse."""
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if value >= 0 and math.isfinite(value) else None


@st.composite
def budgets(draw, odd: bool = True) -> list[str]:
    """``--time-limit`` and ``--node-limit``: none, usual ones or odd ones."""
    args: list[str] = []
    kind = draw(st.sampled_from(["time", "time", "both", "nodes", "odd" if odd else "time"]))
    if kind in ("time", "both"):
        args += ["--time-limit", draw(st.sampled_from(TIME_LIMITS))]
    if kind in ("nodes", "both"):
        args += ["--node-limit", draw(st.sampled_from(NODE_LIMITS))]
    if kind == "odd":
        if draw(st.booleans()):
            args += ["--time-limit", draw(st.sampled_from(ODD_TIME_LIMITS))]
        else:
            args += ["--node-limit", draw(st.sampled_from(ODD_NODE_LIMITS))]
    return args


#: the commands that read puzzles, and whether their --time-limit bounds all their work
READING = ("solve", "count", "hint", "explain", "rate", "canon", "shuffle", "batch")


@st.composite
def runs(draw, commands: Sequence[str] = READING, small: bool = False, families: Sequence[str] = FAMILIES,
         mutate: float | None = None, most: int = 3, structural: bool = False) -> Run:
    """A command over a feed, with the options that command takes (odd ones too)."""
    command = draw(st.sampled_from(list(commands)))
    human = command in ("hint", "explain", "rate", "canon")
    feed = draw(feeds(families, most=most, small=small or human, mutate=mutate, structural=structural))
    args = [command] + [arg for arg in feed.options if arg != "odd"]
    time_bounded = command in ("solve", "count", "batch")
    if command == "solve":
        args += draw(budgets())
        if draw(st.booleans()):
            args.append("--unique")
        output = draw(st.sampled_from([None, None, None, "--to", "--pretty"]))
        if output == "--to":
            args += ["--to", draw(st.sampled_from(sorted(set(FORMAT_OF.values()))))]
        elif output == "--pretty":
            args.append("--pretty")
        if draw(st.integers(0, 3)) == 0:
            args.append("--stats")
    elif command == "count":
        args += draw(budgets())
        limit = draw(st.sampled_from([None, "1", "2", "10", "1000", "odd"]))
        if limit == "odd":
            limit = draw(st.sampled_from(ODD_COUNT_LIMITS))
        if limit is not None:
            args += ["--limit", limit]
    elif command in ("explain", "rate"):
        scale = draw(st.sampled_from(["hodoku", "hodoku", "se"]))
        if scale == "se":
            args += ["--scale", "se"] + draw(budgets())
            time_bounded = True
        if command == "explain" and draw(st.integers(0, 3)) == 0:
            args.append("--pretty")
        if command == "rate":
            to = draw(st.sampled_from([None, "text", "tsv", "json"]))
            if to:
                args += ["--to", to]
    elif command == "shuffle":
        seed = draw(st.sampled_from(["0", "1", "12345", "-1", "99999999999999999999999", "x"]))
        args += ["--seed", seed]
    elif command == "batch":
        args = ["batch", "-", "-o", "-", "--threads", "--workers", "1"] + args[1:] + draw(budgets())
        limit = draw(st.sampled_from([None, "1", "2", "10", "odd"]))
        if limit is not None:
            args += ["--limit", draw(st.sampled_from(ODD_COUNT_LIMITS)) if limit == "odd" else limit]
        if draw(st.integers(0, 3)) == 0:
            args += ["--chunk-size", draw(st.sampled_from(["1", "2", "0"]))]
        if draw(st.integers(0, 4)) == 0:
            args.append("--rate")
            time_bounded = False
    run = Run(command, tuple(args), feed, None)
    seconds = _seconds(run.option("--time-limit"))
    if time_bounded and seconds is None and run.option("--node-limit") in SMALL_NODE_LIMITS:
        seconds = 0.0  # a thousand nodes take milliseconds: the run ends within the slack
    if time_bounded and seconds is not None:
        run = replace(run, budget=seconds * len(feed.cases))
    return run


@st.composite
def generate_runs(draw, big: bool = True) -> Run:
    """``generate`` with odd options: shapes of every spelling, symmetries, clue counts,
    levels, score ranges, seeds and budgets (always one, since a target may be out of reach)."""
    shapes = ["4x4", "4", "2x2", "6x6", "2x3", "3x2", "6", "9x9", "9", "3x3", "8", "1x4", "0", "x", "7", "3x3x3"]
    if big:
        shapes += ["16x16", "12", "25x25", "64"]
    args = ["generate", "--workers", "1", "--shape", draw(st.sampled_from(shapes))]
    args += ["-n", draw(st.sampled_from(["1", "1", "2", "0", "-1"]))]
    if draw(st.booleans()):
        args += ["--symmetry", draw(st.sampled_from(["none", "rot180", "rot90", "mirror", "flip", "diagonal", "antidiagonal", "dihedral", "spiral"]))]
    if draw(st.integers(0, 3)) == 0:
        args += ["--clues", draw(st.sampled_from(["1", "5", "17", "25", "40", "0", "-1"]))]
    minimal = draw(st.sampled_from([None, "--minimal", "--not-minimal", "--strict-minimal"]))
    if minimal:
        args.append(minimal)
    if draw(st.integers(0, 3)) == 0:
        args += ["--mixing", draw(st.sampled_from(["1", "5", "-1"]))]
    if draw(st.integers(0, 3)) == 0:
        args += ["--level", draw(st.sampled_from(["easy", "medium", "hard+", "extreme", "bogus", "Easy"]))]
    if draw(st.integers(0, 4)) == 0:
        args += ["--score", draw(st.sampled_from(["0-1000", "100-", "-500", "x", "500-100", "99999999999999999999999-"]))]
    args += ["--seed", draw(st.sampled_from(["0", "1", "7", "2026", "-1", "99999999999999999999999"]))]
    if draw(st.integers(0, 4)) == 0:
        args += ["--attempts", draw(st.sampled_from(["1", "10", "0"]))]
    args += ["--time-limit", draw(st.sampled_from(["0.5", "1", "2", "3", "0"] + (["nan"] if big else [])))]
    args += ["--to", draw(st.sampled_from(sorted(set(FORMAT_OF.values()))))]
    run = Run("generate", tuple(args), None, None)
    return replace(run, budget=_seconds(run.option("--time-limit")))


# -- findings -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    """An invariant a run broke: where (command or endpoint), what kind, the detail, and the
    shell line that shows it."""

    where: str
    kind: str
    detail: str
    reproducer: str
    size: int = 0  #: bytes of input: the smallest reproducer of a kind is kept

    @property
    def signature(self) -> tuple[str, str, str]:
        """What makes two findings the same: numbers, cells and quoted text do not count."""
        detail = re.sub(r"[\w/.]+\.(txt|jsonl):\d+( \(pencil marks\))?|\dx\d variant[\w ]*", "<puzzle>", self.detail)
        detail = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", detail)
        detail = re.sub(r"r\d+c\d+", "rXcY", detail)
        detail = re.sub(r"\d+(\.\d+)?", "N", detail)
        return self.where, self.kind, detail[:160]

    def __str__(self) -> str:
        return f"[{self.where}] {self.kind}: {self.detail}\n    {self.reproducer}"


#: kinds that break an invariant; "slow" (no answer in NO_BUDGET seconds, with no budget asked)
#: is reported but breaks none
BROKEN = ("exit 70", "exit status", "traceback", "records", "rules", "answer", "budget", "500", "step", "message", "read back")


def _last_line(trace: str) -> str:
    """The exception and the innermost sudokit frame of a traceback, on one line."""
    lines = [line for line in trace.strip().splitlines() if line.strip()]
    frames = [line.strip() for line in lines if line.strip().startswith('File "') and "sudokit" in line and "click" not in line]
    place = re.sub(r'File ".*?(sudokit/[^"]+)", line (\d+), in (\S+)', r"\1:\2 in \3", frames[-1]) if frames else ""
    return f"{lines[-1]} ({place})" if place else lines[-1]


# -- reading the answers back -----------------------------------------------------------------------

#: what an unsolved record prints in place of a board (see sudokit.cli.base.MARKERS)
MARKERS = {
    "no solution": "no solution",
    "several solutions": "several",
    "unknown (budget exhausted)": "unknown",
    "error": "error",
}


def marker_of(text: str) -> str | None:
    """The status a marker record stands for, or None for an answer."""
    first = text.strip().split("\n")[0]
    for words, status in MARKERS.items():
        if first == words or first.startswith(words + ":"):
            return status
    return None


def split_lines(text: str) -> list[str]:
    pieces = text.split("\n")
    if pieces and pieces[-1] == "":
        pieces.pop()
    return pieces


def split_blocks(text: str) -> list[str]:
    """Records written as blocks of lines, each ended by one blank line."""
    blocks, current = [], []
    for line in split_lines(text):
        if line.strip():
            current.append(line)
        elif current:
            blocks.append("\n".join(current))
            current = []
        else:
            blocks.append("")  # a second blank line: an empty record
    if current:
        blocks.append("\n".join(current))
    return blocks


def split_explanations(text: str) -> list[str]:
    """``explain``'s records: a marker line, or a block (the puzzle, the steps, the rating)
    ended by a blank line."""
    records, current = [], []
    for line in split_lines(text):
        if not current and marker_of(line) is not None:
            records.append(line)
        elif line.strip():
            current.append(line)
        elif current:
            records.append("\n".join(current))
            current = []
        else:
            records.append("")
    if current:
        records.append("\n".join(current))
    return records


def output_format(run: Run, detected: str | None) -> str:
    """The format answers are written in: ``--to``, ``--pretty``, else the input's."""
    if run.flag("--pretty") and run.command == "solve":
        return "pretty"
    chosen = run.option("--to") if run.command == "solve" else None
    return chosen or detected or FORMAT_OF[run.feed.family if run.feed else "line"]


def output_records(run: Run, out: str, detected: str | None = None) -> list[str]:
    """The records of a run's output, split as its command writes them (``solve`` and
    ``shuffle`` in the format the input was read in, ``detected``, unless told another)."""
    if run.command in ("count", "hint", "canon", "batch"):
        return split_lines(out)
    if run.command == "rate":
        lines = split_lines(out)
        return lines[1:] if run.option("--to") == "tsv" else lines
    if run.command == "explain":
        return split_explanations(out)
    written = output_format(run, detected)
    return split_blocks(out) if written in BLOCKS else split_lines(out)


def read_options(feed: Feed) -> dict | None:
    """The feed's ``--format``, ``--shape`` and ``--symbols`` as ``sudokit.read`` takes them;
    None where the command line refuses them before reading."""
    args = list(feed.options)
    option = lambda name: args[args.index(name) + 1] if name in args else None  # noqa: E731
    try:
        shape = Shape.parse(option("--shape")) if option("--shape") is not None else None
    except ValueError:
        return None
    symbols = option("--symbols")
    if symbols is not None and ("\\" in symbols or len(symbols) < 2):
        return None
    return {"format": option("--format"), "shape": shape, "symbols": symbols}


def read_feed(feed: Feed) -> list | None:
    """How sudokit reads a feed under its options (its records); None where the options are
    refused. Raises what reading raises."""
    options = read_options(feed)
    if options is None:
        return None
    return list(sudokit.read(feed.data.splitlines(keepends=True), **options))


def records_match(feed: Feed, written: int, detected: str | None) -> bool:
    """Whether ``written`` records answer the feed's records: one each, but where a format of
    blocks was forced on lines (or the reverse), which lines make a record is moot, and a
    LeetCode text may hold two boards on one line."""
    forced = dict(zip(feed.options[::2], feed.options[1::2])).get("--format")
    if forced is not None and (forced in BLOCKS) != (feed.family in BLOCKS):
        return True
    expected = len(feed.cases)
    return written == expected or (written > expected and (forced or detected) == "leetcode")


def answer_values(text: str, fmt: str, board) -> list[int] | None:
    """The values of an answer written in ``fmt`` for ``board``'s shape and alphabet (a
    one-candidate pencil mark counts as the value); None when it does not read."""

    fmt = "variant" if fmt == "layout" else fmt  # a layout's solution is written as a variant line
    try:
        answer = sudokit.Board.parse(text + "\n", format=fmt, shape=board.shape, symbols=board.symbols)
    except Exception:
        return None
    values = answer.cells.tolist()
    if answer.candidates is not None:
        for cell, mask in enumerate(answer.candidates.tolist()):
            if not values[cell] and mask and mask & (mask - 1) == 0:
                values[cell] = mask.bit_length()
    return values


def rules_of(board) -> Rules:
    """A board's rules as sudokit read them (for a record whose meaning a mutation changed)."""
    n = board.size
    marks = None
    if board.candidates is not None:
        marks = tuple(frozenset(v + 1 for v in range(n) if mask >> v & 1) for mask in board.candidates.tolist())
    return Rules(
        n, tuple(tuple(int(c) for c in house) for house in board.geometry.houses.tolist()), tuple(board.cells.tolist()),
        tuple((cage.total, tuple(cage.cells)) for cage in board.cages), marks,
    )  # fmt: skip


def in_puzzle_values(puzzle: Puzzle, board, values: Sequence[int]) -> list[int]:
    """Values of sudokit's reading of ``board`` renamed to the known puzzle's numbering (the
    same symbols; numbers where the record was written in numbers)."""
    symbols = board.symbols
    if all(char in puzzle.symbols for char in symbols):
        return [puzzle.symbols.index(symbols[v - 1]) + 1 if 1 <= v <= len(symbols) else v for v in values]
    return list(values)


def reference_count(rules: Rules, limit: int, box: tuple[int, int] | None = None) -> int | None:
    """Solutions up to ``limit`` by ``naive.py`` (classic boards to 6x6) or the brute force
    (any rules to 6x6); None for bigger boards or where the brute force gives up."""
    if rules.size > 6 or limit < 1:
        return None
    classic = box is not None and not rules.cages and rules.candidates is None and len(rules.houses) == 3 * rules.size
    if classic and tuple(rules.houses) == tuple(lines_and_boxes(rules.size, box)):
        return naive.count(list(rules.givens), box[0], box[1], limit)
    found = brute_force(rules, limit=limit, nodes=300_000)
    return None if found is None else len(found)


def reference_count_of(board, limit: int = 2) -> int | None:
    """:func:`reference_count` of a board as sudokit read it; a 9x9 board of boxes goes to
    ``naive.py`` too, its one-candidate pencil marks taken as givens, where every other cell
    keeps every candidate (a generated puzzle written as a Sukaku or candidate grid)."""
    rules, box = rules_of(board), box_of(board)
    found = reference_count(rules, limit, box)
    if found is not None or box != (3, 3) or rules.cages:
        return found
    givens = list(rules.givens)
    for cell, allowed in enumerate(rules.candidates or ()):
        if len(allowed) == 1:
            givens[cell] = next(iter(allowed))
        elif len(allowed) != 9 and not givens[cell]:
            return None
    return naive.count(givens, 3, 3, limit)


def meaning_of(board) -> list[frozenset[int]]:
    """Each cell's possible values as sudokit read them (see :meth:`Puzzle.meaning`)."""
    n = board.size
    every = frozenset(range(1, n + 1))
    marks = board.candidates.tolist() if board.candidates is not None else None
    return [
        frozenset([value]) if value else (frozenset(v + 1 for v in range(n) if marks[cell] >> v & 1) if marks else every)
        for cell, value in enumerate(board.cells.tolist())
    ]


def box_of(board) -> tuple[int, int] | None:
    geometry = board.geometry
    shape = board.shape
    return (shape.box_height, shape.box_width) if geometry.is_boxed(shape) and len(geometry.houses) == 3 * shape.size else None


# -- steps of the human side -------------------------------------------------------------------------

_RESULT = re.compile(r"((?:r\d+c\d+)(?:,r\d+c\d+)*)(<>|=)(\S+?)(?=,\s|$|\s)")


def step_claims(text: str, symbols: str) -> list[tuple[int, int, int, bool]]:
    """(row, column, value, placed) for each placement (True) and elimination (False) a step's
    line states (``Naked Pair: 3/7 in r5c1,r5c4 => r5c7<>3``; its result follows the last
    ``=>``, or the colon for a single)."""
    result = text.rsplit(" => ", 1)[1] if " => " in text else text.split(": ", 1)[-1]
    claims = []
    for cells, sign, values in _RESULT.findall(result.strip().rstrip(".")):
        for cell in cells.split(","):
            row, column = (int(x) for x in re.findall(r"\d+", cell))
            for symbol in values.split("/"):
                if symbol in symbols:
                    claims.append((row - 1, column - 1, symbols.index(symbol) + 1, sign == "="))
    return claims


def unsound(claims: Iterable[tuple[int, int, int, bool]], solution: Sequence[int], n: int) -> list[str]:
    """The claims that contradict the solution: a wrong value placed, the true one removed."""
    wrong = []
    for row, column, value, placed in claims:
        truth = solution[row * n + column]
        if placed and value != truth:
            wrong.append(f"r{row + 1}c{column + 1}={value} where the solution has {truth}")
        if not placed and value == truth:
            wrong.append(f"r{row + 1}c{column + 1}<>{value} removes the solution's value")
    return wrong


# -- the checks of a command's run ---------------------------------------------------------------


def check_run(run: Run, outcome: Outcome) -> list[Finding]:
    """Every invariant ``run`` broke, judged from its outcome alone."""
    found: list[Finding] = []
    size = len(run.feed.data) if run.feed else 0

    def add(kind: str, detail: str) -> None:
        found.append(Finding(run.command, kind, detail, run.shell(), size))

    if outcome.hung:
        if run.budget is not None:
            add("budget", f"no answer {run.deadline:g} s into a run whose time budget is {run.budget:g} s")
        else:
            add("slow", f"no answer within {NO_BUDGET:g} s (no time budget asked)")
        return found
    if outcome.error:
        add("exit 70", _last_line(outcome.error))
        return found
    if outcome.exit_code not in EXITS:
        add("exit status", f"exit {outcome.exit_code}: {outcome.stderr.strip()[-200:]}")
    if "Traceback" in outcome.stderr or "internal error" in outcome.stderr:
        add("traceback", outcome.stderr.strip().splitlines()[-1][:200])
    if run.budget is not None and outcome.elapsed > run.budget + BUDGET_SLACK + MEASURE_SLACK:
        add("budget", f"{outcome.elapsed:.2f} s for a time budget of {run.budget:g} s")
    if run.command == "generate":
        _check_generated(run, outcome, add)
        return found
    assert run.feed is not None
    if outcome.exit_code == 2 and not outcome.stdout.strip():
        return found  # options refused as a whole (a usage error): nothing was read
    family = run.feed.family
    try:
        read = read_feed(run.feed)
    except Exception:  # the command itself read it: what reading raises shows in its outcome
        read = None
    detected = read[0].format if read else None
    outs = output_records(run, outcome.stdout, detected)
    if not records_match(run.feed, len(outs), detected):
        add("records", f"{family}: {len(run.feed.cases)} record(s) in, {len(outs)} out")
        return found
    if len(outs) != len(run.feed.cases):
        return found
    boards = [record.board for record in read] if read is not None and len(read) == len(run.feed.cases) else None
    fmt = output_format(run, detected)
    statuses = []
    for index, (case, text) in enumerate(zip(run.feed.cases, outs)):
        board = boards[index] if boards else None
        said = _messages(outcome.stderr, read[index].line, case) if boards else []
        statuses.append(_check_record(run, index, case, text, board, fmt, said, add))
    located = len(re.findall(r"^<stdin>:\d+:\d+: ", outcome.stderr, re.M))
    if statuses.count("error") > located:
        add("message", f"{family}: {statuses.count('error')} record(s) refused, {located} message(s) naming line and column")
    expected = _expected_exit(run, statuses)
    if expected is not None and outcome.exit_code in EXITS and outcome.exit_code != expected:
        add("exit status", f"exit {outcome.exit_code} where the records ({', '.join(statuses)}) make {expected}")
    return found


def _expected_exit(run: Run, statuses: list[str]) -> int | None:
    """The exit status the records' statuses make (``sudokit.results.exit_code``'s rule)."""
    if run.command == "explain" and run.option("--scale") == "se":
        return None  # an unknown SE path prints no word of its own to count
    if "error" in statuses:
        return 2
    counting = run.command == "count" or (run.command == "batch" and int(run.option("--limit", "1")) > 2)
    if not counting and ("no solution" in statuses or "several" in statuses):
        return 1
    return 3 if "unknown" in statuses else 0


def _budgeted(run: Run) -> bool:
    return run.option("--time-limit") is not None or run.option("--node-limit") is not None


def _intact(run: Run, case: Case) -> Puzzle | None:
    """The puzzle a record still means: its text is intact, the options keep its meaning, and
    the stream's format is still its own (detected from the first record, or given)."""
    feed = run.feed
    if case.puzzle is None or feed is None or not feed.options_keep:
        return None
    return case.puzzle if feed.cases[0].puzzle is not None or "--format" in feed.options else None


def _solution_of(puzzle: Puzzle | None, board) -> tuple[list[int] | None, str]:
    """The one solution a record has, in sudokit's numbering of ``board``, and its alphabet:
    the data's where the record is known, else the brute force's on small boards."""
    if puzzle is not None:
        if puzzle.count != 1 or puzzle.solution is None:
            return None, puzzle.symbols
        return list(puzzle.solution), puzzle.symbols
    if board is None or board.size > 6:
        return None, ""
    found = brute_force(rules_of(board), limit=2)
    return (list(found[0]), board.symbols) if found is not None and len(found) == 1 else (None, board.symbols)


#: families whose boards are pencil marks (a candidate grid's open cells are marks too)
MARKED = ("sukaku", "candidates", "hodoku")


def _takes(command: str, puzzle: Puzzle, family: str, scale: str | None = None) -> bool:
    """Whether a command (or endpoint) must answer a known puzzle rather than refuse it."""
    classic = puzzle.classic and family not in MARKED
    if command in ("solve", "count", "batch", "parse"):
        return True
    if command == "hint" or (command == "explain" and scale != "se"):
        return puzzle.marks_only
    if command in ("rate", "explain"):
        return classic and (scale != "se" or puzzle.size == 9)
    if command in ("canon", "canonical"):
        return classic and puzzle.size == 9 and not _givens_clash(puzzle.rules)
    if command == "shuffle":
        return classic
    return False


def _givens_clash(rules: Rules) -> bool:
    for house in rules.houses:
        values = [rules.givens[c] for c in house if rules.givens[c]]
        if len(values) != len(set(values)):
            return True
    return False


def _messages(stderr: str, line: int, case: Case) -> list[str]:
    """What stderr says about the record that starts on ``line``."""
    last = line + case.text.count("\n")
    return [message for number, message in re.findall(r"^<stdin>:(\d+):\d+: (.*)$", stderr, re.M) if line <= int(number) <= last]


def _check_record(run: Run, index: int, case: Case, text: str, board, fmt: str, said: list[str], add) -> str:
    """Check one output record against its input record; its status."""
    command, family = run.command, case.family
    puzzle = _intact(run, case)
    if command == "batch":
        return _check_batch_record(run, index, case, text, board, add)
    status = marker_of(text)
    if status is not None:
        if puzzle is not None:
            if status == "error" and _takes(command, puzzle, family, run.option("--scale")):
                add("answer", f"{family}: {puzzle.name} refused: {said[0] if said else '(no message)'}")
            if status == "no solution" and puzzle.solvable:
                add("answer", f"{family}: 'no solution' for {puzzle.name}, which has one")
            if status == "several" and puzzle.count == 1:
                add("answer", f"{family}: 'several solutions' for {puzzle.name}, which has one")
        if status == "unknown" and not _budgeted(run):
            add("answer", f"{family}: unknown with no budget given")
        if status in ("no solution", "several") and puzzle is None and board is not None:
            reference = reference_count(rules_of(board), 2, box_of(board))
            if reference is not None and (reference == 0) != (status == "no solution"):
                add("answer", f"{family}: '{status}' where the reference finds {reference} solution(s)")
        return status
    if command == "solve":
        _check_solution(run, case, puzzle, text, board, fmt, add)
    elif command == "count":
        _check_count(run, case, puzzle, text, board, add)
    elif command in ("hint", "explain"):
        if puzzle is not None and puzzle.count is not None and puzzle.count != 1:
            add("answer", f"{family}: a {command} for {puzzle.name}, which has {puzzle.count} solutions")
        solution, symbols = _solution_of(puzzle, board)
        if solution is not None:
            lines = [text] if command == "hint" else [m for m in re.findall(r"^\d+\. (.*)$", text, re.M)]
            for line in lines:
                wrong = unsound(step_claims(line, symbols), solution, len(solution) and math.isqrt(len(solution)))
                if wrong:
                    add("step", f"{family}: {line.split(':')[0]}: {wrong[0]}")
                    break
        if command == "explain" and run.option("--scale") == "se" and ">=" in text.split("\n")[-1]:
            return "unknown"
    elif command == "rate":
        if puzzle is not None and puzzle.count is not None and puzzle.count != 1:
            add("answer", f"{family}: a rating for {puzzle.name}, which has {puzzle.count} solutions")
        if " >=" in text or text.endswith("\tunknown") or '"status": "unknown"' in text:
            return "unknown"
    elif command == "shuffle" and board is not None:
        values = answer_values(text, fmt, board)
        if values is None:
            add("read back", f"{family}: the shuffled board does not read back as {fmt}: {text[:80]!r}")
        elif sum(1 for v in values if v) != board.givens:
            add("answer", f"{family}: {board.givens} givens in, {sum(1 for v in values if v)} out")
    return "solved"


def _check_solution(run: Run, case: Case, puzzle: Puzzle | None, text: str, board, fmt: str, add) -> None:
    family = case.family
    if board is None:
        return  # sudokit's reader disagrees with the run's; a reading difference shows elsewhere
    values = answer_values(text, fmt, board)
    if values is None:
        add("read back", f"{family}: the solution does not read back as {fmt}: {text[:80]!r}")
        return
    rules = puzzle.rules if puzzle is not None else rules_of(board)
    if puzzle is not None:
        values = in_puzzle_values(puzzle, board, values)
    broken = broken_rules(rules, values)
    if broken:
        add("rules", f"{family}: the solution breaks {len(broken)} rule(s): {broken[0]}")
    if puzzle is not None and run.flag("--unique") and puzzle.count is not None and puzzle.count >= 2:
        add("answer", f"{family}: {puzzle.name} has {puzzle.count} solutions, solved under --unique")


def _check_count(run: Run, case: Case, puzzle: Puzzle | None, text: str, board, add) -> None:
    family = case.family
    try:
        number = int(text)
    except ValueError:
        add("read back", f"{family}: count printed {text[:80]!r}")
        return
    limit = int(run.option("--limit", "1000000"))
    if puzzle is not None:
        if puzzle.count is not None and number != min(puzzle.count, limit):
            add("answer", f"{family}: count {number} for {puzzle.name}, which has {puzzle.count} (limit {limit})")
        elif puzzle.solvable and number == 0:
            add("answer", f"{family}: count 0 for {puzzle.name}, which has a solution")
    elif board is not None:
        cap = min(limit, 50)
        reference = reference_count(rules_of(board), cap, box_of(board))
        if reference is not None and min(number, cap) != reference:
            add("answer", f"{family}: count {number} where the reference counts {reference} (to {cap})")


def _check_batch_record(run: Run, index: int, case: Case, text: str, board, add) -> str:
    family = case.family
    try:
        record = json.loads(text)
    except ValueError:
        add("read back", f"{family}: record {index} is not JSON: {text[:80]!r}")
        return "error"
    if record.get("index") != index:
        add("records", f"{family}: record {index} comes with index {record.get('index')}")
    status = record.get("status")
    if status not in ("solved", "no solution", "several", "unknown", "error"):
        add("read back", f"{family}: record {index} has status {status!r}")
        return "error"
    status = str(status)
    puzzle = _intact(run, case)
    limit = int(run.option("--limit", "1"))
    if status == "error":
        if not re.match(r"\d+:\d+: ", str(record.get("error", ""))):
            add("message", f"{family}: record {index} refused without line and column: {record.get('error')!r:.80}")
        if puzzle is not None:
            add("answer", f"{family}: {puzzle.name} refused: {record.get('error')!r:.120}")
        return status
    solution = record.get("solution")
    if solution and board is not None:
        values = answer_values(solution, "line", board)
        if values is None:
            add("read back", f"{family}: the solution of record {index} does not read back: {solution[:80]!r}")
        else:
            rules = puzzle.rules if puzzle is not None else rules_of(board)
            broken = broken_rules(rules, in_puzzle_values(puzzle, board, values) if puzzle is not None else values)
            if broken:
                add("rules", f"{family}: the solution breaks {len(broken)} rule(s): {broken[0]}")
    if status == "unknown" and not _budgeted(run):
        add("answer", f"{family}: unknown with no budget given")
    if puzzle is not None and status != "unknown":
        if status == "no solution" and puzzle.solvable:
            add("answer", f"{family}: 'no solution' for {puzzle.name}, which has one")
        if puzzle.count is not None and limit >= 2 and record.get("count") != min(puzzle.count, limit):
            add("answer", f"{family}: count {record.get('count')} for {puzzle.name}, which has {puzzle.count} (limit {limit})")
    return status


def _check_generated(run: Run, outcome: Outcome, add) -> None:
    """A generated puzzle reads back as itself, with one solution and within its clue count,
    by default and under the same ``--shape``; as many as asked."""

    if outcome.exit_code != 0:
        return
    fmt = run.option("--to", "line")
    texts = split_blocks(outcome.stdout) if fmt in ("grid", "ints", "pretty", "candidates") else split_lines(outcome.stdout)
    asked = int(run.option("-n", "1"))
    if asked and len(texts) != asked:
        add("records", f"--to {fmt}: {asked} puzzle(s) asked, {len(texts)} written")
    spelled = run.option("--shape", "9x9")
    try:
        same = Shape.parse(spelled)
    except ValueError as error:
        same = None
        add("read back", f"--shape {spelled} makes puzzles that the readers' --shape {spelled} refuses: {error}")
    clues = run.option("--clues")
    for text in texts[:2]:
        for shape in (None, same) if same is not None else (None,):
            try:  # as any file is read: the format detected
                records = sudokit.read_text(text + "\n", shape=shape)
            except Exception as error:
                add("read back", f"--to {fmt}: a puzzle does not read back ({error})")
                continue
            if len(records) != 1 or records[0].board is None:
                why = records[0].error if records and records[0].error else f"{len(records)} records"
                add("read back", f"--to {fmt} --shape {spelled}: a puzzle does not read back{' under --shape' if shape else ''}: {why}")
                continue
            board = records[0].board
            if clues is not None and board.givens > int(clues):
                add("answer", f"--clues {clues}: a puzzle with {board.givens} givens")
            reference = reference_count_of(board)
            if reference is not None and reference != 1:
                reading = "read with --shape " + spelled if shape else "read back as it is"
                add("read back", f"--shape {spelled} --to {fmt}: {reference} solution(s) {reading} ({board.shape.name})")


# -- requests to the JSON API ---------------------------------------------------------------------

ENDPOINTS = ("parse", "solve", "count", "hint", "explain", "rate", "canonical", "generate")
#: the server's budget when a request names none, and the most it grants (web.Settings)
DEFAULT_TIME, MOST_TIME = 2.0, 10.0
#: the fields of each endpoint (web.api), and odd values of their own beside ODD_VALUES
ENDPOINT_FIELDS = {
    "parse": ("puzzle", "format", "shape", "symbols"),
    "solve": ("puzzle", "format", "shape", "symbols", "time_limit", "node_limit", "unique"),
    "count": ("puzzle", "format", "shape", "symbols", "time_limit", "node_limit", "limit"),
    "hint": ("puzzle", "format", "shape", "symbols", "time_limit", "node_limit", "candidates", "level"),
    "explain": ("puzzle", "format", "shape", "symbols", "time_limit", "node_limit"),
    "rate": ("puzzle", "format", "shape", "symbols", "time_limit", "node_limit"),
    "canonical": ("puzzle", "format", "shape", "symbols"),
    "generate": ("time_limit", "node_limit", "size", "level", "score", "symmetry", "clues", "minimal", "seed"),
}
ODD_FIELD_VALUES: dict[str, tuple[Any, ...]] = {
    "puzzle": ("\ud800", "." * 80 + "\ud800", "{\"givens\": 1}", "[[\"1\"]]x"),
    "shape": ("7", "1x9", "2x2", "9x9", "64x64", 9, "\ud800"),
    "symbols": ("12345678\ud800", "12", "1234 6789", "123456789" * 2, "\\123456789"),
    "format": ("xml", "layout", "sukaku", "\ud800"),
    "time_limit": (1e308, 1e-300, "1", 11),
    "node_limit": (10**20, 0.5),
    "limit": (0, 10**7, 10**20),
    "level": (0, 4, "3"),
    "candidates": ([[True]] * 81, [[]] * 80, [[1, 2]] * 81, [[0]] * 81, [["1"]] * 81, [[10]] * 81),
    "size": (5, 7, 8, 12, 25, 3),
    "score": ([1, 2, 3], [True, None], "x", "\ud800", "5-1", [None, None]),
    "symmetry": ("spiral", "\ud800"),
    "clues": (0, 1, 81, 82),
    "seed": (2**63, -1),
}

#: bodies that are not a request at all
ODD_BODIES = (b"", b"[]", b'{"\\ud800": 1}', b"{", b"null", b'"x"', b"{}", b"[" * 40 + b"]" * 40, b'{"puzzle": ' + b"[" * 40 + b"]" * 40 + b"}",
              b"\xff\xfe", b'{"puzzle": "\\ud800"}', b'{"puzzle": NaN}', b'{"time_limit": Infinity, "puzzle": "1"}',
              b"{" + b'"a": 1, ' * 9000 + b'"b": 2}')  # fmt: skip


@dataclass(frozen=True)
class Request:
    """A POST to an endpoint: the body's bytes, the record it carries (if any) and whether the
    reading fields (format, shape, symbols) keep the record's meaning."""

    endpoint: str
    body: bytes
    case: Case | None = None
    keeps: bool = True

    @property
    def fields(self) -> dict:
        try:
            decoded = json.loads(self.body)
        except (ValueError, RecursionError):
            return {}
        return decoded if isinstance(decoded, dict) else {}

    @property
    def budget(self) -> float:
        """The time budget the server grants: what the request asks (capped), else its default."""
        asked = self.fields.get("time_limit", DEFAULT_TIME)
        if isinstance(asked, bool) or not isinstance(asked, (int, float)) or not asked >= 0:
            return DEFAULT_TIME
        return min(float(asked), MOST_TIME) if asked < 10**300 else MOST_TIME

    @property
    def deadline(self) -> float:
        return self.budget + BUDGET_SLACK + MEASURE_SLACK + 4.0

    def __repr__(self) -> str:
        return f"Request({self.shell()})"

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(repr(self))

    def job(self) -> dict:
        return {"kind": "web", "method": "POST", "path": f"/api/{self.endpoint}", "body": self.body}

    def shell(self) -> str:
        return f"printf {_printf(self.body)} | curl -s --data-binary @- -H 'content-type: application/json' http://127.0.0.1:8000/api/{self.endpoint}"


@st.composite
def requests(draw, endpoints: Sequence[str] = ENDPOINTS, odd: bool = True) -> Request:
    """A request to an endpoint: a record of any family as its puzzle, the endpoint's fields,
    perhaps odd values in some of them, perhaps a body that is no request at all."""
    endpoint = draw(st.sampled_from(list(endpoints)))
    if odd and draw(st.integers(0, 15)) == 0:
        return Request(endpoint, draw(st.sampled_from(ODD_BODIES)), None, False)
    body: dict[str, Any] = {}
    case = None
    keeps = True
    if endpoint == "generate":
        body["size"] = draw(st.sampled_from([4, 4, 6, 9, 9, 16, 8, 5]))
        body["seed"] = draw(st.integers(0, 1000))
        for name, values in (("level", ["easy", "medium", "hard+", "extreme"]), ("symmetry", ["none", "rot180", "dihedral"]),
                             ("clues", [10, 25, 40]), ("minimal", [True, False]), ("score", [[0, 2000], [None, 500], "100-"])):
            if draw(st.integers(0, 3)) == 0:
                body[name] = draw(st.sampled_from(values))
        body["time_limit"] = draw(st.sampled_from([0.5, 1, 2]))
    else:
        human = endpoint in ("hint", "explain", "rate", "canonical")
        family = draw(st.sampled_from(FAMILIES))
        case = draw(records(family, small=True, unique=human and draw(st.booleans())))
        body["puzzle"] = case.text
        if draw(st.integers(0, 3)) == 0:
            body["format"] = FORMAT_OF[family]
        puzzle = case.puzzle
        if puzzle is not None and puzzle.box is not None and draw(st.integers(0, 4)) == 0:
            body["shape"] = f"{puzzle.box[0]}x{puzzle.box[1]}"
        if endpoint in ("solve", "count", "hint", "explain", "rate"):
            if draw(st.booleans()):
                body["time_limit"] = draw(st.sampled_from([0, 0.05, 0.5, 1, 2]))
            if draw(st.integers(0, 3)) == 0:
                body["node_limit"] = draw(st.sampled_from([1, 100, 100_000]))
        if endpoint == "solve" and draw(st.booleans()):
            body["unique"] = draw(st.booleans())
        if endpoint == "count" and draw(st.booleans()):
            body["limit"] = draw(st.sampled_from([1, 2, 10, 1000]))
        if endpoint == "hint":
            if draw(st.booleans()):
                body["level"] = draw(st.sampled_from([1, 2, 3]))
            if puzzle is not None and puzzle.solution is not None and draw(st.booleans()):
                rng = draw(st.randoms(use_true_random=False))
                n = puzzle.size
                body["candidates"] = [
                    [] if puzzle.givens[c] else [v for v in range(1, n + 1) if v == puzzle.solution[c] or (v in _marks(puzzle)[c] and rng.random() < 0.6)]
                    for c in range(n * n)
                ]  # fmt: skip
    if odd and draw(st.integers(0, 2)) == 0:
        for _ in range(draw(st.integers(1, 2))):
            name = draw(st.sampled_from(ENDPOINT_FIELDS[endpoint] + ("extra", "\ud800")))
            body[name] = draw(st.sampled_from(ODD_FIELD_VALUES.get(name, ()) + ODD_VALUES))
            keeps = keeps and name not in ("puzzle", "format", "shape", "symbols")
    raw = dumps(body)
    if odd and draw(st.integers(0, 9)) == 0:  # broken JSON text
        raw, _ = draw(char_edits(raw))
        keeps = False
    return Request(endpoint, encode(raw), case, keeps)


def _request_board(request: Request):
    """The board a request's puzzle field holds, read as the API reads it; None otherwise."""

    fields = request.fields
    try:
        shape = fields.get("shape")
        shape = Shape.parse(str(shape)) if shape is not None else None
        records = sudokit.read_text(fields["puzzle"], format=fields.get("format"), shape=shape, symbols=fields.get("symbols"))
    except Exception:
        return None
    return records[0].board if len(records) == 1 else None


def check_request(request: Request, outcome: Outcome) -> list[Finding]:
    """Every invariant an answer of the API broke."""
    found: list[Finding] = []
    where = f"/api/{request.endpoint}"

    def add(kind: str, detail: str) -> None:
        found.append(Finding(where, kind, detail, request.shell(), len(request.body)))

    if outcome.hung:
        add("budget", f"no answer {request.deadline:g} s into a request whose time budget is {request.budget:g} s")
        return found
    if outcome.status == 500 or outcome.error:
        add("500", outcome.body[:160] if not outcome.error else _last_line(outcome.error))
        return found
    if outcome.status not in (200, 400, 404, 405, 413, 422, 503):
        add("500", f"status {outcome.status}: {outcome.body[:160]}")
    if "Traceback" in outcome.body:
        add("traceback", outcome.body[:160])
    if outcome.elapsed > request.budget + BUDGET_SLACK + MEASURE_SLACK:
        add("budget", f"{outcome.elapsed:.2f} s for a time budget of {request.budget:g} s")
    try:
        answer = json.loads(outcome.body)
    except ValueError:
        add("read back", f"status {outcome.status}, not JSON: {outcome.body[:120]!r}")
        return found
    if outcome.status != 200:
        if not isinstance(answer, dict) or not isinstance(answer.get("error"), str):
            add("read back", f"status {outcome.status} without an error message: {outcome.body[:120]}")
        if outcome.status == 422 and request.keeps and request.case is not None and request.case.puzzle is not None:
            puzzle = request.case.puzzle
            takes = _takes(request.endpoint, puzzle, request.case.family)
            if takes and answer.get("field") == "puzzle" and answer.get("kind") == "format":
                add("answer", f"{request.case.family}: {puzzle.name} refused: {answer.get('error')!r:.120}")
        return found
    if request.endpoint == "generate":
        _check_generated_json(answer, add)
        return found
    board = _request_board(request)
    puzzle = request.case.puzzle if request.case is not None and request.keeps else None
    family = request.case.family if request.case else "?"
    status = answer.get("status")
    if status == "unknown" or board is None:
        return found
    if request.endpoint in ("solve", "count"):
        solution = answer.get("solution")
        if solution:
            values = list(solution["cells"])
            rules = puzzle.rules if puzzle is not None else rules_of(board)
            broken = broken_rules(rules, in_puzzle_values(puzzle, board, values) if puzzle is not None else values)
            if broken:
                add("rules", f"{family}: the solution breaks {len(broken)} rule(s): {broken[0]}")
        if puzzle is not None:
            if status == "no solution" and puzzle.solvable:
                add("answer", f"{family}: 'no solution' for {puzzle.name}, which has one")
            if status == "several" and puzzle.count == 1:
                add("answer", f"{family}: 'several' for {puzzle.name}, which has one")
        else:
            reference = reference_count(rules_of(board), 2, box_of(board))
            if reference is not None and status in ("no solution", "several", "solved") and answer.get("count_known"):
                if min(answer.get("count", 0), 2) != reference and answer.get("limit", 1) >= 2:
                    add("answer", f"{family}: count {answer.get('count')} where the reference counts {reference} (to 2)")
                if status == "no solution" and reference:
                    add("answer", f"{family}: 'no solution' where the reference finds {reference}")
    if request.endpoint in ("hint", "explain"):
        steps = [answer["step"]] if request.endpoint == "hint" and answer.get("step") else answer.get("steps") or []
        if steps and "placements" in steps[0]:
            if puzzle is not None and puzzle.count is not None and puzzle.count != 1:
                add("answer", f"{family}: steps for {puzzle.name}, which has {puzzle.count} solutions")
            solution, _ = _solution_of(puzzle, board)
            if solution is not None:
                numbering = (lambda v: in_puzzle_values(puzzle, board, [v])[0]) if puzzle is not None else (lambda v: v)  # noqa: E731
                n = board.size
                for step in steps:
                    claims = [(c // n, c % n, numbering(v), True) for c, v in step["placements"]]
                    claims += [(c // n, c % n, numbering(v), False) for c, v in step["eliminations"]]
                    wrong = unsound(claims, solution, n)
                    if wrong:
                        add("step", f"{family}: {step['technique']}: {wrong[0]}")
                        break
    if request.endpoint == "parse":
        try:
            again = _request_board(replace(request, body=encode(json.dumps({"puzzle": answer["board"]["line"], "shape": answer["board"]["shape"]}))))
        except Exception:
            again = None
        if again is None or again.cells.tolist() != answer["board"]["cells"]:
            add("read back", f"{family}: the parsed board's line does not read back as the same cells")
    return found


def _check_generated_json(answer: dict, add) -> None:
    puzzle = answer.get("puzzle")
    if answer.get("status") != "solved" or not puzzle:
        return
    try:
        board = sudokit.Board.from_line(puzzle["line"], shape=Shape.parse(puzzle["shape"]), symbols=puzzle["symbols"])
    except Exception as error:
        add("read back", f"the generated puzzle does not read back: {error}")
        return
    reference = reference_count_of(board)
    if reference is not None and reference != 1:
        add("answer", f"a generated {board.shape.name} puzzle has {reference} solution(s)")
