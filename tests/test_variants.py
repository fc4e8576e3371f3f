"""Variants: jigsaw regions, extra houses, killer cages and pencil marks, end to end.

Every puzzle of the shared variant data (copied into ``tests/data/variants``) is solved, its
solution checked by :func:`follows_rules` (written from the JSON record alone, sharing nothing
with sudokit), its solutions counted to two and compared with what the data records. Small
random killers and jigsaws are counted against a brute force over every grid. Bad input of
every kind is an error with its line and column, never a traceback."""

from __future__ import annotations

import itertools
import json
import pickle
import random
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import sudokit
from sudokit import Board, FormatError, Geometry, Shape, SolveStatus
from sudokit.cli import cli
from sudokit.engines import kernel_for, search_for
from sudokit.shape import Cage

DATA = Path(__file__).parent / "data" / "variants"
FILES = ["jigsaw", "x", "windoku", "killer", "killer_x", "killer_generated", "pencilmark"]
RECORDS = [(name, number, line) for name in FILES for number, line in enumerate((DATA / f"{name}.jsonl").read_text().splitlines())]
#: the pencil-mark puzzles that take the solvers (sudokit, MiniSat and CP-SAT alike) tens of seconds
HARD = {("pencilmark", 2), ("pencilmark", 6), ("pencilmark", 7)}


# -- an independent checker: the record's own rules ----------------------------------------------


def rule_houses(record: dict) -> list[list[int]]:
    """Every set of cells that must hold distinct values, from the JSON keys alone."""
    n = record["size"]
    houses = [[r * n + c for c in range(n)] for r in range(n)] + [[r * n + c for r in range(n)] for c in range(n)]
    if record.get("regions"):
        labels = record["regions"]
        houses += [[cell for cell in range(n * n) if labels[cell] == label] for label in sorted(set(labels))]
    else:
        side = int(round(n**0.5))
        houses += [
            [(top + r) * n + left + c for r in range(side) for c in range(side)]
            for top in range(0, n, side)
            for left in range(0, n, side)
        ]
    if "main" in record.get("diagonals", []):
        houses.append([r * n + r for r in range(n)])
    if "anti" in record.get("diagonals", []):
        houses.append([r * n + n - 1 - r for r in range(n)])
    if record.get("windoku"):
        houses += [[(top + r) * n + left + c for r in range(3) for c in range(3)] for top in (1, 5) for left in (1, 5)]
    houses += [cells for _, cells in record.get("cages", [])]
    return houses


def follows_rules(solution: str, record: dict) -> bool:
    """A complete grid that keeps the givens, repeats nothing in any house or cage, makes
    every cage's sum and keeps to every cell's pencil marks."""
    n = record["size"]
    givens = record.get("givens", "." * (n * n))
    if len(solution) != n * n or "." in solution:
        return False
    if any(g != "." and g != s for g, s in zip(givens, solution)):
        return False
    symbols = sorted(set(solution))
    if len(symbols) != n:
        return False
    value = {symbol: k + 1 for k, symbol in enumerate(symbols)}
    if record["size"] == 9:
        value = {str(d): d for d in range(1, 10)}
    if any(len({solution[c] for c in house}) != len(house) for house in rule_houses(record)):
        return False
    for total, cells in record.get("cages", []):
        if total is not None and sum(value[solution[c]] for c in cells) != total:
            return False
    return all(solution[cell] in allowed for cell, allowed in record.get("candidates", []))


def board_of(line: str) -> Board:
    return sudokit.Board.parse(line)


@pytest.mark.parametrize(
    "name,number,line",
    [pytest.param(*r, marks=pytest.mark.slow) if (r[0], r[1]) in HARD else r for r in RECORDS],
    ids=[f"{name}-{number}" for name, number, _ in RECORDS],
)
def test_every_shared_variant_is_solved_checked_and_counted(name, number, line):
    record = json.loads(line)
    board = board_of(line)
    result = sudokit.count(board, 2)
    assert result.board is not None
    solution = result.board.to_line()
    assert follows_rules(solution, record), solution
    assert result.board.is_solution_of(board)
    assert result.unique is record["unique"]
    if record["unique"]:
        assert solution == record["solution"]
    else:
        assert result.count == 2 and follows_rules(record["solution"], record)


def test_the_checker_rejects_a_broken_solution():
    record = json.loads(RECORDS[[r[0] for r in RECORDS].index("killer")][2])
    good = record["solution"]
    swapped = good[1] + good[0] + good[2:]  # a row still holds 1-9, a cage sum breaks
    assert follows_rules(good, record) and not follows_rules(swapped, record)


@pytest.mark.parametrize("valid", [True, False])
def test_jigsaw_layouts_admit_a_grid_or_none(valid):
    name = "jigsaw_layouts_valid.txt" if valid else "jigsaw_layouts_invalid.txt"
    layouts = (DATA / name).read_text().split()
    for layout in layouts:  # invalid 5 and 25 ran past 900,000 nodes before the learning kernel's filters
        board = Board.empty(9).with_rules(geometry=Geometry.jigsaw(layout))
        result = sudokit.solve(board, node_limit=200_000)
        assert result.status is (SolveStatus.SOLVED if valid else SolveStatus.NO_SOLUTION), layout
        if valid:
            record = {"size": 9, "regions": layout, "givens": "." * 81}
            assert follows_rules(result.board.to_line(), record)


@pytest.mark.parametrize("options", [[], ["--format", "layout"]], ids=["detected", "--format layout"])
def test_layout_files_read_as_they_are(tmp_path, options):
    valid = (DATA / "jigsaw_layouts_valid.txt").read_text().split()[:4]
    invalid = (DATA / "jigsaw_layouts_invalid.txt").read_text().split()[:4]
    path = tmp_path / "layouts.txt"
    path.write_text("\n".join(valid + invalid) + "\n")
    result = CliRunner().invoke(cli, ["solve", *options, str(path)])
    out = result.stdout.splitlines()
    assert result.exit_code == 1 and out[4:] == ["no solution"] * 4
    for layout, written in zip(valid, out):
        solution, again = written.split()
        assert again == Geometry.jigsaw(layout).region_labels()
        assert follows_rules(solution, {"size": 9, "regions": layout, "givens": "." * 81})


def test_a_layout_is_told_from_a_board():
    """A layout's label classes are connected pieces; equal values of a board with a solution
    never share an edge, so no such board is taken for a layout."""
    from sudokit.formats import detect

    layout = (DATA / "jigsaw_layouts_valid.txt").read_text().split()[0]
    assert detect(layout) == "layout" and detect(layout.replace("1", "0")) == "layout"
    assert detect("527389416819426735436751829375692184194538267268174593643217958951843672782965341") == "line"
    assert detect("1" * 81) == "line" and detect("1122112233443344") == "layout"  # 2x2 boxes, empty
    assert detect(layout[:80] + ".") == "line"


@pytest.mark.parametrize("blank", [" ", "\t", "\u0085"], ids=["space", "tab", "NEL"])
def test_a_layout_with_blanks_between_labels_reads_as_the_layout_it_writes_back(blank):
    """A board's line skips blanks between symbols; a layout's does too, so a line that reads
    as a layout with them reads as one without them (its board written back reads as itself;
    found by fuzzing ``/api/parse``), and an error still points at its label's column."""
    layout = (DATA / "jigsaw_layouts_valid.txt").read_text().split()[0]
    spaced = layout[:40] + blank + layout[40:]
    record = sudokit.read_text(spaced + "\n")[0]
    assert record.format == "layout" and record.board is not None
    assert record.board.geometry.region_labels() == Geometry.jigsaw(layout).region_labels()
    again = sudokit.read_text(record.board.to_line() + "\n")[0].board
    assert again is not None and again.cells.tolist() == record.board.cells.tolist()
    broken = layout[:40] + blank + layout[40:80] + ("1" if layout[80] != "1" else "2")
    error = sudokit.read_text(broken + "\n", format="layout")[0].error
    assert error is not None and error.column is not None and error.column > 1


# -- small boards against a brute force over every grid -------------------------------------------


def latin_grids(n: int, houses: list[list[int]]) -> list[tuple[int, ...]]:
    """Every grid of 1..n whose houses hold distinct values (row by row, no propagation)."""
    rows = list(itertools.permutations(range(1, n + 1)))
    grids: list[tuple[int, ...]] = []

    def extend(prefix: tuple[int, ...]) -> None:
        if len(prefix) == n * n:
            if all(len({prefix[c] for c in house}) == len(house) for house in houses):
                grids.append(prefix)
            return
        for row in rows:
            grid = prefix + row
            filled = len(grid)
            if all(len({grid[c] for c in house if c < filled}) == sum(1 for c in house if c < filled) for house in houses):
                extend(grid)

    extend(())
    return grids


def random_cages(n: int, grid: tuple[int, ...], rng: random.Random, most: int) -> list[tuple[int | None, tuple[int, ...]]]:
    """Cages that tile the board, 1 to ``most`` cells each, with the sums ``grid`` makes (a
    few without a sum), cells of a cage holding distinct values of ``grid``."""
    free = set(range(n * n))
    cages = []
    while free:
        cell = min(free)
        cells = [cell]
        free.discard(cell)
        size = rng.randint(1, most)
        while len(cells) < size:
            options = [
                c
                for x in cells
                for c in (x - n, x + n, x - 1 if x % n else -1, x + 1 if x % n < n - 1 else -1)
                if c in free and grid[c] not in {grid[y] for y in cells}
            ]
            if not options:
                break
            pick = rng.choice(options)
            cells.append(pick)
            free.discard(pick)
        total = None if rng.random() < 0.1 else sum(grid[c] for c in cells)
        cages.append((total, tuple(sorted(cells))))
    return cages


def brute_count(grids, cages, givens, marks=None) -> int:
    count = 0
    for grid in grids:
        if any(v and grid[c] != v for c, v in enumerate(givens)):
            continue
        if any(total is not None and sum(grid[c] for c in cells) != total for total, cells in cages):
            continue
        if any(len({grid[c] for c in cells}) != len(cells) for _, cells in cages):
            continue
        if marks is not None and any(not marks[c] >> (grid[c] - 1) & 1 for c in range(len(grid))):
            continue
        count += 1
    return count


@pytest.mark.parametrize("box", [(2, 2), (2, 3)])
def test_random_killers_count_as_a_brute_force_does(box):
    shape = Shape(*box)
    n = shape.size
    houses = shape.houses.tolist()
    grids = latin_grids(n, houses) if n == 4 else None
    rng = random.Random(21)
    boards = 25 if n == 4 else 8
    base = tuple(int(v) for v in sudokit.solve(Board.empty(shape)).board.cells)
    for _ in range(boards):
        grid = _shuffled(base, n, rng)
        cages = random_cages(n, grid, rng, most=4 if n == 4 else 3)
        givens = [0] * (n * n)
        board = Board(givens, shape, cages=cages)
        found = sudokit.count(board, 1000)
        if grids is not None:
            assert found.count == brute_count(grids, cages, givens), cages
        else:  # 6x6: every solution the search lists keeps the rules, and they are distinct
            listed = list(sudokit.solutions(board, limit=300))
            assert len(listed) == min(found.count, 300) and len(set(listed)) == len(listed)
            record = {"size": n, "cages": [list(c) for c in cages]}
            assert all(_keeps(b, shape, cages) for b in listed), record
        assert found.count >= 1


def _shuffled(grid: tuple[int, ...], n: int, rng: random.Random) -> tuple[int, ...]:
    """The grid with its values renamed at random (still a solution)."""
    names = list(range(1, n + 1))
    rng.shuffle(names)
    return tuple(names[v - 1] for v in grid)


def _keeps(board: Board, shape: Shape, cages) -> bool:
    cells = board.cells.tolist()
    houses = shape.houses.tolist()
    return (
        all(len({cells[c] for c in h}) == len(h) for h in houses)
        and all(len({cells[c] for c in cs}) == len(cs) for _, cs in cages)
        and all(t is None or sum(cells[c] for c in cs) == t for t, cs in cages)
    )


def test_random_jigsaws_and_pencil_marks_count_as_a_brute_force_does():
    rng = random.Random(5)
    layouts = ["aabbaabbccddccdd", "aaabcabbccbdcddd", "aaabacbbcccbdddd"]
    for layout in layouts:
        geometry = Geometry.jigsaw(layout, connected=False)
        grids = latin_grids(4, geometry.houses.tolist())
        for _ in range(6):
            marks = np.array([rng.randrange(1, 16) | (1 << rng.randrange(4)) for _ in range(16)], dtype=np.uint64)
            board = Board([0] * 16, geometry=geometry, candidates=marks)
            expected = brute_count(grids, [], [0] * 16, marks.tolist())
            assert sudokit.count(board, 10_000).count == expected
            with_x = Board([0] * 16, geometry=geometry.with_diagonals(), candidates=marks)
            grids_x = [g for g in grids if len({g[0], g[5], g[10], g[15]}) == 4 and len({g[3], g[6], g[9], g[12]}) == 4]
            assert sudokit.count(with_x, 10_000).count == brute_count(grids_x, [], [0] * 16, marks.tolist())


# -- rules reach every search ---------------------------------------------------------------------


def jigsaw_board() -> Board:
    return board_of(RECORDS[0][2])


def test_a_jigsaw_9x9_goes_to_the_general_kernel():
    board = jigsaw_board()
    assert board.shape == Shape(3, 3) and not board.plain
    assert kernel_for(board) is None and type(search_for(board)).__name__ == "GeneralSearch"
    assert kernel_for(Board.empty(9)) == "classic"


@pytest.mark.slow  # 15 s: the killer with several solutions takes 258k nodes to a second one
def test_solutions_iterate_under_the_rules():
    line = next(line for name, _, line in RECORDS if name == "killer" and not json.loads(line)["unique"])
    board = board_of(line)
    found = list(sudokit.solutions(board, limit=5))
    record = json.loads(line)
    assert len(found) == sudokit.count(board, 5).count >= 2
    assert all(follows_rules(b.to_line(), record) for b in found)


def test_solve_batch_takes_shared_rules_and_boards_with_their_own():
    board = jigsaw_board()
    plain = Board.from_line(board.to_line())
    both = sudokit.solve_batch(np.stack([board.cells, board.cells]), rules=board)
    assert both.counts.tolist() == [1, 1]
    assert Board(both.solutions[0], board.shape).to_line() == json.loads(RECORDS[0][2])["solution"]
    mixed = sudokit.solve_batch([board, plain], limit=2)
    assert mixed.counts[0] == 1 and mixed.solutions[0].tolist() == both.solutions[0].tolist()
    assert mixed.counts[1] == sudokit.count(plain, 2).count


def test_maximize_keeps_to_the_cages():
    shape = Shape(2, 2)
    cages = [(3, (0, 1)), (7, (2, 3)), (None, (4, 8))]
    board = Board([0] * 16, shape, cages=cages)
    weights = np.arange(16).reshape(4, 4)
    best = sudokit.maximize(board, weights)
    grids = latin_grids(4, shape.houses.tolist())
    scores = [sum(w * v for w, v in zip(weights.ravel(), g)) for g in grids if brute_count([g], cages, [0] * 16)]
    assert best.proven and best.value == max(scores)
    assert best.board is not None and best.board.is_solution_of(board)


def test_status_reports_repeats_in_extra_houses_and_cages_and_broken_sums():
    x = Board.from_line("1" + "." * 9 + "1" + "." * 70, geometry=Shape(3, 3).geometry.with_diagonals())
    kinds = {conflict.kind for conflict in x.status().conflicts}
    assert kinds == {"box", "diagonal"}
    caged = Board.from_line("12" + "." * 79, cages=[(6, (0, 1, 2)), (5, (3, 4))])
    status = caged.status()
    assert status.valid and not status.sums
    over = Board.from_line("18" + "." * 79, cages=[(7, (0, 1, 2))])
    (problem,) = over.status().sums
    assert problem.found == 9 and not problem.complete and "over its sum 7" in str(problem)
    twice = Board.from_line("1........" + "1" + "." * 71, cages=[(None, (0, 9, 20))])
    assert [c.kind for c in twice.status().conflicts] == ["column", "box", "cage"]
    assert not sudokit.solve(over).solved


def test_variant_boards_are_values_that_round_trip():
    namespace = {"Board": Board, "Shape": Shape, "Geometry": Geometry}
    for _, _, line in RECORDS:
        board = board_of(line)
        assert eval(repr(board), namespace) == board
        assert pickle.loads(pickle.dumps(board)) == board
        assert Board.parse(board.to_json()) == board
        assert hash(eval(repr(board), namespace)) == hash(board)
    board = jigsaw_board()
    assert board != Board.from_line(board.to_line())  # the rules are part of the value
    assert board.with_values({(0, 1): 6}).geometry == board.geometry


def test_the_variant_line_reads_layouts_cages_and_words():
    board = jigsaw_board()
    line = sudokit.formats.format_board(board, "variant")
    assert Board.parse(line) == board
    glued = board.to_line() + board.geometry.region_labels()  # the layout straight after the givens
    assert Board.parse(glued) == board
    killer = Board.parse("." * 81 + " 3:r1c1,r1c2 ?:r2c1,r2c2,r2c3 diagonals windoku")
    assert killer.cages == (Cage(3, (0, 1)), Cage(None, (9, 10, 11)))
    assert killer.geometry.kinds[27:] == ("diagonal", "anti-diagonal") + ("window",) * 4
    assert Board.parse(sudokit.formats.format_board(killer, "variant")) == killer


def test_sukaku_lines_and_candidate_grids():
    record = json.loads(next(line for name, _, line in RECORDS if name == "pencilmark"))
    board = board_of(json.dumps(record))
    sukaku = board.to_sukaku()
    assert len(sukaku) == 729 and Board.parse(sukaku) == board
    assert Board.from_sukaku(sukaku.replace(".", "0")) == board
    grid = sudokit.formats.format_board(board, "candidates")
    assert Board.parse(grid) == board
    assert sudokit.solve(sukaku).board.to_line() == record["solution"]
    marks = [[list(range(1, 10)) for _ in range(9)] for _ in range(9)]
    marks[0][0] = [5]
    assert Board.empty(9).with_rules(candidates=marks).candidates[0] == 1 << 4


def test_a_sukaku_solves_on_the_command_line_in_its_own_form():
    record = json.loads(next(line for name, _, line in RECORDS if name == "pencilmark"))
    sukaku = board_of(json.dumps(record)).to_sukaku()
    result = CliRunner().invoke(cli, ["solve"], input=sukaku + "\n")
    assert result.exit_code == 0
    out = result.stdout.strip()
    groups = [out[k : k + 9].strip(".") for k in range(0, 729, 9)]
    assert len(out) == 729 and "".join(groups) == record["solution"]


def test_solve_and_batch_read_variant_files(tmp_path):
    lines = [line for name, number, line in RECORDS if (name, number) not in HARD][:12]
    path = tmp_path / "variants.jsonl"
    path.write_text("\n".join(lines) + "\nnot json\n")
    solved = CliRunner().invoke(cli, ["solve", str(path)])
    assert solved.exit_code == 2  # the bad record
    out = solved.stdout.splitlines()
    assert len(out) == len(lines) + 1 and out[-1] == "error"
    for line, written in zip(lines, out):
        assert json.loads(written)["givens"] == json.loads(line)["solution"] or not json.loads(line)["unique"]
    assert f"{path}:{len(lines) + 1}:" in solved.stderr
    target = tmp_path / "out.ndjson"
    batch = CliRunner().invoke(cli, ["batch", str(path), "-o", str(target), "--limit", "2"])
    assert batch.exit_code == 2
    results = [json.loads(x) for x in target.read_text().splitlines()]
    assert [r["index"] for r in results] == list(range(len(lines) + 1))
    for line, result in zip(lines, results):
        record = json.loads(line)
        assert result["status"] == ("solved" if record["unique"] else "several")
        assert follows_rules(result["solution"], record)
    assert results[-1]["status"] == "error"


# -- the human-style engine -----------------------------------------------------------------------


def test_hints_from_a_sukaku_and_refusals_of_other_rules():
    record = json.loads(next(line for name, _, line in RECORDS if name == "pencilmark"))
    board = board_of(json.dumps(record))
    step = sudokit.hint(board)
    assert step is not None
    solution = record["solution"]
    for cell, value in step.placements:
        assert int(solution[cell]) == value
    explanation = sudokit.explain(board)
    assert explanation.solved and explanation.board.to_line() == solution
    with pytest.raises(ValueError, match="jigsaw"):
        sudokit.hint(jigsaw_board())
    with pytest.raises(ValueError, match="cages"):
        sudokit.rate(board_of(next(line for name, _, line in RECORDS if name == "killer")))
    with pytest.raises(ValueError, match="pencil marks"):
        sudokit.rate(board)


# -- bad input ------------------------------------------------------------------------------------


def _error(text: str) -> FormatError:
    (record,) = sudokit.read_text(text)
    assert record.error is not None, text
    return record.error


JIGSAW = json.loads(RECORDS[0][2])


@pytest.mark.parametrize(
    "line,column,message",
    [
        # a region of the wrong size: its cell past the ninth (the layout starts at column 83)
        ("." * 81 + " " + "1" * 10 + JIGSAW["regions"][10:], 83 + 9, "region '1' has 12 cells"),
        # a cell in no region
        ("." * 81 + " " + "." + JIGSAW["regions"][1:], 83, "r1c1 is in no region"),
        # a cage no distinct digits fill
        ("." * 81 + " 3:r1c1,r1c2 18:r2c1,r2c2", 95, "cage 2 (r2c1,r2c2): no 2 distinct values of 1-9 add up to 18"),
        # overlapping cages
        ("." * 81 + " 3:r1c1,r1c2 7:r1c2,r1c3", 97, "cage 2 overlaps cage 1 at r1c2"),
    ],
)
def test_bad_variant_lines_name_line_column_and_region_or_cage(line, column, message):
    error = _error("\n" + line)
    assert (error.line, error.column) == (2, column) and message in error.message


def test_a_region_in_two_pieces_is_named_at_a_cell_it_cannot_reach():
    layout = list(JIGSAW["regions"])
    layout[0], layout[80] = layout[80], layout[0]  # both regions keep nine cells
    error = _error("." * 81 + " " + "".join(layout))
    found = re.search(r"region '(.)' is not connected: r(\d)c(\d) cannot be reached", error.message)
    assert found is not None and found.group(1) == layout[0]
    assert error.column == 83 + (int(found.group(2)) - 1) * 9 + int(found.group(3)) - 1


def test_bad_json_records_name_the_key_the_cage_and_the_cell():
    regions = json.dumps({"givens": "." * 81, "regions": [list(range(0, 9)), list(range(8, 17))] + [[0] * 9] * 7})
    error = _error(regions)
    assert "r1c9 is in region 1 and region 2" in error.message and error.column == regions.index("[8,") + 1
    cage = '{"givens": "' + "." * 81 + '", "cages": [[3, [0, 1]], [50, [2, 3]]]}'
    error = _error(cage)
    assert "cage 2 (r1c3,r1c4)" in error.message and error.column == cage.index("[50") + 1
    marks = '{"givens": "5' + "." * 80 + '", "candidates": [[0, "123"]]}'
    error = _error(marks)
    assert "r1c1: the candidates '123' leave out the given 5" in error.message and error.column == marks.index("[0,") + 1
    unknown = '{"givens": "' + "." * 81 + '", "regoins": "x"}'
    assert "unknown key 'regoins'" in _error(unknown).message
    assert _error('{"givens": "' + "." * 81 + '", "cages": [[10, [0, 81]]]}').message.startswith("cage 1: cell 81")


def test_bad_input_on_the_command_line_exits_2_without_a_traceback(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("." * 81 + " 3:r1c1,r1c2 7:r1c2,r1c3\n")
    for command in (["solve"], ["count"], ["batch"]):
        result = CliRunner().invoke(cli, command + [str(path)])
        assert result.exit_code == 2, command
        assert "Traceback" not in result.output and f"{path}:1:97: cage 2 overlaps cage 1 at r1c2" in result.stderr
