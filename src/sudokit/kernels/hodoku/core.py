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
from ..search.bits import ONE, ZERO, borrowed, popcount, trailing_zeros
from .record import DIGS_SIZE, HDR_SIZE, new_state, new_step  # noqa: F401 (the Python layer's)

# -- the step record ---------------------------------------------------------------------

#: hdr slots
KIND = 0  #: technique id (see ``sudokit.logic.techniques``)
NE = 1  #: eliminations written
NP = 2  #: placements written
NC = 3  #: pattern cells written
NF = 4  #: fins written
NH = 5  #: houses written
NL = 6  #: chain nodes written
NB = 7  #: of the houses, how many are bases (the rest are covers)
SUB = 8  #: a technique's variant (type of a unique rectangle, a chain's shape, ...)

#: digs slots: masks of values
DIGITS = 0  #: the values the pattern is about
EXTRA = 1  #: a second set (a wing's eliminated value, an ALS's common values, ...)

#: chain link flags (chain[:, 2]): the link from this node to the next
WEAK = 0
STRONG = 1


@kernel(inline="always")
def clear(step, kind):
    hdr = step[0]
    hdr[:] = 0
    hdr[KIND] = kind
    step[7][:] = ZERO


@kernel(inline="always")
def add_elim(step, cell, value):
    hdr = step[0]
    elim = step[1]
    k = hdr[NE]
    elim[k, 0] = cell
    elim[k, 1] = value
    hdr[NE] = k + 1


@kernel(inline="always")
def add_place(step, cell, value):
    hdr = step[0]
    place = step[2]
    k = hdr[NP]
    place[k, 0] = cell
    place[k, 1] = value
    hdr[NP] = k + 1


@kernel(inline="always")
def add_cell(step, cell):
    hdr = step[0]
    k = hdr[NC]
    step[3][k] = cell
    hdr[NC] = k + 1


@kernel(inline="always")
def add_fin(step, cell):
    hdr = step[0]
    k = hdr[NF]
    step[4][k] = cell
    hdr[NF] = k + 1


@kernel(inline="always")
def add_house(step, house):
    hdr = step[0]
    k = hdr[NH]
    step[5][k] = house
    hdr[NH] = k + 1


@kernel(inline="always")
def add_link(step, cell, value, strong):
    hdr = step[0]
    chain = step[6]
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
    return (borrowed(st[0]), borrowed(st[1]), borrowed(st[2]), borrowed(st[3]), borrowed(st[4]), borrowed(st[5]), borrowed(st[6]))


@kernel(inline="always")
def borrow_geo(geo):
    return (borrowed(geo[0]), borrowed(geo[1]), borrowed(geo[2]), borrowed(geo[3]))


@kernel(inline="always")
def borrow_step(step):
    return (
        borrowed(step[0]),
        borrowed(step[1]),
        borrowed(step[2]),
        borrowed(step[3]),
        borrowed(step[4]),
        borrowed(step[5]),
        borrowed(step[6]),
        borrowed(step[7]),
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
    cand, free, nsq, hsq, qctl = st[1], st[2], st[3], st[4], st[5]
    houses, cell_houses = geo[0], geo[1]
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
    values, cand, free, hsq, qctl = st[0], st[1], st[2], st[4], st[5]
    houses, cell_houses, peers = geo[0], geo[1], geo[2]
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
            st[6][cell] = fixed[cell]


@kernel
def remove_marks(st, geo, keep):
    """Remove every candidate not in ``keep`` (a player's pencil marks), in cell order."""
    st, geo = borrow_state(st), borrow_geo(geo)
    cand = st[1]
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
    hdr, elim, place = step[0], step[1], step[2]
    for k in range(hdr[NP]):
        set_cell(st, geo, place[k, 0], place[k, 1])
    for k in range(hdr[NE]):
        del_cand(st, geo, elim[k, 0], elim[k, 1])


@kernel
def unsolved(st):
    values = st[0]
    count = 0
    for cell in range(values.shape[0]):
        if values[cell] == 0:
            count += 1
    return count


@kernel(inline="always")
def sees(geo, a, b):
    """Whether cells a and b (a != b) share a house."""
    cell_houses = geo[1]
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
