"""A board's variant rules as the general kernel's tables (``kernels/search/cages.py``): the cages,
each cage's combinations, and the sums the houses imply (the killer player's "rule of 45"),
worked out once per layout and cached. Pure data over :mod:`sudokit.shape`: no kernel is
loaded here."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from .shape import Cage, Geometry, _combinations

#: a cage with more combinations than this is checked against bounds on its sum
MOST_COMBOS = 4096
#: cage modes, as ``kernels/search/cages.py`` numbers them (kept here so that no search loads numba
#: before it runs)
WITH_COMBOS, NO_SUM, BOUNDS, SUM_ONLY = 0, 1, 2, 3


@functools.lru_cache(maxsize=64)
def plain_variant(cells: int, size: int) -> tuple[np.ndarray, ...]:
    """The ``variant`` tuple of a board without cages or candidates (shared: the kernel never
    writes its arrays)."""
    return (
        np.full(cells, (1 << size) - 1, dtype=np.uint64),
        np.zeros((0, 1), dtype=np.int32),
        np.zeros((0, 5), dtype=np.int64),
        np.zeros(0, dtype=np.uint64),
    )


@functools.lru_cache(maxsize=256)
def cage_tables(
    geometry: Geometry, cages: tuple[Cage, ...], runs: bool = True
) -> tuple[Geometry, np.ndarray, np.ndarray, np.ndarray]:
    """(houses for the kernel, cage cells, cage info, combinations) for a geometry and its
    cages, the cages the houses imply (``derived_cages``, over runs of rows and columns too
    where ``runs``) added."""
    n = geometry.size
    houses = [list(cage.cells) for cage in cages if len(cage.cells) == n]
    if houses:
        known = {frozenset(h) for h in geometry.houses.tolist()}
        houses = [h for h in houses if frozenset(h) not in known]
        if houses:
            geometry = geometry.with_houses(houses, "cage")
    small: list[tuple[int | None, tuple[int, ...], bool]] = [
        (cage.total, tuple(cage.cells), True) for cage in cages if len(cage.cells) < n
    ]
    seen = {frozenset(cells) for _, cells, _ in small}
    for derived, cells, distinct in derived_cages(geometry, cages, runs):
        if frozenset(cells) not in seen:
            seen.add(frozenset(cells))
            small.append((derived, cells, distinct))
    width = max((len(cells) for _, cells, _ in small), default=1)
    rows: list[list[int]] = []
    info: list[tuple[int, int, int, int, int]] = []
    combos: list[int] = []
    for total, cells, distinct in small:
        rows.append(list(cells) + [-1] * (width - len(cells)))
        count = len(cells)
        mode = NO_SUM
        found: tuple[int, ...] = ()
        if not distinct:
            mode = SUM_ONLY
        elif total is not None:
            low, high = count * (count + 1) // 2, count * (2 * n - count + 1) // 2
            mode = WITH_COMBOS
            if low <= total <= high:  # out of range: no combination, a dead end at the root
                found = _combinations(n, count, total, MOST_COMBOS)
                if not found:
                    mode = BOUNDS
        info.append((len(combos), len(combos) + len(found), count, mode, -1 if total is None else total))
        combos.extend(found)
    table = np.array(rows, dtype=np.int32).reshape(len(rows), width)
    return geometry, table, np.array(info, dtype=np.int64).reshape(len(info), 5), np.array(combos, dtype=np.uint64)


def derived_cages(
    geometry: Geometry, cages: tuple[Cage, ...], runs: bool = True
) -> list[tuple[int, tuple[int, ...], bool]]:
    """Sums that follow from the board's cages (the killer player's "rule of 45"), as
    ``(total, cells, distinct)``. In an area made of whole houses (a house; consecutive rows,
    consecutive columns), the cells that no cage wholly inside it covers add up to the
    area's total less those cages' sums (*innies*); where cages cover the area, the cells
    they hold outside it add up to their sums less the area's total (*outies*). The cells
    hold distinct values when they share a house. Only cages with a sum and not overlapping
    one another count; ``runs`` False keeps to single houses. Worked out with boolean matrices (cages, areas x cells), since a
    Python loop over every area and cage cost more than solving an easy killer."""
    n = geometry.size
    summed = [cage for cage in cages if cage.total is not None]
    if not summed:
        return []
    cells = n * n
    cage_of = np.zeros((len(summed), cells))  # float: matrix products go to BLAS
    for index, cage in enumerate(summed):
        cage_of[index, list(cage.cells)] = 1
    totals = np.array([cage.total for cage in summed], dtype=np.int64)
    houses = np.zeros((len(geometry.houses), cells))
    np.put_along_axis(houses, geometry.houses.astype(np.int64), 1, axis=1)
    parts, counts = [houses], [np.ones(len(houses), dtype=np.int64)]
    for first in (0, n) if runs else ():  # rows, then columns: every run of 2 .. n-1 of them
        lines = houses[first : first + n]
        for count in range(2, n):
            parts.append(np.add.reduce([lines[k : n - count + 1 + k] for k in range(count)]))
            counts.append(np.full(n - count + 1, count, dtype=np.int64))
    areas = np.concatenate(parts)
    area_totals = np.concatenate(counts) * (n * (n + 1) // 2)
    sizes = cage_of.sum(axis=1)
    inside = (cage_of @ areas.T) == sizes[:, None]  # cage x area
    covers = inside.T.astype(float) @ cage_of  # area x cell: inside cages on each cell
    fine = (covers <= 1).all(axis=1)
    rest = (areas > 0) & (covers == 0)
    inside_sum = inside.T.astype(np.int64) @ totals
    touching = (cage_of @ rest.T.astype(float)) > 0  # cage x area: cages on the rest
    reach = touching.T.astype(float) @ cage_of
    outfine = fine & ((reach + covers) <= 1).all(axis=1) & ~(rest & (reach == 0)).any(axis=1)
    outside = (reach > 0) & (areas == 0)
    rest_size, outside_size = rest.sum(axis=1), outside.sum(axis=1)
    innies = fine & inside.any(axis=0) & (rest_size > 0) & (rest_size <= n)
    outies = outfine & touching.any(axis=0) & (outside_size > 0) & (outside_size <= n)
    touch_sum = touching.T.astype(np.int64) @ totals
    sets = np.concatenate([rest[innies], outside[outies]])
    if not len(sets):
        return []
    sums = np.concatenate([(area_totals - inside_sum)[innies], (inside_sum + touch_sum - area_totals)[outies]])
    sizes = sets.sum(axis=1)
    distinct = ((sets.astype(float) @ houses.T) == sizes[:, None]).any(axis=1) | (sizes == 1)
    members = np.split(np.nonzero(sets)[1], np.cumsum(sizes)[:-1])
    return [
        (int(total), tuple(cells.tolist()), bool(one))
        for total, cells, one in zip(sums.tolist(), members, distinct.tolist())
    ]


def variant_of(board: Any, runs: bool = True) -> tuple[Geometry, tuple[np.ndarray, ...]]:
    """The general kernel's view of the rules of ``board`` (a :class:`sudokit.Board`): the houses
    it searches (the board's, and every cage of ``n`` cells, which is a house) and the ``variant``
    tuple of ``kernels/search/cages.py`` (starting candidates, cage tables; the rule of 45 over runs
    of rows and columns too where ``runs``)."""
    shape = board.shape
    if not board.cages:
        plain = plain_variant(shape.cells, shape.size)
        if board.candidates is None:
            return board.geometry, plain
        return board.geometry, (board.start_masks(),) + plain[1:]
    geometry, cells, info, combos = cage_tables(board.geometry, board.cages, runs)
    return geometry, (board.start_masks(), cells, info, combos)
