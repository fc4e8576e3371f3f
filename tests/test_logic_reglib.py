"""HoDoKu's regression library: every case of every technique the engine implements.

A case sets up a candidate grid (givens, values a solver placed, candidates removed beyond plain
Sudoku logic) and names a technique and the eliminations or placements one of its instances
makes; the engine must find such an instance (``-x`` cases: must not). Cases of techniques the
engine does not implement are skipped, and counted in ``python tests/test_logic_reglib.py``,
which prints the pass table by technique.
"""

from __future__ import annotations

import collections
import sys

import numpy as np
import pytest

import reglib
import sudokit
from sudokit.logic.grid import CandidateGrid
from sudokit.logic.techniques import BY_CODE

CASES = reglib.cases()


def grid_of(case: reglib.Case) -> CandidateGrid:
    board = sudokit.Board.from_line(case.givens)
    fixed = (board.cells != 0) & ~np.array(case.placed)
    marks = CandidateGrid(board, fixed=fixed).candidates
    for cell, value in case.deleted:
        marks[cell] &= ~np.uint64(1 << (value - 1))
    return CandidateGrid(board, marks=marks, fixed=fixed)


def passes(case: reglib.Case) -> bool:
    technique = BY_CODE[case.code]
    found = {(frozenset(s.eliminations), frozenset(s.placements)) for s in grid_of(case).find_all(technique, most=2000)}
    wanted = (case.eliminations, case.placements)
    return wanted not in found if case.fail_case else wanted in found


# Grouped nice loops list up to 2,000 instances a case (seconds each): the fast tier keeps one case
# of each such code, the full suite runs them all.
SLOW_CODES = {"0709", "0710", "0711"}


def _tiered(cases: list[reglib.Case]) -> list:
    seen: set[str] = set()
    out = []
    for case in cases:
        slow = case.code in SLOW_CODES and case.code in seen
        seen.add(case.code)
        out.append(pytest.param(case, marks=pytest.mark.slow) if slow else case)
    return out


@pytest.mark.parametrize(
    "case",
    _tiered([case for case in CASES if case.code in BY_CODE]),
    ids=lambda case: f"{case.code}{'-' + case.variant if case.variant else ''}-line{case.line}",
)
def test_reglib_case(case):
    assert passes(case), f"line {case.line}: {BY_CODE[case.code].name}"


def table() -> None:
    """Print the pass table: by technique code, cases passed, failed, and not implemented."""
    counts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    only = set(sys.argv[1:])
    for case in CASES:
        if only and case.code not in only:
            continue
        if case.code not in BY_CODE:
            counts[case.code]["not implemented"] += 1
            continue
        counts[case.code]["pass" if passes(case) else "fail"] += 1
    print(f"{'code':6} {'technique':36} {'pass':>5} {'fail':>5} {'n/i':>5}")
    for code in sorted(counts):
        c = counts[code]
        name = BY_CODE[code].name if code in BY_CODE else ""
        print(f"{code:6} {name:36} {c['pass']:5} {c['fail']:5} {c['not implemented']:5}")


if __name__ == "__main__":
    table()
