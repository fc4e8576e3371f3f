"""The SAT peers' side shared by the benchmarks: the standard encoding of a board and the
grid read back from a model."""

from __future__ import annotations

import numpy as np


def standard_cnf(size: int, houses: np.ndarray) -> list[list[int]]:
    """Variable ``cell * size + v + 1``: cell holds v + 1. Each cell and each house-value
    exactly once (at least once: one clause; at most once: pairwise)."""
    clauses = []
    for cell in range(size * size):
        members = [cell * size + v + 1 for v in range(size)]
        clauses.append(members)
        clauses += [[-a, -b] for i, a in enumerate(members) for b in members[i + 1 :]]
    for house in houses.tolist():
        for v in range(size):
            members = [cell * size + v + 1 for cell in house]
            clauses.append(members)
            clauses += [[-a, -b] for i, a in enumerate(members) for b in members[i + 1 :]]
    return clauses


def grid_from_model(model, size: int) -> np.ndarray:
    """The grid a model of ``standard_cnf`` sets (variables past the encoding's, such as
    blocking-clause selectors, ignored)."""
    grid = np.zeros(size * size, dtype=np.uint8)
    for literal in model:
        if 0 < literal <= size * size * size:
            grid[(literal - 1) // size] = (literal - 1) % size + 1
    return grid
