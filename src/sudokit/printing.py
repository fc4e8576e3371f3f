"""Printable books of puzzles: :func:`book` writes a PDF with reportlab (the ``print`` extra).

A page holds 1, 2, 4 or 6 puzzles in a clean grid, each numbered with its level where one is
known; the regions (boxes or a jigsaw's pieces) are drawn thick, diagonals as grey lines, extra
houses shaded, killer cages dashed with their sums, pencil marks small. The solutions follow,
twelve to a page. Any board from 4x4 to 16x16 (bigger ones are refused: their symbols would
not read at a printable size).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import IO, Sequence

from .board import Board
from .shape import ANTI_DIAGONAL, DIAGONAL, WINDOW

#: puzzles a page may hold, and their layout (columns, rows)
LAYOUTS = {1: (1, 1), 2: (1, 2), 4: (2, 2), 6: (2, 3)}
#: solutions on each page at the end, as (columns, rows)
SOLUTION_LAYOUT = (3, 4)
#: the biggest board printed
MAX_SIZE = 16

_MARGIN = 42.0  # points (1/72 inch)
_HEADER = 44.0
_CAPTION = 16.0


@dataclass(frozen=True)
class Entry:
    """One puzzle of a book: the board, its level (or any short label), its solution."""

    board: Board
    label: str | None = None
    solution: Board | None = None


def book(entries: Sequence[Entry], output: str | os.PathLike | IO[bytes], *, per_page: int = 4,
         title: str = "Sudoku", solutions: bool = True) -> int:
    """Write ``entries`` as a PDF to ``output`` (a path or a binary stream); returns the
    number of pages. Raises ``ValueError`` for a layout or a board it cannot print, and
    ``ImportError`` naming the extra when reportlab is missing."""
    if per_page not in LAYOUTS:
        raise ValueError(f"per_page must be one of {', '.join(map(str, LAYOUTS))}, not {per_page!r}")
    for number, entry in enumerate(entries, 1):
        if not 4 <= entry.board.size <= MAX_SIZE:
            raise ValueError(f"puzzle {number} is {entry.board.size}x{entry.board.size}: books take 4x4 to {MAX_SIZE}x{MAX_SIZE}")
    try:
        # optional extra (sudokit[print])
        from reportlab.lib.pagesizes import A4
        from reportlab.pdfgen.canvas import Canvas
    except ImportError:
        raise ImportError("printing needs reportlab: pip install 'sudokit[print]'") from None
    width, height = A4
    canvas = Canvas(output if not isinstance(output, os.PathLike) else os.fspath(output), pagesize=A4)
    canvas.setTitle(title)
    canvas.setCreator("sudokit")
    pages = 0
    columns, rows = LAYOUTS[per_page]
    for first in range(0, max(len(entries), 1), per_page):
        pages += 1
        _header(canvas, title if first == 0 else f"{title} ({first + 1}-{min(first + per_page, len(entries))})", width, height, pages)
        slots = _slots(columns, rows, width, height)
        for (x, y, side), number in zip(slots, range(first, min(first + per_page, len(entries)))):
            entry = entries[number]
            caption = f"Puzzle {number + 1}" + (f"  ·  {entry.label}" if entry.label else "")
            _board(canvas, entry.board, None, x, y, side, caption, big=True)
        canvas.showPage()
    shown = [(number, entry) for number, entry in enumerate(entries) if entry.solution is not None]
    if solutions and shown:
        columns, rows = SOLUTION_LAYOUT
        for first in range(0, len(shown), columns * rows):
            pages += 1
            _header(canvas, "Solutions", width, height, pages)
            for (x, y, side), (number, entry) in zip(_slots(columns, rows, width, height), shown[first : first + columns * rows]):
                assert entry.solution is not None
                _board(canvas, entry.solution, entry.board, x, y, side, f"Solution {number + 1}", big=False)
            canvas.showPage()
    canvas.save()
    return pages


def variant_name(board: Board) -> str | None:
    """What a person calls the board's rules (``jigsaw``, ``X``, ``killer``, ...), or None
    for rows, columns and boxes alone."""
    n = board.size
    geometry = board.geometry
    names = [] if geometry.is_boxed(board.shape) else ["jigsaw"]
    kinds = set(geometry.kinds[3 * n :])
    if kinds & {DIAGONAL, ANTI_DIAGONAL}:
        names.append("X")
    if WINDOW in kinds:
        names.append("windoku")
    if kinds - {DIAGONAL, ANTI_DIAGONAL, WINDOW}:
        names.append("extra houses")
    if board.cages:
        names.append("killer")
    if board.candidates is not None:
        names.append("pencil marks")
    return " ".join(names) or None


def _header(canvas, text: str, width: float, height: float, page: int) -> None:
    canvas.setFont("Helvetica-Bold", 18)
    canvas.drawString(_MARGIN, height - _MARGIN - 12, text)
    canvas.setFont("Helvetica", 9)
    canvas.drawRightString(width - _MARGIN, _MARGIN / 2, f"{page}")


def _slots(columns: int, rows: int, width: float, height: float) -> list[tuple[float, float, float]]:
    """(left, bottom, side) of each grid on a page, row by row from the top."""
    cell_w = (width - 2 * _MARGIN) / columns
    cell_h = (height - 2 * _MARGIN - _HEADER) / rows
    side = min(cell_w, cell_h - _CAPTION) * 0.9
    slots = []
    for row in range(rows):
        for column in range(columns):
            left = _MARGIN + column * cell_w + (cell_w - side) / 2
            top = height - _MARGIN - _HEADER - row * cell_h - _CAPTION
            slots.append((left, top - side, side))
    return slots


def _board(canvas, board: Board, puzzle: Board | None, left: float, bottom: float, side: float, caption: str, big: bool) -> None:
    """One grid: ``board``'s values (a solution: ``puzzle``'s givens bold, the rest light)."""
    n = board.size
    step = side / n
    top = bottom + side
    geometry = board.geometry
    canvas.setFont("Helvetica-Bold" if big else "Helvetica", 11 if big else 8)
    canvas.setFillGray(0)
    canvas.drawString(left, top + 5, caption)

    def corner(cell: int) -> tuple[float, float]:
        """The bottom-left corner of ``cell``."""
        return left + (cell % n) * step, top - (cell // n + 1) * step

    # extra houses other than diagonals (windows, any set of cells): shaded
    shaded = {int(c) for house, kind in zip(geometry.houses[3 * n :], geometry.kinds[3 * n :])
              if kind not in (DIAGONAL, ANTI_DIAGONAL) for c in house}
    canvas.setFillGray(0.88)
    for cell in shaded:
        x, y = corner(cell)
        canvas.rect(x, y, step, step, stroke=0, fill=1)
    # diagonals
    canvas.setStrokeGray(0.6)
    canvas.setLineWidth(0.8)
    for kind in geometry.kinds[3 * n :]:
        if kind == DIAGONAL:
            canvas.line(left, top, left + side, bottom)
        elif kind == ANTI_DIAGONAL:
            canvas.line(left + side, top, left, bottom)
    # thin cell lines, then thick lines between regions
    canvas.setStrokeGray(0.55)
    canvas.setLineWidth(0.4)
    for k in range(1, n):
        canvas.line(left + k * step, bottom, left + k * step, top)
        canvas.line(left, bottom + k * step, left + side, bottom + k * step)
    regions = geometry.regions.tolist()
    canvas.setStrokeGray(0)
    canvas.setLineWidth(1.8 if big else 1.0)
    for cell in range(n * n):
        row, col = divmod(cell, n)
        x, y = corner(cell)
        if col + 1 < n and regions[cell] != regions[cell + 1]:
            canvas.line(x + step, y, x + step, y + step)
        if row + 1 < n and regions[cell] != regions[cell + n]:
            canvas.line(x, y, x + step, y)
    canvas.rect(left, bottom, side, side, stroke=1, fill=0)
    _cages(canvas, board, corner, step, n)
    _values(canvas, board, puzzle, corner, step, n, big)


def _cages(canvas, board: Board, corner, step: float, n: int) -> None:
    """Each cage's outline, dashed, a little inside its cells, with its sum in its first cell."""
    inset = step * 0.1
    canvas.setStrokeGray(0.25)
    canvas.setLineWidth(0.6)
    canvas.setDash(2, 2)
    for cage in board.cages:
        cells = set(cage.cells)
        for cell in cells:
            x, y = corner(cell)
            row, col = divmod(cell, n)
            up, down = cell - n if row else -1, cell + n if row + 1 < n else -1
            left_, right = cell - 1 if col else -1, cell + 1 if col + 1 < n else -1
            # an edge runs to the cell's border where the cage goes on along it
            x0 = x + inset if left_ not in cells else x
            x1 = x + step - inset if right not in cells else x + step
            y0 = y + inset if down not in cells else y
            y1 = y + step - inset if up not in cells else y + step
            if up not in cells:
                canvas.line(x0, y + step - inset, x1, y + step - inset)
            if down not in cells:
                canvas.line(x0, y + inset, x1, y + inset)
            if left_ not in cells:
                canvas.line(x + inset, y0, x + inset, y1)
            if right not in cells:
                canvas.line(x + step - inset, y0, x + step - inset, y1)
        if cage.total is not None:
            first = min(cells)
            x, y = corner(first)
            canvas.setFont("Helvetica", max(4.0, step * 0.26))
            canvas.setFillGray(0)
            canvas.drawString(x + inset * 1.3, y + step - inset - step * 0.26, str(cage.total))
    canvas.setDash()


def _values(canvas, board: Board, puzzle: Board | None, corner, step: float, n: int, big: bool) -> None:
    values = board.cells.tolist()
    givens = (puzzle if puzzle is not None else board).cells.tolist()
    size = step * (0.62 if n <= 9 else 0.55)
    marks = board.candidates
    for cell, value in enumerate(values):
        x, y = corner(cell)
        if value:
            given = bool(givens[cell])
            canvas.setFont("Helvetica-Bold" if given and puzzle is not None else "Helvetica", size)
            canvas.setFillGray(0 if given or puzzle is None else 0.45)
            canvas.drawCentredString(x + step / 2, y + (step - size * 0.72) / 2, board.symbols[value - 1])
        elif marks is not None and big:
            _pencil(canvas, board, int(marks[cell]), x, y, step, n)
    canvas.setFillGray(0)


def _pencil(canvas, board: Board, mask: int, x: float, y: float, step: float, n: int) -> None:
    """A cell's candidates, small, each at its place in a ``sqrt(n)``-wide block."""
    side = math.ceil(math.sqrt(n))
    size = step / side * 0.7
    canvas.setFont("Helvetica", size)
    canvas.setFillGray(0.3)
    for value in range(1, n + 1):
        if mask >> (value - 1) & 1:
            row, col = divmod(value - 1, side)
            cx = x + (col + 0.5) * step / side
            cy = y + step - (row + 0.5) * step / side - size * 0.36
            canvas.drawCentredString(cx, cy, board.symbols[value - 1])
