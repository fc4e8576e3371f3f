"""The techniques a person solves with, and what each is worth.

Scores, levels and the order the solver tries them in are HoDoKu's published defaults, so that a
rating here means what it means in HoDoKu: the solver always takes a step of the first technique
(in ``order``) that has one, a puzzle's score is the sum of its steps' scores, and its level is
the hardest technique's level, raised while the score passes a level's ceiling (800 easy, 1000
medium, 1600 hard, 1800 unfair).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ..kernels.hodoku import ids as K


class Level(str, enum.Enum):
    """HoDoKu's difficulty levels, easiest first."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    UNFAIR = "unfair"
    EXTREME = "extreme"

    @property
    def rank(self) -> int:
        """0 for easy up to 4 for extreme."""
        return _RANKS[self]

    @property
    def ceiling(self) -> int:
        """The highest score a puzzle of this level may have; above it, the next level."""
        return _CEILINGS[self]

    def __str__(self) -> str:
        return self.value


_RANKS = {level: rank for rank, level in enumerate(Level)}
_CEILINGS = {Level.EASY: 800, Level.MEDIUM: 1000, Level.HARD: 1600, Level.UNFAIR: 1800, Level.EXTREME: 2**31 - 1}


@dataclass(frozen=True)
class Technique:
    """One technique: its kernel id, its name, HoDoKu's code (the regression library's
    section), its score per step, its level, and its place in the solving order. Variants
    that HoDoKu scores alike share a technique: ``variants`` names them by the step's variant
    number, with their own codes in ``codes``."""

    id: int
    name: str
    code: str
    score: int
    level: Level
    order: int
    variants: tuple[str, ...] = ()  #: names of variants 1, 2, ...
    codes: tuple[str, ...] = ()  #: HoDoKu codes of variants 1, 2, ...

    def variant_name(self, variant: int) -> str:
        """The name of a step of this technique with the given variant number."""
        if 1 <= variant <= len(self.variants):
            return self.variants[variant - 1]
        return self.name

    def __str__(self) -> str:
        return self.name


_E, _M, _H, _U, _X = Level.EASY, Level.MEDIUM, Level.HARD, Level.UNFAIR, Level.EXTREME

#: every technique the engine knows, in solving order
TECHNIQUES: tuple[Technique, ...] = tuple(
    sorted(
        (
            Technique(K.FULL_HOUSE, "Full House", "0000", 4, _E, 100),
            Technique(K.NAKED_SINGLE, "Naked Single", "0003", 4, _E, 200),
            Technique(K.HIDDEN_SINGLE, "Hidden Single", "0002", 14, _E, 300),
            Technique(K.LOCKED_PAIR, "Locked Pair", "0110", 40, _M, 1000),
            Technique(K.LOCKED_TRIPLE, "Locked Triple", "0111", 60, _M, 1100),
            Technique(K.LOCKED_CANDIDATES_1, "Locked Candidates Type 1 (Pointing)", "0100", 50, _M, 1200),
            Technique(K.LOCKED_CANDIDATES_2, "Locked Candidates Type 2 (Claiming)", "0101", 50, _M, 1210),
            Technique(K.NAKED_PAIR, "Naked Pair", "0200", 60, _M, 1300),
            Technique(K.NAKED_TRIPLE, "Naked Triple", "0201", 80, _M, 1400),
            Technique(K.HIDDEN_PAIR, "Hidden Pair", "0210", 70, _M, 1500),
            Technique(K.HIDDEN_TRIPLE, "Hidden Triple", "0211", 100, _M, 1600),
            Technique(K.NAKED_QUADRUPLE, "Naked Quadruple", "0202", 120, _H, 2000),
            Technique(K.HIDDEN_QUADRUPLE, "Hidden Quadruple", "0212", 150, _H, 2100),
            Technique(K.X_WING, "X-Wing", "0300", 140, _H, 2200),
            Technique(K.SWORDFISH, "Swordfish", "0301", 150, _H, 2300),
            Technique(K.JELLYFISH, "Jellyfish", "0302", 160, _H, 2400),
            Technique(K.FINNED_X_WING, "Finned X-Wing", "0310", 130, _H, 4100),
            Technique(K.SASHIMI_X_WING, "Sashimi X-Wing", "0320", 150, _H, 4200),
            Technique(K.FINNED_SWORDFISH, "Finned Swordfish", "0311", 200, _U, 4300),
            Technique(K.SASHIMI_SWORDFISH, "Sashimi Swordfish", "0321", 240, _U, 4400),
            Technique(K.FINNED_JELLYFISH, "Finned Jellyfish", "0312", 250, _U, 4500),
            Technique(K.SASHIMI_JELLYFISH, "Sashimi Jellyfish", "0322", 260, _U, 4600),
            Technique(K.REMOTE_PAIR, "Remote Pair", "0703", 110, _H, 2800),
            Technique(K.BUG_PLUS_1, "Bivalue Universal Grave + 1", "0610", 100, _H, 2900),
            Technique(K.SKYSCRAPER, "Skyscraper", "0400", 130, _H, 3000),
            Technique(K.TWO_STRING_KITE, "2-String Kite", "0401", 150, _H, 3100),
            Technique(K.TURBOT_FISH, "Turbot Fish", "0403", 120, _H, 3120),
            Technique(K.EMPTY_RECTANGLE, "Empty Rectangle", "0402", 120, _H, 3170),
            Technique(K.W_WING, "W-Wing", "0803", 150, _H, 3200),
            Technique(K.XY_WING, "XY-Wing", "0800", 160, _H, 3300),
            Technique(K.XYZ_WING, "XYZ-Wing", "0801", 180, _H, 3400),
            Technique(K.UNIQUENESS_1, "Uniqueness Test 1", "0600", 100, _H, 3500),
            Technique(K.UNIQUENESS_2, "Uniqueness Test 2", "0601", 100, _H, 3600),
            Technique(K.UNIQUENESS_3, "Uniqueness Test 3", "0602", 100, _H, 3700),
            Technique(K.UNIQUENESS_4, "Uniqueness Test 4", "0603", 100, _H, 3800),
            Technique(K.UNIQUENESS_5, "Uniqueness Test 5", "0604", 100, _H, 3900),
            Technique(K.UNIQUENESS_6, "Uniqueness Test 6", "0605", 100, _H, 4000),
            Technique(K.HIDDEN_RECTANGLE, "Hidden Rectangle", "0606", 100, _H, 4010),
            Technique(K.AVOIDABLE_RECTANGLE_1, "Avoidable Rectangle Type 1", "0607", 100, _H, 4020),
            Technique(K.AVOIDABLE_RECTANGLE_2, "Avoidable Rectangle Type 2", "0608", 100, _H, 4030),
            Technique(K.SUE_DE_COQ, "Sue de Coq", "1101", 250, _U, 5300),
            Technique(K.SIMPLE_COLORS, "Simple Colors", "0500", 150, _H, 5330,
                      ("Simple Colors Trap", "Simple Colors Wrap"), ("0500", "0501")),
            Technique(K.MULTI_COLORS, "Multi Colors", "0502", 200, _H, 5360,
                      ("Multi Colors 1", "Multi Colors 2"), ("0502", "0503")),
            Technique(K.X_CHAIN, "X-Chain", "0701", 260, _U, 5400),
            Technique(K.XY_CHAIN, "XY-Chain", "0702", 260, _U, 5500),
            Technique(K.NICE_LOOP, "Nice Loop", "0706", 280, _U, 5600,
                      ("Continuous Nice Loop", "Discontinuous Nice Loop", "AIC"), ("0706", "0707", "0708")),
            Technique(K.GROUPED_NICE_LOOP, "Grouped Nice Loop", "0709", 300, _U, 5650,
                      ("Grouped Continuous Nice Loop", "Grouped Discontinuous Nice Loop", "Grouped AIC"),
                      ("0709", "0710", "0711")),
            Technique(K.ALS_XZ, "ALS-XZ", "0901", 300, _U, 5700),
            Technique(K.ALS_XY_WING, "ALS-XY-Wing", "0902", 320, _U, 5800),
            Technique(K.ALS_XY_CHAIN, "ALS-XY-Chain", "0903", 340, _U, 5900),
            Technique(K.FORCING_CHAIN, "Forcing Chain", "1301", 500, _X, 8500,
                      ("Forcing Chain Contradiction", "Forcing Chain Verity"), ("1301", "1302")),
            Technique(K.FORCING_NET, "Forcing Net", "1303", 700, _X, 8600,
                      ("Forcing Net Contradiction", "Forcing Net Verity"), ("1303", "1304")),
            Technique(K.BRUTE_FORCE, "Brute Force", "", 10000, _X, 8900),
        ),
        key=lambda technique: technique.order,
    )
)

BY_ID: dict[int, Technique] = {technique.id: technique for technique in TECHNIQUES}
#: HoDoKu's last resort (a cell given its solution value): scored by ``rate`` to stay on
#: HoDoKu's scale, never taken by ``explain`` or ``hint``
BRUTE_FORCE = BY_ID[K.BRUTE_FORCE]
#: the techniques the solving loop tries, in order
SOLVING_ORDER: tuple[Technique, ...] = tuple(t for t in TECHNIQUES if t is not BRUTE_FORCE)
#: the deadly-pattern techniques: they take the swap of two values in a rectangle of cells for a
#: second solution, which holds where every such cell could start as either value. A board that
#: starts from pencil marks (a Sukaku) may forbid one of them in one corner, so these are not
#: offered there. (BUG+1 stays: swapping every bivalue cell of a BUG for its other value gives a
#: second solution whatever the candidates started as.)
DEADLY_PATTERNS = frozenset(
    {
        K.UNIQUENESS_1, K.UNIQUENESS_2, K.UNIQUENESS_3, K.UNIQUENESS_4, K.UNIQUENESS_5,
        K.UNIQUENESS_6, K.HIDDEN_RECTANGLE, K.AVOIDABLE_RECTANGLE_1, K.AVOIDABLE_RECTANGLE_2,
    }
)  # fmt: skip
#: the solving order on boards that start from pencil marks
MARKS_ORDER: tuple[Technique, ...] = tuple(t for t in SOLVING_ORDER if t.id not in DEADLY_PATTERNS)
BY_CODE: dict[str, Technique] = {
    code: technique for technique in SOLVING_ORDER for code in (technique.code, *technique.codes)
}
BY_NAME: dict[str, Technique] = {technique.name.lower(): technique for technique in TECHNIQUES}


def level_of(techniques: set[int] | list[int], score: int) -> Level:
    """HoDoKu's level for a solution path that used ``techniques`` (ids) and scored ``score``:
    the hardest technique's level, raised while the score passes the level's ceiling."""
    level = Level.EASY
    for kind in techniques:
        candidate = BY_ID[kind].level
        if candidate.rank > level.rank:
            level = candidate
    levels = list(Level)
    while score > level.ceiling and level.rank + 1 < len(levels):
        level = levels[level.rank + 1]
    return level
