"""The fewest givens that make a board unique (:func:`make_unique`), and the givens a unique
board can do without (:func:`reduce`).

Adding a cell's value from the target solution ``S`` rules out every other solution that
differs from ``S`` in that cell, so the givens to add are a *hitting set*: a set of cells that
meets, for every other solution ``T``, the cells where ``T`` and ``S`` differ. The smallest one
is found without listing every solution (implicit hitting sets): solve the hitting set problem
exactly over the solutions known so far, which bounds the answer from below; add that set to
the board and search for a solution other than ``S``; if there is none the set is the answer
and proven smallest, else the new solutions join the known ones and the loop goes on. The
exact hitting set is a branch and bound over the cells of the smallest set not yet met, with
disjoint sets as the lower bound.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np

from ..board import Board, as_board
from ..results import SolveStatus
from ..shape import ShapeLike
from .searching import Budget, Witnesses, rebuilt, search

#: solutions asked for in each check of ``make_unique`` (more sets to hit per search)
SOLUTIONS_PER_CHECK = 16
#: branches the exact hitting set may take per round before the greedy one stands in
HITTING_NODES = 20_000


@dataclass(frozen=True)
class Clues:
    """What :func:`make_unique` or :func:`reduce` made. ``status``: ``solved`` (``board`` is
    unique), ``no solution``, ``several`` (``reduce`` was given a board with several solutions;
    ``make_unique`` one whose ``keep`` leaves some solutions apart), ``unknown`` (the budget ran
    out before any unique board was found)."""

    status: SolveStatus
    puzzle: Board
    board: Board | None  #: the unique board (the best found when not ``proven``)
    added: tuple[int, ...] = ()  #: make_unique: cells given their solution value
    removed: tuple[int, ...] = ()  #: reduce: givens taken out
    proven: bool = False  #: fewest added (make_unique) / minimal (reduce), proven
    bound: int = 0  #: make_unique: no fewer givens can do (equals ``len(added)`` when proven)
    searches: int = 0
    nodes: int = 0
    elapsed: float = 0.0
    question: str = "make_unique"  #: which function made it: ``make_unique`` or ``reduce``

    def summary(self) -> str:
        """One line for a person (what ``sudokit make-unique`` and ``reduce`` print after the board)."""
        if self.board is None:
            return {SolveStatus.NO_SOLUTION: "no solution", SolveStatus.SEVERAL: "several solutions"}.get(
                self.status, "unknown (budget exhausted)")
        n, symbols, values = self.board.size, self.board.symbols, self.board.cells
        changed = self.added or self.removed
        cells = ",".join(f"r{c // n + 1}c{c % n + 1}={symbols[values[c] - 1]}" for c in self.added) or \
            ",".join(f"r{c // n + 1}c{c % n + 1}" for c in self.removed)
        if self.question == "reduce":
            what = f"removed {len(self.removed)}"
            proof = "minimal" if self.proven else "not proven minimal: the budget ran out"
        else:
            what = f"added {len(self.added)}"
            proof = "fewest possible" if self.proven else f"at least {self.bound} needed: the budget ran out"
        return f"{what} ({proof}){': ' + cells if changed else ''}"

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status.value, "board": None if self.board is None else _board_data(self.board),
            "added": list(self.added), "removed": list(self.removed), "proven": self.proven,
            "bound": self.bound if self.question == "make_unique" else None, "searches": self.searches, "nodes": self.nodes, "elapsed": round(self.elapsed, 6),
        }


def _board_data(board: Board) -> str | dict[str, Any]:
    """The board for JSON: its line, or where a line would lose something (pencil marks, a
    variant's rules, boxes not the size's usual) its JSON object, which reads back as itself:
    a Sukaku made unique written as its givens alone is another board, with other solutions."""
    record = json.loads(board.to_json())
    return board.to_line() if record.keys() == {"givens", "size"} else record


def _cells_of(keep: Iterable[int] | None, cells: int) -> frozenset[int]:
    chosen = frozenset(int(c) for c in (keep or ()))
    bad = [c for c in chosen if not 0 <= c < cells]
    if bad:
        raise ValueError(f"keep holds cell {bad[0]}, outside a board of {cells} cells (0 to {cells - 1})")
    return chosen


def make_unique(
    puzzle: Any,
    solution: Any = None,
    keep: Iterable[int] | None = None,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    shape: ShapeLike | None = None,
) -> Clues:
    """The fewest givens to add (from ``solution``, else the first solution found) so that the
    board has exactly that one solution, proven fewest. ``keep``: cells (0-based) to leave as
    they are, open. With a budget that runs out, ``board`` is the best found (unique) and
    ``bound`` a proven lower bound on how many givens are needed."""
    board = as_board(puzzle, shape)
    cells = board.shape.cells
    closed = _cells_of(keep, cells)
    budget = Budget(time_limit, node_limit)
    start = time.perf_counter()

    def done(status: SolveStatus, unique: Board | None = None, added: tuple[int, ...] = (), proven: bool = False,
             bound: int = 0) -> Clues:
        return Clues(status, board, unique, added=added, proven=proven, bound=bound, searches=budget.searches,
                     nodes=budget.nodes, elapsed=time.perf_counter() - start)

    found, decided = search(board, SOLUTIONS_PER_CHECK, budget)
    if solution is None:
        if not found:
            return done(SolveStatus.NO_SOLUTION if decided else SolveStatus.UNKNOWN)
        target = found[0]
    else:
        target_board = as_board(solution, board.shape)
        if not target_board.is_solution_of(board):
            raise ValueError("solution is not a solution of the puzzle (a full grid under its rules, keeping its givens)")
        target = target_board.cells.copy()
    if decided and len(found) <= 1:
        return done(SolveStatus.SOLVED, board, proven=True)
    open_cells = board.cells == 0
    sets: list[int] = []  # per other solution, the open cells (not kept) where it differs: a bitmask

    def learn(grids: Iterable[np.ndarray]) -> bool:
        """Add the sets of the solutions other than the target, each shrunk to a minimal one;
        False if one cannot be hit."""
        seen = set()
        for grid in grids:
            differ = np.flatnonzero((grid != target) & open_cells)
            if not len(differ) or differ.tobytes() in seen:
                continue  # the target itself, or a set already learnt
            seen.add(differ.tobytes())
            differ = shrunk(board, target, differ, budget)
            mask = sum(1 << int(c) for c in differ if int(c) not in closed)
            if not mask:
                return False
            sets.append(mask)
        return True

    if not learn(found):
        return done(SolveStatus.SEVERAL)
    # a first unique board, to stand if the budget runs out: the greedy hitting set, then a
    # cell of each other solution found in turn
    best = _augment(board, target, _greedy(sets), closed, learn, sets, budget)
    bound = 0
    while not budget.stop():
        chosen, optimal = hitting_set(sets, budget, HITTING_NODES)
        if optimal:
            bound = max(bound, len(chosen))
        else:
            bound = max(bound, _disjoint(sets))
        if best is not None and len(best) <= len(chosen):
            break  # nothing smaller to try: the best found meets the bound when it is proven
        values = board.cells.copy()
        values[list(chosen)] = target[list(chosen)]
        grids, decided = search(rebuilt(board, values), SOLUTIONS_PER_CHECK, budget)
        others = [grid for grid in grids if (grid != target).any()]
        if not others and decided:
            if best is None or len(chosen) < len(best):
                best = tuple(sorted(chosen))
            if optimal:
                break
            continue
        if not learn(others):
            return done(SolveStatus.SEVERAL)
        if not decided and not others:
            break
    if best is None:
        best = _greedy_completion(board, target, sets, closed, budget)
    if best is None:
        return done(SolveStatus.UNKNOWN, bound=bound)
    values = board.cells.copy()
    values[list(best)] = target[list(best)]
    proven = bound >= len(best)
    return done(SolveStatus.SOLVED, rebuilt(board, values), added=best, proven=proven, bound=bound if not proven else len(best))


def _augment(board: Board, target: np.ndarray, chosen: Iterable[int], closed: frozenset[int], learn,
             sets: list[int], budget: Budget) -> tuple[int, ...] | None:
    """``chosen`` grown until the board is unique: each other solution met gives a cell of the
    set ``learn`` makes of it (shrunk: the cell of that set in most sets known); None if the
    budget runs out first or ``keep`` leaves solutions apart."""
    cells = set(chosen)
    while not budget.exhausted:
        values = board.cells.copy()
        values[list(cells)] = target[list(cells)]
        grids, decided = search(rebuilt(board, values), 2, budget)
        other = next((grid for grid in grids if (grid != target).any()), None)
        if other is None:
            return tuple(sorted(cells)) if decided else None
        known = len(sets)
        if not learn([other]):
            return None
        if len(sets) > known:
            cells.add(max(_bits(sets[-1]), key=lambda cell: sum(1 for mask in sets if mask >> cell & 1)))
        else:  # a set learnt before: the solution's first cell that tells it apart
            cells.add(next(c for c in np.flatnonzero((other != target) & (board.cells == 0)).tolist() if c not in closed))
    return None


def shrunk(board: Board, target: np.ndarray, differ: np.ndarray, budget: Budget) -> np.ndarray:
    """A minimal set of cells that some solution other than ``target`` differs in, inside
    ``differ`` (the cells one such solution differs in): the target's values everywhere else,
    then each cell of the set given its target value in turn, kept given while some other
    solution remains (whose cells are the new set). Every search runs on a nearly full board."""
    free = [int(c) for c in differ]
    values = target.copy()
    values[free] = board.cells[free]
    for cell in list(free):
        if cell not in free or budget.exhausted:
            continue
        trial = values.copy()
        trial[cell] = target[cell]
        grids, _ = search(rebuilt(board, trial), 2, budget)
        other = next((grid for grid in grids if (grid != target).any()), None)
        if other is not None:
            free = np.flatnonzero(other != target).tolist()
            values = target.copy()
            values[free] = board.cells[free]
    return np.array(sorted(free), dtype=np.int64)


def _greedy_completion(board: Board, target: np.ndarray, sets: list[int], closed: frozenset[int],
                       budget: Budget) -> tuple[int, ...] | None:
    """A unique board found without proof of fewest: every open cell not kept given its
    target value (always unique, unless ``keep`` leaves solutions apart: then None), but for
    cells whose pencil marks leave that value alone: no solution differs there."""
    marks = board.start_masks()
    single = (marks & (marks - np.uint64(1))) == 0
    cells = [c for c in np.flatnonzero((board.cells == 0) & ~single).tolist() if c not in closed]
    values = board.cells.copy()
    values[cells] = target[cells]
    grids, decided = search(rebuilt(board, values), 2, Budget())
    return tuple(cells) if decided and len(grids) == 1 else None


def hitting_set(sets: list[int], budget: Budget | None = None, most_nodes: int = 200_000) -> tuple[tuple[int, ...], bool]:
    """A smallest set of cells meeting every bitmask of ``sets``, and whether it is proven
    smallest (a budget or ``most_nodes`` branches may stop the search with the best found)."""
    if not sets:
        return (), True
    unique_sets = sorted(set(sets), key=lambda mask: (mask.bit_count(), mask))
    # a set that holds another is met whenever the other is
    kept: list[int] = []
    for mask in unique_sets:
        if not any(small & mask == small for small in kept):
            kept.append(mask)
    best = _greedy(kept)
    nodes = 0
    stopped = False

    def bound(remaining: list[int]) -> int:
        used = 0
        count = 0
        for mask in remaining:  # smallest first: more of them fit disjointly
            if not mask & used:
                used |= mask
                count += 1
        return count

    def branch(chosen: list[int], remaining: list[int], banned: int) -> None:
        nonlocal best, nodes, stopped
        if stopped:
            return
        nodes += 1
        if nodes >= most_nodes or (budget is not None and nodes % 1024 == 0 and budget.stop()):
            stopped = True
            return
        if not remaining:
            if len(chosen) < len(best):
                best = tuple(chosen)
            return
        if len(chosen) + bound(remaining) >= len(best):
            return
        pick = min(remaining, key=lambda mask: (mask & ~banned).bit_count())
        options = pick & ~banned
        # the cells that meet most remaining sets first
        order = sorted(_bits(options), key=lambda cell: -sum(1 for mask in remaining if mask >> cell & 1))
        for cell in order:
            rest = [mask & ~banned for mask in remaining if not mask >> cell & 1]
            if all(rest):
                branch(chosen + [cell], sorted(rest, key=lambda mask: mask.bit_count()), banned)
            banned |= 1 << cell  # later branches leave this cell out: no set is tried twice

    branch([], kept, 0)
    return tuple(sorted(best)), not stopped


def _disjoint(sets: list[int]) -> int:
    """A lower bound on any hitting set: sets that share no cell, smallest first."""
    used = count = 0
    for mask in sorted(sets, key=lambda mask: mask.bit_count()):
        if not mask & used:
            used |= mask
            count += 1
    return count


def _bits(mask: int) -> list[int]:
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


def _greedy(sets: list[int]) -> tuple[int, ...]:
    """A hitting set, not always the smallest: the cell meeting most sets left, in turn."""
    chosen: list[int] = []
    remaining = list(sets)
    while remaining:
        counts: dict[int, int] = {}
        for mask in remaining:
            for cell in _bits(mask):
                counts[cell] = counts.get(cell, 0) + 1
        cell = max(counts, key=lambda c: (counts[c], -c))
        chosen.append(cell)
        remaining = [mask for mask in remaining if not mask >> cell & 1]
    return tuple(chosen)


def reduce(
    puzzle: Any,
    keep: Iterable[int] | None = None,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    shape: ShapeLike | None = None,
) -> Clues:
    """Take givens out, one at a time in cell order, never those of ``keep`` (0-based cells),
    while the board stays unique: the result is minimal (no given outside ``keep`` can go;
    each was refused on a superset of the final givens). A board with no solution or several
    is returned as it is, with that status."""
    board = as_board(puzzle, shape)
    kept = _cells_of(keep, board.shape.cells)
    budget = Budget(time_limit, node_limit)
    start = time.perf_counter()
    found, decided = search(board, 2, budget)

    def done(status: SolveStatus, result: Board | None, removed: tuple[int, ...] = (), proven: bool = False) -> Clues:
        return Clues(status, board, result, removed=removed, proven=proven, searches=budget.searches,
                     nodes=budget.nodes, elapsed=time.perf_counter() - start, question="reduce")

    if len(found) != 1 or not decided:
        status = SolveStatus.SEVERAL if len(found) > 1 else SolveStatus.NO_SOLUTION if decided else SolveStatus.UNKNOWN
        return done(status, None)
    solution = found[0]
    witnesses = Witnesses(board.shape.cells)
    values = board.cells.copy()
    removed: list[int] = []
    for cell in np.flatnonzero(board.cells).tolist():
        if cell in kept:
            continue
        trial = values.copy()
        trial[cell] = 0
        if witnesses.agreeing(trial, other_than=solution) is not None:
            continue
        grids, decided = search(rebuilt(board, trial), 2, budget)
        if not decided:
            return done(SolveStatus.SOLVED, rebuilt(board, values), tuple(removed), proven=False)
        if len(grids) == 2:
            witnesses.add(grid for grid in grids if (grid != solution).any())
            continue
        values = trial
        removed.append(cell)
    return done(SolveStatus.SOLVED, rebuilt(board, values), tuple(removed), proven=True)
