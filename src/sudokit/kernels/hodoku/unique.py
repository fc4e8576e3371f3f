"""Uniqueness techniques: unique rectangles (types 1 to 6), hidden rectangles and avoidable
rectangles. They assume the puzzle has exactly one solution (which ``sudokit.logic`` proves
before it uses them): a pattern that would leave two solutions cannot be the answer.

*Deadly pattern*: four empty cells at the corners of a rectangle (two rows, two columns, exactly
two boxes) holding only the values a and b in the solution, as a-b / b-a. Swapping a and b in
the four cells gives a second solution, so in a unique puzzle such a pattern cannot occur. A
*unique rectangle* is four such corners that could all still take a and b (see below); every
test below says what must happen so that they do not end as the deadly pattern ("extra" values
are a corner's candidates other than a and b):

- Type 1: three corners hold only a and b; the fourth loses a and b.
- Type 2: the corners with extras (two, in one row or column) share exactly one extra value x;
  one of them is x, so x goes from every cell seeing both. Type 5: the same with the two extra
  corners diagonal, or with three extra corners.
- Type 3: two extra corners in one house act together as one cell holding their extras; with
  other cells of that house (none holding a or b) they form a naked subset, whose values go
  from the rest of the house (and of the box, where the subset lies in one box).
- Type 4: two extra corners in one row or column; if value a has no other place in the houses
  they share, one of them is a, so neither can be b.
- Type 6: two extra corners on a diagonal; if a has no place outside the rectangle in its two
  rows and two columns, a is at the other diagonal, so the extra corners lose a.
- Hidden rectangle: a corner holding only a and b (one, or two on a diagonal); if a has no place
  outside the rectangle in the row and column of the opposite corner, that corner cannot be b.

An *avoidable rectangle* is built from cells the solver placed (not the puzzle's givens): those
could be swapped just the same. With placed a and b in one box's pair of corners:
- Type 1: a third corner placed b: the fourth corner cannot be a.
- Type 2: the two far corners empty, holding b/x and a/x: one is x, so x goes from cells seeing
  both.

Search order is HoDoKu's: rectangles from each empty bivalue cell in cell order (avoidable ones
from each placed cell), its partner in its box along a row or column, then the far pair along
the lines; a rectangle is looked at once, from the first corner that reaches it. The first
corner must hold exactly the two values; like HoDoKu by default (allowUniquenessMissingCandidates)
the other corners need only have no placed peer with either value (a removed candidate changes
nothing in the deadly-pattern argument). ``ALLOW_MISSING = False`` asks for both candidates.
"""

from __future__ import annotations

import numpy as np

from ..build.jit import kernel
from .record import (
    DIGITS, EXTRA, GEO_CELL_HOUSES, GEO_HOUSES, GEO_INFO, GEO_PEERS, NE, SIZE, ST_CAND, ST_FIXED,
    ST_VALUES, SUB, S_DIGS, S_HDR,
)  # fmt: skip
from ..search.bits import ONE, ZERO, plain, popcount, trailing_zeros
from .core import add_cell, add_elim, bit, clear, sees

HIDDEN = 7  #: the scan's variant number for hidden rectangles (1..6 are the UR types)
#: the most cells (besides the two extra corners) a type 3 subset may take; HoDoKu has no bound,
#: but 9x9 houses never have more than 7 candidates for it
MAX_TYPE3 = 7
#: HoDoKu's allowUniquenessMissingCandidates (on by default, and always on in hodoku-py): a
#: corner other than the first need not hold the values as candidates, only have no placed peer
#: with them
ALLOW_MISSING = True


@kernel(inline="always")
def _in4(rect, cell):
    return rect[0] == cell or rect[1] == cell or rect[2] == cell or rect[3] == cell


@kernel(inline="always")
def _begin(step, kind, variant, rect, pm, extra):
    clear(step, kind)
    step[S_HDR][SUB] = variant
    step[S_DIGS][DIGITS] = pm
    step[S_DIGS][EXTRA] = extra
    for k in range(4):
        add_cell(step, rect[k])


@kernel(inline="always")
def _elim_mask(step, cell, mask):
    while mask != ZERO:
        add_elim(step, cell, trailing_zeros(mask) + 1)
        mask &= mask - ONE


@kernel
def _type3(st, geo, step, kind, rect, pm, a, b, unit, is_box, pool, idx, masks, nth, found):
    """Type 3 subsets in house ``unit`` for extra corners a, b, in HoDoKu's order (every set
    of the house's other cells, lexicographic, smaller first). Returns the running count of
    instances, or -1 once the nth is written."""
    values, cand = st[ST_VALUES], st[ST_CAND]
    houses, cell_houses = geo[GEO_HOUSES], geo[GEO_CELL_HOUSES]
    extras = (cand[a] | cand[b]) & ~pm
    npool = 0
    for j in range(houses.shape[1]):
        cell = houses[unit, j]
        if values[cell] == 0 and cand[cell] & pm == ZERO and not _in4(rect, cell):
            pool[npool] = cell
            npool += 1
    if npool == 0:
        return found
    masks[0] = extras
    level = 0
    idx[0] = -1
    while level >= 0:
        idx[level] += 1
        if idx[level] >= npool:
            level -= 1
            continue
        mask = masks[level] | cand[pool[idx[level]]]
        masks[level + 1] = mask
        k = level + 1  # cells taken from the pool
        # the subset (a and b counting as one cell) needs k + 1 values
        deficit = popcount(mask) - (k + 1)
        check = deficit == 0
        if check and is_box:
            # all in one row or column: the line's pass had it already
            same_row = cell_houses[a, 0] == cell_houses[b, 0]
            same_col = cell_houses[a, 1] == cell_houses[b, 1]
            for i in range(k):
                c = pool[idx[i]]
                same_row = same_row and cell_houses[c, 0] == cell_houses[a, 0]
                same_col = same_col and cell_houses[c, 1] == cell_houses[a, 1]
            check = not (same_row or same_col)
        if check:
            _begin(step, kind, plain(3), rect, pm, mask)
            for i in range(k):
                add_cell(step, pool[idx[i]])
            box = -1
            if not is_box:
                box = cell_houses[a, 2]
                if cell_houses[b, 2] != box:
                    box = -1
                for i in range(k):
                    if cell_houses[pool[idx[i]], 2] != box:
                        box = -1
            for pass_ in range(2):
                house = unit if pass_ == 0 else box
                if house < 0:
                    break
                for j in range(houses.shape[1]):
                    cell = houses[house, j]
                    if values[cell] != 0 or cell == a or cell == b:
                        continue
                    if pass_ == 1 and (cell_houses[cell, 0] == unit or cell_houses[cell, 1] == unit):
                        continue  # the line's cells are done
                    member = False
                    for i in range(k):
                        if pool[idx[i]] == cell:
                            member = True
                    if not member:
                        _elim_mask(step, cell, cand[cell] & mask)
            if step[S_HDR][NE] > 0:
                if found == nth:
                    return -1
                found += 1
        # a deeper set adds one cell and no fewer values: it can close the gap by one at most
        if k < MAX_TYPE3 and deficit < npool - idx[level]:
            idx[level + 1] = idx[level]
            level += 1
    return found


@kernel
def _hidden_corner(st, geo, step, kind, rect, pm, corner, nth, found):
    """Hidden rectangles with bivalue corner ``corner``: both ways round (the first value
    checked, the second eliminated; then the reverse)."""
    values, cand = st[ST_VALUES], st[ST_CAND]
    houses, cell_houses = geo[GEO_HOUSES], geo[GEO_CELL_HOUSES]
    row, col = cell_houses[corner, 0], cell_houses[corner, 1]
    far = -1
    for k in range(4):
        c = rect[k]
        if cell_houses[c, 0] != row and cell_houses[c, 1] != col:
            far = c
    if far < 0:
        return found
    low = pm & ~(pm - ONE)
    for way in range(2):
        check = low if way == 0 else pm & ~low
        gone = pm & ~check
        if cand[far] & gone == ZERO:
            continue
        alone = True
        for line in range(2):
            house = cell_houses[far, line]
            for j in range(houses.shape[1]):
                c = houses[house, j]
                if values[c] == 0 and cand[c] & check != ZERO and not _in4(rect, c):
                    alone = False
        if not alone:
            continue
        _begin(step, kind, plain(0), rect, pm, ZERO)
        add_elim(step, far, trailing_zeros(gone) + 1)
        if found == nth:
            return -1
        found += 1
    return found


@kernel
def _check_rect(st, geo, step, kind, variant, rect, pm, work, nth, found):
    """The instances of test ``variant`` on the unique rectangle ``rect`` (values ``pm``), in
    HoDoKu's order. Returns the running count, or -1 once the nth is written."""
    values, cand = st[ST_VALUES], st[ST_CAND]
    houses, cell_houses, peers = geo[GEO_HOUSES], geo[GEO_CELL_HOUSES], geo[GEO_PEERS]
    two, extra, pool, idx = work[0], work[1], work[2], work[3]
    nt = 0
    na = 0
    for k in range(4):
        c = rect[k]
        if cand[c] & ~pm == ZERO:
            two[nt] = c
            nt += 1
        else:
            extra[na] = c
            na += 1
    if variant == 1:
        if nt == 3:
            _begin(step, kind, variant, rect, pm, ZERO)
            _elim_mask(step, extra[0], cand[extra[0]] & pm)
            if step[S_HDR][NE] > 0:
                if found == nth:
                    return -1
                found += 1
        return found
    if variant == 2 or variant == 5:
        if nt != 1 and nt != 2:
            return found
        ex = ZERO
        for i in range(na):
            ex |= cand[extra[i]] & ~pm
        if popcount(ex) != 1:
            return found
        a, b = extra[0], extra[1]
        lined = cell_houses[a, 0] == cell_houses[b, 0] or cell_houses[a, 1] == cell_houses[b, 1]
        kind_of = 2 if na == 2 and lined else 5
        if kind_of != variant:
            return found
        _begin(step, kind, variant, rect, pm, ex)
        x = trailing_zeros(ex) + 1
        for j in range(peers.shape[1]):
            p = peers[a, j]
            if p < 0:
                break
            if cand[p] & ex == ZERO or _in4(rect, p):
                continue
            ok = True
            for i in range(1, na):
                if not sees(geo, p, extra[i]):
                    ok = False
            if ok:
                add_elim(step, p, x)
        if step[S_HDR][NE] > 0:
            if found == nth:
                return -1
            found += 1
        return found
    if variant == 3:
        if nt != 2:
            return found
        a, b = extra[0], extra[1]
        masks = np.zeros(MAX_TYPE3 + 2, dtype=np.uint64)
        for line in range(3):
            if cell_houses[a, line] != cell_houses[b, line]:
                continue
            found = _type3(st, geo, step, kind, rect, pm, a, b, cell_houses[a, line], line == 2, pool, idx, masks, nth, found)
            if found < 0:
                return -1
        return found
    if variant == 4:
        if nt != 2:
            return found
        a, b = extra[0], extra[1]
        if cell_houses[a, 0] != cell_houses[b, 0] and cell_houses[a, 1] != cell_houses[b, 1]:
            return found
        low = pm & ~(pm - ONE)
        high = pm & ~low
        seen = ZERO
        for j in range(peers.shape[1]):
            p = peers[a, j]
            if p < 0:
                break
            if p != b and sees(geo, p, b):
                seen |= cand[p] & pm
        if seen & low == ZERO:
            gone = high
        elif seen & high == ZERO:
            gone = low
        else:
            return found
        _begin(step, kind, variant, rect, pm, ZERO)
        for i in range(2):
            if cand[extra[i]] & gone:
                add_elim(step, extra[i], trailing_zeros(gone) + 1)
        if step[S_HDR][NE] > 0:
            if found == nth:
                return -1
            found += 1
        return found
    if variant == 6:
        if nt != 2:
            return found
        a, b = extra[0], extra[1]
        if cell_houses[a, 0] == cell_houses[b, 0] or cell_houses[a, 1] == cell_houses[b, 1]:
            return found
        seen = ZERO
        for c in (a, b):
            for line in range(2):
                house = cell_houses[c, line]
                for j in range(houses.shape[1]):
                    p = houses[house, j]
                    if values[p] == 0 and not _in4(rect, p):
                        seen |= cand[p] & pm
        low = pm & ~(pm - ONE)
        high = pm & ~low
        if seen & low == ZERO:
            gone = low
        elif seen & high == ZERO:
            gone = high
        else:
            return found
        _begin(step, kind, variant, rect, pm, ZERO)
        d = trailing_zeros(gone) + 1
        first, second = (a, b) if a < b else (b, a)
        if cand[first] & gone:
            add_elim(step, first, d)
        if cand[second] & gone:
            add_elim(step, second, d)
        if step[S_HDR][NE] > 0:
            if found == nth:
                return -1
            found += 1
        return found
    if variant == HIDDEN:
        if nt == 1:
            return _hidden_corner(st, geo, step, kind, rect, pm, two[0], nth, found)
        if nt == 2:
            p, q = two[0], two[1]
            if cell_houses[p, 0] == cell_houses[q, 0] or cell_houses[p, 1] == cell_houses[q, 1]:
                return found
            found = _hidden_corner(st, geo, step, kind, rect, pm, p, nth, found)
            if found < 0:
                return -1
            return _hidden_corner(st, geo, step, kind, rect, pm, q, nth, found)
    return found


@kernel
def _allowed(st, geo, allow):
    """Per cell, the values no placed peer holds (0 for placed cells): where a unique
    rectangle may have a value even if its candidate was removed."""
    values, cand = st[ST_VALUES], st[ST_CAND]
    peers = geo[GEO_PEERS]
    full = ZERO
    for v in range(1, geo[GEO_INFO][SIZE] + 1):
        full |= bit(v)
    for c in range(values.shape[0]):
        if values[c] != 0:
            allow[c] = ZERO
            continue
        if not ALLOW_MISSING:
            allow[c] = cand[c]
            continue
        mask = full
        for j in range(peers.shape[1]):
            p = peers[c, j]
            if p < 0:
                break
            if values[p] != 0:
                mask &= ~bit(values[p])
        allow[c] = mask


@kernel(inline="always")
def _reaches(cand, allow, rect, j):
    """Whether the scan meets ``rect`` from its corner ``rect[j]``: that corner bivalue, the
    others allowing both its values."""
    pm = cand[rect[j]]
    if popcount(pm) != 2:
        return False
    for k in range(4):
        if k != j and allow[rect[k]] & pm != pm:
            return False
    return True


@kernel
def _ur_scan(st, geo, step, kind, nth, variant):
    """Every unique rectangle in HoDoKu's order, tested for ``variant`` (1..6, or HIDDEN)."""
    values, cand = st[ST_VALUES], st[ST_CAND]
    houses, cell_houses = geo[GEO_HOUSES], geo[GEO_CELL_HOUSES]
    width = houses.shape[1]
    nth = max(nth, 0)
    found = 0
    rect = np.zeros(4, dtype=np.int64)
    work = np.zeros((4, width + 1), dtype=np.int64)
    allow = np.zeros(values.shape[0], dtype=np.uint64)
    _allowed(st, geo, allow)
    for i11 in range(values.shape[0]):
        pm = cand[i11]
        if values[i11] != 0 or popcount(pm) != 2:
            continue
        r11, c11, b11 = cell_houses[i11, 0], cell_houses[i11, 1], cell_houses[i11, 2]
        for j in range(width):
            i12 = houses[b11, j]
            if i12 == i11 or allow[i12] & pm != pm:
                continue
            r12, c12 = cell_houses[i12, 0], cell_houses[i12, 1]
            if r12 == r11:
                line11, line12 = c11, c12
            elif c12 == c11:
                line11, line12 = r11, r12
            else:
                continue
            for k in range(width):
                i21 = houses[line11, k]
                i22 = houses[line12, k]
                if cell_houses[i21, 2] == b11 or cell_houses[i21, 2] != cell_houses[i22, 2]:
                    continue
                if allow[i21] & pm != pm or allow[i22] & pm != pm:
                    continue
                rect[0], rect[1], rect[2], rect[3] = i11, i12, i21, i22
                # looked at once: from the first corner that reaches it
                seen = False
                for q in range(1, 4):
                    if rect[q] < i11 and _reaches(cand, allow, rect, q):
                        seen = True
                if seen:
                    continue
                found = _check_rect(st, geo, step, kind, variant, rect, pm, work, nth, found)
                if found < 0:
                    return True
    return False


@kernel
def uniqueness(st, geo, step, kind, nth, variant):
    """Uniqueness Test ``variant`` (1..6)."""
    return _ur_scan(st, geo, step, kind, nth, variant)


@kernel
def hidden_rectangle(st, geo, step, kind, nth):
    return _ur_scan(st, geo, step, kind, nth, plain(HIDDEN))


@kernel(inline="always")
def _ar_far(st, s, p, fs, fp):
    """Whether the far corners fit an avoidable rectangle on the placed corners s (value a) and
    p (value b), ``fs`` being in s's line: b at fs and a at fp are still possible, at least one
    of them empty, and the empty ones bivalue."""
    values, cand, fixed = st[ST_VALUES], st[ST_CAND], st[ST_FIXED]
    a, b = values[s], values[p]
    ba, bb = bit(a), bit(b)
    fs_empty = values[fs] == 0 and cand[fs] & bb != ZERO and popcount(cand[fs]) == 2
    fp_empty = values[fp] == 0 and cand[fp] & ba != ZERO and popcount(cand[fp]) == 2
    if values[fs] == b and fixed[fs] == 0 and fp_empty:
        return True
    if values[fp] == a and fixed[fp] == 0 and fs_empty:
        return True
    return fs_empty and fp_empty


@kernel
def avoidable_rectangle(st, geo, step, kind, nth, variant):
    """Avoidable Rectangle type ``variant`` (1 or 2)."""
    values, cand, fixed = st[ST_VALUES], st[ST_CAND], st[ST_FIXED]
    houses, cell_houses, peers = geo[GEO_HOUSES], geo[GEO_CELL_HOUSES], geo[GEO_PEERS]
    width = houses.shape[1]
    nth = max(nth, 0)
    found = 0
    rect = np.zeros(4, dtype=np.int64)
    for i11 in range(values.shape[0]):
        if values[i11] == 0 or fixed[i11] != 0:
            continue
        r11, c11, b11 = cell_houses[i11, 0], cell_houses[i11, 1], cell_houses[i11, 2]
        for j in range(width):
            i12 = houses[b11, j]
            # a rectangle is met from both placed corners of its box: take it from the first
            if i12 <= i11 or values[i12] == 0 or fixed[i12] != 0:
                continue
            r12, c12 = cell_houses[i12, 0], cell_houses[i12, 1]
            if r12 == r11:
                line11, line12 = c11, c12
            elif c12 == c11:
                line11, line12 = r11, r12
            else:
                continue
            a, b = values[i11], values[i12]
            pm = bit(a) | bit(b)
            for k in range(width):
                i21 = houses[line11, k]
                i22 = houses[line12, k]
                if cell_houses[i21, 2] == b11 or cell_houses[i21, 2] != cell_houses[i22, 2]:
                    continue
                if not _ar_far(st, i11, i12, i21, i22):
                    continue
                rect[0], rect[1], rect[2], rect[3] = i11, i12, i21, i22
                if values[i21] != 0 or values[i22] != 0:
                    if variant != 1:
                        continue
                    _begin(step, kind, variant, rect, pm, ZERO)
                    if values[i21] != 0:
                        if cand[i22] & bit(a):
                            add_elim(step, i22, a)
                    elif cand[i21] & bit(b):
                        add_elim(step, i21, b)
                else:
                    if variant != 2:
                        continue
                    ex = cand[i21] & ~bit(b)
                    if cand[i22] & ex == ZERO:
                        continue
                    _begin(step, kind, variant, rect, pm, ex)
                    x = trailing_zeros(ex) + 1
                    for t in range(peers.shape[1]):
                        p = peers[i21, t]
                        if p < 0:
                            break
                        if p != i22 and cand[p] & ex != ZERO and sees(geo, p, i22):
                            add_elim(step, p, x)
                if step[S_HDR][NE] > 0:
                    if found == nth:
                        return True
                    found += 1
    return False
