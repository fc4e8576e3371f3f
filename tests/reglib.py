"""HoDoKu's technique regression library (``tests/data/reglib-1.3.txt``): one case a line.

``:<code>[-variant]:<values>:<givens>:<deleted>:<eliminations>:<placements>:<extra>:`` where
``givens`` has 81 characters and ``+`` before a digit marks a value placed by a solver (not a
given), and candidates are written ``<value><row><col>`` (1-based), space-separated.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

FILE = Path(__file__).parent / "data" / "reglib-1.3.txt"


@dataclass(frozen=True)
class Case:
    line: int
    code: str  #: the technique's four-digit code
    variant: str  #: '' or the variant after the dash; 'x': the technique must find nothing
    values: tuple[int, ...]
    givens: str  #: 81 characters, '.' for empty
    placed: tuple[bool, ...]  #: per cell: placed by a solver rather than given
    deleted: tuple[tuple[int, int], ...]  #: (cell, value) removed beyond plain Sudoku logic
    eliminations: frozenset[tuple[int, int]]
    placements: frozenset[tuple[int, int]]
    extra: str

    @property
    def fail_case(self) -> bool:
        return self.variant == "x"


def candidates(field: str) -> tuple[tuple[int, int], ...]:
    """``'436 257'`` -> ((cell of r3c6, 4), (cell of r5c7, 2))."""
    out = []
    for token in field.split():
        value, row, col = int(token[0]), int(token[1]), int(token[2])
        out.append(((row - 1) * 9 + col - 1, value))
    return tuple(out)


def cases(path: Path = FILE) -> list[Case]:
    out = []
    for number, text in enumerate(path.read_text().splitlines(), 1):
        if not text.startswith(":"):
            continue
        fields = text.split(":")
        code, _, variant = fields[1].partition("-")
        givens, placed = [], []
        plus = False
        for char in fields[3]:
            if char == "+":
                plus = True
                continue
            givens.append("." if char in ".0" else char)
            placed.append(plus)
            plus = False
        out.append(
            Case(
                line=number,
                code=code,
                variant=variant,
                values=tuple(int(char) for char in fields[2] if char.isdigit()),
                givens="".join(givens),
                placed=tuple(placed),
                deleted=candidates(fields[4]),
                eliminations=frozenset(candidates(fields[5])),
                placements=frozenset(candidates(fields[6])),
                extra=fields[7] if len(fields) > 7 else "",
            )
        )
    return out
