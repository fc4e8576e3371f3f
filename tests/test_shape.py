import naive
import numpy as np
import pytest

from sudokit import Shape

SHAPES = [(h, w) for h in range(1, 9) for w in range(1, 9) if 2 <= h * w <= 64]


@pytest.mark.parametrize("height,width", SHAPES)
def test_houses_match_an_independent_construction(height, width):
    shape = Shape(height, width)
    expected = [sorted(house) for house in naive.houses(height, width)]
    assert [sorted(house) for house in shape.houses.tolist()] == expected


@pytest.mark.parametrize("height,width", SHAPES)
def test_each_cell_lies_in_its_row_column_and_box(height, width):
    shape = Shape(height, width)
    n = shape.size
    for cell in range(shape.cells):
        row, col = divmod(cell, n)
        houses = shape.cell_houses[cell].tolist()
        assert houses == [row, n + col, 2 * n + shape.box_of(row, col)]
        for house in houses:
            assert cell in shape.houses[house]


def test_peers_of_a_classic_cell():
    peers = Shape(3, 3).peers[0]
    assert len(peers) == 20
    assert 0 not in peers and {1, 9, 10, 20} <= peers


@pytest.mark.parametrize(
    "size,expected",
    [(4, (2, 2)), (6, (2, 3)), (8, (2, 4)), (9, (3, 3)), (12, (3, 4)), (16, (4, 4)), (25, (5, 5)), (64, (8, 8))],
)
def test_usual_shape_for_each_size(size, expected):
    assert (Shape.for_size(size).box_height, Shape.for_size(size).box_width) == expected


@pytest.mark.parametrize("size", [7, 13, 1, 0, 65, 81])
def test_sizes_without_a_usual_shape_are_refused(size):
    with pytest.raises(ValueError):
        Shape.for_size(size)


def test_explicit_latin_square_shape_is_allowed():
    assert Shape(1, 7).size == 7


@pytest.mark.parametrize(
    "text,expected",
    [("9x9", Shape(3, 3)), ("2X3", Shape(2, 3)), ("3x2", Shape(3, 2)), (" 16 ", Shape(4, 4)), ("4x4", Shape(2, 2))],
)
def test_parse(text, expected):
    assert Shape.parse(text) == expected


@pytest.mark.parametrize("text", ["3by3", "x", "3x3", "", "0x4", "81x81"])
def test_parse_rejects_nonsense(text):
    with pytest.raises(ValueError):
        Shape.parse(text)



@pytest.mark.parametrize(
    "value,expected",
    [(None, None), (Shape(2, 3), Shape(2, 3)), ("2x3", Shape(2, 3)), ("9", Shape(3, 3)), (16, Shape(4, 4)), ((3, 2), Shape(3, 2))],
)
def test_a_shape_argument_takes_what_the_command_line_takes(value, expected):
    assert Shape.of(value) == expected


@pytest.mark.parametrize("value", [[2, 3], 2.5, True, (2, "3"), b"2x3"])
def test_a_shape_argument_of_another_kind_is_a_type_error_that_names_it(value):
    with pytest.raises(TypeError, match="shape must be a Shape"):
        Shape.of(value)


def test_the_library_reads_shape_texts_as_the_cli_does():
    """``shape="2x3"`` once raised AttributeError deep in the format readers."""
    import sudokit

    assert sudokit.count("." * 36, 10, shape="2x3").count == 10
    assert sudokit.solve_batch(["." * 36], 2, shape=(2, 3)).counts.tolist() == [2]
    with pytest.raises(ValueError, match="box shape such as '2x3'"):
        sudokit.solve("." * 36, shape="2y3")

def test_tables_are_read_only_and_cached():
    shape = Shape(2, 3)
    assert shape.houses is shape.houses
    with pytest.raises(ValueError):
        shape.houses[0, 0] = 5
    assert shape.houses.dtype == np.int32


def test_names():
    assert Shape(3, 3).name == "9x9"
    assert Shape(2, 3).name == "6x6 (2x3 boxes)"
    assert repr(Shape(2, 3)) == "Shape(2, 3)"


# -- geometry: houses as data ------------------------------------------------------------------

from sudokit import Geometry  # noqa: E402


@pytest.mark.parametrize("height,width", [(2, 2), (2, 3), (3, 3), (4, 4)])
def test_a_shapes_geometry_is_rows_columns_and_boxes(height, width):
    shape = Shape(height, width)
    geometry = shape.geometry
    n = shape.size
    assert geometry.kinds == ("row",) * n + ("column",) * n + ("box",) * n
    assert geometry.describe(2 * n + 1) == ("box", 1)
    assert geometry == Geometry.boxed(shape) and hash(geometry) == hash(Geometry.boxed(shape))
    assert geometry.houses is shape.houses


def test_jigsaw_regions_become_houses_in_order_of_first_appearance():
    regions = "aabb" "aabb" "ccdd" "ccdd"
    assert Geometry.jigsaw(regions) == Shape(2, 2).geometry.__class__(
        Shape(2, 2).houses, ("row",) * 4 + ("column",) * 4 + ("region",) * 4
    )
    odd = Geometry.jigsaw("aaab" "abbb" "cccd" "cddd")
    assert sorted(odd.houses[8].tolist()) == [0, 1, 2, 4]
    assert odd.peers[0] == {1, 2, 3, 4, 8, 12}


@pytest.mark.parametrize(
    "regions,message",
    [("aaab" "aabb" "ccdd" "ccdd", "region 'a' has 5 cells, a 4x4 board needs 4"), ("aab", "do not make a square")],
)
def test_bad_jigsaw_regions_say_which_region(regions, message):
    with pytest.raises(ValueError, match=message):
        Geometry.jigsaw(regions)


def test_diagonals_and_windows_are_extra_houses():
    x = Shape(3, 3).geometry.with_diagonals()
    assert len(x.houses) == 29 and x.describe(27) == ("diagonal", 0) and x.describe(28) == ("anti-diagonal", 0)
    assert x.cell_houses[40].tolist() == [4, 13, 22, 27, 28]  # the centre is on both diagonals
    assert x.cell_houses[1].tolist() == [0, 10, 18, -1, -1]
    assert len(x.peers[0]) == 20 + 6
    windoku = Shape(3, 3).geometry.with_windows(3)
    assert [sorted(h) for h in windoku.houses[27:].tolist()][0] == [10, 11, 12, 19, 20, 21, 28, 29, 30]
    with pytest.raises(ValueError, match="do not fit"):
        Shape(2, 3).geometry.with_windows(2)


def test_a_house_that_repeats_a_cell_is_refused():
    with pytest.raises(ValueError, match="holds a cell twice"):
        Shape(2, 2).geometry.with_houses([[0, 0, 1, 2]], "extra")


def test_board_status_names_houses_by_kind():
    from sudokit import Board

    board = Board.from_line("1" + "." * 9 + "1" + "." * 70)  # r1c1 and r2c2: box 1
    (conflict,) = board.status().conflicts
    assert (conflict.kind, conflict.index, conflict.cells) == ("box", 0, ((0, 0), (1, 1)))
    assert str(conflict) == "1 appears 2 times in box 1 (r1c1, r2c2)"
