"""Solving the way people do: the next step and why (:func:`hint`), every step to the end
(:func:`explain`), and how hard that is (:func:`rate`, :func:`rate_batch`), on HoDoKu's scale
and, for 9x9 boards, on Sudoku Explainer's (``er``, ``ep``, ``ed``; :func:`explain_se`).

All of them want a puzzle with exactly one solution, which they prove first: for a puzzle with
none or several, ``rate`` and ``explain`` return a result whose ``status`` says so (and no level,
never a wrong one), and ``hint`` raises :class:`NotUnique`; a caller that proved it already
hands them the solution (``solution=``). The scales are objects of ``scales.py``.
"""

from __future__ import annotations

import functools
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Sequence

import numpy as np

from .. import engines, solver, warming
from ..arrays import solve_batch
from ..kernels.hodoku import ids as technique_ids
from ..board import Board, as_board
from ..results import Limits, SolveStatus, limits as checked_limits
from ..shape import Shape, ShapeLike
from ..threads import thread_map
from . import se
from .grid import CandidateGrid, geometry, human_rules
from .scales import HODOKU, SE, Scale, scale_of
from .se import SEStep
from .steps import Step
from .techniques import BRUTE_FORCE, BY_ID, MARKS_ORDER, SOLVING_ORDER, Level, level_of

#: the technique ids the solving loop tries, in order
ORDER = np.array([technique.id for technique in SOLVING_ORDER], dtype=np.int64)
#: the same on a board that starts from pencil marks: no deadly patterns (see MARKS_ORDER)
ORDER_ON_MARKS = np.array([technique.id for technique in MARKS_ORDER], dtype=np.int64)


def order_for(board: Board) -> np.ndarray:
    """The technique ids the solving loop tries on ``board``."""
    return ORDER if board.candidates is None else ORDER_ON_MARKS


class NotUnique(ValueError):
    """The puzzle has no solution, or several, or a budget ran out before the proof that it has
    one (``status`` UNKNOWN): there is no next step towards *the* solution."""

    def __init__(self, status: SolveStatus, puzzle: Board) -> None:
        self.status = status
        self.puzzle = puzzle
        if status is SolveStatus.UNKNOWN:
            message = "the budget ran out before the proof that the puzzle has one solution"
        else:
            what = "has no solution" if status is SolveStatus.NO_SOLUTION else "has several solutions"
            message = f"the puzzle {what}; hints and ratings need exactly one"
        super().__init__(message)


@dataclass(frozen=True)
class Rating:
    """How hard a puzzle is on HoDoKu's scale.

    ``level`` is the hardest technique's level, raised while ``score`` (the sum of the steps'
    scores) passes the level's ceiling. Where no technique applies, HoDoKu places a cell's
    solution value ("Brute Force", 10000 points, extreme) and goes on; so does the rating,
    which keeps it on HoDoKu's scale, while ``solved`` says whether the techniques alone
    finished the puzzle. A puzzle without exactly one solution is not rated: ``status`` says
    why, and ``level`` and ``score`` are None.

    ``er``, ``ep`` and ``ed`` are Sudoku Explainer's ratings (9x9 boards; None elsewhere or
    when not asked for): the hardest step of SE's path, the hardest up to the first placement,
    the first step's. ``se_status`` is ``unknown`` where a budget stopped SE's rating, and then
    ``er`` is the best lower bound found.
    """

    status: SolveStatus
    puzzle: Board
    level: Level | None
    score: int | None
    techniques: dict[str, int] = field(default_factory=dict)  #: steps per technique
    solved: bool = False  #: the techniques finished it without brute force (SE's, with ``scale="se"``)
    steps: int = 0  #: the steps taken (HoDoKu's; SE's with ``scale="se"``)
    elapsed: float = 0.0
    er: float | None = None
    ep: float | None = None
    ed: float | None = None
    se_status: SolveStatus | None = None

    @property
    def rated(self) -> bool:
        """Rated on at least one scale (a level, or an ER)."""
        return self.level is not None or self.er is not None

    @property
    def se(self) -> str | None:
        """``ER/EP/ED`` as SE prints them (None when not rated on SE's scale)."""
        if self.er is None:
            return None
        return f"{self.er:.1f}/{self.ep:.1f}/{self.ed:.1f}"

    def to_json(self) -> dict[str, Any]:
        """The rating as plain data (null where not rated): the one record that every output
        of a rating is written from (the web API's answer, ``rate --to json`` and the other
        forms through :mod:`~sudokit.logic.scales`, a batch's rating columns)."""
        return {
            "status": self.status.value,
            "level": None if self.level is None else self.level.value,
            "score": self.score,
            "solved": self.solved,
            "techniques": dict(self.techniques),
            "steps": self.steps,
            "elapsed": self.elapsed,
            "er": self.er,
            "ep": self.ep,
            "ed": self.ed,
            "se_status": None if self.se_status is None else self.se_status.value,
        }

    def __str__(self) -> str:
        if self.level is None and self.er is None:
            return str(self.status)
        parts = [] if self.level is None else [f"{self.level} ({self.score})"]
        if self.er is not None:
            if self.se_status is SolveStatus.UNKNOWN:
                parts.append(f"SE >={self.se} (unknown: a budget stopped it; lower bounds)")
            else:
                parts.append(f"SE {self.se}")
        return ", ".join(parts)


@dataclass(frozen=True)
class Explanation:
    """Every step of a human-style solution, each the easiest available, and where it ended."""

    status: SolveStatus  #: SOLVED for a puzzle with exactly one solution; else why there are no steps
    puzzle: Board
    steps: tuple[Step, ...]  #: in the order taken
    board: Board  #: the board after the last step
    solved: bool  #: the steps reach the solution (False: no technique applies any more)
    rating: Rating  #: HoDoKu's rating (level and score None on a board that starts from pencil marks)

    def __str__(self) -> str:
        if self.status is not SolveStatus.SOLVED:
            return str(NotUnique(self.status, self.puzzle))
        lines = [f"{number}. {step.text}" for number, step in enumerate(self.steps, 1)]
        if not self.solved:
            lines.append(f"stuck: no technique applies after {len(self.steps)} steps")
        return "\n".join(lines)


@dataclass(frozen=True)
class SEExplanation:
    """The steps of Sudoku Explainer's path on a 9x9 puzzle (each the first rule's hint, as SE
    takes it), and the resulting ER/EP/ED (``result``; None for a puzzle without exactly one
    solution, whose ``status`` says so)."""

    status: SolveStatus
    puzzle: Board
    steps: tuple[SEStep, ...]
    result: se.SEResult | None

    @property
    def solved(self) -> bool:
        """SE's rules finished the puzzle."""
        return self.result is not None and self.result.solved

    def __str__(self) -> str:
        if self.result is None:
            return str(NotUnique(self.status, self.puzzle))
        lines = [f"{number}. {step.text}" for number, step in enumerate(self.steps, 1)]
        r = self.result
        if r.status is SolveStatus.UNKNOWN:
            lines.append(f"ER/EP/ED >={r.er:.1f}/{r.ep:.1f}/{r.ed:.1f} (unknown: a budget stopped it; lower bounds)")
        else:
            lines.append(f"ER/EP/ED {r.er:.1f}/{r.ep:.1f}/{r.ed:.1f}")
        return "\n".join(lines)


def _unique(board: Board, solution: Board | None = None, limits: Limits | None = None) -> tuple[SolveStatus, Board | None]:
    """Whether the puzzle has exactly one solution (status SOLVED), and that solution: the
    caller's ``solution``, proved already, else proved here within ``limits``' time and search
    nodes (UNKNOWN where they run out)."""
    human_rules(board)
    if solution is not None:
        return SolveStatus.SOLVED, solution
    if limits is None:
        result = solver.count(board, 2)
    else:
        result = solver.count(board, 2, time_limit=limits.time_limit, node_limit=limits.node_limit)
    return result.status, result.board


#: per thread, the kernel's scratch state and step record by shape (rate_many resets them for
#: every board): allocating them cost a sixth of rating an easy 9x9
_local = threading.local()


def _scratch(shape: Shape) -> tuple[Any, Any]:
    cache = getattr(_local, "scratch", None)
    if cache is None:
        cache = _local.scratch = {}
    found = cache.get(shape)
    if found is None:
        kernels = engines.logic_kernels()
        found = cache[shape] = (
            kernels.core.new_state(shape.cells, shape.size, len(shape.houses)),
            kernels.core.new_step(shape.cells, shape.size, len(shape.houses)),
        )
    return found


#: steps between two looks at the clock under a deadline, work of about a cell each (a step
#: on a 16x16 board takes about 10 ms: a rating with a time limit stops within about 0.15 s)
SLICE_WORK = 4096


def _rate_boards(
    puzzles: np.ndarray, solutions: np.ndarray, shape: Shape, order: np.ndarray = ORDER,
    deadline: float | None = None,
) -> tuple[np.ndarray, np.ndarray, int]:
    """The kernel's per-technique step counts and step totals for rows of givens, and how many
    rows were rated in full: all of them, or under a ``deadline`` (a ``time.perf_counter()``
    reading) those before the one the deadline came in."""
    counts = np.zeros((len(puzzles), technique_ids.KINDS), dtype=np.int64)
    taken = np.zeros(len(puzzles), dtype=np.int64)
    if deadline is not None and not warming.ready("hodoku", deadline):
        return counts, taken, 0  # still compiling at the deadline: nothing rated, as if cut short
    kernels = engines.logic_kernels()
    state, step = _scratch(shape)
    puzzles = np.ascontiguousarray(puzzles, dtype=np.int32)
    solutions = np.ascontiguousarray(solutions, dtype=np.int32)
    solver = kernels.solver
    ctl = np.zeros(solver.RC_SLOTS, dtype=np.int64)
    ctl[solver.RC_MAX_STEPS] = shape.cells * shape.size + shape.cells
    ctl[solver.RC_SLICE] = 0 if deadline is None else max(1, SLICE_WORK // shape.cells)
    while True:
        row = int(solver.rate_many(puzzles, solutions, geometry(shape), order, state, step, counts, taken, ctl))
        if row >= len(puzzles) or (deadline is not None and time.perf_counter() >= deadline):
            return counts, taken, row
        ctl[solver.RC_FIRST] = row
        ctl[solver.RC_RESUME] = 1


def _rating(puzzle: Board, counts: np.ndarray, steps: int, elapsed: float) -> Rating:
    used = [int(kind) for kind in np.flatnonzero(counts)]
    score = sum(BY_ID[kind].score * int(counts[kind]) for kind in used)
    return Rating(
        status=SolveStatus.SOLVED,
        puzzle=puzzle,
        level=level_of(used, score),
        score=score,
        techniques={BY_ID[kind].name: int(counts[kind]) for kind in used},
        solved=BRUTE_FORCE.id not in used,
        steps=steps,
        elapsed=elapsed,
    )


def _with_se(rating: Rating, board: Board, budget: Limits | None) -> Rating:
    """The rating with Sudoku Explainer's ER/EP/ED added (the boards SE's scale takes only)."""
    if not SE.takes(board):
        return rating
    result = se.rate_board(board, budget)
    rated = replace(rating, er=result.er, ep=result.ep, ed=result.ed, se_status=result.status,
                    elapsed=rating.elapsed + result.elapsed)
    # SE's rating alone (no HoDoKu pass): solved and steps say how SE's path went
    return rated if rating.level is not None else replace(rated, solved=result.solved, steps=result.steps)


def _less_time(limits: Limits, spent: float) -> Limits:
    """``limits`` with ``spent`` seconds taken off its time limit (what is left for SE)."""
    if limits.time_limit is None:
        return limits
    return replace(limits, time_limit=max(0.0, limits.time_limit - spent))


def rate(
    puzzle: Any,
    *,
    shape: ShapeLike | None = None,
    scale: str | Scale = "hodoku",
    time_limit: float | None = None,
    node_limit: int | None = None,
    potential_limit: int | None = None,
    solution: Board | None = None,
) -> Rating:
    """How hard a puzzle is, on HoDoKu's scale (by default, as ``sudokit rate``) or (9x9)
    Sudoku Explainer's (see :class:`Rating`). ``scale``: ``"hodoku"``, ``"se"`` or ``"all"``
    (both), or one of :mod:`~sudokit.logic.scales`' objects. The budgets, per puzzle:
    ``time_limit`` (seconds) bounds the whole rating, ``node_limit`` (search nodes) the proof
    that the puzzle has one solution, and ``potential_limit`` (potentials its chains may
    process) SE's rating, whose hardest puzzles take minutes. A proof cut short makes the
    rating's status unknown; SE's rating cut short makes ``se_status`` unknown. With
    ``scale="all"`` and no time or potential budget, SE gets ``SE_DEFAULT_WORK`` potentials (a
    few seconds); with ``scale="se"`` it gets what it needs. ``solution``: the puzzle's one solution where the
    caller proved it already (``solver.count(puzzle, 2)``), which spares proving it again; a
    wrong one gives a wrong rating.

    >>> rating = rate(".2738..1..1...6735.......293.5692.8...........6.1745.364.......9518...7..8..6534.", scale="all")
    >>> rating.level.value, rating.score, rating.se
    ('easy', 180, '1.2/1.2/1.2')
    """
    rating_scale = scale_of(scale)
    limits = checked_limits(1, time_limit, node_limit, potential_limit)
    board = as_board(puzzle, shape)
    human_rules(board, marks=False)
    start = time.perf_counter()
    status, found = _unique(board, solution, limits)
    if status is not SolveStatus.SOLVED:
        return Rating(status, board, None, None, elapsed=time.perf_counter() - start)
    budget = rating_scale.budget(_less_time(limits, time.perf_counter() - start))
    assert found is not None
    if rating_scale.hodoku:
        deadline = None if limits.time_limit is None else start + limits.time_limit
        counts, taken, done = _rate_boards(board.cells[None, :], found.cells[None, :], board.shape, deadline=deadline)
        if not done:  # the time limit came first: HoDoKu's scale is not known, nor SE's
            return Rating(SolveStatus.UNKNOWN, board, None, None, elapsed=time.perf_counter() - start)
        rating = _rating(board, counts[0], int(taken[0]), time.perf_counter() - start)
    else:
        rating = Rating(SolveStatus.SOLVED, board, None, None, elapsed=time.perf_counter() - start)
    return _with_se(rating, board, budget) if rating_scale.se else rating


@functools.cache
def _order_up_to(level: Level) -> tuple[np.ndarray, np.ndarray] | None:
    """The solving order cut to the techniques of ``level`` or easier, and those of them that
    come after a harder one in the full order (hard's Simple and Multi Colors, after an unfair
    fish; none for the other levels); None where no technique is harder than ``level``."""
    head = 0
    while head < len(SOLVING_ORDER) and SOLVING_ORDER[head].level.rank <= level.rank:
        head += 1
    if head == len(SOLVING_ORDER):
        return None
    kept = [technique.id for technique in SOLVING_ORDER if technique.level.rank <= level.rank]
    late = [technique.id for technique in SOLVING_ORDER[head:] if technique.level.rank <= level.rank]
    return np.array(kept, dtype=np.int64), np.array(late, dtype=np.int64)


def rate_solved(
    puzzles: np.ndarray, solutions: np.ndarray, shape: Shape, up_to: Level | None = None,
    deadline: float | None = None,
) -> list[Rating | None]:
    """:func:`rate` for rows of givens whose one solution is already known (``solutions``,
    the same shape of array): no uniqueness search, one compiled call. For callers that
    proved uniqueness themselves, such as the generator; a wrong solution gives a wrong
    rating, so this is not for puzzles from outside.

    ``up_to``: a puzzle that needs a technique harder than that level is None, not rated in
    full. The techniques harder than it are left out of a first rating: a step is the first
    technique in the order that applies, so a path of techniques that all come before the
    first harder one is the path in full, and where no technique of the level applies, a
    harder one is needed. A path that used a technique after a harder one (see
    ``_order_up_to``) is rated again in full.

    ``deadline`` (a ``time.perf_counter()`` reading): the puzzles not rated when it comes get
    a rating whose status is unknown."""
    if not len(puzzles):
        return []
    start = time.perf_counter()
    cut = None if up_to is None else _order_up_to(up_to)
    finished = np.zeros(len(puzzles), dtype=np.bool_)
    if cut is None:
        counts, taken, done = _rate_boards(puzzles, solutions, shape, deadline=deadline)
        finished[:done] = True
        harder = np.zeros(len(puzzles), dtype=np.bool_)
    else:
        order, late = cut
        counts, taken, done = _rate_boards(puzzles, solutions, shape, order, deadline)
        finished[:done] = True
        went_late = counts[:, late].any(axis=1) & finished
        harder = (counts[:, BRUTE_FORCE.id] > 0) & ~went_late & finished
        again = np.flatnonzero(went_late)
        if len(again):
            counts[again], taken[again], done = _rate_boards(puzzles[again], solutions[again], shape, deadline=deadline)
            finished[again[done:]] = False
    elapsed = (time.perf_counter() - start) / len(puzzles)
    symbols = Board.empty(shape).symbols
    ratings: list[Rating | None] = []
    for k, row in enumerate(puzzles):
        board = Board._trusted(np.array(row, dtype=np.uint8), shape, symbols)
        if not finished[k]:
            ratings.append(Rating(SolveStatus.UNKNOWN, board, None, None, elapsed=elapsed))
        else:
            ratings.append(None if harder[k] else _rating(board, counts[k], int(taken[k]), elapsed))
    return ratings


def rate_batch(
    puzzles: Sequence[Any] | np.ndarray,
    *,
    shape: ShapeLike | None = None,
    workers: int | None = None,
    chunk_size: int = 256,
    scale: str | Scale = "hodoku",
    time_limit: float | None = None,
    node_limit: int | None = None,
    potential_limit: int | None = None,
) -> list[Rating]:
    """:func:`rate` for many puzzles of one shape, on ``workers`` threads (default: every CPU;
    the kernels release the GIL). Puzzles are one-line strings, boards or an ``(N, cells)``
    array; a puzzle that cannot be read raises :class:`sudokit.FormatError` as ``rate`` does.
    ``scale`` and the budgets as for :func:`rate`, per puzzle: the proofs of uniqueness run as
    one batch, each puzzle within ``time_limit`` and ``node_limit``, and SE's rating of each
    gets what is left of ``time_limit`` after its share of the batch's proof."""
    rating_scale = scale_of(scale)
    limits = checked_limits(1, time_limit, node_limit, potential_limit)
    known = Shape.of(shape)
    boards = [Board(row, known) for row in puzzles] if isinstance(puzzles, np.ndarray) else [as_board(p, known) for p in puzzles]
    for board in boards:
        human_rules(board, marks=False)
    if not boards:
        return []
    shape = boards[0].shape
    if any(board.shape != shape for board in boards):
        raise ValueError("rate_batch takes puzzles of one shape")
    start = time.perf_counter()
    values = np.stack([board.cells for board in boards])
    unique = solve_batch(values, limit=2, shape=shape, time_limit=time_limit, node_limit=node_limit)
    # what is left of each puzzle's time for its rating: the batch's proof, shared out
    remaining = _less_time(limits, (time.perf_counter() - start) / len(boards))
    budget = rating_scale.budget(remaining)
    ratable = np.flatnonzero(unique.unique)
    rated = np.ones(len(boards), dtype=np.bool_)  # not cut short by the time limit
    counts = np.zeros((len(boards), 0), dtype=np.int64)
    taken = np.zeros(len(boards), dtype=np.int64)
    threads = workers or engines.cpus()
    if len(ratable) and rating_scale.hodoku:
        chunks = [ratable[i : i + chunk_size] for i in range(0, len(ratable), chunk_size)]
        left = remaining.time_limit

        def run(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
            if left is None:
                c, t, _ = _rate_boards(values[rows], unique.solutions[rows], shape)
                return rows, c, t, np.ones(len(rows), dtype=np.bool_)
            parts = [_rate_boards(values[[r]], unique.solutions[[r]], shape, deadline=time.perf_counter() + left)
                     for r in rows]
            return (rows, np.concatenate([c for c, _, _ in parts]), np.concatenate([t for _, t, _ in parts]),
                    np.array([done == 1 for _, _, done in parts], dtype=np.bool_))

        parts = thread_map(run, chunks, threads, "sudokit-rate")
        counts = np.zeros((len(boards), parts[0][1].shape[1]), dtype=np.int64)
        for rows, c, t, finished in parts:
            counts[rows] = c
            taken[rows] = t
            rated[rows] = finished
    elapsed = (time.perf_counter() - start) / len(boards)
    ratings = []
    for k, board in enumerate(boards):
        if unique.unique[k] and not rated[k]:  # the time limit came first
            ratings.append(Rating(SolveStatus.UNKNOWN, board, None, None, elapsed=elapsed))
        elif unique.unique[k]:
            if rating_scale.hodoku:
                ratings.append(_rating(board, counts[k], int(taken[k]), elapsed))
            else:
                ratings.append(Rating(SolveStatus.SOLVED, board, None, None, elapsed=elapsed))
        else:
            status = SolveStatus(unique.status(k))
            ratings.append(Rating(status, board, None, None, elapsed=elapsed))
    if len(ratable) and rating_scale.rates_se(boards[0]):
        def run_se(k: int) -> Rating:
            return _with_se(ratings[k], boards[k], budget)

        se_rows = [k for k in ratable.tolist() if rated[k]]
        done = thread_map(run_se, se_rows, threads, "sudokit-se")
        for k, rating in zip(se_rows, done):
            ratings[k] = rating
    return ratings


def explain_se(
    puzzle: Any,
    *,
    shape: ShapeLike | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    potential_limit: int | None = None,
) -> SEExplanation:
    """The steps Sudoku Explainer's policy takes on a 9x9 puzzle, each with its rating, and
    its ER/EP/ED; within the budgets, as for :func:`rate`."""
    limits = checked_limits(1, time_limit, node_limit, potential_limit)
    board = as_board(puzzle, shape)
    SE.check(board)
    start = time.perf_counter()
    status, _ = _unique(board, None, limits)
    if status is not SolveStatus.SOLVED:
        return SEExplanation(status, board, (), None)
    steps, result = se.explain_board(board, SE.budget(_less_time(limits, time.perf_counter() - start)))
    return SEExplanation(result.status, board, steps, result)


def explain(
    puzzle: Any,
    *,
    shape: ShapeLike | None = None,
    solution: Board | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
) -> Explanation:
    """Every step of a human-style solution, each the easiest available (HoDoKu's order of
    techniques), until the puzzle is solved or no technique applies; never a guess.
    ``solution`` as for :func:`rate` (the rating takes the one proved here otherwise);
    ``time_limit`` and ``node_limit`` bound that proof (a proof cut short: status unknown, no
    steps). The steps themselves take milliseconds and run to the end."""
    board = as_board(puzzle, shape)
    status, found = _unique(board, solution, checked_limits(1, time_limit, node_limit))
    rateable = status is SolveStatus.SOLVED and board.candidates is None  # marks: unrated
    rating = rate(board, scale=HODOKU, solution=found) if rateable else Rating(status, board, None, None)
    if status is not SolveStatus.SOLVED:
        return Explanation(status, board, (), board, False, rating)
    grid = CandidateGrid(board)
    order = order_for(board)
    steps = []
    while not grid.solved:
        step = grid.next_step(order)
        if step is None:
            break
        steps.append(step)
        grid.apply(step)
    return Explanation(SolveStatus.SOLVED, board, tuple(steps), grid.to_board(), grid.solved, rating)


def hint(
    state: Any,
    *,
    candidates: Sequence[Iterable[int]] | np.ndarray | None = None,
    shape: ShapeLike | None = None,
    solution: Board | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
) -> Step | None:
    """The easiest next step on a board, or on a board with the player's own candidates
    (``candidates``: one collection of values per cell, or a mask per cell with bit ``v - 1``
    for value ``v``). None when the board is complete or no technique applies.

    Raises :class:`NotUnique` for a puzzle without exactly one solution, or whose proof of one
    ran past ``time_limit`` seconds or ``node_limit`` search nodes (status ``UNKNOWN``), and
    ``ValueError`` naming the cell where the candidates leave out a given or the solution's
    value. ``solution`` as for :func:`rate`. The step itself takes milliseconds."""
    board = as_board(state, shape)
    status, found = _unique(board, solution, checked_limits(1, time_limit, node_limit))
    if status is not SolveStatus.SOLVED:
        raise NotUnique(status, board)
    assert found is not None
    marks = None if candidates is None else _marks(board, candidates, found)
    if marks is not None and board.candidates is not None:
        marks &= board.candidates  # the player's marks within the puzzle's own
    grid = CandidateGrid(board, marks=marks)
    if grid.solved:
        return None
    return grid.next_step(order_for(board))


def _marks(board: Board, candidates: Sequence[Iterable[int]] | np.ndarray, solution: Board) -> np.ndarray:
    """Candidate masks from a player's marks, checked against the givens and the solution."""
    n = board.size
    if isinstance(candidates, np.ndarray) and candidates.dtype.kind in "iu" and candidates.ndim == 1:
        masks = candidates.astype(np.uint64)
    else:
        rows = list(candidates)
        masks = np.zeros(len(rows), dtype=np.uint64)
        for cell, values in enumerate(rows):
            for value in values:
                if not 1 <= int(value) <= n:
                    raise ValueError(f"r{cell // n + 1}c{cell % n + 1}: candidate {value} is not a value of a {n}x{n} board")
                masks[cell] |= np.uint64(1 << (int(value) - 1))
    if len(masks) != board.shape.cells:
        raise ValueError(f"{len(masks)} cells of candidates for a board of {board.shape.cells} cells")
    for cell in range(board.shape.cells):
        name = f"r{cell // n + 1}c{cell % n + 1}"
        value = int(board.cells[cell])
        if value:
            if masks[cell] and not int(masks[cell]) >> (value - 1) & 1:
                raise ValueError(f"{name}: the candidates leave out the given {board.symbols[value - 1]}")
            masks[cell] = np.uint64(1 << (value - 1))
            continue
        truth = int(solution.cells[cell])
        if not int(masks[cell]) >> (truth - 1) & 1:
            raise ValueError(f"{name}: the candidates leave out {board.symbols[truth - 1]}, the cell's value in the solution")
    return masks


#: an easy puzzle (``rate``'s example), rated to compile (or load) the rating kernels
_EASY = ".2738..1..1...6735.......293.5692.8...........6.1745.364.......9518...7..8..6534."


def _warm() -> None:
    """Compile (or load) the rating kernels: an easy 9x9 rated with no deadline."""
    board = as_board(_EASY)
    _, found = _unique(board)
    assert found is not None
    _rate_boards(board.cells[None, :], found.cells[None, :], board.shape)


# HoDoKu's kernels compile in minutes where neither the build nor a cache holds them: on a
# thread of their own, so that a rating with a time limit keeps it
warming.register("hodoku", "HoDoKu's technique kernels",
                 lambda: engines.compiles_on_first_call(engines.logic_kernels().solver.rate_many), _warm, __name__)
