"""Many boards of one general shape in one compiled call, with the general kernel.

Each row of ``puzzles`` runs ``general.search`` to the end (or to its node budget) with
arrays allocated once for the whole batch. The search loop itself stays in ``general``: a
second copy of it here would drift from the one the single-board API runs. A deep search that
fills the stack gets a stack twice as tall, as ``GeneralSearch`` does in Python.
"""

from __future__ import annotations

import numpy as np

from . import general
from . import protocol as P
from ..build.jit import kernel
from .driver import grown, record, start


@kernel
def solve_many(puzzles, geometry, limit, node_budget, results, variant, rules):
    """Search every row of ``puzzles`` (``(N, cells)`` values, 0 empty; ``geometry`` the board's
    ``(houses, cell_houses, full)``) for up to ``limit`` solutions and at most ``node_budget``
    nodes; ``results`` is ``(solutions, counts, nodes, guesses, exhausted)``: the first solution
    into ``solutions[k]``, the count, nodes and guesses, and whether the search space was
    exhausted. Rows with
    ``counts[k] < 0`` on entry are skipped (the caller's mark for records it set aside). Every
    row shares ``variant``, the cages and starting candidates (``cages.py``); ``rules`` True
    picks ``general.variant_options`` (the options a single board with variant rules gets)."""
    houses, cell_houses, full = geometry
    solutions, counts, nodes, guesses, exhausted = results
    cells = puzzles.shape[1]
    levels = min(cells + 1, max(16, (1 << 21) // (8 * cells)))
    stack = np.zeros((levels, cells + variant[1].shape[0]), dtype=np.uint64)  # cages' counts too
    branch_cell = np.zeros(levels, dtype=np.int64)
    branch_rest = np.zeros(levels, dtype=np.uint64)
    ctl = np.zeros(P.CTL_SIZE, dtype=np.int64)
    queue = np.zeros(cells, dtype=np.int32)
    dirty = np.zeros(houses.shape[0], dtype=np.uint8)
    options = np.zeros(general.OPTIONS_SIZE, dtype=np.int64)
    if rules:
        general.variant_options(houses, options)
    else:
        general.default_options(houses, options)
    work, iwork = general.scratch(houses)
    for k in range(puzzles.shape[0]):
        if counts[k] < 0:
            continue
        start(ctl)
        while True:
            code = general.search(
                puzzles[k], geometry, (stack, branch_cell, branch_rest, queue, dirty, work, iwork), ctl, limit,
                node_budget - ctl[P.NODES], 1, solutions[k], options, variant,
            )
            if code != P.STACK_FULL:
                break
            levels = min(cells + 1, 2 * stack.shape[0])
            stack = grown(stack, levels)
            branch_cell = grown(branch_cell, levels)
            branch_rest = grown(branch_rest, levels)
        record(ctl, code, k, counts, nodes, guesses, exhausted)
