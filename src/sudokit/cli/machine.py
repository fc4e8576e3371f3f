"""The commands that answer a program's questions: solve, count, maximize, minimize, batch."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from typing import IO, Callable

import click

from ..batch import BatchError, solve_file
from ..batch.cluster import DaskExecutor, connect
from ..board import Record
from ..errors import FormatError
from ..formats import FORMATS, format_board
from ..optimize import PRESETS, as_weights, optimum, parse_weights
from ..results import UNLIMITED, ExitCode, Limits, SolveResult, Tally
from ..solver import run as search
from .base import (
    MARKERS, SECONDS, boards, check_symbols, cli, input_options, interruptible, marker,
    no_solution, parse_shape, warn, where,
)

#: the option of ``sudokit batch`` for each parameter of ``solve_file`` a BatchError names
BATCH_OPTIONS = {"column": "--column", "resume": "--resume", "output": "-o"}


@cli.command()
@input_options
@click.option("--unique", is_flag=True, help="Require exactly one solution; puzzles with several are marked.")
@click.option("--to", "output_format", type=click.Choice(FORMATS), help="Output format (default: the input's).")
@click.option("--pretty", is_flag=True, help="Draw boxed grids with the givens set apart (same as --to pretty, in colour on a terminal).")
@click.option("--stats", is_flag=True, help="Print nodes, guesses and time per puzzle on stderr.")
def solve(files, input_format, shape, symbols, time_limit, node_limit, unique, output_format, pretty, stats) -> None:
    """Solve every puzzle; print each solution in the input's format (or --to another)."""
    limits = Limits(2 if unique else 1, time_limit, node_limit)
    tally = Tally()
    out = sys.stdout
    written_as = "pretty" if pretty else output_format
    with interruptible():
        for source, record, board in boards(files, input_format, shape, symbols, tally, out, written_as):
            result = search(board, limits)
            tally.add(result.status.value)
            if stats:
                warn(f"{where(source, record)}: {result.status}, {result.nodes} nodes, {result.guesses} guesses, {result.elapsed * 1e3:.2f} ms")
            if result.solved:
                assert result.board is not None
                if pretty:
                    _print_pretty(board, result.board, out)
                else:
                    out.write(format_board(result.board, output_format or record.format))
            else:
                _unsolved(result, source, record, out, written_as)
            out.flush()
    sys.exit(tally.exit_code)


@cli.command()
@input_options
@click.option("--limit", type=click.IntRange(min=1), default=1_000_000, show_default=True, help="Stop counting at this many solutions.")
def count(files, input_format, shape, symbols, time_limit, node_limit, limit) -> None:
    """Count the solutions of every puzzle, up to --limit; one line per puzzle.

    A count equal to the limit means "at least that many".
    """
    limits = Limits(limit, time_limit, node_limit)
    tally = Tally(counting=True)
    out = sys.stdout
    with interruptible():
        for source, record, board in boards(files, input_format, shape, symbols, tally, out, "line"):
            result = search(board, limits)
            if result.count_known:
                tally.add("solved")
                out.write(f"{result.count}\n")
            else:
                tally.add("unknown")
                warn(f"{where(source, record)}: unknown: the budget ran out after {result.count} solution(s)")
                out.write(f"{MARKERS['unknown']}: at least {result.count}\n")
            out.flush()
    sys.exit(tally.exit_code)


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
    weights_file = None
    if weights not in PRESETS:
        weights_file = weights
        try:
            with open(weights, "rb") as handle:
                weights = parse_weights(handle, source=weights)
        except OSError as error:
            warn(f"sudokit: cannot read the weights: {weights}: {error.strerror or error}")
            sys.exit(ExitCode.BAD_INPUT)
        except FormatError as error:
            warn(str(error))
            sys.exit(ExitCode.BAD_INPUT)
    limits = Limits(UNLIMITED, time_limit, node_limit)  # the optimum: improve until proven
    tally = Tally()
    out = sys.stdout
    with interruptible():
        for source, record, board in boards(files, input_format, shape, symbols, tally, out, "line"):
            size = board.size
            if weights_file is not None and len(weights) != size:
                tally.add("error")
                warn(f"{weights_file}:1:1: the weights are {len(weights)}x{len(weights)}, the board at {where(source, record)} is {size}x{size}")
                out.write(marker("line", "error"))
                continue
            result = optimum(board, as_weights(weights, size), sense, limits)
            tally.add(result.status.value)
            if stats:
                warn(f"{where(source, record)}: {result.status}, value {result.value}, bound {result.bound}, {result.nodes} nodes, {result.elapsed * 1e3:.2f} ms")
            if result.proven and result.value is not None:
                out.write(f"{result.value}\n")
            elif result.proven:
                warn(no_solution(source, record, result.conflicts))
                out.write("-1\n" if isinstance(weights, str) else marker("line", "no solution"))
            else:
                warn(f"{where(source, record)}: unknown: the budget ran out after {result.nodes} nodes")
                best, bound = ("none" if x is None else x for x in (result.value, result.bound))
                out.write(f"{MARKERS['unknown']}: best {best}, bound {bound}\n")
            if show_board and result.board is not None:
                out.write(format_board(result.board, record.format))
            out.flush()
    sys.exit(tally.exit_code)


@cli.command()
@click.argument("input_path", metavar="INPUT", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), help="NDJSON, or CSV / Parquet by extension (default: NDJSON on stdout).")
@click.option("--limit", type=click.IntRange(min=1), default=1, show_default=True, help="1 solves, 2 proves uniqueness, N counts up to N.")
@click.option("--time-limit", type=SECONDS, metavar="SECONDS", help="Budget per puzzle; a puzzle that runs out is 'unknown'.")
@click.option("--node-limit", type=click.IntRange(min=1), metavar="N", help="Search-node budget per puzzle.")
@click.option("--rate", is_flag=True, help="Add level and score (HoDoKu's scale) and, for 9x9, er, ep, ed and se_status (Sudoku Explainer's, within the record's time and potential budgets, else a few seconds' work) to each record with exactly one solution.")
@click.option("--potential-limit", type=click.IntRange(min=1), metavar="N", help="With --rate: SE's budget per puzzle, potentials its chains may process.")
@click.option("--format", "input_format", type=click.Choice(FORMATS + ("csv", "tsv", "parquet")), help="Input format (default: from the extension, else detected).")
@click.option("--column", metavar="NAME", help="CSV/Parquet column of puzzles (default: the first that holds puzzles).")
@click.option("--shape", callback=parse_shape, metavar="NxN|HxW|N", help="Board (9x9), box shape (2x3: 2 rows by 3 columns) or board size (6) (default: from the input).")
@click.option("--symbols", callback=check_symbols, metavar="CHARS", help="The symbols of values 1..n (default: inferred).")
@click.option("--to", "output_format", type=click.Choice(["ndjson", "csv", "parquet"]), help="Output format (default: from the extension of -o).")
@click.option("--workers", type=click.IntRange(min=1), envvar="SUDOKIT_WORKERS", help="Worker processes (default: $SUDOKIT_WORKERS, else every CPU).")
@click.option("--threads", is_flag=True, help="Run the workers as threads of this process instead of processes.")
@click.option("--chunk-size", type=click.IntRange(min=1), default=10_000, show_default=True, help="Records per chunk (the unit of work and of commit).")
@click.option("--resume", is_flag=True, help="Go on from where an interrupted run with the same -o stopped.")
@click.option("--dask", "dask_address", metavar="ADDRESS", help="Solve on a Dask cluster (scheduler address or file, or 'local').")
@click.option("--progress/--no-progress", default=None, help="Progress bar on stderr (default: when stderr is a terminal).")
def batch(input_path, output, limit, time_limit, node_limit, rate, potential_limit, input_format, column, shape, symbols, output_format, workers, threads, chunk_size, resume, dask_address, progress) -> None:
    """Solve a file of puzzles at full speed: one result per record, in order, on every core.

    INPUT is a text file of puzzles in any format, a CSV/TSV file (Kaggle's quizzes,solutions
    too) or Parquet. Each output record has index, puzzle, status, solution, count and guesses
    (and error for a record that cannot be read; level, score, er, ep, ed and se_status
    with --rate). The output is written a chunk at a time
    with a progress file beside it: after Ctrl-C or a crash, the same command with --resume
    completes it. A summary goes to stderr.
    """
    to_stdout = output in (None, "-")
    options = dict(limit=limit, time_limit=time_limit, node_limit=node_limit, rate=rate, potential_limit=potential_limit,
                   format=input_format, column=column,
                   shape=shape, symbols=symbols, chunk_size=chunk_size, output_format=output_format, resume=resume)
    show = sys.stderr.isatty() if progress is None else progress
    hint = "" if to_stdout else "; run the same command with --resume to go on"
    source_name = "<stdin>" if input_path == "-" else input_path
    with contextlib.ExitStack() as stack, interruptible(hint):  # before the first chunk or after the last
        try:
            if dask_address:
                options["executor"] = DaskExecutor(stack.enter_context(connect(dask_address, workers)))
            else:
                options.update(workers=workers, threads=threads)
            if show:
                options.update(_batch_progress(stack))
            summary = solve_file(input_path, output, **options)
        except BatchError as error:
            option = BATCH_OPTIONS.get(error.parameter or "")
            warn(f"sudokit: {error}" + (f" ({option})" if option else ""))
            sys.exit(ExitCode.BAD_INPUT)
        except OSError as error:
            warn(f"sudokit: {error.filename or input_path}: {os.strerror(error.errno) if error.errno else error}")
            sys.exit(ExitCode.BAD_INPUT)
    for index, message in summary.errors:
        warn(f"{source_name}:{message} (record {index})")
    if summary.counts["error"] > len(summary.errors):
        warn(f"sudokit: ... and {summary.counts['error'] - len(summary.errors):,} more bad records (see the error field)")
    if summary.interrupted:
        warn(f"sudokit: interrupted after {summary.records:,} records{hint}")
    else:
        warn(f"sudokit: {summary.describe()}")
    sys.exit(summary.exit_code)


def _batch_progress(stack) -> dict:
    """A rich progress bar on stderr (records, rate, time left from the input read so far)."""
    # start-up cost: rich's progress bar takes tens of milliseconds to import; only a
    # terminal run of `batch` shows one
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    bar = stack.enter_context(Progress(
        TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(),
        TextColumn("{task.fields[records]:>12,} records  {task.fields[rate]:>9,.0f}/s"),
        TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
        console=Console(stderr=True), transient=False,
    ))
    state: dict = {}

    def on_start(source, start) -> None:
        done = start.offset if source.total else 0
        task = bar.add_task(source.description, total=source.total, completed=done, records=start.records, rate=0.0)
        state.update(task=task, began=time.perf_counter(), first=start.records)

    def on_commit(records: int, position: int, summary) -> None:
        rate = (records - state["first"]) / max(time.perf_counter() - state["began"], 1e-9)
        bar.update(state["task"], completed=position, records=records, rate=rate)

    return {"on_start": on_start, "progress": on_commit}



def _unsolved(result: SolveResult, source: str, record: Record, out: IO[str], output_format: str | None = None) -> None:
    status = result.status.value
    if status == "unknown":
        warn(f"{where(source, record)}: unknown: the budget ran out after {result.nodes} nodes")
    elif status == "several":
        warn(f"{where(source, record)}: several solutions (at least {result.count})")
    else:
        warn(no_solution(source, record, result.conflicts))
    out.write(marker(output_format or record.format, status))


def _print_pretty(puzzle, solution, out: IO[str]) -> None:
    # start-up cost: rich loads only when a boxed grid is drawn
    from rich.console import Console

    from ..render import board_text

    console = Console(file=out, highlight=False, soft_wrap=True)
    console.print(board_text(solution, puzzle))
    console.print()
