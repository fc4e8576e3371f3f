"""Every text format: round trips (hypothesis), detection, streams, and located errors."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit import Board, FormatError, Shape, read_text
from sudokit import symbols as alphabets
from sudokit.formats import detect, format_board

SEED_000 = ".2738..1..1...6735.......293.5692.8...........6.1745.364.......9518...7..8..6534."

SHAPES = [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(2, 4), Shape(3, 3), Shape(3, 4), Shape(4, 4), Shape(5, 5), Shape(6, 6), Shape(8, 8)]


@st.composite
def boards(draw, shapes=SHAPES):
    """A board of any shape and alphabet, its cells drawn from a seed and a share of blanks
    (drawing 4096 integers one by one made the round trips the slowest tests of the fast tier)."""
    shape = draw(st.sampled_from(shapes))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    blanks = draw(st.sampled_from([0.0, 0.3, 0.7, 1.0]))
    cells = rng.integers(1, shape.size + 1, size=shape.cells)
    cells[rng.random(shape.cells) < blanks] = 0
    symbols = draw(st.sampled_from(alphabets.candidates(shape.size)))
    return Board(cells, shape, symbols)


# -- round trips --------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(boards())
def test_line_round_trip(board):
    text = board.to_line()
    assert len(text) == board.shape.cells
    back = Board.from_line(text, shape=board.shape, symbols=board.symbols)
    assert back == board and back.symbols == board.symbols


@settings(max_examples=150, deadline=None)
@given(boards())
def test_grid_round_trip(board):
    back = Board.from_grid(board.to_grid(), shape=board.shape, symbols=board.symbols)
    assert back == board


@settings(max_examples=100, deadline=None)
@given(boards())
def test_ints_round_trip(board):
    assert Board.from_ints(board.to_ints(), shape=board.shape) == board


@settings(max_examples=100, deadline=None)
@given(boards())
def test_leetcode_round_trip_as_lists_and_as_text(board):
    lists = board.to_leetcode()
    assert all(len(cell) == 1 for row in lists for cell in row)
    assert Board.from_leetcode(lists, shape=board.shape) == board or board.symbols != alphabets.default(board.size)
    text = board.format("leetcode")
    assert json.loads(text) == lists
    assert Board.parse(text, format="leetcode", shape=board.shape, symbols=board.symbols) == board


@settings(max_examples=100, deadline=None)
@given(boards())
def test_pretty_reads_back_as_a_grid(board):
    assert Board.from_grid(str(board), shape=board.shape, symbols=board.symbols) == board


@settings(max_examples=100, deadline=None)
@given(boards())
def test_repr_round_trips(board):
    again = eval(repr(board), {"Board": Board, "Shape": Shape})
    assert again == board and again.symbols == board.symbols


@settings(max_examples=100, deadline=None)
@given(boards(shapes=[s for s in SHAPES if Shape.for_size_or_none(s.size) == s]))
def test_every_format_round_trips_through_detection(board):
    for name in ("line", "grid", "ints", "leetcode", "pretty"):
        text = format_board(board, name)
        symbols = None if name == "ints" else board.symbols
        back = Board.parse(text, symbols=symbols)
        assert back == board, name


# -- the seeds' formats ---------------------------------------------------------------------


def test_seed_000_stream_ends_at_end(data_dir):
    records = read_text((data_dir / "poj3074_sample.in").read_text())
    assert [r.format for r in records] == ["line", "line"]
    assert records[0].board.to_line() == SEED_000
    assert [r.line for r in records] == [1, 2]


def test_end_stops_reading_even_with_more_after_it():
    records = read_text(f"{SEED_000}\nend\n{SEED_000}\n")
    assert len(records) == 1


def test_seed_001_grid_in_letters(data_dir):
    (record,) = read_text((data_dir / "poj3076_sample.in").read_text())
    assert record.format == "grid"
    assert record.board.size == 16 and record.board.symbols == "ABCDEFGHIJKLMNOP"
    assert record.board[0, 2] == 1  # 'A'


def test_grids_with_and_without_blank_lines_between(data_dir):
    grid = (data_dir / "poj3076_sample.in").read_text().strip()
    for separator in ("\n", "\n\n", "\n\n\n"):
        records = read_text(grid + separator + grid + "\n")
        assert len(records) == 2 and all(r.ok for r in records)
        assert records[1].line == 17 + separator.count("\n") - 1


def test_seed_003_ints(data_dir):
    (record,) = read_text((data_dir / "target_01.in").read_text())
    assert record.format == "ints"
    assert record.board.rows()[0] == [7, 0, 0, 9, 0, 0, 0, 0, 1]


def test_leetcode_text_single_and_python_quotes():
    rows = [["5", "3", ".", ".", "7", ".", ".", ".", "."]] + [["."] * 9 for _ in range(8)]
    text = json.dumps(rows)
    assert detect(text) == "leetcode"
    board = Board.parse(text)
    assert board[0, 1] == 3
    assert Board.parse(str(rows)) == board  # Python's repr uses single quotes


def test_leetcode_list_of_boards_and_several_values():
    rows = [["."] * 4 for _ in range(4)]
    text = json.dumps([rows, rows])
    assert [r.ok for r in read_text(text)] == [True, True]
    assert len(read_text(json.dumps(rows) + "\n" + json.dumps(rows))) == 2


# -- alphabets --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "alphabet",
    ["ABCDEFGHIJKLMNOP", "123456789ABCDEFG", "0123456789ABCDEF"],
)
def test_16x16_alphabets_are_inferred(alphabet):
    cells = np.arange(256) % 17
    board = Board(cells, Shape(4, 4), alphabet)
    text = board.to_line()
    back = Board.from_line(text)
    assert back == board and back.symbols == alphabet


def test_zero_is_blank_unless_the_alphabet_needs_it():
    board = Board.from_line("0" * 80 + "5")
    assert board.givens == 1
    hex_board = Board.from_line("0" + "." * 254 + "F")
    assert hex_board.symbols.startswith("0") and hex_board.givens == 2


def test_a_zero_is_never_a_value_on_small_boards():
    board = Board.from_line("1234567.0" + "." * 72)
    assert board.symbols == "123456789" and board.givens == 7


def test_symbols_option_overrides():
    text = "abcd" + "." * 12
    board = Board.from_line(text, symbols="abcd")
    assert board.rows()[0] == [1, 2, 3, 4]
    assert board.to_line() == text


def test_output_keeps_the_input_alphabet():
    board = Board.from_line("1" + "." * 254 + "G")
    assert board.symbols == "123456789ABCDEFG"
    assert board.to_line()[-1] == "G"


def _spaced(text: str) -> str:
    """The same board with a space after each symbol: read by the character-by-character path."""
    return " ".join(text)


@pytest.mark.parametrize("name", ["sample_9x9.txt", "sample_16x16.txt", "sample_25x25.txt"])
def test_the_fast_line_path_reads_what_the_slow_one_reads(data_dir, name):
    for text in (data_dir / name).read_text().split():
        fast = Board.from_line(text)
        slow = Board.from_line(_spaced(text))
        assert fast == slow and fast.symbols == slow.symbols


@pytest.mark.parametrize(
    "text",
    [
        "0" + "." * 254 + "F",  # 0 is a value of 0-9A-F
        "1234567.0" + "." * 72,  # 0 is a blank up to 9x9
        "abcd" + "." * 12,  # no alphabet fits: the slow path explains
        "ABCDEFGHIJKLMNOp" + "." * 240,  # a lowercase letter in a 16x16 board
        "1" * 80 + "x",  # one symbol outside the alphabet
    ],
)
def test_fast_and_slow_line_paths_agree_on_edges(text):
    def outcome(line):
        try:
            board = Board.from_line(line)
        except FormatError as error:
            return ("error", str(error).split(":", 2)[-1])  # the column differs with spaces
        return (board, board.symbols)

    assert outcome(text) == outcome(_spaced(text))


def test_symbols_option_on_the_fast_path():
    text = "ABCD" + "." * 12
    board = Board.from_line(text, symbols="DCBA")
    assert board.rows()[0] == [4, 3, 2, 1]
    with pytest.raises(FormatError):
        Board.from_line(text, symbols="ABC")


# -- streams -----------------------------------------------------------------------------------


def test_crlf_and_bom_are_accepted():
    data = ("\ufeff" + SEED_000 + "\r\n" + SEED_000 + "\r\n").encode("utf-8")
    records = read_text(data)
    assert [r.ok for r in records] == [True, True]
    assert records[0].board.to_line() == SEED_000


def test_bad_records_do_not_stop_the_stream():
    text = f"{SEED_000}\n{SEED_000[:-1]}\n{SEED_000}\n"
    records = read_text(text)
    assert [r.ok for r in records] == [True, False, True]
    assert records[1].error.line == 2


def test_comments_and_blank_lines_are_skipped():
    records = read_text(f"# a comment\n\n{SEED_000}\n\n# another\n{SEED_000}\n")
    assert [r.line for r in records] == [3, 6]


def test_mixed_sizes_in_line_format():
    records = read_text("." * 16 + "\n" + SEED_000 + "\n" + "." * 256 + "\n")
    assert [r.board.size for r in records] == [4, 9, 16]


def test_detection():
    assert detect(SEED_000) == "line"
    assert detect("--A----C-----O-I", next_line="-J--A-B-P-CGF-H-") == "grid"  # not a 4x4 alphabet
    assert detect("--A----C-----O-I") == "line"  # alone, it is a bad 4x4 line
    assert detect("1234" * 4) == "line"  # a 4x4 board on one line
    assert detect("7 0 0 9 0 0 0 0 1") == "ints"
    assert detect("[[") == "leetcode"
    assert detect("┌───────┬───────┬───────┐") == "pretty"
    assert detect("53..7....", next_line="6..195...") == "grid"
    assert detect("5 3 . . 7 . . . .", next_line="6 . . 1 9 5 . . .") == "grid"
    assert detect("1" * 50, next_line="1" * 49) == "line"
    assert detect("1234" * 4, shape=Shape(4, 4)) == "grid"


def test_pipe_ruled_grid():
    text = "\n".join(
        "|".join(row[i : i + 3] for i in (0, 3, 6)) if k % 3 or k == 0 else "---+---+---\n" + "|".join(row[i : i + 3] for i in (0, 3, 6))
        for k, row in enumerate(SEED_000[j : j + 9] for j in range(0, 81, 9))
    )
    assert Board.parse(text).to_line() == SEED_000


def test_empty_row_of_dashes_is_a_row_not_a_separator():
    text = "-" * 16 + "\n" + "\n".join(["-" * 16] * 15)
    board = Board.parse(text, format="grid")
    assert board.size == 16 and board.givens == 0


# -- errors with line and column ---------------------------------------------------------------


def error_of(text, **options) -> FormatError:
    records = read_text(text, **options)
    bad = [r for r in records if r.error is not None]
    assert bad, "expected an error"
    return bad[0].error


def test_short_line():
    error = error_of(SEED_000 + "\n" + SEED_000[:-1] + "\n")
    assert (error.line, error.column) == (2, 81)
    assert "80 symbols" in error.message and "expected 81" in error.message


def test_long_line():
    error = error_of(SEED_000 + "12\n")
    assert (error.line, error.column) == (1, 82)
    assert "too many" in error.message and "'12'" in error.message


def test_wrong_character_is_quoted_with_its_column():
    error = error_of(SEED_000[:10] + "x" + SEED_000[11:])
    assert (error.line, error.column) == (1, 11)
    assert "'x'" in error.message and "1-9" in error.message


def test_lowercase_where_uppercase_is_expected():
    text = "\n".join(["--A----C-----O-I"] * 15 + ["--a----C-----O-I"])
    error = error_of(text)
    assert (error.line, error.column) == (16, 3)
    assert "lowercase 'a'" in error.message and "case-sensitive" in error.message


def test_grid_with_fifteen_rows():
    text = "\n".join(["--A----C-----O-I"] * 15) + "\n"
    error = error_of(text)
    assert error.line == 16 and "needs 16 rows, found 15" in error.message


def test_grid_cut_short_by_a_blank_line_then_the_next_grid_reads():
    rows = ["--A----C-----O-I"] * 16
    text = "\n".join(rows[:10]) + "\n\n" + "\n".join(rows) + "\n"
    records = read_text(text)
    assert [r.ok for r in records] == [False, True]
    assert records[0].error.line == 11


def test_grid_row_of_wrong_width():
    text = "\n".join(["53..7...."] * 4 + ["53..7..."] + ["53..7...."] * 4)
    error = error_of(text, format="grid")
    assert (error.line, error.column) == (5, 9)
    assert "8 symbols, expected 9" in error.message


def test_binary_garbage():
    error = error_of(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(200, 256)))
    assert error.line == 1 and "not UTF-8" in error.message


def test_nul_bytes():
    error = error_of("\x00" * 81)
    assert (error.line, error.column) == (1, 1) and "NUL" in error.message


def test_length_that_is_no_board():
    error = error_of("1" * 50)
    assert "not a board" in error.message


def test_ints_errors():
    rows = ["7 0 0 9 0 0 0 0 1"] * 9
    bad = rows[:3] + ["7 0 0 9 x 0 0 0 1"] + rows[4:]
    error = error_of("\n".join(bad))
    assert (error.line, error.column) == (4, 9) and "'x'" in error.message
    bad = rows[:3] + ["7 0 0 9 10 0 0 0 1"] + rows[4:]
    error = error_of("\n".join(bad))
    assert (error.line, error.column) == (4, 9) and "out of range" in error.message
    bad = rows[:3] + ["7 0 0 9 0 0 0 1"] + rows[4:]
    error = error_of("\n".join(bad))
    assert error.line == 4 and "8 integers, expected 9" in error.message


def test_leetcode_errors_are_located():
    row = '[' + ",".join(['"."'] * 9) + ']'
    text = "[\n" + ",\n".join([row] * 4 + ['[".",".","ab",".",".",".",".",".","."]'] + [row] * 4) + "\n]"
    error = error_of(text)
    assert (error.line, error.column) == (6, 10) and "'ab'" in error.message
    error = error_of('[["1","2"],["3"')
    assert "unclosed" in error.message or "ends" in error.message
    error = error_of("[[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, @]]")
    assert error.column == 54 and "'@'" in error.message


def test_source_name_appears_in_the_message():
    (record,) = read_text("1" * 80, source="puzzles.txt")
    assert str(record.error).startswith("puzzles.txt:1:81: ")


def test_format_error_is_a_value_error_and_pickles():
    import pickle

    error = FormatError("bad", line=3, column=4, source="x")
    assert isinstance(error, ValueError)
    again = pickle.loads(pickle.dumps(error))
    assert (again.line, again.column, again.source, str(again)) == (3, 4, "x", "x:3:4: bad")


def test_parse_one_refuses_two_boards():
    with pytest.raises(FormatError, match="expected one board"):
        Board.parse(SEED_000 + "\n" + SEED_000)


def test_plus_is_a_symbol_of_big_boards_and_a_corner_only_between_bands():
    """64x64 boards write values 63 and 64 as ``+`` and ``/``: rows holding them read back in
    every format, while ``+`` still draws corners on separator lines."""
    board = Board(np.arange(64 * 64) % 65, Shape(8, 8))
    assert "+" in board.to_line() and "/" in board.to_line()
    for name in ("line", "grid", "pretty"):
        (record,) = read_text(board.format(name))
        assert record.format == name and record.board == board
    assert Board.from_grid("12|34\n34|12\n--+--\n21|43\n43|21\n") == Board.from_line("1234341221434321")
