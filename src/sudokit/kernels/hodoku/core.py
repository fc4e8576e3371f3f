"""The human-style solver's state, its step record and the two moves every technique ends in.

A person solves on a *candidate grid*: each empty cell lists the values it may still take.
The state here is that grid and what a person's eye keeps track of, all in arrays:

    values[c]    the value of cell c, 0 while empty
    cand[c]      candidate mask of cell c (bit v-1 for value v); 0 once the cell is solved
    free[h, v]   how many empty cells of house h still have candidate v (v = 1..n)
    nsq, hsq     queues of naked-single and hidden-single sightings, (cell, value) rows,
                 with their heads and tails in qctl
    fixed[c]     1 where the value is a given of the puzzle (avoidable rectangles need to
                 know a given from a value the solver placed)

Removing a candidate updates ``free`` and, like HoDoKu's grid, queues a naked single when a cell
drops to one candidate and a hidden single when a house drops to one place for a value. The
singles finders take the next sighting from those queues, so the order singles are found in (and
with it the score, where a hidden single counts 14 and a naked one 4) is the order HoDoKu finds
them in: that is what makes ratings agree on easy puzzles.

Geometry arrives as tables, as for the search kernels: ``houses[h]`` the cells of house h (rows,
columns, then boxes), ``cell_houses[c]`` the row, column and box house of cell c, ``peers[c]``
the cells that share a house with c in increasing order, -1 padded.

A *step* is written into a tuple of arrays, ``step = (hdr, elim, place, cells, fins, houses,
chain, digs)``: the technique and counts in ``hdr``, the (cell, value) rows it eliminates or
places, the cells and fins of its pattern, the houses it stands on (bases first, then covers),
a chain's nodes (cell, value, link to the next: 1 strong, 0 weak), and value masks in ``digs``.
"""

from __future__ import annotations

import numpy as np

from ..build.jit import kernel
from .record import (
    GEO_CELL_HOUSES, GEO_HOUSES, GEO_INFO, GEO_PEERS, KIND, NC, NE, NF, NH, NL, NP, ST_CAND, ST_FIXED,
    ST_FREE, ST_HSQ, ST_NSQ, ST_QCTL, ST_VALUES, S_CELLS, S_CHAIN, S_DIGS, S_ELIM, S_FINS, S_HDR,
    S_HOUSES, S_PLACE,
)  # fmt: skip
from ..search.bits import ONE, ZERO, borrowed, popcount, trailing_zeros
from .record import new_state, new_step  # noqa: F401 - the Python layer's makers, here too

# -- the step record (its slots: ``record``) -------------------------------------------

#: chain link flags (chain[:, 2]): the link from this node to the next
WEAK = 0
STRONG = 1


@kernel(inline="always")
def clear(step, kind):
    hdr = step[S_HDR]
    hdr[:] = 0
    hdr[KIND] = kind
    step[S_DIGS][:] = ZERO


@kernel(inline="always")
def add_elim(step, cell, value):
    hdr = step[S_HDR]
    elim = step[S_ELIM]
    k = hdr[NE]
    elim[k, 0] = cell
    elim[k, 1] = value
    hdr[NE] = k + 1


@kernel(inline="always")
def add_place(step, cell, value):
    hdr = step[S_HDR]
    place = step[S_PLACE]
    k = hdr[NP]
    place[k, 0] = cell
    place[k, 1] = value
    hdr[NP] = k + 1


@kernel(inline="always")
def add_cell(step, cell):
    hdr = step[S_HDR]
    k = hdr[NC]
    step[S_CELLS][k] = cell
    hdr[NC] = k + 1


@kernel(inline="always")
def add_fin(step, cell):
    hdr = step[S_HDR]
    k = hdr[NF]
    step[S_FINS][k] = cell
    hdr[NF] = k + 1


@kernel(inline="always")
def add_house(step, house):
    hdr = step[S_HDR]
    k = hdr[NH]
    step[S_HOUSES][k] = house
    hdr[NH] = k + 1


@kernel(inline="always")
def add_link(step, cell, value, strong):
    hdr = step[S_HDR]
    chain = step[S_CHAIN]
    k = hdr[NL]
    chain[k, 0] = cell
    chain[k, 1] = value
    chain[k, 2] = strong
    hdr[NL] = k + 1


# -- the state ---------------------------------------------------------------------------------

#: qctl slots
NS_HEAD = 0
NS_TAIL = 1
HS_HEAD = 2
HS_TAIL = 3


# Each kernel entry borrows its state, geometry and step record once (``bits.borrowed``: views
# without reference counts), so that the finders and helpers below it pass arrays around without
# an atomic increment and decrement per array per call (20x the cost of setting a cell, measured).


@kernel(inline="always")
def borrow_state(st):
    return (borrowed(st[ST_VALUES]), borrowed(st[ST_CAND]), borrowed(st[ST_FREE]), borrowed(st[ST_NSQ]), borrowed(st[ST_HSQ]), borrowed(st[ST_QCTL]), borrowed(st[ST_FIXED]))


@kernel(inline="always")
def borrow_geo(geo):
    return (borrowed(geo[GEO_HOUSES]), borrowed(geo[GEO_CELL_HOUSES]), borrowed(geo[GEO_PEERS]), borrowed(geo[GEO_INFO]))


@kernel(inline="always")
def borrow_step(step):
    return (
        borrowed(step[S_HDR]),
        borrowed(step[S_ELIM]),
        borrowed(step[S_PLACE]),
        borrowed(step[S_CELLS]),
        borrowed(step[S_FINS]),
        borrowed(step[S_HOUSES]),
        borrowed(step[S_CHAIN]),
        borrowed(step[S_DIGS]),
    )


@kernel(inline="always")
def bit(value):
    """The candidate bit of a value 1..n."""
    return ONE << np.uint64(value - 1)


@kernel(inline="always")
def has(cand, cell, value):
    return (cand[cell] >> np.uint64(value - 1)) & ONE != ZERO


@kernel(inline="always")
def _push(queue, qctl, tail, cell, value):
    k = qctl[tail]
    queue[k, 0] = cell
    queue[k, 1] = value
    qctl[tail] = k + 1


@kernel(inline="always")
def _last_place(cand, houses, house, value):
    """The one cell of ``house`` that still has ``value`` (-1 if none)."""
    b = bit(value)
    for j in range(houses.shape[1]):
        cell = houses[house, j]
        if cand[cell] & b:
            return cell
    return -1


@kernel(inline="always")
def del_cand(st, geo, cell, value):
    """Remove one candidate, keeping ``free`` and the singles queues as HoDoKu's grid does."""
    cand, free, nsq, hsq, qctl = st[ST_CAND], st[ST_FREE], st[ST_NSQ], st[ST_HSQ], st[ST_QCTL]
    houses, cell_houses = geo[GEO_HOUSES], geo[GEO_CELL_HOUSES]
    b = bit(value)
    if cand[cell] & b == ZERO:
        return
    cand[cell] &= ~b
    for k in range(cell_houses.shape[1]):
        house = cell_houses[cell, k]
        if house < 0:
            break
        free[house, value] -= 1
        if free[house, value] == 1:
            other = _last_place(cand, houses, house, value)
            if other >= 0:
                _push(hsq, qctl, HS_TAIL, other, value)
    rest = cand[cell]
    if rest != ZERO and rest & (rest - ONE) == ZERO:
        _push(nsq, qctl, NS_TAIL, cell, trailing_zeros(rest) + 1)


@kernel
def set_cell(st, geo, cell, value):
    """Place a value: remove it from every peer (in increasing cell order), then drop the
    cell's other candidates."""
    values, cand, free, hsq, qctl = st[ST_VALUES], st[ST_CAND], st[ST_FREE], st[ST_HSQ], st[ST_QCTL]
    houses, cell_houses, peers = geo[GEO_HOUSES], geo[GEO_CELL_HOUSES], geo[GEO_PEERS]
    if values[cell] == value:
        return
    values[cell] = value
    for j in range(peers.shape[1]):
        peer = peers[cell, j]
        if peer < 0:
            break
        del_cand(st, geo, peer, value)
    old = cand[cell]
    cand[cell] = ZERO
    while old != ZERO:
        d = trailing_zeros(old) + 1
        old &= old - ONE
        for k in range(cell_houses.shape[1]):
            house = cell_houses[cell, k]
            if house < 0:
                break
            free[house, d] -= 1
            if free[house, d] == 1 and d != value:
                other = _last_place(cand, houses, house, d)
                if other >= 0:
                    _push(hsq, qctl, HS_TAIL, other, d)


@kernel
def load(st, geo, givens, fixed):
    """Place the givens in cell order, as a player's grid fills in (queues included);
    ``fixed[c]`` marks the givens of the puzzle (0 for values a solver placed earlier)."""
    st, geo = borrow_state(st), borrow_geo(geo)
    for cell in range(givens.shape[0]):
        if givens[cell]:
            set_cell(st, geo, cell, givens[cell])
            st[ST_FIXED][cell] = fixed[cell]


@kernel
def remove_marks(st, geo, keep):
    """Remove every candidate not in ``keep`` (a player's pencil marks), in cell order."""
    st, geo = borrow_state(st), borrow_geo(geo)
    cand = st[ST_CAND]
    for cell in range(cand.shape[0]):
        gone = cand[cell] & ~keep[cell]
        while gone != ZERO:
            d = trailing_zeros(gone) + 1
            gone &= gone - ONE
            del_cand(st, geo, cell, d)


@kernel
def apply(st, geo, step):
    """Carry out a step: its placements, then its eliminations."""
    st, geo, step = borrow_state(st), borrow_geo(geo), borrow_step(step)
    hdr, elim, place = step[S_HDR], step[S_ELIM], step[S_PLACE]
    for k in range(hdr[NP]):
        set_cell(st, geo, place[k, 0], place[k, 1])
    for k in range(hdr[NE]):
        del_cand(st, geo, elim[k, 0], elim[k, 1])


@kernel
def unsolved(st):
    values = st[ST_VALUES]
    count = 0
    for cell in range(values.shape[0]):
        if values[cell] == 0:
            count += 1
    return count


@kernel(inline="always")
def sees(geo, a, b):
    """Whether cells a and b (a != b) share a house."""
    cell_houses = geo[GEO_CELL_HOUSES]
    for i in range(cell_houses.shape[1]):
        h = cell_houses[a, i]
        if h < 0:
            break
        for j in range(cell_houses.shape[1]):
            if cell_houses[b, j] == h:
                return True
    return False


@kernel(inline="always")
def count_bits(mask):
    return popcount(mask)
