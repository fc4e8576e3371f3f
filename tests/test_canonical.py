"""Canonical forms, shuffles and equivalence (``sudokit.canon`` and its kernel).

The canonical form is checked four ways: Royle's 17-clue puzzles are published in minlex form
(all but 3% of them: the sample's 17 exceptions and their true forms, found by trying every
rearrangement, are in a data file), so each line must come back as it is or as listed; the form
must not change under any rearrangement (shuffles); the kernel's own transformation must turn
the board into it; and it must be no larger than any rearrangement ``naive`` makes, sampled in
the fast tier and every one of the 3,359,232 in the slow tier.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import naive
import numpy as np
import pytest
from click.testing import CliRunner
from conftest import ENTRIES, sample_lines

import sudokit
from sudokit.canon import Transformation, canonical_batch, canonical_transformation
from sudokit.cli import cli

#: the shared data sets, where the checkout has them beside it (the slow tier reads them)
SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "9x9"

ROYLE = sample_lines("royle_17clue_sample.txt")
#: line number (1-based) -> minlex form, for the sample's lines that are not minlex (see SOURCES.md)
NOT_MINLEX = {int(n): form for n, form in (line.split(":") for line in sample_lines("royle_17clue_sample.exceptions.txt"))}
SAMPLES = [line.split()[0] for line in sample_lines("sample_9x9.txt") if not line.startswith("#")]
DENSE = [p for p in SAMPLES if 25 <= sum(c not in ".0" for c in p) <= 35]
CLASSIC = [line.split(":") for line in sample_lines("classic_9x9.txt") if not line.startswith("#")]
GRIDS = sorted({e.solution for e in ENTRIES if e.size == 9 and e.count == 1} | {s for _, n, s in CLASSIC if n == "1"})
MULTI = [e for e in ENTRIES if e.size == 9 and e.count > 1]
HEXA = next(e for e in ENTRIES if e.size == 16 and e.count == 1)


def cells(line: str) -> list[int]:
    """The values of a 9x9 line, 0 empty."""
    return [0 if c in ".0" else int(c) for c in line]


def text(values) -> str:
    """The line of 81 values, ``.`` empty."""
    return "".join("." if v == 0 else str(int(v)) for v in values)


def shared(name: str, limit: int | None = None) -> list[str]:
    """The puzzles of a shared 9x9 file (first field of each line), or skip the test."""
    path = SHARED / name
    if not path.is_file():
        pytest.skip(f"needs the shared data set {name}")
    lines = [line.split()[0] for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]
    return lines[:limit]


def test_the_sets_are_what_the_tests_say():
    assert len(ROYLE) == 300 and len(DENSE) >= 40 and len(GRIDS) >= 60 and len(MULTI) >= 10


# -- the published minlex forms -------------------------------------------------------------


def test_royle_lines_are_their_own_canonical_forms_but_the_known_few():
    """The file's lines are minlex but for 3% of them, whose true forms ``naive`` found by
    trying every rearrangement: those are smaller than the lines."""
    expected = [NOT_MINLEX.get(number, line) for number, line in enumerate(ROYLE, 1)]
    assert [sudokit.canonical(p) for p in ROYLE] == expected
    assert len(NOT_MINLEX) == 17 and all(form < ROYLE[n - 1] for n, form in NOT_MINLEX.items())


@pytest.mark.slow
def test_the_whole_royle_set_is_minlex_but_three_percent_and_has_no_two_equivalent():
    lines = shared("royle_17clue.txt")
    values = np.array([cells(p) for p in lines], dtype=np.uint8)
    got = [text(row) for row in canonical_batch(values)]
    differ = [(p, q) for p, q in zip(lines, got) if p != q]
    assert len(differ) <= 0.035 * len(lines)
    assert all(q < p for p, q in differ)  # a line is a rearrangement of itself: never smaller
    assert len(set(got)) == len(lines)


# -- invariance: every rearrangement has the same form ----------------------------------------


def check_shuffles(puzzles: list[str], copies: int, seed: int) -> None:
    """Each puzzle and ``copies`` shuffles of it have one canonical form."""
    rng = np.random.default_rng(seed)
    for puzzle in puzzles:
        form = sudokit.canonical(puzzle)
        for _ in range(copies):
            moved = sudokit.shuffle(puzzle, rng)
            assert sudokit.canonical(moved) == form, (puzzle, moved.to_line())


def test_canonical_of_a_shuffle_is_the_canonical_form():
    check_shuffles(ROYLE[:100] + SAMPLES[:120] + GRIDS[:40] + [e.puzzle for e in MULTI], 1, seed=1)


@pytest.mark.slow
def test_canonical_of_thousands_of_shuffles():
    check_shuffles(ROYLE + SAMPLES + GRIDS + [e.puzzle for e in MULTI], 5, seed=2)


@pytest.mark.slow
def test_canonical_of_shuffles_of_the_shared_sets_in_one_batch():
    rng = np.random.default_rng(3)
    for name in ("kaggle_bryanpark_sample.txt", "kaggle_bryanpark_sample.sol.txt", "magictour_top1465.txt"):
        lines = shared(name, 2000)
        moved = np.array([sudokit.shuffle(p, rng).cells for p in lines], dtype=np.uint8)
        original = np.array([cells(p) for p in lines], dtype=np.uint8)
        assert np.array_equal(canonical_batch(moved), canonical_batch(original)), name


def structured(count: int, seed: int) -> list[str]:
    """Boards cut from solution grids that leave whole rows, stacks or bands empty, or keep
    only some digits: the open choices (stacks and columns not yet told apart) the search
    keeps for such boards are its least common paths."""
    rng = np.random.default_rng(seed)
    rows, cols = np.divmod(np.arange(81), 9)
    boards = []
    for n in range(count):
        grid = np.array(cells(GRIDS[rng.integers(len(GRIDS))]))
        keep = [
            rng.random(81) < rng.choice([0.02, 0.05, 0.1, 0.2, 0.4, 0.7, 0.9, 1.0]),
            (rows // 3 == rng.integers(3)) & (rng.random(81) < rng.random()),  # one band
            (cols // 3 == rng.integers(3)) & (rng.random(81) < rng.random()),  # one stack
            rows == rng.integers(9),  # one full row
            (cols == rng.integers(9)) | (rows == rng.integers(9)),  # a cross
            np.isin(grid, rng.choice(np.arange(1, 10), rng.integers(1, 4), replace=False)),  # a few digits
        ][n % 6]
        boards.append(text(np.where(keep, grid, 0)))
    return boards


def test_structured_boards_keep_their_form_under_shuffles():
    rng = np.random.default_rng(6)
    for board in structured(300, seed=7):
        form = sudokit.canonical(board)
        assert sudokit.canonical(sudokit.shuffle(board, rng)) == form, board
        assert canonical_transformation(board).apply(board).to_line() == form, board


def test_equivalent_holds_for_shuffles_and_fails_for_other_puzzles():
    for index, puzzle in enumerate(ROYLE[:30]):
        assert sudokit.equivalent(puzzle, sudokit.shuffle(puzzle, index))
        assert not sudokit.equivalent(puzzle, ROYLE[index + 1])  # distinct minlex lines
    grid = GRIDS[0]
    assert sudokit.equivalent(grid, sudokit.shuffle(grid, 7))
    assert not sudokit.equivalent(grid, GRIDS[1])
    dropped = "." + ROYLE[0][1:] if ROYLE[0][0] != "." else ROYLE[0][:-1] + "."
    assert not sudokit.equivalent(ROYLE[0], dropped)  # one given less


def test_canonical_is_idempotent():
    for puzzle in ROYLE[:20] + DENSE[:40] + GRIDS[:20]:
        form = sudokit.canonical(puzzle)
        assert sudokit.canonical(form) == form


# -- the form is a rearrangement of the board, and the smallest one ------------------------------


def test_the_kernels_transformation_gives_the_form():
    for puzzle in ROYLE[:50] + DENSE[:50] + GRIDS[:30] + [e.puzzle for e in MULTI]:
        board = sudokit.Board.from_line(puzzle)
        move = canonical_transformation(board)
        assert sorted(move.rows) == list(range(9)) and sorted(move.cols) == list(range(9))
        assert sorted(move.values) == list(range(1, 10))
        assert move.apply(board).to_line() == sudokit.canonical(board)


def test_the_form_keeps_the_givens_and_the_solution_count():
    for puzzle in ROYLE[:10] + DENSE[:10]:
        form = sudokit.canonical(puzzle)
        assert form.count(".") == puzzle.count(".") + puzzle.count("0")
        assert sudokit.count(form, 2).count == sudokit.count(puzzle, 2).count == 1
    for entry in MULTI:
        assert sudokit.count(sudokit.canonical(entry.puzzle), 1000).count == entry.count


def sampled_forms(puzzle: str, draws: int, rng: np.random.Generator) -> list[list[int]]:
    """Relabelled rearrangements of ``puzzle``, made by ``naive``."""
    orders = naive.line_orders()
    board = cells(puzzle)
    return [
        naive.relabel(naive.rearrange(board, bool(rng.integers(2)), orders[rng.integers(1296)], orders[rng.integers(1296)]))
        for _ in range(draws)
    ]


def test_the_form_is_no_larger_than_sampled_rearrangements():
    rng = np.random.default_rng(4)
    for puzzle in ROYLE[:3] + DENSE[:3] + GRIDS[:3] + [MULTI[0].puzzle]:
        form = cells(sudokit.canonical(puzzle))
        assert all(form <= other for other in sampled_forms(puzzle, 1500, rng))


@pytest.mark.slow
def test_the_form_is_the_smallest_of_every_rearrangement():
    """Every one of the 3,359,232, made by ``naive`` (seconds a board)."""
    rng = np.random.default_rng(5)
    for puzzle in (ROYLE[7], DENSE[0], GRIDS[0], MULTI[0].puzzle):
        moved = sudokit.shuffle(puzzle, rng).to_line()  # a start that is not the answer
        assert sudokit.canonical(moved) == text(naive.minlex(cells(moved)))
    for board in structured(6, seed=8)[1:3]:  # one band, one stack
        assert sudokit.canonical(board) == text(naive.minlex(cells(board)))
    number, form = next(iter(NOT_MINLEX.items()))  # the certificate of one exception, again
    assert text(naive.minlex(cells(ROYLE[number - 1]))) == form == sudokit.canonical(ROYLE[number - 1])


def test_boards_with_few_givens_and_symmetries():
    assert sudokit.canonical("." * 81) == "." * 81
    assert sudokit.canonical("." * 40 + "7" + "." * 40) == "." * 80 + "1"
    assert sudokit.canonical("12" + "." * 79) == "." * 79 + "12"
    # one digit twice in a band: pushed to the last band, the later one into the last row
    assert sudokit.canonical("1" + "." * 11 + "1" + "." * 68) == "." * 71 + "1" + "." * 5 + "1" + "." * 3
    symmetric = "123456789456789123789123456234567891567891234891234567345678912678912345912345678"
    assert sudokit.canonical(symmetric) == symmetric  # 648 automorphisms: many candidates tie
    assert text(naive.relabel(cells(symmetric))) == symmetric


def test_batch_agrees_with_single_boards_and_takes_none():
    puzzles = ROYLE[:20] + DENSE[:20] + GRIDS[:10]
    got = canonical_batch(np.array([cells(p) for p in puzzles]))
    assert got.dtype == np.uint8 and got.shape == (50, 81)
    assert [text(row) for row in got] == [sudokit.canonical(p) for p in puzzles]
    assert canonical_batch(np.zeros((0, 81), dtype=np.uint8)).shape == (0, 81)


def test_a_line_of_digits_takes_the_short_road_to_the_same_form():
    # canonical() reads an 81-character line of '.', '0' and digits in one compiled call, and
    # anything else the long way: both give the batch's forms, and a board the short road
    # refuses (a repeat, another alphabet) still gets the long way's answer or error
    puzzles = ROYLE[:10] + DENSE[:10] + GRIDS[:5]
    expected = [text(row) for row in canonical_batch(np.array([cells(p) for p in puzzles]))]
    assert [sudokit.canonical(p) for p in puzzles] == expected
    assert [sudokit.canonical(p.replace(".", "0")) for p in puzzles] == expected
    assert [sudokit.canonical(sudokit.Board.from_line(p)) for p in puzzles] == expected
    assert sudokit.canonical(ROYLE[3].replace(".", "-")) == expected[3]
    with pytest.raises(ValueError, match="repeat: 7 appears 2 times in column 1"):
        sudokit.canonical("7" + "." * 8 + "7" + "." * 71)
    with pytest.raises(ValueError, match="unexpected symbol 'x'"):
        sudokit.canonical("x" + "." * 80)


def test_any_alphabet_and_any_format_give_digits():
    grid_text = sudokit.Board.from_line(ROYLE[5]).to_grid()
    assert sudokit.canonical(grid_text) == ROYLE[5]
    letters = sudokit.Board.from_line(ROYLE[5].replace(".", "0")).cells
    board = sudokit.Board(letters, symbols="ABCDEFGHI")
    assert sudokit.canonical(board) == ROYLE[5]


def test_boards_without_canonical_forms_are_refused():
    with pytest.raises(ValueError, match="9x9 boards with 3x3 boxes, not 16x16"):
        sudokit.canonical(HEXA.puzzle)
    with pytest.raises(ValueError, match="repeat: 5 appears 2 times in row 1"):
        sudokit.canonical("55" + "." * 79)
    with pytest.raises(ValueError, match="repeat"):
        sudokit.equivalent(ROYLE[0], "55" + "." * 79)
    with pytest.raises(ValueError, match=r"\(N, 81\)"):
        canonical_batch(np.zeros((2, 80), dtype=np.uint8))
    with pytest.raises(ValueError, match="board 1: values must be 0"):
        canonical_batch(np.array([cells(ROYLE[0]), [10] * 81]))
    bad = np.array([cells(ROYLE[0]), cells(ROYLE[1]), cells("55" + "." * 79)], dtype=np.uint8)
    with pytest.raises(ValueError, match="board 2: its givens repeat"):
        canonical_batch(bad)


def test_the_kernel_runs_as_plain_python_too():
    """NUMBA_DISABLE_JIT=1 (how coverage sees the kernel): the same forms and moves."""
    picks = [ROYLE[0], DENSE[0], GRIDS[0], MULTI[0].puzzle, "." * 81]
    script = (
        "import json, sys; from sudokit.canon import canonical, canonical_transformation as t\n"
        "print(json.dumps([[canonical(p), t(p).rows, t(p).cols] for p in json.loads(sys.stdin.read())]))"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", SUDOKIT_QUIET="1")
    done = subprocess.run([sys.executable, "-c", script], input=json.dumps(picks), capture_output=True, text=True, env=env, check=True)
    expected = [[sudokit.canonical(p), list(canonical_transformation(p).rows), list(canonical_transformation(p).cols)] for p in picks]
    assert json.loads(done.stdout) == expected


# -- shuffles ---------------------------------------------------------------------------------


def test_seeds_reproduce():
    puzzle = DENSE[3]
    assert sudokit.shuffle(puzzle, 11) == sudokit.shuffle(puzzle, 11)
    assert sudokit.shuffle(puzzle, np.random.default_rng(11)) == sudokit.shuffle(puzzle, 11)
    assert len({sudokit.shuffle(puzzle, seed).to_line() for seed in range(20)}) == 20
    rng = np.random.default_rng(12)
    first, second = sudokit.shuffle(puzzle, rng), sudokit.shuffle(puzzle, rng)
    assert first != second  # a generator goes on drawing


def test_a_shuffle_keeps_givens_solutions_and_alphabet():
    for entry in MULTI[:4] + [HEXA] + [e for e in ENTRIES if e.size == 6][:2]:
        board = sudokit.Board.from_line(entry.puzzle)
        moved = sudokit.shuffle(board, 13)
        assert moved.shape == board.shape and moved.symbols == board.symbols
        assert moved.givens == board.givens and moved.status().valid
        assert sudokit.count(moved, 1000).count == entry.count


def test_random_transformations_reach_every_kind_of_move():
    rng = np.random.default_rng(14)
    moves = [Transformation.random(sudokit.Shape(3, 3), rng) for _ in range(600)]
    assert 240 < sum(move.transpose for move in moves) < 360
    assert len({tuple(r // 3 for r in move.rows[::3]) for move in moves}) == 6  # band orders
    assert len({move.values[0] for move in moves}) == 9
    assert not any(Transformation.random(sudokit.Shape(2, 3), rng).transpose for _ in range(50))
    with pytest.raises(ValueError, match="moves 9x9 boards, not 16x16"):
        moves[0].apply(HEXA.puzzle)


# -- the command line ----------------------------------------------------------------------------


def run(args, stdin=None):
    """The command line's result for ``args``, ``stdin`` as its input."""
    return CliRunner().invoke(cli, args, input=stdin, catch_exceptions=False)


def test_canon_prints_one_form_per_puzzle():
    moved = [sudokit.shuffle(p, 15).to_line() for p in ROYLE[:3]]
    result = run(["canon"], stdin="\n".join(moved + [GRIDS[0]]) + "\n")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ROYLE[:3] + [sudokit.canonical(GRIDS[0])]


def test_canon_marks_a_malformed_line_and_goes_on(tmp_path):
    path = tmp_path / "puzzles.txt"
    bad = ROYLE[1][:40] + "x" + ROYLE[1][41:]
    path.write_text(f"{ROYLE[0]}\n{bad}\n{ROYLE[2]}\n")
    result = run(["canon", str(path)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{path}:2:41: unexpected symbol 'x'")
    assert result.stdout.splitlines() == [ROYLE[0], "error", ROYLE[2]]


def test_canon_refuses_a_sixteen_by_sixteen_board_clearly(data_dir):
    result = run(["canon", str(data_dir / "poj3076_sample.in")])
    assert result.exit_code == 2
    assert "poj3076_sample.in:1:1: canonical forms are for 9x9 boards with 3x3 boxes, not 16x16" in result.stderr
    assert result.stdout == "error\n" and "Traceback" not in result.stderr


def test_canon_points_at_a_repeated_given():
    result = run(["canon"], stdin="." * 9 + ".5" + "." * 6 + "5" + "." * 63 + "\n")
    assert result.exit_code == 2
    assert "<stdin>:1:11: its givens repeat: 5 appears 2 times in row 2 (r2c2, r2c9)" in result.stderr


def test_shuffle_command_is_reproducible_and_keeps_the_format(data_dir):
    lines = "\n".join(ROYLE[:4]) + "\n"
    first = run(["shuffle", "--seed", "16"], stdin=lines)
    assert first.exit_code == 0 and first.stdout == run(["shuffle", "--seed", "16"], stdin=lines).stdout
    assert run(["canon"], stdin=first.stdout).stdout == lines
    grid = run(["shuffle", "--seed", "16", str(data_dir / "poj3076_sample.in")])
    assert grid.exit_code == 0 and len(grid.stdout.splitlines()) == 17  # 16 rows, then a blank line
    board = sudokit.Board.from_grid(grid.stdout)
    assert sudokit.count(board, 2).count == 1


def test_shuffle_command_marks_a_malformed_line():
    result = run(["shuffle"], stdin=f"{ROYLE[0]}\n{ROYLE[1][:80]}\n")
    assert result.exit_code == 2
    assert result.stdout.splitlines()[1] == "error" and "<stdin>:2:" in result.stderr


VARIANTS = Path(__file__).parent / "data" / "variants"


@pytest.mark.parametrize("name", ["killer", "jigsaw", "x", "windoku", "pencilmark"])
def test_a_variants_rules_are_refused_not_dropped(name):
    """The moves keep rows, columns and boxes only, and renaming values breaks cage sums: a
    shuffle that printed a killer without its cages was a different puzzle."""
    text = (VARIANTS / f"{name}.jsonl").read_text().splitlines()[0]
    board = next(iter(sudokit.read_text(text))).board
    for call in (lambda: sudokit.shuffle(board, seed=1), lambda: sudokit.canonical(board),
                 lambda: sudokit.equivalent(board, sudokit.Board.empty(board.shape))):
        with pytest.raises(ValueError, match="plain boards"):
            call()
    result = run(["shuffle", "--seed", "1"], stdin=f"{text}\n{ROYLE[0]}\n")
    assert result.exit_code == 2 and "plain boards" in result.stderr and "Traceback" not in result.stderr
    assert result.stdout.splitlines()[0] == "error" and len(result.stdout.splitlines()) == 2
