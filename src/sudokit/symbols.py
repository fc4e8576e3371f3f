"""Alphabets: the characters that write the values ``1..n`` of a board.

An alphabet is a string whose ``i``-th character writes value ``i + 1``. Reading text, sudokit
infers the alphabet from the characters a record uses (see :func:`infer`), so ``A-P`` (the POJ /
AcWing 16x16 form), ``1-9A-G`` and ``0-9A-F`` all read without options; writing, it uses the
alphabet the board was read with.
"""

from __future__ import annotations

import string

#: characters that always mean an empty cell
BLANKS = ".-"
#: ``0`` means an empty cell unless the alphabet uses it as a value
ZERO = "0"

_DIGITS = "123456789"
_LETTERS = string.ascii_uppercase
_BASE64 = string.ascii_uppercase + string.ascii_lowercase + string.digits + "+/"


def default(size: int) -> str:
    """The alphabet sudokit writes by default: ``1-9`` up to 9x9, ``A-Z`` up to 26x26, else
    the base64 alphabet (``A-Za-z0-9+/``), which never collides with the blanks ``.`` and ``-``."""
    if size <= 9:
        return _DIGITS[:size]
    if size <= 26:
        return _LETTERS[:size]
    return _BASE64[:size]


def candidates(size: int) -> list[str]:
    """Alphabets to try for a board of this size, most usual first."""
    options = [default(size)]
    if size <= 35:
        options.append((_DIGITS + _LETTERS)[:size])  # 1-9A-G for 16x16, 1-9A-P for 25x25
    if 10 <= size <= 36:  # 0-9A-F: hexadecimal 16x16 (below 10, a 0 is always a blank)
        options.append((string.digits + _LETTERS)[:size])
    if size <= 26:
        options.append(_BASE64[:size])
    unique: list[str] = []
    for option in options:
        if option not in unique:
            unique.append(option)
    return unique


def infer(size: int, used: set[str]) -> str | None:
    """The first usual alphabet that writes every character in ``used`` (blanks excluded).

    ``0`` is taken for a blank when an alphabet without ``0`` fits the other characters, unless
    the text also marks empty cells with ``.`` or ``-``: then a ``0`` is more likely a value
    (hexadecimal boards written ``0``-``F``).
    """
    zero_is_value_first = bool(used & set(BLANKS)) and ZERO in used
    used = used - set(BLANKS)
    options = candidates(size)
    zero_blank = [o for o in options if ZERO not in o and used - {ZERO} <= set(o)]
    zero_value = [o for o in options if used <= set(o)]
    ordered = zero_value + zero_blank if zero_is_value_first else zero_blank + zero_value
    return ordered[0] if ordered else None


def check(alphabet: str, size: int) -> str:
    """Validate an alphabet given by the user for a board of ``size`` values."""
    if len(alphabet) != size:
        raise ValueError(
            f"a {size}x{size} board needs {size} symbols, but {alphabet!r} has {len(alphabet)}"
        )
    if len(set(alphabet)) != size:
        raise ValueError(f"symbols repeat in {alphabet!r}")
    clash = set(alphabet) & set(BLANKS + " \t\r\n")
    if clash:
        raise ValueError(
            f"{''.join(sorted(clash))!r} cannot be a symbol: it marks an empty cell or separates"
        )
    return alphabet


def describe(alphabet: str) -> str:
    """A short human form of an alphabet: ``'1-9'``, ``'A-P'``, ``'1-9A-G'``."""
    runs: list[str] = []
    start = prev = alphabet[0]
    for char in alphabet[1:] + "\0":
        if ord(char) == ord(prev) + 1:
            prev = char
            continue
        runs.append(start if start == prev else f"{start}-{prev}")
        start = prev = char
    return "".join(runs)
