"""Sudoku Explainer's scale (``sudokit.rate(..., scale="se")``, ``explain_se``): each technique's
published rating on a puzzle whose path takes it, ER on a sample with SukakuExplainer's recorded
ratings, ER/EP/ED on forum puzzles, budgets, and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import sudokit
from sudokit.cli import cli

DATA = Path(__file__).parent / "data"

# (technique, SE's rating of the step, a puzzle whose SE path takes it). The ratings are SE's
# published ones (1.0 full house, 1.2/1.5 hidden single in a box/line, ... 8.3 region forcing
# chains); a wing's, a loop's and a chain's grow with its size or length as SE's penalties say.
# The first ones are from the shared diabolical_se set or a step on the way in one (Sudoku
# Exchange puzzle bank, rated by SukakuExplainer; its ER is checked below, against that record).
# Direct Claiming, Bidirectional X-Cycle and Forcing X-Chain have none: they did not come up in
# about 60,000 SE paths (the shared 9x9 sets and generated puzzles); before Direct Claiming a
# hidden single or Direct Pointing seems always to apply, before the X-chains strong links.
SHOWCASE = [
    ("Full House", 1.0, ".64...3...1...367537......8.4.582......4.1......967.3.4......831378...9...8...75."),
    ("Hidden Single", 1.2, "2...5...6.1.....9.6..8.1..3..7.9.6.....7.3...9...8...21.......5.6.9.2.1...3.6.2.."),
    ("Hidden Single", 1.5, "..5.7.8...3.851.4..........2..6.7..33.6...7.2.5.....1.9...8...5..3...1...7.2.3.9."),
    ("Direct Pointing", 1.7, "...257...1..6.9..2.5.....4..7.....3..6.7.8.5.4.......1...3.5....8.....1...6...9.."),
    ("Direct Hidden Pair", 2.0, "27.15..8.....93.2....28....6.....15.92.....74.37.....6....15....5.47.....8..62.45"),
    ("Naked Single", 2.3, "2...6.9.8..74.....8.1.2354...2....8.6.8.5.1.4.7....6...8631.4.9.....98..1.9.4...3"),
    ("Direct Hidden Triplet", 2.5, ".....3.7.46.78..1...2.9.6..5......4..34...26..9......5..8.7.1...1..39.28.2.1....."),
    ("Pointing", 2.6, "9..6....7.6..7..3...7...2..6..5.8..2..4...8..2..3.1..9..1...5...4..5..1.8....9..4"),
    ("Claiming", 2.8, "..1...74.9..5.8...2.6...9.8.9.6.3.7...........1.7.5.6.1.5...4.7...1.7..3.87...2.."),
    ("Naked Pair", 3.0, "9..6....7.6..7..3...7...2..6..5.8..2..4...8..2..3.1..9..1...5...4..5..1.8....9..4"),
    ("X-Wing", 3.2, "7......6..516..4....98.4..16..2.7.3...........7.3.5..95..4.63....6..284..8......6"),
    ("Hidden Pair", 3.4, ".837.496.6...5...4...693....1..3..7...62.15............91...65..6..8..2.4..5.6..9"),
    ("Naked Triplet", 3.6, "7......6..516..4....98.4..16..2.7.3...........7.3.5..95..4.63....6..284..8......6"),
    ("Swordfish", 3.8, ".8.7...2.6......4...26.17.9..4..6.383..5.8..282.1..4..9.84.72...1......4.4...2.6."),
    ("Hidden Triplet", 4.0, ".....3.7.46.78..1...2.9.6..5......4..34...26..9......5..8.7.1...1..39.28.2.1....."),
    ("Skyscraper", 4.0, ".14.5.78.3..1.8..52.5...1.6.628.597..........7.......4...4.6.......9....59.2.3.47"),
    ("Turbot Fish", 4.1, "27.5...186.3.8.5.2.5...2.6...6.....1.3..2..9.8.....6...6.7...5.3.7.4.1.658...6.37"),
    ("2-String Kite", 4.1, "2...6.9.8..74.....8.1.2354...2....8.6.8.5.1.4.7....6...8631.4.9.....98..1.9.4...3"),
    ("XY-Wing", 4.2, "...7.2.....1.8.9...8..1..5.5..3.7..6....2.....7.6.8.3.8.9...1.334.....65.1.....9."),
    ("Grouped Skyscraper", 4.3, ".837.496.6...5...4...693....1..3..7...62.15............91...65..6..8..2.4..5.6..9"),
    ("XYZ-Wing", 4.4, "2...6.9.8..74.....8.1.2354...2....8.6.8.5.1.4.7....6...8631.4.9.....98..1.9.4...3"),
    ("Unique Rectangle type 1", 4.5, "...........2...6..61..4..288..2.4..5...9.7....7.358.9..4.189.3..2.....5...1.2.4.."),
    ("Unique Rectangle type 2", 4.5, "3....9..2.4..76.8...18..6..69....8...3.....1...8....37..3..54...1.63..5.5..7....8"),
    ("Unique Loop type 4", 4.6, ".5.1.2.6.....7....6.1.5.7.2..2.6.8...6.8.9.5.9..5.7..4.4.....7...54.63......8...."),
    ("Naked Quad", 5.0, ".........9...7...2...3.6...24.....63..7.4.8...1.2.5.4.....8....4...2...5..87.13.."),
    ("Jellyfish", 5.2, ".........6.......4.4.795.3.36..2..89.9..4..5....8.9.....9.6.7...8.3.4.2.43..7..65"),
    ("Hidden Quad", 5.4, ".....6....5.87..9...725.8..5.....18..63...94..21.....7..5.217...1..93.5....5....."),
    ("3 Skyscrapers", 5.4, ".754.692...17.86..6...3...7.5.....3..14.6.87.....2....1.78.32.45...4...1.8.....6."),
    ("WXYZ-Wing", 5.5, ".298.531....2.1...7...9...8.........8.3.5.9.6..4.6.1..1.67.38.2.........4.2...7.9"),
    ("BUG type 1", 5.6, ".41....59.82.1.......5..81.9......4..5.7.4.2..7......6.25..7.......2.73.71....46."),
    ("BUG type 2", 5.7, "...36.5.4.5.4...7.43...8.....2..1.....3.4.7.....2..4.....1...27.7...9.8.5.9.83..."),
    ("VWXYZ-Wing", 6.2, "...4.9.....51.37...64.5.19.....1.....5.2.6.1.2..3.8..79...8...1..6...9....3...5.."),
    ("UVWXYZ-Wing", 6.6, ".8.....2...2.4.5..4...5...3.5..2..7..6.9.8.3.9.......1.17...85...87.31..........."),
    ("Bidirectional Y-Cycle", 6.6, "..54.31...8.1.6.2.1.......3.2.....1.85.9.2.7479..4..32...8.1.......7.....1.3.5.4."),
    ("Bidirectional Cycle", 7.0, ".3..41.7.1..2....5..47..2..4..8.762.8.......7.163.2..4..1..95..2....8..9.9.52..1."),
    ("Forcing Chain", 7.1, "32451.6.8...8....49....3..2..6....411.......974....8..4..2....52....8...6.5.49127"),
    ("Aligned Triplet Exclusion", 7.5, "..4.71.893.....4...916.....1.....93.....8.....69.....2.....739...3.....554.92.7.."),
    ("Nishio Forcing Chains", 7.7, ".48...59...2.3.1...1.....8...5.2.9...2.159.3....3.8....9..8..6...1...2..6...9...7"),
    ("Region Forcing Chains", 8.2, "..7.8.....8.7.9..2..9..65......47.91..1...8..39.86......61..4..1..6.2.8.....3.1.."),
    ("Cell Forcing Chains", 8.3, ".........5.6...3.4...9.2...1..7.5..345.....69.3..4..5....8.4...3...1...529.....81"),
    # from sudokit.generate (its seed and the puzzle's place in the list said), magictour_top1465
    # and exemplars-1.0 (line): ER/EP/ED the same as SukakuExplainer 1.18 gives them
    ("Aligned Pair Exclusion", 6.2, ".....1.9.3....65.86...3....81..93...5....8..1..6....5..2......49.....3.....81..7."),  # seed 1064 [136]
    ("Aligned Triplet Exclusion", 7.5, "..3...5.....35....8.7....41.....79..9..5.6....8.2...56...7...2..3...287.4........"),  # 2063 hard+ [187]
    ("Nishio Forcing Chains", 7.8, "..74..5..6....2...............71.8..2.....1..3........5......3..4.9............26"),  # magictour 1438
    ("Dynamic Contradiction Forcing Chains", 8.8, "...4...26.7...9...28.5.....8..3....79......8.....9..64...7..1....6.....2..3.15..."),  # magictour 370
    ("Dynamic Region Forcing Chains", 8.9, "...6.8..75...3.2......17......47.3...3....1.5...39..2.4..1.....62..8......7...59."),  # 2039 hard+ [25]
    ("Dynamic Cell Forcing Chains", 8.9, "8..3....19.2.........56...4..8..4.65...7....32.6..........1........8.5427........"),  # magictour 1110
    ("Dynamic Double Forcing Chains", 8.9, "...8....64.....2.......38.12.9.....5..14.9.7..8.1......9.5....4..2..81..3........"),  # 2077 hard+ [8]
]
#: SE's ER/EP/ED of the showcase puzzles above that are not in the shared diabolical set, as
#: SukakuExplainer 1.18 rated them (one run, its default options)
SHOWCASE_SE = {
    ".....1.9.3....65.86...3....81..93...5....8..1..6....5..2......49.....3.....81..7.": "6.2/1.2/1.2",
    "..3...5.....35....8.7....41.....79..9..5.6....8.2...56...7...2..3...287.4........": "7.5/1.2/1.2",
    "..74..5..6....2...............71.8..2.....1..3........5......3..4.9............26": "7.8/1.5/1.5",
    "...4...26.7...9...28.5.....8..3....79......8.....9..64...7..1....6.....2..3.15...": "8.8/1.2/1.2",
    "...6.8..75...3.2......17......47.3...3....1.5...39..2.4..1.....62..8......7...59.": "8.9/1.2/1.2",
    "8..3....19.2.........56...4..8..4.65...7....32.6..........1........8.5427........": "8.9/1.2/1.2",
    "...8....64.....2.......38.12.9.....5..14.9.7..8.1......9.5....4..2..81..3........": "8.9/1.2/1.2",
}

# forum puzzles with ER/EP/ED recorded in the hardest list (HardestDatabase110626, as kept in
# alexdej/hodoku-py's test data): dynamic forcing chains (+), then nested forcing chains
FORUM = [
    ("..3.9....1...4..36..8..21...4..8..73...9................4.7..686........7.....5.4", "9.7/9.7/2.6"),
    (".....1.....7.2.....9.6.8..5..1..7....6.9....42.9.........8...59.8....4....6.3...8", "10.1/10.1/9.8"),
    ("...4......5...9...6...2..1.2...7.9.1..5....7......8.3...6....9.7...3.1......9.327", "10.3/10.3/2.6"),
    # rated 10.3: its inner cycles, the same loop from two starts, counted once where SE counts
    # each (its FullChain compares chains in order), put a 10.3 region chain at step 14
    (".....6.....1.2...3.3.8...7...6.....5.5.3..7..2....1.......9..4...5...98..9.4....7", "10.4/1.2/1.2"),
]


def recorded() -> dict[str, float]:
    rows = (line.split() for line in (DATA / "se_rated.txt").read_text().splitlines() if not line.startswith("#"))
    return {puzzle: float(er) for puzzle, er in rows}


@pytest.mark.parametrize(("technique", "rating", "puzzle"), SHOWCASE, ids=[f"{t} {r}" for t, r, _ in SHOWCASE])
def test_each_technique_has_se_rating_on_a_path_that_takes_it(technique, rating, puzzle):
    path = sudokit.explain_se(puzzle)
    assert path.solved and path.steps
    assert all(step.rating == round(step.rating, 1) for step in path.steps)  # one decimal, as SE prints
    assert any(step.name == technique and step.rating == rating for step in path.steps), [str(s) for s in path.steps]
    assert path.result.er == max(step.rating for step in path.steps)
    hardest = [step for step in path.steps if step.rating == path.result.er]
    assert hardest and hardest[0].text.startswith(f"{hardest[0].name} ({path.result.er:.1f}): ")


@pytest.mark.parametrize("puzzle", sorted(SHOWCASE_SE))
def test_the_added_showcase_puzzles_get_sukakuexplainers_er_ep_ed(puzzle):
    assert sudokit.rate(puzzle, scale="se").se == SHOWCASE_SE[puzzle]


def test_showcase_puzzles_have_the_er_sukakuexplainer_recorded():
    # the showcase puzzles whose hardest step is the showcased one are in the recorded set
    ratings = {line.split()[0]: float(line.split()[1]) for line in SHOWCASE_RECORDED.strip().splitlines()}
    for puzzle, er in ratings.items():
        rating = sudokit.rate(puzzle, scale="se")
        assert rating.er == er, puzzle
        assert rating.solved and rating.steps == len(sudokit.explain_se(puzzle).steps)  # SE's path's


# the recorded ERs (diabolical_se.txt) of the showcase puzzles rated 5.0 and more
SHOWCASE_RECORDED = """
.........9...7...2...3.6...24.....63..7.4.8...1.2.5.4.....8....4...2...5..87.13.. 5.0
.........6.......4.4.795.3.36..2..89.9..4..5....8.9.....9.6.7...8.3.4.2.43..7..65 5.2
.754.692...17.86..6...3...7.5.....3..14.6.87.....2....1.78.32.45...4...1.8.....6. 5.4
.298.531....2.1...7...9...8.........8.3.5.9.6..4.6.1..1.67.38.2.........4.2...7.9 5.5
.41....59.82.1.......5..81.9......4..5.7.4.2..7......6.25..7.......2.73.71....46. 5.6
...36.5.4.5.4...7.43...8.....2..1.....3.4.7.....2..4.....1...27.7...9.8.5.9.83... 5.7
...4.9.....51.37...64.5.19.....1.....5.2.6.1.2..3.8..79...8...1..6...9....3...5.. 6.2
.8.....2...2.4.5..4...5...3.5..2..7..6.9.8.3.9.......1.17...85...87.31........... 6.6
..54.31...8.1.6.2.1.......3.2.....1.85.9.2.7479..4..32...8.1.......7.....1.3.5.4. 6.6
.3..41.7.1..2....5..47..2..4..8.762.8.......7.163.2..4..1..95..2....8..9.9.52..1. 7.0
32451.6.8...8....49....3..2..6....411.......974....8..4..2....52....8...6.5.49127 7.1
..4.71.893.....4...916.....1.....93.....8.....69.....2.....739...3.....554.92.7.. 7.5
.48...59...2.3.1...1.....8...5.2.9...2.159.3....3.8....9..8..6...1...2..6...9...7 7.7
..7.8.....8.7.9..2..9..65......47.91..1...8..39.86......61..4..1..6.2.8.....3.1.. 8.2
.........5.6...3.4...9.2...1..7.5..345.....69.3..4..5....8.4...3...1...529.....81 8.3
"""


def test_er_agrees_with_sukakuexplainer_on_a_recorded_sample():
    ratings = recorded()
    assert len(ratings) == 80
    diffs = [abs(sudokit.rate(puzzle, scale="se").er - er) for puzzle, er in ratings.items()]
    same = sum(d < 0.05 for d in diffs) / len(diffs)
    near = sum(d <= 0.3 + 1e-9 for d in diffs) / len(diffs)
    # the targets are 70% equal and 90% within 0.3; this sample measured 97.5% and 98.8%
    # (the whole set 96.5% and 97.8%), none more than 0.5 away
    assert same >= 0.9 and near >= 0.95, (same, near)
    assert max(diffs) <= 0.5


@pytest.mark.slow  # the nested chains' kernel compiles in minutes
@pytest.mark.parametrize(("puzzle", "se"), FORUM)
def test_forum_puzzles_get_the_recorded_er_ep_ed(puzzle, se):
    rating = sudokit.rate(puzzle, scale="se")
    assert rating.se_status is sudokit.SolveStatus.SOLVED
    assert rating.se == se
    path = sudokit.explain_se(puzzle)
    assert f"{path.result.er:.1f}" == se.split("/")[0]
    assert max(step.rating for step in path.steps) == rating.er
    nested = [step for step in path.steps if "(+ Forcing Chains)" in step.name]
    assert bool(nested) == (rating.er > 10.1)  # the third needs a chain with chains inside


def test_a_budget_gives_unknown_and_a_lower_bound_not_a_hang():
    puzzle = FORUM[1][0]
    rating = sudokit.rate(puzzle, scale="se", potential_limit=20_000)
    assert rating.se_status is sudokit.SolveStatus.UNKNOWN
    assert 2.0 <= rating.er <= 10.1  # a lower bound: SE's rating is 10.1
    assert "unknown" in str(rating)
    path = sudokit.explain_se(puzzle, potential_limit=20_000)
    assert path.status is sudokit.SolveStatus.UNKNOWN and path.result.er == rating.er
    # stopped before its first step (rated 9.8): EP and ED are bounded by the same step, and EP
    # is never below ED
    assert not path.steps and rating.ep == rating.ed == rating.er
    assert str(rating).startswith(f"SE >={rating.er:.1f}/")


def test_a_budgeted_rating_does_not_depend_on_what_was_rated_before():
    """The searches' caches (values whose cells a pass found nothing in, the nested chains'
    remembered answers) spare work that a budget counts: they start empty for every board, so
    the same call gives the same answer (it gave 6.5, then 7.5)."""
    puzzle = FORUM[1][0]
    first = [sudokit.rate(puzzle, scale="se", potential_limit=5_000).er for _ in range(2)]
    sudokit.rate(SHOWCASE[0][2], scale="se")
    again = sudokit.rate(puzzle, scale="se", potential_limit=5_000).er
    assert first == [again, again]
    assert sudokit.explain_se(puzzle, potential_limit=5_000).result.er == again


def test_each_budget_counts_its_own_unit():
    """``node_limit`` counts search nodes (the proof that the puzzle has one solution),
    ``potential_limit`` SE's potentials: a node budget never cuts SE's chains short, and a
    proof cut short leaves the whole rating unknown (issue 33)."""
    # ER 7.1: its chains process about 5,000 potentials, its proof takes a handful of nodes, so
    # a node budget of 500 that reached SE's chains would leave SE's rating unknown
    puzzle = next(row[2] for row in SHOWCASE if row[0] == "Forcing Chain")
    nodes_only = sudokit.rate(puzzle, scale="se", node_limit=500)
    assert nodes_only.se_status is sudokit.SolveStatus.SOLVED and nodes_only.er == 7.1
    assert sudokit.rate(puzzle, scale="se", potential_limit=500).se_status is sudokit.SolveStatus.UNKNOWN
    open_board = "." * 81  # several solutions: a proof that needs more than one node
    assert sudokit.rate(open_board, node_limit=1).status is sudokit.SolveStatus.UNKNOWN
    assert sudokit.rate(open_board).status is sudokit.SolveStatus.SEVERAL
    cut = sudokit.rate(FORUM[1][0], scale="se", node_limit=10_000, potential_limit=20_000)
    assert cut.status is sudokit.SolveStatus.SOLVED and cut.se_status is sudokit.SolveStatus.UNKNOWN
    with pytest.raises(ValueError, match="potential_limit must be a positive integer"):
        sudokit.rate(puzzle, scale="se", potential_limit=0)
    cut_short = CliRunner().invoke(cli, ["rate", "--node-limit", "1"], input=open_board + "\n")
    assert cut_short.exit_code == 3 and cut_short.stdout == "unknown (budget exhausted)\n"
    assert "the proof that it has one solution, or the rating, ran out of budget" in cut_short.stderr


def test_a_stop_before_the_first_placement_bounds_ep_by_er():
    puzzle = FORUM[0][0]  # 9.7/9.7/2.6: a 2.6 step, then chains before anything is placed
    rating = sudokit.rate(puzzle, scale="se", potential_limit=20_000)
    assert rating.se_status is sudokit.SolveStatus.UNKNOWN
    assert rating.ed == 2.6 and rating.ep == rating.er >= 2.6
    path = sudokit.explain_se(puzzle, potential_limit=20_000)
    assert (path.result.er, path.result.ep, path.result.ed) == (rating.er, rating.ep, rating.ed)


def test_a_time_limit_gives_a_rating_or_bounds_not_a_hang():
    rating = sudokit.rate(FORUM[1][0], scale="se", time_limit=0.05)
    assert rating.se_status in (sudokit.SolveStatus.UNKNOWN, sudokit.SolveStatus.SOLVED)
    assert rating.er <= 10.1 and rating.ed <= rating.ep <= rating.er


def test_se_scale_is_for_9x9_and_for_boards_with_one_solution():
    small = sudokit.rate("...21.4..42.....")  # a 4x4 with one solution: rated on HoDoKu's scale only
    assert small.level is not None and small.er is None and small.se is None
    assert sudokit.rate("." * 81, scale="se").er is None  # several solutions: not rated
    with pytest.raises(ValueError, match="9x9"):
        sudokit.explain_se("...21.4..42.....")


def test_one_scale_object_decides_for_every_caller():
    """``logic/scales.py``: the library, the command line, the API and the batch ask the same
    Scale which boards it takes, why it refuses the others and what its record holds."""
    from sudokit.batch.chunks import RATING_COLUMNS
    from sudokit.logic.scales import ALL, HODOKU, SE, SE_DEFAULT_WORK, SINGLE, scale_of

    small = sudokit.Board.from_line("...21.4..42.....")
    assert HODOKU.takes(small) and ALL.takes(small) and not SE.takes(small)
    assert not ALL.rates_se(small) and ALL.rates_se(sudokit.Board.from_line(SHOWCASE[8][2]))
    with pytest.raises(ValueError, match="classic 9x9") as refused:
        sudokit.explain_se(small)
    assert str(refused.value) == SE.refusal
    with pytest.raises(ValueError, match="scale must be one of all, hodoku, se, not 'SE'"):
        sudokit.rate(small, scale="SE")
    assert scale_of("se") is SE and scale_of(SE) is SE and SINGLE == ("hodoku", "se")
    assert ALL.budget(sudokit.Limits()).potential_limit == SE_DEFAULT_WORK and SE.budget(sudokit.Limits()).potential_limit is None
    assert ALL.budget(sudokit.Limits(node_limit=5)).potential_limit == SE_DEFAULT_WORK  # nodes are not potentials
    assert RATING_COLUMNS == ALL.columns == HODOKU.columns + SE.columns


def test_variants_are_refused_on_both_scales_record_by_record():
    """A variant's rules (jigsaw regions, extra houses, cages, pencil marks) are not what the
    techniques know: each such record is its own error, the others are rated. (SE's scale
    took 9x9 variants once and ended the run with an internal error.)"""
    puzzle = SHOWCASE[8][2]
    runner = CliRunner()
    for name in ("jigsaw", "windoku", "killer", "pencilmark"):
        record = (DATA / "variants" / f"{name}.jsonl").read_text().splitlines()[0]
        board = next(iter(sudokit.read_text(record))).board
        assert board.size == 9 and not sudokit.logic.se.supported(board), name
        with pytest.raises(ValueError, match="classic 9x9"):
            sudokit.explain_se(board)
        commands = [["rate", "--scale", "se"], ["explain", "--scale", "se"]]
        if name != "pencilmark":  # HoDoKu's techniques take the player's marks
            commands += [["rate"], ["explain"], ["hint"]]
        for command in commands:
            result = runner.invoke(cli, command, input=f"{record}\n" + json.dumps({"givens": puzzle}) + "\n")
            assert result.exit_code == 2, (name, command)
            first, *rest = result.stdout.splitlines()
            assert first == "error" and rest and "error" not in rest[0], (name, command, result.stdout)
            assert "<stdin>:1:1: " in result.stderr and "internal error" not in result.stderr, (name, command)


def test_cli_rate_and_explain_on_se_scale():
    puzzle = SHOWCASE[8][2]  # ER 6.4 (VWXYZ-Wing), with claiming on the way
    runner = CliRunner()
    text = runner.invoke(cli, ["rate", "--scale", "se"], input=puzzle + "\n")
    assert text.exit_code == 0 and text.stdout == f"{puzzle} 6.4/1.2/1.2\n"
    rows = runner.invoke(cli, ["rate", "--scale", "se", "--to", "json"], input=puzzle + "\n")
    assert json.loads(rows.stdout) == {"puzzle": puzzle, "er": 6.4, "ep": 1.2, "ed": 1.2, "status": "solved"}
    steps = runner.invoke(cli, ["explain", "--scale", "se"], input=puzzle + "\n").stdout.splitlines()
    assert steps[0] == puzzle and steps[1] == "1. Hidden Single (1.2): r1c1=8"
    assert "6. Claiming (2.8): r8c5<>6, r9c5<>6, r9c6<>6" in steps
    budget = runner.invoke(cli, ["rate", "--scale", "se", "--potential-limit", "20000"], input=FORUM[1][0] + "\n")
    assert budget.stdout.startswith(FORUM[1][0] + " >=")
    # a board SE does not rate is that record's error; the records after it are still rated
    mixed = runner.invoke(cli, ["rate", "--scale", "se"], input="...21.4..42.....\n" + puzzle + "\n")
    assert mixed.exit_code == 2 and mixed.stdout == f"error\n{puzzle} 6.4/1.2/1.2\n"
    assert "<stdin>:1:1: Sudoku Explainer's scale rates classic 9x9 boards" in mixed.stderr
    explained = runner.invoke(cli, ["explain", "--scale", "se"], input="...21.4..42.....\n" + puzzle + "\n")
    assert explained.exit_code == 2 and explained.stdout.startswith("error\n" + puzzle)


def _se_path(puzzle: str, **options: bool):
    """SE's path on ``puzzle`` step by step, with ``logic.se._Engine``'s searches switched as
    ``options`` say (``memo``, ``keep``, ``reads``: each off only to show it changes no step);
    the steps (rule, hint) and the engine after them."""
    from sudokit import Board
    from sudokit.logic import se as se_logic

    engine = se_logic._Engine(**options)
    engine.load(Board.from_line(puzzle))
    engine.budget(None)
    steps = []
    while not engine.k.core.solved(engine.g):
        rule = engine.step()
        assert rule >= 0
        steps.append((rule, engine.hint_step()))
        engine.apply()
    return steps, engine


def test_multiple_chains_grow_each_chaining_once_without_changing_a_step():
    """A cell's and a region's forcing chains need the same "on" chainings again and again
    (``chains.frame_keep``): kept for the search, the path is the same step for step, with
    fewer potentials processed."""
    from sudokit.kernels.se import record

    multiple = [row[2] for row in SHOWCASE if row[1] >= 8.0]
    assert len(multiple) == 6
    for puzzle in multiple:
        kept, engine = _se_path(puzzle, keep=True)
        plain, plain_engine = _se_path(puzzle, keep=False)  # no store: every chaining grown again
        assert kept == plain
        assert any(rule in (30, 31) for rule, _ in plain)  # cell, region or dynamic forcing chains
        assert engine.ws[record.WS_KEPT_STATE][2] > 0 and plain_engine.ws[record.WS_KEPT_STATE][2] == 0
        assert engine.work < plain_engine.work


@pytest.mark.slow  # a nested path takes seconds, twice
def test_inner_searches_skip_the_chains_that_read_nothing_changed_without_changing_a_step():
    """A nested chain's inner forcing chains and cycles that read no cell and no region the
    outer chain changed grow as in the outer grid, and their hints have no rule parents
    (``nested.unary_all``): skipping them, the path is the same step for step (rule, hint,
    complexity) with fewer potentials processed."""
    skipping, engine = _se_path(FORUM[2][0], reads=True)
    plain, plain_engine = _se_path(FORUM[2][0], reads=False)
    assert skipping == plain
    assert any(rule in (33, 34) for rule, _ in plain)  # nested forcing chains, whose inner searches are unary
    assert engine.work < plain_engine.work


@pytest.mark.slow  # a nested path takes seconds, twice
def test_nested_chains_remember_answers_without_changing_a_step():
    """Two chains of a step often reduce the grid alike, and a nested chain's inner searches
    then answer the same (``kernels/se/memo.py``): remembered, the path is the same step for
    step, with fewer potentials processed."""
    from sudokit.kernels.se import record

    remembered, engine = _se_path(FORUM[2][0], memo=True)
    plain, plain_engine = _se_path(FORUM[2][0], memo=False)  # no memo arrays: the search as it was
    assert remembered == plain
    assert any(rule >= 33 for rule, _ in plain)  # nested chains were taken
    hits, plain_hits = (int(e.ws[record.WS_MEMO_STATE][2]) for e in (engine, plain_engine))
    assert hits > 0 and plain_hits == 0 and engine.work < plain_engine.work



def _chain_grids(puzzles):
    """SE's path through each puzzle, at the grids where its loop gets past the singles and
    subsets (rule 12 on), as the chains and patterns see them: (the puzzle, how many of its
    grids came before, the grid)."""
    from sudokit import Board
    from sudokit.logic import se as se_logic

    engine = se_logic._Engine()
    for puzzle in puzzles:
        engine.load(Board.from_line(puzzle))
        engine.budget(None)
        before = 0
        while not engine.k.core.solved(engine.g):
            if engine.step() >= 12:
                yield puzzle, before, engine.g
                before += 1
            engine.apply()


def _forcing_chain_length(cand: list[set[int]], houses_of: list[list[list[int]]], source: tuple, y_links: bool) -> int:
    """The obvious reference: breadth-first from the source over SE's two implications until its
    opposite is reached (a forcing chain's length); -1 where it never is."""

    def implied(cell: int, value: int, on: bool) -> set:
        if on:  # the cell's other candidates, and the value's other places, off
            out = {(cell, other, False) for other in cand[cell] - {value}} if y_links else set()
            return out | {(peer, value, False) for house in houses_of[cell] for peer in house
                          if peer != cell and value in cand[peer]}
        out = {(cell, min(cand[cell] - {value}), True)} if y_links and len(cand[cell]) == 2 else set()
        for house in houses_of[cell]:  # the value's last other place in a house, on
            places = [peer for peer in house if peer != cell and value in cand[peer]]
            if len(places) == 1:
                out.add((places[0], value, True))
        return out

    target = (source[0], source[1], not source[2])
    seen, layer, length = {source}, {source}, 0
    while layer:
        length += 1
        layer = {q for p in layer for q in implied(*p)} - seen
        seen |= layer
        if target in layer:
            return length
    return -1


def test_forcing_chain_lengths_on_bit_sets_are_the_distances_to_the_opposite():
    """``kernels/se/distance.py`` measures every candidate's forcing chain (both ways, with and
    without Y-links) as layers of bit sets, growing half as far: on the grids of SE's paths
    through chains, the lengths are a plain search's, within each bound."""
    import numpy as np

    from sudokit.kernels.se import distance, record

    houses = ([[r * 9 + c for c in range(9)] for r in range(9)] + [[r * 9 + c for r in range(9)] for c in range(9)]
              + [[(b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)] for b in range(9)])
    houses_of = [[house for house in houses if cell in house] for cell in range(81)]
    counters = np.zeros(8, dtype=np.int64)
    checked = chains = 0

    def check(g) -> None:
        nonlocal checked, chains
        cand = [{v for v in range(1, 10) if (int(m) >> v) & 1} for m in g[record.G_CAND]]
        index = np.empty(729, dtype=np.int64)
        npot = 2 * distance.number_candidates(g, index)
        adj = np.empty((npot, (npot + 63) // 64), dtype=np.uint64)
        depth, bits = np.empty(npot, dtype=np.int64), np.empty((3, adj.shape[1]), dtype=np.uint64)
        for y_links in (False, True):
            distance.adjacency(g, y_links, index, adj)
            for cell, value in ((c, v) for c in range(81) if len(cand[c]) > 1 for v in sorted(cand[c])):
                for on in (0, 1):
                    length = _forcing_chain_length(cand, houses_of, (cell, value, bool(on)), y_links)
                    chains += length > 0
                    bit = 2 * int(index[cell * 9 + value - 1]) + on
                    for most in (2, 5, 1 << 39):
                        measured = distance.forcing_distance(adj, bit, most, depth, bits, counters)
                        assert measured == (length if 0 <= length <= most else -1), (cell, value, on, y_links)
                        checked += 1

    for _, before, g in _chain_grids(list(SHOWCASE_SE)[:4]):  # paths through chains
        if before < 3:
            check(g)
    assert checked > 5000 and chains > 100


def test_aligned_exclusion_remembering_where_it_found_nothing_finds_what_a_fresh_search_finds():
    """Aligned pair and triplet exclusion try again only the groups whose cells or common
    excluders changed since the grid they last found nothing in: along SE's paths through
    both (and through chains, where they run at every step), each call gives the hint a
    search without that memory gives, and the memory does spare groups."""
    import numpy as np

    from sudokit.kernels.se import patterns, record

    puzzles = [row[2] for row in SHOWCASE if row[0].startswith("Aligned")] + list(SHOWCASE_SE)[:3]
    calls = spared = 0
    for puzzle, before, g in _chain_grids(puzzles):
        if before == 0:
            memory = {degree: (np.zeros((10, 2), dtype=np.uint64), np.zeros(10, dtype=np.int64)) for degree in (2, 3)}
        for degree in (2, 3):
            hints = []
            spared += memory[degree][1][0] == 1
            for cache, ok in (memory[degree], (np.zeros((10, 2), dtype=np.uint64), np.zeros(10, dtype=np.int64))):
                h = record.new_hint()
                found = patterns.aligned_exclusion(g, h, degree, np.zeros((10, 2), dtype=np.uint64), cache, ok)
                hints.append((found, [a.tolist() for a in h] if found else None))
            assert hints[0] == hints[1], (puzzle, degree)
            calls += 1
    assert calls > 30 and spared > 10


def test_nishio_remembering_the_values_it_found_nothing_for_finds_what_a_fresh_search_finds():
    """Nishio's chains have X-links only, each within its value: a value whose cells are as
    when its chains found no contradiction, from no more sources, is not searched again. Along
    SE's paths, the rules from Nishio on (``rate.step`` from rule 29) give the same hint with
    that memory as with a workspace that forgets it before every call, and it does spare values."""
    from sudokit import engines
    from sudokit.kernels.se import chains, record

    k = engines.se_kernels()
    remembering, forgetting = k.core.new_workspace(), k.core.new_workspace()
    calls = spared = 0
    for puzzle, before, g in _chain_grids([row[2] for row in SHOWCASE if row[1] >= 7.5][:6]):
        if calls == 120:
            break
        if before == 0:
            remembering[record.WS_NOTHING_FOUND][:] = 0
        forgetting[record.WS_NOTHING_FOUND][:] = 0
        spared += int(remembering[record.WS_NOTHING_FOUND][chains.NISHIO_CACHE].sum())
        answers = []
        for ws in (remembering, forgetting):
            h, scratch, best = k.core.new_hint(), k.core.new_hint(), k.core.new_hint()
            rule = k.rate.step(g, ws, h, scratch, best, 29)
            answers.append((rule, [a.tolist() for a in h] if rule >= 0 else None))
        assert answers[0] == answers[1], puzzle
        calls += 1
    assert calls > 20 and spared > 20


def test_the_wings_remembering_where_they_found_nothing_find_what_a_fresh_search_finds():
    """The WXYZ- to TUVWXYZ-Wings close a set of unchanged cells only with a changed bivalue
    cell, where they last found nothing in a grid of which this one is a part: along SE's
    paths each call gives the hint a search without that memory gives."""
    import numpy as np

    from sudokit.kernels.se import record, rules

    calls = remembered = 0
    for puzzle, before, g in _chain_grids([row[2] for row in SHOWCASE if row[0].endswith("Wing") or row[1] >= 7.5][:8]):
        if before == 0:
            memory = {size: (np.zeros((10, 2), dtype=np.uint64), np.zeros(10, dtype=np.int64)) for size in range(3, 7)}
        for size, (cache, ok) in memory.items():
            remembered += ok[0] == 1
            answers = []
            for c, o in ((cache, ok), (np.zeros((10, 2), dtype=np.uint64), np.zeros(10, dtype=np.int64))):
                scratch, best = record.new_hint(), record.new_hint()
                found = rules.als_wing(g, size, scratch, best, np.zeros((10, 2), dtype=np.uint64), c, o)
                answers.append((found, [a.tolist() for a in best] if found else None))
            assert answers[0] == answers[1], (puzzle, size)
            calls += 1
    assert calls > 100 and remembered > 50
