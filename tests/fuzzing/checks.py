"""The invariants: each run's and each request's outcome judged against its input, with the
rules of the known puzzle (or sudokit's reading of a mutated one) and the references."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, replace
from typing import Iterable, Sequence

import naive
import numpy as np
import sudokit
from sudokit import Shape

from .puzzles import BLOCKS, FORMAT_OF, Puzzle, lines_and_boxes
from .rules import Rules, broken_rules, brute_force
from .strategies import BUDGET_SLACK, MEASURE_SLACK, NO_BUDGET, SETTERS, Case, Feed, Request, Run, encode
from .worker import Outcome

#: exit statuses a run may end with (ExitCode: OK, UNSOLVED, BAD_INPUT, UNKNOWN)
EXITS = (0, 1, 2, 3)


@dataclass(frozen=True)
class Finding:
    """An invariant a run broke: where (command or endpoint), what kind, the detail, and the
    shell line that shows it."""

    where: str
    kind: str
    detail: str
    reproducer: str
    size: int = 0  #: bytes of input: the smallest reproducer of a kind is kept

    @property
    def signature(self) -> tuple[str, str, str]:
        """What makes two findings the same: numbers, cells and quoted text do not count."""
        detail = re.sub(r"[\w/.]+\.(txt|jsonl):\d+( \(pencil marks\))?|\dx\d variant[\w ]*", "<puzzle>", self.detail)
        detail = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", detail)
        detail = re.sub(r"r\d+c\d+", "rXcY", detail)
        detail = re.sub(r"\d+(\.\d+)?", "N", detail)
        return self.where, self.kind, detail[:160]

    def __str__(self) -> str:
        return f"[{self.where}] {self.kind}: {self.detail}\n    {self.reproducer}"


#: kinds that break an invariant; "slow" (no answer in NO_BUDGET seconds, with no budget asked)
#: and "doubtful" (an estimate's 95% interval that leaves out a count known here: a chance of
#: 5% by its promise, more where no probe reached a solution) are reported but break none
BROKEN = ("exit 70", "exit status", "traceback", "records", "rules", "answer", "budget", "500", "step", "message", "read back")


def _last_line(trace: str) -> str:
    """The exception and the innermost sudokit frame of a traceback, on one line."""
    lines = [line for line in trace.strip().splitlines() if line.strip()]
    frames = [line.strip() for line in lines if line.strip().startswith('File "') and "sudokit" in line and "click" not in line]
    place = re.sub(r'File ".*?(sudokit/[^"]+)", line (\d+), in (\S+)', r"\1:\2 in \3", frames[-1]) if frames else ""
    return f"{lines[-1]} ({place})" if place else lines[-1]


# -- reading the answers back -----------------------------------------------------------------------

#: what an unsolved record prints in place of a board (see sudokit.cli.base.MARKERS)
MARKERS = {
    "no solution": "no solution",
    "several solutions": "several",
    "unknown (budget exhausted)": "unknown",
    "error": "error",
}


def marker_of(text: str) -> str | None:
    """The status a marker record stands for, or None for an answer."""
    first = text.strip().split("\n")[0]
    for words, status in MARKERS.items():
        if first == words or first.startswith(words + ":"):
            return status
    return None


def split_lines(text: str) -> list[str]:
    pieces = text.split("\n")
    if pieces and pieces[-1] == "":
        pieces.pop()
    return pieces


def split_blocks(text: str) -> list[str]:
    """Records written as blocks of lines, each ended by one blank line."""
    blocks, current = [], []
    for line in split_lines(text):
        if line.strip():
            current.append(line)
        elif current:
            blocks.append("\n".join(current))
            current = []
        else:
            blocks.append("")  # a second blank line: an empty record
    if current:
        blocks.append("\n".join(current))
    return blocks


def split_explanations(text: str) -> list[str]:
    """``explain``'s records: a marker line, or a block (the puzzle, the steps, the rating)
    ended by a blank line."""
    records, current = [], []
    for line in split_lines(text):
        if not current and marker_of(line) is not None:
            records.append(line)
        elif line.strip():
            current.append(line)
        elif current:
            records.append("\n".join(current))
            current = []
        else:
            records.append("")
    if current:
        records.append("\n".join(current))
    return records


def output_format(run: Run, detected: str | None) -> str:
    """The format answers are written in: ``--to``, ``--pretty``, else the input's."""
    if run.flag("--pretty") and run.command == "solve":
        return "pretty"
    chosen = run.option("--to") if run.command == "solve" else None
    return chosen or detected or FORMAT_OF[run.feed.family if run.feed else "line"]


def split_scores(text: str, blocks: bool) -> list[str]:
    """``maximize``'s and ``minimize``'s records under ``--board``: a score line, then, where a
    completion was found (a score, or an unknown's best), the board (a line, or a block and the
    blank line that ends it)."""
    lines = split_lines(text)
    records, at = [], 0
    while at < len(lines):
        head = lines[at]
        at += 1
        if (re.fullmatch(r"\d+", head) or _UNKNOWN_OPTIMUM.fullmatch(head) and "best none" not in head) and at < len(lines):
            end = at + 1
            if blocks:
                while end < len(lines) and lines[end].strip():
                    end += 1
            records.append("\n".join(lines[at - 1 : end]))
            at = end + 1 if blocks else end
        else:
            records.append(head)
    return records


def output_records(run: Run, out: str, detected: str | None = None) -> list[str]:
    """The records of a run's output, split as its command writes them (``solve`` and
    ``shuffle`` in the format the input was read in, ``detected``, unless told another)."""
    if run.command in ("count", "hint", "canon", "batch", "diagnose", "estimate"):
        return split_lines(out)
    if run.command in ("maximize", "minimize"):
        return split_scores(out, output_format(run, detected) in BLOCKS) if run.flag("--board") else split_lines(out)
    if run.command in ("make-unique", "reduce") and run.option("--to") == "json":
        return split_lines(out)
    if run.command == "rate":
        lines = split_lines(out)
        return lines[1:] if run.option("--to") == "tsv" else lines
    if run.command == "explain":
        return split_explanations(out)
    written = output_format(run, detected)
    return split_blocks(out) if written in BLOCKS else split_lines(out)


def read_options(feed: Feed) -> dict | None:
    """The feed's ``--format``, ``--shape`` and ``--symbols`` as ``sudokit.read`` takes them;
    None where the command line refuses them before reading."""
    args = list(feed.options)
    option = lambda name: args[args.index(name) + 1] if name in args else None  # noqa: E731
    try:
        shape = Shape.parse(option("--shape")) if option("--shape") is not None else None
    except ValueError:
        return None
    symbols = option("--symbols")
    if symbols is not None and ("\\" in symbols or len(symbols) < 2):
        return None
    return {"format": option("--format"), "shape": shape, "symbols": symbols}


def read_feed(feed: Feed) -> list | None:
    """How sudokit reads a feed under its options (its records); None where the options are
    refused. Raises what reading raises."""
    options = read_options(feed)
    if options is None:
        return None
    return list(sudokit.read(feed.data.splitlines(keepends=True), **options))


def records_match(feed: Feed, written: int, detected: str | None, read: int | None = None) -> bool:
    """Whether ``written`` records answer the feed's records: one each, but where a format was
    forced on records of another and either is a format of blocks, which lines make a record
    is the forced format's to say: one answer for each record sudokit reads under it (``read``;
    moot where the options are refused); so is a ``--shape`` of another size than the records'.
    A LeetCode text may hold two boards on one line, or one value over several lines (JSON may
    be laid out so: a record that opens more lists than it closes goes on to the next)."""
    options = dict(zip(feed.options[::2], feed.options[1::2]))
    forced = options.get("--format")
    if (forced is not None and _foreign(forced, feed.family)) or _resized(options.get("--shape"), feed):
        return read is None or written == read
    expected = len(feed.cases)
    if (forced or detected) == "leetcode":
        spans = sum(1 for case in feed.cases[:-1] if case.text.count("[") > case.text.count("]"))
        return expected - spans <= written if written < expected else True
    return written == expected


def _resized(shape: str | None, feed: Feed) -> bool:
    """Whether a ``--shape`` names a board size other than the records' (or theirs is not
    known): lines then regroup as the shape says (a 16x16 grid under ``--shape 4x4`` is sixteen
    4x4 boards, a line each)."""
    if shape is None:
        return False
    try:
        size = Shape.parse(shape).size
    except ValueError:
        return False  # refused before reading
    sizes = {case.puzzle.size for case in feed.cases if case.puzzle is not None}
    return not sizes or sizes != {size}


def _foreign(forced: str, family: str) -> bool:
    """Whether forcing ``forced`` on records of ``family`` may regroup their lines: a format of
    blocks on anything but its own records (HoDoKu's grids are candidate grids), or a format of
    lines on blocks."""
    same = forced == family or (forced, family) == ("candidates", "hodoku")
    return not same and (forced in BLOCKS or family in BLOCKS)


def rules_broken(puzzle: Puzzle | None, board, values) -> list:
    """The record's rules (the known puzzle's own, else the board's) that ``values`` break."""
    if puzzle is not None:
        return broken_rules(puzzle.rules, in_puzzle_values(puzzle, board, values))
    return broken_rules(rules_of(board), values)


def answer_values(text: str, fmt: str, board) -> list[int] | None:
    """The values of an answer written in ``fmt`` for ``board``'s shape and alphabet (a
    one-candidate pencil mark counts as the value); None when it does not read."""

    fmt = "variant" if fmt == "layout" else fmt  # a layout's solution is written as a variant line
    try:
        answer = sudokit.Board.parse(text + "\n", format=fmt, shape=board.shape, symbols=board.symbols)
    except Exception:
        return None
    values = answer.cells.tolist()
    if answer.candidates is not None:
        for cell, mask in enumerate(answer.candidates.tolist()):
            if not values[cell] and mask and mask & (mask - 1) == 0:
                values[cell] = mask.bit_length()
    return values


def checked_values(text: str, fmt: str, board, puzzle: Puzzle | None, what: str, family: str, add) -> tuple[list[int] | None, list]:
    """The values of an answer (``answer_values``) and the record's rules they break, each
    reported as ``what``'s: a text that does not read back, then the first rule broken. None
    for the values where they do not read back."""
    values = answer_values(text, fmt, board)
    if values is None:
        add("read back", f"{family}: {what} does not read back as {fmt}: {text[:80]!r}")
        return None, []
    broken = rules_broken(puzzle, board, values)
    if broken:
        add("rules", f"{family}: {what} breaks {len(broken)} rule(s): {broken[0]}")
    return values, broken


def rules_of(board) -> Rules:
    """A board's rules as sudokit read them (for a record whose meaning a mutation changed)."""
    n = board.size
    marks = None
    if board.candidates is not None:
        marks = tuple(frozenset(v + 1 for v in range(n) if mask >> v & 1) for mask in board.candidates.tolist())
    return Rules(
        n, tuple(tuple(int(c) for c in house) for house in board.geometry.houses.tolist()), tuple(board.cells.tolist()),
        tuple((cage.total, tuple(cage.cells)) for cage in board.cages), marks,
    )  # fmt: skip


def in_puzzle_values(puzzle: Puzzle, board, values: Sequence[int]) -> list[int]:
    """Values of sudokit's reading of ``board`` renamed to the known puzzle's numbering (the
    same symbols; numbers where the record was written in numbers)."""
    symbols = board.symbols
    if all(char in puzzle.symbols for char in symbols):
        return [puzzle.symbols.index(symbols[v - 1]) + 1 if 1 <= v <= len(symbols) else v for v in values]
    return list(values)


def reference_count(rules: Rules, limit: int, box: tuple[int, int] | None = None) -> int | None:
    """Solutions up to ``limit`` by ``naive.py`` (classic boards to 6x6) or the brute force
    (any rules to 6x6); None for bigger boards or where the brute force gives up."""
    if rules.size > 6 or limit < 1:
        return None
    classic = box is not None and not rules.cages and rules.candidates is None and len(rules.houses) == 3 * rules.size
    if classic and tuple(rules.houses) == tuple(lines_and_boxes(rules.size, box)):
        return naive.count(list(rules.givens), box[0], box[1], limit)
    found = brute_force(rules, limit=limit, nodes=300_000)
    return None if found is None else len(found)


def reference_count_of(board, limit: int = 2) -> int | None:
    """:func:`reference_count` of a board as sudokit read it; a 9x9 board of boxes goes to
    ``naive.py`` too, its one-candidate pencil marks taken as givens, where every other cell
    keeps every candidate (a generated puzzle written as a Sukaku or candidate grid)."""
    rules, box = rules_of(board), box_of(board)
    found = reference_count(rules, limit, box)
    if found is not None or box != (3, 3) or rules.cages:
        return found
    givens = list(rules.givens)
    for cell, allowed in enumerate(rules.candidates or ()):
        if len(allowed) == 1:
            givens[cell] = next(iter(allowed))
        elif len(allowed) != 9 and not givens[cell]:
            return None
    return naive.count(givens, 3, 3, limit)


def meaning_of(board) -> list[frozenset[int]]:
    """Each cell's possible values as sudokit read them (see :meth:`Puzzle.meaning`)."""
    n = board.size
    every = frozenset(range(1, n + 1))
    marks = board.candidates.tolist() if board.candidates is not None else None
    return [
        frozenset([value]) if value else (frozenset(v + 1 for v in range(n) if marks[cell] >> v & 1) if marks else every)
        for cell, value in enumerate(board.cells.tolist())
    ]


def box_of(board) -> tuple[int, int] | None:
    geometry = board.geometry
    shape = board.shape
    return (shape.box_height, shape.box_width) if geometry.is_boxed(shape) and len(geometry.houses) == 3 * shape.size else None


# -- steps of the human side -------------------------------------------------------------------------

_RESULT = re.compile(r"((?:r\d+c\d+)(?:,r\d+c\d+)*)(<>|=)(\S+?)(?=,\s|$|\s)")


def step_claims(text: str, symbols: str) -> list[tuple[int, int, int, bool]]:
    """(row, column, value, placed) for each placement (True) and elimination (False) a step's
    line states (``Naked Pair: 3/7 in r5c1,r5c4 => r5c7<>3``; its result follows the last
    ``=>``, or the colon for a single)."""
    result = text.rsplit(" => ", 1)[1] if " => " in text else text.split(": ", 1)[-1]
    claims = []
    for cells, sign, values in _RESULT.findall(result.strip().rstrip(".")):
        for cell in cells.split(","):
            row, column = (int(x) for x in re.findall(r"\d+", cell))
            for symbol in values.split("/"):
                if symbol in symbols:
                    claims.append((row - 1, column - 1, symbols.index(symbol) + 1, sign == "="))
    return claims


def unsound(claims: Iterable[tuple[int, int, int, bool]], solution: Sequence[int], n: int) -> list[str]:
    """The claims that contradict the solution: a wrong value placed, the true one removed."""
    wrong = []
    for row, column, value, placed in claims:
        truth = solution[row * n + column]
        if placed and value != truth:
            wrong.append(f"r{row + 1}c{column + 1}={value} where the solution has {truth}")
        if not placed and value == truth:
            wrong.append(f"r{row + 1}c{column + 1}<>{value} removes the solution's value")
    return wrong


# -- the checks of a command's run ---------------------------------------------------------------


def check_run(run: Run, outcome: Outcome) -> list[Finding]:
    """Every invariant ``run`` broke, judged from its outcome alone."""
    found: list[Finding] = []
    size = len(run.feed.data) if run.feed else 0

    def add(kind: str, detail: str) -> None:
        found.append(Finding(run.command, kind, detail, run.shell(), size))

    if outcome.hung:
        if run.budget is not None:
            add("budget", f"no answer {run.deadline:g} s into a run whose time budget is {run.budget:g} s")
        else:
            add("slow", f"no answer within {NO_BUDGET:g} s (no time budget asked)")
        return found
    if outcome.error:
        add("exit 70", _last_line(outcome.error))
        return found
    if outcome.exit_code not in EXITS:
        add("exit status", f"exit {outcome.exit_code}: {outcome.stderr.strip()[-200:]}")
    if "Traceback" in outcome.stderr or "internal error" in outcome.stderr:
        add("traceback", outcome.stderr.strip().splitlines()[-1][:200])
    if run.budget is not None and outcome.elapsed > run.budget + BUDGET_SLACK + MEASURE_SLACK:
        add("budget", f"{outcome.elapsed:.2f} s for a time budget of {run.budget:g} s")
    if run.command == "generate":
        _check_generated(run, outcome, add)
        return found
    assert run.feed is not None
    if outcome.exit_code == 2 and not outcome.stdout.strip():
        return found  # options refused as a whole (a usage error): nothing was read
    family = run.feed.family
    try:
        read = read_feed(run.feed)
    except Exception:  # the command itself read it: what reading raises shows in its outcome
        read = None
    detected = read[0].format if read else None
    outs = output_records(run, outcome.stdout, detected)
    if not records_match(run.feed, len(outs), detected, len(read) if read is not None else None):
        add("records", f"{family}: {len(run.feed.cases)} record(s) in, {len(outs)} out")
        return found
    if len(outs) != len(run.feed.cases):
        return found
    boards = [record.board for record in read] if read is not None and len(read) == len(run.feed.cases) else None
    fmt = output_format(run, detected)
    statuses: list[str | None] = []
    for index, (case, text) in enumerate(zip(run.feed.cases, outs)):
        board = boards[index] if boards else None
        said = _messages(outcome.stderr, read[index].line, case) if boards else []
        statuses.append(_check_record(run, index, case, text, board, fmt, said, add))
    located = len(re.findall(r"^<stdin>:\d+:\d+: ", outcome.stderr, re.M))
    if statuses.count("error") > located:
        add("message", f"{family}: {statuses.count('error')} record(s) refused, {located} message(s) naming line and column")
    expected = _expected_exit(run, statuses)
    if expected is not None and outcome.exit_code in EXITS and outcome.exit_code != expected:
        add("exit status", f"exit {outcome.exit_code} where the records ({', '.join(statuses)}) make {expected}")
    return found


def _expected_exit(run: Run, statuses: list[str | None]) -> int | None:
    """The exit status the records' statuses make (``sudokit.results.exit_code``'s rule)."""
    if run.command == "explain" and run.option("--scale") == "se":
        return None  # an unknown SE path prints no word of its own to count
    if None in statuses:
        return None  # a record whose status the output alone does not say
    if "error" in statuses:
        return 2
    counting = run.command in ("count", "diagnose", "estimate") or (run.command == "batch" and int(run.option("--limit", "1")) > 2)
    if not counting and ("no solution" in statuses or "several" in statuses):
        return 1
    return 3 if "unknown" in statuses else 0


def _budgeted(run: Run) -> bool:
    return any(run.option(name) is not None for name in ("--time-limit", "--node-limit", "--potential-limit"))


def _intact(run: Run, case: Case) -> Puzzle | None:
    """The puzzle a record still means: its text is intact, the options keep its meaning, and
    the stream's format is still its own (detected from the first record, or given)."""
    feed = run.feed
    if case.puzzle is None or feed is None or not feed.options_keep:
        return None
    return case.puzzle if feed.cases[0].puzzle is not None or "--format" in feed.options else None


def _solution_of(puzzle: Puzzle | None, board) -> tuple[list[int] | None, str]:
    """The one solution a record has, in sudokit's numbering of ``board``, and its alphabet:
    the data's where the record is known, else the brute force's on small boards."""
    if puzzle is not None:
        if puzzle.count != 1 or puzzle.solution is None:
            return None, puzzle.symbols
        return list(puzzle.solution), puzzle.symbols
    if board is None or board.size > 6:
        return None, ""
    found = brute_force(rules_of(board), limit=2)
    return (list(found[0]), board.symbols) if found is not None and len(found) == 1 else (None, board.symbols)


#: families whose boards are pencil marks (a candidate grid's open cells are marks too)
MARKED = ("sukaku", "candidates", "hodoku")


def _takes(command: str, puzzle: Puzzle, family: str, scale: str | None = None) -> bool:
    """Whether a command (or endpoint) must answer a known puzzle rather than refuse it."""
    classic = puzzle.classic and family not in MARKED
    if command in ("solve", "count", "batch", "parse") or command in SETTERS:
        return True
    if command == "hint" or (command == "explain" and scale != "se"):
        return puzzle.marks_only
    if command in ("rate", "explain"):
        return classic and (scale != "se" or puzzle.size == 9)
    if command in ("canon", "canonical"):
        return classic and puzzle.size == 9 and not _givens_clash(puzzle.rules)
    if command == "shuffle":
        return classic
    return False


def _givens_clash(rules: Rules) -> bool:
    for house in rules.houses:
        values = [rules.givens[c] for c in house if rules.givens[c]]
        if len(values) != len(set(values)):
            return True
    return False


def _messages(stderr: str, line: int, case: Case) -> list[str]:
    """What stderr says about the record that starts on ``line``."""
    last = line + case.text.count("\n")
    return [message for number, message in re.findall(r"^<stdin>:(\d+):\d+: (.*)$", stderr, re.M) if line <= int(number) <= last]


def _check_marker(run: Run, case: Case, puzzle: Puzzle | None, status: str, board, said: list[str], add) -> str:
    """A record answered by a marker (``error``, ``no solution``, ``several solutions``,
    ``unknown``): against the known puzzle, the budget, and the reference on small boards."""
    family = case.family
    if puzzle is not None:
        # a --keep that names a cell off the board refuses the record: the option's fault, not the record's
        keep = any(message.startswith("--keep") for message in said)
        if status == "error" and _takes(run.command, puzzle, family, run.option("--scale")) and not keep:
            add("answer", f"{family}: {puzzle.name} refused: {said[0] if said else '(no message)'}")
    if status == "unknown" and not _budgeted(run):
        add("answer", f"{family}: unknown with no budget given")
    if status in ("no solution", "several"):
        _check_claim(status, puzzle, board, family, add)
    return status

def _check_record(run: Run, index: int, case: Case, text: str, board, fmt: str, said: list[str], add) -> str | None:
    """Check one output record against its input record; its status."""
    command, family = run.command, case.family
    puzzle = _intact(run, case)
    if command == "batch":
        return _check_batch_record(run, index, case, text, board, add)
    status = marker_of(text)
    if command in SETTERS and status != "error":
        return _check_setter(run, case, puzzle, text, board, fmt, said, add)
    if status is not None:
        return _check_marker(run, case, puzzle, status, board, said, add)
    if command == "solve":
        _check_solution(run, case, puzzle, text, board, fmt, add)
    elif command == "count":
        _check_count(run, case, puzzle, text, board, add)
    elif command in ("hint", "explain"):
        if puzzle is not None and puzzle.count is not None and puzzle.count != 1:
            add("answer", f"{family}: a {command} for {puzzle.name}, which has {puzzle.count} solutions")
        solution, symbols = _solution_of(puzzle, board)
        if solution is not None:
            lines = [text] if command == "hint" else [m for m in re.findall(r"^\d+\. (.*)$", text, re.M)]
            for line in lines:
                wrong = unsound(step_claims(line, symbols), solution, len(solution) and math.isqrt(len(solution)))
                if wrong:
                    add("step", f"{family}: {line.split(':')[0]}: {wrong[0]}")
                    break
        if command == "explain" and run.option("--scale") == "se" and ">=" in text.split("\n")[-1]:
            return "unknown"
    elif command == "rate":
        if puzzle is not None and puzzle.count is not None and puzzle.count != 1:
            add("answer", f"{family}: a rating for {puzzle.name}, which has {puzzle.count} solutions")
        if " >=" in text or text.endswith("\tunknown") or '"status": "unknown"' in text:
            return "unknown"
    elif command == "shuffle" and board is not None:
        values = answer_values(text, fmt, board)
        if values is None:
            add("read back", f"{family}: the shuffled board does not read back as {fmt}: {text[:80]!r}")
        elif sum(1 for v in values if v) != board.givens:
            add("answer", f"{family}: {board.givens} givens in, {sum(1 for v in values if v)} out")
    return "solved"


def _check_solution(run: Run, case: Case, puzzle: Puzzle | None, text: str, board, fmt: str, add) -> None:
    family = case.family
    if board is None:
        return  # sudokit's reader disagrees with the run's; a reading difference shows elsewhere
    values, _ = checked_values(text, fmt, board, puzzle, "the solution", family, add)
    if values is None:
        return
    if puzzle is not None and run.flag("--unique") and puzzle.count is not None and puzzle.count >= 2:
        add("answer", f"{family}: {puzzle.name} has {puzzle.count} solutions, solved under --unique")


def _check_count(run: Run, case: Case, puzzle: Puzzle | None, text: str, board, add) -> None:
    family = case.family
    try:
        number = int(text)
    except ValueError:
        add("read back", f"{family}: count printed {text[:80]!r}")
        return
    limit = int(run.option("--limit", "1000000"))
    if puzzle is not None:
        if puzzle.count is not None and number != min(puzzle.count, limit):
            add("answer", f"{family}: count {number} for {puzzle.name}, which has {puzzle.count} (limit {limit})")
        elif puzzle.solvable and number == 0:
            add("answer", f"{family}: count 0 for {puzzle.name}, which has a solution")
    elif board is not None:
        cap = min(limit, 50)
        reference = reference_count(rules_of(board), cap, box_of(board))
        if reference is not None and min(number, cap) != reference:
            add("answer", f"{family}: count {number} where the reference counts {reference} (to {cap})")


def _check_batch_record(run: Run, index: int, case: Case, text: str, board, add) -> str:
    family = case.family
    try:
        record = json.loads(text)
    except ValueError:
        add("read back", f"{family}: record {index} is not JSON: {text[:80]!r}")
        return "error"
    if record.get("index") != index:
        add("records", f"{family}: record {index} comes with index {record.get('index')}")
    status = record.get("status")
    if status not in ("solved", "no solution", "several", "unknown", "error"):
        add("read back", f"{family}: record {index} has status {status!r}")
        return "error"
    status = str(status)
    puzzle = _intact(run, case)
    limit = int(run.option("--limit", "1"))
    if status == "error":
        if not re.match(r"\d+:\d+: ", str(record.get("error", ""))):
            add("message", f"{family}: record {index} refused without line and column: {record.get('error')!r:.80}")
        if puzzle is not None:
            add("answer", f"{family}: {puzzle.name} refused: {record.get('error')!r:.120}")
        return status
    solution = record.get("solution")
    if solution and board is not None:
        checked_values(solution, "line", board, puzzle, f"the solution of record {index}", family, add)
    if status == "unknown" and not _budgeted(run):
        add("answer", f"{family}: unknown with no budget given")
    if puzzle is not None and status != "unknown":
        if status == "no solution" and puzzle.solvable:
            add("answer", f"{family}: 'no solution' for {puzzle.name}, which has one")
        if puzzle.count is not None and limit >= 2 and record.get("count") != min(puzzle.count, limit):
            add("answer", f"{family}: count {record.get('count')} for {puzzle.name}, which has {puzzle.count} (limit {limit})")
    return status


def _check_generated(run: Run, outcome: Outcome, add) -> None:
    """A generated puzzle reads back as itself, with one solution and within its clue count,
    by default and under the same ``--shape``; as many as asked."""

    if outcome.exit_code != 0:
        return
    fmt = run.option("--to", "line")
    texts = split_blocks(outcome.stdout) if fmt in ("grid", "ints", "pretty", "candidates") else split_lines(outcome.stdout)
    asked = int(run.option("-n", "1"))
    if asked and len(texts) != asked:
        add("records", f"--to {fmt}: {asked} puzzle(s) asked, {len(texts)} written")
    spelled = run.option("--shape", "9x9")
    try:
        same = Shape.parse(spelled)
    except ValueError as error:
        same = None
        add("read back", f"--shape {spelled} makes puzzles that the readers' --shape {spelled} refuses: {error}")
    clues = run.option("--clues")
    # boxes other than a size's usual ones do not show in most formats: the command says to
    # read them back with the same --shape, and only that reading must hold
    warned = "read them back with --shape" in outcome.stderr
    for text in texts[:2]:
        for shape in ((same,) if warned else (None, same)) if same is not None else (None,):
            try:  # as any file is read: the format detected
                records = sudokit.read_text(text + "\n", shape=shape)
            except Exception as error:
                add("read back", f"--to {fmt}: a puzzle does not read back ({error})")
                continue
            if len(records) != 1 or records[0].board is None:
                why = records[0].error if records and records[0].error else f"{len(records)} records"
                add("read back", f"--to {fmt} --shape {spelled}: a puzzle does not read back{' under --shape' if shape else ''}: {why}")
                continue
            board = records[0].board
            if clues is not None and board.givens > int(clues):
                add("answer", f"--clues {clues}: a puzzle with {board.givens} givens")
            reference = reference_count_of(board)
            if reference is not None and reference != 1:
                reading = "read with --shape " + spelled if shape else "read back as it is"
                add("read back", f"--shape {spelled} --to {fmt}: {reference} solution(s) {reading} ({board.shape.name})")


# -- the checks of the setters' commands (diagnose, estimate, make-unique, reduce, maximize, minimize) --

#: sudokit's own count, within this budget, where the reference cannot say whether a board made
#: unique is unique (boards past 6x6): a claim of uniqueness checked by counting to 2
CHECK_NODES, CHECK_SECONDS = 200_000, 2.0
#: a line of ``maximize`` or ``minimize`` whose budget ran out: the best found and the bound
_UNKNOWN_OPTIMUM = re.compile(r"unknown \(budget exhausted\): best (-?\d+|none), bound (-?\d+|none)")
#: the line of an estimate whose time ran out inside its first probe
_UNKNOWN_ESTIMATE = "unknown: no sample finished within the time limit"
#: a line of ``estimate``
_ESTIMATE = re.compile(r"about (\S+) solutions \(95%: (\S+) to (no bound|\S+); ([\d,]+) samples?, ([\d,]+) reached a solution\)")


def _cell(n: int, cell: int) -> str:
    return f"r{cell // n + 1}c{cell % n + 1}"


def opened(rules: Rules, givens: Sequence[int]) -> Rules:
    """``rules`` with other givens; a cell whose given is taken out opens to every value (as
    the setters' commands rebuild a board)."""
    marks = rules.candidates
    if marks is not None:
        every = frozenset(range(1, rules.size + 1))
        marks = tuple(every if rules.givens[c] and not givens[c] else allowed for c, allowed in enumerate(marks))
    return replace(rules, givens=tuple(givens), candidates=marks)


def _solutions_without(rules: Rules, cell: int) -> list | None:
    """The reference's solutions, up to 2, of ``rules`` with the given at ``cell`` taken out (a
    given that could go leaves one); None where it gives up."""
    return brute_force(opened(rules, [0 if c == cell else v for c, v in enumerate(rules.givens)]), limit=2, nodes=300_000)


def board_with(board, givens: Sequence[int]):
    """``board`` (sudokit's) with other givens, its rules kept, as :func:`opened` says."""
    values = np.asarray(givens, dtype=np.int64)
    marks = None
    if board.candidates is not None:
        marks = board.candidates.copy()
        marks[(board.cells != 0) & (values == 0)] = np.uint64((1 << board.size) - 1)
    return sudokit.Board(values, board.shape, board.symbols, geometry=board.geometry, cages=board.cages, candidates=marks)


def count_to_two(board) -> tuple[int | None, list[int] | None]:
    """How many solutions a board (sudokit's) has, up to 2, and the one where it has one: the
    brute force's on boards up to 6x6, else ``sudokit.count``'s within a small budget (for a
    claim of uniqueness, whose solution is then checked here against the record's rules);
    (None, None) where neither knows."""
    if board.size <= 6:
        found = brute_force(rules_of(board), limit=2, nodes=300_000)
        if found is None:
            return None, None
        return len(found), list(found[0]) if len(found) == 1 else None
    try:
        result = sudokit.count(board, 2, node_limit=CHECK_NODES, time_limit=CHECK_SECONDS)
    except Exception:  # what the command read and answered, the checker cannot count: no check
        return None, None
    if not result.count_known:
        return None, None
    return result.count, result.board.cells.tolist() if result.count == 1 and result.board is not None else None


def in_board_values(puzzle: Puzzle, board, values: Sequence[int]) -> list[int]:
    """The known puzzle's values in sudokit's numbering of ``board`` (:func:`in_puzzle_values` backwards)."""
    symbols = board.symbols
    if all(char in puzzle.symbols for char in symbols):
        return [symbols.index(puzzle.symbols[v - 1]) + 1 if 1 <= v <= len(puzzle.symbols) and puzzle.symbols[v - 1] in symbols
                else v for v in values]  # fmt: skip
    return list(values)


def target_score(values: Sequence[int], n: int) -> int:
    """A completion's score under the ``target`` weights (seed 003's rings: 6 on the rim, one
    more per ring inwards), in sudokit's numbering of the values."""
    ring = [min(i, n - 1 - i) for i in range(n)]
    return sum((6 + min(ring[cell // n], ring[cell % n])) * value for cell, value in enumerate(values))


def _check_claim(status: str, puzzle: Puzzle | None, board, family: str, add) -> None:
    """A claim of how many solutions a board has (``no solution``, ``solved``: exactly one,
    ``several``) against the known puzzle's count, or the reference's on small boards."""
    claimed = {"no solution": 0, "solved": 1, "several": 2}[status]
    if puzzle is not None:
        known = min(puzzle.count, 2) if puzzle.count is not None else None
        if (known is not None and known != claimed) or (claimed == 0 and puzzle.solvable):
            has = f"{puzzle.count} solution(s)" if puzzle.count is not None else "a solution"
            add("answer", f"{family}: '{status}' for {puzzle.name}, which has {has}")
    elif board is not None:
        reference = reference_count(rules_of(board), 2, box_of(board))
        if reference is not None and reference != claimed:
            add("answer", f"{family}: '{status}' where the reference counts {reference} solution(s) (to 2)")


def _check_setter(run: Run, case: Case, puzzle: Puzzle | None, text: str, board, fmt: str, said: list[str], add) -> str | None:
    """One record of a setters' command (any but an ``error`` marker); its status as the
    command's tally counts it (None where the output alone does not say)."""
    command, family = run.command, case.family
    if command == "diagnose":
        data = diagnosis_of(text, board)
        if data is None:
            add("read back", f"{family}: diagnose printed {text[:80]!r}")
            return "error"
        return check_diagnosis(data, puzzle, board, family, add, _budgeted(run))
    if command == "estimate":
        data = estimate_of(text)
        if data is None:
            add("read back", f"{family}: estimate printed {text[:80]!r}")
            return "error"
        samples = run.option("--samples", "10000")
        return check_estimate(data, int(samples) if samples and samples.isdigit() else 0, run.option("--time-limit") is not None,
                              puzzle, board, family, add)  # fmt: skip
    if command in ("make-unique", "reduce"):
        return _check_clues(run, case, puzzle, text, board, fmt, said, add)
    return _check_optimum(run, case, puzzle, text, board, fmt, said, add)


def _json_object(text: str) -> dict | None:
    """``--to json``'s object; None where the text is no JSON object."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def diagnosis_of(text: str, board) -> dict | None:
    """A diagnosis as data: ``--to json``'s object, or its line for a person read back (status,
    proven, the core, the cells and the solutions of ``several``, the givens that could go;
    cells where ``board``, sudokit's reading of the record, says the size); None if neither."""
    if text.startswith("{"):
        return _json_object(text)
    n = board.size if board is not None else 0
    cells = lambda part: [(int(r) - 1) * n + int(c) - 1 for r, c in re.findall(r"r(\d+)c(\d+)", part)] if n else None  # noqa: E731
    head = text.split(" | ")[0]
    if text.startswith("no solution: core of "):
        return {"status": "no solution", "proven": "(minimal)" in head, "core": cells(head)}
    if text.startswith("several solutions: two differ in "):
        parts = text.split(" | ")
        return {"status": "several", "proven": True, "differing": cells(head), "solutions": parts[1:]}
    if text.startswith("unique"):
        redundant = cells(text.split("could go alone", 1)[1]) if "could go alone" in text else []
        return {"status": "solved", "proven": "budget ran out" not in text, "redundant": redundant}
    if text == "unknown (budget exhausted)":
        return {"status": "unknown", "proven": False}
    return None


def check_diagnosis(data: dict, puzzle: Puzzle | None, board, family: str, add, budgeted: bool = True) -> str:
    """A diagnosis against its record: the status against the count (known, or the reference's
    on small boards), its solutions against the rules, the cells where two differ, and on small
    boards its core (no solution without the other givens, each of its own needed where it
    says minimal) and the givens it says could go. Its status as the command's tally counts
    it: unknown where not proven."""
    status = data.get("status")
    if status not in ("no solution", "several", "solved", "unknown"):
        add("read back", f"{family}: a diagnosis with status {status!r}")
        return "error"
    if status == "unknown":
        if not budgeted:
            add("answer", f"{family}: unknown with no budget given")
        return "unknown"
    settled = status if data.get("proven", True) else "unknown"
    _check_claim(status, puzzle, board, family, add)
    if board is None:
        return settled
    n = board.size
    solutions = []
    for line in data.get("solutions") or []:
        values, _ = checked_values(str(line), "line", board, puzzle, "a solution of the diagnosis", family, add)
        if values is None:
            return settled
        solutions.append(values)
    wanted = {"several": 2, "solved": 1}.get(status, 0)
    if (status == "several" or "solutions" in data) and len(solutions) != wanted:
        add("answer", f"{family}: '{status}' with {len(solutions)} solution(s) shown")
    if status == "several" and len(solutions) == 2:
        differ = [cell for cell in range(n * n) if solutions[0][cell] != solutions[1][cell]]
        if not differ:
            add("answer", f"{family}: 'several' with the same solution twice")
        elif data.get("differing") is not None and sorted(data["differing"]) != differ:
            add("answer", f"{family}: the two solutions differ in {len(differ)} cells, the diagnosis names {len(data['differing'])}")
    if (status == "solved" and solutions and puzzle is not None and puzzle.solution is not None
            and in_puzzle_values(puzzle, board, solutions[0]) != list(puzzle.solution)):
        add("answer", f"{family}: the solution shown for {puzzle.name} is not its one solution")
    whole = rules_of(board)
    givens = [cell for cell, value in enumerate(whole.givens) if value]
    core = data.get("core")
    if status == "no solution" and isinstance(core, list):
        if not set(core) <= set(givens):
            add("answer", f"{family}: the core holds cells that are no givens: {[c for c in core if c not in givens][:5]}")
        elif n <= 6:
            alone = lambda cells: opened(whole, [v if c in cells else 0 for c, v in enumerate(whole.givens)])  # noqa: E731
            found = brute_force(alone(set(core)), limit=1, nodes=300_000)
            if found:
                add("answer", f"{family}: the core of {len(core)} givens has a solution")
            elif found == [] and data.get("proven") and len(core) <= 16:
                for cell in core:
                    if brute_force(alone(set(core) - {cell}), limit=1, nodes=300_000) == []:
                        add("answer", f"{family}: the core is said minimal, yet without {_cell(n, cell)} it has no solution still")
                        break
    redundant = data.get("redundant")
    if status == "solved" and isinstance(redundant, list):
        if not set(redundant) <= set(givens):
            add("answer", f"{family}: givens that could go, says the diagnosis, but some are no givens: {redundant[:5]}")
        elif n <= 6:
            for cell in redundant[:4]:
                found = _solutions_without(whole, cell)
                if found is not None and len(found) != 1:
                    add("answer", f"{family}: {_cell(n, cell)} could go, says the diagnosis, but without it the board has {len(found)} solution(s)")
                    break
            if not redundant and data.get("proven"):
                for cell in givens[:12]:
                    found = _solutions_without(whole, cell)
                    if found is not None and len(found) == 1:
                        add("answer", f"{family}: minimal, says the diagnosis, but {_cell(n, cell)} could go")
                        break
    return settled


def check_added(answer: dict, board, family: str, add) -> None:
    """``/api/diagnose``'s ``add`` for several solutions: the first solution's values at those
    cells (open ones) make the board unique, with that solution."""
    cells = answer.get("add")
    solutions = answer.get("solutions") or []
    if answer.get("status") != "several" or not isinstance(cells, list) or not solutions:
        return
    first = answer_values(str(solutions[0]), "line", board)
    if first is None:
        return  # said by check_diagnosis
    values = board.cells.tolist()
    if any(not isinstance(cell, int) or not 0 <= cell < len(values) or values[cell] for cell in cells):
        add("answer", f"{family}: cells to add that are no open cells: {cells[:5]}")
        return
    for cell in cells:
        values[cell] = first[cell]
    count, solution = count_to_two(board_with(board, values))
    if count is not None and count != 1:
        add("answer", f"{family}: the {len(cells)} givens to add leave {count if count < 2 else 'several'} solution(s)")
    elif solution is not None and solution != first:
        add("answer", f"{family}: the {len(cells)} givens to add make another solution than the first one shown")


def _keep_cells(run: Run, n: int) -> list[int]:
    """The cells of the run's ``--keep`` on a board of size ``n`` (0-based)."""
    cells = []
    for part in (run.option("--keep") or "").replace(" ", "").split(","):
        match = re.fullmatch(r"r(\d+)c(\d+)|(\d+)", part, re.IGNORECASE)
        if match and match[3]:
            cells.append(int(match[3]))
        elif match:
            cells.append((int(match[1]) - 1) * n + int(match[2]) - 1)
    return cells


def _check_clues(run: Run, case: Case, puzzle: Puzzle | None, text: str, board, fmt: str, said: list[str], add) -> str | None:
    """``make-unique`` or ``reduce``: the board it wrote (in the record's format, or a JSON
    line) keeps the record's rules, changes only what the command may (givens added from a
    value the cell may hold; givens taken out, never a kept one), and is unique, its solution
    a solution of the record; ``reduce``'s, said minimal, can lose no given on small boards."""
    command, family = run.command, case.family
    status = marker_of(text)
    data = None
    if status is None and run.option("--to") == "json":
        data = _json_object(text)
        if data is None or data.get("status") not in ("solved", "no solution", "several", "unknown"):
            add("read back", f"{family}: {command} printed {text[:80]!r}")
            return "error"
        status = None if data.get("board") is not None else str(data["status"])
    if status is not None:
        return _check_marker(run, case, puzzle, status, board, said, add)
    proven = data.get("proven") if data is not None else (not any("budget ran out" in m for m in said) if said else None)
    settled = None if proven is None else "solved" if proven else "unknown"
    if board is None:
        return settled
    try:
        if data is not None and isinstance(data["board"], dict):  # where a line would lose marks or rules
            out = sudokit.Board.parse(json.dumps(data["board"]) + "\n", format="json", symbols=board.symbols)
        elif data is not None:
            line = sudokit.Board.parse(str(data["board"]) + "\n", format="line", shape=board.shape, symbols=board.symbols)
            out = board_with(board, line.cells.tolist())
        else:
            out = sudokit.Board.parse(text + "\n", format="variant" if fmt == "layout" else fmt, shape=board.shape, symbols=board.symbols)
    except Exception:
        add("read back", f"{family}: the board {command} made does not read back as {'a line' if data else fmt}: {text[:80]!r}")
        return settled
    n = board.size
    before, after = rules_of(board), rules_of(out)
    if (n != out.size or {frozenset(h) for h in before.houses} != {frozenset(h) for h in after.houses}
            or {(t, frozenset(c)) for t, c in before.cages} != {(t, frozenset(c)) for t, c in after.cages}):
        add("read back", f"{family}: the board {command} made comes back with other rules")
        return settled
    if puzzle is not None and (puzzle.count == 0 or (command == "reduce" and puzzle.count is not None and puzzle.count >= 2)):
        add("answer", f"{family}: a board for {puzzle.name}, which has {puzzle.count} solutions")
    was, now = meaning_of(board), meaning_of(out)
    changed = [cell for cell in range(n * n) if was[cell] != now[cell]]
    every = frozenset(range(1, n + 1))
    if command == "make-unique":
        wrong = [cell for cell in changed if not (len(now[cell]) == 1 and now[cell] <= was[cell])]
        if puzzle is not None and puzzle.count == 1 and changed and proven:
            add("answer", f"{family}: {len(changed)} given(s) added to {puzzle.name}, which has one solution already")
        named = data.get("added") if data is not None else None
    else:
        wrong = [cell for cell in changed if not (before.givens[cell] and now[cell] == every)]
        named = data.get("removed") if data is not None else None
    if wrong:
        add("answer", f"{family}: {command} changed {_cell(n, wrong[0])} from {sorted(was[wrong[0]])} to {sorted(now[wrong[0]])}")
    if named is not None and sorted(named) != changed:
        add("answer", f"{family}: {len(changed)} cell(s) changed, the answer names {len(named)}")
    if data is not None and command == "make-unique" and data.get("proven") and data.get("bound") != len(changed):
        add("answer", f"{family}: {len(changed)} given(s) added, proven fewest, with a bound of {data.get('bound')}")
    kept = [cell for cell in _keep_cells(run, n) if cell in changed]
    if kept:
        add("answer", f"{family}: --keep {run.option('--keep')}, yet {_cell(n, kept[0])} changed")
    count, solution = count_to_two(out)
    if count is not None and count != 1:
        add("answer", f"{family}: the board {command} made has {count if count < 2 else 'several'} solution(s)")
    if solution is not None:
        broken = rules_broken(puzzle, board, solution)
        if broken:
            add("rules", f"{family}: the solution of the board {command} made breaks {len(broken)} rule(s) of the record: {broken[0]}")
    if command == "reduce" and proven and count == 1 and n <= 6:
        keep = set(_keep_cells(run, n))
        for cell in [c for c, v in enumerate(after.givens) if v and c not in keep][:12]:
            found = _solutions_without(after, cell)
            if found is not None and len(found) == 1:
                add("answer", f"{family}: minimal, says reduce, but {_cell(n, cell)} could go too")
                break
    return settled


def _check_optimum(run: Run, case: Case, puzzle: Puzzle | None, text: str, board, fmt: str, said: list[str], add) -> str:
    """``maximize`` or ``minimize``: a score (or -1, or a budget's best and bound) that the known
    puzzle's one solution, or every solution on small boards, makes; under ``--board`` a
    completion that keeps the record's rules and makes the score printed."""
    command, family = run.command, case.family
    head, _, shown = text.partition("\n")
    target = run.option("--weights", "target") == "target"
    best = None
    status = "no solution" if head == "-1" and target else marker_of(head)
    if status == "unknown":
        match = _UNKNOWN_OPTIMUM.fullmatch(head)
        if match is None:
            add("read back", f"{family}: {command} printed {head[:80]!r}")
        else:
            best, bound = (None if word == "none" else int(word) for word in match.groups())
            if best is not None and bound is not None and (best > bound if command == "maximize" else best < bound):
                add("answer", f"{family}: best {best} past its own bound {bound}")
    if status is not None:
        _check_marker(run, case, puzzle, status, board, said, add)
        if status != "unknown":
            return status
    elif re.fullmatch(r"-?\d+", head):
        best, status = int(head), "solved"
    else:
        add("read back", f"{family}: {command} printed {head[:80]!r}")
        return "error"
    if board is None or not target:
        return status
    n = board.size
    if shown:
        values, broken = checked_values(shown, fmt, board, puzzle, "the board shown", family, add)
        if values is not None and not broken and best is not None and target_score(values, n) != best:
            add("answer", f"{family}: the board shown scores {target_score(values, n)}, not the {best} printed")
    if status != "solved":
        return status
    if puzzle is not None and puzzle.count == 0:
        add("answer", f"{family}: a score for {puzzle.name}, which has no solution")
    elif puzzle is not None and puzzle.count == 1 and puzzle.solution is not None:
        right = target_score(in_board_values(puzzle, board, puzzle.solution), n)
        if right != best:
            add("answer", f"{family}: {command} {best} for {puzzle.name}, whose one solution scores {right}")
    elif n <= 6:
        found = brute_force(rules_of(board), limit=500, nodes=300_000)
        if found is not None and len(found) < 500:
            scores = [target_score(grid, n) for grid in found]
            right = (max if command == "maximize" else min)(scores) if scores else None
            if right != best:
                add("answer", f"{family}: {command} {best} where the reference's {len(found)} solution(s) give {right}")
    return status


def estimate_of(text: str) -> dict | None:
    """An estimate as data: ``--to json``'s object, or its line for a person read back."""
    if text.startswith("{"):
        return _json_object(text)
    if text == _UNKNOWN_ESTIMATE:
        return {"value": None, "low": 0.0, "high": None, "samples": 0, "hits": 0}
    match = _ESTIMATE.fullmatch(text)
    if match is None:
        return None
    number = lambda word: math.inf if word == "no bound" else float(word.replace(",", ""))  # noqa: E731
    return {"value": number(match[1]), "low": number(match[2]), "high": number(match[3]), "rounded": True,
            "samples": int(match[4].replace(",", "")), "hits": int(match[5].replace(",", ""))}  # fmt: skip


def check_estimate(data: dict, asked: int, limited: bool, puzzle: Puzzle | None, board, family: str, add) -> str:
    """An estimate: as many samples as asked (fewer only under a time limit), no more hits than
    samples, a value of 0 exactly when no probe reached a solution, ``low <= value <= high``,
    and no hit on a board without solution (known, or the reference's on small boards). An
    interval that leaves out a count known here is "doubtful": reported, not broken. Its status:
    "unknown" where no sample was drawn (the time ran out inside the first probe), else "solved"."""
    if data.get("samples") == 0 and data.get("value") is None:
        if not limited:
            add("answer", f"{family}: no sample drawn, with no time limit")
        if data.get("hits") != 0 or data.get("low") != 0 or data.get("high") is not None:
            add("answer", f"{family}: an estimate of no sample says more than 'unknown': {str(data)[:120]}")
        if "status" in data and data["status"] != "unknown":
            add("answer", f"{family}: an estimate of no sample has status {data['status']!r}")
        return "unknown"
    value, low, high = (data.get(key, math.inf) for key in ("value", "low", "high"))
    value, low, high = (math.inf if x is None else x for x in (value, low, high))  # JSON: null past a float's range
    samples, hits = data.get("samples"), data.get("hits")
    if not all(isinstance(x, (int, float)) for x in (value, low, high)) or not isinstance(samples, int) or not isinstance(hits, int):
        add("read back", f"{family}: an estimate without its numbers: {str(data)[:120]}")
        return
    if asked and (samples > asked or (samples < asked and not limited)):
        add("answer", f"{family}: {samples} samples drawn where {asked} were asked")
    if not 0 <= hits <= samples:
        add("answer", f"{family}: {hits} of {samples} probes reached a solution")
    if (value == 0) != (hits == 0) and not (hits and data.get("rounded")):  # a person reads 0.3 as "about 0"
        add("answer", f"{family}: about {value:g} solutions from {hits} probes that reached one")
    if not low <= value <= high:
        add("answer", f"{family}: about {value:g} solutions, outside its own interval {low:g} to {high:g}")
    known = None
    if puzzle is not None:
        known = puzzle.count if puzzle.count is not None else (0 if puzzle.solvable is False else None)
        least = 1 if puzzle.solvable else known
        name = puzzle.name
    elif board is not None:
        reference = reference_count(rules_of(board), 50, box_of(board))
        known = reference if reference is not None and reference < 50 else None
        least, name = (known if known is not None else reference), "the board"
    else:
        least, name = None, "the board"
    if known == 0 and hits:
        add("answer", f"{family}: {hits} probes reached a solution of {name}, which has none")
    elif known is not None and known and not low <= known <= high:
        add("doubtful", f"{family}: the 95% interval {low:g} to {high:g} leaves out the {known} solution(s) of {name} ({hits} of {samples} probes reached one)")
    elif known is None and least and high < least:
        add("doubtful", f"{family}: the 95% interval {low:g} to {high:g} leaves out the {least}+ solution(s) of {name} ({hits} of {samples} probes reached one)")
    return "solved"


# -- the checks of an answer of the API --------------------------------------------------

def _request_board(request: Request):
    """The board a request's puzzle field holds, read as the API reads it; None otherwise."""

    fields = request.fields
    try:
        shape = fields.get("shape")
        shape = Shape.parse(str(shape)) if shape is not None else None
        records = sudokit.read_text(fields["puzzle"], format=fields.get("format"), shape=shape, symbols=fields.get("symbols"))
    except Exception:
        return None
    return records[0].board if len(records) == 1 else None


def check_request(request: Request, outcome: Outcome) -> list[Finding]:
    """Every invariant an answer of the API broke."""
    found: list[Finding] = []
    where = f"/api/{request.endpoint}"

    def add(kind: str, detail: str) -> None:
        found.append(Finding(where, kind, detail, request.shell(), len(request.body)))

    if outcome.hung:
        add("budget", f"no answer {request.deadline:g} s into a request whose time budget is {request.budget:g} s")
        return found
    if outcome.status == 500 or outcome.error:
        add("500", outcome.body[:160] if not outcome.error else _last_line(outcome.error))
        return found
    if outcome.status not in (200, 400, 404, 405, 413, 422, 503):
        add("500", f"status {outcome.status}: {outcome.body[:160]}")
    if "Traceback" in outcome.body:
        add("traceback", outcome.body[:160])
    if outcome.elapsed > request.budget + BUDGET_SLACK + MEASURE_SLACK:
        add("budget", f"{outcome.elapsed:.2f} s for a time budget of {request.budget:g} s")
    try:
        answer = json.loads(outcome.body)
    except ValueError:
        add("read back", f"status {outcome.status}, not JSON: {outcome.body[:120]!r}")
        return found
    if outcome.status != 200:
        if not isinstance(answer, dict) or not isinstance(answer.get("error"), str):
            add("read back", f"status {outcome.status} without an error message: {outcome.body[:120]}")
        if outcome.status == 422 and request.keeps and request.case is not None and request.case.puzzle is not None:
            puzzle = request.case.puzzle
            takes = _takes(request.endpoint, puzzle, request.case.family)
            if takes and answer.get("field") == "puzzle" and answer.get("kind") == "format":
                add("answer", f"{request.case.family}: {puzzle.name} refused: {answer.get('error')!r:.120}")
        return found
    if request.endpoint == "generate":
        _check_generated_json(answer, add)
        return found
    board = _request_board(request)
    puzzle = request.case.puzzle if request.case is not None and request.keeps else None
    family = request.case.family if request.case else "?"
    status = answer.get("status")
    if status == "unknown" or board is None:
        return found
    if request.endpoint in ("solve", "count"):
        solution = answer.get("solution")
        if solution:
            values = list(solution["cells"])
            broken = rules_broken(puzzle, board, values)
            if broken:
                add("rules", f"{family}: the solution breaks {len(broken)} rule(s): {broken[0]}")
        if puzzle is not None:
            if status == "no solution" and puzzle.solvable:
                add("answer", f"{family}: 'no solution' for {puzzle.name}, which has one")
            if status == "several" and puzzle.count == 1:
                add("answer", f"{family}: 'several' for {puzzle.name}, which has one")
        else:
            reference = reference_count(rules_of(board), 2, box_of(board))
            if reference is not None and status in ("no solution", "several", "solved") and answer.get("count_known"):
                if min(answer.get("count", 0), 2) != reference and answer.get("limit", 1) >= 2:
                    add("answer", f"{family}: count {answer.get('count')} where the reference counts {reference} (to 2)")
                if status == "no solution" and reference:
                    add("answer", f"{family}: 'no solution' where the reference finds {reference}")
    if request.endpoint in ("hint", "explain"):
        steps = [answer["step"]] if request.endpoint == "hint" and answer.get("step") else answer.get("steps") or []
        if steps and "placements" in steps[0]:
            if puzzle is not None and puzzle.count is not None and puzzle.count != 1:
                add("answer", f"{family}: steps for {puzzle.name}, which has {puzzle.count} solutions")
            solution, _ = _solution_of(puzzle, board)
            if solution is not None:
                numbering = (lambda v: in_puzzle_values(puzzle, board, [v])[0]) if puzzle is not None else (lambda v: v)  # noqa: E731
                n = board.size
                for step in steps:
                    claims = [(c // n, c % n, numbering(v), True) for c, v in step["placements"]]
                    claims += [(c // n, c % n, numbering(v), False) for c, v in step["eliminations"]]
                    wrong = unsound(claims, solution, n)
                    if wrong:
                        add("step", f"{family}: {step['technique']}: {wrong[0]}")
                        break
    if request.endpoint == "diagnose":
        check_diagnosis(answer, puzzle, board, family, add)
        check_added(answer, board, family, add)
    if request.endpoint == "estimate":
        samples = request.fields.get("samples", 2_000)
        check_estimate(answer, samples if isinstance(samples, int) else 0, True, puzzle, board, family, add)
    if request.endpoint == "parse":
        try:
            parsed = answer["board"]  # its line is written in its own alphabet, which reads it back
            again = _request_board(replace(request, body=encode(json.dumps(
                {"puzzle": parsed["line"], "shape": parsed["shape"], "symbols": parsed["symbols"]}))))
        except Exception:
            again = None
        if again is None or again.cells.tolist() != answer["board"]["cells"]:
            add("read back", f"{family}: the parsed board's line does not read back as the same cells")
    return found


def _check_generated_json(answer: dict, add) -> None:
    puzzle = answer.get("puzzle")
    if answer.get("status") != "solved" or not puzzle:
        return
    try:
        board = sudokit.Board.from_line(puzzle["line"], shape=Shape.parse(puzzle["shape"]), symbols=puzzle["symbols"])
    except Exception as error:
        add("read back", f"the generated puzzle does not read back: {error}")
        return
    reference = reference_count_of(board)
    if reference is not None and reference != 1:
        add("answer", f"a generated {board.shape.name} puzzle has {reference} solution(s)")
