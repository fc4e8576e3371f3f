"""Killer cages and starting candidates inside the general kernel's propagation.

A board's variant rules reach the kernel as one tuple of arrays, ``variant`` (built once per
board by ``engines``; ``plain`` makes the one for a board without them)::

    variant[START]   uint64 (cells,)       the candidates each cell starts from (pencil marks;
                                           every value where the board has none)
    variant[CELLS]   int32 (cages, width)  the cells of each cage, -1 after the last
    variant[INFO]    int64 (cages, 5)      [first combination, end, cell count, mode, sum]
    variant[COMBOS]  uint64 (combinations) every cage's combinations, back to back: the
                                           value sets (bit v-1: value v) that reach its sum

and, per search level, ``seen`` (``cages`` words after the level's cells in the general
kernel's stack): the candidates cage k's cells held, counted, when it was last filtered on
the way to this level (``UNSEEN``: filter it). Along one path candidates only go, so an
equal count means the same candidates and a cage still at rest; a branch copies its
parent's counts with its candidates, so it filters only the cages its own changes reach.

A cage's ``mode`` says what it knows: ``WITH_COMBOS`` (its sum, as the sets of values that
make it), ``NO_SUM`` (only that its values differ), ``BOUNDS`` (its sum, where the sets were
too many to list: checked against the least and most its open cells can still add) or
``SUM_ONLY`` (a sum over cells that may repeat values, such as the cells two rows leave over
once the cages inside them are counted: each open cell keeps the values that leave the rest
a sum the other cells can still make, bounds consistency).

The filter (:func:`propagate`), per cage whose candidates changed: a decided value leaves the
cage's other cells (a repeat is a dead end); a combination still fits when it holds every
decided value and each open cell has one of its other values, which between them the open
cells cover; the open cells keep only the values of the combinations that fit (none fitting
is a dead end). A value every fitting combination holds must go in the cage: with one place
left there it is placed, and where all its places share a house it leaves the rest of that
house. Every step removes only values no solution uses, so counts stay exact; at a leaf every
cell is decided and the one combination that fits is the cage's value set, so every solution
keeps every sum. Cages overlap freely: each is filtered on its own.
"""

from __future__ import annotations

import numpy as np

from ..build.jit import kernel
from .bits import ONE, ZERO, lowest_bit, popcount, trailing_zeros

START = 0
CELLS = 1
INFO = 2
COMBOS = 3

#: ``seen`` for a cage that has not been filtered on this path
UNSEEN = ~np.uint64(0)

# cage modes (INFO[:, 3])
WITH_COMBOS = 0  #: the sum, as its combinations
NO_SUM = 1  #: values differ, no sum
BOUNDS = 2  #: the sum, checked against bounds only
SUM_ONLY = 3  #: a sum, values may repeat

#: a cage with more combinations than this is checked by bounds (``BOUNDS``)
MOST_COMBOS = 4096


@kernel
def plain(cells, full):
    """The ``variant`` tuple of a board without cages or pencil marks."""
    start = np.full(cells, full, dtype=np.uint64)
    return (
        start,
        np.zeros((0, 1), dtype=np.int32),
        np.zeros((0, 5), dtype=np.int64),
        np.zeros(0, dtype=np.uint64),
    )


@kernel(inline="always")
def _in_cage(cage_cells, cage, size, cell):
    for j in range(size):
        if cage_cells[cage, j] == cell:
            return True
    return False


@kernel(inline="always")
def _changed(cand, cell, mask, cell_houses, dirty, mark, queue, tail):
    """Write ``mask`` (nonzero, smaller) into ``cell``: its houses dirty, queued if decided.
    Returns the new queue length."""
    cand[cell] = mask
    for k in range(cell_houses.shape[1]):
        house = cell_houses[cell, k]
        if house < 0:
            break
        dirty[house] |= mark
    if (mask & (mask - ONE)) == ZERO:
        queue[tail] = cell
        tail += 1
    return tail


@kernel
def propagate(cand, houses, cell_houses, queue, dirty, mark, variant, seen):
    """Filter every cage whose cells changed since it was last filtered (see the module's
    docstring). Returns ``(queued, changed, blame)``: how many newly decided cells it wrote
    into ``queue``, whether it removed any candidate, and -1, or at a dead end the house to
    blame (a house of the cage's first cell) with ``queued`` -1."""
    cage_cells = variant[CELLS]
    info = variant[INFO]
    combos = variant[COMBOS]
    n = houses.shape[1]
    tail = 0
    changed = False
    for i in range(cage_cells.shape[0]):
        size = info[i, 2]
        signature = np.uint64(0)
        for j in range(size):
            signature += np.uint64(popcount(cand[cage_cells[i, j]]))
        if signature == seen[i]:
            continue
        blame = cell_houses[cage_cells[i, 0], 0]
        mode = info[i, 3]
        if mode == SUM_ONLY:  # values may repeat: bounds only
            failed, tail, more = _sum_only(cand, cage_cells, i, size, info[i, 4], cell_houses,
                                           dirty, mark, queue, tail)
            if failed:
                return -1, changed, blame
            changed = changed or more
            signature = UNSEEN  # bounds moved: look again, the others' bounds are tighter now
            if not more:
                signature = np.uint64(0)
                for j in range(size):
                    signature += np.uint64(popcount(cand[cage_cells[i, j]]))
            seen[i] = signature
            continue
        decided = ZERO
        open_union = ZERO
        decided_sum = 0
        for j in range(size):
            mask = cand[cage_cells[i, j]]
            if mask == ZERO:
                return -1, changed, blame
            if (mask & (mask - ONE)) == ZERO:
                if decided & mask:
                    return -1, changed, blame  # a value twice in the cage
                decided |= mask
                decided_sum += trailing_zeros(mask) + 1
            else:
                open_union |= mask
        own = False  # the cage changed its own cells: filter it again
        keep = ~decided
        required = ZERO
        if mode == WITH_COMBOS:
            possible = ZERO
            required = ~ZERO
            for t in range(info[i, 0], info[i, 1]):
                combo = combos[t]
                if (combo & decided) != decided:
                    continue
                need = combo & ~decided
                if (open_union & need) != need:
                    continue
                fits = True
                for j in range(size):
                    mask = cand[cage_cells[i, j]]
                    if (mask & (mask - ONE)) != ZERO and (mask & need) == ZERO:
                        fits = False
                        break
                if fits:
                    possible |= combo
                    required &= combo
            if possible == ZERO:
                return -1, changed, blame
            keep = possible & ~decided
            required &= ~decided
        elif mode == BOUNDS:
            left = 0
            for j in range(size):
                mask = cand[cage_cells[i, j]]
                if (mask & (mask - ONE)) != ZERO:
                    left += 1
            rest = info[i, 4] - decided_sum
            avail = open_union & ~decided
            if left == 0:
                if rest != 0:
                    return -1, changed, blame
            else:
                if popcount(avail) < left:
                    return -1, changed, blame
                low = 0
                bits = avail
                for _ in range(left):
                    bit = lowest_bit(bits)
                    bits ^= bit
                    low += trailing_zeros(bit) + 1
                high = 0
                bits = avail
                for _ in range(left):
                    top = _top(bits)
                    bits ^= ONE << np.uint64(top - 1)
                    high += top
                if rest < low or rest > high:
                    return -1, changed, blame
        # the open cells keep what some fitting combination (or no repeat) allows
        for j in range(size):
            cell = cage_cells[i, j]
            mask = cand[cell]
            if (mask & (mask - ONE)) == ZERO:
                continue
            new = mask & keep
            if new != mask:
                if new == ZERO:
                    return -1, changed, blame
                changed = True
                own = True
                tail = _changed(cand, cell, new, cell_houses, dirty, mark, queue, tail)
        # values the cage must hold: one place left, or every place in one house
        while required != ZERO:
            bit = lowest_bit(required)
            required ^= bit
            places = 0
            first = -1
            for j in range(size):
                cell = cage_cells[i, j]
                if cand[cell] & bit:
                    places += 1
                    if first < 0:
                        first = cell
            if places == 0:
                return -1, changed, blame
            if places == 1:
                if cand[first] != bit:
                    changed = True
                    own = True
                    tail = _changed(cand, first, bit, cell_houses, dirty, mark, queue, tail)
                continue
            for k in range(cell_houses.shape[1]):
                house = cell_houses[first, k]
                if house < 0:
                    break
                shared = True
                for j in range(size):
                    cell = cage_cells[i, j]
                    if cell == first or (cand[cell] & bit) == ZERO:
                        continue
                    inside = False
                    for e in range(cell_houses.shape[1]):
                        if cell_houses[cell, e] == house:
                            inside = True
                            break
                    if not inside:
                        shared = False
                        break
                if not shared:
                    continue
                for j in range(n):
                    other = houses[house, j]
                    mask = cand[other]
                    if (mask & bit) == ZERO or _in_cage(cage_cells, i, size, other):
                        continue
                    mask &= ~bit
                    if mask == ZERO:
                        return -1, changed, house
                    changed = True
                    tail = _changed(cand, other, mask, cell_houses, dirty, mark, queue, tail)
        signature = UNSEEN
        if not own:
            signature = np.uint64(0)
            for j in range(size):
                signature += np.uint64(popcount(cand[cage_cells[i, j]]))
        seen[i] = signature
    return tail, changed, -1


@kernel
def _sum_only(cand, cage_cells, i, size, total, cell_houses, dirty, mark, queue, tail):
    """Bounds consistency of ``sum(cells) == total`` where values may repeat: every cell
    keeps the values ``v`` with ``total - v`` between the least and the most the other cells
    can add. Returns (dead end, queue length, anything removed)."""
    low = 0
    high = 0
    for j in range(size):
        mask = cand[cage_cells[i, j]]
        if mask == ZERO:
            return True, tail, False
        low += trailing_zeros(mask) + 1
        high += _top(mask)
    if total < low or total > high:
        return True, tail, False
    changed = False
    for j in range(size):
        cell = cage_cells[i, j]
        mask = cand[cell]
        if (mask & (mask - ONE)) == ZERO:
            continue
        least = trailing_zeros(mask) + 1
        most = _top(mask)
        floor = total - (high - most)  # the least this cell can hold
        ceiling = total - (low - least)  # the most
        if floor > most or ceiling < least:
            return True, tail, changed
        new = mask
        if floor > least:
            new &= ~((ONE << np.uint64(floor - 1)) - ONE)
        if ceiling < most:
            new &= (ONE << np.uint64(ceiling)) - ONE
        if new != mask:
            if new == ZERO:
                return True, tail, changed
            changed = True
            tail = _changed(cand, cell, new, cell_houses, dirty, mark, queue, tail)
            # the bounds moved: later cells see the tighter ones next pass
    return False, tail, changed


@kernel(inline="always")
def _top(mask):
    """The highest value of a nonzero mask (1-based: the position of its top bit, plus one):
    every bit below the top one set, then counted."""
    mask |= mask >> np.uint64(1)
    mask |= mask >> np.uint64(2)
    mask |= mask >> np.uint64(4)
    mask |= mask >> np.uint64(8)
    mask |= mask >> np.uint64(16)
    mask |= mask >> np.uint64(32)
    return popcount(mask)


@kernel(inline="always")
def load(cand, givens, full, variant, queue, queued):
    """Narrow the root's candidates to the starting ones (``variant[START]``): a cell left
    with one value (or none: a dead end the singles find) joins ``queue``. Returns its new
    length."""
    start = variant[START]
    for cell in range(cand.shape[0]):
        mask = start[cell]
        if mask == full:
            continue
        old = cand[cell]
        new = old & mask
        if new == old:
            continue
        cand[cell] = new
        # a given is queued already; an empty cell left with one value (or none: the
        # singles then see a dead end) joins it
        if givens[cell] == 0 and (new & (new - ONE)) == ZERO:
            queue[queued] = cell
            queued += 1
    return queued
