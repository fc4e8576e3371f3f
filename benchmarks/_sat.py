"""The SAT peers' side shared by the benchmarks: the standard encoding of a board (and of a
variant's cages and pencil marks) and the grid read back from a model."""

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


def variant_cnf(size: int, houses: np.ndarray, givens, cages=(), candidates=None) -> tuple[list[list[int]], int]:
    """``standard_cnf`` over ``houses`` (a variant's: jigsaw regions, extra houses), the givens
    as unit clauses, each pencil mark's missing values false, and each killer cage as its
    enumerated combinations: at most one of each value in the cage (pairwise); with a sum, a
    selector per combination of distinct values that makes it, one selector true, a chosen
    combination's every value somewhere in the cage, and a cell's value in some chosen
    combination (so the cage holds exactly the chosen set). Returns ``(clauses, variables)``."""
    from itertools import combinations

    clauses = standard_cnf(size, houses)
    top = size**3
    for cell, value in enumerate(givens):
        if value:
            clauses.append([cell * size + int(value)])
    if candidates is not None:
        for cell, mask in enumerate(candidates):
            clauses += [[-(cell * size + v + 1)] for v in range(size) if not int(mask) >> v & 1]
    for total, members in cages:
        members = list(members)
        for v in range(size):
            lits = [c * size + v + 1 for c in members]
            clauses += [[-a, -b] for i, a in enumerate(lits) for b in lits[i + 1 :]]
        if total is None:
            continue
        selectors = []
        for combo in combinations(range(1, size + 1), len(members)):
            if sum(combo) != total:
                continue
            top += 1
            selectors.append((top, combo))
            clauses += [[-top] + [c * size + v for c in members] for v in combo]
        clauses.append([y for y, _ in selectors])
        for v in range(1, size + 1):
            support = [y for y, combo in selectors if v in combo]
            clauses += [[-(c * size + v)] + support for c in members]
    return clauses, top


def grid_from_model(model, size: int) -> np.ndarray:
    """The grid a model of ``standard_cnf`` sets (variables past the encoding's, such as
    blocking-clause selectors, ignored)."""
    grid = np.zeros(size * size, dtype=np.uint8)
    for literal in model:
        if 0 < literal <= size * size * size:
            grid[(literal - 1) // size] = (literal - 1) % size + 1
    return grid
