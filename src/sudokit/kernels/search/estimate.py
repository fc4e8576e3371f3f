"""Knuth's estimator of a search tree's size, over a propagating search: random probes.

A probe walks from the root to a leaf of the search tree the solver would explore: it
propagates (naked and hidden singles to a fixpoint, cage sums bounded), picks the open cell
with the fewest candidates, and follows one of its ``d`` values that survive propagation,
drawn uniformly, multiplying its weight by ``d`` (or drawn with probability ``p`` and weighed
``1 / p``: see ``probes``). A probe that meets a contradiction weighs 0; one that fills the board
weighs the product of its branching factors. Each leaf that is a solution is reached with
probability 1 / (its weight), so the weight's mean is exactly the number of solutions
(Knuth 1975, "Estimating the efficiency of backtrack programs"). Propagation never removes a
solution and every leaf is checked, so the estimate stays unbiased; it only narrows the spread.

Weights are kept as natural logarithms (an empty 25x25 board has over 10^300 solutions, past
a float64). Randomness is an xorshift64 stream whose state the caller seeds.

Tables (the Python layer builds them once; kernels never validate):

- ``masks``: ``(cells,)`` uint64 starting candidates, a given's own bit alone;
- ``houses``: ``(houses, n)`` cells of each house; ``cell_houses``: ``(cells, k)`` house
  numbers of each cell, ``-1`` padded;
- ``cage_cells``: ``(cages, m)`` cells of each cage, ``-1`` padded; ``cage_total``: its sum,
  ``-1`` for none; ``cell_cages``: ``(cells, j)`` cage numbers of each cell, ``-1`` padded.
"""

from __future__ import annotations

import numpy as np

from ..build.jit import kernel
from .bits import ONE, ZERO, lowest_bit, popcount, trailing_zeros
from .generate import _next_random as _next


@kernel
def _place(cell, value, masks, values, cell_houses, houses, cell_cages, cage_cells):
    """Set ``cell`` to ``value`` and strike the value from every peer (houses and cages)."""
    bit = ONE << np.uint64(value - 1)
    values[cell] = value
    masks[cell] = bit
    for k in range(cell_houses.shape[1]):
        house = cell_houses[cell, k]
        if house < 0:
            break
        for j in range(houses.shape[1]):
            other = houses[house, j]
            if other != cell:
                masks[other] &= ~bit
    for k in range(cell_cages.shape[1]):
        cage = cell_cages[cell, k]
        if cage < 0:
            break
        for j in range(cage_cells.shape[1]):
            other = cage_cells[cage, j]
            if other < 0:
                break
            if other != cell:
                masks[other] &= ~bit


@kernel
def _cages_hold(masks, values, cage_cells, cage_total, n):
    """Whether every cage with a sum can still reach it: its placed values plus the smallest
    (largest) distinct values its open cells could take bound the sum from below (above)."""
    for cage in range(cage_cells.shape[0]):
        total = cage_total[cage]
        if total < 0:
            continue
        placed = 0
        open_cells = 0
        union = ZERO
        used = ZERO
        for j in range(cage_cells.shape[1]):
            cell = cage_cells[cage, j]
            if cell < 0:
                break
            if values[cell]:
                placed += values[cell]
                used |= ONE << np.uint64(values[cell] - 1)
            else:
                open_cells += 1
                union |= masks[cell]
        union &= ~used
        if popcount(union) < open_cells:
            return False
        low = 0
        left = union
        for _ in range(open_cells):
            bit = lowest_bit(left)
            low += trailing_zeros(bit) + 1
            left &= ~bit
        high = 0
        taken = 0
        for v in range(n, 0, -1):
            if taken == open_cells:
                break
            if union >> np.uint64(v - 1) & ONE:
                high += v
                taken += 1
        if placed + low > total or placed + high < total:
            return False
    return True


@kernel
def _propagate(masks, values, houses, cell_houses, cell_cages, cage_cells, cage_total, full, n):
    """Naked and hidden singles to a fixpoint; False at a contradiction (a cell without a
    candidate, a value without a place in a house, a cage that cannot make its sum)."""
    cells = masks.shape[0]
    changed = True
    while changed:
        changed = False
        for cell in range(cells):
            if values[cell]:
                continue
            mask = masks[cell]
            if mask == ZERO:
                return False
            if mask & (mask - ONE) == ZERO:
                _place(cell, trailing_zeros(mask) + 1, masks, values, cell_houses, houses, cell_cages, cage_cells)
                changed = True
        for house in range(houses.shape[0]):
            once = ZERO
            twice = ZERO
            placed = ZERO
            for j in range(houses.shape[1]):
                cell = houses[house, j]
                mask = masks[cell]
                if values[cell]:
                    bit = ONE << np.uint64(values[cell] - 1)
                    if placed & bit:
                        return False
                    placed |= bit
                else:
                    twice |= once & mask
                    once |= mask
            if (once | placed) != full:
                return False
            single = once & ~twice & ~placed
            while single:
                bit = lowest_bit(single)
                single &= ~bit
                for j in range(houses.shape[1]):
                    cell = houses[house, j]
                    if not values[cell] and masks[cell] & bit:
                        _place(cell, trailing_zeros(bit) + 1, masks, values, cell_houses, houses, cell_cages, cage_cells)
                        changed = True
                        break
        if cage_cells.shape[0] and not _cages_hold(masks, values, cage_cells, cage_total, n):
            return False
    return True


@kernel
def _fewest(masks, values):
    """The open cell with the fewest candidates (-1 when none is open), and their number."""
    best = -1
    fewest = 65
    for cell in range(masks.shape[0]):
        if values[cell]:
            continue
        count = popcount(masks[cell])
        if count < fewest:
            best, fewest = cell, count
    return best, fewest


@kernel
def _count_below(masks, values, houses, cell_houses, cell_cages, cage_cells, cage_total, full, n, budget,
                 stack_masks, stack_values, stack_cell, stack_rest):
    """The number of solutions under a propagated node, by depth-first search, or -1 when the
    search would take more than ``budget`` nodes (the stacks hold ``budget + 2`` levels)."""
    best, fewest = _fewest(masks, values)
    if best < 0:
        return 1
    stack_masks[0, :] = masks
    stack_values[0, :] = values
    stack_cell[0] = best
    stack_rest[0] = masks[best]
    depth = 0
    nodes = 0
    found = 0
    while depth >= 0:
        rest = stack_rest[depth]
        if rest == ZERO:
            depth -= 1
            continue
        bit = lowest_bit(rest)
        stack_rest[depth] = rest & ~bit
        nodes += 1
        if nodes > budget:
            return -1
        child_masks = stack_masks[depth + 1]
        child_values = stack_values[depth + 1]
        child_masks[:] = stack_masks[depth]
        child_values[:] = stack_values[depth]
        _place(stack_cell[depth], trailing_zeros(bit) + 1, child_masks, child_values, cell_houses, houses, cell_cages, cage_cells)
        if not _propagate(child_masks, child_values, houses, cell_houses, cell_cages, cage_cells, cage_total, full, n):
            continue
        best, fewest = _fewest(child_masks, child_values)
        if best < 0:
            found += 1
            continue
        depth += 1
        stack_cell[depth] = best
        stack_rest[depth] = child_masks[best]
    return found


@kernel
def probes(start, board, n, rng, beta, budget, reach, out, probe, steps):
    """Run up to ``len(out)`` probes from the candidates ``start`` on ``board``, ``(houses,
    cell_houses, cell_cages, cage_cells, cage_total)`` (``tables`` in ``setters/sampling.py``)
    with ``n`` values, and return how many finished: ``out[k]`` is probe ``k``'s weight as a
    natural logarithm, ``-inf`` for a probe that ended in a contradiction.

    The work is counted in ``steps[0]``, one for each propagation (``budget`` for an exact
    count, the most it may take), down to 0, where the call returns with the probe under way
    kept in ``probe``, ``(masks, values, weight)`` (``weight[0]`` NaN when none is), to go on at
    the next call: the caller reads the clock between calls, and one probe of an open 64x64
    takes 0.5 s. A probe cut in pieces draws what it would whole.

    At each branch every value of the chosen cell is first propagated on a copy; a child that
    fails at once holds no solution, so leaving it out keeps the mean (on the empty 16x16 board
    30% of plain probes died). Among the survivors the probe draws child ``c`` with probability
    ``p(c)`` proportional to ``exp(beta * sum of log candidates over its open cells)``, a guess
    at its share of the solutions, and divides its weight by ``p(c)`` (importance sampling: any
    ``beta`` keeps the mean; ``beta = 0`` is Knuth's uniform draw).

    A node whose subtree a depth-first search exhausts within ``budget`` nodes is counted
    exactly instead (its count is its own unbiased estimate, with no spread). The search is
    tried where no more cells are open than at the most open node counted so far, plus a
    margin (``reach[0]``, ``cells`` before any: kept between calls): every probe may learn from
    those before it, and the mean stays exact whatever the choice, since each node's weight
    has the node's count as its mean either way."""
    houses, cell_houses, cell_cages, cage_cells, cage_total = board
    masks, values, kept_weight = probe
    cells = start.shape[0]
    full = (ONE << np.uint64(n)) - ONE if n < 64 else ~ZERO
    trial_masks = np.empty(cells, dtype=np.uint64)
    trial_values = np.empty(cells, dtype=np.int64)
    score = np.zeros(64, dtype=np.float64)
    levels = min(cells + 1, budget + 2)
    stack_masks = np.empty((levels, cells), dtype=np.uint64)
    stack_values = np.empty((levels, cells), dtype=np.int64)
    stack_cell = np.empty(levels, dtype=np.int64)
    stack_rest = np.empty(levels, dtype=np.uint64)
    finished = 0
    while finished < out.shape[0]:
        if steps[0] <= 0:
            return finished
        alive = True
        if np.isnan(kept_weight[0]):  # a new probe
            masks[:] = start
            values[:] = 0
            weight = 0.0
            steps[0] -= 1
            alive = _propagate(masks, values, houses, cell_houses, cell_cages, cage_cells, cage_total, full, n)
        else:
            weight = kept_weight[0]
        while alive:
            if steps[0] <= 0:
                kept_weight[0] = weight
                return finished
            best, fewest = _fewest(masks, values)
            if best < 0:
                break
            open_cells = 0
            for cell in range(cells):
                open_cells += values[cell] == 0
            if budget > 0 and open_cells <= reach[0]:
                steps[0] -= budget
                exact = _count_below(masks, values, houses, cell_houses, cell_cages, cage_cells, cage_total, full, n,
                                     budget, stack_masks, stack_values, stack_cell, stack_rest)
                if exact >= 0:
                    if reach[0] == cells or open_cells == reach[0]:  # the first success, or one at the edge
                        reach[0] = open_cells + 4
                    if exact == 0:
                        alive = False
                    else:
                        weight += np.log(exact)
                    break
            survivors = ZERO
            rest = masks[best]
            while rest:
                bit = lowest_bit(rest)
                rest &= ~bit
                trial_masks[:] = masks
                trial_values[:] = values
                _place(best, trailing_zeros(bit) + 1, trial_masks, trial_values, cell_houses, houses, cell_cages, cage_cells)
                steps[0] -= 1
                if _propagate(trial_masks, trial_values, houses, cell_houses, cell_cages, cage_cells, cage_total, full, n):
                    survivors |= bit
                    total = 0.0
                    for cell in range(cells):
                        if not trial_values[cell]:
                            total += np.log(popcount(trial_masks[cell]))
                    score[trailing_zeros(bit)] = beta * total
            count = popcount(survivors)
            if count == 0:
                alive = False
                break
            top = -1e300
            rest = survivors
            while rest:
                bit = lowest_bit(rest)
                rest &= ~bit
                top = max(top, score[trailing_zeros(bit)])
            z = 0.0
            rest = survivors
            while rest:
                bit = lowest_bit(rest)
                rest &= ~bit
                z += np.exp(score[trailing_zeros(bit)] - top)
            u = ((_next(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)) * z
            rest = survivors
            chosen = ZERO
            while rest:
                bit = lowest_bit(rest)
                rest &= ~bit
                chosen = bit
                u -= np.exp(score[trailing_zeros(bit)] - top)
                if u < 0:
                    break
            weight += np.log(z) - (score[trailing_zeros(chosen)] - top)
            _place(best, trailing_zeros(chosen) + 1, masks, values, cell_houses, houses, cell_cages, cage_cells)
            steps[0] -= 1
            alive = _propagate(masks, values, houses, cell_houses, cell_cages, cage_cells, cage_total, full, n)
        out[finished] = weight if alive else -np.inf
        kept_weight[0] = np.nan
        finished += 1
    return finished
