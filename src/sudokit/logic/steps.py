"""A step of a human-style solution: what pattern was seen, what it removes or places, and the
line a player reads (``Naked Pair: 3/7 in r5c1,r5c4 => r5c7<>3``).

Cells are numbered as everywhere in sudokit (``row * n + col``); the text names them ``r1c2``
(1-based) and writes values in the board's own alphabet, so a 16x16 letter board reads
``Hidden Single: r3c7=K``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..kernels.hodoku import record as R
from ..shape import Shape
from .techniques import BY_ID, Technique

#: (cell, value): a placement or an elimination
Candidate = tuple[int, int]


@dataclass(frozen=True)
class Step:
    """One step: the technique, the pattern it rests on, and its placements or eliminations."""

    technique: Technique  #: the technique (its variant, if any, in ``variant`` and ``name``)
    placements: tuple[Candidate, ...]  #: (cell, value) pairs the step places
    eliminations: tuple[Candidate, ...]  #: (cell, value) pairs the step removes
    cells: tuple[int, ...]  #: the cells of the pattern (a fish's body, a subset's cells, ...)
    values: tuple[int, ...]  #: the values the pattern is about
    houses: tuple[int, ...] = ()  #: the houses it stands on (bases first, then covers)
    fins: tuple[int, ...] = ()  #: a finned fish's fins
    chain: tuple[tuple[int, int, bool], ...] = ()  #: (cell, value, strong link to the next)
    extra: tuple[int, ...] = ()  #: a second set of values (a wing's Z, an ALS's common values)
    bases: int = 0  #: how many of ``houses`` are bases
    variant: int = 0  #: a technique's variant (the type of a unique rectangle, ...)
    shape: Shape = field(default_factory=lambda: Shape(3, 3), repr=False, compare=False)
    symbols: str = field(default="123456789", repr=False, compare=False)

    @property
    def name(self) -> str:
        """The technique's name, or its variant's (``Simple Colors Trap``, ``AIC``, ...)."""
        return self.technique.variant_name(self.variant)

    @property
    def text(self) -> str:
        """The step as HoDoKu writes it: ``Technique: pattern => result``."""
        return f"{self.name}: {self.describe()}"

    def __str__(self) -> str:
        return self.text

    # -- the pieces of a line ---------------------------------------------------------------

    def cell_name(self, cell: int) -> str:
        n = self.shape.size
        return f"r{cell // n + 1}c{cell % n + 1}"

    def value_name(self, value: int) -> str:
        return self.symbols[value - 1]

    def house_name(self, house: int) -> str:
        kind, number = self.shape.geometry.describe(house)
        return f"{kind[0]}{number + 1}"

    def cell_list(self, cells) -> str:
        return ",".join(self.cell_name(cell) for cell in cells)

    def value_list(self, values) -> str:
        return "/".join(self.value_name(value) for value in values)

    def result(self) -> str:
        """``r1c2=5`` for placements; eliminations grouped by value, ``r5c7,r5c9<>3``."""
        if self.placements:
            return ", ".join(f"{self.cell_name(c)}={self.value_name(v)}" for c, v in self.placements)
        by_value: dict[int, set[int]] = {}
        for cell, value in self.eliminations:
            by_value.setdefault(value, set()).add(cell)
        # values that leave the same cells are written together: r5c7,r9c7<>3/5/8
        by_cells: dict[tuple[int, ...], list[int]] = {}
        for value in sorted(by_value):
            by_cells.setdefault(tuple(sorted(by_value[value])), []).append(value)
        return ", ".join(f"{self.cell_list(cells)}<>{self.value_list(values)}" for cells, values in by_cells.items())

    def describe(self) -> str:
        """The pattern and the result, in the technique's own words."""
        family = _FAMILY.get(self.technique.code[:2], "")
        if self.technique.code in ("0000", "0002", "0003"):
            return self.result()
        if family == "intersection" and self.technique.code in ("0100", "0101"):
            home, other = self.houses[0], self.houses[1]
            return f"{self.value_list(self.values)} in {self.house_name(home)} => {self.result()}"
        if family in ("intersection", "subset"):
            return f"{self.value_list(self.values)} in {self.cell_list(self.cells)} => {self.result()}"
        if family == "fish":
            bases = " ".join(self.house_name(h) for h in self.houses[: self.bases])
            covers = " ".join(self.house_name(h) for h in self.houses[self.bases :])
            fins = f" fins {self.cell_list(self.fins)}" if self.fins else ""
            return f"{self.value_list(self.values)} {bases} / {covers}{fins} => {self.result()}"
        if self.chain:
            return f"{self.chain_text()} => {self.result()}"
        pattern = self.cell_list(self.cells)
        values = self.value_list(self.values)
        return f"{values} in {pattern} => {self.result()}" if pattern else self.result()

    def chain_text(self) -> str:
        """``(3)r1c2=(3-5)r1c7-(5)r4c7``: each node's value and cell; ``=`` a strong link to
        the next node, ``-`` a weak one."""
        parts = []
        for index, (cell, value, strong) in enumerate(self.chain):
            parts.append(f"({self.value_name(value)}){self.cell_name(cell)}")
            if index + 1 < len(self.chain):
                parts.append("=" if strong else "-")
        return "".join(parts)


_FAMILY = {"00": "single", "01": "intersection", "02": "subset", "03": "fish"}


def decode(step_arrays, shape: Shape, symbols: str) -> Step:
    """A :class:`Step` from the kernel's step record (see ``kernels/hodoku/core.py``)."""
    hdr, elim, place, cells, fins, houses, chain, digs = step_arrays
    ne, np_, nc, nf, nh, nl = (int(hdr[k]) for k in (R.NE, R.NP, R.NC, R.NF, R.NH, R.NL))
    return Step(
        technique=BY_ID[int(hdr[R.KIND])],
        placements=tuple((int(c), int(v)) for c, v in place[:np_].tolist()),
        eliminations=tuple((int(c), int(v)) for c, v in elim[:ne].tolist()),
        cells=tuple(cells[:nc].tolist()),
        values=_values(int(digs[R.DIGITS])),
        houses=tuple(houses[:nh].tolist()),
        fins=tuple(fins[:nf].tolist()),
        chain=tuple((int(c), int(v), bool(s)) for c, v, s in chain[:nl].tolist()),
        extra=_values(int(digs[R.EXTRA])),
        bases=int(hdr[R.NB]),
        variant=int(hdr[R.SUB]),
        shape=shape,
        symbols=symbols,
    )


def _values(mask: int) -> tuple[int, ...]:
    return tuple(value + 1 for value in range(64) if mask >> value & 1)
