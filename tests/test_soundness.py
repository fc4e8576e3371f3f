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
    # every shared 9x9 set of puzzles with one solution, one a line, about 60 evenly spaced of
    # each (HardestDatabase is forum_hardest_1106 again; reglib holds candidate states; serg and
    # tdoku_test_multi have several solutions by design, so no step can be checked)
    ["9x9/forum_hardest_1106.txt", "9x9/forum_hardest_1905_11plus.txt", "9x9/gecode_9x9.txt",
     "9x9/kaggle_bryanpark_sample.txt", "9x9/magictour_top100.txt", "9x9/magictour_top1465.txt",
     "9x9/magictour_topn234.txt", "9x9/magictour_topn87.txt", "9x9/norvig_easy50.txt", "9x9/norvig_hardest.txt",
     "9x9/norvig_sudoku10k.txt", "9x9/norvig_top95.txt", "9x9/royle_17clue.txt", "9x9/tdoku_test_unique.txt",
     "rated/diabolical_se.txt", "rated/exemplars-1.0.txt", "rated/qqwing_simple.sdm",
     "rated/qqwing_easy.sdm", "rated/qqwing_intermediate.sdm", "rated/qqwing_expert.sdm"],
)  # fmt: skip
def test_shared_sets_as_sukakus_take_no_wrong_step(path):
    lines = (SHARED / path).read_text().splitlines()
    fields = (line.strip().split(" ")[0].split(",")[0] for line in lines if not line.startswith("#"))
    every = [f.replace("0", ".") for f in fields if len(f) == 81]
    puzzles = _unique(every[:: max(1, len(every) // 60)])
    assert puzzles, path  # the file was read as puzzles
    for puzzle in puzzles:
        wrong, _ = wrong_steps(puzzle)
        assert not wrong, (puzzle, wrong)
