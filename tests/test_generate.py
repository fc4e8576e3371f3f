"""Generating puzzles (``sudokit.generator`` and ``kernels/search/generate.py``).

Every claim the generator makes is checked here by other code: uniqueness by the search
kernels through ``sudokit.count`` and, on small boards, by the slow reference solver in
``naive.py``; minimality by taking each given out in turn and counting again; symmetry by
mapping the pattern of givens; levels by ``sudokit.rate``; uniformity of the full grids by a
chi-square test over all 288 grids of 4x4.
"""

from __future__ import annotations

import collections
import time

import naive
import numpy as np
import pytest
from click.testing import CliRunner

import sudokit
from sudokit import generator
from sudokit.cli import cli
from sudokit.generator import GenerationError, full_grids, generate, generate_iter, orbits
from sudokit.shape import Shape

#: every shape the generator must serve, with how many puzzles the fast tier makes of each
SHAPES = [("4x4", 20), ("2x3", 20), ("2x4", 10), ("9x9", 30), ("3x4", 5), ("16x16", 2)]


def unique(board: sudokit.Board) -> bool:
    return sudokit.count(board, 2).count == 1


def minimal(board: sudokit.Board) -> bool:
    """No given can be taken out without a second solution (each tried by a fresh search)."""
    cells = board.cells
    for cell in np.flatnonzero(cells):
        fewer = cells.copy()
        fewer[cell] = 0
        if unique(sudokit.Board(fewer, board.shape)):
            return False
    return True


@pytest.mark.parametrize("shape, count", SHAPES)
def test_puzzles_are_unique_and_minimal(shape, count):
    puzzles = generate(count, shape=shape, seed=11)
    assert len(puzzles) == count
    assert len(set(puzzles)) == count  # no draw repeats another
    for puzzle in puzzles:
        assert puzzle.status().valid
        assert unique(puzzle), puzzle
        assert minimal(puzzle), puzzle


def test_small_boards_agree_with_the_reference_solver():
    """The reference solver shares no code with the kernels: one solution, and no given that
    could go."""
    for shape in ("4x4", "2x3"):
        for puzzle in generate(5, shape=shape, seed=3):
            h, w = puzzle.shape.box_height, puzzle.shape.box_width
            cells = [int(v) for v in puzzle.cells]
            assert naive.count(cells, h, w, 2) == 1
            for cell, value in enumerate(cells):
                if value:
                    fewer = cells[:cell] + [0] + cells[cell + 1 :]
                    assert naive.count(fewer, h, w, 2) == 2


@pytest.mark.slow
@pytest.mark.parametrize("shape", ["9x9", "2x3", "3x4", "16x16"])
def test_many_puzzles_are_unique_and_minimal(shape):
    count = {"9x9": 300, "2x3": 200, "3x4": 40, "16x16": 8}[shape]
    for puzzle in generate(count, shape=shape, seed=5):
        assert unique(puzzle) and minimal(puzzle), puzzle


def test_big_boards_are_unique():
    """25x25: carving to a target number of givens (minimal puzzles of 25x25 take minutes;
    benchmarks/generate.py times them)."""
    [puzzle] = generate(1, shape="25x25", minimal=False, clues=420, seed=2)
    assert puzzle.givens <= 420
    assert unique(puzzle)


def sees(shape: Shape, symmetry: str, cells: np.ndarray) -> bool:
    """Whether the pattern of givens is unchanged by every map of ``symmetry``."""
    n = shape.size
    grid = cells.reshape(n, n) != 0
    maps = {
        "rot180": [np.rot90(grid, 2)],
        "rot90": [np.rot90(grid, 1)],
        "mirror": [grid[:, ::-1]],
        "flip": [grid[::-1, :]],
        "diagonal": [grid.T],
        "antidiagonal": [np.rot90(grid, 2).T],
        "dihedral": [np.rot90(grid, 1), grid[:, ::-1]],
    }[symmetry]
    return all((image == grid).all() for image in maps)


def orbit_minimal(board: sudokit.Board, symmetry: str) -> bool:
    """No orbit of ``symmetry`` can be taken out without a second solution."""
    for group in orbits(board.shape, symmetry):
        if board.cells[group[0]]:
            fewer = board.cells.copy()
            fewer[group] = 0
            if unique(sudokit.Board(fewer, board.shape)):
                return False
    return True


@pytest.mark.parametrize("symmetry", [s for s in generator.SYMMETRIES if s != "none"])
def test_symmetry_holds_and_puzzles_stay_minimal(symmetry):
    for shape in ("9x9", "2x3"):
        puzzles = generate(4, shape=shape, symmetry=symmetry, seed=8)
        for puzzle in puzzles:
            assert sees(puzzle.shape, symmetry, puzzle.cells), (symmetry, puzzle)
            assert unique(puzzle) and orbit_minimal(puzzle, symmetry), puzzle


@pytest.mark.parametrize("symmetry", ["rot180", "mirror", "diagonal"])
def test_strictly_minimal_symmetric_puzzles(symmetry):
    for puzzle in generate(2, symmetry=symmetry, minimal="strict", seed=3):
        assert sees(puzzle.shape, symmetry, puzzle.cells)
        assert unique(puzzle) and minimal(puzzle), puzzle


def test_orbits_partition_the_board():
    for shape in (Shape(3, 3), Shape(2, 3), Shape(4, 4)):
        for symmetry in generator.SYMMETRIES:
            groups = orbits(shape, symmetry)
            assert sorted(cell for group in groups for cell in group) == list(range(shape.cells))
    assert len(orbits(Shape(3, 3), "rot180")) == 41
    assert len(orbits(Shape(3, 3), "rot90")) == 21
    assert len(orbits(Shape(3, 3), "dihedral")) == 15


def test_a_seed_gives_the_same_puzzles_with_any_number_of_workers():
    first = generate(40, seed=21)
    assert generate(40, seed=21) == first
    assert generate(40, seed=21, workers=2) == first
    assert generate(10, seed=21) == first[:10]  # a shorter request is a prefix
    assert generate(40, seed=22) != first
    stream = generate_iter(seed=21)
    assert [next(stream) for _ in range(5)] == first[:5]


def test_clues_is_an_upper_bound():
    puzzles = generate(5, clues=25, seed=4)
    assert all(p.givens <= 25 for p in puzzles)
    loose = generate(5, clues=40, minimal=False, seed=4)
    assert all(p.givens <= 40 and unique(p) for p in loose)
    assert any(not minimal(p) for p in loose)  # stopped at the target, as asked


def test_an_unreachable_target_is_reported_not_looped():
    with pytest.raises(GenerationError) as caught:
        generate(2, clues=16, attempts=20, seed=1)
    error = caught.value
    assert error.puzzles == [] and error.attempts >= 20
    assert error.closest["fewest_givens"] >= 17
    assert "at most 16 givens" in str(error)
    with pytest.raises(GenerationError) as caught:
        generate(1000, time_limit=0.05, seed=1)
    assert 0 < len(caught.value.puzzles) < 1000


@pytest.mark.parametrize("level", ["medium", "hard", "unfair"])
def test_levels_are_what_the_rating_says(level):
    for puzzle in generate(3, level=level, seed=6):
        rating = sudokit.rate(puzzle)
        assert rating.level.value == level
        assert minimal(puzzle)


def test_a_rating_up_to_a_level_is_the_full_one_or_says_harder(data_dir):
    """The generator rates its draws only as far as the hardest level asked for: each rating
    is the full one, or None where the full path needs a harder technique (every level, on
    HoDoKu's rated sample, which holds all five)."""
    from sudokit.logic.human import rate_solved
    from sudokit.logic.techniques import BY_NAME

    lines = [line.split()[0] for line in (data_dir / "hodoku_ratings.txt").read_text().splitlines() if line[:1] not in "#"]
    puzzles = np.array([sudokit.Board.from_line(line).cells for line in lines])
    solutions = np.array([sudokit.solve(line).board.cells for line in lines])
    shape = Shape.parse("9x9")
    full = rate_solved(puzzles, solutions, shape)
    assert {rating.level for rating in full} == set(sudokit.Level)
    for level in sudokit.Level:
        capped = rate_solved(puzzles, solutions, shape, up_to=level)
        harder = [max(BY_NAME[name.lower()].level.rank for name in rating.techniques) > level.rank for rating in full]
        assert any(rating is None for rating in capped) == (level is not sudokit.Level.EXTREME), level
        for mine, theirs, needs_harder in zip(capped, full, harder):
            if mine is None:
                assert needs_harder, level
            else:  # the full rating (also where a technique after a harder one sent it back)
                assert (mine.level, mine.score, mine.techniques) == (theirs.level, theirs.score, theirs.techniques)


def test_level_and_score_ranges():
    for puzzle in generate(3, level="hard+", seed=2):
        assert sudokit.rate(puzzle).level.rank >= sudokit.Level.HARD.rank
    for puzzle in generate(3, score=(1000, 1500), seed=2):
        assert 1000 <= sudokit.rate(puzzle).score <= 1500
    for puzzle in generate(2, shape="2x3", level="easy", seed=2):  # every shape rates
        assert sudokit.rate(puzzle).level.value == "easy"


@pytest.mark.parametrize(
    "arguments, message",
    [
        ({"symmetry": "spiral"}, "symmetry must be one of"),
        ({"level": "nightmare"}, "level must be one of"),
        ({"score": (900, 100)}, "is empty"),
        ({"clues": 0}, "clues must be"),
        ({"shape": "7x7"}, "prime"),
        ({"seed": -1}, "seed must be"),
        ({"attempts": 0}, "attempts must be"),
        ({"mixing": -2}, "mixing must be"),
        ({"minimal": "yes"}, "minimal must be"),
    ],
)
def test_bad_requests_say_what_is_wrong(arguments, message):
    with pytest.raises(ValueError, match=message):
        generate(1, **arguments)


@pytest.mark.slow  # 30 s: a chi-square over many grids
def test_full_grids_of_4x4_are_uniform():
    """Every one of the 288 grids of 4x4 equally likely: a chi-square test over 28,800 grids
    (287 degrees of freedom; 400 is beyond the 99.99th percentile of that distribution).
    One Gibbs move is an exact draw on 4x4. Without it the search's own bias shows: far
    beyond any percentile (the figure is kept in the module's docstring)."""
    counts = collections.Counter(board.to_line() for board in full_grids(28_800, shape="4x4", mixing=1, seed=1))
    assert len(counts) == 288
    expected = 28_800 / 288
    chi_square = sum((number - expected) ** 2 / expected for number in counts.values())
    assert chi_square < 400
    biased = collections.Counter(board.to_line() for board in full_grids(28_800, shape="4x4", seed=1))
    assert sum((biased[line] - expected) ** 2 / expected for line in counts) > 600


def test_gibbs_moves_in_slices_are_the_moves_of_one_call():
    """Under a time limit the moves are made a few at a time (the deadline is checked between
    calls); each grid's random state carries over, so a seed gives the same grids."""
    shape = Shape.parse("9x9")
    kernel, _ = generator.engines.generation_kernel(shape)
    start = generator._random_grids(np.random.default_rng(5), shape, 4)
    seeds = np.arange(11, 15, dtype=np.uint64) * np.uint64(7919) | np.uint64(1)
    whole, sliced = start.copy(), start.copy()
    assert generator._mix(kernel, shape, whole, seeds.copy(), 9, None)
    assert generator._mix(kernel, shape, sliced, seeds.copy(), 9, time.perf_counter() + 600)
    assert (whole == sliced).all() and (whole != start).any()
    assert not generator._mix(kernel, shape, start.copy(), seeds.copy(), 9, time.perf_counter() - 1)


def test_full_grids_are_solutions_of_every_shape():
    for shape in ("4x4", "2x3", "9x9", "3x4", "16x16", "25x25"):
        for grid in full_grids(3, shape=shape, mixing=1 if shape != "25x25" else 0, seed=9):
            assert grid.status().solved


def test_command_line_streams_puzzles(tmp_path):
    runner = CliRunner()
    done = runner.invoke(cli, ["generate", "-n", "4", "--seed", "7", "--symmetry", "rot180"])
    assert done.exit_code == 0, done.output
    lines = done.stdout.split()
    assert [sudokit.Board.from_line(line) for line in lines] == generate(4, seed=7, symmetry="rot180")
    out = tmp_path / "grids.txt"
    done = runner.invoke(cli, ["generate", "-n", "2", "--shape", "6x6", "--to", "grid", "--seed", "1", "-o", str(out)])
    assert done.exit_code == 0, done.output
    boards = [record.board for record in sudokit.read_text(out.read_text())]
    assert boards == generate(2, shape="6x6", seed=1)
    done = runner.invoke(cli, ["generate", "-n", "2", "--seed", "3", "--symmetry", "rot90", "--strict-minimal", "--mixing", "1"])
    assert done.exit_code == 0, done.output
    strict = generate(2, seed=3, symmetry="rot90", minimal="strict", mixing=1)
    assert [sudokit.Board.from_line(line) for line in done.stdout.split()] == strict


def test_command_line_budget_and_errors(tmp_path):
    runner = CliRunner()
    done = runner.invoke(cli, ["generate", "-n", "2", "--clues", "16", "--attempts", "10"])
    assert done.exit_code == 3
    assert "at most 16 givens" in done.output
    done = runner.invoke(cli, ["generate", "--level", "nightmare"])
    assert done.exit_code == 2 and "level must be one of" in done.output
    done = runner.invoke(cli, ["generate", "--score", "lots"])
    assert done.exit_code == 2
    done = runner.invoke(cli, ["generate", "-o", str(tmp_path / "no such folder" / "out.txt")])
    assert done.exit_code == 2 and "cannot write" in done.output and "Traceback" not in done.output
    done = runner.invoke(cli, ["generate", "--strict-minimal", "--not-minimal"])
    assert done.exit_code == 2 and "contradict" in done.output
