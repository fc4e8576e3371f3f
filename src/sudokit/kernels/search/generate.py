"""Generation kernels: random full grids, and puzzles carved out of them clue by clue.

A grid comes from the general kernel's own search on an empty board with its values tried
in a random order (``general.SEED``): a randomized depth-first search, the most constrained
cell first. The Python layer then relabels it and permutes its bands, stacks, rows and
columns at random, and hands it back here to be carved.

Carving (``carve``) visits the *orbits* of the chosen symmetry (the sets of cells a symmetry
maps onto each other; one cell each without symmetry) in a random order and takes out an
orbit's givens when the puzzle stays unique without them. A removal that fails now fails for
good (fewer givens never mean fewer solutions: each given kept was refused on a superset of
the final givens), so one pass leaves no orbit that could go. With one cell an orbit that
proves the puzzle minimal; with symmetry ``check_cells`` then tries every given alone, which
proves minimality cell by cell (rare in symmetric puzzles: a few in 10,000 with dihedral
symmetry on 9x9).

Uniqueness after a removal is asked as "is there a solution that differs from the grid in a
removed cell". On a 9x9 board that is one search per removed cell with the cell's old value
struck from its candidates, on the classic kernel (no solution: still unique), which fails
at once far more often than a count to two would end. Elsewhere the general kernel counts
to two. Both skip the search where the remaining givens still force a removed cell (every
other value among its peers; off 9x9 also the value's only place left in one of its houses).

Kernels never validate: the Python layer hands over full grids that are solutions, orbits
that partition the cells, and orders that are permutations of the orbits.
"""

from __future__ import annotations

import numpy as np

from . import cages, classic, general
from . import protocol as P
from ..build.jit import kernel
from .bits import ONE, ZERO, lowest_bit, popcount, trailing_zeros
from .driver import grown, start

#: ``carve`` kinds: which kernel proves uniqueness
CLASSIC = 0  #: 9x9 with 3x3 boxes: the classic kernel, one cell's value struck out
GENERAL = 1  #: any shape: the general kernel, counting to two

#: ``flags`` bits of a carved puzzle
UNIQUE = 1  #: every removal was proven to keep the solution unique
MINIMAL = 2  #: no orbit can go (proven by the pass itself; with one cell an orbit, no given)
CELL_MINIMAL = 4  #: no given can go alone either (proven cell by cell; only with ``check_cells``)
SLICED = 8  #: carving paused after its slice of nodes: call again, ``resume[k]`` is the next step


@kernel(inline="always")
def _next_random(rng):
    """The next number of the xorshift64 stream whose state is ``rng[0]`` (never 0)."""
    state = np.uint64(rng[0])
    state ^= state << np.uint64(13)
    state ^= state >> np.uint64(7)
    state ^= state << np.uint64(17)
    rng[0] = state
    return state


@kernel(inline="always")
def _random_member(mask, rng):
    """One set bit of a nonzero ``mask``, each as likely (up to the stream's own bias)."""
    skip = (_next_random(rng) >> np.uint64(11)) % np.uint64(popcount(mask))
    for _ in range(skip):
        mask &= mask - ONE
    return lowest_bit(mask)


@kernel
def random_fill(cell_houses, n_houses, full, rng, node_budget, grid):
    """Fill ``grid`` (all zero on entry) by a randomized depth-first search: the cell with
    the fewest values left (ties drawn at random), its values in a random order, a dead
    end undone. Returns False where ``node_budget`` placements ran out first. The houses'
    used values are the whole state, so a node costs a scan of the cells and nothing more:
    on 9x9 a fifth of the general kernel's node, with no more backtracking."""
    cells = grid.shape[0]
    per_cell = cell_houses.shape[1]
    used = np.zeros(n_houses, dtype=np.uint64)
    path_cell = np.zeros(cells, dtype=np.int64)
    path_rest = np.zeros(cells, dtype=np.uint64)
    depth = 0
    nodes = 0
    while True:
        best = -1
        fewest = 65
        ties = 0
        best_mask = ZERO
        for cell in range(cells):
            if grid[cell]:
                continue
            taken = ZERO
            for k in range(per_cell):
                house = cell_houses[cell, k]
                if house < 0:
                    break
                taken |= used[house]
            mask = full & ~taken
            count = popcount(mask)
            if count < fewest:
                best, fewest, best_mask, ties = cell, count, mask, 1
                if count == 0:
                    break
            elif count == fewest:
                ties += 1
                if (_next_random(rng) >> np.uint64(11)) % np.uint64(ties) == 0:
                    best, best_mask = cell, mask
        if best < 0:
            return True
        if fewest > 0:
            path_cell[depth] = best
            path_rest[depth] = best_mask
            depth += 1
        # place the next value of the deepest open choice, undoing the dead ends above it
        while True:
            if depth == 0:
                return False  # no grid at all: not reached from an empty board
            top = depth - 1
            cell = path_cell[top]
            if grid[cell]:  # a value tried here failed: take it back
                bit = ONE << np.uint64(grid[cell] - 1)
                for k in range(per_cell):
                    house = cell_houses[cell, k]
                    if house < 0:
                        break
                    used[house] &= ~bit
                grid[cell] = 0
            rest = path_rest[top]
            if rest == ZERO:
                depth -= 1
                continue
            nodes += 1
            if nodes > node_budget:
                return False
            bit = _random_member(rest, rng)
            path_rest[top] = rest ^ bit
            grid[cell] = trailing_zeros(bit) + 1
            for k in range(per_cell):
                house = cell_houses[cell, k]
                if house < 0:
                    break
                used[house] |= bit
            break


@kernel
def _general_scratch(houses, cells, full):
    """The arrays a run of ``_general`` searches shares: the search's state (``general.search``;
    a stack of about 256 KiB that grows as a search needs, the singles queue and dirty marks,
    the rules' scratch), the control slots, the shape's default options and the plain variant
    (no cages, no marks)."""
    levels = min(cells + 1, max(16, (1 << 18) // (8 * cells)))
    stack = np.zeros((levels, cells), dtype=np.uint64)
    branch_cell = np.zeros(levels, dtype=np.int64)
    branch_rest = np.zeros(levels, dtype=np.uint64)
    ctl = np.zeros(P.CTL_SIZE, dtype=np.int64)
    queue = np.zeros(cells, dtype=np.int32)
    dirty = np.zeros(houses.shape[0], dtype=np.uint8)
    options = np.zeros(general.OPTIONS_SIZE, dtype=np.int64)
    general.default_options(houses, options)
    work, iwork = general.scratch(houses)
    variant = cages.plain(cells, full)
    return (stack, branch_cell, branch_rest, queue, dirty, work, iwork), ctl, options, variant


@kernel
def _general(puzzle, geometry, state, ctl, limit, node_budget, record_at, out, options, variant):
    """A fresh ``general.search`` of ``puzzle`` to ``limit`` solutions or ``node_budget``
    nodes, the stack grown as it fills; returns the protocol code and the (maybe grown)
    state, which the caller keeps for the next search. ``variant`` is ``cages.plain``'s
    (generated puzzles have no cages or pencil marks)."""
    cells = puzzle.shape[0]
    start(ctl)
    while True:
        code = general.search(puzzle, geometry, state, ctl, limit, node_budget - ctl[P.NODES], record_at, out, options, variant)
        if code != P.STACK_FULL:
            return code, state
        stack, branch_cell, branch_rest, queue, dirty, work, iwork = state
        levels = min(cells + 1, 2 * stack.shape[0])
        state = (grown(stack, levels), grown(branch_cell, levels), grown(branch_rest, levels), queue, dirty, work, iwork)


@kernel
def random_grids(cell_houses, n_houses, full, seeds, node_budget, grids, ok):
    """For each seed, a full grid from ``random_fill`` with that seed: ``grids[k]``, and
    ``ok[k]`` False where the node budget ran out first (the caller draws again)."""
    rng = np.zeros(1, dtype=np.uint64)
    for k in range(seeds.shape[0]):
        rng[0] = np.uint64(seeds[k]) | ONE  # xorshift's state must not be zero
        grids[k, :] = 0
        ok[k] = random_fill(cell_houses, n_houses, full, rng, node_budget, grids[k])


@kernel
def searched_grids(houses, cell_houses, full, seeds, node_budget, grids, ok):
    """``random_grids`` for big boards, where a bare random fill meets dead ends it cannot
    see coming: the general kernel's search on an empty board, with its singles, its rules
    and its branching, trying values in a random order from each seed."""
    cells = grids.shape[1]
    state, ctl, options, variant = _general_scratch(houses, cells, full)
    empty = np.zeros(cells, dtype=np.uint8)
    for k in range(seeds.shape[0]):
        options[general.SEED] = seeds[k]
        code, state = _general(empty, (houses, cell_houses, full), state, ctl, 1, node_budget, 1, grids[k], options, variant)
        ok[k] = ctl[P.COUNT] == 1


@kernel
def mix(houses, cell_houses, full, rng_states, moves, cap, node_cap, index, grids):
    """``moves`` Gibbs moves on each full grid ``grids[k]`` (in place): erase a random set
    of cells (each size from a third to two thirds of the board equally likely; all of a
    4x4 board), count the erased cells' completions, and when there are fewer than ``cap``
    take one of them uniformly; else stay. The erased set never depends on the grid, and a
    grid is drawn uniformly from those that agree with it outside the set, so the uniform
    distribution over grids is the chain's stationary one: moves bring any start towards it
    (a 4x4 grid gets there in one).

    A count that takes more than ``node_cap`` search nodes stays too: whether it does depends
    only on the erased puzzle (the search is deterministic), which every grid the move can
    reach shares, so the stationary distribution is kept. ``rng_states[k]`` is grid k's random
    state (never zero) and ``index`` a permutation of the cells that the erasing shuffles on,
    both updated: moves made over several calls, grid by grid, are those of one call."""
    cells = grids.shape[1]
    state, ctl, options, variant = _general_scratch(houses, cells, full)
    rng = np.zeros(1, dtype=np.uint64)
    puzzle = np.zeros(cells, dtype=np.uint8)
    out = np.zeros(cells, dtype=np.uint8)
    low = cells // 3 if cells > 16 else cells
    high = 2 * cells // 3 if cells > 16 else cells
    for k in range(grids.shape[0]):
        rng[0] = rng_states[k]
        for _ in range(moves):
            erased = low + np.int64((_next_random(rng) >> np.uint64(11)) % np.uint64(high - low + 1))
            puzzle[:] = grids[k]
            for j in range(erased):  # a partial Fisher-Yates shuffle picks the cells
                pick = j + np.int64((_next_random(rng) >> np.uint64(11)) % np.uint64(cells - j))
                index[j], index[pick] = index[pick], index[j]
                puzzle[index[j]] = 0
            code, state = _general(puzzle, (houses, cell_houses, full), state, ctl, cap, node_cap, 0, out, options, variant)
            found = ctl[P.COUNT]
            if code != P.DONE or found >= cap:
                continue  # too many completions to count, or too costly: the grid stays
            pick = 1 + np.int64((_next_random(rng) >> np.uint64(11)) % np.uint64(found))
            code, state = _general(puzzle, (houses, cell_houses, full), state, ctl, pick, node_cap, pick, out, options, variant)
            grids[k, :] = out
        rng_states[k] = rng[0]


@kernel
def transform(grids, row_map, col_map, transpose, relabel, out):
    """``out[k]``: grid k with row ``row_map[k, r]`` moved to row r, column ``col_map[k, c]``
    to column c, then transposed where ``transpose[k]``, its values renamed by ``relabel[k]``
    (``relabel[k, v]`` is the new name of value v; ``relabel[k, 0] == 0``)."""
    size = row_map.shape[1]
    for k in range(grids.shape[0]):
        for r in range(size):
            for c in range(size):
                value = relabel[k, grids[k, row_map[k, r] * size + col_map[k, c]]]
                if transpose[k]:
                    out[k, c * size + r] = value
                else:
                    out[k, r * size + c] = value


@kernel
def _struck_out_solvable(puzzle, cell, value, stack, branch_cell, branch_rest, ctl, out):
    """Classic kernel: whether ``puzzle`` has a solution with ``value`` not at ``cell`` (the
    value struck from the root's candidates before the first propagation)."""
    start(ctl)
    classic.load_givens(puzzle, stack)
    classic.strike(stack, cell, value)
    ctl[P.DEPTH] = 0  # resume at the root's propagation, over the candidates as set here
    ctl[P.PHASE] = P.PROPAGATE
    while True:
        code = classic.search(puzzle, stack, branch_cell, branch_rest, ctl, 1, 1 << 40, 1, out)
        if code != P.STACK_FULL:
            return ctl[P.COUNT] > 0
        # a classic search never needs more than its LEVELS (see there); not reached


@kernel(inline="always")
def _seen(puzzle, houses, cell_houses, cell):
    """The values the givens among ``cell``'s peers hold, as a mask (bit v - 1)."""
    mask = ZERO
    for k in range(cell_houses.shape[1]):
        house = cell_houses[cell, k]
        if house < 0:
            break
        for j in range(houses.shape[1]):
            other = houses[house, j]
            if other != cell and puzzle[other]:
                mask |= ONE << np.uint64(puzzle[other] - 1)
    return mask


@kernel
def _hidden_single(puzzle, houses, cell_houses, cell, value):
    """Whether the givens of ``puzzle`` leave ``value`` no other place than the empty
    ``cell`` in one of its houses (every other empty cell there sees it given)."""
    bit = ONE << np.uint64(value - 1)
    for k in range(cell_houses.shape[1]):
        house = cell_houses[cell, k]
        if house < 0:
            break
        alone = True
        for j in range(houses.shape[1]):
            other = houses[house, j]
            if other != cell and puzzle[other] == 0 and not _seen(puzzle, houses, cell_houses, other) & bit:
                alone = False
                break
        if alone:
            return True
    return False


@kernel
def carve(kind, grids, geometry, orbits, target, check_cells, node_budget, slice_nodes, resume, results):
    """Carve a puzzle out of each full grid ``grids[k]`` (``geometry`` its board's ``(houses,
    cell_houses, full)``) into ``puzzles[k]``, where ``results`` is ``(puzzles, flags, nodes)``.

    ``orbits`` is ``(orbit_start, orbit_cells, orders)``: orbit ``o`` is
    ``orbit_cells[orbit_start[o]:orbit_start[o + 1]]``; ``orders[k]`` is the
    order grid k's orbits are tried in (steps ``0 .. orbits - 1``; with ``check_cells`` steps
    ``orbits + cell`` then try each given alone, and ``flags[k]`` gets ``CELL_MINIMAL`` when
    none can go). Carving stops early once ``target`` givens or fewer remain (0: never).

    A uniqueness search that runs past ``node_budget`` nodes pauses the grid: its cells are
    put back, ``resume[k]`` says the step, and the caller settles that step with a stronger
    search and calls again with ``resume[k]`` the step after it (``puzzles[k]`` and
    ``flags[k]`` as it left them). ``resume[k] == 0`` starts from the grid; ``resume[k] < 0``
    on return means done. ``nodes[k]`` adds up what the searches took. After a step that
    brings a grid's nodes in this call past ``slice_nodes`` (0: no slices) the grid pauses
    with ``SLICED`` in ``flags[k]`` and ``resume[k]`` the step to go on from, nothing to
    settle: so the caller can keep a time limit on boards whose carve takes seconds."""
    houses, cell_houses, full = geometry
    orbit_start, orbit_cells, orders = orbits
    puzzles, flags, nodes = results
    cells = grids.shape[1]
    c_stack = np.zeros(classic.LEVELS * classic.SLOTS, dtype=np.int32)
    c_branch_cell = np.zeros(classic.LEVELS, dtype=np.int64)
    c_branch_rest = np.zeros(classic.LEVELS, dtype=np.int64)
    state, ctl, options, variant = _general_scratch(houses, cells, full)
    out = np.zeros(cells, dtype=np.uint8)
    removed = np.zeros(cells, dtype=np.int32)
    n_orbits = orders.shape[1]
    for k in range(grids.shape[0]):
        grid = grids[k]
        puzzle = puzzles[k]
        step = resume[k]
        if step < 0:
            continue
        if step == 0:
            puzzle[:] = grid
            flag = UNIQUE | MINIMAL  # the pass proves it (see the docstring above)
            if check_cells:
                flag |= CELL_MINIMAL
        else:
            flag = flags[k]
        givens = 0
        for cell in range(cells):
            if puzzle[cell]:
                givens += 1
        spent = nodes[k]
        sliced_at = spent + slice_nodes
        resume[k] = -1
        # step < n_orbits: take out orbit orders[k, step]; after that (check_cells) each
        # cell in turn, alone, to prove that none can go
        last = n_orbits + (cells if check_cells else 0)
        while step < last:
            if step < n_orbits:
                if target > 0 and givens <= target:
                    flag &= ~(MINIMAL | CELL_MINIMAL)  # stopped early: some orbits never tried
                    step = n_orbits
                    continue
                orbit = orders[k, step]
                count = 0
                for j in range(orbit_start[orbit], orbit_start[orbit + 1]):
                    removed[count] = orbit_cells[j]
                    count += 1
            else:
                cell = step - n_orbits
                if puzzle[cell] == 0:
                    step += 1
                    continue
                removed[0] = cell
                count = 1
            for j in range(count):
                puzzle[removed[j]] = 0
            # another solution differs from the grid in a removed cell: one search per
            # removed cell with its value struck out (none solvable: still unique), each
            # usually dead at the root, unless the givens left still force the cell
            unique = True
            for j in range(count):
                cell = removed[j]
                value = grid[cell]
                if _seen(puzzle, houses, cell_houses, cell) | (ONE << np.uint64(value - 1)) == full:
                    continue  # a naked single among the givens
                if kind == CLASSIC:
                    # (a hidden-single test here cost more than the searches it saved: 68 ->
                    # 92 usec a puzzle)
                    solvable = _struck_out_solvable(
                        puzzle, cell, value, c_stack, c_branch_cell, c_branch_rest, ctl, out
                    )
                    spent += ctl[P.NODES]
                else:
                    if _hidden_single(puzzle, houses, cell_houses, cell, value):
                        continue
                    options[general.STRIKE] = cell * 64 + value
                    code, state = _general(
                        puzzle, geometry, state, ctl, 1, node_budget, 1, out, options, variant
                    )
                    options[general.STRIKE] = -1
                    spent += ctl[P.NODES]
                    solvable = ctl[P.COUNT] > 0
                    if code == P.BUDGET:
                        resume[k] = step  # the caller settles this step
                        break
                if solvable:
                    unique = False
                    break
            if resume[k] >= 0:
                for j in range(count):
                    puzzle[removed[j]] = grid[removed[j]]
                break
            if unique and step < n_orbits:
                givens -= count
            else:
                for j in range(count):
                    puzzle[removed[j]] = grid[removed[j]]
                if unique:  # a given that can go alone: minimal as orbits only
                    flag &= ~CELL_MINIMAL
                    break
            step += 1
            if slice_nodes > 0 and spent > sliced_at and step < last:
                resume[k] = step
                flag |= SLICED
                break
        flags[k] = flag
        nodes[k] = spent
