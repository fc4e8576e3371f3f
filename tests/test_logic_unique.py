"""Unique, hidden and avoidable rectangles (``kernels/hodoku/unique.py``) beyond the regression
library: other box shapes, the step record, the scan's first step, no side effects."""

from __future__ import annotations

import numpy as np
import reglib

import sudokit
from sudokit.logic.grid import CandidateGrid
from sudokit.logic.techniques import BY_CODE
from sudokit.shape import Shape

UR1, UR2, UR3, UR4, UR5, UR6 = (BY_CODE[f"060{k}"] for k in range(6))
HIDDEN, AR1, AR2 = BY_CODE["0606"], BY_CODE["0607"], BY_CODE["0608"]


def marked(shape: Shape, cells: dict[tuple[int, int], tuple[int, ...]]) -> CandidateGrid:
    """An empty board whose listed cells (row, col) hold only the listed candidates."""
    board = sudokit.Board.empty(shape)
    n = shape.size
    marks = np.full(shape.cells, (1 << n) - 1, dtype=np.uint64)
    for (row, col), values in cells.items():
        marks[row * n + col] = sum(1 << (v - 1) for v in values)
    return CandidateGrid(board, marks=marks)


def reglib_grid(line: int) -> CandidateGrid:
    case = next(case for case in reglib.cases() if case.line == line)
    board = sudokit.Board.from_line(case.givens)
    fixed = (board.cells != 0) & ~np.array(case.placed)
    marks = CandidateGrid(board, fixed=fixed).candidates
    for cell, value in case.deleted:
        marks[cell] &= ~np.uint64(1 << (value - 1))
    return CandidateGrid(board, marks=marks, fixed=fixed)


def test_type1_on_2x3_boxes():
    # rows 0 and 1 share a band of boxes, columns 0 and 3 lie in different boxes: two boxes
    grid = marked(Shape(2, 3), {(0, 0): (1, 2), (0, 3): (1, 2), (1, 0): (1, 2), (1, 3): (1, 2, 5)})
    step = grid.find(UR1)
    assert step is not None
    assert set(step.eliminations) == {(9, 1), (9, 2)}
    assert sorted(step.cells) == [0, 3, 6, 9]
    assert step.values == (1, 2)
    assert step.variant == 1
    assert grid.find(UR1, 1) is None


def test_four_boxes_are_no_rectangle():
    # rows 0 and 2 lie in different bands, columns 0 and 3 in different stacks: four boxes
    grid = marked(Shape(2, 3), {(0, 0): (1, 2), (0, 3): (1, 2), (2, 0): (1, 2), (2, 3): (1, 2, 5)})
    assert grid.find(UR1) is None


def test_type2_on_4x4_boxes():
    n = 16
    cells = {(0, 0): (3, 4), (1, 0): (3, 4), (0, 5): (3, 4, 9), (1, 5): (3, 4, 9)}
    grid = marked(Shape(4, 4), cells)
    step = grid.find(UR2)
    assert step is not None
    assert step.extra == (9,)
    # 9 goes from the rest of column 5 and of the box of r1c6,r2c6
    seeing = {row * n + 5 for row in range(2, n)} | {row * n + col for row in range(4) for col in range(4, 8)}
    seeing -= {5, n + 5}
    assert set(step.eliminations) == {(cell, 9) for cell in seeing}


def test_search_is_read_only_and_first_is_nth_0():
    grid = reglib_grid(754)  # a Uniqueness Test 2
    before = tuple(array.copy() for array in grid.state)
    first = grid.find(UR2, -1)
    assert first is not None and first == grid.find(UR2, 0)
    for a, b in zip(before, grid.state):
        assert np.array_equal(a, b)


def test_avoidable_rectangles_need_placed_values():
    grid = reglib_grid(857)  # an Avoidable Rectangle Type 1
    assert grid.find(AR1) is not None
    case = next(case for case in reglib.cases() if case.line == 857)
    board = sudokit.Board.from_line(case.givens)
    assert CandidateGrid(board, marks=grid.candidates).find(AR1) is None  # every value a given


def test_every_kind_on_its_reglib_cases():
    for line, technique in ((738, UR1), (773, UR3), (787, UR4), (807, UR5), (817, UR6), (830, HIDDEN), (864, AR2), (745, UR1)):
        case = next(case for case in reglib.cases() if case.line == line)
        steps = list(reglib_grid(line).find_all(technique))
        assert case.eliminations in {frozenset(s.eliminations) for s in steps}, line
