"""Human-style solving: every step is sound, explanations finish, ratings are on HoDoKu's scale,
and the API, the command line and batch work give the same answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import sample_lines

import sudokit
from sudokit import Level, NotUnique, SolveStatus
from sudokit.cli import cli
from sudokit.logic import CandidateGrid, TECHNIQUES
from sudokit.logic.human import ORDER

SEED_000 = ".2738..1..1...6735.......293.5692.8...........6.1745.364.......9518...7..8..6534."
#: rated unfair (1702) by HoDoKu: locked sets, fish, wings, a hidden rectangle, an XY-chain
UNFAIR = "1.......3.6.3..7...7...5..121.7...9...7........8.1..2....8.64....9.2..6....4....."


def walk(puzzle: str, shape=None):
    """Take the solving loop's steps one by one, checking each against the solution; returns
    the steps and whether they finished."""
    board = sudokit.Board.from_line(puzzle, shape=shape)
    solution = sudokit.solve(board).board.cells
    grid = CandidateGrid(board)
    steps = []
    while not grid.solved:
        step = grid.next_step(ORDER)
        if step is None:
            break
        for cell, value in step.eliminations:
            assert solution[cell] != value, f"{puzzle}: {step.text} removes the solution's {value} at {cell}"
        for cell, value in step.placements:
            assert solution[cell] == value, f"{puzzle}: {step.text} places {value} at {cell}"
        steps.append(step)
        grid.apply(step)
    return steps, grid.solved


@pytest.mark.parametrize("puzzle", [SEED_000, UNFAIR] + sample_lines("sample_9x9.txt")[::8])
def test_every_step_is_sound(puzzle):
    board = sudokit.Board.from_line(puzzle)
    if sudokit.is_unique(board).unique:
        walk(puzzle)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["sample_9x9.txt", "sample_16x16.txt"])
def test_every_step_of_every_sample_is_sound(name):
    for puzzle in sample_lines(name):
        if sudokit.is_unique(puzzle).unique:
            walk(puzzle)


def test_other_shapes_are_explained_soundly():
    for puzzle in sample_lines("sample_16x16.txt")[:3]:
        steps, _ = walk(puzzle)
        assert steps
    six = sudokit.solve("." * 36).board.to_line()
    steps, solved = walk("1." + six[2:10] + "..." + six[13:30] + "." * 6)
    assert solved or steps


def test_explain_finishes_and_rates_like_hodoku():
    explanation = sudokit.explain(SEED_000)
    assert explanation.solved and explanation.board == sudokit.solve(SEED_000).board
    assert explanation.rating.level is Level.EASY and explanation.rating.score == 180
    text = str(explanation).splitlines()
    assert text[0].startswith("1. ") and all(":" in line for line in text)
    hard = sudokit.explain(UNFAIR)
    assert hard.solved and hard.rating.level is Level.UNFAIR and hard.rating.score == 1702
    names = {step.name for step in hard.steps}
    assert {"Naked Triple", "X-Wing", "XY-Wing", "Hidden Rectangle"} <= names


def hodoku_ratings():
    """150 puzzles of the shared rated sets with hodoku-py's level and score (tests/data/SOURCES.md)."""
    path = Path(__file__).parent / "data" / "hodoku_ratings.txt"
    return [line.split() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]


def test_ratings_agree_with_hodoku_on_every_sampled_puzzle():
    rows = hodoku_ratings()
    misses = []
    for puzzle, level, score, source in rows:
        rating = sudokit.rate(puzzle, scale="hodoku")
        if (rating.level.value, rating.score) != (level, int(score)):
            misses.append(f"{source} {puzzle}: hodoku {level} {score}, sudokit {rating.level.value} {rating.score}")
    assert {row[1] for row in rows} >= {"easy", "medium", "hard", "unfair", "extreme"}
    assert not misses, "\n".join(misses)


def test_a_rating_in_slices_is_the_rating_in_one_call(monkeypatch):
    """Under a deadline the kernel takes a few steps a call and the next call resumes where it
    stopped; at one step a call, every count is the one of an uncut rating."""
    import time

    import numpy as np

    from sudokit.logic import human

    rows = hodoku_ratings()
    boards = [sudokit.Board.parse(puzzle) for puzzle, *_ in rows]
    puzzles = np.stack([board.cells for board in boards])
    solutions = np.stack([sudokit.solve(board).board.cells for board in boards])
    whole, whole_taken, done = human._rate_boards(puzzles, solutions, boards[0].shape)
    assert done == len(rows)
    monkeypatch.setattr(human, "SLICE_WORK", 1)
    sliced, sliced_taken, done = human._rate_boards(puzzles, solutions, boards[0].shape, deadline=time.perf_counter() + 600)
    assert done == len(rows)
    assert (sliced == whole).all() and (sliced_taken == whole_taken).all()


def test_a_rating_on_hodokus_scale_keeps_its_time_limit():
    """HoDoKu's scale had no budget: a 16x16 rating with a time limit of 0.2 s took 2 s (the
    fuzzer's 'generate --shape 16x16 --score ... --time-limit 0.5' took 3.4 s, rating its draw)."""
    import time

    import numpy as np

    from sudokit.logic.human import rate_solved

    # POJ 3076's sample (tests/data/SOURCES.md), extreme on HoDoKu's scale: about a second
    board = sudokit.Board.parse("".join(sample_lines("poj3076_sample.in")[:16]).replace("-", "."))
    solution = sudokit.solve(board).board
    rating = sudokit.rate(board, solution=solution, time_limit=0.05)
    assert rating.status is SolveStatus.UNKNOWN and rating.level is None and rating.score is None
    started = time.perf_counter()
    cut = rate_solved(board.cells[None, :], solution.cells[None, :], board.shape, deadline=started + 0.05)
    assert cut[0] is not None and cut[0].status is SolveStatus.UNKNOWN
    assert time.perf_counter() - started < 2  # a step of a 16x16 rating takes milliseconds
    full = sudokit.rate(board, solution=solution)
    assert full.status is SolveStatus.SOLVED and full.level is not None  # no limit: rated in full
    assert rate_solved(board.cells[None, :], solution.cells[None, :], board.shape)[0].score == full.score


def test_step_texts_use_the_players_notation():
    steps = sudokit.explain(UNFAIR).steps
    texts = [step.text for step in steps]
    assert any(t.startswith("Hidden Single: r") and "=" in t for t in texts)
    triple = next(step for step in steps if step.name == "Naked Triple")
    assert triple.text == "Naked Triple: 3/5/8 in r4c7,r6c7,r8c7 => r5c7,r9c7<>3/5/8"
    pointing = next(step for step in steps if step.name.startswith("Locked Candidates Type 1"))
    assert " in b" in pointing.text and "<>" in pointing.text


def test_values_are_written_in_the_boards_alphabet():
    puzzle = sample_lines("sample_16x16.txt")[0]
    step = sudokit.hint(puzzle)
    assert step is not None and step.text.split("=")[-1].strip() in "ABCDEFGHIJKLMNOP"


def test_puzzles_without_exactly_one_solution_get_no_rating():
    several = sudokit.rate("." * 81)
    assert several.status is SolveStatus.SEVERAL and several.level is None and not several.rated
    none = sudokit.explain("11" + "." * 79)
    assert none.status is SolveStatus.NO_SOLUTION and none.steps == ()
    with pytest.raises(NotUnique, match="several solutions"):
        sudokit.hint("." * 81)


def test_rate_batch_agrees_with_rate():
    puzzles = [SEED_000, UNFAIR, "." * 81, "11" + "." * 79] + sample_lines("sample_9x9.txt")[:6]
    batch = sudokit.rate_batch(puzzles, workers=2, chunk_size=3)
    for puzzle, rating in zip(puzzles, batch):
        single = sudokit.rate(puzzle)
        assert (rating.status, rating.level, rating.score, rating.techniques) == (
            single.status, single.level, single.score, single.techniques)


def test_a_solution_proved_already_is_not_proved_again(monkeypatch):
    """The web API proves uniqueness under its budget and hands the solution on: rate, explain
    and hint then search no more, and rate the same."""
    solution = sudokit.solve(UNFAIR).board
    expected = sudokit.rate(UNFAIR, scale="all", potential_limit=100_000)
    explained, step = sudokit.explain(UNFAIR), sudokit.hint(UNFAIR)

    def no_search(*args, **kwargs):
        raise AssertionError("uniqueness proved again")

    monkeypatch.setattr(sudokit.solver, "count", no_search)
    rating = sudokit.rate(UNFAIR, scale="all", potential_limit=100_000, solution=solution)
    assert rating.to_json() | {"elapsed": 0} == expected.to_json() | {"elapsed": 0}
    again = sudokit.explain(UNFAIR, solution=solution)
    assert (again.steps, again.rating.level, again.rating.score) == (explained.steps, explained.rating.level, explained.rating.score)
    assert sudokit.hint(UNFAIR, solution=solution) == step


def test_a_hint_is_the_first_step_and_respects_the_players_marks():
    assert sudokit.hint(SEED_000).text == sudokit.explain(SEED_000).steps[0].text
    board = sudokit.Board.from_line(SEED_000)
    grid = CandidateGrid(board)
    marks = [grid.candidate_values(cell) for cell in range(81)]
    assert sudokit.hint(board, candidates=marks).text == sudokit.hint(board).text
    solution = sudokit.solve(board).board
    empty = next(cell for cell in range(81) if board.cells[cell] == 0)
    wrong = list(marks)
    wrong[empty] = tuple(v for v in marks[empty] if v != solution.cells[empty]) or (9,)
    with pytest.raises(ValueError, match=f"r{empty // 9 + 1}c{empty % 9 + 1}: the candidates leave out"):
        sudokit.hint(board, candidates=wrong)
    given = next(cell for cell in range(81) if board.cells[cell])
    wrong = list(marks)
    wrong[given] = (board.cells[given] % 9 + 1,)
    with pytest.raises(ValueError, match="leave out the given"):
        sudokit.hint(board, candidates=wrong)


def test_the_technique_table_is_hodokus():
    orders = [t.order for t in TECHNIQUES]
    assert orders == sorted(orders) and len({t.id for t in TECHNIQUES}) == len(TECHNIQUES)
    by_name = {t.name: t for t in TECHNIQUES}
    assert (by_name["Hidden Single"].score, by_name["X-Wing"].score, by_name["XY-Chain"].level) == (14, 140, Level.UNFAIR)


# -- the command line ---------------------------------------------------------------------------


def run(args, stdin=None):
    return CliRunner().invoke(cli, args, input=stdin, catch_exceptions=False)


def test_cli_rate_prints_a_line_per_puzzle_and_marks_the_unratable():
    result = run(["rate"], stdin=f"{SEED_000}\n{'.' * 81}\n")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [f"{SEED_000} easy 180", "several solutions"]
    assert "<stdin>:2:1: several solutions" in result.stderr
    tsv = run(["rate", "--to", "tsv"], stdin=SEED_000 + "\n")
    assert tsv.stdout.splitlines() == ["puzzle\tlevel\tscore", f"{SEED_000}\teasy\t180"] and tsv.exit_code == 0
    record = json.loads(run(["rate", "--to", "json"], stdin=UNFAIR + "\n").stdout)
    assert record["level"] == "unfair" and record["score"] == 1702 and record["techniques"]["X-Wing"] == 1
    bad = run(["rate"], stdin="12x" + "." * 78 + "\n")
    assert bad.exit_code == 2 and bad.stdout == "error\n"


def test_cli_explain_and_hint():
    result = run(["explain"], stdin=UNFAIR + "\n")
    lines = result.stdout.splitlines()
    assert result.exit_code == 0 and lines[0] == UNFAIR and lines[1].startswith("1. ")
    assert lines[-2] == "rating: unfair (score 1702)" and lines[-1] == ""
    pretty = run(["explain", "--pretty"], stdin=SEED_000 + "\n")
    assert pretty.exit_code == 0 and "┏" in pretty.stdout and "1. Naked Single" in pretty.stdout
    hint = run(["hint"], stdin=f"{SEED_000}\n{sudokit.solve(SEED_000).board.to_line()}\n")
    assert hint.stdout.splitlines() == [sudokit.hint(SEED_000).text, "solved"]


def test_a_hint_keeps_its_budget_for_the_proof_of_one_solution():
    # UNFAIR's proof takes 3 search nodes; a hint had no budget, where explain and rate had one
    with pytest.raises(NotUnique, match="budget ran out") as caught:
        sudokit.hint(UNFAIR, node_limit=1)
    assert caught.value.status is SolveStatus.UNKNOWN
    # an explanation cut the same way said "the puzzle has several solutions"
    assert str(sudokit.explain(UNFAIR, node_limit=1)) == str(caught.value)
    assert str(sudokit.explain_se(UNFAIR, node_limit=1)) == str(caught.value)
    first = sudokit.explain(UNFAIR).steps[0].text
    assert sudokit.hint(UNFAIR, node_limit=3).text == sudokit.hint(UNFAIR, time_limit=60).text == first
    cut = run(["hint", "--node-limit", "1"], stdin=f"{UNFAIR}\n{SEED_000}\n")
    assert cut.exit_code == 3 and cut.stdout.splitlines() == ["unknown (budget exhausted)", sudokit.hint(SEED_000).text]
    assert "<stdin>:1:1: unknown (budget exhausted): the proof that it has one solution" in cut.stderr
    timed = run(["hint", "--time-limit", "60"], stdin=UNFAIR + "\n")
    assert timed.exit_code == 0 and timed.stdout == first + "\n"


def test_batch_rate_adds_level_and_score(tmp_path):
    (tmp_path / "in.txt").write_text(f"{SEED_000}\n{'.' * 81}\nnot a puzzle\n")
    result = run(["batch", str(tmp_path / "in.txt"), "--rate", "--workers", "1"])
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(row["level"], row["score"]) for row in rows] == [("easy", 180), (None, None), (None, None)]
    run(["batch", str(tmp_path / "in.txt"), "--rate", "--workers", "1", "-o", str(tmp_path / "out.csv")])
    lines = (tmp_path / "out.csv").read_text().splitlines()
    assert lines[0].endswith(",level,score,er,ep,ed,se_status") and ",easy,180," in lines[1]
    assert lines[1].endswith(",solved") and lines[2].endswith(",,,,,,")
    plain = run(["batch", str(tmp_path / "in.txt"), "--workers", "1"])
    assert "level" not in plain.stdout


def test_logic_kernels_run_without_jit():
    """The finders run as plain Python under NUMBA_DISABLE_JIT=1 and give the same steps."""
    import os
    import subprocess
    import sys

    script = (
        "import sudokit\n"
        "from sudokit.kernels.build import jit\n"
        "assert jit.JIT_DISABLED\n"
        f"e = sudokit.explain({UNFAIR!r})\n"
        "print(e.rating.score, len(e.steps), e.steps[-1].text)\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", SUDOKIT_QUIET="1")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    compiled = sudokit.explain(UNFAIR)
    assert done.stdout.split(None, 2)[:2] == [str(compiled.rating.score), str(len(compiled.steps))]
