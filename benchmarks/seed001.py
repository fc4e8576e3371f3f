"""Seed 001's approach to big boards, rewritten in the same numba as sudokit, for fair ratios.

Seed 001 (AcWing 169, the 16x16 Sudoku) searches like this, one placement per level:

1. scan the empty cells: a cell with no candidate fails; a cell with one is placed (then the
   search goes one level deeper and this level ends);
2. scan every row, column and box: a house where some value has no place fails; a value with
   one place is placed (same);
3. otherwise branch on the empty cell with the fewest candidates, trying each value.

Every level keeps a copy of the candidate masks, restored when a placement fails. This is
written from that description (no code of the seed is kept), for any shape, with sudokit's
geometry tables, a ``limit`` (1 solves, 2 proves uniqueness) and a node budget, so that
``benchmarks/big.py`` can time it next to sudokit in one compiled loop per data set.
"""

from __future__ import annotations

import numpy as np

from sudokit.kernels.build.jit import kernel
from sudokit.kernels.search.bits import ONE, ZERO, lowest_bit, popcount, trailing_zeros


@kernel
def _place(cand, grid, cell, value, cell_houses, houses):
    """Put ``value`` in ``cell``: the value leaves the candidates of every peer."""
    bit = ONE << np.uint64(value - 1)
    grid[cell] = value
    cand[cell] = ZERO
    for k in range(cell_houses.shape[1]):
        house = cell_houses[cell, k]
        if house < 0:
            break
        for j in range(houses.shape[1]):
            cand[houses[house, j]] &= ~bit


@kernel
def _forced(cand, grid, houses, full, counts):
    """Steps 1 and 2: (-1, 0) at a dead end, (cell, value) for a forced placement, (-2, 0)
    when nothing is forced."""
    size = houses.shape[1]
    for cell in range(grid.shape[0]):
        if grid[cell] == 0:
            mask = cand[cell]
            if mask == ZERO:
                return -1, 0
            if (mask & (mask - ONE)) == ZERO:
                return cell, trailing_zeros(mask) + 1
    for house in range(houses.shape[0]):
        seen = ZERO
        counts[:] = 0
        for j in range(size):
            cell = houses[house, j]
            if grid[cell]:
                seen |= ONE << np.uint64(grid[cell] - 1)
                counts[grid[cell] - 1] = -1
            else:
                mask = cand[cell]
                seen |= mask
                while mask:
                    bit = lowest_bit(mask)
                    mask ^= bit
                    counts[trailing_zeros(bit)] += 1
        if seen != full:
            return -1, 0
        for value in range(size):
            if counts[value] == 1:
                for j in range(size):
                    cell = houses[house, j]
                    if grid[cell] == 0 and (cand[cell] >> np.uint64(value)) & ONE:
                        return cell, value + 1
    return -2, 0


@kernel
def solve_many(puzzles, houses, cell_houses, full, limit, node_budget, solutions, counts, nodes,
               guesses):
    """Search every row of ``puzzles`` for up to ``limit`` solutions within ``node_budget``
    nodes (a node: one level of the search); the first solution into ``solutions[k]``."""
    cells = puzzles.shape[1]
    size = houses.shape[1]
    levels = cells + 1
    cand_at = np.zeros((levels, cells), dtype=np.uint64)
    grid_at = np.zeros((levels, cells), dtype=np.int64)
    cell_at = np.zeros(levels, dtype=np.int64)
    rest_at = np.zeros(levels, dtype=np.uint64)
    tally = np.zeros(size, dtype=np.int64)
    for k in range(puzzles.shape[0]):
        cand = cand_at[0]
        grid = grid_at[0]
        cand[:] = full
        grid[:] = 0
        for cell in range(cells):
            if puzzles[k, cell]:
                _place(cand, grid, cell, np.int64(puzzles[k, cell]), cell_houses, houses)
        found = 0
        spent = 0
        branched = 0
        depth = 0
        fresh = True  # the top level is still to be examined
        while depth >= 0 and found < limit and spent < node_budget:
            if fresh:
                spent += 1
                cand = cand_at[depth]
                grid = grid_at[depth]
                left = 0
                for cell in range(cells):
                    if grid[cell] == 0:
                        left += 1
                if left == 0:
                    found += 1
                    if found == 1:
                        solutions[k, :] = grid
                    fresh = False
                    rest_at[depth] = ZERO
                    depth -= 1
                    continue
                cell, value = _forced(cand, grid, houses, full, tally)
                if cell == -1:
                    rest_at[depth] = ZERO
                    fresh = False
                    depth -= 1
                    continue
                if cell >= 0:  # one forced child
                    cell_at[depth] = cell
                    rest_at[depth] = ONE << np.uint64(value - 1)
                else:
                    best = size + 1
                    for c in range(cells):
                        if grid[c] == 0:
                            count = popcount(cand[c])
                            if count < best:
                                best = count
                                cell = c
                    cell_at[depth] = cell
                    rest_at[depth] = cand[cell]
                    branched += 1
                fresh = False
            # take the next alternative of the top level, or drop the level
            rest = rest_at[depth]
            if rest == ZERO:
                depth -= 1
                continue
            bit = lowest_bit(rest)
            rest_at[depth] = rest ^ bit
            cand_at[depth + 1, :] = cand_at[depth]
            grid_at[depth + 1, :] = grid_at[depth]
            _place(cand_at[depth + 1], grid_at[depth + 1], cell_at[depth],
                   trailing_zeros(bit) + 1, cell_houses, houses)
            depth += 1
            fresh = True
        counts[k] = found if (found >= limit or depth < 0) else -1
        nodes[k] = spent
        guesses[k] = branched
