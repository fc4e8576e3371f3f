"""Fish: X-Wing, Swordfish and Jellyfish, basic, finned and sashimi.

For one value, ``size`` base lines (rows, or columns) whose places all lie in ``size`` cover
lines (columns, or rows) hold the value once in each: the value goes from the rest of the covers.
A finned fish has places outside the covers, its *fins*; the value then goes only from cover
cells that also see every fin. It is *sashimi* when some base line has at most one place inside
the covers (the fish would be degenerate without its fins).

Lines are bit masks of positions: ``places[line]`` has bit j when the j-th cell of the line
holds the value. Search order is HoDoKu's: value, rows as bases before columns, base lines in
increasing combinations, then cover combinations.
"""

from __future__ import annotations

import numpy as np

from ..build.jit import kernel
from .record import (
    BOX_HEIGHT, BOX_WIDTH, DIGITS, GEO_CELL_HOUSES, GEO_HOUSES, GEO_INFO, NB, NE, SIZE, ST_CAND, S_DIGS,
    S_HDR,
)  # fmt: skip
from ..search.bits import ONE, ZERO, plain, popcount, trailing_zeros
from .core import add_cell, add_elim, add_fin, add_house, bit, clear, sees


#: fish kinds the finder tells apart
BASIC = 0
FINNED = 1
SASHIMI = 2
#: fins a finned fish may have
MAX_FINS = 5
#: covers beyond ``size`` a finned fish's bases may reach
MAX_EXTRA_COVERS = 3


@kernel
def _places(cand, houses, first, n, value):
    """``places[i]``: positions holding ``value`` in line ``first + i`` (i < n)."""
    out = np.zeros(n, dtype=np.uint64)
    b = bit(value)
    for i in range(n):
        mask = ZERO
        for j in range(n):
            if cand[houses[first + i, j]] & b:
                mask |= ONE << np.uint64(j)
        out[i] = mask
    return out


@kernel
def _write(st, geo, step, kind, value, base_first, cover_first, bases, size, covers, csize):
    """Write a fish step: bases and covers, body cells, fins, and the eliminations (cover cells
    outside the bases that hold the value and, for finned fish, see every fin)."""
    cand = st[ST_CAND]
    houses, n = geo[GEO_HOUSES], geo[GEO_INFO][SIZE]
    b = bit(value)
    clear(step, kind)
    step[S_DIGS][DIGITS] = b
    for i in range(size):
        add_house(step, base_first + bases[i])
    for i in range(csize):
        add_house(step, cover_first + covers[i])
    step[S_HDR][NB] = size  # NB: the bases come first
    in_cover = ZERO
    for i in range(csize):
        in_cover |= ONE << np.uint64(covers[i])
    fins = np.zeros(n * size, dtype=np.int32)
    nfins = 0
    for i in range(size):
        line = base_first + bases[i]
        for j in range(n):
            cell = houses[line, j]
            if cand[cell] & b:
                if in_cover >> np.uint64(j) & ONE:
                    add_cell(step, cell)
                else:
                    add_fin(step, cell)
                    fins[nfins] = cell
                    nfins += 1
    for i in range(csize):
        line = cover_first + covers[i]
        for j in range(n):
            cell = houses[line, j]
            if cand[cell] & b == ZERO:
                continue
            in_base = False
            for k in range(size):
                if _in_line(houses, base_first + bases[k], cell):
                    in_base = True
            if in_base:
                continue
            ok = True
            for f in range(nfins):
                if not sees(geo, cell, fins[f]):
                    ok = False
                    break
            if ok:
                add_elim(step, cell, value)
    return step[S_HDR][NE] > 0


@kernel(inline="always")
def _in_line(houses, line, cell):
    for j in range(houses.shape[1]):
        if houses[line, j] == cell:
            return True
    return False


@kernel
def _eliminates(st, geo, value, base_first, cover_first, bases, size, covers, csize, fin_cells, nfins):
    """Whether the fish removes anything (without writing it)."""
    cand, houses = st[ST_CAND], geo[GEO_HOUSES]
    b = bit(value)
    for i in range(csize):
        line = cover_first + covers[i]
        for j in range(houses.shape[1]):
            cell = houses[line, j]
            if cand[cell] & b == ZERO:
                continue
            in_base = False
            for k in range(size):
                if _in_line(houses, base_first + bases[k], cell):
                    in_base = True
                    break
            if in_base:
                continue
            ok = True
            for f in range(nfins):
                if not sees(geo, cell, fin_cells[f]):
                    ok = False
                    break
            if ok:
                return True
    return False


@kernel
def fish(st, geo, step, kind, nth, size, wanted):
    """The nth fish of ``size`` lines of the kind ``wanted`` (BASIC, FINNED or SASHIMI)."""
    cand = st[ST_CAND]
    houses, cell_houses, n = geo[GEO_HOUSES], geo[GEO_CELL_HOUSES], geo[GEO_INFO][SIZE]
    nth = max(nth, 0)
    found = 0
    bases = np.zeros(size, dtype=np.int64)
    covers = np.zeros(size, dtype=np.int64)
    eligible = np.zeros(n, dtype=np.int64)
    cover_lines = np.zeros(n, dtype=np.int64)
    fin_cells = np.zeros(n * size, dtype=np.int32)
    for value in range(1, n + 1):
        b = bit(value)
        for rows_first in range(2):
            base_first = 0 if rows_first == 0 else n
            cover_first = n if rows_first == 0 else 0
            base_kind = 0 if rows_first == 0 else 1  # column of cell_houses naming a cell's base line
            cover_kind = 1 - base_kind
            # positions along a base line are columns (rows) grouped by box width (height)
            span = geo[GEO_INFO][BOX_WIDTH] if rows_first == 0 else geo[GEO_INFO][BOX_HEIGHT]
            group_mask = (ONE << np.uint64(span)) - ONE
            places = _places(cand, houses, base_first, n, value)
            count = 0
            for line in range(n):
                k = popcount(places[line])
                if (wanted == BASIC and 2 <= k <= size) or (wanted != BASIC and k >= 1):
                    eligible[count] = line
                    count += 1
            if count < size:
                continue
            idx = np.zeros(size, dtype=np.int64)
            level = 0
            idx[0] = -1
            while level >= 0:
                idx[level] += 1
                if idx[level] > count - (size - level):
                    level -= 1
                    continue
                if level + 1 < size:
                    idx[level + 1] = idx[level]
                    level += 1
                    continue
                union = ZERO
                base_set = ZERO
                for i in range(size):
                    bases[i] = eligible[idx[i]]
                    union |= places[bases[i]]
                    base_set |= ONE << np.uint64(bases[i])
                spread = popcount(union)
                if wanted == BASIC:
                    if spread != size:
                        continue
                    m = union
                    for i in range(size):
                        covers[i] = trailing_zeros(m)
                        m &= m - ONE
                    if not _eliminates(st, geo, value, base_first, cover_first, bases, size, covers, size, fin_cells, plain(0)):
                        continue
                    if found == nth:
                        return _write(st, geo, step, kind, value, base_first, cover_first, bases, size, covers, size)
                    found += 1
                    continue
                if spread < size or spread > size + MAX_EXTRA_COVERS:
                    continue
                ncl = 0
                m = union
                while m != ZERO:
                    cover_lines[ncl] = trailing_zeros(m)
                    ncl += 1
                    m &= m - ONE
                # every choice of ``size`` covers among the lines the bases reach
                cidx = np.zeros(size, dtype=np.int64)
                clevel = 0
                cidx[0] = -1
                while clevel >= 0:
                    cidx[clevel] += 1
                    if cidx[clevel] > ncl - (size - clevel):
                        clevel -= 1
                        continue
                    if clevel + 1 < size:
                        cidx[clevel + 1] = cidx[clevel]
                        clevel += 1
                        continue
                    cover_mask = ZERO
                    for i in range(size):
                        covers[i] = cover_lines[cidx[i]]
                        cover_mask |= ONE << np.uint64(covers[i])
                    # a cheap test first: the fins' positions must lie in one box's lines
                    fin_positions = union & ~cover_mask
                    if fin_positions == ZERO:
                        continue
                    group = trailing_zeros(fin_positions) // span
                    if fin_positions & ~(group_mask << np.uint64(group * span)):
                        continue
                    # fins outside the covers, all in one box: only cells of that box can see
                    # them all (a cover cell outside the bases shares no line with a fin)
                    nfins = 0
                    fin_box = -1
                    one_box = True
                    sashimi = False
                    for i in range(size):
                        outside = places[bases[i]] & ~cover_mask
                        while outside != ZERO:
                            j = trailing_zeros(outside)
                            outside &= outside - ONE
                            fin = houses[base_first + bases[i], j]
                            fin_cells[nfins] = fin
                            nfins += 1
                            if fin_box < 0:
                                fin_box = cell_houses[fin, 2]
                            elif cell_houses[fin, 2] != fin_box:
                                one_box = False
                        if popcount(places[bases[i]] & cover_mask) <= 1:
                            sashimi = True
                    if nfins == 0 or nfins > MAX_FINS or not one_box:
                        continue
                    if (wanted == SASHIMI) != sashimi:
                        continue
                    removes = False
                    for q in range(n):
                        cell = houses[fin_box, q]
                        if cand[cell] & b == ZERO:
                            continue
                        line = cell_houses[cell, cover_kind]
                        base_line = cell_houses[cell, base_kind]
                        if cover_mask >> np.uint64(line - cover_first) & ONE and not base_set >> np.uint64(base_line - base_first) & ONE:
                            removes = True
                            break
                    if not removes:
                        continue
                    if found == nth:
                        return _write(st, geo, step, kind, value, base_first, cover_first, bases, size, covers, size)
                    found += 1
    return False
