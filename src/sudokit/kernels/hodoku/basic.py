"""Singles, locked candidates and subsets: the techniques most steps of most puzzles use.

Every finder takes ``(st, geo, step, nth)`` and returns whether it wrote a step. ``nth < 0`` asks
for the step the solving loop takes next (for singles: the next sighting in the queues, which
consumes it, as HoDoKu does); ``nth >= 0`` for the nth instance in the finder's scan order
without side effects (hints that list every instance, the regression library).

Scan orders follow HoDoKu's, since the step taken decides which later steps are needed and so
the score: locked candidates go box by box then value by value; subsets search boxes, then rows,
then columns, cells (or values) in increasing order.
"""

from __future__ import annotations

import numpy as np

from ..build.jit import kernel
from .record import (
    BOX_HEIGHT, BOX_WIDTH, DIGITS, GEO_CELL_HOUSES, GEO_HOUSES, GEO_INFO, SIZE, ST_CAND, ST_FREE,
    ST_HSQ, ST_NSQ, ST_QCTL, ST_VALUES, S_DIGS,
)  # fmt: skip
from ..search.bits import ONE, ZERO, plain, popcount, trailing_zeros
from .core import (
    HS_HEAD, HS_TAIL, NS_HEAD, NS_TAIL, add_cell, add_elim, add_house, add_place, bit, clear,
)  # fmt: skip



# -- singles -------------------------------------------------------------------------------


@kernel
def _full_house_of(st, geo, cell, value):
    """The house in which ``cell`` is the last empty cell, or -1."""
    free, cell_houses, n = st[ST_FREE], geo[GEO_CELL_HOUSES], geo[GEO_INFO][SIZE]
    for k in range(cell_houses.shape[1]):
        house = cell_houses[cell, k]
        if house < 0:
            break
        alone = True
        for d in range(1, n + 1):
            if d != value and free[house, d] != 0:
                alone = False
                break
        if alone:
            return house
    return -1


@kernel
def full_house(st, geo, step, kind, nth):
    values, cand, nsq, qctl = st[ST_VALUES], st[ST_CAND], st[ST_NSQ], st[ST_QCTL]
    houses = geo[GEO_HOUSES]
    if nth < 0:  # the queue's first sighting that is the last empty cell of a house
        for k in range(qctl[NS_HEAD], qctl[NS_TAIL]):
            cell, value = nsq[k, 0], nsq[k, 1]
            if values[cell] == 0:
                house = _full_house_of(st, geo, cell, value)
                if house >= 0:
                    clear(step, kind)
                    add_place(step, cell, value)
                    add_house(step, house)
                    return True
        return False
    found = 0
    seen = np.zeros(values.shape[0], dtype=np.bool_)
    for house in range(houses.shape[0]):
        last = -1
        empty = 0
        for j in range(houses.shape[1]):
            if values[houses[house, j]] == 0:
                empty += 1
                last = houses[house, j]
        if empty != 1 or seen[last]:
            continue
        seen[last] = True
        if found == nth:
            clear(step, kind)
            add_place(step, last, trailing_zeros(cand[last]) + 1)
            add_house(step, house)
            return True
        found += 1
    return False


@kernel
def naked_single(st, geo, step, kind, nth):
    values, cand, nsq, qctl = st[ST_VALUES], st[ST_CAND], st[ST_NSQ], st[ST_QCTL]
    if nth < 0:
        while qctl[NS_HEAD] < qctl[NS_TAIL]:
            k = qctl[NS_HEAD]
            qctl[NS_HEAD] = k + 1
            cell, value = nsq[k, 0], nsq[k, 1]
            if values[cell] == 0 and cand[cell] == bit(value):
                clear(step, kind)
                add_place(step, cell, value)
                return True
        return False
    found = 0
    for cell in range(values.shape[0]):
        mask = cand[cell]
        if values[cell] == 0 and mask != ZERO and mask & (mask - ONE) == ZERO:
            if found == nth:
                clear(step, kind)
                add_place(step, cell, trailing_zeros(mask) + 1)
                return True
            found += 1
    return False


@kernel
def hidden_single(st, geo, step, kind, nth):
    values, cand, free, hsq, qctl = st[ST_VALUES], st[ST_CAND], st[ST_FREE], st[ST_HSQ], st[ST_QCTL]
    houses, cell_houses, n = geo[GEO_HOUSES], geo[GEO_CELL_HOUSES], geo[GEO_INFO][SIZE]
    if nth < 0:
        # HoDoKu takes the first sighting whose cell is still empty, and gives up for this
        # round when that sighting is stale
        while qctl[HS_HEAD] < qctl[HS_TAIL]:
            k = qctl[HS_HEAD]
            qctl[HS_HEAD] = k + 1
            cell, value = hsq[k, 0], hsq[k, 1]
            if values[cell] != 0:
                continue
            if cand[cell] & bit(value):
                for j in range(cell_houses.shape[1]):
                    house = cell_houses[cell, j]
                    if house >= 0 and free[house, value] == 1:
                        clear(step, kind)
                        add_place(step, cell, value)
                        add_house(step, house)
                        return True
            return False
        return False
    found = 0
    seen = np.zeros((values.shape[0], n + 1), dtype=np.bool_)
    for house in range(houses.shape[0]):
        for value in range(1, n + 1):
            if free[house, value] != 1:
                continue
            b = bit(value)
            for j in range(houses.shape[1]):
                cell = houses[house, j]
                if cand[cell] & b:
                    if not seen[cell, value]:
                        seen[cell, value] = True
                        if found == nth:
                            clear(step, kind)
                            add_place(step, cell, value)
                            add_house(step, house)
                            return True
                        found += 1
                    break
    return False


# -- locked candidates ------------------------------------------------------------------------


@kernel
def _lc_in(st, geo, step, kind, first, last, pointing, nth, found):
    """Locked candidates in houses ``first..last-1`` (boxes when ``pointing``, else rows or
    columns): a value whose places in the house all lie in one other house goes from the rest
    of that other house. Returns the running count of instances, or -1 once the nth is written."""
    cand, free = st[ST_CAND], st[ST_FREE]
    houses, cell_houses, info = geo[GEO_HOUSES], geo[GEO_CELL_HOUSES], geo[GEO_INFO]
    n = info[SIZE]
    most = max(info[BOX_HEIGHT], info[BOX_WIDTH])
    for house in range(first, last):
        for value in range(1, n + 1):
            count = free[house, value]
            if count < 2 or count > most:
                continue
            b = bit(value)
            same_row = True
            same_col = True
            same_box = True
            row = col = box = -1
            for j in range(houses.shape[1]):
                cell = houses[house, j]
                if cand[cell] & b == ZERO:
                    continue
                if row < 0:
                    row, col, box = cell_houses[cell, 0], cell_houses[cell, 1], cell_houses[cell, 2]
                else:
                    same_row = same_row and cell_houses[cell, 0] == row
                    same_col = same_col and cell_houses[cell, 1] == col
                    same_box = same_box and cell_houses[cell, 2] == box
            for target in range(3):
                if pointing:
                    if target == 0 and not same_row:
                        continue
                    if target == 1 and not same_col:
                        continue
                    if target == 2:
                        continue
                    other = row if target == 0 else col
                else:
                    if target != 2 or not same_box:
                        continue
                    other = box
                if free[other, value] <= count:
                    continue
                if found != nth:
                    found += 1
                    continue
                clear(step, kind)
                step[S_DIGS][DIGITS] = b
                add_house(step, house)
                add_house(step, other)
                for j in range(houses.shape[1]):
                    cell = houses[other, j]
                    if cand[cell] & b == ZERO:
                        continue
                    inside = False
                    for k in range(cell_houses.shape[1]):
                        if cell_houses[cell, k] == house:
                            inside = True
                    if inside:
                        add_cell(step, cell)
                    else:
                        add_elim(step, cell, value)
                return -1
    return found


@kernel
def locked_pointing(st, geo, step, kind, nth):
    n = geo[GEO_INFO][SIZE]
    return _lc_in(st, geo, step, kind, 2 * n, 3 * n, plain(True), max(nth, 0), plain(0)) < 0


@kernel
def locked_claiming(st, geo, step, kind, nth):
    n = geo[GEO_INFO][SIZE]
    found = _lc_in(st, geo, step, kind, plain(0), n, plain(False), max(nth, 0), plain(0))
    if found < 0:
        return True
    return _lc_in(st, geo, step, kind, n, 2 * n, plain(False), max(nth, 0), found) < 0


# -- naked subsets (and locked pairs and triples) --------------------------------------------

#: what ``_naked_step`` found
NOT_A_STEP = 0
NAKED = 1
LOCKED = 2


@kernel
def _naked_step(st, geo, step, kind, cells, size, mask, locked_only, naked_only):
    """Write the step of the naked subset ``cells[:size]`` with values ``mask`` if it removes
    anything and is of the kind asked for (locked: the cells share a box and a line and
    remove candidates from both). Returns NOT_A_STEP, NAKED or LOCKED."""
    cand = st[ST_CAND]
    houses, cell_houses = geo[GEO_HOUSES], geo[GEO_CELL_HOUSES]
    first = cells[0]
    same = np.ones(3, dtype=np.bool_)
    for i in range(1, size):
        for k in range(3):
            if cell_houses[cells[i], k] != cell_houses[first, k]:
                same[k] = False
    touched = np.zeros(3, dtype=np.bool_)
    removes = 0
    box = cell_houses[first, 2]
    for k in range(3):
        if not same[k]:
            continue
        house = cell_houses[first, k]
        for j in range(houses.shape[1]):
            cell = houses[house, j]
            member = False
            for i in range(size):
                if cells[i] == cell:
                    member = True
            if member or cand[cell] & mask == ZERO:
                continue
            removes += 1
            if k == 2 or cell_houses[cell, 2] != box:
                touched[k] = True
    if removes == 0:
        return NOT_A_STEP
    areas = 0
    for k in range(3):
        if touched[k]:
            areas += 1
    is_locked = size < 4 and areas > 1 and same[2] and (same[0] or same[1])
    if (locked_only and not is_locked) or (naked_only and is_locked):
        return NOT_A_STEP
    clear(step, kind)
    step[S_DIGS][DIGITS] = mask
    for i in range(size):
        add_cell(step, cells[i])
    # eliminations in house order (row, column, box), each (cell, value) once
    for k in range(3):
        if not same[k]:
            continue
        house = cell_houses[first, k]
        add_house(step, house)
        for j in range(houses.shape[1]):
            cell = houses[house, j]
            member = False
            for i in range(size):
                if cells[i] == cell:
                    member = True
            if member:
                continue
            gone = cand[cell] & mask
            if k > 0:  # not twice: a cell of the box that is also in the shared line
                for kk in range(k):
                    if same[kk] and cell_houses[cell, kk] == cell_houses[first, kk]:
                        gone = ZERO
            while gone != ZERO:
                d = trailing_zeros(gone) + 1
                gone &= gone - ONE
                add_elim(step, cell, d)
    return LOCKED if is_locked else NAKED


@kernel
def _naked_in(st, geo, step, kind, first, last, size, locked_only, naked_only, nth, found):
    cand = st[ST_CAND]
    houses = geo[GEO_HOUSES]
    width = houses.shape[1]
    eligible = np.zeros(width, dtype=np.int32)
    cells = np.zeros(4, dtype=np.int32)
    for house in range(first, last):
        count = 0
        for j in range(width):
            c = houses[house, j]
            k = popcount(cand[c])
            if 0 < k <= size:
                eligible[count] = c
                count += 1
        if count < size:
            continue
        # combinations of ``size`` eligible cells, in increasing order, pruned as soon as the
        # union of their candidates has more than ``size`` values
        idx = np.zeros(4, dtype=np.int64)
        masks = np.zeros(5, dtype=np.uint64)
        level = 0
        idx[0] = -1
        while level >= 0:
            idx[level] += 1
            if idx[level] > count - (size - level):
                level -= 1
                continue
            mask = masks[level] | cand[eligible[idx[level]]]
            if popcount(mask) > size:
                continue
            if level + 1 < size:
                masks[level + 1] = mask
                idx[level + 1] = idx[level]
                level += 1
                continue
            if popcount(mask) != size:
                continue
            for i in range(size):
                cells[i] = eligible[idx[i]]
            kind_found = _naked_step(st, geo, step, kind, cells, size, mask, locked_only, naked_only)
            if kind_found != NOT_A_STEP:
                if found == nth:
                    return -1
                found += 1
    return found


@kernel
def naked_subset(st, geo, step, kind, nth, size, locked_only):
    """Naked pairs, triples and quadruples (``locked_only``: locked pairs and triples, which
    lie in a box and a line and clear both): boxes first, then rows, then columns."""
    n = geo[GEO_INFO][SIZE]
    nth = max(nth, 0)
    found = _naked_in(st, geo, step, kind, 2 * n, 3 * n, size, locked_only, not locked_only, nth, plain(0))
    if found < 0:
        return True
    if locked_only:
        return False
    found = _naked_in(st, geo, step, kind, plain(0), n, size, plain(False), plain(True), nth, found)
    if found < 0:
        return True
    return _naked_in(st, geo, step, kind, n, 2 * n, size, plain(False), plain(True), nth, found) < 0


# -- hidden subsets ----------------------------------------------------------------------------


@kernel
def _hidden_in(st, geo, step, kind, first, last, size, nth, found):
    cand, free = st[ST_CAND], st[ST_FREE]
    houses, n = geo[GEO_HOUSES], geo[GEO_INFO][SIZE]
    width = houses.shape[1]
    places = np.zeros(n + 1, dtype=np.uint64)  # the positions in the house of each value
    eligible = np.zeros(n, dtype=np.int32)
    for house in range(first, last):
        empty = 0
        for j in range(width):
            if cand[houses[house, j]] != ZERO:
                empty += 1
        if empty <= size:
            continue
        count = 0
        for value in range(1, n + 1):
            f = free[house, value]
            if 0 < f <= size:
                eligible[count] = value
                count += 1
                mask = ZERO
                b = bit(value)
                for j in range(width):
                    if cand[houses[house, j]] & b:
                        mask |= ONE << np.uint64(j)
                places[value] = mask
        if count < size:
            continue
        idx = np.zeros(4, dtype=np.int64)
        masks = np.zeros(5, dtype=np.uint64)
        level = 0
        idx[0] = -1
        while level >= 0:
            idx[level] += 1
            if idx[level] > count - (size - level):
                level -= 1
                continue
            mask = masks[level] | places[eligible[idx[level]]]
            if level + 1 < size:
                masks[level + 1] = mask
                idx[level + 1] = idx[level]
                level += 1
                continue
            if popcount(mask) != size:
                continue
            values_mask = ZERO
            for i in range(size):
                values_mask |= bit(eligible[idx[i]])
            removes = False
            for j in range(width):
                if mask >> np.uint64(j) & ONE and cand[houses[house, j]] & ~values_mask:
                    removes = True
            if not removes:
                continue
            if found != nth:
                found += 1
                continue
            clear(step, kind)
            step[S_DIGS][DIGITS] = values_mask
            add_house(step, house)
            for j in range(width):
                if mask >> np.uint64(j) & ONE:
                    cell = houses[house, j]
                    add_cell(step, cell)
                    gone = cand[cell] & ~values_mask
                    while gone != ZERO:
                        d = trailing_zeros(gone) + 1
                        gone &= gone - ONE
                        add_elim(step, cell, d)
            return -1
    return found


@kernel
def hidden_subset(st, geo, step, kind, nth, size):
    """Hidden pairs, triples and quadruples: boxes first, then rows, then columns."""
    n = geo[GEO_INFO][SIZE]
    nth = max(nth, 0)
    found = _hidden_in(st, geo, step, kind, 2 * n, 3 * n, size, nth, plain(0))
    if found < 0:
        return True
    found = _hidden_in(st, geo, step, kind, plain(0), n, size, nth, found)
    if found < 0:
        return True
    return _hidden_in(st, geo, step, kind, n, 2 * n, size, nth, found) < 0
