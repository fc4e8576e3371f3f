"""Single-value patterns, wings, remote pairs, BUG+1 and colouring.

*Conjugate pair*: a house with exactly two places for a value; one of them holds it (a strong
link). The single-value patterns chain two of them: a Skyscraper joins two parallel pairs by one
end in a common line, a 2-String Kite a row pair and a column pair by ends in a common box, a
Turbot Fish any two pairs by ends that see each other; the far ends then cannot both be false,
so a cell seeing both loses the value. An Empty Rectangle is a box whose places for a value lie
on one row and one column of it, used as a bent strong link.

Wings use bivalue cells: an XY-Wing is a pivot XY seeing pincers XZ and YZ (Z goes from cells
seeing both pincers); an XYZ-Wing's pivot holds XYZ (cells must see all three); a W-Wing is two
XY cells joined by a strong link on Y (X goes from cells seeing both). A Remote Pair is a chain
of four or more bivalue cells with the same two values; cells an odd number of links apart hold
different ones. BUG+1: every empty cell bivalue but one, which must take the value that would
otherwise appear three times in its houses. Colouring two-colours the cells of a value along
conjugate pairs: one colour is true.

Search orders and, where HoDoKu sorts its finds (turbot fish, remote pairs: most eliminations
first, then its weighted sum of the eliminated candidates), the step taken follow HoDoKu.
"""

from __future__ import annotations

import numpy as np

from ..build.jit import kernel
from .record import (
    BOX_HEIGHT, BOX_WIDTH, DIGITS, EXTRA, GEO_CELL_HOUSES, GEO_HOUSES, GEO_INFO, GEO_PEERS, NE, SIZE,
    ST_CAND, ST_FREE, ST_VALUES, SUB, S_CELLS, S_CHAIN, S_DIGS, S_ELIM, S_FINS, S_HDR, S_HOUSES,
    S_PLACE,
)  # fmt: skip
from ..search.bits import ONE, ZERO, plain, popcount, trailing_zeros
from .core import add_cell, add_elim, add_fin, add_house, add_link, bit, clear, sees

#: chain nodes a remote pair may have (HoDoKu's chain length limit)
MAX_CHAIN = 20


@kernel(inline="always")
def _row(geo, cell):
    return geo[GEO_CELL_HOUSES][cell, 0]


@kernel(inline="always")
def _col(geo, cell):
    return geo[GEO_CELL_HOUSES][cell, 1]


@kernel(inline="always")
def _box(geo, cell):
    return geo[GEO_CELL_HOUSES][cell, 2]


@kernel
def _pairs(st, geo, first, last, value, a, b, house):
    """The conjugate pairs of ``value`` in houses ``first..last-1``: cells ``a[k] < b[k]`` (in
    house order) of ``house[k]``. Returns how many."""
    cand, free, houses = st[ST_CAND], st[ST_FREE], geo[GEO_HOUSES]
    bv = bit(value)
    count = 0
    for h in range(first, last):
        if free[h, value] != 2:
            continue
        found = 0
        for j in range(houses.shape[1]):
            cell = houses[h, j]
            if cand[cell] & bv:
                if found == 0:
                    a[count] = cell
                else:
                    b[count] = cell
                found += 1
                if found == 2:
                    break
        if found == 2:
            house[count] = h
            count += 1
    return count


@kernel
def _elims_seeing_both(st, geo, step, value, x, y, skip0, skip1, skip2):
    """Add the eliminations of ``value`` from cells that see both x and y (the pattern's own
    cells ``skip*`` excepted); returns how many."""
    cand, peers = st[ST_CAND], geo[GEO_PEERS]
    bv = bit(value)
    count = 0
    for j in range(peers.shape[1]):  # the cells that see x, in cell order
        cell = peers[x, j]
        if cell < 0:
            break
        if cand[cell] & bv == ZERO or cell == y or cell == skip0 or cell == skip1 or cell == skip2:
            continue
        if x == y or sees(geo, cell, y):
            add_elim(step, cell, value)
            count += 1
    return count


@kernel
def _count_seeing_both(st, geo, value, x, y):
    cand, peers = st[ST_CAND], geo[GEO_PEERS]
    bv = bit(value)
    count = 0
    for j in range(peers.shape[1]):
        cell = peers[x, j]
        if cell < 0:
            break
        if cand[cell] & bv != ZERO and cell != y and (x == y or sees(geo, cell, y)):
            count += 1
    return count


# -- HoDoKu's order among steps it collects ---------------------------------------------------


@kernel
def _index_sum(step):
    """HoDoKu's tie-break between steps that remove as many candidates: the sum over the
    eliminations, in (value, cell) order, of cell * (1 + 80 k) + value."""
    hdr, elim = step[S_HDR], step[S_ELIM]
    count = hdr[NE]
    order = np.empty(count, dtype=np.int64)
    for k in range(count):
        order[k] = elim[k, 1] * 1_000_000 + elim[k, 0]
    order.sort()
    total = 0
    offset = 1
    for k in range(count):
        cell = order[k] % 1_000_000
        value = order[k] // 1_000_000
        total += cell * offset + value
        offset += 80
    return total


@kernel(inline="always")
def _better(step, best_count, best_key):
    """Whether the step just written beats the best so far (more eliminations, then a lower
    index sum)."""
    count = step[S_HDR][NE]
    if count != best_count:
        return count > best_count
    return _index_sum(step) < best_key


@kernel
def _copy_step(source, target):
    target[0][:] = source[0]
    target[1][:] = source[1]
    target[2][:] = source[2]
    target[3][:] = source[3]
    target[4][:] = source[4]
    target[5][:] = source[5]
    target[6][:] = source[6]
    target[7][:] = source[7]


@kernel
def _scratch_step(step):
    return (
        step[S_HDR].copy(), step[S_ELIM].copy(), step[S_PLACE].copy(), step[S_CELLS].copy(),
        step[S_FINS].copy(), step[S_HOUSES].copy(), step[S_CHAIN].copy(), step[S_DIGS].copy(),
    )  # fmt: skip


# -- skyscraper, 2-string kite, turbot fish, empty rectangle ----------------------------------


@kernel
def skyscraper(st, geo, step, kind, nth):
    n = geo[GEO_INFO][SIZE]
    nth = max(nth, 0)
    found = 0
    a = np.zeros(n, dtype=np.int32)
    b = np.zeros(n, dtype=np.int32)
    hs = np.zeros(n, dtype=np.int32)
    for lines in range(2):  # rows, then columns, as HoDoKu's solver looks
        first = 0 if lines == 0 else n
        for value in range(1, n + 1):
            count = _pairs(st, geo, first, first + n, value, a, b, hs)
            for i in range(count):
                for j in range(i + 1, count):
                    # the linked ends share a column (rows) or a row (columns)
                    if lines == 0:
                        same0 = _col(geo, a[i]) == _col(geo, a[j])
                        same1 = _col(geo, b[i]) == _col(geo, b[j])
                    else:
                        same0 = _row(geo, a[i]) == _row(geo, a[j])
                        same1 = _row(geo, b[i]) == _row(geo, b[j])
                    if same0:
                        free_i, free_j, link_i, link_j = b[i], b[j], a[i], a[j]
                    elif same1:
                        free_i, free_j, link_i, link_j = a[i], a[j], b[i], b[j]
                    else:
                        continue
                    if lines == 0 and _col(geo, free_i) == _col(geo, free_j):
                        continue  # an X-Wing
                    if lines == 1 and _row(geo, free_i) == _row(geo, free_j):
                        continue
                    if _count_seeing_both(st, geo, value, free_i, free_j) == 0:
                        continue
                    if found != nth:
                        found += 1
                        continue
                    clear(step, kind)
                    step[S_DIGS][DIGITS] = bit(value)
                    add_cell(step, free_i)
                    add_cell(step, free_j)
                    add_cell(step, link_i)
                    add_cell(step, link_j)
                    add_house(step, hs[i])
                    add_house(step, hs[j])
                    _elims_seeing_both(st, geo, step, value, free_i, free_j, plain(-1), plain(-1), plain(-1))
                    return True
    return False


@kernel
def two_string_kite(st, geo, step, kind, nth):
    cand = st[ST_CAND]
    n = geo[GEO_INFO][SIZE]
    nth = max(nth, 0)
    found = 0
    ra = np.zeros(n, dtype=np.int32)
    rb = np.zeros(n, dtype=np.int32)
    rh = np.zeros(n, dtype=np.int32)
    ca = np.zeros(n, dtype=np.int32)
    cb = np.zeros(n, dtype=np.int32)
    ch = np.zeros(n, dtype=np.int32)
    for value in range(1, n + 1):
        rows = _pairs(st, geo, plain(0), n, value, ra, rb, rh)
        cols = _pairs(st, geo, n, 2 * n, value, ca, cb, ch)
        for i in range(rows):
            for j in range(cols):
                la, lb, xa, xb = ra[i], rb[i], ca[j], cb[j]
                # la and xa: the ends that share a box
                if _box(geo, la) == _box(geo, xa):
                    pass
                elif _box(geo, la) == _box(geo, xb):
                    xa, xb = xb, xa
                elif _box(geo, lb) == _box(geo, xa):
                    la, lb = lb, la
                elif _box(geo, lb) == _box(geo, xb):
                    la, lb = lb, la
                    xa, xb = xb, xa
                else:
                    continue
                if la == xa or la == xb or lb == xa or lb == xb:
                    continue
                cross = _row(geo, xb) * n + (_col(geo, lb) - n)
                if cand[cross] & bit(value) == ZERO:
                    continue
                if found != nth:
                    found += 1
                    continue
                clear(step, kind)
                step[S_DIGS][DIGITS] = bit(value)
                add_cell(step, lb)
                add_cell(step, xb)
                add_cell(step, la)
                add_cell(step, xa)
                add_fin(step, la)
                add_fin(step, xa)
                add_house(step, rh[i])
                add_house(step, ch[j])
                add_elim(step, cross, value)
                return True
    return False


@kernel
def _er_direction(st, geo, step, kind, value, box, er_row, er_col, through_rows, nth, found):
    """One direction of the Empty Rectangle check: walk the ER row (``through_rows`` False:
    conjugate pairs in columns) or the ER column (True: pairs in rows). Returns the running
    count of instances, or -1 once the nth is written."""
    cand, houses = st[ST_CAND], geo[GEO_HOUSES]
    n = geo[GEO_INFO][SIZE]
    bv = bit(value)
    line = er_col if through_rows else er_row  # the house walked
    for j in range(n):
        cell = houses[line, j]
        if cand[cell] & bv == ZERO or _box(geo, cell) == box:
            continue
        unit = _row(geo, cell) if through_rows else _col(geo, cell)
        other = -1
        places = 0
        for k in range(n):
            c2 = houses[unit, k]
            if cand[c2] & bv:
                places += 1
                if c2 != cell:
                    other = c2
        if places != 2:
            continue
        cross_house = _col(geo, other) if through_rows else _row(geo, other)
        for k in range(n):
            target = houses[cross_house, k]
            if cand[target] & bv == ZERO or _box(geo, target) == box:
                continue
            target_unit = _row(geo, target) if through_rows else _col(geo, target)
            if target_unit != (er_row if through_rows else er_col):
                continue
            if found != nth:
                found += 1
                continue
            clear(step, kind)
            step[S_DIGS][DIGITS] = bv
            add_cell(step, cell)
            add_cell(step, other)
            add_house(step, box)
            for m in range(n):
                c3 = houses[box, m]
                if cand[c3] & bv:
                    add_fin(step, c3)
            add_elim(step, target, value)
            return -1
    return found


@kernel
def empty_rectangle(st, geo, step, kind, nth):
    cand, free, houses, info = st[ST_CAND], st[ST_FREE], geo[GEO_HOUSES], geo[GEO_INFO]
    n, bh, bw = info[SIZE], info[BOX_HEIGHT], info[BOX_WIDTH]
    nth = max(nth, 0)
    found = 0
    for value in range(1, n + 1):
        bv = bit(value)
        for box in range(2 * n, 3 * n):
            count = free[box, value]
            if count < 2 or count > bh + bw - 1:
                continue
            top = _row(geo, houses[box, 0])
            left = _col(geo, houses[box, 0])
            for r_off in range(bh - 1, -1, -1):
                for c_off in range(bw - 1, -1, -1):
                    er_row = top + r_off
                    er_col = left + c_off
                    # every place of the box on the ER row or the ER column, both used
                    off_cross = False
                    on_row = False
                    on_col = False
                    for m in range(n):
                        cell = houses[box, m]
                        if cand[cell] & bv == ZERO:
                            continue
                        in_row = _row(geo, cell) == er_row
                        in_col = _col(geo, cell) == er_col
                        if not in_row and not in_col:
                            off_cross = True
                        if in_row and not in_col:
                            on_row = True
                        if in_col and not in_row:
                            on_col = True
                    if off_cross or not on_row or not on_col:
                        continue
                    found = _er_direction(st, geo, step, kind, value, box, er_row, er_col, plain(False), nth, found)
                    if found < 0:
                        return True
                    found = _er_direction(st, geo, step, kind, value, box, er_row, er_col, plain(True), nth, found)
                    if found < 0:
                        return True
    return False


@kernel
def _x_links(st, geo, value, cell, out_cell, out_strong):
    """HoDoKu's single-value links of ``cell``: every other place of the value in its row,
    column and box (box places already in the row or column skipped), strong when the house
    has two places. Returns how many."""
    cand, free, houses, cell_houses = st[ST_CAND], st[ST_FREE], geo[GEO_HOUSES], geo[GEO_CELL_HOUSES]
    bv = bit(value)
    count = 0
    for k in range(3):
        h = cell_houses[cell, k]
        strong = free[h, value] == 2
        for j in range(houses.shape[1]):
            other = houses[h, j]
            if other == cell or cand[other] & bv == ZERO:
                continue
            if k == 2 and (_row(geo, other) == _row(geo, cell) or _col(geo, other) == _col(geo, cell)):
                continue
            out_cell[count] = other
            out_strong[count] = strong
            count += 1
    return count


@kernel
def turbot_fish(st, geo, step, kind, nth):
    """Strong - weak - strong on one value (HoDoKu's four-node X-chain); the solver takes the
    one that removes most, as HoDoKu sorts its chains."""
    cand = st[ST_CAND]
    n = geo[GEO_INFO][SIZE]
    cells = cand.shape[0]
    width = 3 * n
    l1 = np.zeros(width, dtype=np.int32)
    s1 = np.zeros(width, dtype=np.bool_)
    l2 = np.zeros(width, dtype=np.int32)
    s2 = np.zeros(width, dtype=np.bool_)
    l3 = np.zeros(width, dtype=np.int32)
    s3 = np.zeros(width, dtype=np.bool_)
    best = _scratch_step(step)
    best_count = -1
    best_key = 0
    found = 0
    for value in range(1, n + 1):
        bv = bit(value)
        for start in range(cells):
            if cand[start] & bv == ZERO:
                continue
            k1 = _x_links(st, geo, value, start, l1, s1)
            for i in range(k1):
                if not s1[i]:
                    continue
                a = l1[i]
                k2 = _x_links(st, geo, value, a, l2, s2)
                for j in range(k2):
                    b = l2[j]
                    if b == start or b == a:
                        continue
                    k3 = _x_links(st, geo, value, b, l3, s3)
                    for m in range(k3):
                        if not s3[m]:
                            continue
                        end = l3[m]
                        if end == a or end == b:
                            continue
                        if _count_seeing_both(st, geo, value, start, end) == 0:
                            continue  # (end == start closes a loop: start is true)
                        clear(step, kind)
                        step[S_DIGS][DIGITS] = bv
                        add_link(step, start, value, plain(1))
                        add_link(step, a, value, plain(0))
                        add_link(step, b, value, plain(1))
                        add_link(step, end, value, plain(0))
                        add_cell(step, start)
                        add_cell(step, a)
                        add_cell(step, b)
                        add_cell(step, end)
                        _elims_seeing_both(st, geo, step, value, start, end, plain(-1), plain(-1), plain(-1))
                        if nth >= 0:
                            if found == nth:
                                return True
                            found += 1
                        elif _better(step, best_count, best_key):
                            best_count = step[S_HDR][NE]
                            best_key = _index_sum(step)
                            _copy_step(step, best)
    if nth >= 0 or best_count < 0:
        return False
    _copy_step(best, step)
    return True


# -- wings -------------------------------------------------------------------------------


@kernel
def _bivalues(st, wanted, out):
    """Empty cells with exactly ``wanted`` candidates, in cell order; returns how many."""
    values, cand = st[ST_VALUES], st[ST_CAND]
    count = 0
    for cell in range(cand.shape[0]):
        if values[cell] == 0 and popcount(cand[cell]) == wanted:
            out[count] = cell
            count += 1
    return count


@kernel
def _wing(st, geo, step, kind, nth, xyz):
    cand = st[ST_CAND]
    cells = cand.shape[0]
    bi = np.zeros(cells, dtype=np.int32)
    tri = np.zeros(cells, dtype=np.int32)
    nbi = _bivalues(st, plain(2), bi)
    pivots = _bivalues(st, plain(3), tri) if xyz else nbi
    piv = tri if xyz else bi
    found = 0
    for pi in range(pivots):
        pivot = piv[pi]
        pmask = cand[pivot]
        for ji in range(nbi):
            j = bi[ji]
            if xyz and j == pivot:
                continue
            if not xyz and ji <= pi:
                continue
            jmask = cand[j]
            if popcount(pmask | jmask) != 3:
                continue
            for ki in range(ji + 1, nbi):
                k = bi[ki]
                if k == pivot:
                    continue
                kmask = cand[k]
                if popcount(pmask | jmask | kmask) != 3:
                    continue
                if pmask == jmask or jmask == kmask or kmask == pmask:
                    continue
                for rot in range(1 if xyz else 3):  # each of the three cells as pivot
                    if rot == 0:
                        p, x, y = pivot, j, k
                    elif rot == 1:
                        p, x, y = j, pivot, k
                    else:
                        p, x, y = k, j, pivot
                    if not (sees(geo, p, x) and sees(geo, p, y)):
                        continue
                    shared = cand[x] & cand[y]
                    if popcount(shared) != 1:
                        continue
                    z = trailing_zeros(shared) + 1
                    bz = bit(z)
                    removes = 0
                    for cell in range(cells):
                        if cand[cell] & bz == ZERO or cell == p or cell == x or cell == y:
                            continue
                        if sees(geo, cell, x) and sees(geo, cell, y) and (not xyz or sees(geo, cell, p)):
                            removes += 1
                    if removes == 0:
                        continue
                    if found != nth:
                        found += 1
                        continue
                    clear(step, kind)
                    step[S_DIGS][DIGITS] = cand[p] | bz
                    step[S_DIGS][EXTRA] = bz
                    add_cell(step, p)
                    add_cell(step, x)
                    add_cell(step, y)
                    for cell in range(cells):
                        if cand[cell] & bz == ZERO or cell == p or cell == x or cell == y:
                            continue
                        if sees(geo, cell, x) and sees(geo, cell, y) and (not xyz or sees(geo, cell, p)):
                            add_elim(step, cell, z)
                    return True
    return False


@kernel
def xy_wing(st, geo, step, kind, nth):
    return _wing(st, geo, step, kind, max(nth, 0), plain(False))


@kernel
def xyz_wing(st, geo, step, kind, nth):
    return _wing(st, geo, step, kind, max(nth, 0), plain(True))


@kernel
def _w_link(st, geo, link_value, x, y, out):
    """A strong link on ``link_value`` (cells other than x and y) with one end seeing x and the
    other seeing y, neither seeing both: writes its ends to out[0] (sees x), out[1] (sees y)
    and returns True."""
    cand, free, houses = st[ST_CAND], st[ST_FREE], geo[GEO_HOUSES]
    bv = bit(link_value)
    for h in range(houses.shape[0]):
        if free[h, link_value] != 2:
            continue
        w1 = -1
        w2 = -1
        for j in range(houses.shape[1]):
            cell = houses[h, j]
            if cell != x and cell != y and cand[cell] & bv:
                if w1 < 0:
                    w1 = cell
                else:
                    w2 = cell
                    break
        if w2 < 0:
            continue
        w1x, w1y = sees(geo, w1, x), sees(geo, w1, y)
        w2x, w2y = sees(geo, w2, x), sees(geo, w2, y)
        if (w1x and w1y) or (w2x and w2y):
            continue
        if w1x and w2y:
            out[0], out[1] = w1, w2
            return True
        if w1y and w2x:
            out[0], out[1] = w2, w1
            return True
    return False


@kernel
def w_wing(st, geo, step, kind, nth):
    cand = st[ST_CAND]
    cells = cand.shape[0]
    nth = max(nth, 0)
    bi = np.zeros(cells, dtype=np.int32)
    nbi = _bivalues(st, plain(2), bi)
    ends = np.zeros(2, dtype=np.int32)
    found = 0
    for ii in range(nbi):
        x = bi[ii]
        mask = cand[x]
        lo = trailing_zeros(mask) + 1
        hi = trailing_zeros(mask & (mask - ONE)) + 1
        for jj in range(ii + 1, nbi):
            y = bi[jj]
            if cand[y] != mask:
                continue
            for side in range(2):
                gone, link = (lo, hi) if side == 0 else (hi, lo)
                if _count_seeing_both(st, geo, gone, x, y) == 0:
                    continue
                if not _w_link(st, geo, link, x, y, ends):
                    continue
                if found != nth:
                    found += 1
                    continue
                clear(step, kind)
                step[S_DIGS][DIGITS] = bit(gone) | bit(link)
                step[S_DIGS][EXTRA] = bit(link)
                add_cell(step, x)
                add_cell(step, y)
                add_fin(step, ends[0])
                add_fin(step, ends[1])
                _elims_seeing_both(st, geo, step, gone, x, y, plain(-1), plain(-1), plain(-1))
                return True
    return False


# -- remote pairs ------------------------------------------------------------------------------


@kernel
def _remote_elims(st, geo, step, chain, length, a, b):
    """Write the eliminations of a remote pair ``chain[:length]`` (cells): both values go from
    cells that see two chain cells three, five, ... links apart. Returns how many."""
    cand = st[ST_CAND]
    count = 0
    for value_index in range(2):
        value = a if value_index == 0 else b
        bv = bit(value)
        for cell in range(cand.shape[0]):
            if cand[cell] & bv == ZERO:
                continue
            member = False
            for i in range(length):
                if chain[i] == cell:
                    member = True
            if member:
                continue
            hit = False
            for i in range(length):
                for j in range(i + 3, length, 2):
                    if sees(geo, cell, chain[i]) and sees(geo, cell, chain[j]):
                        hit = True
                        break
                if hit:
                    break
            if hit:
                add_elim(step, cell, value)
                count += 1
    return count


@kernel
def remote_pair(st, geo, step, kind, nth):
    """Chains of four or more bivalue cells holding the same two values, each seeing the next;
    the solver takes the one that removes most, as HoDoKu sorts them."""
    values, cand = st[ST_VALUES], st[ST_CAND]
    cells = cand.shape[0]
    most = MAX_CHAIN // 2  # cells: HoDoKu counts two nodes per cell
    chain = np.zeros(most, dtype=np.int32)
    nxt = np.zeros(most + 1, dtype=np.int64)  # the next cell to try at each position
    used = np.zeros(cells, dtype=np.bool_)
    best = _scratch_step(step)
    best_count = -1
    best_key = 0
    found = 0
    for start in range(cells):
        mask = cand[start]
        if values[start] != 0 or popcount(mask) != 2:
            continue
        a = trailing_zeros(mask) + 1
        b = trailing_zeros(mask & (mask - ONE)) + 1
        chain[0] = start
        used[start] = True
        depth = 1  # cells in the chain; the next one goes to chain[depth]
        nxt[1] = 0
        while depth >= 1:
            if depth == most or nxt[depth] >= cells:  # nothing more at this position
                depth -= 1
                if depth >= 1:
                    used[chain[depth]] = False
                    nxt[depth] += 1
                continue
            cell = nxt[depth]
            if used[cell] or cand[cell] != mask or not sees(geo, chain[depth - 1], cell):
                nxt[depth] += 1
                continue
            chain[depth] = cell
            used[cell] = True
            length = depth + 1
            if length >= 4 and length % 2 == 0:
                clear(step, kind)
                step[S_DIGS][DIGITS] = mask
                if _remote_elims(st, geo, step, chain, length, a, b) > 0:
                    for i in range(length):
                        add_cell(step, chain[i])
                        add_link(step, chain[i], a if i % 2 == 0 else b, plain(1))
                        add_link(step, chain[i], b if i % 2 == 0 else a, plain(0))
                    if nth >= 0:
                        if found == nth:
                            used[:] = False
                            return True
                        found += 1
                    elif _better(step, best_count, best_key):
                        best_count = step[S_HDR][NE]
                        best_key = _index_sum(step)
                        _copy_step(step, best)
            depth += 1
            nxt[depth] = 0
        used[start] = False
    if nth >= 0 or best_count < 0:
        return False
    _copy_step(best, step)
    return True


# -- BUG+1 -------------------------------------------------------------------------------------


@kernel
def bug_plus_1(st, geo, step, kind, nth):
    """Every empty cell bivalue but one trivalue cell, and one value three times in that cell's
    row, column and box (at most twice elsewhere): the cell takes that value."""
    if nth > 0:
        return False
    values, cand, free = st[ST_VALUES], st[ST_CAND], st[ST_FREE]
    n = geo[GEO_INFO][SIZE]
    triple = -1
    for cell in range(cand.shape[0]):
        if values[cell] != 0:
            continue
        k = popcount(cand[cell])
        if k > 3:
            return False
        if k == 3:
            if triple >= 0:
                return False
            triple = cell
    if triple < 0:
        return False
    value3 = -1
    units = np.full(3, -1, dtype=np.int64)
    for h in range(free.shape[0]):
        for d in range(1, n + 1):
            c = free[h, d]
            if c > 3:
                return False
            if c == 3:
                kind_of = h // n
                if units[kind_of] >= 0 or (value3 >= 0 and value3 != d):
                    return False
                value3 = d
                units[kind_of] = h
    if value3 < 0:
        return False
    if units[0] != _row(geo, triple) or units[1] != _col(geo, triple) or units[2] != _box(geo, triple):
        return False
    if cand[triple] & bit(value3) == ZERO:
        return False
    clear(step, kind)
    step[S_DIGS][DIGITS] = bit(value3)
    add_cell(step, triple)
    rest = cand[triple] & ~bit(value3)
    while rest != ZERO:
        d = trailing_zeros(rest) + 1
        rest &= rest - ONE
        add_elim(step, triple, d)
    return True


# -- colouring ---------------------------------------------------------------------------------


@kernel
def _colour(st, geo, value, comp, colour):
    """Two-colour the places of ``value`` along conjugate pairs: ``comp[c]`` the component
    (numbered from the lowest cell up, -1 for cells in no conjugate pair), ``colour[c]`` 0 or 1
    (0 for the colour of the component's lowest cell). Returns the number of components."""
    cand, free, houses, cell_houses = st[ST_CAND], st[ST_FREE], geo[GEO_HOUSES], geo[GEO_CELL_HOUSES]
    cells = cand.shape[0]
    bv = bit(value)
    comp[:] = -1
    stack = np.zeros(cells, dtype=np.int32)
    count = 0
    for seed in range(cells):
        if cand[seed] & bv == ZERO or comp[seed] >= 0:
            continue
        linked = False
        for k in range(3):
            if free[cell_houses[seed, k], value] == 2:
                linked = True
        if not linked:
            continue
        comp[seed] = count
        colour[seed] = 0
        top = 1
        stack[0] = seed
        size = 1
        while top > 0:
            top -= 1
            cell = stack[top]
            for k in range(3):
                h = cell_houses[cell, k]
                if free[h, value] != 2:
                    continue
                for j in range(houses.shape[1]):
                    other = houses[h, j]
                    if other != cell and cand[other] & bv and comp[other] < 0:
                        comp[other] = count
                        colour[other] = 1 - colour[cell]
                        stack[top] = other
                        top += 1
                        size += 1
        count += 1
    return count


@kernel
def _sees_colour(geo, cell, comp, colour, which, side, cells):
    for other in range(cells):
        if comp[other] == which and colour[other] == side and other != cell and sees(geo, cell, other):
            return True
    return False


@kernel
def _colour_sees_colour(geo, comp, colour, a, a_side, b, b_side, cells):
    """Whether some cell of colour (a, a_side) sees some cell of colour (b, b_side)."""
    for cell in range(cells):
        if comp[cell] == a and colour[cell] == a_side:
            if _sees_colour(geo, cell, comp, colour, b, b_side, cells):
                return True
    return False


@kernel
def _write_colours(step, comp, colour, value, first, second, cells):
    for cell in range(cells):
        if comp[cell] == first or comp[cell] == second:
            add_link(step, cell, value, colour[cell] + (2 if comp[cell] == second and first != second else 0))


@kernel
def simple_colors(st, geo, step, kind, nth):
    """Wrap: two cells of one colour see each other, so that colour is false. Trap: a cell that
    sees both colours is false."""
    cand = st[ST_CAND]
    n = geo[GEO_INFO][SIZE]
    cells = cand.shape[0]
    nth = max(nth, 0)
    comp = np.zeros(cells, dtype=np.int64)
    colour = np.zeros(cells, dtype=np.int64)
    found = 0
    for value in range(1, n + 1):
        bv = bit(value)
        count = _colour(st, geo, value, comp, colour)
        for c in range(count):
            # wrap: the first colour with two cells that see each other
            wrapped = -1
            for side in range(2):
                if _colour_sees_colour(geo, comp, colour, c, side, c, side, cells):
                    wrapped = side
                    break
            if wrapped >= 0:
                if found == nth:
                    clear(step, kind)
                    step[S_HDR][SUB] = 2
                    step[S_DIGS][DIGITS] = bv
                    _write_colours(step, comp, colour, value, c, c, cells)
                    for cell in range(cells):
                        if comp[cell] == c and colour[cell] == wrapped:
                            add_elim(step, cell, value)
                    return True
                found += 1
            trap = 0
            for cell in range(cells):
                if cand[cell] & bv and comp[cell] != c:
                    if _sees_colour(geo, cell, comp, colour, c, 0, cells) and _sees_colour(geo, cell, comp, colour, c, 1, cells):
                        trap += 1
            if trap == 0:
                continue
            if found != nth:
                found += 1
                continue
            clear(step, kind)
            step[S_HDR][SUB] = 1
            step[S_DIGS][DIGITS] = bv
            _write_colours(step, comp, colour, value, c, c, cells)
            for cell in range(cells):
                if cand[cell] & bv and comp[cell] != c:
                    if _sees_colour(geo, cell, comp, colour, c, 0, cells) and _sees_colour(geo, cell, comp, colour, c, 1, cells):
                        add_elim(step, cell, value)
            return True
    return False


@kernel
def _sees_both_of(geo, comp, colour, a, a_side, b, cells):
    """Whether the cells of colour (a, a_side) together see a cell of each colour of b."""
    one = _colour_sees_colour(geo, comp, colour, a, a_side, b, 0, cells)
    two = _colour_sees_colour(geo, comp, colour, a, a_side, b, 1, cells)
    return one and two


@kernel
def _trap_between(st, geo, comp, colour, value, a, a_side, b, b_side, cells, mark):
    """Mark the cells (outside both colours) that see colour (a, a_side) and (b, b_side)."""
    cand = st[ST_CAND]
    bv = bit(value)
    for cell in range(cells):
        if cand[cell] & bv == ZERO:
            continue
        if (comp[cell] == a and colour[cell] == a_side) or (comp[cell] == b and colour[cell] == b_side):
            continue
        if _sees_colour(geo, cell, comp, colour, a, a_side, cells) and _sees_colour(geo, cell, comp, colour, b, b_side, cells):
            mark[cell] = True


@kernel
def multi_colors(st, geo, step, kind, nth):
    """Two colour clusters of one value. Type 2: a colour that sees both colours of the other
    cluster is false. Type 1: where a colour of one cluster sees a colour of the other, the two
    remaining colours cannot both be false; cells seeing both lose the value."""
    cand = st[ST_CAND]
    n = geo[GEO_INFO][SIZE]
    cells = cand.shape[0]
    nth = max(nth, 0)
    comp = np.zeros(cells, dtype=np.int64)
    colour = np.zeros(cells, dtype=np.int64)
    mark = np.zeros(cells, dtype=np.bool_)
    found = 0
    for value in range(1, n + 1):
        bv = bit(value)
        count = _colour(st, geo, value, comp, colour)
        for i in range(count):
            for j in range(count):
                if i == j:
                    continue
                for variant in range(2, 0, -1):  # type 2 first, as HoDoKu looks
                    mark[:] = False
                    if variant == 2:
                        for side in range(2):
                            if _sees_both_of(geo, comp, colour, i, side, j, cells):
                                for cell in range(cells):
                                    if comp[cell] == i and colour[cell] == side and cand[cell] & bv:
                                        mark[cell] = True
                    else:
                        for sa in range(2):
                            for sb in range(2):
                                if _colour_sees_colour(geo, comp, colour, i, sa, j, sb, cells):
                                    _trap_between(st, geo, comp, colour, value, i, 1 - sa, j, 1 - sb, cells, mark)
                    hits = 0
                    for cell in range(cells):
                        if mark[cell]:
                            hits += 1
                    if hits == 0:
                        continue
                    if found != nth:
                        found += 1
                        continue
                    clear(step, kind)
                    step[S_HDR][SUB] = variant
                    step[S_DIGS][DIGITS] = bv
                    _write_colours(step, comp, colour, value, i, j, cells)
                    for cell in range(cells):
                        if mark[cell]:
                            add_elim(step, cell, value)
                    return True
    return False
