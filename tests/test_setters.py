"""The setters' questions: diagnose, make_unique, reduce and estimate.

Every answer is checked independently: cores, redundant givens and reductions on small boards
with the naive reference (``naive.py``), the fewest givens to add against a brute force over
every set of cells, estimates against exact counts (their 95% interval holding the count in at
least 95 of 100 seeded runs)."""

from __future__ import annotations

import itertools
import json
import math
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import naive
import sudokit
from conftest import DATA, ENTRIES
from sudokit import Board, Geometry, Shape, SolveStatus
from sudokit.logic import CandidateGrid
from sudokit.generator import full_grids
from sudokit.setters import forced_contradiction, sampling
from sudokit.setters.clues import hitting_set

DATA = Path(__file__).parent / "data"
SHAPES = {4: (2, 2), 6: (2, 3)}


def naive_count(cells, size: int, limit: int) -> int:
    height, width = SHAPES[size]
    return naive.count([int(v) for v in cells], height, width, limit)


def random_boards(size: int, givens: int, seed: int, want: str, count: int) -> list[Board]:
    """Seeded boards of ``size`` with ``givens`` random values that repeat in no house, whose
    naive count is 0 (``want='none'``) or between 2 and 300 (``'several'``)."""
    rng = random.Random(seed)
    height, width = SHAPES[size]
    houses = naive.houses(height, width)
    found = []
    while len(found) < count:
        cells = [0] * (size * size)
        for cell in rng.sample(range(size * size), givens):
            cells[cell] = rng.randint(1, size)
        if any(len([cells[c] for c in house if cells[c]]) != len({cells[c] for c in house if cells[c]}) for house in houses):
            continue
        number = naive.count(cells, height, width, 301)
        if (want == "none" and number == 0) or (want == "several" and 2 <= number <= 300):
            found.append(Board(cells, Shape(height, width)))
    return found


def several_from_grids(size: int, seed: int, count: int) -> list[Board]:
    """Boards carved from random full grids until they have 2 to 300 solutions (naive count)."""
    rng = random.Random(seed)
    height, width = SHAPES[size] if size in SHAPES else (3, 3)
    boards = []
    for grid in full_grids(count, shape=Shape(height, width), seed=seed):
        cells = grid.cells.astype(int).tolist()
        order = list(range(size * size))
        rng.shuffle(order)
        for cell in order:
            kept = cells[cell]
            cells[cell] = 0
            if naive.count(cells, height, width, 301) > 300:
                cells[cell] = kept
                break
        boards.append(Board(cells, Shape(height, width)))
    return [board for board in boards if naive.count(board.cells.tolist(), height, width, 2) >= 2]


# -- diagnose: no solution --------------------------------------------------------------------


@pytest.mark.parametrize("size, givens, seed", [(4, 5, 1), (4, 6, 2), (6, 9, 3), (6, 12, 4)])
def test_core_is_unsatisfiable_and_minimal(size, givens, seed):
    for board in random_boards(size, givens, seed, "none", 6):
        diagnosis = sudokit.diagnose(board)
        assert diagnosis.status is SolveStatus.NO_SOLUTION and diagnosis.proven
        core = diagnosis.core
        assert core and set(core) <= set(np.flatnonzero(board.cells).tolist())
        values = np.zeros_like(board.cells)
        values[list(core)] = board.cells[list(core)]
        assert naive_count(values, size, 1) == 0
        for cell in core:  # every one-smaller subset has a solution
            smaller = values.copy()
            smaller[cell] = 0
            assert naive_count(smaller, size, 1) == 1, (board.to_line(), core, cell)


def test_repeated_givens_are_the_core():
    board = Board.from_line("5.......5" + "." * 72)
    diagnosis = sudokit.diagnose(board)
    assert diagnosis.core == (0, 8)
    assert diagnosis.chain is not None and not diagnosis.chain.steps
    assert diagnosis.chain.contradiction == "5 twice in row 1 (r1c1, r1c9)"
    assert diagnosis.rules == ("row 1",)


def test_tdoku_boards_without_solution():
    """Givens in no direct conflict: the core comes from search, and stays minimal."""
    lines = [line.split(":")[0] for line in (DATA / "classic_9x9.txt").read_text().splitlines()
             if line and not line.startswith("#") and line.split(":")[1] == "0"]
    assert lines
    for line in lines:
        diagnosis = sudokit.diagnose(line)
        assert diagnosis.status is SolveStatus.NO_SOLUTION and diagnosis.proven
        board = Board.from_line(line)
        values = np.zeros(81, dtype=np.uint8)
        values[list(diagnosis.core)] = board.cells[list(diagnosis.core)]
        assert sudokit.solve(Board(values)).status is SolveStatus.NO_SOLUTION
        for cell in diagnosis.core:
            smaller = values.copy()
            smaller[cell] = 0
            assert sudokit.solve(Board(smaller)).solved


def test_chain_of_singles_in_the_engines_words():
    """A wrong value in a generated puzzle: singles run into a contradiction, each step as the
    technique engine writes it, and each one a step the engine finds on the board before it."""
    board = Board.from_line("..25.4.1..8..31........9....7....4.82........641...32........5746...3....2.7.69.1")
    diagnosis = sudokit.diagnose(board)
    chain = diagnosis.chain
    assert chain is not None and chain.steps
    assert [step.text for step in chain.steps] == ["Hidden Single: r9c8=3"]
    assert chain.contradiction == "4 has no place in box 9"
    assert diagnosis.rules == ("row 8", "column 7", "box 9")
    assert set(chain.givens) == set(diagnosis.core)
    core_board = Board(np.where(np.isin(np.arange(81), diagnosis.core), board.cells, 0))
    grid = CandidateGrid(core_board)
    found = {step.text for technique in (chain.steps[0].technique,) for step in grid.find_all(technique)}
    assert chain.steps[0].text in found


def test_chain_steps_are_forced_in_order():
    """On seeded wrong boards every step of a chain is a single on the grid the steps before it
    leave (checked here from scratch), and the contradiction follows the last one."""
    rng = random.Random(7)
    checked = 0
    for puzzle in sudokit.generate(6, seed=11):
        solution = sudokit.solve(puzzle).board.cells
        for _ in range(20):
            cell = rng.choice(np.flatnonzero(puzzle.cells == 0).tolist())
            value = rng.choice([v for v in range(1, 10) if v != solution[cell]])
            wrong = puzzle.cells.copy()
            wrong[cell] = value
            board = Board(wrong)
            if not board.status().valid:
                continue
            chain = forced_contradiction(board)
            if chain is None:
                continue
            values = np.zeros(81, dtype=np.int64)
            values[list(chain.givens)] = board.cells[list(chain.givens)]
            for step in chain.steps:
                (at, placed), = step.placements
                assert step.technique.name in ("Full House", "Naked Single", "Hidden Single")
                assert _forced(values, at, placed), (board.to_line(), step.text)
                values[at] = placed
            assert sudokit.solve(Board(np.where(values > 0, values, 0).astype(np.uint8))).status is SolveStatus.NO_SOLUTION
            checked += 1
    assert checked >= 10


def _forced(values: np.ndarray, cell: int, value: int) -> bool:
    """Whether ``value`` is a naked or hidden single at ``cell`` given ``values`` (9x9)."""
    houses = naive.houses(3, 3)

    def allowed(c: int, v: int) -> bool:
        return values[c] == 0 and all(values[p] != v for h in houses if c in h for p in h)

    if values[cell]:
        return values[cell] == value
    if [v for v in range(1, 10) if allowed(cell, v)] == [value]:
        return True
    return any(cell in h and [c for c in h if allowed(c, value)] == [cell] for h in houses)


def _jigsaw_clash() -> Board:
    """A jigsaw with one value twice in a region, in different rows and columns."""
    regions = json.loads((DATA / "variants" / "jigsaw.jsonl").read_text().splitlines()[0])["regions"]
    geometry = Geometry.jigsaw(regions)
    region = geometry.houses[18].tolist()
    a, b = next((a, b) for a, b in itertools.combinations(region, 2) if a // 9 != b // 9 and a % 9 != b % 9)
    cells = np.zeros(81, dtype=np.uint8)
    cells[[a, b]] = 4
    return Board(cells, geometry=geometry)


VARIANTS = {
    "jigsaw": _jigsaw_clash,
    "diagonal": lambda: Board.from_line("1" + "." * 39 + "1" + "." * 40, geometry=Shape(3, 3).geometry.with_diagonals()),
    "killer": lambda: Board.from_line("." * 81, cages=[(3, (0, 1)), (3, (9, 10))]),
    "marks": lambda: Board.from_line("12" + "." * 79, candidates=[[1], [2], [1, 2]] + [list(range(1, 10))] * 78),
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variant_cores(name):
    """Every variant the solvers take: the core has no solution, each one-smaller has one."""
    board = VARIANTS[name]()
    diagnosis = sudokit.diagnose(board)
    assert diagnosis.status is SolveStatus.NO_SOLUTION and diagnosis.proven
    from sudokit.setters.searching import with_givens

    core = list(diagnosis.core)
    assert sudokit.solve(with_givens(board, core)).status is SolveStatus.NO_SOLUTION
    for cell in core:
        assert sudokit.solve(with_givens(board, [c for c in core if c != cell])).solved
    assert diagnosis.rules


def test_diagonal_core_names_the_diagonal():
    board = Board.from_line("1" + "." * 39 + "1" + "." * 40, geometry=Shape(3, 3).geometry.with_diagonals())
    diagnosis = sudokit.diagnose(board)
    assert diagnosis.core == (0, 40)
    assert diagnosis.rules == ("diagonal 1",)


# -- diagnose: several solutions, unique ------------------------------------------------------


def test_several_solutions_gives_two_and_where_they_differ():
    for board in random_boards(6, 10, 5, "several", 4):
        diagnosis = sudokit.diagnose(board)
        assert diagnosis.status is SolveStatus.SEVERAL
        first, second = diagnosis.solutions
        assert first.is_solution_of(board) and second.is_solution_of(board) and first != second
        assert diagnosis.differing == tuple(np.flatnonzero(first.cells != second.cells).tolist())


def test_unique_redundant_givens_against_naive():
    rng = random.Random(3)
    for puzzle in sudokit.generate(3, shape="6x6", seed=2):
        solution = sudokit.solve(puzzle).board.cells
        cells = puzzle.cells.copy()
        for cell in rng.sample(np.flatnonzero(cells == 0).tolist(), 3):
            cells[cell] = solution[cell]  # extra givens: some become redundant
        board = Board(cells, puzzle.shape)
        diagnosis = sudokit.diagnose(board)
        assert diagnosis.status is SolveStatus.SOLVED and diagnosis.proven
        expected = [c for c in np.flatnonzero(cells).tolist()
                    if naive_count(np.where(np.arange(36) == c, 0, cells), 6, 2) == 1]
        assert list(diagnosis.redundant) == expected
        assert diagnosis.minimal is (not expected)
    minimal = sudokit.generate(1, shape="6x6", seed=4)[0]
    assert sudokit.diagnose(minimal).minimal is True


def test_budget_stops_with_what_is_known():
    diagnosis = sudokit.diagnose("." * 625, node_limit=5)
    assert diagnosis.status is SolveStatus.UNKNOWN and not diagnosis.proven


# -- make_unique and reduce -------------------------------------------------------------------


def brute_force_fewest(board: Board, target: np.ndarray, solutions: list[np.ndarray]) -> int:
    """The fewest open cells that tell every other solution from ``target``: every set of
    cells, in order of size."""
    others = np.array([s for s in solutions if (s != target).any()])
    if not len(others):
        return 0
    cells = [c for c in np.flatnonzero(board.cells == 0).tolist() if (others[:, c] != target[c]).any()]
    differ = others[:, cells] != target[cells]
    for size in range(len(cells) + 1):
        for combo in itertools.combinations(range(len(cells)), size):
            if differ[:, list(combo)].any(axis=1).all():
                return size
    raise AssertionError("unreachable: all the cells tell every solution apart")


def naive_solutions(board: Board) -> list[np.ndarray]:
    height, width = board.shape.box_height, board.shape.box_width
    return [np.array(s, dtype=np.uint8) for s in naive.solutions(board.cells.astype(int).tolist(), height, width)]


@pytest.mark.parametrize("size, seed", [(4, 1), (4, 2), (6, 3), (6, 4)])
def test_make_unique_is_fewest(size, seed):
    boards = random_boards(size, size + size // 2, seed, "several", 4) + several_from_grids(size, seed, 3)
    for board in boards:
        solutions = naive_solutions(board)
        assert 2 <= len(solutions) <= 300
        target = solutions[len(solutions) // 2]
        result = sudokit.make_unique(board, solution=Board(target, board.shape))
        assert result.status is SolveStatus.SOLVED and result.proven
        made = result.board
        assert np.array_equal(made.cells[board.cells > 0], board.cells[board.cells > 0])  # givens kept
        assert set(np.flatnonzero(made.cells != board.cells).tolist()) == set(result.added)
        assert naive_count(made.cells, size, 2) == 1 and np.array_equal(naive_solutions(made)[0], target)
        assert len(result.added) == result.bound == brute_force_fewest(board, target, solutions)


def test_make_unique_on_tdoku_multi_9x9():
    """tdoku's multi-solution puzzles (3 to 847 solutions): the fewest, against a brute force
    over every solution (sudokit's own enumeration, checked against the counts shipped)."""
    lines = (DATA / "tdoku_test_multi.txt").read_text().split()
    counts = [int(c) for c in (DATA / "tdoku_test_multi.counts.txt").read_text().split()]
    for line, number in list(zip(lines, counts))[:8]:
        board = Board.from_line(line)
        solutions = [s.cells.copy() for s in sudokit.solutions(board)]
        assert len(solutions) == number
        result = sudokit.make_unique(board)
        assert result.proven and sudokit.is_unique(result.board)
        target = sudokit.solve(result.board).board.cells
        assert len(result.added) == brute_force_fewest(board, target, solutions)


def test_make_unique_keep_and_refusals():
    board = random_boards(4, 5, 9, "several", 1)[0]
    open_cells = np.flatnonzero(board.cells == 0).tolist()
    assert sudokit.make_unique(board, keep=open_cells).status is SolveStatus.SEVERAL
    result = sudokit.make_unique(board, keep=open_cells[:2])
    assert result.status is SolveStatus.SOLVED and not set(result.added) & set(open_cells[:2])
    with pytest.raises(ValueError, match="not a solution"):
        sudokit.make_unique(board, solution="1" * 16)
    unique = sudokit.generate(1, shape="4x4", seed=1)[0]
    assert sudokit.make_unique(unique).added == () and sudokit.make_unique(unique).proven
    assert sudokit.make_unique(random_boards(4, 5, 1, "none", 1)[0]).status is SolveStatus.NO_SOLUTION


# a 6x6 Sukaku (fuzzing, seed 10): ten cells with one pencil mark, the rest open
MARKED_6X6 = ("123456123456123456000050123456123456123456123456000400123456003000123456123456123456123456123456"
              "100000123456100000000400123456123456123456123456003000000050123456123456123456000006000400123456"
              "123456123456123456123456")


def test_a_board_made_unique_keeps_its_marks_in_json():
    # its JSON 'board' was the line of its givens: another board, with many more solutions
    board = Board.parse(MARKED_6X6)
    result = sudokit.make_unique(board, keep=[4])
    written = result.to_json()["board"]
    assert isinstance(written, dict) and Board.parse(json.dumps(written)) == result.board
    assert sudokit.is_unique(Board.parse(json.dumps(written)))
    plain = sudokit.make_unique(random_boards(4, 5, 9, "several", 1)[0])
    assert plain.to_json()["board"] == plain.board.to_line()


def test_the_budget_run_out_completion_gives_no_cell_its_marks_decide():
    # with the budget run out, every open cell was given, those with one pencil mark too
    from sudokit.setters.clues import _greedy_completion
    from sudokit.setters.searching import Budget

    board = Board.parse(MARKED_6X6)
    target = sudokit.solve(board).board.cells
    marked = {cell for cell, mask in enumerate(board.candidates.tolist()) if mask.bit_count() == 1}
    cells = _greedy_completion(board, target, [], frozenset({4}), Budget(None, None))
    assert cells is not None and len(marked) == 10 and not set(cells) & marked and len(cells) == 36 - 1 - 10


def test_hitting_set_exact():
    rng = random.Random(5)
    for _ in range(40):
        sets = [sum(1 << c for c in rng.sample(range(12), rng.randint(1, 4))) for _ in range(rng.randint(1, 10))]
        chosen, proven = hitting_set(sets)
        assert proven and all(any(s >> c & 1 for c in chosen) for s in sets)
        fewest = next(k for k in range(13) if any(all(any(s >> c & 1 for c in combo) for s in sets)
                                                   for combo in itertools.combinations(range(12), k)))
        assert len(chosen) == fewest


@pytest.mark.parametrize("size", [4, 6])
def test_reduce_is_minimal_and_unique(size):
    height, width = SHAPES[size]
    for grid in sudokit.generator.full_grids(3, shape=Shape(height, width), seed=size):
        keep = [0, size + 1]
        result = sudokit.reduce(grid, keep=keep)
        assert result.status is SolveStatus.SOLVED and result.proven
        cells = result.board.cells
        assert all(cells[c] == grid.cells[c] for c in keep)
        assert naive_count(cells, size, 2) == 1
        for cell in np.flatnonzero(cells).tolist():
            if cell in keep:
                continue
            assert naive_count(np.where(np.arange(size * size) == cell, 0, cells), size, 2) == 2


def test_reduce_refuses_boards_without_one_solution():
    assert sudokit.reduce("." * 16).status is SolveStatus.SEVERAL
    assert sudokit.reduce("11" + "." * 14).status is SolveStatus.NO_SOLUTION


# -- estimate ---------------------------------------------------------------------------------


def _coverage(line: str, true: int, samples: int, runs: int = 100, shape: Shape | None = None) -> int:
    inside = 0
    for seed in range(runs):
        result = sudokit.estimate(line, samples=samples, seed=seed, shape=shape)
        assert result.samples == samples
        inside += result.low <= true <= result.high
    return inside


def test_estimate_is_seeded_and_exact_where_it_must_be():
    first = sudokit.estimate("." * 81, samples=200, seed=4)
    assert first == sudokit.estimate("." * 81, samples=200, seed=4)
    assert first.value != sudokit.estimate("." * 81, samples=200, seed=5).value
    none = sudokit.estimate("11" + "." * 79, samples=50, seed=1)  # givens that clash: exactly none
    assert none.value == none.low == none.high == 0 and none.hits == 0
    unique = ENTRIES[[e.count for e in ENTRIES].index(1)]
    one = sudokit.estimate(unique.puzzle, samples=50, seed=1)
    assert one.low <= 1 <= one.high
    with pytest.raises(ValueError):
        sudokit.estimate("." * 81, samples=1)


def test_an_estimate_whose_probes_reach_no_solution_has_no_upper_bound():
    """A killer's one solution went unseen by 10,000 probes, and the interval said "0 to 0"; a
    spread of one probe (a time limit cut it there) says nothing either."""
    killer = sudokit.Board.parse((DATA / "variants" / "killer.jsonl").read_text().splitlines()[0])
    unseen = sudokit.estimate(killer, samples=200, seed=1)
    assert unseen.hits == 0 and sudokit.count(killer, 2).count == 1
    assert unseen.low == 0 and unseen.high == math.inf and unseen.relative_error == math.inf
    assert "0 to no bound" in unseen.summary() and unseen.to_json()["high"] is None



def test_an_estimate_of_one_probe_has_no_upper_bound(monkeypatch):
    # a time limit that leaves one probe: its weight is the mean, and its spread says nothing
    monkeypatch.setattr(sampling, "log_weights", lambda *args, **kwargs: np.array([math.log(288.0)]))
    lone = sudokit.estimate("." * 16, samples=2, seed=1, time_limit=1.0)
    assert lone.samples == 1 and lone.hits == 1 and lone.low == 0 and lone.high == math.inf
    assert lone.known and round(lone.value) == 288 and "1 sample," in lone.summary()


def test_a_probe_cut_in_pieces_draws_what_it_would_whole(monkeypatch):
    """The kernel returns after each propagation and goes on at the next call: the same probes,
    so a time limit looked at inside a probe changes nothing else."""
    killer = sudokit.Board.parse((DATA / "variants" / "killer.jsonl").read_text().splitlines()[0])
    boards = [Board.parse("." * 81), Board.parse(ENTRIES[0].puzzle), killer]
    whole = [sampling.log_weights(board, 60, seed=3) for board in boards]
    monkeypatch.setattr(sampling, "FIRST_STEPS", 1)
    monkeypatch.setattr(sampling, "GROWTH", 1)
    for board, expected in zip(boards, whole):
        assert np.array_equal(sampling.log_weights(board, 60, seed=3), expected)


def test_estimate_takes_no_more_samples_than_it_can_hold():
    with pytest.raises(ValueError, match="from 2 to"):
        sudokit.estimate("." * 81, samples=10**23)
    done = subprocess.run([sys.executable, "-m", "sudokit", "estimate", "--samples", str(10**23)], input="." * 81 + "\n",
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 2 and "--samples" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow  # 10 s each: hundreds of estimates, to count how often the interval holds
@pytest.mark.parametrize("line, true, samples", [("." * 16, 288, 500), ("." * 36, 28_200_960, 200)])
def test_estimate_interval_holds_small_counts(line, true, samples):
    assert _coverage(line, true, samples) >= 95


@pytest.mark.slow
def test_estimate_interval_holds_9x9():
    assert _coverage("." * 81, 6_670_903_752_021_072_936_960, 1000) >= 95


@pytest.mark.slow
def test_estimate_interval_holds_counted_partial_boards():
    """Partial boards counted exactly (``puzzles.txt``: naive counts; tdoku's published ones)."""
    chosen = [e for e in ENTRIES if e.count >= 20][:4]
    lines = (DATA / "tdoku_test_multi.txt").read_text().split()
    counts = [int(c) for c in (DATA / "tdoku_test_multi.counts.txt").read_text().split()]
    cases = [(e.puzzle, e.count) for e in chosen] + [(lines[k], counts[k]) for k in range(0, len(lines), 5)]
    assert len(cases) >= 5
    for line, true in cases:
        assert _coverage(line, true, 300) >= 95, (line, true)


def test_estimate_partial_board_fast():
    lines = (DATA / "tdoku_test_multi.txt").read_text().split()
    counts = [int(c) for c in (DATA / "tdoku_test_multi.counts.txt").read_text().split()]
    k = counts.index(max(counts))
    assert _coverage(lines[k], counts[k], 200, runs=20) >= 19


def test_estimate_variants():
    """A killer's cages, a jigsaw's regions and extra houses count: small boards against the
    exact count."""
    killer = Board.from_line("." * 16, cages=[(3, (0, 1)), (7, (2, 3))])
    exact = sudokit.count(killer, 10_000).count
    assert 0 < exact < 288
    assert _coverage(killer.to_json(), exact, 300, runs=20, shape=None) >= 19
    diagonal = Board.from_line("." * 16, geometry=Shape(2, 2).geometry.with_diagonals())
    exact = sudokit.count(diagonal, 10_000).count
    result = sudokit.estimate(diagonal, samples=500, seed=1)
    assert result.low <= exact <= result.high and result.value < 288


@pytest.mark.slow
def test_estimate_empty_16x16():
    """The published estimate for the empty 16x16 board: about 5.96e98."""
    result = sudokit.estimate("." * 256, samples=2_000, seed=1)
    assert result.low <= 5.96e98 <= result.high
    assert 5e97 < result.value < 5e99
