"""The inputs, as hypothesis strategies: records of every format (a known puzzle written in
some form, perhaps mutated), files of them with the options that read them, command lines
over them, ``generate`` with odd options, and requests to every endpoint of the API."""

from __future__ import annotations

import json
import math
import random
import re
from dataclasses import dataclass, replace
from typing import Any, Sequence

from hypothesis import strategies as st

from .puzzles import BLOCKS, BOXES, CATALOGUE, DIGITS, FORMAT_OF, Puzzle, marks_of, writable, write
from .rules import brute_force

#: a budget is honoured when the answer comes within this many seconds past it
BUDGET_SLACK = 1.0
#: what measuring in a worker adds (the runner, reading the input, writing the answers)
MEASURE_SLACK = 0.5
#: seconds a command without a budget may take before it counts as hanging
NO_BUDGET = 20.0


@dataclass(frozen=True)
class Case:
    """One input record: its text (no final newline), its family, and the puzzle it still
    means (None once a mutation may have changed the meaning)."""

    family: str
    text: str
    puzzle: Puzzle | None
    how: str  #: what it was made from, for the report

    def __repr__(self) -> str:
        return f"<{self.how}: {self.text!r}>"

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(repr(self))


FAMILIES = tuple(FORMAT_OF)
#: families that write classic boards and nothing else
PLAIN = ("line", "grid", "ints", "leetcode", "pretty")
#: characters a mutation puts in: symbols, blanks, rules, JSON, whitespace of every kind,
#: look-alike digits, box drawing, a BOM, control characters, undecodable bytes (the
#: surrogates below are written as the bytes 0x80-0xff)
NASTY = (
    "0", "1", "5", "9", "a", "G", "Z", ".", "-", " ", "  ", "\t", "|", "+", "=", "#", ",", ":", "?", "[", "]",
    "{", "}", '"', "'", "\\", "/", "\u00a0", "\u0085", "\u2028", "\u3000", "\u2500", "\u2502", "\u253c", "\ufeff",
    "\u00e9", "\u0663", "\u00b2", "\uff11", "\x00", "\x1b", "\x7f", "\x0b", "\udcff", "\udc80", "\U0001f600",
    "r1c1", "15:", "?:", "null", "true", "1e400", "-1", "end", "#x", "diagonals", "windoku",
)  # fmt: skip


def _small_variant(rng: random.Random) -> Puzzle:
    """A 4x4 or 6x6 variant made here: diagonals, windoku or killer cages over a grid that keeps
    them, some givens from it; its count from :func:`brute_force`."""
    n = rng.choice((4, 6))
    main, anti = rng.random() < 0.4, rng.random() < 0.4
    windoku = n == 4 and rng.random() < 0.3
    base = Puzzle("", n, (0,) * (n * n), DIGITS[:n], box=BOXES[n], main=main, anti=anti, windoku=windoku)
    grids = brute_force(base.rules, limit=1)
    if not grids:  # these extras admit no grid: a puzzle without solution is a case too
        return replace(base, name=f"{n}x{n} variant without grid", count=0, solvable=False)
    names = list(range(1, n + 1))
    rng.shuffle(names)  # renaming values keeps every house rule
    grid = tuple(names[v - 1] for v in grids[0])
    cages = []
    if rng.random() < 0.7:
        cells = list(range(n * n))
        rng.shuffle(cells)
        while cells:
            size = rng.randint(1, min(4, len(cells)))
            cage = tuple(sorted(cells[:size]))
            cells = cells[size:]
            if len({grid[c] for c in cage}) == len(cage) and rng.random() < 0.7:
                cages.append((None if rng.random() < 0.1 else sum(grid[c] for c in cage), cage))
    givens = tuple(v if rng.random() < 0.25 else 0 for v in grid)
    puzzle = replace(base, name=f"{n}x{n} variant", givens=givens, cages=tuple(cages))
    found = brute_force(puzzle.rules, limit=50, nodes=100_000)
    if found is None or len(found) >= 50:
        return replace(puzzle, solvable=True)
    return replace(puzzle, count=len(found), solvable=True, solution=found[0] if len(found) == 1 else None)


@st.composite
def puzzles(draw, family: str, small: bool = False, unique: bool = False) -> Puzzle:
    """A known puzzle ``family`` can write: ``small`` keeps to boards up to 9x9, ``unique``
    to puzzles with one solution (what hints and ratings take)."""
    pool: list[Puzzle] = []
    if family in PLAIN or family in ("sukaku", "candidates", "hodoku", "json"):
        pool += CATALOGUE["unique_small" if unique else ("small" if small else "classic")]
        if small and not unique:
            pool += CATALOGUE["unique9"][:8] + [p for p in CATALOGUE["classic"] if p.size == 9 and p.count != 1][:6]
    if family in ("sukaku", "candidates", "hodoku", "json", "variant"):
        pool += [p for p in CATALOGUE["variants"] if writable(p, family) and (not small or p.size <= 9) and (not unique or p.count == 1)]
    if family in ("variant", "json", "layout") and not unique:
        pool += [p for p in CATALOGUE["layouts"] if writable(p, family)]
    choice = draw(st.sampled_from(["catalogue"] * 4 + (["made"] if family in ("variant", "json") else [])
                                  + (["marks"] if family in ("sukaku", "candidates", "hodoku", "json") else [])))
    if choice == "made":
        puzzle = _small_variant(draw(st.randoms(use_true_random=False)))
        if (not unique or puzzle.count == 1) and writable(puzzle, family):
            return puzzle
    if choice == "marks":  # pencil marks that keep the one solution: the answer stays known
        base = draw(st.sampled_from(CATALOGUE["unique9"] if not small else CATALOGUE["unique_small"]))
        rng = draw(st.randoms(use_true_random=False))
        keep = draw(st.sampled_from((0.2, 0.5, 0.8)))
        assert base.solution is not None
        n = base.size
        marks = [
            {value for value in range(1, n + 1) if value == base.solution[cell] or rng.random() < keep}
            for cell in range(n * n)
        ]
        return base.with_marks(marks)
    fitting = [p for p in pool if writable(p, family)]
    if not fitting:  # no unique puzzle in this family (empty jigsaws): any will do
        return draw(puzzles(family, small=small))
    puzzle = draw(st.sampled_from(fitting))
    if puzzle.solution is not None and draw(st.integers(0, 3)) == 0:  # more givens, the same answer
        rng = draw(st.randoms(use_true_random=False))
        puzzle = puzzle.with_givens(cell for cell in range(len(puzzle.givens)) if rng.random() < 0.2)
    return puzzle


@st.composite
def styles(draw, family: str, size: int, full: bool = False) -> dict[str, Any]:
    """The form a record is written in: choices that keep its meaning."""
    style: dict[str, Any] = {}
    if family in ("line", "grid", "sukaku"):
        style["blank"] = draw(st.sampled_from(".0-" if size <= 9 else ".-"))
    if family in ("line", "grid", "leetcode"):
        # spaced digits with 0 for empty (or none empty) are rows of integers as well: not those
        style["spaced"] = draw(st.booleans()) and (family == "leetcode" or (style["blank"] != "0" and not full))
    if family in ("grid", "candidates"):
        # and a row of '-' (empty) cells split by '|' is a separator line: not that pair either
        style["rules"] = draw(st.booleans()) and style.get("blank") != "-"
    if family == "ints":
        style["sep"] = draw(st.sampled_from([" ", "  ", "\t", " \t"]))
    if family == "leetcode":
        style["quote"] = draw(st.sampled_from(['"', "'"]))
        style["numbers"] = draw(st.integers(0, 4)) == 0
    if family == "sukaku":
        style["gap"] = draw(st.sampled_from(["", "", "", " ", "\t", "\u0085"]))
    if family in ("candidates", "hodoku"):
        style["full"] = draw(st.sampled_from(["digits", "dot"]))
        style["aligned"] = draw(st.booleans())
    if family == "variant":
        style["glued"] = draw(st.booleans())
        style["shuffle"] = draw(st.none() | st.integers(0, 100))
    if family == "json":
        style.update(
            size=draw(st.booleans()), region_lists=draw(st.booleans()), diagonals_true=draw(st.booleans()),
            cage_objects=draw(st.booleans()), marks=draw(st.sampled_from(["pairs", "cells", "sukaku"])),
            named=draw(st.booleans()), compact=draw(st.booleans()), shuffle=draw(st.none() | st.integers(0, 100)),
        )  # fmt: skip
    return style


def repaired(text: str) -> str:
    """The text with no line that would end or hide a record: none blank, none a comment,
    none ``end`` (those are the stream's, not the record's)."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or stripped == "end":
            lines[index] = "." + line
    return "\n".join(lines)


@st.composite
def char_edits(draw, text: str) -> tuple[str, list[str]]:
    """A few edits of single characters or spans; never a new line (records keep their lines)."""
    done = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["replace", "insert", "delete", "span", "swap", "cut"]))
        at = draw(st.integers(0, max(0, len(text) - 1)))
        if kind == "replace" and text:
            new = draw(st.sampled_from(NASTY))
            text = text[:at] + new + text[at + 1 :]
            done.append(f"{at}:={new!r}")
        elif kind == "insert":
            new = draw(st.sampled_from(NASTY))
            text = text[:at] + new + text[at:]
            done.append(f"{at}:+{new!r}")
        elif kind == "delete":
            length = draw(st.integers(1, 3))
            text = text[:at] + text[at + length :]
            done.append(f"{at}:-{length}")
        elif kind == "span":  # a piece repeated
            length = draw(st.integers(1, 12))
            text = text[:at] + text[at : at + length] * 2 + text[at + length :]
            done.append(f"{at}:*{length}")
        elif kind == "swap" and len(text) > 1:
            other = draw(st.integers(0, len(text) - 1))
            chars = list(text)
            chars[at], chars[other] = chars[other], chars[at]
            text = "".join(chars)
            done.append(f"{at}<>{other}")
        elif kind == "cut":
            text = text[: at + 1]
            done.append(f"cut {at + 1}")
    return text.replace("\r", ""), done


#: values any JSON field may get in place of its own: the wrong type, null, a boolean, integers
#: too big for a float or for Python's int-to-text limit ("HUGE", see :func:`dumps`), a lone surrogate
ODD_VALUES: tuple[Any, ...] = (None, True, False, "HUGE", 10**400, 2**63, -1, 0, 1.5, "", "x", "\ud800", [], {}, [[]])
#: values that only make sense as mistakes of one field
ODD_BY_KEY: dict[str, tuple[Any, ...]] = {
    "givens": ("." * 80, "." * 81 + "\ud800", "1" * 81, "." * 625),
    "size": (1, 2, 4, 9, 25, 64, 65),
    "boxes": (0, "false"),
    "regions": ("1" * 81, "12" * 40 + "1", [[0, 1]], [list(range(9))] * 9, [list(range(k, 81, 9)) for k in range(9)]),
    "diagonals": ([["main"]], ["main", 1], "main", ["up"], [None]),
    "windoku": (1, "true"),
    "houses": ([[0, 1]], [list(range(9)), list(range(9))], [[0, 0, 1, 2, 3, 4, 5, 6, 7]], [[81] * 9], [[True] * 9]),
    "cages": ([[None, [0, 1]]], [[3, [0, 0]]], [[0, [0, 1]]], [[99, [0, 1, 2]]], [[-1, [5]]], [[True, [1]]], [[1.5, [0]]],
              [{"sum": 3}], [[3, []]], [["HUGE", [0]]], [[3, [81]]], [[3, [0, 1]], [4, [1, 2]]]),
    "candidates": ([[True, "1"]], [[0, "12"], [0, "3"]], [[81, "1"]], [[-1, "1"]], [[0, ""]], [[0, "x"]], [[0, 1]],
                   "1" * 729, "1" * 728, ["1"] * 81, [["HUGE", "1"]]),
}  # fmt: skip
JSON_KEYS = tuple(ODD_BY_KEY) + ("name", "solution", "extra", "\ud800")


def odd_value(key: str) -> st.SearchStrategy:
    """An odd value for a field: one of its own mistakes, or one any field may get."""
    own = ODD_BY_KEY.get(key, ())
    return (st.sampled_from(own) | st.sampled_from(ODD_VALUES)) if own else st.sampled_from(ODD_VALUES)


def dumps(value: Any) -> str:
    """JSON text, with the string ``"HUGE"`` written as an integer of 5,000 digits (more than
    Python's int-to-text limit, so no ``json.dumps`` can write it)."""
    return json.dumps(value).replace('"HUGE"', "1" * 5000)


@st.composite
def json_edits(draw, text: str) -> tuple[str, list[str]]:
    """Odd values for the keys of a JSON record, or for one element of a list in it."""
    record = json.loads(text)
    done = []
    for _ in range(draw(st.integers(1, 2))):
        key = draw(st.sampled_from(list(record) or JSON_KEYS) | st.sampled_from(tuple(ODD_BY_KEY)) | st.sampled_from(JSON_KEYS))
        action = draw(st.sampled_from(["set", "set", "drop", "element"]))
        if action == "drop":
            record.pop(key, None)
            done.append(f"-{key}")
        elif action == "element" and isinstance(record.get(key), list) and record[key]:
            index = draw(st.integers(0, len(record[key]) - 1))
            record[key][index] = draw(st.sampled_from(ODD_VALUES))
            done.append(f"{key}[{index}]={record[key][index]!r:.20}")
        else:
            record[key] = draw(odd_value(key))
            done.append(f"{key}={record[key]!r:.20}")
    return dumps(record), done


#: tokens a variant line gets in place of, or besides, its own
ODD_TOKENS = (
    "0:r1c1", "99:r1c1,r1c2", "-5:r1c1", "?:r0c0", "15:r1c1,r1c1", "15:", "?:", "3:r1c1,r1c2", "10:r10c10",
    "r1c1", "diagonals", "windoku", "main-diagonal", "anti-diagonal", "1" * 81, "12" * 40 + "1", "9" * 30 + ":r1c1",
    "3:r1c1", "17:r1c1,r1c2,r1c3", "4:r9c9,r8c9", "x", "DIAGONALS", "1" * 16, "12341234" * 2,
)  # fmt: skip


@st.composite
def token_edits(draw, text: str) -> tuple[str, list[str]]:
    tokens = text.split(" ")
    done = []
    for _ in range(draw(st.integers(1, 2))):
        at = draw(st.integers(0, len(tokens)))
        action = draw(st.sampled_from(["insert", "replace", "drop", "repeat"]))
        if action == "insert" or not tokens or at >= len(tokens):
            token = draw(st.sampled_from(ODD_TOKENS))
            tokens.insert(at, token)
            done.append(f"+{token[:20]}")
        elif action == "replace":
            tokens[at] = draw(st.sampled_from(ODD_TOKENS))
            done.append(f"{at}={tokens[at][:20]}")
        elif action == "drop" and len(tokens) > 1:
            done.append(f"-{tokens.pop(at)[:20]}")
        else:
            tokens.insert(at, tokens[at])
            done.append(f"*{tokens[at][:20]}")
    return " ".join(tokens), done


@st.composite
def row_edits(draw, text: str) -> tuple[str, list[str]]:
    """A row of a block record dropped, repeated or moved."""
    rows = text.split("\n")
    action = draw(st.sampled_from(["drop", "repeat", "move"]))
    at = draw(st.integers(0, len(rows) - 1))
    if action == "drop" and len(rows) > 1:
        rows.pop(at)
    elif action == "repeat":
        rows.insert(at, rows[at])
    else:
        rows.insert(draw(st.integers(0, len(rows) - 1)), rows.pop(at))
    return "\n".join(rows), [f"row {at} {action}"]


@st.composite
def records(draw, family: str, small: bool = False, unique: bool = False, mutate: float | None = None,
            structural: bool = False) -> Case:
    """A record of ``family``: a known puzzle in some form, mutated with probability
    ``mutate`` (None: drawn); ``structural``: always by the family's own edits (odd JSON
    values, variant tokens, rows) where it has them."""
    puzzle = draw(puzzles(family, small=small, unique=unique))
    style = draw(styles(family, puzzle.size, all(puzzle.givens)))
    text = write(puzzle, family, style)
    how = f"{puzzle.name} as {family} {style}"
    chance = draw(st.sampled_from((0.0, 0.5, 1.0))) if mutate is None else mutate
    if chance == 0.0 or (chance < 1.0 and draw(st.booleans())):
        return Case(family, text, puzzle, how)
    edits: list[str] = []
    if family == "json" and (structural or draw(st.booleans())):
        text, done = draw(json_edits(text))
        edits += done
    if family == "variant" and (structural or draw(st.booleans())):
        text, done = draw(token_edits(text))
        edits += done
    if family in BLOCKS and (structural or draw(st.integers(0, 3)) == 0):
        text, done = draw(row_edits(text))
        edits += done
    if not edits or (not structural and draw(st.booleans())):
        text, done = draw(char_edits(text))
        edits += done
    return Case(family, repaired(text), None, how + f" edited {edits}")


# -- feeds: a file of records and the options that read it --------------------------------------


@dataclass(frozen=True)
class Feed:
    """An input: records of one family, the bytes of the file that holds them, and the
    reading options (``--format``, ``--shape``, ``--symbols``)."""

    family: str
    cases: tuple[Case, ...]
    data: bytes
    options: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"Feed({self.family}, {len(self.cases)} records, options {self.options}, data={self.data!r})"

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(repr(self))

    @property
    def options_keep(self) -> bool:
        """The reading options keep the records' meaning (none, or the true ones)."""
        return "odd" not in self.options


def encode(text: str) -> bytes:
    """Bytes of a text whose surrogates U+DC80-U+DCFF stand for single undecodable bytes."""
    return text.encode("utf-8", "surrogateescape")


ODD_SHAPES = ("2x2", "3x3", "2x3", "3x2", "9", "7", "1x9", "0", "x", "4x4", "9x9", "25x25", "64", "65", "-3", "3x3x3", " 9 ")
ODD_SYMBOLS = ("12", "123456789", "ABCDEFGHI", "abcdefghi", "0123456789ABCDEF", "aa", "12345678\u00e9", "1234 6789", "123456789" * 2)


@st.composite
def reading_options(draw, family: str, cases: Sequence[Case]) -> tuple[str, ...]:
    """``--format``, ``--shape``, ``--symbols``: mostly none; the true ones (which keep the
    meaning); or odd ones (marked with a trailing ``odd`` word, dropped from the command)."""
    kind = draw(st.sampled_from(["none", "none", "true", "odd"]))
    if kind == "none":
        return ()
    options: list[str] = []
    if kind == "true":
        known = [case.puzzle for case in cases if case.puzzle is not None]
        if draw(st.booleans()):
            options += ["--format", FORMAT_OF[family]]
        sizes = {p.size for p in known}
        boxes = {p.box for p in known}
        if len(sizes) == 1 and len(boxes) == 1 and None not in boxes and len(known) == len(cases) and draw(st.booleans()):
            height, width = next(iter(boxes))  # a box ('2x3'), or a board with its usual boxes ('9x9', '9')
            spelled = f"{height}x{width}" if height != width else f"{height * width}x{height * width}"
            options += ["--shape", draw(st.sampled_from([spelled, str(height * width)]))]
        alphabets = {p.symbols for p in known}
        if len(alphabets) == 1 and len(known) == len(cases) and family not in ("ints", "layout") and draw(st.booleans()):
            options += ["--symbols", next(iter(alphabets))]
        return tuple(options)
    if draw(st.booleans()):
        options += ["--format", draw(st.sampled_from(sorted(set(FORMAT_OF.values()))))]
    if draw(st.booleans()):
        options += ["--shape", draw(st.sampled_from(ODD_SHAPES))]
    if draw(st.booleans()):
        options += ["--symbols", draw(st.sampled_from(ODD_SYMBOLS))]
    return tuple(options) + ("odd",)


@st.composite
def feeds(draw, families: Sequence[str] = FAMILIES, most: int = 3, small: bool = False, unique: bool = False,
          mutate: float | None = None, options: bool = True, structural: bool = False) -> Feed:
    """A file of 1 to ``most`` records of one family, in any of the ways a file is laid out:
    CRLF, a BOM, comments and blank lines between records, ``end`` after the last."""
    family = draw(st.sampled_from(list(families)))
    cases = draw(st.lists(records(family, small=small, unique=unique, mutate=mutate, structural=structural), min_size=1, max_size=most))
    layout = draw(st.fixed_dictionaries({
        "crlf": st.booleans(), "bom": st.booleans(), "comment": st.booleans(), "blank": st.booleans(),
        "end": st.booleans(), "newline": st.booleans(),
    }))  # fmt: skip
    parts = []
    for index, case in enumerate(cases):
        if index and (family in BLOCKS or layout["blank"]):
            parts.append("")
        if index and layout["comment"]:
            parts.append("# a comment between records")
        parts.append(case.text)
    if layout["end"]:
        parts.append("end")
    text = "\n".join(parts) + ("\n" if layout["newline"] or layout["end"] else "")
    if layout["crlf"]:
        text = text.replace("\n", "\r\n")
    if layout["bom"]:
        text = "\ufeff" + text
    chosen = draw(reading_options(family, cases)) if options else ()
    return Feed(family, tuple(cases), encode(text), chosen)


TIME_LIMITS = ("0", "0.001", "0.05", "0.2", "0.5", "1")
ODD_TIME_LIMITS = ("nan", "inf", "-1", "1e400", "1e-400", "0x10", "")
NODE_LIMITS = ("1", "10", "1000", "100000")
#: node limits that bound a run's time as well (see :func:`runs`)
SMALL_NODE_LIMITS = ("1", "10", "1000")
ODD_NODE_LIMITS = ("0", "-5", "99999999999999999999999", "1.5", "9223372036854775807")
ODD_COUNT_LIMITS = ("0", "99999999999999999999999", "9223372036854775807", "-1")


@dataclass(frozen=True)
class Run:
    """A command line over a feed (or none, for ``generate``)."""

    command: str
    args: tuple[str, ...]  #: every argument after ``sudokit``
    feed: Feed | None
    #: seconds the whole run may take under its time limits (None: no time budget)
    budget: float | None

    @property
    def deadline(self) -> float:
        """How long the worker waits before it calls the run hung."""
        return NO_BUDGET if self.budget is None else self.budget + BUDGET_SLACK + MEASURE_SLACK + 2.0

    def option(self, name: str, default: str | None = None) -> str | None:
        args = list(self.args)
        return args[args.index(name) + 1] if name in args and args.index(name) + 1 < len(args) else default

    def flag(self, name: str) -> bool:
        return name in self.args

    def __repr__(self) -> str:
        return f"Run({self.shell()})"

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(repr(self))

    def job(self) -> dict:
        return {"kind": "cli", "args": list(self.args), "stdin": self.feed.data if self.feed else b""}

    def shell(self) -> str:
        """The command that shows what this run did, as one shell line."""
        command = "sudokit " + " ".join(_shell_word(arg) for arg in self.args)
        if self.feed is None:
            return command
        return f"printf {_printf(self.feed.data)} | {command}"


def _shell_word(word: str) -> str:
    if word and re.fullmatch(r"[\w./:=+-]+", word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"


def _printf(data: bytes) -> str:
    """A ``printf`` format that writes exactly ``data`` (a format that starts with ``-``
    would read as an option: its first byte is then written as an escape)."""
    out = []
    if data[:1] == b"-":
        out.append("\\055")
        data = data[1:]
    for byte in data:
        char = chr(byte)
        if char == "%":
            out.append("%%")
        elif char == "\\":
            out.append("\\\\")
        elif char == "'":
            out.append("'\\''")
        elif char == "\n":
            out.append("\\n")
        elif 32 <= byte < 127:
            out.append(char)
        else:
            out.append(f"\\{byte:03o}")
    return "'" + "".join(out) + "'"


def _seconds(text: str | None) -> float | None:
    """A time limit as the command reads it; None for none or one it must refuse."""
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if value >= 0 and math.isfinite(value) else None


@st.composite
def budgets(draw, odd: bool = True, units: str = "--node-limit") -> list[str]:
    """``--time-limit`` and a budget in ``units`` (``--node-limit``, or ``--potential-limit``
    for SE's rating): none, usual ones or odd ones."""
    args: list[str] = []
    kind = draw(st.sampled_from(["time", "time", "both", "nodes", "odd" if odd else "time"]))
    if kind in ("time", "both"):
        args += ["--time-limit", draw(st.sampled_from(TIME_LIMITS))]
    if kind in ("nodes", "both"):
        args += [units, draw(st.sampled_from(NODE_LIMITS))]
    if kind == "odd":
        if draw(st.booleans()):
            args += ["--time-limit", draw(st.sampled_from(ODD_TIME_LIMITS))]
        else:
            args += [units, draw(st.sampled_from(ODD_NODE_LIMITS))]
    return args


#: the commands that read puzzles, and whether their --time-limit bounds all their work
READING = ("solve", "count", "hint", "explain", "rate", "canon", "shuffle", "batch")
#: the commands for people who make puzzles: each run gets a --time-limit (see :func:`setter_budgets`)
SETTERS = ("diagnose", "estimate", "make-unique", "reduce", "maximize", "minimize")
#: --samples of ``estimate``: usual ones, and odd ones (too few, not a number, past any array)
SAMPLES = ("2", "10", "100", "1000")
ODD_SAMPLES = ("1", "0", "-5", "x", "1.5", "99999999999999999999999")
#: --keep of ``make-unique`` and ``reduce``: cells as people write them, and odd ones (outside
#: a board, misspelled, past any integer)
KEEP = ("r1c1", "r1c1,r2c2", "0,5,10", "r2c3, r4c4", "R3C3", "15")
ODD_KEEP = ("r0c0", "r10c10", "81", "-1", "x", "r1c1,,r2c2", " ", "r99999999999999999999c1", "r1c1=5")
#: --weights of ``maximize`` and ``minimize`` past the preset: none of them a weights file
ODD_WEIGHTS = ("Target", "", "/nonexistent/weights.txt", "/dev/null", "/")


@st.composite
def setter_budgets(draw, nodes: bool = True) -> list[str]:
    """A --time-limit always (what a setter's question takes is out of sight: a count, a
    hitting set, an optimum), perhaps a --node-limit beside it (``nodes``); now and then an odd
    value in place of either, or a --node-limit where the command takes none."""
    args = ["--time-limit", draw(st.sampled_from(TIME_LIMITS))]
    kind = draw(st.sampled_from(["time", "time", "time", "both", "both", "odd"] if nodes else ["time"] * 5 + ["odd"]))
    if kind == "both":
        args += ["--node-limit", draw(st.sampled_from(NODE_LIMITS))]
    if kind == "odd":
        if draw(st.booleans()):
            args[1] = draw(st.sampled_from(ODD_TIME_LIMITS))
        else:
            args += ["--node-limit", draw(st.sampled_from(ODD_NODE_LIMITS if nodes else NODE_LIMITS))]
    return args


#: the sizes of open boards (no given at all): what ``estimate`` is for, and where a budget is hardest to keep
OPEN_SIZES = (4, 6, 9, 16, 25, 36, 49, 64)


@st.composite
def open_feeds(draw) -> Feed:
    """A file of one board past the usual feeds' 16x16: an open board (no given) of a size up
    to 64x64, or one of the 25x25 puzzles; as a line or a JSON object."""
    if draw(st.integers(0, 2)) == 0:
        puzzle = draw(st.sampled_from(CATALOGUE["big"]))
    else:
        n = draw(st.sampled_from(OPEN_SIZES))
        side = math.isqrt(n)
        puzzle = Puzzle(f"an open {n}x{n} board", n, (0,) * (n * n), "", box=BOXES.get(n, (side, side)), solvable=True)
    family = draw(st.sampled_from(["line", "json"]))
    text = write(puzzle, family, {"blank": "."} if family == "line" else {})
    return Feed(family, (Case(family, text, puzzle, f"{puzzle.name} as {family}"),), encode(text + "\n"))


def _cells_of(puzzle: Puzzle | None, given: bool, rng: random.Random) -> str | None:
    """A few cells of a known puzzle for --keep, as ``r1c2``: givens (``given``) or open cells."""
    if puzzle is None:
        return None
    n = puzzle.size
    cells = [cell for cell, value in enumerate(puzzle.givens) if bool(value) == given]
    if not cells:
        return None
    chosen = sorted(rng.sample(cells, min(len(cells), rng.randint(1, 3))))
    return ",".join(f"r{cell // n + 1}c{cell % n + 1}" for cell in chosen)


@st.composite
def runs(draw, commands: Sequence[str] = READING, small: bool = False, families: Sequence[str] = FAMILIES,
         mutate: float | None = None, most: int = 3, structural: bool = False) -> Run:
    """A command over a feed, with the options that command takes (odd ones too)."""
    command = draw(st.sampled_from(list(commands)))
    human = command in ("hint", "explain", "rate", "canon")
    if command in SETTERS and not small and draw(st.integers(0, 5)) == 0:
        feed = draw(open_feeds())  # the setters' questions at their largest: every one has a budget
    else:
        feed = draw(feeds(families, most=most, small=small or human, mutate=mutate, structural=structural))
    args = [command] + [arg for arg in feed.options if arg != "odd"]
    time_bounded = command in ("solve", "count", "batch")
    if command == "solve":
        args += draw(budgets())
        if draw(st.booleans()):
            args.append("--unique")
        output = draw(st.sampled_from([None, None, None, "--to", "--pretty"]))
        if output == "--to":
            args += ["--to", draw(st.sampled_from(sorted(set(FORMAT_OF.values()))))]
        elif output == "--pretty":
            args.append("--pretty")
        if draw(st.integers(0, 3)) == 0:
            args.append("--stats")
    elif command == "count":
        args += draw(budgets())
        limit = draw(st.sampled_from([None, "1", "2", "10", "1000", "odd"]))
        if limit == "odd":
            limit = draw(st.sampled_from(ODD_COUNT_LIMITS))
        if limit is not None:
            args += ["--limit", limit]
    elif command == "hint" and draw(st.booleans()):
        args += draw(budgets())  # they bound the proof of one solution; the step takes milliseconds
        time_bounded = True
    elif command in ("explain", "rate"):
        scale = draw(st.sampled_from(["hodoku", "hodoku", "se"]))
        if scale == "se":
            args += ["--scale", "se"] + draw(budgets(units="--potential-limit"))  # SE's unit
            time_bounded = True
        elif draw(st.booleans()):
            args += draw(budgets())  # explain's steps run to the end past it: its time is unbounded
            time_bounded = command == "rate"
        if command == "explain" and draw(st.integers(0, 3)) == 0:
            args.append("--pretty")
        if command == "rate":
            to = draw(st.sampled_from([None, "text", "tsv", "json"]))
            if to:
                args += ["--to", to]
    elif command == "shuffle":
        seed = draw(st.sampled_from(["0", "1", "12345", "-1", "99999999999999999999999", "x"]))
        args += ["--seed", seed]
    elif command in SETTERS:
        args += draw(setter_budgets(nodes=command != "estimate"))
        time_bounded = True
        if command in ("diagnose", "estimate") and draw(st.booleans()):
            args += ["--to", draw(st.sampled_from(["text", "json", "json", "text", "json", "board"]))]
        if command == "estimate":
            samples = draw(st.sampled_from(SAMPLES + (None, "odd")))
            if samples is not None:
                args += ["--samples", draw(st.sampled_from(ODD_SAMPLES)) if samples == "odd" else samples]
            if draw(st.booleans()):
                args += ["--seed", draw(st.sampled_from(["0", "1", "12345", "-1", "x", "99999999999999999999999"]))]
        if command in ("make-unique", "reduce"):
            if draw(st.booleans()):
                args += ["--to", draw(st.sampled_from(["board", "json", "json", "board", "json", "text"]))]
            keep = draw(st.sampled_from([None, None, None, None, "known", "known", "any", "odd"]))
            if keep == "known":  # cells that matter: givens to keep (reduce), open cells to leave (make-unique)
                keep = _cells_of(feed.cases[0].puzzle, command == "reduce", draw(st.randoms(use_true_random=False)))
            elif keep is not None:
                keep = draw(st.sampled_from(ODD_KEEP if keep == "odd" else KEEP))
            if keep is not None:
                args += ["--keep", keep]
        if command in ("maximize", "minimize"):
            if draw(st.booleans()):
                args.append("--board")
            if draw(st.integers(0, 3)) == 0:
                args.append("--stats")
            if draw(st.integers(0, 4)) == 0:
                args += ["--weights", draw(st.sampled_from(("target",) + ODD_WEIGHTS))]
    elif command == "batch":
        args = ["batch", "-", "-o", "-", "--threads", "--workers", "1"] + args[1:] + draw(budgets())
        limit = draw(st.sampled_from([None, "1", "2", "10", "odd"]))
        if limit is not None:
            args += ["--limit", draw(st.sampled_from(ODD_COUNT_LIMITS)) if limit == "odd" else limit]
        if draw(st.integers(0, 3)) == 0:
            args += ["--chunk-size", draw(st.sampled_from(["1", "2", "0"]))]
        if draw(st.integers(0, 4)) == 0:
            args.append("--rate")
            time_bounded = False
    run = Run(command, tuple(args), feed, None)
    seconds = _seconds(run.option("--time-limit"))
    work = run.option("--potential-limit") if "--potential-limit" in args else run.option("--node-limit")
    if time_bounded and seconds is None and work in SMALL_NODE_LIMITS:
        seconds = 0.0  # a thousand nodes (or potentials) take milliseconds: the run ends within the slack
    if time_bounded and seconds is not None:
        run = replace(run, budget=seconds * len(feed.cases))
    return run


@st.composite
def generate_runs(draw, big: bool = True) -> Run:
    """``generate`` with odd options: shapes of every spelling, symmetries, clue counts,
    levels, score ranges, seeds and budgets (always one, since a target may be out of reach)."""
    shapes = ["4x4", "4", "2x2", "6x6", "2x3", "3x2", "6", "9x9", "9", "3x3", "8", "1x4", "0", "x", "7", "3x3x3"]
    if big:
        shapes += ["16x16", "12", "25x25", "64"]
    args = ["generate", "--workers", "1", "--shape", draw(st.sampled_from(shapes))]
    args += ["-n", draw(st.sampled_from(["1", "1", "2", "0", "-1"]))]
    if draw(st.booleans()):
        args += ["--symmetry", draw(st.sampled_from(["none", "rot180", "rot90", "mirror", "flip", "diagonal", "antidiagonal", "dihedral", "spiral"]))]
    if draw(st.integers(0, 3)) == 0:
        args += ["--clues", draw(st.sampled_from(["1", "5", "17", "25", "40", "0", "-1"]))]
    minimal = draw(st.sampled_from([None, "--minimal", "--not-minimal", "--strict-minimal"]))
    if minimal:
        args.append(minimal)
    if draw(st.integers(0, 3)) == 0:
        args += ["--mixing", draw(st.sampled_from(["1", "5", "-1"]))]
    if draw(st.integers(0, 3)) == 0:
        args += ["--level", draw(st.sampled_from(["easy", "medium", "hard+", "extreme", "bogus", "Easy"]))]
    if draw(st.integers(0, 4)) == 0:
        args += ["--score", draw(st.sampled_from(["0-1000", "100-", "-500", "x", "500-100", "99999999999999999999999-"]))]
    args += ["--seed", draw(st.sampled_from(["0", "1", "7", "2026", "-1", "99999999999999999999999"]))]
    if draw(st.integers(0, 4)) == 0:
        args += ["--attempts", draw(st.sampled_from(["1", "10", "0"]))]
    args += ["--time-limit", draw(st.sampled_from(["0.5", "1", "2", "3", "0"] + (["nan"] if big else [])))]
    args += ["--to", draw(st.sampled_from(sorted(set(FORMAT_OF.values()))))]
    run = Run("generate", tuple(args), None, None)
    return replace(run, budget=_seconds(run.option("--time-limit")))


# -- requests to the JSON API ------------------------------------------------------------

ENDPOINTS = ("parse", "solve", "count", "hint", "explain", "rate", "canonical", "generate", "diagnose", "estimate")
#: the endpoints that take a budget beside a puzzle
BUDGETED = ("solve", "count", "hint", "explain", "rate", "diagnose", "estimate")
#: the server's budget when a request names none, and the most it grants (web.Settings)
DEFAULT_TIME, MOST_TIME = 2.0, 10.0
#: the fields of each endpoint (web.api), and odd values of their own beside ODD_VALUES
ENDPOINT_FIELDS = {
    "parse": ("puzzle", "format", "shape", "symbols"),
    "solve": ("puzzle", "format", "shape", "symbols", "time_limit", "node_limit", "unique"),
    "count": ("puzzle", "format", "shape", "symbols", "time_limit", "node_limit", "limit"),
    "hint": ("puzzle", "format", "shape", "symbols", "time_limit", "node_limit", "candidates", "level"),
    "explain": ("puzzle", "format", "shape", "symbols", "time_limit", "node_limit"),
    "rate": ("puzzle", "format", "shape", "symbols", "time_limit", "node_limit", "potential_limit"),
    "canonical": ("puzzle", "format", "shape", "symbols"),
    "generate": ("time_limit", "node_limit", "size", "level", "score", "symmetry", "clues", "minimal", "seed"),
    "diagnose": ("puzzle", "format", "shape", "symbols", "time_limit", "node_limit"),
    "estimate": ("puzzle", "format", "shape", "symbols", "time_limit", "node_limit", "samples", "seed"),
}
ODD_FIELD_VALUES: dict[str, tuple[Any, ...]] = {
    "puzzle": ("\ud800", "." * 80 + "\ud800", "{\"givens\": 1}", "[[\"1\"]]x"),
    "shape": ("7", "1x9", "2x2", "9x9", "64x64", 9, "\ud800"),
    "symbols": ("12345678\ud800", "12", "1234 6789", "123456789" * 2, "\\123456789"),
    "format": ("xml", "layout", "sukaku", "\ud800"),
    "time_limit": (1e308, 1e-300, "1", 11),
    "node_limit": (10**20, 0.5),
    "potential_limit": (10**20, 0, "1"),
    "limit": (0, 10**7, 10**20),
    "level": (0, 4, "3"),
    "candidates": ([[True]] * 81, [[]] * 80, [[1, 2]] * 81, [[0]] * 81, [["1"]] * 81, [[10]] * 81),
    "size": (5, 7, 8, 12, 25, 3),
    "score": ([1, 2, 3], [True, None], "x", "\ud800", "5-1", [None, None]),
    "symmetry": ("spiral", "\ud800"),
    "clues": (0, 1, 81, 82),
    "seed": (2**63, -1),
    "samples": (1, 100_000, 100_001, 10**20, "100", 2.5),
}

#: bodies that are not a request at all
ODD_BODIES = (b"", b"[]", b'{"\\ud800": 1}', b"{", b"null", b'"x"', b"{}", b"[" * 40 + b"]" * 40, b'{"puzzle": ' + b"[" * 40 + b"]" * 40 + b"}",
              b"\xff\xfe", b'{"puzzle": "\\ud800"}', b'{"puzzle": NaN}', b'{"time_limit": Infinity, "puzzle": "1"}',
              b"{" + b'"a": 1, ' * 9000 + b'"b": 2}')  # fmt: skip


@dataclass(frozen=True)
class Request:
    """A POST to an endpoint: the body's bytes, the record it carries (if any) and whether the
    reading fields (format, shape, symbols) keep the record's meaning."""

    endpoint: str
    body: bytes
    case: Case | None = None
    keeps: bool = True

    @property
    def fields(self) -> dict:
        try:
            decoded = json.loads(self.body)
        except (ValueError, RecursionError):
            return {}
        return decoded if isinstance(decoded, dict) else {}

    @property
    def budget(self) -> float:
        """The time budget the server grants: what the request asks (capped), else its default."""
        asked = self.fields.get("time_limit", DEFAULT_TIME)
        if isinstance(asked, bool) or not isinstance(asked, (int, float)) or not asked >= 0:
            return DEFAULT_TIME
        return min(float(asked), MOST_TIME) if asked < 10**300 else MOST_TIME

    @property
    def deadline(self) -> float:
        return self.budget + BUDGET_SLACK + MEASURE_SLACK + 4.0

    def __repr__(self) -> str:
        return f"Request({self.shell()})"

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(repr(self))

    def job(self) -> dict:
        return {"kind": "web", "method": "POST", "path": f"/api/{self.endpoint}", "body": self.body}

    def shell(self) -> str:
        return f"printf {_printf(self.body)} | curl -s --data-binary @- -H 'content-type: application/json' http://127.0.0.1:8000/api/{self.endpoint}"


@st.composite
def requests(draw, endpoints: Sequence[str] = ENDPOINTS, odd: bool = True) -> Request:
    """A request to an endpoint: a record of any family as its puzzle, the endpoint's fields,
    perhaps odd values in some of them, perhaps a body that is no request at all."""
    endpoint = draw(st.sampled_from(list(endpoints)))
    if odd and draw(st.integers(0, 15)) == 0:
        return Request(endpoint, draw(st.sampled_from(ODD_BODIES)), None, False)
    body: dict[str, Any] = {}
    case = None
    keeps = True
    if endpoint == "generate":
        body["size"] = draw(st.sampled_from([4, 4, 6, 9, 9, 16, 8, 5]))
        body["seed"] = draw(st.integers(0, 1000))
        for name, values in (("level", ["easy", "medium", "hard+", "extreme"]), ("symmetry", ["none", "rot180", "dihedral"]),
                             ("clues", [10, 25, 40]), ("minimal", [True, False]), ("score", [[0, 2000], [None, 500], "100-"])):
            if draw(st.integers(0, 3)) == 0:
                body[name] = draw(st.sampled_from(values))
        body["time_limit"] = draw(st.sampled_from([0.5, 1, 2]))
    else:
        human = endpoint in ("hint", "explain", "rate", "canonical")
        wide = endpoint in ("diagnose", "estimate") and draw(st.integers(0, 5)) == 0
        if wide:  # setter mode's boards: open ones, up to 64x64, each with a budget of its own
            case = draw(open_feeds()).cases[0]
            family = case.family
        else:
            family = draw(st.sampled_from(FAMILIES))
            case = draw(records(family, small=True, unique=human and draw(st.booleans())))
        body["puzzle"] = case.text
        if draw(st.integers(0, 3)) == 0:
            body["format"] = FORMAT_OF[family]
        puzzle = case.puzzle
        if puzzle is not None and puzzle.box is not None and draw(st.integers(0, 4)) == 0:
            height, width = puzzle.box  # as the API spells shapes: a box, or a board's usual boxes
            body["shape"] = f"{height}x{width}" if height != width else str(height * width)
        if endpoint in BUDGETED:
            if wide or draw(st.booleans()):
                body["time_limit"] = draw(st.sampled_from([0, 0.05, 0.5, 1, 2]))
            if draw(st.integers(0, 3)) == 0:
                body["node_limit"] = draw(st.sampled_from([1, 100, 100_000]))
        if endpoint == "solve" and draw(st.booleans()):
            body["unique"] = draw(st.booleans())
        if endpoint == "count" and draw(st.booleans()):
            body["limit"] = draw(st.sampled_from([1, 2, 10, 1000]))
        if endpoint == "estimate":
            if draw(st.booleans()):
                body["samples"] = draw(st.sampled_from([2, 100, 2000, 20_000]))
            if draw(st.booleans()):
                body["seed"] = draw(st.integers(0, 1000))
        if endpoint == "hint":
            if draw(st.booleans()):
                body["level"] = draw(st.sampled_from([1, 2, 3]))
            if puzzle is not None and puzzle.solution is not None and draw(st.booleans()):
                rng = draw(st.randoms(use_true_random=False))
                n = puzzle.size
                body["candidates"] = [
                    [] if puzzle.givens[c] else [v for v in range(1, n + 1) if v == puzzle.solution[c] or (v in marks_of(puzzle)[c] and rng.random() < 0.6)]
                    for c in range(n * n)
                ]  # fmt: skip
    if odd and draw(st.integers(0, 2)) == 0:
        for _ in range(draw(st.integers(1, 2))):
            name = draw(st.sampled_from(ENDPOINT_FIELDS[endpoint] + ("extra", "\ud800")))
            body[name] = draw(st.sampled_from(ODD_FIELD_VALUES.get(name, ()) + ODD_VALUES))
            keeps = keeps and name not in ("puzzle", "format", "shape", "symbols")
    raw = dumps(body)
    if odd and draw(st.integers(0, 9)) == 0:  # broken JSON text
        raw, _ = draw(char_edits(raw))
        keeps = False
    return Request(endpoint, encode(raw), case, keeps)
