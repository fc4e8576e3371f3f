"""The general search kernel: any shape up to 64x64 (and any extra houses).

Depth-first search over candidate bitmasks, as in the seeds, with what makes it finish on hard
and big boards: naked and hidden singles in every house to a fixpoint after every decision,
dead ends cut as soon as a cell or a house runs out of candidates, and branching on the most
constrained cell. The stack is explicit and the search resumable (see ``protocol``).

State of one search level, one row of ``stack``, one 64-bit word per cell::

    stack[level, cell]    bit 63 ............................. bit 1    bit 0
                          [value 64] [value 63] ... [value 2] [value 1]

    a set bit is a candidate; one bit alone means the cell is decided, and at rest (between
    propagations) every decided value is already removed from all of its peers.

A branch copies the whole level (``n*n`` words: 648 bytes at 9x9, 32 KiB at 64x64) and fixes one
cell in the copy; backtracking is then free: drop the copy. The alternative, a trail of undone
changes, saves memory on big boards but costs on every elimination; copying won on the data.

Geometry arrives as tables, so one compiled kernel serves every shape:
``houses[h, j]`` is the j-th cell of house h; ``cell_houses[c, k]`` the k-th house of cell c
(-1 padded, for shapes with extra houses).
"""

from __future__ import annotations

import numpy as np

from . import protocol as P
from ._jit import kernel
from .bits import ONE, ZERO, lowest_bit, popcount, trailing_zeros


@kernel
def load_givens(givens, cell_houses, full, cand, queue, dirty):
    """Fill the root level: one bit per given, every value elsewhere. Returns how many cells
    ``queue`` holds (the givens, whose values are still to be removed from their peers)."""
    count = 0
    for cell in range(givens.shape[0]):
        value = givens[cell]
        if value:
            cand[cell] = ONE << np.uint64(value - 1)
            queue[count] = cell
            count += 1
        else:
            cand[cell] = full
    dirty[:] = 1
    return count


@kernel
def propagate(cand, houses, cell_houses, full, queue, queued, dirty):
    """Naked and hidden singles to a fixpoint. Returns False at a contradiction.

    ``queue[:queued]`` holds decided cells whose value is still to be removed from their peers;
    ``dirty[h] != 0`` marks the houses to scan for hidden singles (a value with one place left).
    """
    size = houses.shape[1]
    per_cell = cell_houses.shape[1]
    head = 0
    tail = queued
    while True:
        # naked singles: remove each decided value from the peers; a peer left with one
        # candidate is decided in turn, a peer left with none is a dead end
        while head < tail:
            cell = queue[head]
            head += 1
            bit = cand[cell]
            for k in range(per_cell):
                house = cell_houses[cell, k]
                if house < 0:
                    break
                for j in range(size):
                    peer = houses[house, j]
                    mask = cand[peer]
                    if peer == cell or (mask & bit) == ZERO:
                        continue
                    mask ^= bit
                    cand[peer] = mask
                    if mask == ZERO:
                        return False
                    if (mask & (mask - ONE)) == ZERO:
                        queue[tail] = peer
                        tail += 1
                    for k2 in range(per_cell):
                        other = cell_houses[peer, k2]
                        if other < 0:
                            break
                        dirty[other] = 1
        # hidden singles: per house, count each value's places with two bit-parallel counters
        found = False
        for house in range(houses.shape[0]):
            if dirty[house] == 0:
                continue
            dirty[house] = 0
            once = ZERO
            twice = ZERO
            decided = ZERO
            for j in range(size):
                mask = cand[houses[house, j]]
                twice |= once & mask
                once |= mask
                if (mask & (mask - ONE)) == ZERO:
                    decided |= mask
            if once != full:
                return False  # some value has no place left in this house
            hidden = once & ~twice & ~decided
            while hidden != ZERO:
                bit = lowest_bit(hidden)
                hidden ^= bit
                target = -1
                for j in range(size):
                    if cand[houses[house, j]] & bit:
                        target = houses[house, j]
                        break
                if target < 0:
                    return False  # its only place was taken by another hidden single
                cand[target] = bit
                queue[tail] = target
                tail += 1
                found = True
                for k in range(per_cell):
                    other = cell_houses[target, k]
                    if other < 0:
                        break
                    dirty[other] = 1
        if not found:
            return True


@kernel
def choose_cell(cand, size):
    """The undecided cell with the fewest candidates (the first such), or -1 when all are
    decided. A cell with two candidates cannot be beaten, so the scan stops there."""
    best = size + 1
    best_cell = -1
    for cell in range(cand.shape[0]):
        count = popcount(cand[cell])
        if 1 < count < best:
            best = count
            best_cell = cell
            if count == 2:
                break
    return best_cell


@kernel
def search(
    givens,
    houses,
    cell_houses,
    full,
    stack,
    branch_cell,
    branch_rest,
    ctl,
    limit,
    node_budget,
    record_at,
    out,
    queue,
    dirty,
):
    """Run (or resume) the search until a protocol code is due; see ``protocol``."""
    size = houses.shape[1]
    cells = givens.shape[0]
    node_stop = ctl[P.NODES] + node_budget
    depth = ctl[P.DEPTH]
    phase = ctl[P.PHASE]
    if depth < 0:
        depth = 0
        phase = P.PROPAGATE
        queued = load_givens(givens, cell_houses, full, stack[0], queue, dirty)
    else:
        queued = -1  # set below, where the phase needs it
    while True:
        if phase == P.PROPAGATE:
            if ctl[P.NODES] >= node_stop:
                ctl[P.DEPTH] = depth
                ctl[P.PHASE] = phase
                return P.BUDGET
            if queued < 0:  # resuming a propagation: redo it from the branched cell
                if depth == 0:
                    queued = load_givens(givens, cell_houses, full, stack[0], queue, dirty)
                else:
                    queue[0] = branch_cell[depth - 1]
                    queued = 1
                    _mark_houses(cell_houses, queue[0], dirty)
            ctl[P.NODES] += 1
            cand = stack[depth]
            ok = propagate(cand, houses, cell_houses, full, queue, queued, dirty)
            queued = -1
            if not ok:
                phase = P.BACKTRACK
                continue
            cell = choose_cell(cand, size)
            if cell < 0:  # every cell decided: a solution
                ctl[P.COUNT] += 1
                if ctl[P.COUNT] == record_at:
                    for c in range(cells):
                        out[c] = trailing_zeros(cand[c]) + 1
                phase = P.BACKTRACK
                if ctl[P.COUNT] >= limit:
                    ctl[P.DEPTH] = depth
                    ctl[P.PHASE] = phase
                    return P.LIMIT
                continue
            ctl[P.GUESSES] += 1
            branch_cell[depth] = cell
            branch_rest[depth] = cand[cell]
            phase = P.NEXT_BRANCH
        elif phase == P.NEXT_BRANCH:
            if depth + 1 >= stack.shape[0]:
                ctl[P.DEPTH] = depth
                ctl[P.PHASE] = phase
                return P.STACK_FULL
            rest = branch_rest[depth]
            bit = lowest_bit(rest)
            branch_rest[depth] = rest ^ bit
            cell = branch_cell[depth]
            stack[depth + 1, :] = stack[depth]
            depth += 1
            stack[depth, cell] = bit
            queue[0] = cell
            queued = 1
            _mark_houses(cell_houses, cell, dirty)
            phase = P.PROPAGATE
        else:  # BACKTRACK
            depth -= 1
            while depth >= 0 and branch_rest[depth] == ZERO:
                depth -= 1
            if depth < 0:
                ctl[P.DEPTH] = 0
                ctl[P.PHASE] = P.BACKTRACK
                branch_rest[0] = ZERO
                return P.DONE
            phase = P.NEXT_BRANCH


@kernel(inline="always")
def _mark_houses(cell_houses, cell, dirty):
    for k in range(cell_houses.shape[1]):
        house = cell_houses[cell, k]
        if house < 0:
            break
        dirty[house] = 1
