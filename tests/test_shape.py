import numpy as np
import pytest

import naive
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


@pytest.mark.parametrize("text,expected", [("3x3", Shape(3, 3)), ("2X3", Shape(2, 3)), (" 16 ", Shape(4, 4))])
def test_parse(text, expected):
    assert Shape.parse(text) == expected


@pytest.mark.parametrize("text", ["3by3", "x", "9x9", "", "0x4"])
def test_parse_rejects_nonsense(text):
    with pytest.raises(ValueError):
        Shape.parse(text)


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
