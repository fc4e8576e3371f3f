"""What every ``sudokit`` command shares: the group, input options, reading records,
messages on stderr, Ctrl-C, and ``main``. The commands themselves live in ``machine``
(solve, count, maximize, minimize), ``batch``, ``people`` (rate, explain, hint, generate,
canon, shuffle, serve), ``setters`` and ``warmup``, each imported when one of its commands
is called (``COMMAND_MODULES``).

Every input record yields exactly one output record, in order, in the input's format. A puzzle
with no solution (or several, under ``--unique``) yields a marked record on stdout and a message
on stderr, and the rest of the input is still processed; the exit status says what happened
(see :class:`sudokit.ExitCode`).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from typing import IO, Callable, Iterable, Iterator

import click

from ..board import Board, Record, describe_problems, read
from ..errors import FormatError
from ..formats import FORMATS, LINE_FORMATS
from ..results import ExitCode, Tally
from ..shape import Shape

#: what an unsolved record prints in place of a board, by status
MARKERS = {
    "no solution": "no solution",
    "several": "several solutions",
    "unknown": "unknown (budget exhausted)",
    "error": "error",
}


class Seconds(click.FloatRange):
    """A budget in seconds: a number, 0 or more (``inf`` is no budget; click's FloatRange lets
    ``nan`` through, which compares false with everything)."""

    name = "number of seconds"  # click says "'abc' is not a valid {name}"

    def __init__(self) -> None:
        super().__init__(min=0)

    def convert(self, value, param, ctx):
        seconds = super().convert(value, param, ctx)
        if seconds != seconds:
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if seconds == float("inf"):
            return None  # no budget, as when none is given (SE's rating sliced an infinite deadline)
        return seconds


#: the type of every --time-limit
SECONDS = Seconds()


def parse_shape(ctx, param, value: str | None) -> Shape | None:
    if value is None:
        return None
    try:
        return Shape.parse(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


def check_symbols(ctx, param, value: str | None) -> str | None:
    if value is not None and ("\\" in value or len(value) < 2):
        raise click.BadParameter("expected the symbols of values 1..n in order, e.g. 'ABCDEFGHIJKLMNOP'")
    return value


def input_options(command: Callable) -> Callable:
    """Options shared by every command that reads puzzles."""
    options = [
        click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, allow_dash=True)),
        click.option(
            "--format",
            "input_format",
            type=click.Choice(FORMATS),
            help="Input format (default: detected from the first puzzle).",
        ),
        click.option(
            "--shape",
            callback=parse_shape,
            metavar="NxN|HxW|N",
            help="Board (9x9), box shape (2x3: 2 rows by 3 columns) or board size (6) (default: from the input).",
        ),
        click.option(
            "--symbols",
            callback=check_symbols,
            metavar="CHARS",
            help="The symbols of values 1..n, e.g. 0123456789ABCDEF (default: inferred).",
        ),
        click.option("--time-limit", type=SECONDS, metavar="SECONDS", help="Budget per puzzle."),
        click.option("--node-limit", type=click.IntRange(min=1), metavar="N", help="Search-node budget per puzzle."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def records(files: Iterable[str], input_format, shape, symbols) -> Iterator[tuple[str, Record]]:
    """(source name, record) for every record of every input, stdin when there is none. An
    input whose format is a guess (see ``formats.guess_problem``) ends the command before its
    first record: one line on stderr, exit status 2."""
    for name in files or ("-",):
        source = "<stdin>" if name == "-" else name
        try:
            if name == "-":
                yield from ((source, r) for r in read(sys.stdin.buffer, format=input_format, shape=shape, symbols=symbols, source=source))
                continue
            with open(name, "rb") as handle:
                for record in read(handle, format=input_format, shape=shape, symbols=symbols, source=source):
                    yield source, record
        except FormatError as error:  # the input as a whole; a record's own error is in the record
            warn(f"sudokit: {error}")
            sys.exit(ExitCode.BAD_INPUT)


def warn(message: str) -> None:
    click.echo(message, err=True)


@contextlib.contextmanager
def interruptible(hint: str = "") -> Iterator[None]:
    """Ctrl-C ends the command with one line on stderr and exit status 130."""
    try:
        yield
    except KeyboardInterrupt:
        warn(f"sudokit: interrupted{hint}")
        sys.exit(ExitCode.INTERRUPTED)


def marker(record_format: str, status: str, detail: str = "") -> str:
    """The stand-in for a board that could not be given: one line, and in block formats the
    blank line that ends a record."""
    text = MARKERS[status] + (f": {detail}" if detail else "")
    return text + ("\n" if record_format in LINE_FORMATS or record_format == "leetcode" else "\n\n")


def where(source: str, record: Record, cell: tuple[int, int] | None = None) -> str:
    """``source:line:col`` of a record, or of one of its cells (0-based row and column)."""
    line, column = record.line, record.column
    if cell is not None:
        line, column = record.position(*cell)
    return f"{source}:{line}:{column}"


def no_solution(source: str, record: Record, conflicts) -> str:
    """The message for a board without solution, at the first cell its conflicts name."""
    if not conflicts:
        return f"{where(source, record)}: no solution"
    why = describe_problems(conflicts)
    return f"{where(source, record, conflicts[0].cells[0])}: no solution: {why}"


#: the module of this package that defines each command: a call imports only its own
#: command's (``sudokit hint`` loads no batch, Dask or setters' code: 0.1 s of a 0.34 s call)
COMMAND_MODULES = {
    **dict.fromkeys(("solve", "count", "maximize", "minimize"), "machine"),
    "batch": "batch",
    **dict.fromkeys(("rate", "explain", "hint", "generate", "canon", "shuffle", "serve"), "people"),
    **dict.fromkeys(("diagnose", "make-unique", "reduce", "estimate", "print"), "setters"),
    "warmup": "warmup",
}


class LazyGroup(click.Group):
    """A group whose commands' modules are imported when a command is asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(COMMAND_MODULES))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in COMMAND_MODULES:
            importlib.import_module(f"{__package__}.{COMMAND_MODULES[name]}")
        return super().get_command(ctx, name)

    def all_commands(self) -> dict[str, click.Command]:
        """Every command, its module imported (for documentation and tests)."""
        for module in set(COMMAND_MODULES.values()):
            importlib.import_module(f"{__package__}.{module}")
        return dict(self.commands)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sudokit")
def cli() -> None:
    """sudokit: solve, count, rate, explain and generate Sudoku puzzles of any size (4x4 to
    64x64).

    Puzzles are read from FILES (or stdin) in any supported format, detected automatically:
    one per line (81 symbols for 9x9, '.', '-' or '0' for empty), grids of n lines, n lines of
    integers (0 = empty), or LeetCode's [["5","3",".",...],...]; variants as Sukaku pencil
    marks (729 characters for 9x9), candidate grids, variant lines (givens, a jigsaw layout,
    cages such as 15:r1c1,r1c2) or JSON objects (givens, regions, diagonals, windoku, cages,
    candidates).
    """


def main(argv: list[str] | None = None) -> None:
    """Run the command line; unexpected failures print one line (set SUDOKIT_DEBUG=1 for the
    traceback) and exit with status 70 rather than dumping a traceback on the user."""
    try:
        cli.main(args=argv, prog_name="sudokit")
    except SystemExit as done:
        # click answers a closed output pipe by exiting 1 quietly, with stdout and stderr
        # replaced by wrappers that swallow the rest; 1 means "a puzzle had no solution" here
        if done.code == 1 and "PacifyFlushWrapper" in type(sys.stdout).__name__:
            sys.exit(ExitCode.BROKEN_PIPE)
        try:  # the pipe may close after the last write: flush here, not at interpreter exit
            sys.stdout.flush()
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing left to flush
            sys.exit(ExitCode.BROKEN_PIPE)
        raise
    except Exception as error:  # click handles its own errors and exits before this
        if os.environ.get("SUDOKIT_DEBUG"):
            raise
        warn(f"sudokit: internal error: {type(error).__name__}: {error} (set SUDOKIT_DEBUG=1 for details)")
        sys.exit(ExitCode.INTERNAL)


def boards(
    files: Iterable[str], input_format, shape, symbols, tally: Tally, out: IO[str], written_as: str | None = None
) -> Iterator[tuple[str, Record, Board]]:
    """(source name, record, board) for every record that is a board; the malformed ones
    reported on the way, as :func:`board_of` does."""
    for source, record in records(files, input_format, shape, symbols):
        board = board_of(record, tally, out, written_as)
        if board is not None:
            yield source, record, board


def board_of(record: Record, tally: Tally, out: IO[str], written_as: str | None = None) -> Board | None:
    """The record's board; None for a malformed record, reported (marker on stdout, message
    on stderr). ``written_as``: the format the command writes its records in (a marker in a
    block format ends with the blank line that ends a record), by default the record's own."""
    if record.board is not None:
        return record.board
    tally.add("error")
    warn(str(record.error))
    out.write(marker(written_as or record.format, "error"))
    return None
