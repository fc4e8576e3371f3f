"""Fuzzing (issue 28): mutated records of every format sudokit reads, through every command and
every endpoint of the JSON API, with the invariants of the ``fuzzing`` package: exit 0-3 and never a
traceback, no 500, one output record per input record, every solution valid under its record's
own rules (checked without sudokit), sound steps, budgets kept within a second.

The seed is fixed (``derandomize``) and the examples few, so the suite stays minutes;
``benchmarks/fuzz.py --minutes N`` runs the same strategies with fresh seeds for longer. The
commands run in a worker process (``fuzzing.Worker``) that is replaced when one hangs.
"""

from __future__ import annotations

import subprocess
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings

pytest.importorskip("httpx", reason="the API's fuzzing needs httpx (pip install -e '.[test]')")
pytest.importorskip("starlette", reason="the API's fuzzing needs starlette (pip install -e '.[test]')")

import sudokit  # noqa: E402

import fuzzing  # noqa: E402
from fuzzing import CATALOGUE, Rules, brute_force, broken_rules  # noqa: E402

#: the same examples on every run; shrinking on, so a failure comes with its smallest input
FUZZ = settings(derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck), print_blob=False)


#: one exception class per kind of finding, so that hypothesis reports (and shrinks) each kind
BROKEN = {kind: type(f"Broken{kind.title().replace(' ', '')}", (AssertionError,), {}) for kind in fuzzing.BROKEN}


def verdict(findings: list[fuzzing.Finding]) -> None:
    broken = [finding for finding in findings if finding.kind in fuzzing.BROKEN]
    if broken:
        raise BROKEN[broken[0].kind]("\n".join(map(str, broken)))


@pytest.fixture(scope="module")
def worker():
    with fuzzing.Worker() as process:
        yield process


@pytest.fixture(scope="module")
def cold_worker():
    """A worker that loads the searches only (the fast tier's commands need no other kernel)."""
    with fuzzing.Worker(warm="search") as process:
        yield process


def run(worker, run: fuzzing.Run) -> list[fuzzing.Finding]:
    return fuzzing.check_run(run, worker.run(run.job(), run.deadline))


def ask(worker, request: fuzzing.Request) -> list[fuzzing.Finding]:
    return fuzzing.check_request(request, worker.run(request.job(), request.deadline))


# -- the checker itself: it must be able to fail ----------------------------------------------------


def test_the_checker_finds_every_kind_of_broken_rule():
    killer = next(p for p in CATALOGUE["variants"] if p.cages and p.solution)
    rules = killer.rules
    solution = list(killer.solution)
    assert broken_rules(rules, solution) == []
    home = next(cells for _, cells in killer.cages if 0 in cells)
    other = next(cell for cell in range(1, 9) if cell not in home)
    swapped = list(solution)  # the first row still holds 1-9; columns and two cages break
    swapped[0], swapped[other] = solution[other], solution[0]
    assert any("repeat" in why for why in broken_rules(rules, swapped))
    assert any("adds up" in why for why in broken_rules(rules, swapped))
    marks = killer.with_marks([{v} for v in solution]).rules
    assert broken_rules(marks, solution) == [] and any("candidates" in why for why in broken_rules(marks, swapped))
    assert broken_rules(Rules(4, rules.houses[:0], (1,) + (0,) * 15), [2] * 16)  # a given not kept
    assert broken_rules(rules, solution[:-1])  # a cell short


def test_the_brute_force_counts_as_the_reference_does():
    for puzzle in CATALOGUE["small"]:
        if puzzle.size <= 6 and puzzle.count is not None:
            found = brute_force(puzzle.rules, limit=1000)
            assert found is not None and len(found) == min(puzzle.count, 1000), puzzle.name
    for puzzle in CATALOGUE["variants"]:
        if puzzle.solution and puzzle.size == 9 and puzzle.cages and not puzzle.main:  # cages up to 9x9
            givens = replace(puzzle, givens=tuple(v if k % 3 else 0 for k, v in enumerate(puzzle.solution)))
            assert brute_force(givens.rules, limit=2) == [puzzle.solution]


def test_the_checks_catch_a_wrong_answer_and_a_lost_record():
    puzzle = CATALOGUE["unique9"][0]
    feed = fuzzing.Feed("line", (fuzzing.Case("line", fuzzing.write(puzzle, "line", {}), puzzle, puzzle.name),) * 2,
                        (fuzzing.write(puzzle, "line", {}) + "\n") .encode() * 2)  # fmt: skip
    solve = fuzzing.Run("solve", ("solve",), feed, None)
    right = "".join(str(v) for v in puzzle.solution)
    wrong = right[1] + right[0] + right[2:]
    assert fuzzing.check_run(solve, fuzzing.Outcome(0, f"{right}\n{right}\n")) == []
    assert [f.kind for f in fuzzing.check_run(solve, fuzzing.Outcome(0, f"{right}\n{wrong}\n"))] == ["rules"]
    assert [f.kind for f in fuzzing.check_run(solve, fuzzing.Outcome(0, f"{right}\n"))] == ["records"]
    assert [f.kind for f in fuzzing.check_run(solve, fuzzing.Outcome(0, f"{right}\nno solution\n"))] == ["answer", "exit status"]
    assert [f.kind for f in fuzzing.check_run(solve, fuzzing.Outcome(70, error="Traceback\nValueError: x"))] == ["exit 70"]
    step = fuzzing.step_claims("Naked Pair: 3/7 in r5c1,r5c4 => r5c7,r5c8<>3/7, r1c1<>2", "123456789")
    assert step == [(4, 6, 3, False), (4, 6, 7, False), (4, 7, 3, False), (4, 7, 7, False), (0, 0, 2, False)]
    assert fuzzing.step_claims("Hidden Single: r3c7=4", "123456789") == [(2, 6, 4, True)]


# -- the readers: every record written here reads as the puzzle it means (fast) ---------------------


@settings(FUZZ, max_examples=40)
@given(fuzzing.feeds(mutate=0.0, options=False))
def test_every_form_of_every_format_reads_as_the_puzzle_it_means(feed):
    records = list(sudokit.read(feed.data.splitlines(keepends=True)))
    assert len(records) == len(feed.cases), f"{len(feed.cases)} records written, {len(records)} read: {feed.data[:300]!r}"
    for record, case in zip(records, feed.cases):
        assert record.board is not None, f"{case.how}: {record.error}"
        puzzle = case.puzzle
        read = [frozenset(fuzzing.in_puzzle_values(puzzle, record.board, sorted(values))) for values in fuzzing.meaning_of(record.board)]
        assert read == puzzle.meaning(), case.how


@settings(FUZZ, max_examples=40)
@given(fuzzing.feeds())
def test_the_readers_give_one_record_per_record_and_never_raise(feed):
    try:
        records = fuzzing.read_feed(feed)  # None where the command line refuses the options
    except sudokit.FormatError as refusal:  # first lines that leave the format a guess: refused whole
        assert "say the format with --format" in str(refusal), refusal
        return
    if records is not None:
        detected = records[0].format if records else None
        assert fuzzing.records_match(feed, len(records), detected, len(records)), (
            f"{len(feed.cases)} records written, {len(records)} read: {feed.data[:300]!r} {feed.options}")


# -- the commands: a smoke run in the fast tier, then every command at length ----------------------


@settings(FUZZ, max_examples=8)
@given(fuzzing.runs(["solve", "count"], families=["line", "grid"], most=2))
def test_solve_and_count_smoke(cold_worker, run_):
    verdict(run(cold_worker, run_))


@pytest.mark.slow
@settings(FUZZ, max_examples=80)
@given(fuzzing.runs(["solve", "count"]))
def test_solve_and_count_keep_every_invariant(worker, run_):
    verdict(run(worker, run_))


@pytest.mark.slow
@settings(FUZZ, max_examples=15)
@given(fuzzing.runs(["batch"]))
def test_batch_keeps_every_invariant(worker, run_):
    verdict(run(worker, run_))


@pytest.mark.slow
@settings(FUZZ, max_examples=80)
@given(fuzzing.runs(["hint", "explain", "rate", "canon", "shuffle"]))
def test_the_human_commands_keep_every_invariant(worker, run_):
    verdict(run(worker, run_))


@pytest.mark.slow
@settings(FUZZ, max_examples=40)
@given(fuzzing.runs(["solve", "count", "hint", "batch"], families=["json", "variant"], mutate=1.0, structural=True))
def test_odd_values_in_variant_fields_are_errors_of_their_record(worker, run_):
    verdict(run(worker, run_))


@pytest.mark.slow
@settings(FUZZ, max_examples=40)
@given(fuzzing.runs(["solve", "count", "hint", "batch"], mutate=0.0))
def test_a_rewrite_that_keeps_the_meaning_keeps_the_answer(worker, run_):
    verdict(run(worker, run_))


@pytest.mark.slow
@settings(FUZZ, max_examples=25)
@given(fuzzing.runs(["hint", "explain"], families=["sukaku", "candidates", "hodoku", "json"], mutate=0.0))
def test_steps_on_pencil_marks_are_sound(worker, run_):
    verdict(run(worker, run_))


@pytest.mark.slow
@settings(FUZZ, max_examples=30)
@given(fuzzing.generate_runs(big=False))
def test_generate_with_odd_options_keeps_every_invariant(worker, run_):
    verdict(run(worker, run_))


# -- the setters' commands and endpoints: diagnose, estimate, make-unique, reduce, maximize, minimize --


def test_every_command_and_endpoint_is_fuzzed():
    import click
    from sudokit.cli import cli
    from sudokit.web import api

    # serve (a server), print (a PDF, an extra) and warmup (the kernels' cache) read no records from stdin
    commands = set(cli.list_commands(click.Context(cli))) - {"serve", "print", "warmup"}
    assert commands == set(fuzzing.READING + fuzzing.SETTERS) | {"generate"}
    assert set(api.ENDPOINTS) == set(fuzzing.ENDPOINTS)


def test_the_checks_catch_a_wrong_answer_of_a_setters_command():
    puzzle = CATALOGUE["unique9"][0]
    assert puzzle.solution is not None
    line = fuzzing.write(puzzle, "line", {})
    feed = fuzzing.Feed("line", (fuzzing.Case("line", line, puzzle, puzzle.name),), (line + "\n").encode())

    def kinds(*args: str, out: str, err: str = "", code: int = 0) -> list[str]:
        return [f.kind for f in fuzzing.check_run(fuzzing.Run(args[0], args, feed, 1.0), fuzzing.Outcome(code, out, err))]

    # make-unique leaves a unique puzzle as it is; a value put in an open cell is an answer of its own
    assert kinds("make-unique", out=line + "\n", err="<stdin>:1:1: added 0 (fewest possible)\n") == []
    open_cell = line.index(".")
    wrong = str(puzzle.solution[open_cell] % 9 + 1)
    assert "answer" in kinds("make-unique", out=line[:open_cell] + wrong + line[open_cell + 1 :] + "\n")
    # a budget run out is exit 3, not 0
    assert kinds("make-unique", "--time-limit", "0", out=line + "\n", err="<stdin>:1:1: added 0 (at least 0 needed: the budget ran out)\n",
                 code=3) == []  # fmt: skip
    # diagnose: a unique puzzle is no 'several'; the solution shown is the known one
    solution = "".join(map(str, puzzle.solution))
    assert kinds("diagnose", out="unique (minimality unknown: the budget ran out)\n", code=3) == []
    assert kinds("diagnose", out=f"several solutions: two differ in 0 cells () | {solution} | {solution}\n") == ["answer", "answer"]
    # maximize: the score of the one solution, and of the board shown
    score = fuzzing.target_score(list(puzzle.solution), 9)
    assert kinds("maximize", "--board", out=f"{score}\n{solution}\n") == []
    assert kinds("maximize", out=f"{score + 1}\n") == ["answer"]
    assert kinds("minimize", "--board", out=f"{score}\n{solution[1]}{solution[0]}{solution[2:]}\n") == ["rules"]
    assert kinds("maximize", out="-1\n", code=1) == ["answer"]
    # estimate: a value outside its own interval; more samples than asked
    assert kinds("estimate", "--samples", "100", out="about 1 solutions (95%: 1 to 1; 100 samples, 100 reached a solution)\n") == []
    assert kinds("estimate", out="about 3 solutions (95%: 1 to 2; 10,000 samples, 5 reached a solution)\n") == ["answer"]
    assert kinds("estimate", "--samples", "10", out="about 1 solutions (95%: 1 to 1; 100 samples, 100 reached a solution)\n") == ["answer"]
    # an estimate whose time ran out inside its first probe: unknown, exit 3, under a time limit only
    cut = "unknown: no sample finished within the time limit\n"
    assert kinds("estimate", "--time-limit", "0", out=cut, code=3) == []
    assert kinds("estimate", out=cut, code=3) == ["answer"]
    assert kinds("estimate", "--time-limit", "0", out=cut, code=0) != []
    # maximize --board over blocks: a score, then its grid and the blank line after it
    assert fuzzing.split_scores("12\n12\n34\n\nerror\n-1\nunknown (budget exhausted): best none, bound 9\n", True) == [
        "12\n12\n34", "error", "-1", "unknown (budget exhausted): best none, bound 9"]


@pytest.mark.slow
@settings(FUZZ, max_examples=30)
@given(fuzzing.runs(fuzzing.SETTERS, most=2))
def test_the_setters_commands_keep_every_invariant(worker, run_):
    verdict(run(worker, run_))


@pytest.mark.slow
@settings(FUZZ, max_examples=30)
@given(fuzzing.runs(fuzzing.SETTERS, small=True, mutate=0.0, most=2))
def test_the_setters_commands_answer_a_known_puzzle_as_it_is(worker, run_):
    verdict(run(worker, run_))


@pytest.mark.slow
@settings(FUZZ, max_examples=50)
@given(fuzzing.requests(["diagnose", "estimate"]))
def test_the_setters_endpoints_keep_every_invariant(worker, request_):
    verdict(ask(worker, request_))


# -- the JSON API ----------------------------------------------------------------------------------


@pytest.mark.slow
@settings(FUZZ, max_examples=120)
@given(fuzzing.requests())
def test_every_endpoint_keeps_every_invariant(worker, request_):
    verdict(ask(worker, request_))


@settings(FUZZ, max_examples=10)
@given(fuzzing.requests(["parse", "solve", "count"]))
def test_the_api_smoke(cold_worker, request_):
    verdict(ask(cold_worker, request_))


def test_a_format_forced_on_records_of_another_regroups_their_lines_as_it_reads_them():
    # a grid read as a candidate grid is three wrong records (its bands), not one: what must
    # match is one answer per record sudokit reads under the forced format
    cases = (fuzzing.Case("grid", "x", None, "grid"),)
    forced = fuzzing.Feed("grid", cases, b"", ("--format", "candidates"))
    assert fuzzing.records_match(forced, 3, "candidates", 3)
    assert not fuzzing.records_match(forced, 2, "candidates", 3)
    assert not fuzzing.records_match(fuzzing.Feed("grid", cases, b"", ("--format", "grid")), 3, "grid", 3)
    # HoDoKu's grids are candidate grids: forcing that format keeps one record each
    assert not fuzzing.records_match(fuzzing.Feed("hodoku", cases, b"", ("--format", "candidates")), 13, "candidates", 13)


def test_a_reproducer_whose_input_starts_with_a_dash_runs_in_a_shell():
    shell = fuzzing.Feed("line", (), b"- 1\n")
    command = "printf " + fuzzing.strategies._printf(shell.data)
    assert subprocess.run(["bash", "-c", command], capture_output=True).stdout == b"- 1\n"


def test_a_leetcode_value_may_span_lines():
    # JSON may be laid out over lines: "[" then "]" is one value (an empty list), not two
    cases = (fuzzing.Case("leetcode", "[", None, "cut"), fuzzing.Case("leetcode", "]", None, "cut"))
    assert fuzzing.records_match(fuzzing.Feed("leetcode", cases, b"[\n]\n"), 1, "leetcode")
    assert [record.line for record in sudokit.read([b"[\n", b"]\n"])] == [1]
    # a record that closes what it opens is one record: the next one's is not its
    closed = (fuzzing.Case("leetcode", "[]", None, "cut"), fuzzing.Case("leetcode", "[", None, "cut"))
    assert not fuzzing.records_match(fuzzing.Feed("leetcode", closed, b"[]\n[\n"), 1, "leetcode")
