"""The rules a solution must keep, as plain data, and a checker and a brute force that share
nothing with sudokit (``naive.py`` is the reference for classic boards; this takes any rules)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence


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
