"""The chain of forced placements that ends in a contradiction, in the technique engine's words.

Singles are the one deduction every solver and every person shares: a cell with one candidate
left (Naked Single, or Full House when it is the last open cell of a house) and a value with
one place left in a house (Hidden Single). They are placed in rounds, all the singles a round
offers at once, until a round meets a contradiction: a cell without a candidate, a value
without a place in a house, a value twice in a house, a cage that cannot make its sum. The
first such round is the fewest rounds any chain of singles needs; of its contradictions the one
that rests on the fewest placements is kept, and only the placements it rests on are shown.

Every placement remembers what it rests on (the givens and placements that struck the other
candidates of its cell, or the value from the other cells of its house), choosing the smallest
such set it sees; the chain is therefore short, though the fewest placements overall is a
harder question (the smallest proof in Horn logic), which this does not claim to answer.

Houses come from the board's geometry (rows, columns, boxes or jigsaw regions, diagonals and
other extra houses) and cages are peers too, so the chain works for every variant.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..board import Board
from ..logic.steps import Step
from ..logic.techniques import BY_NAME

FULL_HOUSE, NAKED_SINGLE, HIDDEN_SINGLE = (BY_NAME[name] for name in ("full house", "naked single", "hidden single"))

#: a placement: (cell, value)
Placement = tuple[int, int]


@dataclass(frozen=True)
class Reason:
    """What a fact rests on: the placements (givens included) and the rules (house numbers, or
    ``-1 - k`` for cage ``k``) that make it."""

    placements: frozenset[Placement]
    rules: frozenset[int]

    def __or__(self, other: Reason) -> Reason:
        return Reason(self.placements | other.placements, self.rules | other.rules)

    @property
    def size(self) -> int:
        return len(self.placements)


NOTHING = Reason(frozenset(), frozenset())


@dataclass(frozen=True)
class Chain:
    """Forced placements from some givens to a contradiction."""

    givens: tuple[int, ...]  #: the givens (cells) the chain starts from
    steps: tuple[Step, ...]  #: the placements, in an order in which each is forced
    contradiction: str  #: what goes wrong after the last step
    rules: tuple[str, ...]  #: the houses and cages the chain and its contradiction use

    def lines(self) -> list[str]:
        return [step.text for step in self.steps] + [f"Contradiction: {self.contradiction}"]

    def __str__(self) -> str:
        return "\n".join(self.lines())


class _Grid:
    """Candidates, placements and the reason behind each, for one board's rules."""

    def __init__(self, board: Board) -> None:
        self.board = board
        n = board.size
        self.n = n
        geometry = board.geometry
        self.houses = [tuple(int(c) for c in row) for row in geometry.houses]
        self.cages = [tuple(cage.cells) for cage in board.cages]
        self.totals = [cage.total for cage in board.cages]
        # a peer group: a house (its number) or a cage (-1 - its number)
        groups: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(n * n)]
        for number, house in enumerate(self.houses):
            for cell in house:
                groups[cell].append((number, house))
        for number, cage in enumerate(self.cages):
            for cell in cage:
                groups[cell].append((-1 - number, cage))
        self.groups = groups
        start = board.start_masks()
        self.masks = [int(mask) for mask in start.tolist()]
        self.start = list(self.masks)
        self.values = [0] * (n * n)
        self.why: dict[Placement, Reason] = {}  # placement -> what it rests on (itself included)
        # (cell, value) struck -> the smallest reason seen
        self.struck: dict[Placement, Reason] = {}

    def rule_name(self, rule: int) -> str:
        if rule < 0:
            cage = self.board.cages[-1 - rule]
            return f"cage {-rule} ({cage.where(self.n)})"
        kind, number = self.board.geometry.describe(rule)
        return f"{kind} {number + 1}"

    def cell_name(self, cell: int) -> str:
        return f"r{cell // self.n + 1}c{cell % self.n + 1}"

    def symbol(self, value: int) -> str:
        return self.board.symbols[value - 1]

    def place(self, cell: int, value: int, reason: Reason) -> None:
        self.values[cell] = value
        bit = 1 << (value - 1)
        self.masks[cell] = bit
        self.why[(cell, value)] = reason
        for rule, group in self.groups[cell]:
            for other in group:
                if other != cell and not self.values[other] and self.masks[other] & bit:
                    self.masks[other] &= ~bit
                    because = reason | Reason(frozenset(), frozenset([rule]))
                    known = self.struck.get((other, value))
                    if known is None or because.size < known.size:
                        self.struck[(other, value)] = because

    def cell_reason(self, cell: int, keep: int) -> Reason:
        """Why ``cell`` has no candidate but those of ``keep``: every other starting
        candidate's strike."""
        reason = NOTHING
        gone = self.start[cell] & ~keep
        while gone:
            bit = gone & -gone
            gone ^= bit
            reason = reason | self.struck.get((cell, bit.bit_length()), NOTHING)
        return reason

    def house_reason(self, house: int, value: int, but: int | None) -> Reason:
        """Why ``value`` cannot go in any cell of house ``house`` but ``but``."""
        reason = Reason(frozenset(), frozenset([house]))
        bit = 1 << (value - 1)
        for other in self.houses[house]:
            if other == but:
                continue
            held = self.values[other]
            if held:
                reason = reason | self.why[(other, held)]
            elif not self.start[other] & bit:
                continue  # the cell's own pencil marks leave the value out
            else:
                reason = reason | self.struck.get((other, value), NOTHING)
        return reason


def _contradictions(grid: _Grid) -> list[tuple[Reason, str]]:
    """Every contradiction of the grid as it stands, with what each rests on."""
    found = []
    n = grid.n
    full = (1 << n) - 1
    for cell in range(n * n):
        if not grid.values[cell] and not grid.masks[cell]:
            found.append((grid.cell_reason(cell, 0), f"{grid.cell_name(cell)} has no candidate left"))
    for number, house in enumerate(grid.houses):
        seen: dict[int, int] = {}
        room = 0
        for cell in house:
            value = grid.values[cell]
            if value and value in seen:
                reason = grid.why[(seen[value], value)] | grid.why[(cell, value)] | Reason(frozenset(), frozenset([number]))
                found.append((reason, f"{grid.symbol(value)} twice in {grid.rule_name(number)} "
                                      f"({grid.cell_name(seen[value])}, {grid.cell_name(cell)})"))
            elif value:
                seen[value] = cell
                room |= 1 << (value - 1)
            else:
                room |= grid.masks[cell]
        missing = full & ~room
        while missing:
            bit = missing & -missing
            missing ^= bit
            value = bit.bit_length()
            found.append((grid.house_reason(number, value, None), f"{grid.symbol(value)} has no place in {grid.rule_name(number)}"))
    for number, (cage, total) in enumerate(zip(grid.cages, grid.totals)):
        placed = [grid.values[cell] for cell in cage if grid.values[cell]]
        if len(set(placed)) < len(placed):
            value = next(v for v in placed if placed.count(v) > 1)
            cells = [cell for cell in cage if grid.values[cell] == value]
            reason = Reason(frozenset(), frozenset([-1 - number]))
            for cell in cells:
                reason = reason | grid.why[(cell, value)]
            found.append((reason, f"{grid.symbol(value)} twice in {grid.rule_name(-1 - number)}"))
            continue
        if total is None:
            continue
        open_cells = [cell for cell in cage if not grid.values[cell]]
        union = 0
        for cell in open_cells:
            union |= grid.masks[cell]
        for value in placed:
            union &= ~(1 << (value - 1))
        choices = [v for v in range(1, n + 1) if union >> (v - 1) & 1]
        k = len(open_cells)
        low = sum(choices[:k]) if len(choices) >= k else None
        high = sum(choices[-k:]) if k and len(choices) >= k else 0
        if low is None or sum(placed) + low > total or sum(placed) + high < total:
            reason = Reason(frozenset(), frozenset([-1 - number]))
            for cell in cage:
                reason = reason | (grid.why[(cell, grid.values[cell])] if grid.values[cell] else grid.cell_reason(cell, grid.masks[cell]))
            found.append((reason, f"{grid.rule_name(-1 - number)} cannot make its sum {total}"))
    return found


def _singles(grid: _Grid) -> dict[Placement, tuple[Reason, object]]:
    """The singles the grid offers now: placement -> (what it rests on, technique)."""
    offers: dict[Placement, tuple[Reason, object]] = {}

    def offer(cell: int, value: int, reason: Reason, technique: object) -> None:
        known = offers.get((cell, value))
        if known is None or reason.size < known[0].size:
            offers[(cell, value)] = (reason, technique)

    n = grid.n
    for cell in range(n * n):
        mask = grid.masks[cell]
        if grid.values[cell] or not mask or mask & (mask - 1):
            continue
        value = mask.bit_length()
        last = any(
            rule >= 0 and all(grid.values[other] for other in group if other != cell)
            for rule, group in grid.groups[cell]
        )
        offer(cell, value, grid.cell_reason(cell, mask), FULL_HOUSE if last else NAKED_SINGLE)
    for number, house in enumerate(grid.houses):
        placed = 0
        places: dict[int, list[int]] = {}
        for cell in house:
            if grid.values[cell]:
                placed |= 1 << (grid.values[cell] - 1)
                continue
            mask = grid.masks[cell]
            while mask:
                bit = mask & -mask
                mask ^= bit
                places.setdefault(bit.bit_length(), []).append(cell)
        for value, cells in places.items():
            if len(cells) == 1 and not placed >> (value - 1) & 1:
                cell = cells[0]
                if grid.masks[cell] & (grid.masks[cell] - 1):  # else a naked single says it
                    offer(cell, value, grid.house_reason(number, value, cell), HIDDEN_SINGLE)
    return offers


def forced_contradiction(board: Board, most_rounds: int | None = None) -> Chain | None:
    """The chain of singles from ``board``'s givens to a contradiction, or None where singles
    reach none (the board may still have no solution: search must show it)."""
    grid = _Grid(board)
    givens = [(cell, int(value)) for cell, value in enumerate(board.cells.tolist()) if value]
    clash: list[tuple[Reason, str]] = []
    for cell, value in givens:
        if grid.values[cell] or not grid.masks[cell] >> (value - 1) & 1:
            continue  # a clash among givens: the checks below name it
        grid.place(cell, value, Reason(frozenset([(cell, value)]), frozenset()))
    for cell, value in givens:  # givens struck by other givens: a repeat
        if grid.values[cell] != value:
            other = next((c for rule, group in grid.groups[cell] for c in group if c != cell and grid.values[c] == value), None)
            if other is not None:
                rule = next(r for r, group in grid.groups[cell] if other in group)
                reason = Reason(frozenset([(cell, value), (other, value)]), frozenset([rule]))
                clash.append((reason, f"{grid.symbol(value)} twice in {grid.rule_name(rule)} "
                                      f"({grid.cell_name(min(cell, other))}, {grid.cell_name(max(cell, other))})"))
    order: dict[Placement, int] = {placement: 0 for placement in grid.why}
    techniques: dict[Placement, object] = {}
    rounds = 0
    found = clash or _contradictions(grid)
    while not found:
        offers = _singles(grid)
        if not offers or (most_rounds is not None and rounds >= most_rounds):
            return None
        rounds += 1
        # two singles of one round that cannot both hold: the contradiction of this round
        by_cell: dict[int, Placement] = {}
        for (cell, value), (reason, technique) in sorted(offers.items(), key=lambda item: item[1][0].size):
            if cell in by_cell:
                first = by_cell[cell]
                both = offers[first][0] | reason
                found.append((both | Reason(frozenset([first, (cell, value)]), frozenset()),
                              f"{grid.cell_name(cell)} would be both {grid.symbol(first[1])} and {grid.symbol(value)}"))
                continue
            by_cell[cell] = (cell, value)
        if found:
            for (cell, value), (reason, technique) in offers.items():
                order[(cell, value)] = rounds
                techniques[(cell, value)] = technique
                grid.why[(cell, value)] = reason | Reason(frozenset([(cell, value)]), frozenset())
            break
        for (cell, value), (reason, technique) in offers.items():
            if grid.values[cell]:
                continue
            order[(cell, value)] = rounds
            techniques[(cell, value)] = technique
            grid.place(cell, value, reason | Reason(frozenset([(cell, value)]), frozenset()))
        found = _contradictions(grid)
    reason, what = min(found, key=lambda item: (item[0].size, item[1]))
    chain = sorted((p for p in reason.placements if order.get(p, 0) > 0), key=lambda p: (order[p], p))
    givens = [p for p in reason.placements if order.get(p, 0) == 0]
    return _replay(board, givens, chain, techniques)


def _replay(board: Board, givens: list[Placement], chain: list[Placement], techniques: dict[Placement, object]) -> Chain:
    """The chain one step at a time: two singles of one round may clash (one value twice in a
    house, two values for one cell), and then the second is no single any more once the first
    is placed; the chain stops before it, at the contradiction the first one leaves."""
    grid = _Grid(board)
    for cell, value in sorted(givens):
        grid.place(cell, value, Reason(frozenset([(cell, value)]), frozenset()))
    taken: list[Placement] = []
    found = _contradictions(grid)
    for cell, value in chain:
        if found:
            break
        if grid.values[cell] or not grid.masks[cell] >> (value - 1) & 1:
            break
        grid.place(cell, value, _single_reason(grid, cell, value) | Reason(frozenset([(cell, value)]), frozenset()))
        taken.append((cell, value))
        found = _contradictions(grid)
    reason, what = min(found, key=lambda item: (item[0].size, item[1]))
    steps = tuple(
        Step(technique=techniques[p], placements=(p,), eliminations=(), cells=(p[0],), values=(p[1],),  # type: ignore[arg-type]
             shape=board.shape, symbols=board.symbols)
        for p in taken if p in reason.placements
    )
    rules = reason.rules
    for p in taken:
        if p in reason.placements:
            rules = rules | grid.why[p].rules
    used = tuple(sorted(cell for cell, value in reason.placements if (cell, value) not in taken))
    return Chain(used, steps, what, tuple(grid.rule_name(rule) for rule in sorted(rules, key=_rule_order)))


def _single_reason(grid: _Grid, cell: int, value: int) -> Reason:
    """What the single ``cell=value`` rests on now: its cell's other candidates struck, or the
    value's other places in a house (the smaller)."""
    bit = 1 << (value - 1)
    best = grid.cell_reason(cell, bit) if grid.masks[cell] == bit else None
    for rule, house in grid.groups[cell]:
        if rule < 0 or any(not grid.values[c] and grid.masks[c] & bit for c in house if c != cell):
            continue
        if any(grid.values[c] == value for c in house):
            continue
        reason = grid.house_reason(rule, value, cell)
        if best is None or reason.size < best.size:
            best = reason
    return grid.cell_reason(cell, grid.masks[cell]) if best is None else best


def _rule_order(rule: int) -> tuple[int, int]:
    return (1, -rule) if rule < 0 else (0, rule)


def placements_of(chain: Chain) -> Iterable[Placement]:
    for step in chain.steps:
        yield from step.placements
