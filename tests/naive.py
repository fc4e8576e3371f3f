"""A slow, obviously correct reference solver: every fast path is checked against it.

Plain Python over lists of ints, sharing no code with sudokit (not even its Shape): houses are
worked out here from the box height and width. The search fills the empty cell with the fewest
legal values, trying each value in increasing order; legality is recomputed from scratch at
every step. Nothing clever happens, so there is little room for a bug to hide.

The canonical-form reference at the end tries every rearrangement of a 9x9 board, with numpy
only to make the 3.4 million of them at once.
"""

from __future__ import annotations

import itertools
from typing import Iterator

import numpy as np


def houses(box_height: int, box_width: int) -> list[list[int]]:
    """Rows, columns and boxes of a board, as lists of cell indices."""
    n = box_height * box_width
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    boxes = []
    for top in range(0, n, box_height):
        for left in range(0, n, box_width):
            boxes.append(
                [(top + r) * n + left + c for r in range(box_height) for c in range(box_width)]
            )
    return rows + cols + boxes


def is_solution(solution: list[int], puzzle: list[int], box_height: int, box_width: int) -> bool:
    """Every house holds 1..n exactly once, and every given is kept."""
    n = box_height * box_width
    if len(solution) != n * n or len(puzzle) != n * n:
        return False
    if any(given and given != value for given, value in zip(puzzle, solution)):
        return False
    return all(
        sorted(solution[cell] for cell in house) == list(range(1, n + 1))
        for house in houses(box_height, box_width)
    )


def solutions(puzzle: list[int], box_height: int, box_width: int) -> Iterator[list[int]]:
    """Every solution of a puzzle, each exactly once.

    At each step the search branches on the smallest of these exhaustive, non-overlapping
    choices: the legal values of one empty cell, or the legal places of one missing value in
    one house (every solution puts that value in exactly one of them). An empty choice is a
    dead end. That is all: no propagation, no state but the grid and what each house uses.
    """
    n = box_height * box_width
    all_houses = houses(box_height, box_width)
    houses_of: list[list[int]] = [[] for _ in range(n * n)]
    for index, house in enumerate(all_houses):
        for cell in house:
            houses_of[cell].append(index)
    grid = list(puzzle)
    used: list[set[int]] = [set() for _ in all_houses]
    for cell, value in enumerate(grid):
        if value:
            for house in houses_of[cell]:
                if value in used[house]:
                    return  # a given repeats in a house: no solution at all
                used[house].add(value)
    every_value = set(range(1, n + 1))

    def place(cell: int, value: int) -> None:
        grid[cell] = value
        for house in houses_of[cell]:
            used[house].add(value)

    def unplace(cell: int, value: int) -> None:
        grid[cell] = 0
        for house in houses_of[cell]:
            used[house].discard(value)

    def legal(cell: int) -> set[int]:
        return every_value - set().union(*(used[house] for house in houses_of[cell]))

    def smallest_choice() -> list[tuple[int, int]] | None:
        """The (cell, value) pairs of the smallest choice; None when the grid is full."""
        options = {cell: legal(cell) for cell in range(n * n) if grid[cell] == 0}
        if not options:
            return None
        best: list[tuple[int, int]] = []
        best_size = n + 1
        for cell, values in options.items():
            if len(values) < best_size:
                best_size = len(values)
                best = [(cell, value) for value in sorted(values)]
        for index, house in enumerate(all_houses):
            for value in sorted(every_value - used[index]):
                places = [cell for cell in house if cell in options and value in options[cell]]
                if len(places) < best_size:
                    best_size = len(places)
                    best = [(cell, value) for cell in places]
        return best

    def fill() -> Iterator[list[int]]:
        choice = smallest_choice()
        if choice is None:
            yield list(grid)
            return
        for cell, value in choice:
            place(cell, value)
            yield from fill()
            unplace(cell, value)

    yield from fill()


def count(puzzle: list[int], box_height: int, box_width: int, limit: int) -> int:
    """The number of solutions, stopping at ``limit``."""
    found = 0
    for _ in solutions(puzzle, box_height, box_width):
        found += 1
        if found >= limit:
            break
    return found


def parse_line(line: str, alphabet: str) -> list[int]:
    """Cell values from a one-line puzzle written in ``alphabet`` (anything else is empty)."""
    return [alphabet.index(char) + 1 if char in alphabet else 0 for char in line.strip()]


# -- canonical forms: every rearrangement, tried ---------------------------------------------


def line_orders() -> list[list[int]]:
    """The 1296 orders of 9 rows that keep bands together: the bands in any order, the rows
    of each band in any order (the same list serves columns and stacks)."""
    orders = []
    for bands in itertools.permutations(range(3)):
        for inside in itertools.product(itertools.permutations(range(3)), repeat=3):
            orders.append([3 * band + row for band, rows in zip(bands, inside) for row in rows])
    return orders


def rearrange(puzzle: list[int], transpose: bool, rows: list[int], cols: list[int]) -> list[int]:
    """A 9x9 puzzle read transposed (or not), output row k from row ``rows[k]`` and output
    column j from column ``cols[j]``."""
    cell = (lambda r, c: puzzle[9 * c + r]) if transpose else (lambda r, c: puzzle[9 * r + c])
    return [cell(r, c) for r in rows for c in cols]


def relabel(cells: list[int]) -> list[int]:
    """The digits renamed 1, 2, 3, ... in order of first appearance (0 stays empty)."""
    names: dict[int, int] = {}
    for value in cells:
        if value and value not in names:
            names[value] = len(names) + 1
    return [names.get(value, 0) for value in cells]


def minlex(puzzle: list[int]) -> list[int]:
    """The smallest relabelled rearrangement of a 9x9 puzzle, empty before any digit, over
    all 2 * 1296 * 1296 of them: every one is made and compared (numpy does the 3.4 million
    at once, 1296 column orders per row order; a few seconds a puzzle)."""
    orders = np.array(line_orders())
    best: np.ndarray | None = None
    for transpose in (False, True):
        grid = np.array(puzzle, dtype=np.int64).reshape(9, 9)
        if transpose:
            grid = grid.T
        for chunk in range(0, len(orders), 72):
            by_rows = grid[orders[chunk : chunk + 72]]  # (72, 9, 9): each row order
            every = by_rows[:, :, orders].transpose(0, 2, 1, 3).reshape(-1, 81)  # then each column order
            candidate = _smallest(_relabel_all(every))
            if best is None or list(candidate) < list(best):
                best = candidate
    assert best is not None
    return [int(v) for v in best]


def _relabel_all(cells: np.ndarray) -> np.ndarray:
    """``relabel`` of every row of an (M, 81) array."""
    first = np.empty((len(cells), 9), dtype=np.int64)
    for digit in range(1, 10):
        hit = cells == digit
        first[:, digit - 1] = np.where(hit.any(axis=1), hit.argmax(axis=1), 81 + digit)
    names = np.zeros((len(cells), 10), dtype=np.int64)
    np.put_along_axis(names[:, 1:], np.argsort(first, axis=1), np.arange(1, 10)[None, :], axis=1)
    return np.take_along_axis(names, cells, axis=1)


def _smallest(cells: np.ndarray) -> np.ndarray:
    """The lexicographically smallest row of an (M, 81) array."""
    keep = np.arange(len(cells))
    for position in range(cells.shape[1]):
        column = cells[keep, position]
        keep = keep[column == column.min()]
    return cells[keep[0]]
