"""One place decides a status and an exit code (``sudokit.results``); every caller agrees."""

import itertools

import numpy as np
import pytest

import sudokit
from sudokit import Limits, SolveStatus
from sudokit.results import (
    STATUSES,
    ExitCode,
    Tally,
    exit_code,
    status_codes,
    status_of,
)


@pytest.mark.parametrize("limit", [1, 2, 5])
def test_the_vector_status_agrees_with_the_scalar_one(limit):
    cases = list(itertools.product(range(0, limit + 1), (False, True)))
    counts = np.array([count for count, _ in cases])
    exhausted = np.array([done for _, done in cases])
    codes = status_codes(counts, exhausted, limit)
    assert [STATUSES[code] for code in codes] == [status_of(c, e, limit).value for c, e in cases]


def test_statuses():
    assert status_of(0, True, 1) is SolveStatus.NO_SOLUTION
    assert status_of(1, False, 1) is SolveStatus.SOLVED  # one solution answers "solve"
    assert status_of(1, False, 2) is SolveStatus.UNKNOWN  # a budget stopped the proof
    assert status_of(1, True, 2) is SolveStatus.SOLVED
    assert status_of(2, False, 2) is SolveStatus.SEVERAL
    assert status_of(0, False, 2) is SolveStatus.UNKNOWN


@pytest.mark.parametrize(
    "counts,counting,expected",
    [
        ({}, False, ExitCode.OK),
        ({"solved": 3}, False, ExitCode.OK),
        ({"no solution": 1, "unknown": 1}, False, ExitCode.UNSOLVED),
        ({"several": 1}, False, ExitCode.UNSOLVED),
        ({"several": 1, "no solution": 1}, True, ExitCode.OK),  # counting: every count answers
        ({"unknown": 1, "several": 2}, True, ExitCode.UNKNOWN),
        ({"error": 1, "no solution": 1}, False, ExitCode.BAD_INPUT),
    ],
)
def test_exit_codes(counts, counting, expected):
    assert exit_code(counts, counting=counting) is expected
    tally = Tally(counting=counting)
    for status, records in counts.items():
        tally.add(status, records)
    assert tally.exit_code is expected
    tally.interrupted = True
    assert tally.exit_code is ExitCode.INTERRUPTED


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"limit": 0}, "limit must be a positive integer"),
        ({"limit": True}, "limit must be a positive integer"),
        ({"time_limit": -1}, "time_limit must be a number of seconds"),
        ({"time_limit": "5"}, "time_limit must be a number of seconds"),
        ({"node_limit": 0}, "node_limit must be a positive integer"),
        ({"node_limit": 2.5}, "node_limit must be a positive integer"),
    ],
)
def test_limits_are_checked_once_with_a_clear_message(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Limits(**kwargs)
    with pytest.raises(ValueError, match=message):
        sudokit.count("." * 81, **kwargs)
    with pytest.raises(ValueError, match=message):
        sudokit.solve_batch(["." * 81], **kwargs)


def test_results_draw_themselves_in_a_notebook():
    seed = ".2738..1..1...6735.......293.5692.8...........6.1745.364.......9518...7..8..6534."
    html = sudokit.solve(seed)._repr_html_()
    assert "solved" in html and "<svg" in html and 'fill="#1f5fbf"' in html
    best = sudokit.maximize("12..34..........", [[1] * 4] * 4)._repr_html_()
    assert "value 40" in best and "<svg" in best
    none = sudokit.solve("55" + "." * 79)._repr_html_()
    assert "no solution" in none and "<svg" in none


def test_a_budget_cuts_its_units_into_kernel_calls():
    """``results.Budget``: the one account every budgeted loop slices its kernel calls from."""
    from sudokit.results import Budget

    untimed = Budget(100)
    assert untimed.next_call() == 100  # no deadline, no aim: every unit at once
    untimed.record(60, 0.1)
    assert untimed.next_call() == 40 and not untimed.exhausted
    untimed.record(40, 0.1)
    assert untimed.next_call() == 0 and untimed.exhausted
    assert Budget().next_call() is None and not Budget().exhausted  # no bound at all

    sliced = Budget(10_000, 60.0, first=500, aim=0.05, least=100)
    assert sliced.next_call() == 500  # before the speed is known
    sliced.record(1_000, 0.01)  # 100,000 units a second: 50 ms is 5,000
    assert sliced.next_call() == 5_000
    sliced.record(8_500, 0.085)
    assert sliced.next_call() == 500  # what is left
    # work whose speed swings (SE's rules) is sized by its slowest call, or a call sized by a
    # fast one runs past the deadline
    cautious = Budget(None, 60.0, first=500, aim=0.05, cautious=True)
    cautious.record(1_000, 0.01)  # 100,000 units a second
    cautious.record(4_000, 0.01)  # then 400,000
    assert cautious.next_call() == 5_000
    brisk = Budget(None, 60.0, first=500, aim=0.05)
    brisk.record(1_000, 0.01)
    brisk.record(4_000, 0.01)
    assert brisk.next_call() == 20_000
    # ... and, with no aim, to half the time left: a speed that falls within a call costs less
    halves = Budget(None, 60.0, first=500, cautious=True)
    halves.record(1_000, 0.01)
    assert 2_900_000 < halves.next_call() <= 3_000_000  # 100,000 a second for 30 s of the 60
    whole = Budget(None, 60.0, first=500)
    whole.record(1_000, 0.01)
    assert 5_900_000 < whole.next_call() <= 6_000_000
    slow = Budget(None, None, first=500, aim=0.05, least=100)
    slow.record(1, 1.0)
    assert slow.next_call() == 100  # never below the smallest call worth making

    assert Budget(None, 0.0).exhausted and Budget(None, 0.0).out_of_time
    near = Budget(None, 0.2, first=1_000)
    near.record(1_000, 0.001)  # a million a second, under 0.2 s left: at most 200,000
    assert 0 < near.next_call() <= 200_000
