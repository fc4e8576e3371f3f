"""The commands for the people who make puzzles: why a board has no solution or several
(diagnose), the fewest givens that make it unique (make-unique), the givens it can do without
(reduce), how many solutions an open board has (estimate), and books to print (print)."""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
from typing import IO

import click

from .. import logic
from ..batch import BatchError
from ..batch.cluster import connect
from ..board import Board, Record
from ..logic.scales import HODOKU
from ..generator import GenerationError
from ..making import generate_file
from ..formats import FORMATS, format_board
from ..printing import LAYOUTS, Entry, book, variant_name
from ..results import ExitCode, SolveStatus, Tally
from ..setters import Clues, diagnose, estimate, make_unique, reduce
from ..setters.sampling import MAX_SAMPLES
from ..solver import count as count_solutions
from .base import (
    MARKERS, SECONDS, boards, check_symbols, cli, input_options, interruptible, marker, no_solution, parse_shape, warn, where,
)

#: a cell as a person writes it: r1c2 (1-based), or its 0-based index
CELL = re.compile(r"^(?:r(\d+)c(\d+)|(\d+))$", re.IGNORECASE)


def parse_cells(ctx, param, value: str | None) -> tuple[tuple[int, int] | int, ...]:
    """``--keep r1c1,r5c5`` (or 0-based indices): checked against each board when it is read."""
    if not value:
        return ()
    cells: list[tuple[int, int] | int] = []
    for part in value.replace(" ", "").split(","):
        match = CELL.match(part)
        if not match:
            raise click.BadParameter(f"expected cells such as r1c2,r5c5 (or 0-based indices), not {part!r}")
        cells.append(int(match[3]) if match[3] else (int(match[1]) - 1, int(match[2]) - 1))
    return tuple(cells)


def cell_indices(cells, board: Board) -> list[int]:
    """The 0-based indices of ``--keep``'s cells on ``board``; ``ValueError`` for one outside it."""
    n = board.size
    found = []
    for cell in cells:
        if isinstance(cell, int):
            if not 0 <= cell < n * n:
                raise ValueError(f"--keep: cell {cell} is outside a {n}x{n} board (0 to {n * n - 1})")
            found.append(cell)
        else:
            row, col = cell
            if not (0 <= row < n and 0 <= col < n):
                raise ValueError(f"--keep: r{row + 1}c{col + 1} is outside a {n}x{n} board")
            found.append(row * n + col)
    return found


_TO = click.option("--to", "output", type=click.Choice(["text", "json"]), default="text", show_default=True,
                   help="text: one line a puzzle for a person; json: one object a line, cells 0-based.")


@cli.command(name="diagnose")
@input_options
@_TO
def diagnose_command(files, input_format, shape, symbols, time_limit, node_limit, output) -> None:
    """Why each board is not a puzzle yet, one line each: for no solution a minimal set of
    givens that has none (proven; each of them can go for a solution) with the rules and the
    chain of singles that run into the contradiction; for several solutions two of them and
    the cells where they differ; for one, whether it is minimal and the givens that could go.
    --time-limit and --node-limit bound each board's whole diagnosis."""
    tally = Tally(counting=True)
    out = sys.stdout
    with interruptible():
        for source, record, board in boards(files, input_format, shape, symbols, tally, out, written_as="line"):
            found = diagnose(board, time_limit=time_limit, node_limit=node_limit)
            settled = found.status is not SolveStatus.UNKNOWN and found.proven
            tally.add("solved" if settled else "unknown")
            if not settled:
                warn(f"{where(source, record)}: unknown: the budget ran out after {found.searches} searches")
            _answer(board, found, output, out)
    sys.exit(tally.exit_code)


def _answer(board: Board, found, output: str, out: IO[str]) -> None:
    """One line for a board: the answer's summary, or its JSON with the puzzle."""
    if output == "json":
        out.write(json.dumps({"puzzle": board.to_line(), **found.to_json()}) + "\n")
    else:
        out.write(found.summary() + "\n")
    out.flush()


def _clues_records(question, files, input_format, shape, symbols, time_limit, node_limit, keep, output) -> None:
    """``make-unique`` and ``reduce``: the board in the input's format (or JSON), what changed
    on stderr."""
    tally = Tally()
    out = sys.stdout
    with interruptible():
        written_as = "line" if output == "json" else None  # an unreadable record: one line of the JSON output
        for source, record, board in boards(files, input_format, shape, symbols, tally, out, written_as=written_as):
            try:
                cells = cell_indices(keep, board)
            except ValueError as error:
                tally.add("error")
                warn(f"{where(source, record)}: {error}")
                out.write(marker("line" if output == "json" else record.format, "error"))
                continue
            result = question(board, keep=cells, time_limit=time_limit, node_limit=node_limit)
            _write_clues(result, source, record, tally, out, output)
            out.flush()
    sys.exit(tally.exit_code)


def _write_clues(result: Clues, source: str, record: Record, tally: Tally, out: IO[str], output: str) -> None:
    status = result.status.value
    if result.board is None:
        tally.add(status)
        if result.status is SolveStatus.NO_SOLUTION:
            warn(no_solution(source, record, result.puzzle.status().conflicts))
        elif result.status is SolveStatus.SEVERAL:
            why = "--keep leaves some solutions apart" if result.question == "make_unique" else "reduce needs one solution"
            warn(f"{where(source, record)}: several solutions: {why}")
        else:
            warn(f"{where(source, record)}: unknown: the budget ran out after {result.searches} searches")
        out.write(json.dumps(result.to_json()) + "\n" if output == "json" else marker(record.format, status))
        return
    tally.add("solved" if result.proven else "unknown")
    warn(f"{where(source, record)}: {result.summary()}")
    out.write(json.dumps(result.to_json()) + "\n" if output == "json" else format_board(result.board, record.format))


_KEEP_HELP = {
    "make-unique": "Cells to leave open, e.g. r1c1,r5c5 (or 0-based indices).",
    "reduce": "Givens never to take out, e.g. r1c1,r5c5 (or 0-based indices).",
}


def _clues_options(name: str):
    def decorate(command):
        command = click.option("--to", "output", type=click.Choice(["board", "json"]), default="board", show_default=True,
                               help="board: each result in the input's format; json: one object a line.")(command)
        command = click.option("--keep", callback=parse_cells, metavar="CELLS", help=_KEEP_HELP[name])(command)
        return input_options(command)
    return decorate


@cli.command(name="make-unique")
@_clues_options("make-unique")
def make_unique_command(files, input_format, shape, symbols, time_limit, node_limit, keep, output) -> None:
    """The fewest givens to add to each board so that it has one solution (the first the
    search finds), proven fewest; each board on stdout, what was added on stderr. With a
    budget that runs out, the best board found and how many givens are needed at least."""
    _clues_records(make_unique, files, input_format, shape, symbols, time_limit, node_limit, keep, output)


@cli.command(name="reduce")
@_clues_options("reduce")
def reduce_command(files, input_format, shape, symbols, time_limit, node_limit, keep, output) -> None:
    """Take givens out of each unique board, in cell order, while it stays unique: a minimal
    puzzle (no given outside --keep can go; proven); each board on stdout, what went on stderr."""
    _clues_records(reduce, files, input_format, shape, symbols, time_limit, node_limit, keep, output)


@cli.command(name="estimate")
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--format", "input_format", type=click.Choice(FORMATS), help="Input format (default: detected from the first puzzle).")
@click.option("--shape", callback=parse_shape, metavar="HxW|N", help="Box shape such as 2x3, or board size (default: from the input).")
@click.option("--symbols", callback=check_symbols, metavar="CHARS", help="The symbols of values 1..n (default: inferred).")
@click.option("--samples", type=click.IntRange(min=2, max=MAX_SAMPLES), default=10_000, show_default=True, help="Random probes per board.")
@click.option("--seed", type=click.IntRange(min=0), help="The same seed gives the same estimates (default: fresh each run).")
@click.option("--time-limit", type=SECONDS, metavar="SECONDS", help="Stop sampling a board after this long (fewer samples, a wider interval).")
@_TO
def estimate_command(files, input_format, shape, symbols, samples, seed, time_limit, output) -> None:
    """About how many solutions each board has, with a 95% interval (Knuth's estimator over the
    search: unbiased, for boards far too open to count); one line each."""
    tally = Tally(counting=True)
    out = sys.stdout
    with interruptible():
        for source, record, board in boards(files, input_format, shape, symbols, tally, out, written_as="line"):
            found = estimate(board, samples=samples, seed=seed, time_limit=time_limit)
            tally.add("solved" if found.known else "unknown")
            _answer(board, found, output, out)
    sys.exit(tally.exit_code)


# -- books --------------------------------------------------------------------------------------


def entry_for(board: Board, time_limit: float | None = None) -> tuple[Entry, str]:
    """A board with its solution and level (HoDoKu's, where the techniques take the board),
    and its status; a board without exactly one solution is printed with that as its label."""
    result = count_solutions(board, 2, time_limit=time_limit)
    if result.status is not SolveStatus.SOLVED:
        return Entry(board, MARKERS[result.status.value]), result.status.value
    try:
        label = logic.rate(board, scale=HODOKU, solution=result.board).level.value  # type: ignore[union-attr]
    except ValueError:  # a variant's rules: no level on HoDoKu's scale, the variant's name
        label = variant_name(board)
    return Entry(board, label, result.board), "solved"


def write_book(entries: list[Entry], output: str, per_page: int, title: str, solutions: bool) -> int:
    """:func:`sudokit.printing.book`, its refusals as a usage error and a missing extra as bad input."""
    try:
        return book(entries, output, per_page=per_page, title=title, solutions=solutions)
    except ImportError as error:
        warn(f"sudokit: {error}")
        sys.exit(ExitCode.BAD_INPUT)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    except OSError as error:
        raise click.UsageError(f"cannot write {output}: {error.strerror or error}") from None


@cli.command(name="print")
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="The PDF to write.")
@click.option("--per-page", type=click.Choice([str(k) for k in LAYOUTS]), default="4", show_default=True, help="Puzzles a page.")
@click.option("--title", default="Sudoku", show_default=True, help="The book's title, on its first page.")
@click.option("--solutions/--no-solutions", default=True, show_default=True, help="The solutions at the end, small.")
@click.option("--format", "input_format", type=click.Choice(FORMATS), help="Input format (default: detected from the first puzzle).")
@click.option("--shape", callback=parse_shape, metavar="HxW|N", help="Box shape such as 2x3, or board size (default: from the input).")
@click.option("--symbols", callback=check_symbols, metavar="CHARS", help="The symbols of values 1..n (default: inferred).")
@click.option("--time-limit", type=SECONDS, metavar="SECONDS", help="Budget per puzzle for its solution.")
def print_command(files, output, per_page, title, solutions, input_format, shape, symbols, time_limit) -> None:
    """A printable PDF of the puzzles (needs the print extra: pip install 'sudokit[print]'):
    1, 2, 4 or 6 a page, numbered, with their level, the variants' regions, diagonals and
    cages drawn, and the solutions at the end. Bad records are reported and left out."""
    tally = Tally()
    with interruptible():
        entries = []
        # a book has no record lines: the markers of bad records go nowhere, their messages to stderr
        for source, record, board in boards(files, input_format, shape, symbols, tally, io.StringIO()):
            entry, status = entry_for(board, time_limit)
            tally.add(status)
            if status != "solved":
                warn(f"{where(source, record)}: {MARKERS[status]}: printed without a solution")
            entries.append(entry)
        pages = write_book(entries, output, int(per_page), title, solutions)
    warn(f"sudokit: {output}: {len(entries)} puzzles on {pages} pages")
    sys.exit(tally.exit_code)


# -- generate: books, and files on a cluster ----------------------------------------------------


def generate_to_file(stream, count: int, options: dict, workers, output, output_format: str, progress,
                     dask_address, resume: bool, progress_bar) -> None:
    """``sudokit generate --to pdf`` (the puzzles as a book) and ``--dask`` / ``--resume``
    (``making.generate_file``); exits with the command's status."""
    if not output or output == "-":
        raise click.UsageError("--to pdf, --dask and --resume write a file: give -o FILE")
    show = progress if progress is not None else sys.stderr.isatty()
    if output_format == "pdf":
        if dask_address or resume:
            raise click.UsageError("--to pdf makes its puzzles here: without --dask or --resume")
        made: list[Board] = []
        code = ExitCode.OK
        with interruptible():
            try:
                made.extend(stream)
            except GenerationError as error:
                warn(f"sudokit: {error}")
                code = ExitCode.UNKNOWN
            entries = [entry_for(board)[0] for board in made]
            pages = write_book(entries, output, 4, f"Sudoku: {len(entries)} puzzles", True)
        warn(f"sudokit: {output}: {len(entries)} puzzles on {pages} pages")
        sys.exit(code)
    hint = "; run the same command with --resume to go on" if options.get("seed") is not None else ""
    with contextlib.ExitStack() as stack, interruptible(hint):
        try:
            client = stack.enter_context(connect(dask_address, workers)) if dask_address else None
            advance = progress_bar(stack, count) if show else None
            done = generate_file(output, count or None, output_format=output_format, client=client, workers=workers,
                                 resume=resume, on_puzzle=(lambda total: advance()) if advance else None, **options)
        except GenerationError as error:
            warn(f"sudokit: {error}")
            sys.exit(ExitCode.UNKNOWN)
        except BatchError as error:
            warn(f"sudokit: {error}" + (f" (--{error.parameter})" if error.parameter else ""))
            sys.exit(ExitCode.BAD_INPUT)
    again = f", {done.resumed_at} of them before resuming" if done.resumed_at is not None else ""
    warn(f"sudokit: {output}: {done.puzzles} puzzles{again}")
    sys.exit(ExitCode.OK)
