"""Soundness of the human-style engine on boards that start from pencil marks: every step of
``explain`` over puzzles written as Sukakus is checked against the solution (an elimination
of the true value, or a placement of another, is a wrong step). The same walk over the shared
9x9 sets is ``benchmarks/soundness.py --as sukaku``."""

from __future__ import annotations

from pathlib import Path

import pytest

import sudokit
from sudokit import Board
from sudokit.formats import sukaku

from conftest import DATA, sample_lines

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def _puzzles(name: str) -> list[str]:
    """The 81-symbol puzzles of a file in tests/data (the first field of each line)."""
    out = []
    for line in sample_lines(name):
        field = line.split()[0].split(":")[0]
        if len(field) == 81 and not line.startswith("#"):
            out.append(field.replace("0", "."))
    return out


def wrong_steps(puzzle: str) -> tuple[list[str], bool]:
    """Walk ``explain`` over the puzzle written as a Sukaku: (the wrong steps, solved)."""
    board = Board.from_line(puzzle)
    solution = sudokit.solve(board).board.cells
    explanation = sudokit.explain(Board.from_sukaku(sukaku.format(board)))
    wrong = []
    for step in explanation.steps:
        bad = [(c, v) for c, v in step.eliminations if solution[c] == v]
        bad += [(c, v) for c, v in step.placements if solution[c] != v]
        if bad:
            wrong.append(f"{step.text} (wrong: {bad})")
    return wrong, explanation.solved


def _unique(puzzles: list[str]) -> list[str]:
    return [p for p, ok in zip(puzzles, sudokit.solve_batch(puzzles, limit=2).unique) if ok]


def test_sukakus_of_the_sample_sets_take_no_wrong_step():
    puzzles = _unique(_puzzles("sample_9x9.txt")[::10] + _puzzles("se_rated.txt")[::8])
    for puzzle in puzzles:
        wrong, _ = wrong_steps(puzzle)
        assert not wrong, (puzzle, wrong)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["sample_9x9.txt", "se_rated.txt", "hodoku_ratings.txt"])
def test_every_bundled_9x9_puzzle_as_a_sukaku_takes_no_wrong_step(name):
    solved = 0
    puzzles = _unique(_puzzles(name))
    for puzzle in puzzles:
        wrong, finished = wrong_steps(puzzle)
        assert not wrong, (puzzle, wrong)
        solved += finished
    assert solved >= len(puzzles) // 2  # the walk goes somewhere: most finish


@pytest.mark.slow
@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared data sets are not beside the project")
@pytest.mark.parametrize(
    "path",
    ["9x9/norvig_top95.txt", "9x9/norvig_easy50.txt", "9x9/magictour_top1465.txt", "9x9/royle_17clue.txt",
     "9x9/forum_hardest_1106.txt", "9x9/serg_benchmark.txt", "9x9/kaggle_bryanpark_sample.txt",
     "rated/diabolical_se.txt", "rated/qqwing_expert.sdm"],
)  # fmt: skip
def test_shared_sets_as_sukakus_take_no_wrong_step(path):
    lines = (SHARED / path).read_text().splitlines()
    puzzles = [f.replace("0", ".") for f in (line.strip().split(" ")[0].split(",")[0] for line in lines) if len(f) == 81]
    for puzzle in _unique(puzzles[:: max(1, len(puzzles) // 60)]):
        wrong, _ = wrong_steps(puzzle)
        assert not wrong, (puzzle, wrong)
