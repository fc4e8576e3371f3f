"""``sudokit batch``: a file of puzzles at full speed, one result per record, in order, on
every core, resumable, on a Dask cluster too; a module of its own, since it imports the batch
package that no other command needs."""

from __future__ import annotations

import contextlib
import os
import sys
import time

import click

from ..batch import BatchError, solve_file
from ..batch.cluster import DaskExecutor, connect
from ..formats import FORMATS
from ..results import ExitCode
from .base import SECONDS, check_symbols, cli, interruptible, parse_shape, warn

#: the option of ``sudokit batch`` for each parameter of ``solve_file`` a BatchError names
BATCH_OPTIONS = {"column": "--column", "resume": "--resume", "output": "-o"}


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
