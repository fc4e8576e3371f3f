"""OR-tools CP-SAT as a Sudoku peer, one model for every benchmark: an integer variable per
cell (fixed for a given), ``AddAllDifferent`` per house, one worker; for variants a cell's
domain is its pencil marks, and a killer cage is ``AddAllDifferent`` plus a linear sum."""

from __future__ import annotations

import numpy as np


def cpsat_count(values, size: int, houses: list[list[int]], limit: int,
                time_limit: float | None = None, *, cages=(), candidates=None,
                stats: dict | None = None) -> tuple[int, np.ndarray | None, bool]:
    """Solutions of one board, up to ``limit``: ``(count, first solution or None, finished)``;
    ``finished`` is False when ``time_limit`` seconds ran out first. ``cages``: ``(sum or
    None, cells)`` pairs; ``candidates``: a mask per cell (bit ``v - 1``: value ``v``) or None.
    ``stats`` receives the solver's own ``wall_time`` (model building not counted)."""
    from ortools.sat.python import cp_model

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self, cells):
            super().__init__()
            self.cells, self.count, self.first = cells, 0, None

        def on_solution_callback(self):
            self.count += 1
            if self.first is None:
                self.first = np.array([self.Value(v) for v in self.cells], dtype=np.uint8)
            if self.count >= limit:
                self.StopSearch()

    model = cp_model.CpModel()
    cells = []
    for cell, v in enumerate(values):
        if v:
            cells.append(model.NewIntVar(int(v), int(v), ""))
        elif candidates is not None:
            allowed = [value + 1 for value in range(size) if int(candidates[cell]) >> value & 1]
            cells.append(model.NewIntVarFromDomain(cp_model.Domain.FromValues(allowed), ""))
        else:
            cells.append(model.NewIntVar(1, size, ""))
    for house in houses:
        model.AddAllDifferent([cells[c] for c in house])
    for total, members in cages:
        model.AddAllDifferent([cells[c] for c in members])
        if total is not None:
            model.Add(sum(cells[c] for c in members) == total)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.enumerate_all_solutions = limit > 1
    counter = Counter(cells)
    status = solver.Solve(model, counter)
    if stats is not None:
        stats["wall_time"] = solver.WallTime()
    finished = counter.count >= limit or status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    return counter.count, counter.first, finished
