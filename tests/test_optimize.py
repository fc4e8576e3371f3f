"""Weighted optimisation: every optimum checked against exhaustive enumeration by the naive
reference, seed 003's samples through the API and the command line, budgets and bad weights."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import naive
import numpy as np
import pytest
from click.testing import CliRunner
from conftest import ENTRIES
from hypothesis import given, settings
from hypothesis import strategies as st

import sudokit
from sudokit import Board, Shape, SolveStatus, maximize, minimize
from sudokit.cli import cli
from sudokit.engines import OPTIMIZE_FIRST_WORK, OptimizeSearch
from sudokit.optimize import as_weights, optimum, parse_weights, preset, score
from sudokit.results import UNLIMITED, Limits

SHAPES = {4: Shape(2, 2), 6: Shape(2, 3), 9: Shape(3, 3)}


def full_grid(box_height: int, box_width: int, rng: random.Random) -> list[int]:
    """A random finished grid: the naive solver's first one, values relabelled at random."""
    base = next(naive.solutions([0] * (box_height * box_width) ** 2, box_height, box_width))
    labels = list(range(1, box_height * box_width + 1))
    rng.shuffle(labels)
    return [labels[value - 1] for value in base]


def thin_out(grid: list[int], shape: Shape, rng: random.Random, most: int) -> list[int]:
    """Empty cells of a grid in random order while the board keeps at most ``most``
    completions (sudokit's counter only picks the board; the answers come from naive)."""
    puzzle = list(grid)
    order = list(range(len(grid)))
    rng.shuffle(order)
    for cell in order:
        kept = puzzle[cell]
        puzzle[cell] = 0
        if sudokit.count(Board(puzzle, shape), most + 1).count > most:
            puzzle[cell] = kept
    return puzzle


def enumerate_scores(puzzle: list[int], shape: Shape) -> tuple[np.ndarray, np.ndarray]:
    """Every completion (rows of an array) by the naive solver, and the completions as ints."""
    solutions = list(naive.solutions(puzzle, shape.box_height, shape.box_width))
    return np.array(solutions, dtype=np.int64).reshape(len(solutions), shape.cells), solutions


def check_against_naive(puzzle: list[int], shape: Shape, weights: np.ndarray, completions: np.ndarray) -> None:
    board = Board(puzzle, shape)
    flat = weights.reshape(-1)
    scores = completions @ flat if len(completions) else None
    for run, pick in ((maximize, np.max), (minimize, np.min)):
        expected = None if scores is None else int(pick(scores))
        result = run(board, weights)
        if not len(completions):
            assert result.value is None and result.board is None
            assert result.status is SolveStatus.NO_SOLUTION and result.proven
            continue
        assert result.status is SolveStatus.SOLVED and result.proven
        assert result.value == expected == result.bound
        assert result.board.is_solution_of(board)
        assert int(flat @ result.board.cells.astype(np.int64)) == expected
        assert naive.is_solution([int(v) for v in result.board.cells], puzzle, shape.box_height, shape.box_width)


# -- against exhaustive enumeration ---------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 2)])
def test_small_boards_match_exhaustive_enumeration(box):
    rng = random.Random(sum(box) * 31 + box[0])
    shape = Shape(*box)
    n = shape.size
    for trial in range(25):
        grid = full_grid(*box, rng)
        puzzle = thin_out(grid, shape, rng, most=rng.choice([20, 300, 3000]))
        if trial % 5 == 4:  # a clash the givens do not show: usually no completion
            cell = rng.choice([c for c, v in enumerate(puzzle) if v == 0])
            puzzle[cell] = rng.randint(1, n)
        completions, _ = enumerate_scores(puzzle, shape)
        weights = np.array([[rng.randint(-30, 30) for _ in range(n)] for _ in range(n)])
        check_against_naive(puzzle, shape, weights, completions)
        check_against_naive(puzzle, shape, preset("target", n), completions)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_9x9_boards_with_thousands_of_completions(seed):
    rng = random.Random(seed)
    shape = Shape(3, 3)
    grid = full_grid(3, 3, rng)
    puzzle = thin_out(grid, shape, rng, most=3000)
    completions, _ = enumerate_scores(puzzle, shape)
    assert 300 <= len(completions) <= 3000  # the board is as intended
    check_against_naive(puzzle, shape, preset("target", 9), completions)
    for _ in range(3):
        weights = np.array([[rng.randint(-100, 100) for _ in range(9)] for _ in range(9)])
        check_against_naive(puzzle, shape, weights, completions)


@settings(max_examples=60, deadline=None)
@given(
    box=st.sampled_from([(2, 2), (2, 3)]),
    seed=st.integers(0, 2**32 - 1),
    empties=st.integers(0, 36),
    weights=st.lists(st.integers(-1000, 1000), min_size=36, max_size=36),
)
def test_any_weights_any_holes(box, seed, empties, weights):
    rng = random.Random(seed)
    shape = Shape(*box)
    n = shape.size
    grid = full_grid(*box, rng)
    # a whole 4x4 board has 288 completions; 6x6 boards stay small with at most 14 holes
    holes = rng.sample(range(n * n), min(empties, 16 if n == 4 else 14))
    puzzle = [0 if cell in holes else value for cell, value in enumerate(grid)]
    completions, _ = enumerate_scores(puzzle, shape)
    matrix = np.array(weights[: n * n]).reshape(n, n)
    check_against_naive(puzzle, shape, matrix, completions)


def test_boards_without_completion():
    for entry in [e for e in ENTRIES if e.count == 0][:6]:
        board = Board.from_line(entry.puzzle)
        for run in (maximize, minimize):
            result = run(board, "target")
            assert result.status is SolveStatus.NO_SOLUTION
            assert result.value is None and result.board is None and result.proven
            assert not result


def test_repeated_givens_are_a_result_not_an_error():
    result = maximize("11" + "." * 79)
    assert result.status is SolveStatus.NO_SOLUTION and result.conflicts
    assert result.nodes == 0 and result.value is None


def test_the_dual_bound_does_not_change_the_answer():
    """Without coordinate descent (0 sweeps) the dual bound is loose, with 4 it is tight:
    both are admissible, so the optimum is the same and only the node counts differ."""
    rng = random.Random(7)
    shape = Shape(3, 3)
    puzzle = thin_out(full_grid(3, 3, rng), shape, rng, most=3000)
    weights = np.array([[rng.randint(-50, 50) for _ in range(9)] for _ in range(9)])
    answers = {
        sweeps: optimum(Board(puzzle), as_weights(weights, 9), "max", Limits(UNLIMITED), sweeps=sweeps)
        for sweeps in (0, 1, 4)
    }
    assert len({result.value for result in answers.values()}) == 1
    assert all(result.proven for result in answers.values())


# -- seed 003 -------------------------------------------------------------------------------


@pytest.mark.parametrize("name, answer", [("target_01", 2829), ("target_02", 2852)])
def test_seed_003_samples(data_dir, name, answer):
    board = Board.from_ints((data_dir / f"{name}.in").read_text())
    result = maximize(board)  # "target" is the default
    assert result.value == answer and result.proven and result.status is SolveStatus.SOLVED
    assert result.board.is_solution_of(board)
    assert score(result.board) == answer
    assert (data_dir / f"{name}.out").read_text() == f"{answer}\n"


def test_target_preset_is_seed_003s_rings():
    seed_rule = [[(min(min(x, 8 - x), min(y, 8 - y)) + 6) for y in range(9)] for x in range(9)]
    assert preset("target", 9).tolist() == seed_rule
    assert preset("target", 4).tolist() == [[6, 6, 6, 6], [6, 7, 7, 6], [6, 7, 7, 6], [6, 6, 6, 6]]
    assert preset("target", 16).max() == 13 and preset("target", 16).min() == 6
    assert preset("target", 6)[2, 3] == 8


# -- budgets --------------------------------------------------------------------------------


def test_node_budget_gives_an_unproven_answer_and_a_bound():
    board = Board.empty(9)
    optimum = maximize(board).value
    lowest = minimize(board).value
    for limit in (1, 3, 50):
        result = maximize(board, node_limit=limit)
        assert result.status is SolveStatus.UNKNOWN and not result.proven and not result
        assert result.bound is not None and result.bound >= optimum
        assert result.value is None or result.value <= optimum
        low = minimize(board, node_limit=limit)
        assert low.bound is not None and low.bound <= lowest
        assert low.value is None or low.value >= lowest


def test_time_budget_stops_a_hard_search():
    result = maximize(Board.empty(16), time_limit=0)
    assert result.status is SolveStatus.UNKNOWN and not result.proven
    assert result.bound is not None and (result.value is None or result.bound >= result.value)
    assert result.gap is None or result.gap >= 0


@pytest.mark.parametrize("size", [16, 64])
def test_a_time_budget_runs_one_small_first_slice_on_a_big_board(size):
    # a node's bound reads every value of every house: 395 nodes of an open 64x64 (the old first
    # slice) took a second past a 0.05 s budget; the first slice is sized by that work
    result = maximize(Board.empty(size), time_limit=0)
    assert result.status is SolveStatus.UNKNOWN
    assert 0 < result.nodes <= max(10, OPTIMIZE_FIRST_WORK // size**3)


def test_paused_search_resumes_to_the_same_optimum_with_sound_bounds():
    rng = random.Random(11)
    shape = Shape(3, 3)
    puzzle = thin_out(full_grid(3, 3, rng), shape, rng, most=2000)
    weights = np.array([[rng.randint(-20, 40) for _ in range(9)] for _ in range(9)])
    expected = maximize(Board(puzzle), weights)
    search = OptimizeSearch(Board(puzzle), weights)
    while True:
        code = search.step(1 << 62, 1, 1)
        if code != sudokit.kernels.search.protocol.BUDGET:
            break
        bound = search.open_bound()
        assert bound is None or bound >= expected.value
        assert not search.found or search.best <= expected.value
    assert search.found and search.best == expected.value
    assert search.nodes == expected.nodes


# -- weights --------------------------------------------------------------------------------


def test_weights_accept_lists_arrays_and_presets():
    rows = [[1, 2, 3, 4]] * 4
    assert as_weights(rows, 4).dtype == np.int64
    assert as_weights(np.array(rows, dtype=np.int8), 4).tolist() == rows
    assert as_weights("target", 4).shape == (4, 4)
    assert maximize("12..34..........", rows).value == minimize("12..34..........", np.array(rows)).value == 100


@pytest.mark.parametrize(
    "weights, message",
    [
        ([[1] * 4] * 3, "3x4, the board is 4x4"),
        ([[1] * 9] * 9, "9x9, the board is 4x4"),
        ([[1, 2, 3, 4]] * 3 + [[1, 2, 3]], "different lengths"),
        ([[1.5] * 4] * 4, "row 1, column 1 holds 1.5"),
        ([[1] * 4] * 3 + [[1, 2, "3", 4]], "row 4, column 3 holds '3'"),
        ([[True] * 4] * 4, "holds True"),
        (np.ones((4, 4)), "integers, not an array of float64"),
        ([[1] * 4] * 3 + [[1, 1, 1, 2**40]], "too large"),
        ("rings", "unknown weight preset 'rings'"),
        (42, "not int"),
    ],
)
def test_bad_weights_say_what_is_wrong(weights, message):
    with pytest.raises((TypeError, ValueError), match=message.replace("(", r"\(").replace(")", r"\)")):
        maximize(Board.empty(4), weights)


def test_weights_text_errors_are_located():
    assert parse_weights(["# rings", "1 -2", "", "3,4"]).tolist() == [[1, -2], [3, 4]]
    cases = [
        (["1 2", "3 x"], 2, 3, "expected an integer weight, found 'x'"),
        (["1 2", "3 4.5"], 2, 3, "found '4.5'"),
        (["1 2", "3"], 2, 2, "row has 1 weights"),
        (["1 2", "3 4 5"], 2, 5, "row has 3 weights"),
        (["1 2"], 2, 1, "2 rows are needed; found 1"),
        (["1 2", "3 4", "5 6"], 3, 1, "one row too many"),
        ([], 1, 1, "no weights"),
    ]
    for lines, line, column, message in cases:
        with pytest.raises(sudokit.FormatError, match=message) as caught:
            parse_weights(lines, source="w.txt")
        assert (caught.value.line, caught.value.column, caught.value.source) == (line, column, "w.txt")


# -- the command line -----------------------------------------------------------------------


def run(args, stdin=None):
    return CliRunner().invoke(cli, args, input=stdin, catch_exceptions=False)


@pytest.mark.parametrize("name", ["target_01", "target_02"])
def test_cli_prints_what_seed_003_prints(data_dir, name):
    result = run(["maximize", str(data_dir / f"{name}.in")])
    assert result.exit_code == 0
    assert result.stdout_bytes == (data_dir / f"{name}.out").read_bytes()


def test_cli_stream_is_one_line_per_puzzle(data_dir):
    both = (data_dir / "target_01.in").read_text() + "\n" + (data_dir / "target_02.in").read_text()
    result = run(["maximize"], stdin=both)
    assert result.exit_code == 0 and result.stdout == "2829\n2852\n"


def test_cli_board_and_minimize(data_dir):
    path = str(data_dir / "target_02.in")
    result = run(["maximize", "--board", path])
    lines = result.stdout.splitlines()
    assert lines[0] == "2852" and len(lines) == 11 and lines[10] == ""
    solution = Board.from_ints("\n".join(lines[1:10]))
    assert solution.is_solution_of(Board.from_ints((data_dir / "target_02.in").read_text()))
    assert score(solution) == 2852
    low = run(["minimize", path])
    lowest = minimize(Board.from_ints((data_dir / "target_02.in").read_text())).value
    assert low.exit_code == 0 and low.stdout == f"{lowest}\n"


def test_cli_weights_file(tmp_path):
    weights = tmp_path / "w.txt"
    weights.write_text("1 -2 3 -4\n5 6 7 8\n-1 0 0 1\n2 2 2 2\n")
    puzzle = "1 0 0 0\n0 0 3 0\n0 0 0 0\n0 4 0 0\n"
    expected = maximize(Board.from_ints(puzzle), parse_weights(weights.read_text().splitlines()))
    result = run(["maximize", "--weights", str(weights)], stdin=puzzle)
    assert result.exit_code == 0 and result.stdout == f"{expected.value}\n"


def test_cli_no_completion(data_dir):
    entry = next(e for e in ENTRIES if e.count == 0 and e.size == 9)
    result = run(["maximize"], stdin=entry.puzzle + "\n")
    assert result.exit_code == 1 and result.stdout == "-1\n"
    assert "<stdin>:1:1: no solution" in result.stderr
    # under other weights -1 could be a score, so the record is marked instead
    custom = run(["maximize", "--weights", str(data_dir / "target_01.in")], stdin=entry.puzzle + "\n")
    assert custom.exit_code == 1 and custom.stdout == "no solution\n"


@pytest.mark.parametrize(
    "text, where, message",
    [
        ("1 2 3 4\n5 6 7 8\n9 1 2 3\n4 5 6 oops\n", "w.txt:4:7:", "expected an integer weight, found 'oops'"),
        ("1 2 3 4\n5 6 7 8\n9 1 2\n4 5 6 7\n", "w.txt:3:6:", "row has 3 weights"),
        ("1 2\n3 4\n", "w.txt:1:1:", "the weights are 2x2, the board at <stdin>:1:1 is 4x4"),
    ],
)
def test_cli_bad_weights_file(tmp_path, monkeypatch, text, where, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "w.txt").write_text(text)
    result = run(["maximize", "--weights", "w.txt"], stdin="1 0 0 0\n0 0 3 0\n0 0 0 0\n0 4 0 0\n")
    assert result.exit_code == 2
    assert f"{where} {message}" in result.stderr
    assert "Traceback" not in result.output


def test_cli_malformed_board_and_missing_weights(tmp_path):
    result = run(["maximize"], stdin="1 0 0 0 0 0 0 0 0\n" * 8 + "1 0 0 x 0 0 0 0 0\n")
    assert result.exit_code == 2 and result.stdout == "error\n"
    assert "<stdin>:9:7: expected an integer 0-9, found 'x'" in result.stderr
    missing = run(["maximize", "--weights", str(tmp_path / "none.txt")], stdin="0 0 0 0\n" * 4)
    assert missing.exit_code == 2 and "cannot read the weights" in missing.stderr


def test_cli_budget_reports_best_and_bound():
    result = run(["maximize", "--node-limit", "2", "--stats"], stdin="0 0 0 0 0 0 0 0 0\n" * 9)
    assert result.exit_code == 3
    assert result.stdout.startswith("unknown (budget exhausted): best ")
    assert ", bound " in result.stdout


# -- the kernel as plain Python -------------------------------------------------------------

NOJIT = r"""
import json, sys
import sudokit
from sudokit.kernels.build import jit
assert jit.JIT_DISABLED
out = []
for puzzle, weights in json.loads(sys.stdin.read()):
    result = sudokit.maximize(sudokit.Board.from_line(puzzle), weights)
    out.append([result.value, result.nodes])
print(json.dumps(out))
"""


def test_kernel_gives_the_same_answers_without_jit(data_dir):
    rng = random.Random(5)
    cases = []
    for box in ((2, 2), (2, 3)):
        shape = Shape(*box)
        grid = full_grid(*box, rng)
        puzzle = thin_out(grid, shape, rng, most=200)
        weights = [[rng.randint(-9, 9) for _ in range(shape.size)] for _ in range(shape.size)]
        cases.append((Board(puzzle, shape).to_line(), weights))
    cases.append((Board.from_ints((data_dir / "target_02.in").read_text()).to_line(), "target"))
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", SUDOKIT_QUIET="1")
    done = subprocess.run(
        [sys.executable, "-c", NOJIT], input=json.dumps(cases), capture_output=True, text=True, env=env, check=True
    )
    for (puzzle, weights), (value, nodes) in zip(cases, json.loads(done.stdout)):
        result = maximize(Board.from_line(puzzle), weights)
        assert (value, nodes) == (result.value, result.nodes)
