"""Big boards: every rule, branching and engine of the general search gives the reference's
counts; hard 25x25 puzzles are solved and verified; empty and impossible big boards stay
within their budgets.

Budgets here are node limits (deterministic) or generous time limits that only stop a hang;
no assert depends on how fast anything runs.
"""

import json
import os
import subprocess
import sys

import naive
import numpy as np
import pytest
from conftest import DATA, ENTRIES

import sudokit
from sudokit import Board, Shape, SolveStatus
from sudokit.engines import GeneralSearch
from sudokit.kernels.search import general as G
from sudokit.results import Limits

RULES = {"singles": 0, "locked": G.LOCKED, "subsets": G.SUBSETS, "locked+subsets": G.LOCKED | G.SUBSETS}
BRANCHES = {"cell": G.CELL, "cell+degree": G.CELL_DEGREE, "place": G.PLACE, "best": G.BEST, "wdeg": G.WDEG,
            "wdeg+place": G.WDEG_PLACE}
#: the shared file without its widest counts (the learning kernel blocks one solution at a time)
SOME = [e for e in ENTRIES if e.count <= 100]


def frisch() -> list[tuple[str, int, str]]:
    rows = []
    for line in (DATA / "frisch_25x25.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            puzzle, count, solution = line.split(":")
            rows.append((puzzle, int(count), solution))
    return rows


def check_counts(make_search, entries) -> None:
    for entry in entries:
        board = Board.from_line(entry.puzzle)
        if not board.status().valid:
            continue
        search = make_search(board)
        search.run(Limits(entry.count + 1))
        assert search.count == entry.count, entry.puzzle
        if entry.count == 1:
            assert search.solution().to_line() == entry.solution, entry.puzzle


@pytest.mark.parametrize("rules", RULES, ids=str)
@pytest.mark.parametrize("branch", BRANCHES, ids=str)
def test_every_rule_and_branching_gives_the_reference_counts(rules, branch):
    def make(board):
        return GeneralSearch(board, G.options_for(board.shape, RULES[rules], BRANCHES[branch]), engine="dfs")

    check_counts(make, ENTRIES)


@pytest.mark.parametrize("restart,seed", [(50, 0), (0, 7), (30, 3)], ids=["restarts", "random-order", "both"])
def test_restarts_and_random_value_order_keep_the_counts(restart, seed):
    def make(board):
        options = G.options_for(board.shape, G.LOCKED | G.SUBSETS, G.WDEG, restart=restart, seed=seed)
        return GeneralSearch(board, options, engine="dfs")

    check_counts(make, ENTRIES)


@pytest.mark.parametrize("values", [G.IN_ORDER, G.LEAST_CONSTRAINING], ids=["in-order", "least-constraining"])
@pytest.mark.parametrize("branch", ["cell", "wdeg+place"])
def test_every_value_order_gives_the_reference_counts(values, branch):
    def make(board):
        options = G.options_for(board.shape, G.LOCKED | G.SUBSETS, BRANCHES[branch], values=values)
        return GeneralSearch(board, options, engine="dfs")

    check_counts(make, ENTRIES)


def test_least_constraining_values_go_first():
    """With every candidate open the values tie and go in order; once value 2 leaves the
    rest of r1c1's row, 2 takes the fewest candidates away and goes first."""
    shape = Shape(3, 3)
    cand = np.full(shape.cells, 0x1FF, dtype=np.uint64)
    cell, both = 0, np.uint64(0b11)
    assert G._least_constraining(cand, shape.houses, shape.cell_houses, cell, both) == 0b01
    cand[1:9] &= np.uint64(~0b10 & 0x1FF)
    assert G._least_constraining(cand, shape.houses, shape.cell_houses, cell, both) == 0b10


@pytest.mark.parametrize("lazy", [1, 3, 40])
def test_rules_that_wait_for_dead_ends_keep_the_counts(lazy):
    """Singles alone until ``lazy`` dead ends, then the rules: from the root again before a
    first solution, in place after one (the wide counts of the shared file)."""
    runs = []

    def make(board):
        options = G.options_for(board.shape, G.LOCKED | G.SUBSETS, G.WDEG, lazy=lazy)
        search = GeneralSearch(board, options, engine="dfs")
        runs.append(search)
        return search

    check_counts(make, ENTRIES)
    # the rules came on (the depth they run from is a real depth) in some searches, not all
    came_on = [search.iwork[G._I_LAZY, 5] <= search.cells for search in runs]
    assert any(came_on) and (lazy == 1 or not all(came_on))


def test_each_cells_weight_is_the_sum_of_its_houses_weights():
    """dom/wdeg reads a cell's weight from a sum kept as houses fail; after dead ends, a
    restart of the lazy start and a reset, every sum still equals its houses' weights."""
    checked = 0
    for puzzle, _, _ in frisch():
        search = GeneralSearch(Board.from_line(puzzle), engine="dfs")
        search.run(Limits(2, node_limit=3000))
        weights = search.iwork[G._I_WEIGHT]
        sums = search.iwork[G._I_CELL_WEIGHT, : search.cells]
        houses = search.cell_houses
        assert (sums == weights[houses].sum(axis=1)).all()
        checked += weights.max() > 1  # some house failed in this search
    assert checked > 0


def test_a_root_that_fails_ends_a_lazy_search():
    """r1c1 sees every value, so the root fails: no dead end below it to count, no restart."""
    board = Board.from_line(".12345678" + "9" + "." * 71)
    options = G.options_for(board.shape, G.LOCKED | G.SUBSETS, G.WDEG, lazy=1)
    search = GeneralSearch(board, options, engine="dfs")
    assert search.run(Limits(2)) == 0 and search.count == 0 and search.nodes == 1


def test_a_big_board_lists_distinct_solutions_through_the_lazy_start():
    """A 25x25 board with 30% of a solution given has many solutions: the default search
    (singles first, the rules after a hundred dead ends, least constraining values) resumed
    after each one yields each once, every one a solution of the board."""
    _, _, solution = frisch()[0]
    full = Board.from_line(solution)
    keep = np.random.default_rng(11).random(full.shape.cells) < 0.3
    board = Board(np.where(keep, full.cells.reshape(-1), 0).reshape(25, 25), full.shape)
    found = [b.to_line() for b in sudokit.solutions(board, limit=12)]
    assert len(found) == len(set(found)) == 12
    for line in found:
        assert naive.is_solution(Board.from_line(line).cells.tolist(), board.cells.tolist(), 5, 5)
    assert sudokit.count(board, limit=12).count == 12


@pytest.mark.parametrize(
    "locked,alldiff",
    [
        pytest.param(False, False, id="-", marks=pytest.mark.slow),  # plain clause learning: 30 s
        pytest.param(True, False, id="-locked"),
        pytest.param(False, True, id="alldiff-"),
        pytest.param(True, True, id="alldiff-locked"),
    ],
)
def test_the_learning_kernel_gives_the_reference_counts(locked, alldiff):
    """Every count is the reference's, with learnt clauses shrunk (one literal per earlier
    level where the reasons allow) on the way: a clause that was not implied would cut
    solutions away."""
    from sudokit.kernels.search import learn

    made = []

    def make(board):
        search = GeneralSearch(board, engine="learn")
        search.learner = learn.Learner(search.givens, search.houses, search.cell_houses,
                                       board.size, locked, alldiff)
        made.append(search)
        return search

    check_counts(make, SOME)
    assert sum(int(search.learner.state["st"][learn.S_SHRUNK]) for search in made) > 0


def test_the_all_different_filter_asks_for_room_and_goes_on():
    """With room for one explanation at first, the learning kernel's all-different filter runs
    out of room mid-house again and again (it asks for more, then filters on before any
    decision): the counts stay the reference's."""
    from sudokit.kernels.search import learn

    grown = 0
    for entry in SOME:
        board = Board.from_line(entry.puzzle)
        if not board.status().valid:
            continue
        search = GeneralSearch(board, engine="learn")
        search.learner = learn.Learner(search.givens, search.houses, search.cell_houses,
                                       board.size, alldiff=True)
        first = board.size**2 + 2
        search.learner.state["xlits"] = np.zeros(first, dtype=np.int32)
        search.run(Limits(entry.count + 1))
        assert search.count == entry.count, entry.puzzle
        grown += len(search.learner.state["xlits"]) > first
    assert grown >= 10


def test_the_learning_kernel_lists_every_solution_once():
    """Resumed after each solution (the lazy iterator's way), it finds each exactly once."""
    for entry in [e for e in SOME if 2 <= e.count <= 40][:6]:
        board = Board.from_line(entry.puzzle)
        search = GeneralSearch(board, engine="learn")
        found = []
        while search.run(Limits(search.count + 1), record_at=search.count + 1) == 1:
            found.append(search.solution().to_line())
        assert len(found) == len(set(found)) == entry.count
        for line in found:
            assert Board.from_line(line).is_solution_of(board)


def test_the_learning_kernel_takes_64x64_boards():
    """A 64-bit candidate word is full at 64 values: its mask was (1 << 64) - 1, which the
    compiled shift made 0, and the first 64x64 board the generator sent to the learner
    divided by that count."""
    shape = Shape.for_size(64)
    grid = sudokit.solve(Board.empty(shape), node_limit=200_000, time_limit=600).board
    cells = grid.cells.copy()
    cells[np.random.default_rng(1).random(cells.size) < 0.3] = 0  # 0.4 is where 64x64 turns hard
    board = Board(cells, shape)
    search = GeneralSearch(board, engine="learn")
    assert search.run(Limits(1, node_limit=200_000)) == 1 and search.count == 1
    assert search.solution().is_solution_of(board)


@pytest.mark.slow
@pytest.mark.parametrize("puzzle,count,solution", frisch(), ids=lambda v: str(v)[:10])
def test_frisch_puzzles_are_solved_and_proven_unique(puzzle, count, solution):
    board = Board.from_line(puzzle)
    solved = sudokit.solve(board, node_limit=2_000_000)
    assert solved.status is SolveStatus.SOLVED
    assert naive.is_solution(solved.board.cells.tolist(), board.cells.tolist(), 5, 5)
    assert solved.board.to_line() == solution
    unique = sudokit.is_unique(board, node_limit=2_000_000)
    assert unique.unique is True and unique.count == count


def test_hard_puzzles_switch_to_learning_and_easy_ones_do_not():
    hard = GeneralSearch(Board.from_line(frisch()[0][0]))
    hard.run(Limits(1, node_limit=2_000_000))
    assert hard.learner is not None and hard.count == 1
    easy = GeneralSearch(Board.empty(Shape(8, 8)))
    easy.run(Limits(1, node_limit=100_000))
    assert easy.learner is None and easy.count == 1


@pytest.mark.parametrize("size", [36, 49, 64])
def test_empty_big_boards_solve(size):
    shape = Shape.for_size(size)
    result = sudokit.solve(Board.empty(shape), node_limit=200_000, time_limit=600)
    assert result.solved, size
    assert naive.is_solution(result.board.cells.tolist(), [0] * shape.cells, shape.box_height, shape.box_width)


@pytest.mark.parametrize("size", [25, 36])
def test_a_node_limit_holds_while_the_stack_grows(size):
    """Big boards start with a short level stack and grow it when the search runs deeper; the
    calls after a growth used to get the whole slice again, so a limit of 100 nodes ran 300."""
    board = Board.empty(Shape.for_size(size))
    for node_limit in (10, 60, 100, 300):
        result = sudokit.count(board, limit=1, node_limit=node_limit)
        assert result.nodes <= node_limit
        assert result.status in (SolveStatus.UNKNOWN, SolveStatus.SOLVED)


def impossible() -> Board:
    """A 25x25 board with no solution that no single rule sees at once: a puzzle with exactly
    one solution, plus one given that its solution does not have (clashing with no given)."""
    puzzle, _, solution = frisch()[2]
    board = Board.from_line(puzzle)
    cells = board.cells.reshape(-1).copy()
    shape = board.shape
    solved = Board.from_line(solution).cells.reshape(-1)
    for cell in np.nonzero(cells == 0)[0]:
        used = {int(cells[p]) for p in shape.peers[cell]}
        for value in range(1, 26):
            if value != solved[cell] and value not in used:
                cells[cell] = value
                return Board(cells.reshape(25, 25), shape)
    raise AssertionError("no such cell")


def test_an_impossible_25x25_answers_within_its_budget():
    board = impossible()
    assert board.status().valid
    for limit in (1, 2):
        result = sudokit.count(board, limit=limit, node_limit=2_000_000, time_limit=600)
        assert result.status in (SolveStatus.NO_SOLUTION, SolveStatus.UNKNOWN)
        assert result.count == 0
    assert sudokit.count(board, limit=1, node_limit=2_000_000).status is SolveStatus.NO_SOLUTION
    tiny = sudokit.count(board, limit=2, node_limit=50)
    assert tiny.status in (SolveStatus.NO_SOLUTION, SolveStatus.UNKNOWN) and tiny.nodes <= 50
    dfs = GeneralSearch(board, engine="dfs")
    assert dfs.run(Limits(1, node_limit=20_000)) in (0, 2) and dfs.count == 0


def test_default_options_follow_the_board_size():
    for small in (Shape(3, 3), Shape(3, 4)):
        options = G.options_for(small)
        assert options[G.RULES] == 0 and options[G.BRANCH] == G.CELL
    for middle in (Shape(3, 5), Shape(4, 4), Shape(2, 8)):
        options = G.options_for(middle)
        assert options[G.RULES] == 0 and options[G.BRANCH] == G.WDEG
    assert options[G.LAZY] == 0
    big = G.options_for(Shape(5, 5))
    assert big[G.RULES] == G.LOCKED | G.SUBSETS and big[G.BRANCH] == G.WDEG
    assert big[G.LAZY] == G.LAZY_START > 0 and big[G.VALUES] == G.LEAST_CONSTRAINING
    assert options[G.VALUES] == G.IN_ORDER
    assert (big[G.BOX_HEIGHT], big[G.BOX_WIDTH]) == (5, 5)
    odd = G.options_for(Shape(2, 3))
    assert (odd[G.BOX_HEIGHT], odd[G.BOX_WIDTH]) == (2, 3)
    with pytest.raises(ValueError, match="engine"):
        GeneralSearch(Board.empty(9), engine="fast")


SCRIPT = r"""
import json, sys
import sudokit
from sudokit.kernels.build import jit
from sudokit.engines import GeneralSearch
from sudokit.results import Limits
assert jit.JIT_DISABLED
out = []
for puzzle, limit, engine in json.loads(sys.stdin.read()):
    search = GeneralSearch(sudokit.Board.from_line(puzzle), engine=engine)
    search.run(Limits(limit))
    out.append([search.count, search.nodes, search.guesses])
print(json.dumps(out))
"""


def test_the_big_board_kernels_give_the_same_answers_without_jit():
    picks = [e for e in ENTRIES if e.size <= 9 and e.count <= 4][:8]
    cases = [(e.puzzle, e.count + 1, engine) for e in picks for engine in ("dfs", "learn")]
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", SUDOKIT_QUIET="1")
    done = subprocess.run([sys.executable, "-c", SCRIPT], input=json.dumps(cases), capture_output=True,
                          text=True, env=env, check=True)
    for (puzzle, limit, engine), (count, nodes, guesses) in zip(cases, json.loads(done.stdout)):
        compiled = GeneralSearch(Board.from_line(puzzle), engine=engine)
        compiled.run(Limits(limit))
        assert (count, nodes, guesses) == (compiled.count, compiled.nodes, compiled.guesses)
