"""The optimisation kernel: branch and bound for the best-scoring completion of a board.

Every cell ``c`` has an integer weight ``w[c]``; a completion scores ``sum w[c] * value[c]``.
The kernel maximises (the Python layer minimises by negating the weights). It is the general
kernel's depth-first search (same candidate masks, same singles with the variant's cages and
starting candidates, ``general.propagate_variant``, same resumable protocol) with three
additions at every node:

1. **Two upper bounds**, cheapest first; the node is cut when either is no better than the
   best completion found so far (the *incumbent*):

   * *house assignment* (``house_bound``): within one house the missing values go once each
     to the empty cells, and pairing values and weights in the same order is the best any
     pairing can do (the rearrangement inequality). Rows partition the board, so do columns
     and boxes: the decided score plus the sum over rows is a bound, and so are the sums over
     columns and over boxes; the least of the three is taken. Linear time, no sorting: each
     house's cells are pre-sorted by weight (``by_weight``).
   * *dual* (``dual_bound``): the linear-programming relaxation of the whole problem, seen
     from its dual. With a multiplier ``lam[h, v]`` for every house ``h`` and value ``v``, the
     *reduced profit* ``red[c, v] = w[c] * v - sum of lam[h, v] over the houses h of c``
     gives, for ANY multipliers, the bound ``sum(lam) + sum over cells of max over candidates
     of red``: a completion puts each value once in each house, so its score is exactly
     ``sum(lam) + sum of red[c, value[c]]``. The multipliers are improved by block coordinate
     descent (for one ``(h, v)`` the best multiplier lies between the two largest "margins" of
     ``v`` over the cells' other candidates; we take the midpoint, which never raises the
     bound) and kept from node to node, so each node only refines what its parent learned.
     Every bound stays integral and admissible whatever the multipliers are.

2. **Reduced-cost fixing**: with the dual bound ``L``, putting value ``v`` in cell ``c`` can
   score at most ``L - max(red[c]) + red[c, v]``; where that is no better than the incumbent,
   ``v`` is removed from ``c`` and propagation runs again. This prunes inside a node what
   branching would otherwise have to refute one child at a time.

3. **Incumbent-first ordering**: branch on the cell with the fewest candidates (ties: the
   largest gap between its best and second-best reduced profit, where a wrong choice costs
   most), trying its values in decreasing reduced profit, so the first dive already lands on
   a good completion and later ones improve it.

State, besides the general kernel's ``stack`` of candidate masks (see ``general``; on a
board with cages each level also keeps the cages' counts after its cells, ``cages.py``)::

    ctl[BEST], ctl[FOUND]   the incumbent's score, and 1 once there is one
    ctl[COUNT]              how many times the incumbent improved (``limit`` stops there)
    out[cell]               the incumbent's values
    level_bound[d]          the bound proved at stack level d: an upper bound on everything
                            below it, so the caller can report a bound when a budget stops it
    lam[h, v], red[c, v]    the dual multipliers and reduced profits (value index v = value-1),
                            shared by all nodes: they are only ever a way to compute a bound
    top1, top1v, top2       per cell: best reduced profit among its candidates, its value
                            index, and the second best (recomputed per node, kept up to date
                            while the multipliers move)

``stats`` counts where nodes ended (see the ``CUT_*`` slots) for the benchmark.
"""

from __future__ import annotations

import numpy as np

from . import protocol as P
from ..build.jit import kernel
from .bits import ONE, ZERO, lowest_bit, popcount, trailing_zeros
from .driver import finish, pause, resume
from . import cages as V
from .general import load_givens, propagate_variant

# ctl slots beyond the protocol's
BEST = 5
FOUND = 6

# stats slots
CUT_CONTRADICTION = 0  #: propagation found a contradiction
CUT_HOUSE = 1  #: the house assignment bound cut the node
CUT_DUAL = 2  #: the dual bound cut the node
FIXED = 3  #: candidates removed by reduced-cost fixing
LEAVES = 4  #: completions reached
STATS_SIZE = 8

#: below any reduced profit a board can produce
NEG = np.int64(-(1 << 60))

#: default sweeps of dual coordinate descent per node
SWEEPS = 1


@kernel(inline="always")
def _single(mask):
    return mask != ZERO and (mask & (mask - ONE)) == ZERO


@kernel
def house_bound(cand, by_weight, weights, size, full):
    """(bound, undecided cells): the decided score plus the best of the row, column and box
    assignment bounds. With no undecided cell the bound is the completion's exact score."""
    decided_score = np.int64(0)
    undecided = 0
    for cell in range(cand.shape[0]):
        mask = cand[cell]
        if _single(mask):
            decided_score += weights[cell] * (trailing_zeros(mask) + 1)
        else:
            undecided += 1
    if undecided == 0:
        return decided_score, 0
    best = np.int64(0)
    for kind in range(3):
        total = np.int64(0)
        for house in range(kind * size, (kind + 1) * size):
            missing = full
            for j in range(size):
                mask = cand[by_weight[house, j]]
                if _single(mask):
                    missing &= ~mask
            # cells in increasing weight, missing values in increasing order
            for j in range(size):
                cell = by_weight[house, j]
                if _single(cand[cell]):
                    continue
                bit = lowest_bit(missing)
                missing ^= bit
                total += weights[cell] * (trailing_zeros(bit) + 1)
        if kind == 0 or total < best:
            best = total
    return decided_score + best, undecided


@kernel
def dual_init(weights, cell_houses, lam, red):
    """Reduced profits from the multipliers: ``red[c, v] = w[c]*(v+1) - sum lam[h, v]``."""
    size = red.shape[1]
    for cell in range(red.shape[0]):
        for v in range(size):
            value = weights[cell] * (v + 1)
            for k in range(cell_houses.shape[1]):
                house = cell_houses[cell, k]
                if house >= 0:
                    value -= lam[house, v]
            red[cell, v] = value


@kernel(inline="always")
def _rescan(cand, red, cell, top1, top1v, top2):
    mask = cand[cell]
    first = NEG
    first_v = -1
    second = NEG
    while mask != ZERO:
        bit = lowest_bit(mask)
        mask ^= bit
        v = trailing_zeros(bit)
        value = red[cell, v]
        if value > first:
            second = first
            first = value
            first_v = v
        elif value > second:
            second = value
    top1[cell] = first
    top1v[cell] = first_v
    top2[cell] = second


@kernel
def dual_bound(cand, houses, full, lam, red, top1, top1v, top2, sweeps):
    """Improve the multipliers by ``sweeps`` rounds of coordinate descent over the open
    (house, value) pairs and return the dual bound for the candidates ``cand``."""
    size = houses.shape[1]
    for cell in range(cand.shape[0]):
        _rescan(cand, red, cell, top1, top1v, top2)
    for _ in range(sweeps):
        for house in range(houses.shape[0]):
            decided = ZERO
            for j in range(size):
                mask = cand[houses[house, j]]
                if _single(mask):
                    decided |= mask
            open_values = full & ~decided
            while open_values != ZERO:
                bit = lowest_bit(open_values)
                open_values ^= bit
                v = trailing_zeros(bit)
                # margins of v over each cell's best other candidate: the two largest
                d1 = NEG
                d2 = NEG
                for j in range(size):
                    cell = houses[house, j]
                    if cand[cell] & bit:
                        other = top2[cell] if top1v[cell] == v else top1[cell]
                        margin = red[cell, v] - other
                        if margin > d1:
                            d2 = d1
                            d1 = margin
                        elif margin > d2:
                            d2 = margin
                if d2 == NEG:
                    continue  # one place only: propagation decides it, nothing to learn
                delta = (d1 + d2) // 2
                if delta == 0:
                    continue
                lam[house, v] += delta
                for j in range(size):
                    cell = houses[house, j]
                    old = red[cell, v]
                    new = old - delta
                    red[cell, v] = new
                    if (cand[cell] & bit) == ZERO:
                        continue
                    if delta > 0:  # v got worse in this cell
                        if top1v[cell] == v:
                            if new >= top2[cell]:
                                top1[cell] = new
                            else:
                                _rescan(cand, red, cell, top1, top1v, top2)
                        elif old >= top2[cell]:
                            _rescan(cand, red, cell, top1, top1v, top2)
                    else:  # v got better
                        if top1v[cell] == v:
                            top1[cell] = new
                        elif new > top1[cell]:
                            top2[cell] = top1[cell]
                            top1[cell] = new
                            top1v[cell] = v
                        elif new > top2[cell]:
                            top2[cell] = new
    total = np.int64(0)
    for house in range(lam.shape[0]):
        for v in range(lam.shape[1]):
            total += lam[house, v]
    for cell in range(cand.shape[0]):
        total += top1[cell]
    return total


@kernel
def fix_by_reduced_cost(cand, bound, best, red, top1, cell_houses, queue, dirty):
    """Remove every candidate that cannot beat ``best`` under the dual bound ``bound``.
    Returns (cells now decided and queued, candidates removed), or (-1, removed) when a cell
    loses its last candidate."""
    queued = 0
    removed = 0
    slack = bound - best  # > 0 here
    for cell in range(cand.shape[0]):
        mask = cand[cell]
        if _single(mask):
            continue
        rest = mask
        keep = mask
        while rest != ZERO:
            bit = lowest_bit(rest)
            rest ^= bit
            if top1[cell] - red[cell, trailing_zeros(bit)] >= slack:
                keep ^= bit
        if keep == mask:
            continue
        removed += popcount(mask ^ keep)
        cand[cell] = keep
        if keep == ZERO:
            return -1, removed
        for k in range(cell_houses.shape[1]):
            house = cell_houses[cell, k]
            if house >= 0:
                dirty[house] = 1
        if _single(keep):
            queue[queued] = cell
            queued += 1
    return queued, removed


@kernel
def choose_cell(cand, size, top1, top2):
    """The undecided cell with the fewest candidates; among those, the one whose best
    reduced profit leads its second best the most. -1 when every cell is decided."""
    best_count = size + 1
    best_gap = NEG
    best_cell = -1
    for cell in range(cand.shape[0]):
        count = popcount(cand[cell])
        if count < 2 or count > best_count:
            continue
        gap = top1[cell] - top2[cell]
        if count < best_count or gap > best_gap:
            best_count = count
            best_gap = gap
            best_cell = cell
    return best_cell


@kernel(inline="always")
def _best_value(rest, red, cell):
    """The candidate bit of ``rest`` with the largest reduced profit in ``cell``."""
    pick = ZERO
    pick_value = NEG
    mask = rest
    while mask != ZERO:
        bit = lowest_bit(mask)
        mask ^= bit
        value = red[cell, trailing_zeros(bit)]
        if pick == ZERO or value > pick_value:
            pick = bit
            pick_value = value
    return pick


@kernel
def search(givens, geometry, scores, state, ctl, limit, node_budget, out, sweeps, variant):
    """Run (or resume) the branch and bound until a protocol code is due (see ``protocol``).

    DONE: the search space is exhausted, so the incumbent (if ``ctl[FOUND]``) is optimal.
    LIMIT: the incumbent improved ``limit`` times. BUDGET, STACK_FULL: as in ``protocol``.
    ``geometry`` is the board's ``(houses, cell_houses, full)``, ``scores`` its ``(by_weight,
    weights)``; ``state`` the arrays kept between calls, ``(stack, branch_cell, branch_rest,
    level_bound, queue, dirty, lam, red, top1, top1v, top2, stats)``. ``variant``: the cages
    and starting candidates (``cages.py``); they only remove candidates, so both bounds stay
    admissible.
    """
    houses, cell_houses, full = geometry
    by_weight, weights = scores
    stack, branch_cell, branch_rest, level_bound, queue, dirty, lam, red, top1, top1v, top2, stats = state
    size = houses.shape[1]
    cells = givens.shape[0]
    node_stop = ctl[P.NODES] + node_budget
    depth, phase, fresh = resume(ctl)
    if fresh:
        dual_init(weights, cell_houses, lam, red)
        queued = load_givens(givens, cell_houses, full, stack[0, :cells], queue, dirty)
        queued = V.load(stack[0, :cells], givens, full, variant, queue, queued)
        stack[0, cells:] = V.UNSEEN
    else:
        queued = -1
    while True:
        if phase == P.PROPAGATE:
            if ctl[P.NODES] >= node_stop:
                return pause(ctl, depth, phase, P.BUDGET)
            if queued < 0:  # resuming a propagation: redo it from the branched cell
                if depth == 0:
                    queued = load_givens(givens, cell_houses, full, stack[0, :cells], queue, dirty)
                    queued = V.load(stack[0, :cells], givens, full, variant, queue, queued)
                    stack[0, cells:] = V.UNSEEN
                else:
                    queue[0] = branch_cell[depth - 1]
                    queued = 1
                    _mark_houses(cell_houses, queue[0], dirty)
            ctl[P.NODES] += 1
            cand = stack[depth, :cells]
            seen = stack[depth, cells:]
            ok = propagate_variant(cand, houses, cell_houses, full, queue, queued, dirty, variant, seen)
            queued = -1
            bound = np.int64(0)
            cut = False
            while True:  # bound, fix, propagate again, until nothing more is learned
                if not ok:
                    stats[CUT_CONTRADICTION] += 1
                    cut = True
                    break
                found = ctl[FOUND] != 0
                best = ctl[BEST]
                bound, undecided = house_bound(cand, by_weight, weights, size, full)
                if undecided == 0:  # a completion; it beats the incumbent, or it was cut
                    stats[LEAVES] += 1
                    if not found or bound > best:
                        ctl[BEST] = bound
                        ctl[FOUND] = 1
                        ctl[P.COUNT] += 1
                        for c in range(cells):
                            out[c] = trailing_zeros(cand[c]) + 1
                    cut = True
                    break
                if found and bound <= best:
                    stats[CUT_HOUSE] += 1
                    cut = True
                    break
                dual = dual_bound(cand, houses, full, lam, red, top1, top1v, top2, sweeps)
                if dual < bound:
                    bound = dual
                if found and bound <= best:
                    stats[CUT_DUAL] += 1
                    cut = True
                    break
                if not found:
                    break
                queued, removed = fix_by_reduced_cost(
                    cand, dual, best, red, top1, cell_houses, queue, dirty
                )
                if removed == 0:
                    break
                stats[FIXED] += removed
                if queued < 0:
                    ok = False
                else:
                    ok = propagate_variant(cand, houses, cell_houses, full, queue, queued, dirty, variant,
                                           seen)
                queued = -1
            if cut:
                phase = P.BACKTRACK
                if ctl[P.COUNT] >= limit:
                    return pause(ctl, depth, phase, P.LIMIT)
                continue
            level_bound[depth] = bound
            cell = choose_cell(cand, size, top1, top2)
            ctl[P.GUESSES] += 1
            branch_cell[depth] = cell
            branch_rest[depth] = cand[cell]
            phase = P.NEXT_BRANCH
        elif phase == P.NEXT_BRANCH:
            if ctl[FOUND] != 0 and level_bound[depth] <= ctl[BEST]:
                phase = P.BACKTRACK  # the incumbent caught up with this level's bound
                continue
            if depth + 1 >= stack.shape[0]:
                return pause(ctl, depth, phase, P.STACK_FULL)
            cell = branch_cell[depth]
            rest = branch_rest[depth]
            bit = _best_value(rest, red, cell)
            branch_rest[depth] = rest ^ bit
            stack[depth + 1, :] = stack[depth]
            depth += 1
            stack[depth, cell] = bit
            queue[0] = cell
            queued = 1
            _mark_houses(cell_houses, cell, dirty)
            phase = P.PROPAGATE
        else:  # BACKTRACK
            depth -= 1
            while depth >= 0 and (
                branch_rest[depth] == ZERO
                or (ctl[FOUND] != 0 and level_bound[depth] <= ctl[BEST])
            ):
                depth -= 1
            if depth < 0:
                return finish(ctl, branch_rest)
            phase = P.NEXT_BRANCH


@kernel(inline="always")
def _mark_houses(cell_houses, cell, dirty):
    for k in range(cell_houses.shape[1]):
        house = cell_houses[cell, k]
        if house < 0:
            break
        dirty[house] = 1
