"""What the API's requests and answers hold: the server's settings, the errors it answers
with, reading a request's fields (each checked, each wrong one named), and writing the
library's objects (boards, search results, steps) as plain JSON data (a rating writes itself:
``Rating.to_json``).

Cells are numbered as everywhere in sudokit, ``row * n + col`` from 0; values are ``1..n`` and
``symbols[value - 1]`` writes them.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Iterable

from ..board import Board, Conflict, read_text
from ..errors import FormatError
from ..formats import FORMATS
from ..formats.detection import ASK_FOR_FORMAT
from ..logic import Step
from ..logic.grid import human_rules
from ..results import Limits, SolveResult, SolveStatus
from ..shape import Shape

#: a decoded JSON object
Json = dict[str, Any]


@dataclass(frozen=True)
class Settings:
    """What the server allows a request: body size, budgets (defaults and caps), threads.

    A request may ask for less time or fewer nodes than the cap, never more: what it asks
    above the cap is cut to the cap, and every answer says which budget it ran under.
    """

    max_body: int = 64 * 1024  #: bytes; a larger request body is refused with 413
    time_limit: float = 2.0  #: seconds per request when it names none
    max_time_limit: float = 10.0
    node_limit: int = 10_000_000  #: search nodes per request when it names none (7M/s on 9x9)
    max_node_limit: int = 100_000_000
    max_count: int = 1_000_000  #: the largest ``limit`` ``/api/count`` takes
    workers: int = 0  #: threads that run the compiled calls; 0: four per CPU, at least 8
    queue: int = 32  #: requests waiting for a thread beyond ``workers``; past that, 503
    grace: float = 1.0  #: seconds past the time limit before a call is given up as unknown
    allowed_hosts: tuple[str, ...] = ()  #: Host headers accepted (empty: any)


class ApiError(Exception):
    """A request the API refuses: the HTTP status and what was wrong, in words and places."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        kind: str = "request",
        field: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        """The status, the message, and what and where it is about."""
        super().__init__(message)
        self.status = status
        self.message = message
        self.kind = kind
        self.field = field
        self.line = line
        self.column = column

    def json(self) -> Json:
        """The error body: ``{"error": message, "kind": ..., "field", "line", "column"}``."""
        body: Json = {"error": self.message, "kind": self.kind}
        for name in ("field", "line", "column"):
            value = getattr(self, name)
            if value is not None:
                body[name] = value
        return body


def invalid(message: str, field: str | None = None) -> ApiError:
    """A well-formed JSON request whose content is wrong (422)."""
    return ApiError(422, message, kind="invalid", field=field)


# -- reading a request -------------------------------------------------------------------------

#: the fields that say which puzzle a request is about
PUZZLE_FIELDS = ("puzzle", "format", "shape", "symbols")
BUDGET_FIELDS = ("time_limit", "node_limit")


def check_fields(body: Json, allowed: Iterable[str]) -> None:
    """Refuse a field the endpoint does not take: a typo (``time_limt``) must not pass as a
    default."""
    names = set(allowed)
    for name in body:
        if name not in names:
            raise invalid(f"unknown field {name!r}; this endpoint takes {', '.join(sorted(names))}", name)


def text_field(body: Json, name: str, *, required: bool = False) -> str | None:
    """A string field, or None when absent (refused when ``required``)."""
    value = body.get(name)
    if value is None:
        if required:
            raise invalid(f"the field {name!r} is required", name)
        return None
    if not isinstance(value, str):
        raise invalid(f"{name} must be a string, not {kind_of(value)}", name)
    return value


def integer_field(body: Json, name: str, default: int | None, low: int, high: int | None = None) -> int | None:
    """An integer field within ``low..high`` (booleans are not integers here); absent or
    null, the default."""
    value = body.get(name)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise invalid(f"{name} must be an integer, not {kind_of(value)}", name)
    if value < low or (high is not None and value > high):
        span = f"{low} to {high}" if high is not None else f"at least {low}"
        raise invalid(f"{name} must be {span}, not {value}", name)
    return value


def flag_field(body: Json, name: str, default: bool) -> bool:
    """A true/false field; absent or null, the default."""
    value = body.get(name)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise invalid(f"{name} must be true or false, not {kind_of(value)}", name)
    return value


def number_field(body: Json, name: str, default: float, low: float) -> float:
    """A number field of at least ``low``; absent or null, the default. An integer too large
    for a float is infinite (budgets are cut to the server's caps)."""
    value = body.get(name)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise invalid(f"{name} must be a number, not {kind_of(value)}", name)
    if value < low:
        raise invalid(f"{name} must be at least {low:g}, not {value:g}", name)
    try:
        return float(value)
    except OverflowError:
        return math.inf


def kind_of(value: object) -> str:
    """How JSON calls a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    names = {str: "a string", int: "an integer", float: "a number", list: "an array", dict: "an object"}
    return names.get(type(value), type(value).__name__)


def budget_of(body: Json, settings: Settings) -> Limits:
    """The request's budget (the library's :class:`~sudokit.results.Limits`, a time and a node
    limit always set): what it asks, cut to the server's caps, else the defaults; and the
    potentials SE's rating may process where the request gives ``potential_limit``."""
    time_limit = number_field(body, "time_limit", settings.time_limit, 0)
    node_limit = integer_field(body, "node_limit", settings.node_limit, 1)
    potential_limit = integer_field(body, "potential_limit", None, 1)  # only ``rate`` takes it
    assert node_limit is not None
    return Limits(1, min(time_limit, settings.max_time_limit), min(node_limit, settings.max_node_limit), potential_limit)


def seconds(budget: Limits) -> float:
    """A request's time limit (``budget_of`` always sets one)."""
    assert budget.time_limit is not None
    return float(budget.time_limit)


def _shape(body: Json) -> Shape | None:
    """The ``shape`` field: a box such as ``'2x3'`` or a board size, as on the command line."""
    value = body.get("shape")
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise invalid(f"shape must be a box shape such as '2x3' or a board size such as 9, not {kind_of(value)}", "shape")
    try:
        return Shape.parse(value)
    except ValueError as error:
        raise invalid(str(error), "shape") from None


def board_of(body: Json) -> tuple[Board, str]:
    """The request's puzzle and the format it was read in. ``puzzle`` is text in any format
    sudokit reads; ``format``, ``shape`` and ``symbols`` are as on the command line. A text
    that is not exactly one board is refused with the line and column where it goes wrong,
    as :meth:`sudokit.Board.parse` says it."""
    text = text_field(body, "puzzle", required=True)
    assert text is not None
    name = text_field(body, "format")
    if name is not None and name not in FORMATS:
        raise invalid(f"format must be one of {', '.join(FORMATS)}, not {name!r}", "format")
    shape = _shape(body)
    symbols = text_field(body, "symbols")
    try:
        records = read_text(text, format=name, shape=shape, symbols=symbols)
    except FormatError as error:
        raise _format_error(error) from None
    except ValueError as error:  # options that contradict each other (symbols for another size)
        raise invalid(str(error)) from None
    if not records:
        raise _format_error(FormatError("no board in the text", line=1, column=1))
    first = records[0]
    if first.error is not None:
        raise _format_error(first.error)
    if len(records) > 1:  # the words of Board.parse, which reads exactly one board
        raise _format_error(FormatError("expected one board, found another starting here", line=records[1].line, column=1))
    assert first.board is not None
    return first.board, first.format


def _format_error(error: FormatError) -> ApiError:
    """A 422 that says where the text goes wrong, in words and as ``line`` and ``column``."""
    where = f"line {error.line}, column {error.column}: " if error.line is not None else ""
    message = error.message.replace(ASK_FOR_FORMAT, 'say the format with the "format" field')  # the API's name for it
    return ApiError(422, where + message, kind="format", field="puzzle", line=error.line, column=error.column)


def candidates_of(body: Json, board: Board) -> list[list[int]] | None:
    """The player's pencil marks: one array of values per cell (givens and placed cells may
    hold an empty array), or None for every candidate the values allow."""
    marks = body.get("candidates")
    if marks is None:
        return None
    cells, n = board.shape.cells, board.size
    if not isinstance(marks, list) or len(marks) != cells:
        raise invalid(f"candidates must be an array of {cells} arrays of values, one per cell", "candidates")
    rows = []
    for cell, values in enumerate(marks):
        if not isinstance(values, list) or any(isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= n for v in values):
            raise invalid(f"candidates[{cell}] (r{cell // n + 1}c{cell % n + 1}) must be an array of values 1 to {n}", "candidates")
        rows.append(values)
    return rows


# -- writing an answer -------------------------------------------------------------------------


def board_json(board: Board) -> Json:
    """A board as the page draws it: size, box, alphabet, cells and what its givens break."""
    status = board.status()
    shape = board.shape
    return {
        "size": board.size,
        "box": [shape.box_height, shape.box_width],
        "shape": shape.spec,
        "symbols": board.symbols,
        "cells": board.cells.tolist(),
        "line": board.to_line(),
        "givens": status.givens,
        "empty": status.empty,
        "valid": status.valid,
        "complete": status.complete,
        "conflicts": [conflict_json(c) for c in status.conflicts],
        "sums": [str(s) for s in status.sums],
        "rules": rules_json(board),
    }


def rules_json(board: Board) -> Json:
    """A board's rules, for the page to draw and to send back with every request: ``houses``
    (each house's kind and cells: rows, columns, boxes or jigsaw regions, then extra houses),
    ``cages`` (``[sum or null, cells]``), ``candidates`` (the starting pencil marks of a Sukaku,
    a mask per cell, or null), ``variant`` (any rule beyond the shape's), ``json`` (the keys of
    the ``json`` format that carry the rules) and ``techniques`` (null, or why the human-style
    techniques refuse the board)."""
    geometry = board.geometry
    try:
        human_rules(board)
        refusal = None
    except ValueError as error:
        refusal = str(error)
    keys = {key: value for key, value in json.loads(board.to_json()).items() if key not in ("givens", "size")}
    return {
        "houses": [{"kind": kind, "cells": cells} for kind, cells in zip(geometry.kinds, geometry.houses.tolist())],
        "cages": [[cage.total, list(cage.cells)] for cage in board.cages],
        "candidates": None if board.candidates is None else board.candidates.tolist(),
        "variant": not board.plain,
        "json": keys,
        "techniques": refusal,
    }


def conflict_json(conflict: Conflict) -> Json:
    """A value given twice in a house: which, where, and the sentence that says so."""
    return {
        "value": conflict.value,
        "symbol": conflict.symbol,
        "kind": conflict.kind,
        "index": conflict.index,
        "cells": [list(cell) for cell in conflict.cells],
        "text": str(conflict),
    }


def _solution(board: Board | None) -> Json | None:
    """A solution's cells and line, or None."""
    return None if board is None else {"cells": board.cells.tolist(), "line": board.to_line()}


def search_json(result: SolveResult, budget: Limits) -> Json:
    """What a search found, what it cost and the budget it ran under."""
    return {
        "status": result.status.value,
        "solution": _solution(result.board),
        "count": result.count,
        "exhausted": result.exhausted,
        "count_known": result.count_known,
        "unique": result.unique,
        "limit": result.limit,
        "nodes": result.nodes,
        "guesses": result.guesses,
        "elapsed": result.elapsed,
        "conflicts": [conflict_json(c) for c in result.conflicts],
        "budget": budget.to_json(),
    }


def pattern_cells(step: Step) -> list[int]:
    """The cells a step rests on, which the second hint level shows: the pattern's cells, fins
    and chain nodes, or for a single the cell it fills."""
    cells = list(step.cells) + list(step.fins) + [cell for cell, _, _ in step.chain]
    if not cells:
        cells = [cell for cell, _ in step.placements]
    return sorted(set(cells))


def step_json(step: Step, level: int = 3) -> Json:
    """A step at a hint level, as Sudoku Explainer gives hints: 1 the technique, 2 also the
    cells of its pattern, 3 the whole step (pattern, placements, eliminations, the line)."""
    technique = step.technique
    answer: Json = {
        "technique": step.name,
        "family": technique.name,
        "code": technique.codes[step.variant - 1] if 1 <= step.variant <= len(technique.codes) else technique.code,
        "difficulty": technique.level.value,
        "score": technique.score,
    }
    if level >= 2:
        answer["cells"] = pattern_cells(step)
    if level >= 3:
        shape = step.shape
        answer.update(
            text=step.text,
            placements=[list(p) for p in step.placements],
            eliminations=[list(e) for e in step.eliminations],
            pattern=list(step.cells),
            values=list(step.values),
            extra=list(step.extra),
            fins=list(step.fins),
            chain=[[cell, value, strong] for cell, value, strong in step.chain],
            houses=[_house_json(shape, house) for house in step.houses],
        )
    return answer


def _house_json(shape: Shape, house: int) -> Json:
    """A house of a step: its kind, its number in its kind (0-based) and its cells."""
    kind, number = shape.geometry.describe(house)
    return {"kind": kind, "index": number, "cells": shape.houses[house].tolist()}


def unknown(budget: Limits) -> Json:
    """The answer of a call that ran past its budget: the question stays open."""
    return {
        "status": SolveStatus.UNKNOWN.value,
        "reason": f"the budget of {seconds(budget):g} s ran out before the answer",
        "budget": budget.to_json(),
    }


def score_of(body: Json) -> Any:
    """A score range as the generator takes it: ``(low, high)`` (either end None) or text."""
    value = body.get("score")
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, list) and len(value) == 2 and all(v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in value):
        return tuple(value)
    raise invalid(f"score must be [low, high] (integers, either one null) or 'low-high', not {kind_of(value)}", "score")
