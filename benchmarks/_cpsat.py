"""OR-tools CP-SAT as a Sudoku peer, one model for every benchmark: an integer variable per
cell (fixed for a given), ``AddAllDifferent`` per house, one worker."""

from __future__ import annotations

import numpy as np


def cpsat_count(values, size: int, houses: list[list[int]], limit: int,
                time_limit: float | None = None) -> tuple[int, np.ndarray | None, bool]:
    """Solutions of one board, up to ``limit``: ``(count, first solution or None, finished)``;
    ``finished`` is False when ``time_limit`` seconds ran out first."""
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
    cells = [model.NewIntVar(int(v), int(v), "") if v else model.NewIntVar(1, size, "") for v in values]
    for house in houses:
        model.AddAllDifferent([cells[c] for c in house])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.enumerate_all_solutions = limit > 1
    counter = Counter(cells)
    status = solver.Solve(model, counter)
    finished = counter.count >= limit or status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    return counter.count, counter.first, finished
