"""The JSON API over the library, without the web server: each endpoint checks its request (a
decoded JSON object), and says how to answer it: one question to the library under a budget,
whose answer is plain JSON data (``messages.py`` reads the requests and writes the answers).

``app.py`` serves these functions over HTTP; keeping them free of Starlette makes every answer
testable as a function call. A request that cannot be answered raises :class:`ApiError`, which
carries the HTTP status and, for a puzzle that does not read, the line and column of the text.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable, Mapping


import sudokit

from .. import logic, setters, solver
from ..board import Board
from ..canon import canonical as canonical_form
from ..generator import GenerationError
from ..generator import generate as make_puzzles
from ..formats import FORMATS
from ..logic import Level, NotUnique
from ..logic.grid import human_rules
from ..logic.scales import ALL
from ..results import Limits, SolveResult, SolveStatus
from ..shape import Shape
from .messages import (
    BUDGET_FIELDS,
    PUZZLE_FIELDS,
    ApiError,
    Json,
    Settings,
    board_json,
    board_of,
    budget_of,
    candidates_of,
    check_fields,
    conflict_json,
    flag_field,
    integer_field,
    seconds,
    invalid,
    score_of,
    search_json,
    step_json,
    text_field,
    unknown,
)

#: the board sizes the page offers (any size the library reads works through the API)
PAGE_SIZES = (4, 6, 9, 16, 25)

#: the generator's defaults where a minimal puzzle takes too long for any budget (and would hold
#: a worker past it): carving a minimal 25x25 took 160-330 s, one stopped at 330 givens 0.05-2 s
QUICK_GENERATION: Mapping[int, Json] = {25: {"minimal": False, "clues": 330}}


# -- the endpoints ------------------------------------------------------------------------------
#
# Each endpoint checks its request where it is called (on the event loop: reading a body of
# at most ``max_body`` bytes takes a few milliseconds at worst) and returns a Task: the
# library's call, for a worker thread, and the budget it runs under. A bad request is thus
# refused at once, never queued behind the compiled calls of others.


@dataclass(frozen=True)
class Task:
    """A checked request: the call that answers it and the budget that bounds it."""

    work: Callable[[], Json]
    budget: Limits


def _unique(board: Board, budget: Limits) -> SolveResult:
    """Prove the puzzle has one solution within the budget (what hints and ratings need first;
    the library's logic then takes that solution rather than proving it again, unbudgeted)."""
    return solver.count(board, 2, time_limit=budget.time_limit, node_limit=budget.node_limit)


def parse(body: Json, settings: Settings) -> Task:
    """``POST /api/parse``: the board a text holds, in which format, and its conflicts."""
    check_fields(body, PUZZLE_FIELDS)
    board, name = board_of(body)
    return Task(lambda: {"board": board_json(board), "format": name}, budget_of({}, settings))


def solve(body: Json, settings: Settings) -> Task:
    """``POST /api/solve``: one solution (``unique: true`` also proves it the only one)."""
    check_fields(body, PUZZLE_FIELDS + BUDGET_FIELDS + ("unique",))
    board, _ = board_of(body)
    budget = budget_of(body, settings)
    unique = flag_field(body, "unique", False)

    def work() -> Json:
        """The library's call, in a worker thread."""
        result = solver.count(board, 2 if unique else 1, time_limit=budget.time_limit, node_limit=budget.node_limit)
        return search_json(result, budget)

    return Task(work, budget)


def count(body: Json, settings: Settings) -> Task:
    """``POST /api/count``: the number of solutions up to ``limit`` (default 2: uniqueness)."""
    check_fields(body, PUZZLE_FIELDS + BUDGET_FIELDS + ("limit",))
    board, _ = board_of(body)
    budget = budget_of(body, settings)
    limit = integer_field(body, "limit", 2, 1, settings.max_count)
    assert limit is not None

    def work() -> Json:
        """The library's call, in a worker thread."""
        result = solver.count(board, limit, time_limit=budget.time_limit, node_limit=budget.node_limit)
        return search_json(result, budget)

    return Task(work, budget)


def techniques_take(board: Board, marks: bool = True) -> None:
    """Refuse (422, field ``puzzle``) a board whose rules the human-style techniques do not
    know: a jigsaw, extra houses, cages (and, for a rating, pencil marks)."""
    try:
        human_rules(board, marks=marks)
    except ValueError as error:
        raise invalid(str(error), "puzzle") from None


def hint(body: Json, settings: Settings) -> Task:
    """``POST /api/hint``: the easiest next step at ``level`` 1, 2 or 3 (default 3), on the
    board's values, or on the player's ``candidates`` when given."""
    check_fields(body, PUZZLE_FIELDS + BUDGET_FIELDS + ("candidates", "level"))
    board, _ = board_of(body)
    budget = budget_of(body, settings)
    level = integer_field(body, "level", 3, 1, 3)
    assert level is not None
    techniques_take(board)
    marks = candidates_of(body, board)

    def work() -> Json:
        """The library's call, in a worker thread."""
        unique = _unique(board, budget)
        answer: Json = {"status": unique.status.value, "level": level, "step": None, "budget": budget.to_json()}
        if unique.status is not SolveStatus.SOLVED:
            answer["conflicts"] = [conflict_json(c) for c in unique.conflicts]
            return answer
        try:
            step = logic.hint(board, candidates=marks, solution=unique.board)
        except NotUnique as error:  # cannot happen once proven unique, but the library may say so
            answer["status"] = error.status.value
            return answer
        except ValueError as error:  # the marks leave out a given or the solution's value
            raise invalid(str(error), "candidates") from None
        complete = board.status().complete
        answer.update(step=None if step is None else step_json(step, level), complete=complete, stuck=step is None and not complete)
        return answer

    return Task(work, budget)


def explain(body: Json, settings: Settings) -> Task:
    """``POST /api/explain``: every step from the board to the end (or to where no technique
    applies), each at level 3, and the rating; the page replays them forward and back."""
    check_fields(body, PUZZLE_FIELDS + BUDGET_FIELDS)
    board, _ = board_of(body)
    budget = budget_of(body, settings)
    techniques_take(board)

    def work() -> Json:
        """The library's call, in a worker thread."""
        unique = _unique(board, budget)
        if unique.status is not SolveStatus.SOLVED:
            conflicts = [conflict_json(c) for c in unique.conflicts]
            return {"status": unique.status.value, "steps": [], "solved": False, "rating": None, "conflicts": conflicts, "budget": budget.to_json()}
        explanation = logic.explain(board, solution=unique.board)
        return {
            "status": explanation.status.value,
            "steps": [step_json(step) for step in explanation.steps],
            "solved": explanation.solved,
            "rating": explanation.rating.to_json(),
            "budget": budget.to_json(),
        }

    return Task(work, budget)


def rate(body: Json, settings: Settings) -> Task:
    """``POST /api/rate``: the level and score on HoDoKu's scale, the techniques used, and on 9x9
    boards Sudoku Explainer's ER/EP/ED (``se_status`` unknown where the budget stopped it):
    ``time_limit`` bounds both, ``node_limit`` the proof of uniqueness, ``potential_limit`` SE's
    chains."""
    check_fields(body, PUZZLE_FIELDS + BUDGET_FIELDS + ("potential_limit",))
    board, _ = board_of(body)
    budget = budget_of(body, settings)
    techniques_take(board, marks=False)

    def work() -> Json:
        """The library's call, in a worker thread."""
        start = time.perf_counter()
        unique = _unique(board, budget)
        if unique.status is not SolveStatus.SOLVED:
            conflicts = [conflict_json(c) for c in unique.conflicts]
            return {"status": unique.status.value, "level": None, "score": None, "conflicts": conflicts, "budget": budget.to_json()}
        # SE's ratings of the hardest puzzles take long: what the proof left of the request's
        # time bounds them
        left = max(0.0, seconds(budget) - (time.perf_counter() - start))
        rating = logic.rate(board, scale=ALL, time_limit=left, potential_limit=budget.potential_limit, solution=unique.board)
        return {**rating.to_json(), "budget": budget.to_json()}

    return Task(work, budget)


def canonical(body: Json, settings: Settings) -> Task:
    """``POST /api/canonical``: the puzzle's canonical form (``sudokit.canonical``), the same
    text for every puzzle equivalent to it."""
    check_fields(body, PUZZLE_FIELDS)
    board, _ = board_of(body)

    def work() -> Json:
        """The library's call, in a worker thread."""
        try:
            text = canonical_form(board)
        except ValueError as error:
            raise invalid(str(error)) from None
        return {"canonical": str(text)}

    return Task(work, budget_of({}, settings))


def generate(body: Json, settings: Settings) -> Task:
    """``POST /api/generate``: a new puzzle (``sudokit.generate``) of a ``size`` (default 9),
    at a ``level`` (``"hard"``, ``"hard+"``) or in a ``score`` range (``[low, high]``, either
    end null, or ``"low-high"``), with ``symmetry``, ``clues``, ``minimal`` and ``seed`` passed
    through; the seed used comes back, so the same request makes the same puzzle. The budget's
    ``time_limit`` goes to the generator where it takes one, and bounds the wait in any case.
    Sizes of :data:`QUICK_GENERATION` default to its options and refuse ``minimal: true``."""
    check_fields(body, BUDGET_FIELDS + ("size", "level", "score", "symmetry", "clues", "minimal", "seed"))
    budget = budget_of(body, settings)
    size = integer_field(body, "size", 9, 4, max(PAGE_SIZES))
    assert size is not None
    if Shape.for_size_or_none(size) is None:
        raise invalid(f"size must be one of {', '.join(map(str, PAGE_SIZES))}, or another size with boxes", "size")
    quick = QUICK_GENERATION.get(size, {})
    minimal = flag_field(body, "minimal", quick.get("minimal", True))
    if minimal and quick:
        raise invalid(f"a minimal {size}x{size} puzzle takes minutes to carve, past any budget; leave minimal out (false at this size)", "minimal")
    level = text_field(body, "level")
    if level is not None and level.removesuffix("+") not in {item.value for item in Level}:
        names = ", ".join(item.value for item in Level)
        raise invalid(f"level must be one of {names}, or one of them and '+' for it and harder ones, not {level!r}", "level")
    seed = integer_field(body, "seed", None, 0, 2**63 - 1)
    if seed is None:  # chosen here, and answered, so that the puzzle can be made again
        seed = random.SystemRandom().randrange(2**31)
    options: Json = {
        "shape": f"{size}x{size}",
        "symmetry": text_field(body, "symmetry"),
        "clues": integer_field(body, "clues", quick.get("clues"), 0, size * size),
        "minimal": minimal,
        "level": level,
        "score": score_of(body),
        "seed": seed,
    }
    options["time_limit"] = budget.time_limit

    def work() -> Json:
        """The library's call, in a worker thread."""
        try:
            [board] = make_puzzles(1, **options)
        except ValueError as error:  # options the generator refuses (a symmetry it does not know)
            raise invalid(str(error)) from None
        except GenerationError as error:  # the draws ran out: an answer, not a bug
            return {**unknown(budget), "reason": str(error), "puzzle": None, "seed": seed}
        answer = {"status": SolveStatus.SOLVED.value, "puzzle": board_json(board), "seed": seed, "level": level, "minimal": minimal}
        return {**answer, "budget": budget.to_json()}

    return Task(work, budget)


#: the most probes ``/api/estimate`` draws (its time budget may stop it sooner)
MAX_SAMPLES = 100_000


def diagnose(body: Json, settings: Settings) -> Task:
    """``POST /api/diagnose``: why the board is not a puzzle yet (``sudokit.diagnose``): for no
    solution the givens of a minimal core (``core``, cells from 0), the rules and the chain of
    singles; for several, two solutions, the cells where they differ and the fewest givens that
    would make the first one unique (``add``, cells from 0; ``add_proven``); for one, the
    givens that could go (``redundant``). The budget bounds the whole answer."""
    check_fields(body, PUZZLE_FIELDS + BUDGET_FIELDS)
    board, _ = board_of(body)
    budget = budget_of(body, settings)

    def work() -> Json:
        """The library's call, in a worker thread."""
        start = time.perf_counter()
        found = setters.diagnose(board, time_limit=budget.time_limit, node_limit=budget.node_limit)
        answer = {**found.to_json(), "budget": budget.to_json()}
        if found.status is SolveStatus.SEVERAL:
            left = max(0.0, seconds(budget) - (time.perf_counter() - start))
            fewest = setters.make_unique(board, solution=found.solutions[0], time_limit=left,
                                         node_limit=max(1, budget.nodes - found.nodes))
            answer.update(add=list(fewest.added) if fewest.board is not None else None, add_proven=fewest.proven)
        return answer

    return Task(work, budget)


def estimate(body: Json, settings: Settings) -> Task:
    """``POST /api/estimate``: about how many solutions (``sudokit.estimate``): ``value``,
    ``low`` and ``high`` (a 95% interval), their ``log10`` forms (past a float's range), from
    ``samples`` probes (default 2,000) within the time budget; ``seed`` makes it repeatable."""
    check_fields(body, PUZZLE_FIELDS + BUDGET_FIELDS + ("samples", "seed"))
    board, _ = board_of(body)
    budget = budget_of(body, settings)
    samples = integer_field(body, "samples", 2_000, 2, MAX_SAMPLES)
    seed = integer_field(body, "seed", None, 0, 2**63 - 1)
    assert samples is not None

    def work() -> Json:
        """The library's call, in a worker thread."""
        found = setters.estimate(board, samples=samples, seed=seed, time_limit=budget.time_limit)
        status = SolveStatus.SOLVED if found.known else SolveStatus.UNKNOWN  # no probe finished in time
        return {"status": status.value, **found.to_json(), "budget": budget.to_json()}

    return Task(work, budget)


def info(settings: Settings) -> Json:
    """``GET /api/info``: what this server offers (the page hides what is missing) and allows."""
    return {
        "name": "sudokit",
        "version": sudokit.__version__,
        "endpoints": sorted(ENDPOINTS),
        "capabilities": {"generate": True, "canonical": True},
        "sizes": [
            {"size": n, "box": [Shape.for_size(n).box_height, Shape.for_size(n).box_width], "generate": dict(QUICK_GENERATION.get(n, {}))}
            for n in PAGE_SIZES
        ],
        "levels": [level.value for level in Level],
        "formats": list(FORMATS),
        "limits": {
            "max_body": settings.max_body,
            "time_limit": settings.time_limit,
            "max_time_limit": settings.max_time_limit,
            "node_limit": settings.node_limit,
            "max_node_limit": settings.max_node_limit,
            "max_count": settings.max_count,
        },
    }


#: the POST endpoints: name -> the function that checks a request and says how to answer it
ENDPOINTS: Mapping[str, Callable[[Json, Settings], Task]] = {
    "parse": parse,
    "solve": solve,
    "count": count,
    "hint": hint,
    "explain": explain,
    "rate": rate,
    "generate": generate,
    "canonical": canonical,
    "diagnose": diagnose,
    "estimate": estimate,
}


def warm_up() -> None:
    """Load the compiled kernels the page uses (every page size's search, the logic and both
    ratings, generation, canonical forms and setter mode's estimates), so the first visitor
    does not wait for them."""
    for size in PAGE_SIZES:
        shape = Shape.for_size(size)
        full = solver.solve(Board.empty(shape)).board
        assert full is not None
        cells = full.cells.copy()
        cells[0] = 0  # one empty cell: a unique puzzle with a one-step hint
        logic.hint(Board(cells, shape))
    logic.explain(Board(cells, shape))  # explain rates too: the rating loop is a kernel of its own
    puzzle = make_puzzles(1, shape="9x9", seed=1)[0]
    logic.rate(puzzle, scale=ALL)  # HoDoKu's scale and Sudoku Explainer's
    canonical_form(puzzle)
    setters.estimate(Board.empty(Shape.for_size(9)), samples=2, seed=1)  # setter mode's estimates


__all__ = [
    "ENDPOINTS",
    "PAGE_SIZES",
    "ApiError",
    "Settings",
    "Task",
    "board_json",
    "info",
    "step_json",
    "unknown",
    "warm_up",
]
