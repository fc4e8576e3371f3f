"""Turning located characters into cell values, with errors that say where and why."""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Sequence

import numpy as np

from .. import symbols as alphabets
from ..errors import FormatError, quote
from ..shape import Shape

#: one character of input and where it stands (1-based line and column)
Located = tuple[str, int, int]


def describe_char(char: str) -> str:
    """``'x'``, or the Unicode name for characters that do not print."""
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8, kept by 'surrogateescape'
        return f"byte 0x{code - 0xDC00:02X} (the input is not UTF-8 text)"
    if char.isprintable() and not char.isspace():
        return f"symbol {char!r}"
    if code < 0x20 or code == 0x7F:
        kind = "NUL byte (binary data?)" if code == 0 else "control character"
        return f"{kind} U+{code:04X}"
    name = unicodedata.name(char, None)
    return f"U+{code:04X} ({name.lower()})" if name else f"U+{code:04X}"


def is_binary(char: str) -> bool:
    """A character no text format holds: a control character or a byte that was not UTF-8."""
    code = ord(char)
    return code < 0x20 and char not in "\t\n\r\x0b\x0c" or code == 0x7F or 0xDC80 <= code <= 0xDCFF


def refuse_binary(items: Sequence[Located]) -> None:
    """Raise at the first binary character, before any other check can misread it."""
    for char, line, column in items:
        if is_binary(char):
            raise FormatError(f"unexpected {describe_char(char)}: this is not a text of puzzles", line=line, column=column)


def to_values(
    items: Sequence[Located], size: int, symbols: str | None
) -> tuple[np.ndarray, str]:
    """Values ``0..size`` for located characters, and the alphabet used.

    With ``symbols`` given, every character must be one of them or a blank; otherwise the
    alphabet is inferred from the characters used (see :func:`sudokit.symbols.infer`).
    """
    used = {char for char, _, _ in items}
    if symbols is None:
        alphabet = alphabets.infer(size, used)
        if alphabet is None:
            raise _no_alphabet(items, size)
    else:
        _, line, column = items[0]
        alphabet = user_alphabet(symbols, size, line, column)
    lookup = {char: value for value, char in enumerate(alphabet, start=1)}
    for blank in alphabets.BLANKS + alphabets.ZERO:
        lookup.setdefault(blank, 0)
    values = np.empty(len(items), dtype=np.uint8)
    for index, (char, line, column) in enumerate(items):
        value = lookup.get(char)
        if value is None:
            raise _bad_symbol(char, line, column, alphabet)
        values[index] = value
    return values, alphabet


def user_alphabet(symbols: str, size: int, line: int, column: int) -> str:
    """The alphabet the user gave (``--symbols``) for a board of ``size`` values; one that
    cannot write it is an error of the record at ``line`` and ``column``."""
    try:
        return alphabets.check(symbols, size)
    except ValueError as error:
        raise FormatError(f"--symbols: {error}", line=line, column=column) from None


def plain_values(text: str, size: int, symbols: str | None) -> tuple[np.ndarray, str] | None:
    """``to_values`` for a run of printable ASCII symbols, through one table lookup in numpy.

    None when some symbol is not in the alphabet, or no alphabet fits: the caller then takes
    the slow path, whose errors say where and why. Parsing a 25x25 board character by
    character in Python costs more than solving most of them."""
    if symbols is None:
        alphabet = _inferred(size, frozenset(text))
    else:
        try:
            alphabet = alphabets.check(symbols, size)
        except ValueError:
            return None
    if alphabet is None or not alphabet.isascii():
        return None
    values = value_table(alphabet)[np.frombuffer(text.encode("ascii"), dtype=np.uint8)]
    # an inferred alphabet writes every character of the text that is not a blank
    if symbols is not None and (values == NOT_A_SYMBOL).any():
        return None
    return values, alphabet


@lru_cache(maxsize=256)
def _inferred(size: int, used: frozenset[str]) -> str | None:
    """``alphabets.infer``, remembered: a file's boards mostly use the same characters, and
    inferring costs a third of parsing a 16x16 line."""
    return alphabets.infer(size, set(used))


#: what :func:`value_table` gives a byte that writes no value and no blank
NOT_A_SYMBOL = 255


@lru_cache(maxsize=64)
def value_table(alphabet: str) -> np.ndarray:
    """Byte -> value for an ASCII ``alphabet`` (blanks 0, anything else ``NOT_A_SYMBOL``),
    built as ``to_values`` builds its lookup, so the fast paths and the parser cannot disagree."""
    table = np.full(256, NOT_A_SYMBOL, dtype=np.uint8)
    for char in alphabets.BLANKS + alphabets.ZERO:
        table[ord(char)] = 0
    for value, char in enumerate(alphabet, start=1):
        table[ord(char)] = value
    table.setflags(write=False)
    return table


def _no_alphabet(items: Sequence[Located], size: int) -> FormatError:
    """Blame the first character outside the alphabet that fits the most characters."""
    options = alphabets.candidates(size)
    allowed = set(alphabets.BLANKS + alphabets.ZERO)

    def fit(option: str) -> int:
        return sum(char in option or char in allowed for char, _, _ in items)

    best = max(options, key=fit)
    for char, line, column in items:
        if char not in best and char not in allowed:
            return _bad_symbol(char, line, column, best)
    raise AssertionError("an alphabet was refused without a character outside it")


def _bad_symbol(char: str, line: int, column: int, alphabet: str) -> FormatError:
    size = len(alphabet)
    expected = f"a {size}x{size} board uses {alphabets.describe(alphabet)} and '.', '-' or '0' for empty"
    if alphabets.ZERO in alphabet:
        expected = f"a {size}x{size} board uses {alphabets.describe(alphabet)} and '.' or '-' for empty"
    if char.islower() and char.upper() in alphabet:
        message = f"lowercase {char!r}: symbols are case-sensitive; {expected}"
    elif char.isupper() and char.lower() in alphabet:
        message = f"uppercase {char!r}: symbols are case-sensitive; {expected}"
    else:
        message = f"unexpected {describe_char(char)}; {expected}"
    return FormatError(message, line=line, column=column)


def block_shape(
    rows: Sequence[tuple[int, str]], shape: Shape | None, first_width: int, unit: str
) -> Shape:
    """The shape of a board written as rows, one row per line (grid and integer formats): the
    given one, or the usual shape for the first row's width; errors when the width has no
    board, or when there are more rows than the board has."""
    first_number, first_text = rows[0]
    if shape is None:
        shape = Shape.for_size_or_none(first_width)
        if shape is None:
            raise FormatError(
                f"a row of {first_width} {unit} does not start a board "
                f"(rows have 4, 6, 8, 9, 10, 12, 16, 25, ... {unit}): {quote(first_text)}",
                line=first_number,
                column=1,
            )
    if len(rows) > shape.size:
        number, text = rows[shape.size]
        raise FormatError(
            f"a {shape.name} board has {shape.size} rows; this is row {shape.size + 1} (of {len(rows)}): {quote(text)}",
            line=number,
            column=1,
        )
    return shape
