"""The ``sudokit`` command: a thin layer of options over the library.

Every input record yields exactly one output record, in order, in the input's format. A puzzle
with no solution (or several, under ``--unique``) yields a marked record on stdout and a message
on stderr, and the rest of the input is still processed; the exit status says what happened
(see :class:`sudokit.ExitCode`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import IO, Callable, Iterable, Iterator

import click

from .errors import ExitCode, FormatError
from .formats import FORMATS, Record, format_board, read
from .shape import Shape

#: what an unsolved record prints in place of a board, by status
MARKERS = {
    "no solution": "no solution",
    "several": "several solutions",
    "unknown": "unknown (budget exhausted)",
    "error": "error",
}


@dataclass
class Report:
    """Counts outcomes over a run and turns them into the exit status."""

    solved: int = 0
    unsolved: int = 0
    unknown: int = 0
    errors: int = 0
    details: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> ExitCode:
        if self.errors:
            return ExitCode.BAD_INPUT
        if self.unsolved:
            return ExitCode.UNSOLVED
        if self.unknown:
            return ExitCode.UNKNOWN
        return ExitCode.OK


def _parse_shape(ctx, param, value: str | None) -> Shape | None:
    if value is None:
        return None
    try:
        return Shape.parse(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


def _check_symbols(ctx, param, value: str | None) -> str | None:
    if value is not None and ("\\" in value or len(value) < 2):
        raise click.BadParameter(f"expected the symbols of values 1..n in order, e.g. 'ABCDEFGHIJKLMNOP'")
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
            callback=_parse_shape,
            metavar="HxW|N",
            help="Box shape such as 2x3, or board size (default: from the input).",
        ),
        click.option(
            "--symbols",
            callback=_check_symbols,
            metavar="CHARS",
            help="The symbols of values 1..n, e.g. 0123456789ABCDEF (default: inferred).",
        ),
        click.option("--time-limit", type=click.FloatRange(min=0), metavar="SECONDS", help="Budget per puzzle."),
        click.option("--node-limit", type=click.IntRange(min=1), metavar="N", help="Search-node budget per puzzle."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def records(files: Iterable[str], input_format, shape, symbols) -> Iterator[tuple[str, Record]]:
    """(source name, record) for every record of every input, stdin when there is none."""
    for name in files or ("-",):
        source = "<stdin>" if name == "-" else name
        if name == "-":
            yield from ((source, r) for r in read(sys.stdin.buffer, format=input_format, shape=shape, symbols=symbols, source=source))
            continue
        with open(name, "rb") as handle:
            for record in read(handle, format=input_format, shape=shape, symbols=symbols, source=source):
                yield source, record


def _warn(message: str) -> None:
    click.echo(message, err=True)


def _marker(record_format: str, status: str, detail: str = "") -> str:
    """The stand-in for a board that could not be given: one line, and in block formats the
    blank line that ends a record."""
    text = MARKERS[status] + (f": {detail}" if detail else "")
    return text + ("\n" if record_format == "line" or record_format == "leetcode" else "\n\n")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sudokit")
def cli() -> None:
    """sudokit: solve, count and check Sudoku puzzles of any size (4x4 to 64x64).

    Puzzles are read from FILES (or stdin) in any supported format, detected automatically:
    one per line (81 symbols for 9x9, '.', '-' or '0' for empty), grids of n lines, n lines of
    integers (0 = empty), or LeetCode's [["5","3",".",...],...].
    """


@cli.command()
@input_options
@click.option("--unique", is_flag=True, help="Require exactly one solution; puzzles with several are marked.")
@click.option("--to", "output_format", type=click.Choice(FORMATS), help="Output format (default: the input's).")
@click.option("--pretty", is_flag=True, help="Draw boxed grids with the givens set apart (same as --to pretty, in colour on a terminal).")
@click.option("--stats", is_flag=True, help="Print nodes, guesses and time per puzzle on stderr.")
def solve(files, input_format, shape, symbols, time_limit, node_limit, unique, output_format, pretty, stats) -> None:
    """Solve every puzzle; print each solution in the input's format (or --to another)."""
    from .solve import count as count_solutions

    report = Report()
    out = sys.stdout
    limit = 2 if unique else 1
    try:
        for source, record in records(files, input_format, shape, symbols):
            if not _check_record(record, report, out):
                continue
            result = count_solutions(record.board, limit, time_limit=time_limit, node_limit=node_limit)
            where = f"{source}:{record.line}"
            if stats:
                _warn(f"{where}: {result.status}, {result.nodes} nodes, {result.guesses} guesses, {result.elapsed * 1e3:.2f} ms")
            if result.solved:
                report.solved += 1
                if pretty:
                    _print_pretty(record.board, result.board, out)
                else:
                    out.write(format_board(result.board, output_format or record.format))
            else:
                _unsolved(result, record, where, report, out, output_format)
            out.flush()
    except KeyboardInterrupt:
        _warn("sudokit: interrupted")
        sys.exit(ExitCode.INTERRUPTED)
    sys.exit(report.exit_code)


@cli.command()
@input_options
@click.option("--limit", type=click.IntRange(min=1), default=1_000_000, show_default=True, help="Stop counting at this many solutions.")
def count(files, input_format, shape, symbols, time_limit, node_limit, limit) -> None:
    """Count the solutions of every puzzle, up to --limit; one line per puzzle.

    A count equal to the limit means "at least that many".
    """
    from .solve import count as count_solutions

    report = Report()
    out = sys.stdout
    try:
        for source, record in records(files, input_format, shape, symbols):
            if not _check_record(record, report, out, block=False):
                continue
            result = count_solutions(record.board, limit, time_limit=time_limit, node_limit=node_limit)
            if not result.exhausted and result.count < limit:
                report.unknown += 1
                _warn(f"{source}:{record.line}: unknown: the budget ran out after {result.count} solution(s)")
                out.write(f"{MARKERS['unknown']}: at least {result.count}\n")
            else:
                report.solved += 1
                out.write(f"{result.count}\n")
            out.flush()
    except KeyboardInterrupt:
        _warn("sudokit: interrupted")
        sys.exit(ExitCode.INTERRUPTED)
    sys.exit(ExitCode.BAD_INPUT if report.errors else ExitCode.UNKNOWN if report.unknown else ExitCode.OK)


def _optimize_options(command: Callable) -> Callable:
    """Options of ``maximize`` and ``minimize`` beyond the input options."""
    command = click.option("--stats", is_flag=True, help="Print the status, bound, nodes and time per puzzle on stderr.")(command)
    command = click.option("--board", "show_board", is_flag=True, help="After each score, print an optimal board in the input's format.")(command)
    command = click.option(
        "--weights", default="target", show_default=True, metavar="target|FILE",
        help="The weight of each cell: the preset 'target' (seed 003's rings: 6 on the rim, one "
        "more per ring inwards) or a file of n rows of n integers.",
    )(command)  # fmt: skip
    return input_options(command)


@cli.command()
@_optimize_options
def maximize(files, input_format, shape, symbols, time_limit, node_limit, weights, show_board, stats) -> None:
    """The best score, sum of weight x value over the cells, of any completion of each puzzle;
    one line per puzzle (seed 003, NOIP 2009 target sudoku), proven optimal.

    A puzzle with no completion prints -1 under the 'target' weights (as seed 003 does; its
    scores are always positive) and 'no solution' under other weights.
    """
    _optimize_records("max", files, input_format, shape, symbols, time_limit, node_limit, weights, show_board, stats)


@cli.command()
@_optimize_options
def minimize(files, input_format, shape, symbols, time_limit, node_limit, weights, show_board, stats) -> None:
    """The smallest score of any completion of each puzzle; as 'maximize' otherwise."""
    _optimize_records("min", files, input_format, shape, symbols, time_limit, node_limit, weights, show_board, stats)


def _optimize_records(sense, files, input_format, shape, symbols, time_limit, node_limit, weights, show_board, stats) -> None:
    from .optimize import PRESETS, as_weights, maximize, minimize, parse_weights

    weights_file = None
    if weights not in PRESETS:
        weights_file = weights
        try:
            with open(weights, "rb") as handle:
                weights = parse_weights(handle, source=weights)
        except OSError as error:
            _warn(f"sudokit: cannot read the weights: {weights}: {error.strerror or error}")
            sys.exit(ExitCode.BAD_INPUT)
        except FormatError as error:
            _warn(str(error))
            sys.exit(ExitCode.BAD_INPUT)
    run = maximize if sense == "max" else minimize
    report = Report()
    out = sys.stdout
    try:
        for source, record in records(files, input_format, shape, symbols):
            if not _check_record(record, report, out, block=False):
                continue
            where = f"{source}:{record.line}"
            size = record.board.size
            if weights_file is not None and len(weights) != size:
                report.errors += 1
                _warn(f"{weights_file}:1:1: the weights are {len(weights)}x{len(weights)}, the board at {where} is {size}x{size}")
                out.write(_marker("line", "error"))
                continue
            matrix = as_weights(weights, size)
            result = run(record.board, matrix, time_limit=time_limit, node_limit=node_limit)
            if stats:
                _warn(f"{where}: {result.status}, value {result.value}, bound {result.bound}, {result.nodes} nodes, {result.elapsed * 1e3:.2f} ms")
            if result.proven and result.value is not None:
                report.solved += 1
                out.write(f"{result.value}\n")
            elif result.proven:
                report.unsolved += 1
                why = f": {'; '.join(str(c) for c in result.conflicts)}" if result.conflicts else ""
                _warn(f"{where}: no solution{why}")
                out.write("-1\n" if isinstance(weights, str) else _marker("line", "no solution"))
            else:
                report.unknown += 1
                _warn(f"{where}: unknown: the budget ran out after {result.nodes} nodes")
                best, bound = ("none" if x is None else x for x in (result.value, result.bound))
                out.write(f"{MARKERS['unknown']}: best {best}, bound {bound}\n")
            if show_board and result.board is not None:
                out.write(format_board(result.board, record.format))
            out.flush()
    except KeyboardInterrupt:
        _warn("sudokit: interrupted")
        sys.exit(ExitCode.INTERRUPTED)
    sys.exit(report.exit_code)


@cli.command()
@click.argument("input_path", metavar="INPUT", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), help="NDJSON, or CSV / Parquet by extension (default: NDJSON on stdout).")
@click.option("--limit", type=click.IntRange(min=1), default=1, show_default=True, help="1 solves, 2 proves uniqueness, N counts up to N.")
@click.option("--node-limit", type=click.IntRange(min=1), metavar="N", help="Search-node budget per puzzle.")
@click.option("--format", "input_format", type=click.Choice(FORMATS + ("csv", "tsv", "parquet")), help="Input format (default: from the extension, else detected).")
@click.option("--column", metavar="NAME", help="CSV/Parquet column of puzzles (default: the first that holds puzzles).")
@click.option("--shape", callback=_parse_shape, metavar="HxW|N", help="Box shape such as 2x3, or board size (default: from the input).")
@click.option("--symbols", callback=_check_symbols, metavar="CHARS", help="The symbols of values 1..n (default: inferred).")
@click.option("--to", "output_format", type=click.Choice(["ndjson", "csv", "parquet"]), help="Output format (default: from the extension of -o).")
@click.option("--workers", type=click.IntRange(min=1), envvar="SUDOKIT_WORKERS", help="Worker processes (default: $SUDOKIT_WORKERS, else every CPU).")
@click.option("--threads", is_flag=True, help="Run the workers as threads of this process instead of processes.")
@click.option("--chunk-size", type=click.IntRange(min=1), default=10_000, show_default=True, help="Records per chunk (the unit of work and of commit).")
@click.option("--resume", is_flag=True, help="Go on from where an interrupted run with the same -o stopped.")
@click.option("--dask", "dask_address", metavar="ADDRESS", help="Solve on a Dask cluster (scheduler address or file, or 'local').")
@click.option("--progress/--no-progress", default=None, help="Progress bar on stderr (default: when stderr is a terminal).")
def batch(input_path, output, limit, node_limit, input_format, column, shape, symbols, output_format, workers, threads, chunk_size, resume, dask_address, progress) -> None:
    """Solve a file of puzzles at full speed: one result per record, in order, on every core.

    INPUT is a text file of puzzles in any format, a CSV/TSV file (Kaggle's quizzes,solutions
    too) or Parquet. Each output record has index, puzzle, status, solution, count and guesses
    (and error for a record that cannot be read). The output is written a chunk at a time
    with a progress file beside it: after Ctrl-C or a crash, the same command with --resume
    completes it. A summary goes to stderr.
    """
    import contextlib
    import os

    from .pipeline import BatchError, solve_file

    options = dict(limit=limit, node_limit=node_limit, format=input_format, column=column, shape=shape, symbols=symbols,
                   chunk_size=chunk_size, output_format=output_format, resume=resume)
    show = sys.stderr.isatty() if progress is None else progress
    hint = "; run the same command with --resume to go on" if output not in (None, "-") else ""
    source_name = "<stdin>" if input_path == "-" else input_path
    with contextlib.ExitStack() as stack:
        try:
            if dask_address:
                from .distributed import DaskExecutor, connect

                options["executor"] = DaskExecutor(stack.enter_context(connect(dask_address, workers)))
            else:
                options.update(workers=workers, threads=threads)
            if show:
                options.update(_batch_progress(stack))
            summary = solve_file(input_path, output, **options)
        except BatchError as error:
            _warn(f"sudokit: {error}")
            sys.exit(ExitCode.BAD_INPUT)
        except KeyboardInterrupt:  # before the first chunk or after the last
            _warn(f"sudokit: interrupted{hint}")
            sys.exit(ExitCode.INTERRUPTED)
        except OSError as error:
            _warn(f"sudokit: {error.filename or input_path}: {os.strerror(error.errno) if error.errno else error}")
            sys.exit(ExitCode.BAD_INPUT)
    for index, message in summary.errors:
        _warn(f"{source_name}:{message} (record {index})")
    if summary.counts["error"] > len(summary.errors):
        _warn(f"sudokit: ... and {summary.counts['error'] - len(summary.errors):,} more bad records (see the error field)")
    if summary.interrupted:
        _warn(f"sudokit: interrupted after {summary.records:,} records{hint}")
    else:
        _warn(f"sudokit: {summary.describe()}")
    sys.exit(summary.exit_code)


def _batch_progress(stack) -> dict:
    """A rich progress bar on stderr (records, rate, time left from the input read so far)."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    bar = stack.enter_context(Progress(
        TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(),
        TextColumn("{task.fields[records]:>12,} records  {task.fields[rate]:>9,.0f}/s"),
        TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
        console=Console(stderr=True), transient=False,
    ))
    state: dict = {}

    def on_start(source, start) -> None:
        import time

        done = start.offset if source.total else 0
        task = bar.add_task(source.description, total=source.total, completed=done, records=start.records, rate=0.0)
        state.update(task=task, began=time.perf_counter(), first=start.records)

    def on_commit(records: int, position: int, summary) -> None:
        import time

        rate = (records - state["first"]) / max(time.perf_counter() - state["began"], 1e-9)
        bar.update(state["task"], completed=position, records=records, rate=rate)

    return {"on_start": on_start, "progress": on_commit}


@cli.command()
def warmup() -> None:
    """Compile and cache the kernels now (useful after installing, or in a container image)."""
    from .solve import count as count_solutions

    for line in ("." * 16, "." * 81, "." * 256):
        count_solutions(line, 2)
    click.echo("sudokit: kernels compiled and cached")


def main(argv: list[str] | None = None) -> None:
    """Run the command line; unexpected failures print one line (set SUDOKIT_DEBUG=1 for the
    traceback) and exit with status 70 rather than dumping a traceback on the user."""
    import os

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
        _warn(f"sudokit: internal error: {type(error).__name__}: {error} (set SUDOKIT_DEBUG=1 for details)")
        sys.exit(ExitCode.INTERNAL)


def _check_record(record: Record, report: Report, out: IO[str], block: bool = True) -> bool:
    """Report a malformed record (marker on stdout, message on stderr); True when it is good."""
    if record.error is None:
        return True
    report.errors += 1
    _warn(str(record.error))
    out.write(_marker(record.format if block else "line", "error"))
    return False


def _unsolved(result, record: Record, where: str, report: Report, out: IO[str], output_format: str | None = None) -> None:
    status = result.status.value
    if status == "unknown":
        report.unknown += 1
        _warn(f"{where}: unknown: the budget ran out after {result.nodes} nodes")
    elif status == "several":
        report.unsolved += 1
        _warn(f"{where}: several solutions (at least {result.count})")
    else:
        report.unsolved += 1
        why = f": {'; '.join(str(c) for c in result.conflicts)}" if result.conflicts else ""
        _warn(f"{where}: no solution{why}")
    out.write(_marker(output_format or record.format, status))


def _print_pretty(puzzle, solution, out: IO[str]) -> None:
    from rich.console import Console

    from .render import board_text

    console = Console(file=out, highlight=False, soft_wrap=True)
    console.print(board_text(solution, puzzle))
    console.print()
