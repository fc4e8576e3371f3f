"""Chains, loops and forcing chains (``kernels/hodoku/chains.py``): the shape of the steps they
write, that finding leaves the grid alone, and that every step is sound on boards of every size.
The regression library (``test_logic_reglib.py``) checks what they find against HoDoKu."""

from __future__ import annotations

import numpy as np
import pytest
import reglib
from conftest import ENTRIES

import sudokit
from sudokit.logic.grid import CandidateGrid
from sudokit.logic.techniques import BY_NAME, TECHNIQUES

CASES = {case.line: case for case in reglib.cases()}
ORDER = np.array([t.id for t in TECHNIQUES], dtype=np.int64)
X_CHAIN = BY_NAME["x-chain"]
XY_CHAIN = BY_NAME["xy-chain"]
NICE_LOOP = BY_NAME["nice loop"]
GROUPED = BY_NAME["grouped nice loop"]
FORCING_CHAIN = BY_NAME["forcing chain"]
FORCING_NET = BY_NAME["forcing net"]

#: magictour top1465 #4: HoDoKu's loop needs forcing chains and nets for it
HARD = "7.8...3.....6.1...5.........4.....263...8.......1...9..9.2....4....7.5..........."


def grid_at(line: int) -> CandidateGrid:
    """The candidate grid of the regression library's case on ``line``."""
    case = CASES[line]
    board = sudokit.Board.from_line(case.givens)
    fixed = (board.cells != 0) & ~np.array(case.placed)
    marks = CandidateGrid(board, fixed=fixed).candidates
    for cell, value in case.deleted:
        marks[cell] &= ~np.uint64(1 << (value - 1))
    return CandidateGrid(board, marks=marks, fixed=fixed)


def wanted(line: int):
    case = CASES[line]
    return frozenset(case.eliminations), frozenset(case.placements)


def matching(grid: CandidateGrid, technique, line: int):
    for step in grid.find_all(technique, most=500):
        if (frozenset(step.eliminations), frozenset(step.placements)) == wanted(line):
            return step
    raise AssertionError(f"no {technique.name} step matches line {line}")


def sees(a: int, b: int) -> bool:
    return a // 9 == b // 9 or a % 9 == b % 9 or (a // 27, a % 9 // 3) == (b // 27, b % 9 // 3)


def test_x_chain_alternates_on_one_value():
    grid = grid_at(894)
    step = matching(grid, X_CHAIN, 894)
    chain = step.chain
    assert len({value for _, value, _ in chain}) == 1
    assert [strong for _, _, strong in chain[:-1]] == [k % 2 == 0 for k in range(len(chain) - 1)]
    assert len(chain) % 2 == 0 and not chain[-1][2]
    start, end = chain[0][0], chain[-1][0]
    assert all(sees(cell, start) and sees(cell, end) for cell, _ in step.eliminations)


def test_xy_chain_is_bivalue_cells_linked_by_shared_values():
    grid = grid_at(907)
    step = matching(grid, XY_CHAIN, 907)
    chain = step.chain
    for k in range(0, len(chain), 2):
        (a, x, strong), (b, y, _) = chain[k], chain[k + 1]
        assert a == b and x != y and strong
        assert grid.candidate_values(a) == tuple(sorted((x, y)))
        if k + 2 < len(chain):
            assert chain[k + 2][1] == y and sees(b, chain[k + 2][0])
    value = chain[0][1]
    assert chain[-1][1] == value
    assert all(v == value for _, v in step.eliminations)


@pytest.mark.parametrize("line, variant", [(947, 1), (963, 2), (998, 3)])
def test_nice_loop_variants(line, variant):
    grid = grid_at(line)
    step = matching(grid, NICE_LOOP, line)
    assert step.variant == variant
    assert step.name == ("Continuous Nice Loop", "Discontinuous Nice Loop", "AIC")[variant - 1]
    if variant != 3:  # a loop comes back to the cell it started from
        assert step.chain[0][0] == step.chain[-1][0]


def test_grouped_loop_lists_its_group_cells():
    grid = grid_at(1027)
    step = matching(grid, GROUPED, 1027)
    assert step.cells, "a group node's cells go to the step's cells"
    assert "Grouped" in step.name


@pytest.mark.parametrize("technique", [X_CHAIN, XY_CHAIN, NICE_LOOP, GROUPED, FORCING_CHAIN, FORCING_NET])
def test_finding_leaves_the_grid_alone(technique):
    grid = grid_at({X_CHAIN: 894, XY_CHAIN: 907, NICE_LOOP: 947, GROUPED: 1027}.get(technique, 947))
    before = [array.copy() for array in grid.state]
    grid.find(technique, -1)
    grid.find(technique, 0)
    for old, new in zip(before, grid.state):
        assert np.array_equal(old, new)


@pytest.mark.parametrize("line, technique", [(894, X_CHAIN), (907, XY_CHAIN), (947, NICE_LOOP), (998, NICE_LOOP)])
def test_the_loop_takes_the_first_listed(line, technique):
    grid = grid_at(line)
    first = grid.find(technique, 0)
    taken = grid.find(technique, -1)
    assert first is not None and taken is not None
    assert set(first.eliminations) == set(taken.eliminations)


def solve_checked(board: sudokit.Board, solution: np.ndarray) -> set[str]:
    """Run the solving loop, asserting every step is sound; returns the techniques used."""
    grid = CandidateGrid(board)
    used = set()
    while not grid.solved:
        step = grid.next_step(ORDER)
        if step is None:
            break
        used.add(step.technique.name)
        for cell, value in step.eliminations:
            assert solution[cell] != value, step.text
        for cell, value in step.placements:
            assert solution[cell] == value, step.text
        grid.apply(step)
    return used


def test_forcing_chains_and_nets_are_sound():
    board = sudokit.Board.from_line(HARD)
    solution = sudokit.solve(board).board.cells
    used = solve_checked(board, solution)
    assert {"Forcing Chain", "Forcing Net"} & used


@pytest.mark.parametrize(
    "entry",
    # a 16x16 walk runs forcing nets for tens of seconds: full suite only
    [pytest.param(e, marks=pytest.mark.slow) if e.size == 16 else e for e in ENTRIES if e.count == 1 and e.size in (6, 16)][:6],
    ids=lambda e: f"{e.size}x{e.size}",
)
def test_other_sizes_are_sound(entry):
    board = sudokit.Board.from_line(entry.puzzle)
    solution = sudokit.Board.from_line(entry.solution).cells
    grid = CandidateGrid(board)
    for technique in (X_CHAIN, XY_CHAIN, NICE_LOOP, GROUPED, FORCING_CHAIN):
        for step in grid.find_all(technique, most=20):
            for cell, value in step.eliminations:
                assert solution[cell] != value, step.text
            for cell, value in step.placements:
                assert solution[cell] == value, step.text
    solve_checked(board, solution)
