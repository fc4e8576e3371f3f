"""How many solutions a board too open to count has: :func:`estimate`, Knuth's estimator.

Each sample is one random probe down the search tree (``kernels/search/estimate.py``); its weight,
the product of the branching factors met (0 at a dead end), has the number of solutions as its
mean, exactly. The estimate is the mean of ``samples`` probes, and the interval the normal one
over their spread, at 95%: ``mean +- 1.96 * sd / sqrt(samples)``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import engines
from ..board import Board, as_board
from ..results import Limits
from ..shape import Shape

#: the most probes one estimate draws: their weights take 8 bytes each (800 MB here)
MAX_SAMPLES = 100_000_000
#: seconds a call of the kernel should take: the time limit and Ctrl-C are seen between calls,
#: and a call may end inside a probe (one probe of an open 64x64 takes 0.5 s)
SLICE_SECONDS = 0.05
#: propagations in the first call, before the board's pace is known (64 take 2.6 ms on an open
#: 64x64, 0.13 ms on a 9x9), and how much more than the last the next call may take
FIRST_STEPS = 64
GROWTH = 16
#: the importance sampling's tilt (``kernels/search/estimate.py``), off: on the empty 9x9 board it
#: narrows the spread (coefficient of variation 1.59 uniform, 0.83 at 0.2, 4,000 probes), but
#: on partial boards rare heavy probes go unseen and the interval misses (tdoku's board of 132
#: solutions, 300 probes: 90 of 100 seeded intervals held the count at 0.2, 100 at 0)
TILT = 0.0
#: nodes a depth-first search may take to count a subtree exactly (``kernels/search/estimate.py``)
EXACT_NODES = 64
#: the relative rounding of a weight kept as a logarithm, over a few hundred steps
ROUNDING = 1e-12
#: Chebyshev: any distribution puts at most 5% of its mass this many standard deviations or
#: more from its mean (1 / sqrt(0.05))
K95 = 4.47213595499958


@dataclass(frozen=True)
class Estimate:
    """An unbiased estimate of the number of solutions, with a 95% interval. ``value``,
    ``low`` and ``high`` are floats (``inf`` past 1.8e308: ``log10`` still holds the value)."""

    puzzle: Board
    value: float
    low: float
    high: float
    samples: int
    log10: float  #: log10 of ``value`` (-inf for 0)
    log10_low: float
    log10_high: float
    hits: int  #: probes that reached a solution
    seed: int | None
    elapsed: float = field(compare=False)

    @property
    def relative_error(self) -> float:
        """Half the interval's width over the value (0 for an exact answer, ``inf`` where the
        interval has no upper bound)."""
        if self.log10_high == math.inf:
            return math.inf
        if self.log10 == -math.inf:
            return 0.0
        return (10 ** (self.log10_high - self.log10) - 10 ** (self.log10_low - self.log10)) / 2

    @property
    def known(self) -> bool:
        """Whether there is an estimate: False where the time limit ran out before one probe
        finished (``value`` and ``log10`` are then NaN, the interval 0 to infinity)."""
        return not math.isnan(self.log10)

    def summary(self) -> str:
        """One line for a person (what ``sudokit estimate`` prints)."""
        if not self.known:
            return "unknown: no sample finished within the time limit"
        return (f"about {_number(self.log10)} solutions (95%: {_number(self.log10_low)} to "
                f"{_number(self.log10_high)}; {self.samples:,} sample{'s' if self.samples != 1 else ''}, {self.hits:,} reached "
                "a solution)")

    def to_json(self) -> dict[str, Any]:
        """Plain data for JSON: a number past a float's range (or the log10 of 0) is null, and so
        is ``high`` where the probes give no upper bound (none reached a solution, or one was drawn)."""
        numbers = {"value": self.value, "low": self.low, "high": self.high, "log10": self.log10,
                   "log10_low": self.log10_low, "log10_high": self.log10_high}
        return {**{key: value if math.isfinite(value) else None for key, value in numbers.items()},
                "samples": self.samples, "hits": self.hits, "seed": self.seed, "elapsed": round(self.elapsed, 6)}

    def __str__(self) -> str:
        return self.summary()


def _number(log10: float) -> str:
    """A count from its log10: exact digits below a billion, two figures below one (an
    estimate's mean), else ``5.96e98``; ``no bound`` for infinity."""
    if log10 == -math.inf:
        return "0"
    if log10 == math.inf:
        return "no bound"
    if log10 < 0:
        return f"{10 ** log10:.2g}"
    if log10 < 9:
        return f"{10 ** log10:,.0f}"
    mantissa = 10 ** (log10 - math.floor(log10))
    exponent = math.floor(log10)
    if mantissa >= 9.995:  # rounds up to the next power of ten
        mantissa, exponent = 1.0, exponent + 1
    return f"{mantissa:.2f}e{exponent}"


def tables(board: Board) -> tuple[np.ndarray, ...]:
    """The estimate kernel's tables for ``board``'s rules (see ``kernels/search/estimate.py``)."""
    geometry = board.geometry
    start = board.start_masks()
    given = board.cells > 0
    start[given] = np.uint64(1) << (board.cells[given].astype(np.uint64) - np.uint64(1))
    houses = np.ascontiguousarray(geometry.houses, dtype=np.int64)
    cell_houses = np.ascontiguousarray(geometry.cell_houses, dtype=np.int64)
    cages = board.cages
    cells = board.shape.cells
    width = max((len(cage.cells) for cage in cages), default=1)
    cage_cells = np.full((len(cages), width), -1, dtype=np.int64)
    cage_total = np.full(len(cages), -1, dtype=np.int64)
    lists: list[list[int]] = [[] for _ in range(cells)]
    for number, cage in enumerate(cages):
        cage_cells[number, : len(cage.cells)] = cage.cells
        cage_total[number] = -1 if cage.total is None else cage.total
        for cell in cage.cells:
            lists[cell].append(number)
    cell_cages = np.full((cells, max((len(row) for row in lists), default=0) or 1), -1, dtype=np.int64)
    for cell, row in enumerate(lists):
        cell_cages[cell, : len(row)] = row
    return start, houses, cell_houses, cell_cages, cage_cells, cage_total


def log_weights(board: Board, samples: int, seed: int | None, tilt: float = TILT,
                time_limit: float | None = None) -> np.ndarray:
    """The natural logarithms of ``samples`` probes' weights (``-inf`` for a dead end), fewer
    where ``time_limit`` seconds ran out first: none if no probe finished in time, since a probe
    the time limit cut short is left out."""
    kernel = engines.estimate_kernel()
    start, houses, cell_houses, cell_cages, cage_cells, cage_total = tables(board)
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)[0] | np.uint64(1)
    out = np.empty(samples, dtype=np.float64)
    cells = board.shape.cells
    reach = np.full(1, cells, dtype=np.int64)
    probe = (np.empty(cells, dtype=np.uint64), np.empty(cells, dtype=np.int64), np.full(1, np.nan))
    steps = np.zeros(1, dtype=np.int64)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    allowed = FIRST_STEPS
    done = 0
    while done < samples:
        began = time.perf_counter()
        steps[0] = allowed
        done += kernel.probes(start, (houses, cell_houses, cell_cages, cage_cells, cage_total), board.size, rng, tilt,
                              EXACT_NODES, reach, out[done:], probe, steps)
        now = time.perf_counter()
        if deadline is not None and now >= deadline:
            break
        pace = (allowed - int(steps[0])) / max(now - began, 1e-7)  # propagations a second
        wanted = SLICE_SECONDS if deadline is None else min(SLICE_SECONDS, deadline - now)
        allowed = max(1, min(int(pace * wanted), allowed * GROWTH))
    return out[:done]


def estimate(puzzle: Any, samples: int = 10_000, seed: int | None = None, *, time_limit: float | None = None,
             shape: Shape | None = None) -> Estimate:
    """An unbiased estimate of the number of solutions of ``puzzle`` from ``samples`` random
    probes (Knuth's estimator over a propagating search), with a 95% interval (``low``,
    ``high``; Chebyshev's, see the module's docstring). The same ``seed`` gives the same estimate.
    ``time_limit`` (seconds) stops sampling early: ``samples`` then says how many were drawn,
    0 (and ``known`` False) where the first probe did not finish in time.
    Every variant's rules count: jigsaw regions, extra houses, killer cages, pencil marks.

    >>> result = estimate("." * 16, samples=2000, seed=1)
    >>> result.low <= 288 <= result.high
    True
    """
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or not 2 <= samples <= MAX_SAMPLES:
        raise ValueError(f"samples must be a whole number from 2 to {MAX_SAMPLES:,}, not {samples!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
        raise ValueError(f"seed must be a non-negative integer or None, not {seed!r}")
    Limits(1, time_limit)  # checked as every budget is
    board = as_board(puzzle, shape)
    began = time.perf_counter()
    weights = log_weights(board, int(samples), seed, time_limit=time_limit)
    hits = int(np.count_nonzero(np.isfinite(weights)))
    if not hits and engines.repeats_a_given(board):  # no solution, for certain
        log_mean = log_low = log_high = -math.inf
    elif not len(weights):  # the time limit ran out inside the first probe: nothing is known
        log_mean, log_low, log_high = math.nan, -math.inf, math.inf
    elif not hits or len(weights) < 2:
        # no probe reached a solution, or one probe alone (a time limit cut it there): the
        # spread says nothing, so no upper bound (a killer cage's one solution went unseen
        # by 10,000 probes, and "0 to 0" would have ruled it out)
        log_mean = float(weights[0]) if hits else -math.inf  # a hit here is the one probe drawn
        log_low, log_high = -math.inf, math.inf
    else:
        top = float(weights.max())
        scaled = np.exp(weights - top)  # in (0, 1]; dead ends 0
        mean = float(scaled.mean())
        spread = K95 * float(scaled.std(ddof=1)) / math.sqrt(len(scaled))
        log_mean = top + math.log(mean)
        # widened by the rounding of the logarithms: an exact count of 9 comes back as 9.000000000000002
        log_low = top + math.log(mean - spread) - ROUNDING if mean > spread else -math.inf
        log_high = top + math.log(mean + spread) + ROUNDING
    to10 = 1 / math.log(10)
    return Estimate(
        puzzle=board, value=_exp(log_mean), low=_exp(log_low), high=_exp(log_high), samples=len(weights),
        log10=log_mean * to10, log10_low=log_low * to10, log10_high=log_high * to10, hits=hits, seed=seed,
        elapsed=time.perf_counter() - began,
    )


def _exp(log: float) -> float:
    return 0.0 if log == -math.inf else math.exp(log) if log < 709.7 else math.inf
