"""Generating puzzles: unique, minimal, symmetric, at a chosen difficulty, for every shape.

A puzzle is made in three steps, the first two compiled (``kernels/search/generate.py``):

1. *A full grid*: a randomized depth-first search on an empty board (the cell with the fewest
   values left, ties drawn at random; its values in a random order; from 17x17 up the general
   kernel's search with random values, whose rules see dead ends coming), then a uniformly
   random relabelling of the values and permutation of the bands, the stacks, the rows in
   each band and the columns in each stack (and a transposition, with square boxes). The
   transformation makes the grids of an equivalence class equally likely; how likely each
   class is, the search decides, and that is biased: over 28,800 grids of 4x4 the chi-square
   statistic is 1,061 on 287 degrees of freedom (uniform draws give 287 +- 24). ``mixing``
   adds Gibbs moves to each grid: a random set of cells is erased and drawn again uniformly
   among its completions (counted by the solver, up to ``MIX_CAP``; a move whose count costs
   more than ``MIX_WORK`` stays put), a chain whose stationary distribution is the uniform
   one; on 4x4 one move is an exact draw (chi-square 291). Each move costs about 6x a grid on
   9x9; the default, 0, keeps generation fast.
2. *Carving*: the givens go orbit by orbit (an orbit is a set of cells the symmetry maps onto
   each other; one cell without symmetry), in a random order, each time the solution stays
   unique, proven by a search. One pass leaves a puzzle from which no orbit can go: without
   symmetry that proves it minimal, no given can go. A symmetric puzzle is minimal as a
   symmetric puzzle (no orbit can go); ``minimal="strict"`` also tries every given alone and
   keeps only puzzles from which none can go (rare: a few in 10,000 with dihedral symmetry).
3. *Filters*: ``clues`` (at most that many givens), ``level`` and ``score`` (HoDoKu's scale,
   through the human-style rating); a puzzle that misses them is drawn again.

Drawing again stops at a budget (``attempts`` puzzles carved per puzzle asked for, and
``time_limit`` seconds in all): a target that is rare or out of reach raises
:class:`GenerationError`, which says how close the draws came, rather than looping forever.

Randomness comes from one seed: draws are made in rounds of a fixed size, round ``r`` from
``numpy.random.default_rng([seed, r])``, and puzzles come out in round order, so a seed gives
the same puzzles whatever the number of ``workers`` (threads: the kernels release the GIL).
"""

from __future__ import annotations

import functools
import itertools
import os
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator

import numpy as np

from . import engines, solver, warming
from .board import Board
from .logic.human import rate_solved
from .logic.techniques import Level
from .results import SolveStatus
from .shape import Shape
from .threads import thread_pool

if TYPE_CHECKING:
    from concurrent.futures import Future

#: the symmetries a puzzle's pattern of givens may have, each as the maps it is closed under
SYMMETRIES = ("none", "rot180", "rot90", "mirror", "flip", "diagonal", "antidiagonal", "dihedral")

#: puzzles carved at most, per puzzle asked for, before a GenerationError
DEFAULT_ATTEMPTS = 10_000

#: the biggest board size whose grids come from the bare random fill (bigger ones from the
#: general kernel's search: on 25x25 the fill ran out of 31k nodes on half its draws)
FILL_UP_TO = 16

#: a Gibbs move counts the completions of its erased cells up to this many, and stays put
#: where there are more, or where counting them takes more than MIX_WORK search nodes x cells
#: (a bound on a move's time, which a time limit checks between moves; see benchmarks/README.md)
MIX_CAP = 1024
MIX_WORK = 1 << 22

#: nodes a uniqueness search may take in the carving kernel (off 9x9) before the step goes
#: to ``solver.count``, whose engine learns clauses on hard big boards
CHECK_NODES = 20_000
#: under a time limit, a carve call hands back after about this many search nodes x cells
#: (a node costs about its board's cells; 25x25: 800 nodes, a small part of a second, where a
#: whole carve takes a minute or more), and a search longer than that is settled in Python
SLICE_WORK = 500_000


class GenerationError(RuntimeError):
    """The budget ran out before enough puzzles met the targets.

    ``puzzles`` holds those that did, ``attempts`` the puzzles carved, and ``closest`` what
    the draws came nearest to: the fewest givens seen, and the levels and score range rated.
    """

    def __init__(self, message: str, puzzles: list[Board], attempts: int, closest: dict[str, Any]) -> None:
        super().__init__(message)
        self.puzzles = puzzles
        self.attempts = attempts
        self.closest = closest


@dataclass(frozen=True)
class _Request:
    """What a caller asked for, checked once."""

    shape: Shape
    symmetry: str
    clues: int | None
    minimal: bool
    strict: bool  #: minimal cell by cell even with symmetry (``minimal="strict"``)
    levels: frozenset[Level] | None
    score: tuple[int | None, int | None] | None
    entropy: int
    mixing: int
    orbit_start: np.ndarray = field(repr=False)
    orbit_cells: np.ndarray = field(repr=False)

    @property
    def rated(self) -> bool:
        return self.levels is not None or self.score is not None


@dataclass
class _Tally:
    """What the draws came to, for the budget and for a GenerationError's report."""

    attempts: int = 0
    fewest: int | None = None
    levels: dict[str, int] = field(default_factory=dict)
    scores: list[int] = field(default_factory=list)

    def closest(self) -> dict[str, Any]:
        scores = (min(self.scores), max(self.scores)) if self.scores else None
        return {"fewest_givens": self.fewest, "levels": dict(self.levels), "scores": scores}


def _shape_of(shape: Shape | str | int) -> Shape:
    if isinstance(shape, Shape):
        return shape
    if isinstance(shape, (int, np.integer)):
        return Shape.for_size(int(shape))
    return Shape.parse(str(shape))


def _levels_of(level: Any) -> frozenset[Level] | None:
    """``level``: a Level or its name, ``'hard+'`` for that level and above, or several."""
    if level is None:
        return None
    if isinstance(level, (Level, str)):
        text = level.value if isinstance(level, Level) else str(level).strip().lower()
        if text.endswith("+"):
            lowest = Level(text[:-1])
            return frozenset(item for item in Level if item.rank >= lowest.rank)
        try:
            return frozenset([Level(text)])
        except ValueError:
            names = ", ".join(item.value for item in Level)
            raise ValueError(f"level must be one of {names} (or 'hard+' and the like), not {level!r}") from None
    levels: set[Level] = set()
    for item in level:
        found = _levels_of(item)
        assert found is not None
        levels |= found
    return frozenset(levels)


def _score_of(score: Any) -> tuple[int | None, int | None] | None:
    if score is None:
        return None
    if isinstance(score, str):
        low, _, high = score.partition("-")
        try:
            score = (int(low) if low.strip() else None, int(high) if high.strip() else None)
        except ValueError:
            raise ValueError(f"score must be 'LOW-HIGH', 'LOW-' or '-HIGH' (HoDoKu's score), not {score!r}") from None
    try:
        low, high = score
    except (TypeError, ValueError):
        raise ValueError(f"score must be a (low, high) pair, either end None for open, not {score!r}") from None
    if low is not None and high is not None and low > high:
        raise ValueError(f"score range ({low}, {high}) is empty")
    return (low, high)


def orbits(shape: Shape, symmetry: str) -> list[list[int]]:
    """The cells of ``shape`` grouped into the orbits of ``symmetry``: the cell sets the
    symmetry maps onto each other, which a symmetric pattern holds all or none of."""
    n = shape.size
    maps = {
        "rot180": [lambda r, c: (n - 1 - r, n - 1 - c)],
        "rot90": [lambda r, c: (c, n - 1 - r)],
        "mirror": [lambda r, c: (r, n - 1 - c)],
        "flip": [lambda r, c: (n - 1 - r, c)],
        "diagonal": [lambda r, c: (c, r)],
        "antidiagonal": [lambda r, c: (n - 1 - c, n - 1 - r)],
        "dihedral": [lambda r, c: (c, n - 1 - r), lambda r, c: (r, n - 1 - c)],
        "none": [],
    }[symmetry]
    seen = [False] * shape.cells
    found = []
    for cell in range(shape.cells):
        if seen[cell]:
            continue
        orbit, todo = [], [cell]
        seen[cell] = True
        while todo:
            here = todo.pop()
            orbit.append(here)
            for move in maps:
                r, c = move(*divmod(here, n))
                there = r * n + c
                if not seen[there]:
                    seen[there] = True
                    todo.append(there)
        found.append(sorted(orbit))
    return found


@functools.lru_cache(maxsize=64)
def _orbit_arrays(shape: Shape, symmetry: str) -> tuple[np.ndarray, np.ndarray]:
    """``orbits`` as the kernel reads them: where each orbit starts, and the cells in a row."""
    groups = orbits(shape, symmetry)
    start = np.zeros(len(groups) + 1, dtype=np.int64)
    start[1:] = np.cumsum([len(group) for group in groups])
    cells = np.array([cell for group in groups for cell in group], dtype=np.int64)
    start.setflags(write=False)
    cells.setflags(write=False)
    return start, cells


def _request(shape, symmetry, clues, minimal, level, score, seed, mixing=0) -> _Request:
    board_shape = _shape_of(shape)
    name = "none" if symmetry is None else str(symmetry).strip().lower()
    if name not in SYMMETRIES:
        raise ValueError(f"symmetry must be one of {', '.join(SYMMETRIES)}, not {symmetry!r}")
    if minimal not in (True, False, "strict"):
        raise ValueError(f"minimal must be True, False or 'strict', not {minimal!r}")
    if clues is not None and (not isinstance(clues, (int, np.integer)) or isinstance(clues, bool) or clues < 1):
        raise ValueError(f"clues must be a positive number of givens, not {clues!r}")
    start, cells = _orbit_arrays(board_shape, name)
    if seed is None:
        entropy = int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]
    elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and seed >= 0:
        entropy = int(seed)
    else:
        raise ValueError(f"seed must be a non-negative integer or None, not {seed!r}")
    return _Request(
        board_shape, name, None if clues is None else int(clues), bool(minimal), minimal == "strict",
        _levels_of(level), _score_of(score), entropy, _mixing(mixing), start, cells,
    )  # fmt: skip


def _round_size(shape: Shape, index: int) -> int:
    """Puzzles carved in round ``index``: 1, 2, 4, ... up to a cap, so that one puzzle asked
    for waits for one draw, and a stream pays for a kernel call over many."""
    cap = 32 if shape.size <= 9 else 4 if shape.size <= 16 else 1
    return min(cap, 1 << min(index, 10))


def _permutations(rng: np.random.Generator, count: int, groups: int, width: int) -> np.ndarray:
    """``count`` random maps of ``groups * width`` lines: the groups permuted, and the lines
    within each group permuted (bands and their rows, or stacks and their columns)."""
    order = rng.permuted(np.tile(np.arange(groups), (count, 1)), axis=1)
    inner = rng.permuted(np.tile(np.arange(width), (count * groups, 1)), axis=1).reshape(count, groups, width)
    return (order[:, :, None] * width + inner).reshape(count, groups * width)


def _random_grids(
    rng: np.random.Generator, shape: Shape, count: int, mixing: int = 0, transform: bool = True,
    deadline: float | None = None,
) -> np.ndarray | None:
    """``count`` full grids, ``(count, cells)`` uint8: drawn by the kernel's randomized
    search (see the module's docstring), then, with ``transform``, each moved by a random
    relabelling and a random permutation of bands, stacks, rows and columns, then ``mixing``
    Gibbs moves (``kernels.search.generate.mix``). None if the ``deadline`` passes first."""
    n, h, w = shape.size, shape.box_height, shape.box_width
    kernel, _ = engines.generation_kernel(shape)
    geometry = shape.geometry
    full = np.uint64((1 << n) - 1)
    raw = np.zeros((count, shape.cells), dtype=np.uint8)
    done = np.zeros(count, dtype=np.bool_)
    while not done.all():  # a search that ran out of nodes draws again with another seed
        if deadline is not None and time.perf_counter() >= deadline:
            return None
        left = np.flatnonzero(~done)
        part = np.zeros((len(left), shape.cells), dtype=np.uint8)
        ok = np.zeros(len(left), dtype=np.bool_)
        seeds = rng.integers(1, 2**62, size=len(left))
        if n <= FILL_UP_TO:
            kernel.random_grids(geometry.cell_houses, len(geometry.houses), full, seeds, 50 * shape.cells, part, ok)
        else:
            kernel.searched_grids(geometry.houses, geometry.cell_houses, full, seeds, 50 * shape.cells, part, ok)
        raw[left[ok]] = part[ok]
        done[left[ok]] = True
    if not transform:
        return raw
    rows = _permutations(rng, count, n // h, h)
    cols = _permutations(rng, count, n // w, w)
    transpose = rng.integers(0, 2, size=count).astype(np.bool_) if h == w else np.zeros(count, dtype=np.bool_)
    relabel = np.zeros((count, n + 1), dtype=np.uint8)
    relabel[:, 1:] = rng.permuted(np.tile(np.arange(1, n + 1, dtype=np.uint8), (count, 1)), axis=1)
    grids = np.zeros_like(raw)
    kernel.transform(raw, rows, cols, transpose, relabel, grids)
    if mixing:
        states = rng.integers(1, 2**62, size=count).astype(np.uint64) | np.uint64(1)
        if not _mix(kernel, shape, grids, states, mixing, deadline):
            return None
    return grids


def _mix(kernel: Any, shape: Shape, grids: np.ndarray, states: np.ndarray, moves: int, deadline: float | None) -> bool:
    """``moves`` Gibbs moves on each grid (``kernel.mix``); under a ``deadline``, grid by grid
    in calls of a few moves, checking it between calls (the random states and the erasing's
    permutation carry over, so the moves are the same). False if the deadline passes first."""
    geometry = shape.geometry
    full = np.uint64((1 << shape.size) - 1)
    node_cap = max(1, MIX_WORK // shape.cells)
    index = np.arange(shape.cells, dtype=np.int64)
    if deadline is None:
        kernel.mix(geometry.houses, geometry.cell_houses, full, states, moves, MIX_CAP, node_cap, index, grids)
        return True
    step = 1
    for k in range(len(grids)):
        done = 0
        while done < moves:
            started = time.perf_counter()
            if started >= deadline:
                return False
            take = min(step, moves - done)
            kernel.mix(geometry.houses, geometry.cell_houses, full, states[k : k + 1], take, MIX_CAP, node_cap, index, grids[k : k + 1])
            done += take
            if time.perf_counter() - started < 0.02:
                step *= 2
    return True


def full_grids(count: int = 1, *, shape: Shape | str | int = "9x9", mixing: int = 0, seed: int | None = None) -> list[Board]:
    """``count`` random full grids (solutions), drawn as the generator draws the grids it
    carves puzzles from (see the module's docstring for the method, its bias, and what
    ``mixing`` does about it)."""
    board_shape = _shape_of(shape)
    rng = np.random.default_rng(seed)
    symbols = Board.empty(board_shape).symbols
    grids = _random_grids(rng, board_shape, count, _mixing(mixing))
    assert grids is not None  # no deadline
    return [Board._trusted(row, board_shape, symbols) for row in grids]


def _mixing(mixing: Any) -> int:
    if not isinstance(mixing, (int, np.integer)) or isinstance(mixing, bool) or mixing < 0:
        raise ValueError(f"mixing must be a number of moves, 0 or more, not {mixing!r}")
    return int(mixing)


def _draw_round(
    request: _Request, index: int, deadline: float | None = None
) -> tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray]:
    """Round ``index``: carve its puzzles. Returns the ``(puzzle, solution)`` pairs that meet
    the carving targets (unique, minimal, clues), and the givens of every puzzle carved (none
    when the ``deadline``, a ``time.perf_counter()`` reading, passed before the carve ended)."""
    shape = request.shape
    if not warming.ready("search.generate", deadline):
        return [], np.zeros(0, dtype=np.int64)
    size = _round_size(shape, index)
    rng = np.random.default_rng([request.entropy, index])
    kernel, kind = engines.generation_kernel(shape)
    geometry = shape.geometry
    full = np.uint64((1 << shape.size) - 1)
    grids = _random_grids(rng, shape, size, request.mixing, deadline=deadline)
    if grids is None:
        return [], np.zeros(0, dtype=np.int64)
    n_orbits = len(request.orbit_start) - 1
    order = rng.permuted(np.tile(np.arange(n_orbits, dtype=np.int64), (size, 1)), axis=1)
    target = 0 if request.minimal or request.clues is None else request.clues
    puzzles = np.zeros_like(grids)
    flags = np.zeros(size, dtype=np.int64)
    nodes = np.zeros(size, dtype=np.int64)
    resume = np.zeros(size, dtype=np.int64)
    check_cells = request.strict and n_orbits < shape.cells
    slice_nodes = 0 if deadline is None else max(100, SLICE_WORK // shape.cells)
    search_nodes = CHECK_NODES if deadline is None else min(CHECK_NODES, slice_nodes)
    while True:
        kernel.carve(
            kind, grids, (geometry.houses, geometry.cell_houses, full), (request.orbit_start, request.orbit_cells, order),
            target, check_cells, search_nodes, slice_nodes, resume, (puzzles, flags, nodes),
        )  # fmt: skip
        paused = np.flatnonzero(resume >= 0)
        if not len(paused):
            break
        if deadline is not None and time.perf_counter() >= deadline:
            return [], np.zeros(0, dtype=np.int64)
        for k in paused.tolist():
            if flags[k] & kernel.SLICED:
                flags[k] &= ~kernel.SLICED  # its slice ended: on from resume[k]
                continue
            go_on = _settle(request, kernel, order[k], int(resume[k]), puzzles[k], flags, k, deadline)
            if go_on is None:
                return [], np.zeros(0, dtype=np.int64)
            resume[k] = resume[k] + 1 if go_on else -1
    givens = np.count_nonzero(puzzles, axis=1)
    kept = []
    for k in range(size):
        if not flags[k] & kernel.UNIQUE:
            continue
        if request.minimal and not flags[k] & kernel.MINIMAL:
            continue
        if request.strict and request.symmetry != "none" and not flags[k] & kernel.CELL_MINIMAL:
            continue
        if request.clues is not None and givens[k] > request.clues:
            continue
        kept.append((puzzles[k], grids[k]))
    return kept, givens


def _settle(request: _Request, kernel: Any, order: np.ndarray, step: int, puzzle: np.ndarray,
            flags: np.ndarray, k: int, deadline: float | None = None) -> bool | None:
    """Carving step ``step`` of one grid, whose uniqueness search ran past the kernel's node
    budget: asked again of ``solver.count``, whose engine hands hard big boards to clause
    learning. Takes the cells out for good, or (a given that could go alone, in the check
    after the pass) clears the puzzle's MINIMAL flag. Returns whether carving goes on; None
    when the ``deadline`` passed first."""
    n_orbits = len(request.orbit_start) - 1
    if step < n_orbits:
        orbit = int(order[step])
        cells = request.orbit_cells[request.orbit_start[orbit] : request.orbit_start[orbit + 1]]
    else:
        cells = np.array([step - n_orbits])
    trial = puzzle.copy()
    trial[cells] = 0
    board = Board._trusted(trial, request.shape, Board.empty(request.shape).symbols)
    left = None if deadline is None else max(0.0, deadline - time.perf_counter())
    status = solver.count(board, 2, time_limit=left).status
    if status is SolveStatus.UNKNOWN:
        return None
    if status is not SolveStatus.SOLVED:
        return True  # several solutions: the cells stay
    if step < n_orbits:
        puzzle[cells] = 0
        return True
    flags[k] &= ~kernel.CELL_MINIMAL  # a given that can go alone: no need to go on
    return False


def _round(
    request: _Request, index: int, deadline: float | None = None
) -> tuple[list[Board], int, np.ndarray, list[tuple[str, int | None]]]:
    """Round ``index`` in full: the puzzles that meet every target, how many were carved, the
    givens of each, and the (level, score) of each one rated."""
    kept, givens = _draw_round(request, index, deadline)
    shape = request.shape
    symbols = Board.empty(shape).symbols
    rated: list[tuple[str, int | None]] = []
    if request.rated and kept:
        hardest = None if request.levels is None else max(request.levels, key=lambda level: level.rank)
        ratings = rate_solved(np.stack([p for p, _ in kept]), np.stack([s for _, s in kept]), shape, up_to=hardest,
                              deadline=deadline)
        chosen = []
        for (puzzle, _), rating in zip(kept, ratings):
            if rating is None:  # needs a technique harder than any level asked for: not rated in full
                assert hardest is not None
                rated.append((f"above {hardest.value}", None))
                continue
            if rating.status is SolveStatus.UNKNOWN:  # the time limit came while it was rated
                continue
            assert rating.level is not None and rating.score is not None
            rated.append((rating.level.value, rating.score))
            if request.levels is not None and rating.level not in request.levels:
                continue
            if request.score is not None:
                low, high = request.score
                if (low is not None and rating.score < low) or (high is not None and rating.score > high):
                    continue
            chosen.append(puzzle)
    else:
        chosen = [puzzle for puzzle, _ in kept]
    boards = [Board._trusted(np.array(p, dtype=np.uint8), shape, symbols) for p in chosen]
    return boards, len(givens), givens, rated


def generate_iter(
    count: int | None = None,
    *,
    shape: Shape | str | int = "9x9",
    symmetry: str | None = None,
    clues: int | None = None,
    minimal: bool | str = True,
    level: Any = None,
    score: Any = None,
    seed: int | None = None,
    workers: int | None = 1,
    attempts: int | None = None,
    time_limit: float | None = None,
    mixing: int = 0,
) -> Iterator[Board]:
    """Puzzles as they are made, lazily; ``count`` None goes on until the caller stops (then
    the budget, ``attempts`` per puzzle asked for, counts for each puzzle in turn). See
    :func:`generate` for the arguments; a budget that runs out raises
    :class:`GenerationError` after the puzzles made so far were yielded."""
    request = _request(shape, symmetry, clues, minimal, level, score, seed, mixing)
    if count is not None and (not isinstance(count, (int, np.integer)) or count < 0):
        raise ValueError(f"count must be a non-negative number of puzzles, not {count!r}")
    per_puzzle = DEFAULT_ATTEMPTS if attempts is None else int(attempts)
    if per_puzzle < 1:
        raise ValueError(f"attempts must be at least 1, not {attempts!r}")
    threads = max(1, workers if workers is not None else cpu_workers())
    return _stream(request, count, per_puzzle, time_limit, threads)


#: where a stream starts: the next round, the puzzles made before it and the budget's tally
#: (``making.py`` resumes an interrupted stream from these)
Resume = tuple[int, int, "_Tally"]


def _stream(request: _Request, count: int | None, per_puzzle: int, time_limit: float | None, threads: int,
            pool: Any = None, resume: Resume | None = None,
            on_round: Callable[[int, int, _Tally], None] | None = None) -> Iterator[Board]:
    """The puzzles of rounds 0, 1, 2, ... in round order. ``pool``: anything with
    ``submit(function, *args)`` returning a future (a Dask client), else threads as asked.
    ``on_round(next round, puzzles made, tally)`` runs once a round's puzzles were taken."""
    first, before, tally = (0, 0, _Tally()) if resume is None else resume
    made: list[Board] = []
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    rounds = itertools.count(first)
    owned = pool is None and threads > 1
    if owned:
        pool = thread_pool(threads, "sudokit-generate")
    pending: deque[Future] = deque()

    def budget_left() -> bool:
        wanted = (before + len(made) + 1) if count is None else count
        return tally.attempts < per_puzzle * wanted and (deadline is None or time.perf_counter() < deadline)

    try:
        while count is None or before + len(made) < count:
            index = next(rounds)
            if pool is not None:
                while len(pending) < 2 * threads:
                    # a round's deadline is this process's clock: a Dask worker's rounds run whole
                    pending.append(pool.submit(_round, request, index + len(pending), deadline if owned else None))
                boards, carved, givens, rated = pending.popleft().result()
            else:
                boards, carved, givens, rated = _round(request, index, deadline)
            tally.attempts += carved
            if len(givens):
                low = int(givens.min())
                tally.fewest = low if tally.fewest is None else min(tally.fewest, low)
            for name, value in rated:
                tally.levels[name] = tally.levels.get(name, 0) + 1
                if value is not None:
                    tally.scores.append(value)
            for board in boards:
                if count is not None and before + len(made) >= count:
                    break
                made.append(board)
                yield board
            if on_round is not None:
                on_round(index + 1, before + len(made), tally)
            if (count is None or before + len(made) < count) and not budget_left():
                raise GenerationError(_why(request, tally, before + len(made), count, deadline), made, tally.attempts,
                                      tally.closest())
    finally:
        if pending:
            for future in pending:
                future.cancel()
        if owned:
            pool.shutdown(wait=True, cancel_futures=True)


def _why(request: _Request, tally: _Tally, made: int, count: int | None, deadline: float | None) -> str:
    wanted = "" if count is None else f" of {count}"
    spent = "time limit" if deadline is not None and time.perf_counter() >= deadline else f"{tally.attempts} attempts"
    targets = []
    if request.clues is not None:
        targets.append(f"at most {request.clues} givens (fewest seen: {tally.fewest})")
    if request.levels is not None:
        seen = ", ".join(f"{name} {number}" for name, number in sorted(tally.levels.items())) or "none rated"
        targets.append(f"level {'/'.join(sorted(level.value for level in request.levels))} (rated: {seen})")
    if request.score is not None:
        low, high = request.score
        seen_scores = f"{min(tally.scores)}-{max(tally.scores)}" if tally.scores else "none"
        targets.append(f"score {low if low is not None else ''}-{high if high is not None else ''} (seen: {seen_scores})")
    if request.strict and request.symmetry != "none":
        targets.append(f"minimal cell by cell with {request.symmetry} symmetry")
    what = "; ".join(targets) or "a unique puzzle"
    return f"made {made}{wanted} {request.shape.name} puzzles before the {spent} ran out: {what}"


def generate(
    count: int = 1,
    *,
    shape: Shape | str | int = "9x9",
    symmetry: str | None = None,
    clues: int | None = None,
    minimal: bool | str = True,
    level: Any = None,
    score: Any = None,
    seed: int | None = None,
    workers: int | None = 1,
    attempts: int | None = None,
    time_limit: float | None = None,
    mixing: int = 0,
) -> list[Board]:
    """``count`` new puzzles, each with exactly one solution (proven).

    ``shape``: ``"9x9"``, a board size, a box such as ``"2x3"``, or a :class:`Shape`.
    ``symmetry``: the pattern of givens is unchanged by ``rot180``, ``rot90``, ``mirror``
    (left-right), ``flip`` (up-down), ``diagonal``, ``antidiagonal`` or ``dihedral`` (all of
    them); None or ``"none"`` for no symmetry. ``clues``: at most that many givens.
    ``minimal``: True, no given can be taken out without losing uniqueness (with symmetry:
    no orbit of the symmetry can); ``"strict"``, no given alone either, symmetry or not;
    False, carving may stop as soon as ``clues`` is reached. All proven by search.
    ``level``: HoDoKu's level (``"hard"``, a Level, ``"hard+"`` for hard and above, or
    several); ``score``: a ``(low, high)`` range of HoDoKu's score (either end None).
    ``seed``: the same seed gives the same puzzles, for any ``workers`` (threads; None:
    every CPU). ``mixing``: Gibbs moves per full grid, towards uniform grids (see
    :mod:`sudokit.generator`).

    Raises :class:`GenerationError` when ``attempts`` carved puzzles per puzzle asked for
    (default :data:`DEFAULT_ATTEMPTS`) or ``time_limit`` seconds run out first.

    >>> [puzzle] = generate(seed=7)
    >>> puzzle.givens < 30
    True
    """
    return list(
        generate_iter(
            count, shape=shape, symmetry=symmetry, clues=clues, minimal=minimal, level=level,
            score=score, seed=seed, workers=workers, attempts=attempts, time_limit=time_limit,
            mixing=mixing,
        )  # fmt: skip
    )


def cpu_workers() -> int:
    """Threads ``workers=None`` means: every CPU, or ``$SUDOKIT_WORKERS``."""
    value = os.environ.get("SUDOKIT_WORKERS")
    return int(value) if value and value.isdigit() and int(value) > 0 else engines.cpus()


def _warm() -> None:
    """Compile (or load) the generation kernels: both ways of proving uniqueness (the classic
    kernel on 9x9, the general one elsewhere), and the grids of boards past ``FILL_UP_TO``."""
    for shape in ("4x4", "9x9"):
        generate(1, shape=shape, seed=1)
    full_grids(1, shape=Shape(4, 5), mixing=1, seed=1)


# a first carve compiles these for seconds: a time limit waits for that only until it runs out
warming.register("search.generate", "the generation kernels",
                 lambda: engines.compiles_on_first_call(engines.generation_kernel(Shape(2, 2))[0].carve), _warm, __name__)
