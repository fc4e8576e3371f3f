"""The rating scales, one object each: HoDoKu's (``hodoku``), Sudoku Explainer's (``se``, 9x9
boards) and the pair (``all``). A :class:`Scale` says which boards it takes and why it refuses
the others, the budget SE's part gets by default, and how its part of a rating is written
out; ``rate``, ``rate_batch`` and ``explain_se``, the command line, the web API and the batch
all ask it rather than deciding for themselves.

Its writers read a rating's record (``Rating.to_json()``), the one form every output starts
from, so that a scale writes the same fields wherever a rating goes out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..board import Board
from ..results import Limits, SolveStatus
from . import se

#: the work (potentials its chains process) SE's rating gets where it comes with HoDoKu's
#: (``scale="all"``) and no budget is given: enough for 10.x puzzles, short of 10.5+'s minutes
SE_DEFAULT_WORK = 4_000_000


def _every_board(board: Board) -> bool:
    return True


@dataclass(frozen=True)
class Scale:
    """One scale: what it computes, which boards it takes, and how it is written out."""

    name: str
    hodoku: bool  #: it computes HoDoKu's level and score
    se: bool  #: it computes Sudoku Explainer's ER/EP/ED (on the boards SE takes)
    takes: Callable[[Board], bool]  #: whether it rates a board (the others: ``refusal``)
    refusal: str | None = None  #: why it refuses a board ``takes`` does not take
    default_work: int | None = None  #: SE's potential budget where the caller gives none

    def check(self, board: Board) -> None:
        """Raise ``ValueError`` (the refusal) for a board this scale does not take."""
        if not self.takes(board):
            raise ValueError(self.refusal)

    def rates_se(self, board: Board) -> bool:
        """Whether SE's part is computed on ``board`` (the pair rates SE's where SE can)."""
        return self.se and se.supported(board)

    def budget(self, limits: Limits) -> Limits:
        """SE's budget: the one given, else (time and potentials both open) ``default_work``
        potentials."""
        if self.default_work is None or limits.time_limit is not None or limits.potential_limit is not None:
            return limits
        return replace(limits, potential_limit=self.default_work)

    # -- writing its part of a rating out ---------------------------------------------------

    @property
    def columns(self) -> tuple[str, ...]:
        """The fields of a rating's record that are this scale's (a batch's rating columns)."""
        return (("level", "score") if self.hodoku else ()) + (("er", "ep", "ed", "se_status") if self.se else ())

    @property
    def header(self) -> tuple[str, ...]:
        """The column names of its tab-separated lines (``rate --to tsv``), after ``puzzle``."""
        return (("level", "score") if self.hodoku else ()) + (("er", "ep", "ed", "status") if self.se else ())

    def fields(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """Its part of a record as ``rate --to json`` writes it (SE's status as ``status``)."""
        fields = {name: record[name] for name in ("level", "score", "solved", "techniques")} if self.hodoku else {}
        if self.se:
            fields.update(er=record["er"], ep=record["ep"], ed=record["ed"], status=record["se_status"])
        return fields

    def cells(self, record: Mapping[str, Any]) -> tuple[str, ...]:
        """Its part of a record as the tab-separated line's cells (under :attr:`header`)."""
        cells: tuple[str, ...] = (record["level"], str(record["score"])) if self.hodoku else ()
        if self.se:
            cells += (f"{record['er']:.1f}", f"{record['ep']:.1f}", f"{record['ed']:.1f}", str(record["se_status"]))
        return cells

    def text(self, record: Mapping[str, Any]) -> str:
        """Its part of a record as ``rate`` prints it: ``level score``, ``ER/EP/ED`` (with
        ``>=`` before lower bounds where a budget stopped SE)."""
        parts = [f"{record['level']} {record['score']}"] if self.hodoku else []
        if self.se:
            bound = ">=" if self.unknown(record) else ""
            parts.append(f"{bound}{record['er']:.1f}/{record['ep']:.1f}/{record['ed']:.1f}")
        return " ".join(parts)

    def unknown(self, record: Mapping[str, Any]) -> bool:
        """A budget stopped this scale's rating (SE's: its figures are lower bounds)."""
        return self.se and record["se_status"] == SolveStatus.UNKNOWN.value


#: the refusal of SE's scale, for a board ``logic.se.supported`` does not take
NOT_SE = "Sudoku Explainer's scale rates classic 9x9 boards (givens, rows, columns, boxes) only"

HODOKU = Scale("hodoku", hodoku=True, se=False, takes=_every_board)
SE = Scale("se", hodoku=False, se=True, takes=se.supported, refusal=NOT_SE)
#: both: SE's part on the boards SE takes, with ``SE_DEFAULT_WORK`` where no budget is given
ALL = Scale("all", hodoku=True, se=True, takes=_every_board, default_work=SE_DEFAULT_WORK)

#: the scales by name
SCALES: Mapping[str, Scale] = {scale.name: scale for scale in (ALL, HODOKU, SE)}
#: the scales that rate on their own (the command line's ``--scale``)
SINGLE = tuple(name for name, scale in SCALES.items() if scale.hodoku != scale.se)


def scale_of(scale: str | Scale) -> Scale:
    """The scale a name stands for (a :class:`Scale` stands for itself)."""
    if isinstance(scale, Scale):
        return scale
    found = SCALES.get(scale)
    if found is None:
        raise ValueError(f"scale must be one of {', '.join(SCALES)}, not {scale!r}")
    return found
