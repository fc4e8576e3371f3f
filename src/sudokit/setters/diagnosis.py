"""Why a board is not a puzzle yet: :func:`diagnose`.

No solution: a minimal set of givens that already has none (its *core*), found by taking
givens out while none remains (in chunks first, then one by one); every given of the core was
tried alone against a set of givens that holds the core, and that set had a solution, so the
core is minimal: removing any one of its givens leaves a board with a solution (fewer givens
never mean fewer solutions). The search starts from the givens a chain of singles used when
there is one (``forced.py``), and solutions found on the way answer later questions without a
search (``searching.Witnesses``). Several solutions: two of them and the cells where they
differ. One: whether some givens could go (each tried alone), which says whether it is minimal.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..board import Board, as_board
from ..results import SolveStatus
from ..shape import Geometry, ShapeLike
from .forced import Chain, forced_contradiction
from .searching import Budget, Witnesses, rebuilt, search, with_givens


@dataclass(frozen=True)
class Diagnosis:
    """What :func:`diagnose` found. ``status``: ``no solution``, ``several``, ``solved``
    (exactly one solution) or ``unknown`` (the budget ran out before the count was known)."""

    status: SolveStatus
    puzzle: Board
    #: no solution: the givens of a minimal core, 0-based cell indices (None otherwise)
    core: tuple[int, ...] | None = None
    #: no solution: the singles from the core to a contradiction where singles reach one, else
    #: from the board's givens (``chain.givens`` says which) where they do
    chain: Chain | None = None
    #: no solution: the rules the contradiction rests on (houses and cages, or kinds of rule)
    rules: tuple[str, ...] = ()
    #: two solutions (several), or the one (unique)
    solutions: tuple[Board, ...] = ()
    #: several: the cells where the two solutions differ
    differing: tuple[int, ...] = ()
    #: unique: the givens each of which could go alone, the board staying unique
    redundant: tuple[int, ...] | None = None
    #: the core is proven minimal (no solution), the redundant givens are all of them (unique)
    proven: bool = True
    searches: int = 0
    nodes: int = 0
    elapsed: float = 0.0
    notes: tuple[str, ...] = field(default=())

    @property
    def minimal(self) -> bool | None:
        """Unique: no given could go (None when not unique, or not proven)."""
        if self.status is not SolveStatus.SOLVED or not self.proven or self.redundant is None:
            return None
        return not self.redundant

    def _cells(self, cells: tuple[int, ...]) -> str:
        n, symbols, values = self.puzzle.size, self.puzzle.symbols, self.puzzle.cells
        return ",".join(f"r{c // n + 1}c{c % n + 1}={symbols[values[c] - 1]}" for c in cells)

    def summary(self) -> str:
        """One line for a person (what ``sudokit diagnose`` prints)."""
        n = self.puzzle.size
        if self.status is SolveStatus.NO_SOLUTION:
            assert self.core is not None
            proof = "minimal" if self.proven else "not proven minimal: the budget ran out"
            parts = [f"no solution: core of {len(self.core)} givens {self._cells(self.core)} ({proof})"]
            if self.rules:
                parts.append("rules: " + ", ".join(self.rules))
            if self.chain is not None:
                parts.append("chain: " + "; ".join(self.chain.lines()))
            else:
                parts.append("no chain of singles: search shows it")
            return " | ".join(parts)
        if self.status is SolveStatus.SEVERAL:
            where = ",".join(f"r{c // n + 1}c{c % n + 1}" for c in self.differing)
            return (f"several solutions: two differ in {len(self.differing)} cells ({where}) | "
                    f"{self.solutions[0].to_line()} | {self.solutions[1].to_line()}")
        if self.status is SolveStatus.SOLVED:
            assert self.redundant is not None
            if not self.redundant:
                return "unique, minimal" if self.proven else "unique (minimality unknown: the budget ran out)"
            more = "" if self.proven else " (or more: the budget ran out)"
            return f"unique, not minimal: {len(self.redundant)} givens could go alone{more}: {self._cells(self.redundant)}"
        return "unknown (budget exhausted)"

    def to_json(self) -> dict[str, Any]:
        """Plain data for JSON (cells 0-based)."""
        data: dict[str, Any] = {"status": self.status.value, "proven": self.proven}
        if self.core is not None:
            data.update(core=list(self.core), rules=list(self.rules),
                        chain=None if self.chain is None else self.chain.lines())
        if self.solutions:
            data["solutions"] = [board.to_line() for board in self.solutions]
        if self.status is SolveStatus.SEVERAL:
            data["differing"] = list(self.differing)
        if self.redundant is not None:
            data.update(redundant=list(self.redundant), minimal=self.minimal)
        data.update(searches=self.searches, nodes=self.nodes, elapsed=round(self.elapsed, 6))
        return data

    def __str__(self) -> str:
        return self.summary()


def diagnose(
    puzzle: Any,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    shape: ShapeLike | None = None,
) -> Diagnosis:
    """Why ``puzzle`` has no solution, which solutions it has, or which givens it could do
    without (see :class:`Diagnosis`). ``time_limit`` seconds and ``node_limit`` search nodes
    bound the whole diagnosis; a diagnosis they cut short says so (``proven`` False, or
    ``status`` unknown)."""
    board = as_board(puzzle, shape)
    budget = Budget(time_limit, node_limit)
    start = time.perf_counter()
    found, decided = search(board, 2, budget)
    witnesses = Witnesses(board.shape.cells)
    witnesses.add(found)
    fields: dict[str, Any]
    if len(found) == 2:
        differing = tuple(np.flatnonzero(found[0] != found[1]).tolist())
        fields = dict(status=SolveStatus.SEVERAL, solutions=tuple(board._solution(grid) for grid in found), differing=differing)
    elif not decided:
        fields = dict(status=SolveStatus.UNKNOWN, proven=False)
    elif found:
        redundant, proven = _redundant(board, found[0], budget, witnesses)
        fields = dict(status=SolveStatus.SOLVED, solutions=(board._solution(found[0]),), redundant=redundant, proven=proven)
    else:
        fields = _no_solution(board, budget, witnesses)
    return Diagnosis(puzzle=board, searches=budget.searches, nodes=budget.nodes,
                     elapsed=time.perf_counter() - start, **fields)


def _no_solution(board: Board, budget: Budget, witnesses: Witnesses) -> dict[str, Any]:
    first = forced_contradiction(board)
    seed = list(first.givens) if first is not None else np.flatnonzero(board.cells).tolist()
    core, proven = minimal_core(board, seed, budget, witnesses)
    core_board = with_givens(board, core)
    # the core's own chain, else the board's (its givens then hold more than the core)
    chain = forced_contradiction(core_board) or first
    rules = chain.rules if chain is not None else _rule_kinds(core_board, budget)
    return dict(status=SolveStatus.NO_SOLUTION, core=tuple(core), chain=chain, rules=rules, proven=proven)


def minimal_core(board: Board, seed: list[int], budget: Budget, witnesses: Witnesses) -> tuple[list[int], bool]:
    """A minimal set of ``seed``'s givens without solution (``seed`` has none), and whether it
    is proven minimal (False when the budget stopped a search: the set still has no solution)."""
    core = sorted(seed)
    chunk = max(1, len(core) // 4)
    while True:
        i = 0
        while i < len(core):
            trial = core[:i] + core[i + chunk :]
            answer = _satisfiable(board, trial, budget, witnesses)
            if answer is None:
                return core, False
            if answer:
                i += chunk
            else:
                core = trial
        if chunk == 1:
            return core, True
        chunk = max(1, chunk // 2)


def _satisfiable(board: Board, cells: list[int], budget: Budget, witnesses: Witnesses) -> bool | None:
    trial = with_givens(board, cells)
    if witnesses.agreeing(trial.cells) is not None:
        return True
    found, decided = search(trial, 1, budget)
    if found:
        witnesses.add(found)
        return True
    return False if decided else None


def _redundant(board: Board, solution: np.ndarray, budget: Budget, witnesses: Witnesses) -> tuple[tuple[int, ...], bool]:
    """The givens each of which could go alone, the board keeping one solution, and whether
    every given was decided."""
    redundant: list[int] = []
    for cell in np.flatnonzero(board.cells).tolist():
        values = board.cells.copy()
        values[cell] = 0
        if witnesses.agreeing(values, other_than=solution) is not None:
            continue
        found, decided = search(rebuilt(board, values), 2, budget)
        if not decided:
            return tuple(redundant), False
        if len(found) == 2:
            witnesses.add(grid for grid in found if (grid != solution).any())
        else:
            redundant.append(cell)
    return tuple(redundant), True


def _rule_kinds(board: Board, budget: Budget) -> tuple[str, ...]:
    """The kinds of rule a core without a chain of singles needs: the board's houses always,
    and each of its extra houses, cages and pencil marks where the core has a solution
    without them (a kind whose removal was not decided is listed, as it may be needed)."""
    n = board.size
    geometry = board.geometry
    kinds = list(dict.fromkeys(kind + ("es" if kind.endswith("x") else "s") for kind in geometry.kinds[: 3 * n]))
    trials: list[tuple[str, Board]] = []
    if geometry.extra:
        plain = Geometry(geometry.houses[: 3 * n], geometry.kinds[: 3 * n])
        names = ", ".join(dict.fromkeys(geometry.kinds[3 * n :]))
        trials.append((names, Board(board.cells, board.shape, board.symbols, geometry=plain, cages=board.cages,
                                    candidates=board.candidates)))
    if board.cages:
        trials.append(("cages", Board(board.cells, board.shape, board.symbols, geometry=geometry,
                                      candidates=board.candidates)))
    if board.candidates is not None:
        trials.append(("pencil marks", Board(board.cells, board.shape, board.symbols, geometry=geometry, cages=board.cages)))
    for name, trial in trials:
        found, decided = search(trial, 1, budget)
        if found or not decided:
            kinds.append(name)
    return tuple(kinds)
