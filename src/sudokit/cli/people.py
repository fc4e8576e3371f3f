"""The commands that answer a person's questions: how hard (rate), why (explain), what next
(hint), a new puzzle (generate), the same puzzle in canonical form or shuffled (canon,
shuffle), and the web page (serve)."""

from __future__ import annotations

import contextlib
import itertools
import json
import sys
from typing import IO, Callable

import click
import numpy as np

from .. import logic
from ..board import Record
from ..canon import canonical
from ..canon import shuffle as shuffled
from ..formats import FORMATS, format_board
from ..generator import DEFAULT_ATTEMPTS, SYMMETRIES, GenerationError
from ..generator import generate_iter as make_puzzles
from ..logic.scales import HODOKU, SINGLE, Scale, scale_of
from ..results import ExitCode, SolveStatus, Tally
from ..shape import Shape
from .base import (
    MARKERS, SECONDS, board_of, boards, check_symbols, cli, interruptible, marker, parse_shape, records, warn, where,
)


# -- the human side: hints, explanations, ratings --------------------------------------------


def _human_options(command: Callable) -> Callable:
    """Options shared by ``rate``, ``explain`` and ``hint``: the puzzles in."""
    options = [
        click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, allow_dash=True)),
        click.option("--format", "input_format", type=click.Choice(FORMATS), help="Input format (default: detected from the first puzzle)."),
        click.option("--shape", callback=parse_shape, metavar="NxN|HxW|N", help="Board (9x9), box shape (2x3: 2 rows by 3 columns) or board size (6) (default: from the input)."),
        click.option("--symbols", callback=check_symbols, metavar="CHARS", help="The symbols of values 1..n (default: inferred)."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _unratable(status: str, source: str, record: Record, tally: Tally, out: IO[str]) -> None:
    """A puzzle with no solution or several, or one whose proof of uniqueness a budget cut:
    marked on stdout, said on stderr, as ``solve --unique`` does."""
    tally.add(status)
    why = ("the proof that it has one solution, or the rating, ran out of budget (--time-limit, --node-limit)"
           if status == SolveStatus.UNKNOWN.value else "hints and ratings need exactly one solution")
    warn(f"{where(source, record)}: {MARKERS[status]}: {why}")
    out.write(marker("line", status))


def _refused(source: str, record: Record, why: object, tally: Tally, out: IO[str],
             cell: tuple[int, int] | None = None, record_format: str = "line") -> None:
    """A board a command does not take (a variant's rules; not 9x9 on SE's scale; repeated
    givens, at ``cell``): that record's error, its marker written as a ``record_format``
    record, and the run goes on with the next (one output record per input)."""
    tally.add("error")
    warn(f"{where(source, record, cell)}: {why}")
    out.write(marker(record_format, "error"))


#: ``--node-limit`` of ``rate``, ``explain`` and ``hint``: it bounds the proof, not the techniques
_proof_node_limit = click.option("--node-limit", type=click.IntRange(min=1), metavar="N",
                                 help="Search-node budget per puzzle for the proof that it has one solution.")


def _parse_scale(ctx, param, value: str) -> Scale:
    """``--scale``'s name as its :class:`~sudokit.logic.scales.Scale`."""
    return scale_of(value)


def _scale_options(command: Callable) -> Callable:
    """``--scale`` and the budget Sudoku Explainer's rating takes (``rate``, ``explain``)."""
    options = [
        click.option("--scale", type=click.Choice(SINGLE), default=HODOKU.name, show_default=True, callback=_parse_scale,
                     help="hodoku: HoDoKu's level and score; se: Sudoku Explainer's ER/EP/ED (9x9)."),
        click.option("--time-limit", type=SECONDS, metavar="SECONDS",
                     help="Budget per puzzle; an SE rating past it is 'unknown' with its lower bounds"
                          " (default: none; puzzles rated 10.5 and more take minutes, as in SE)."),
        _proof_node_limit,
        click.option("--potential-limit", type=click.IntRange(min=1), metavar="N",
                     help="Budget per puzzle for SE's rating: potentials its chains may process."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


@cli.command()
@_human_options
@_scale_options
@click.option("--to", "output", type=click.Choice(["text", "tsv", "json"]), default="text", show_default=True,
              help="text: puzzle level score (or ER/EP/ED); tsv: the same tab-separated under a header; json: one object a line, with the techniques used.")
def rate(files, input_format, shape, symbols, scale, time_limit, node_limit, potential_limit, output) -> None:
    """Rate every puzzle on HoDoKu's scale: its level (easy, medium, hard, unfair, extreme) and
    score, one line per puzzle; with ``--scale se`` on Sudoku Explainer's: ``ER/EP/ED`` (an
    'unknown' puzzle, past the budget, shows its lower bounds after '>=')."""
    tally = Tally()
    out = sys.stdout
    with interruptible():
        read = records(files, input_format, shape, symbols)
        first = next(read, None)  # an input refused as a whole ends the command here, before the header
        if output == "tsv":
            out.write("\t".join(("puzzle",) + scale.header) + "\n")
        for source, record in itertools.chain([first] if first is not None else [], read):
            board = board_of(record, tally, out, "line")
            if board is None:
                continue
            if not scale.takes(board):
                _refused(source, record, scale.refusal, tally, out)
                continue
            try:
                rating = logic.rate(board, scale=scale, time_limit=time_limit, node_limit=node_limit,
                                    potential_limit=potential_limit)
            except ValueError as error:  # a variant's rules
                _refused(source, record, error, tally, out)
                continue
            if not rating.rated:
                _unratable(rating.status.value, source, record, tally, out)
                continue
            line, rated = board.to_line(), rating.to_json()
            tally.add("unknown" if scale.unknown(rated) else "solved")
            if output == "json":
                out.write(json.dumps({"puzzle": line, **scale.fields(rated)}) + "\n")
            elif output == "tsv":
                out.write("\t".join((line,) + scale.cells(rated)) + "\n")
            else:
                out.write(f"{line} {scale.text(rated)}\n")
            out.flush()
    sys.exit(tally.exit_code)


@cli.command()
@_human_options
@_scale_options
@click.option("--pretty", is_flag=True, help="Draw the candidate grid before each step, the pattern highlighted and the eliminations struck out (HoDoKu's scale).")
def explain(files, input_format, shape, symbols, scale, time_limit, node_limit, potential_limit, pretty) -> None:
    """Explain every puzzle step by step, each step the easiest one available; the puzzle line,
    numbered steps, then the rating, and an empty line between puzzles. With ``--scale se``
    the steps are Sudoku Explainer's, each with its rating, then ER/EP/ED."""
    tally = Tally()
    out = sys.stdout
    with interruptible():
        for source, record, board in boards(files, input_format, shape, symbols, tally, out, "line"):
            if not scale.takes(board):
                _refused(source, record, scale.refusal, tally, out)
                continue
            if scale.se:
                path = logic.explain_se(board, time_limit=time_limit, node_limit=node_limit,
                                         potential_limit=potential_limit)
                if path.result is None:
                    _unratable(path.status.value, source, record, tally, out)
                    continue
                tally.add("unknown" if path.status is SolveStatus.UNKNOWN else "solved")
                out.write(board.to_line() + "\n" + str(path) + "\n\n")
                out.flush()
                continue
            try:
                explanation = logic.explain(board, time_limit=time_limit, node_limit=node_limit)
            except ValueError as error:  # a variant's rules
                _refused(source, record, error, tally, out)
                continue
            if explanation.status is not SolveStatus.SOLVED:
                _unratable(explanation.status.value, source, record, tally, out)
                continue
            tally.add("solved")
            out.write(board.to_line() + "\n")
            if pretty:
                _print_explanation(explanation, out)
            else:
                for number, step in enumerate(explanation.steps, 1):
                    out.write(f"{number}. {step.text}\n")
            if not explanation.solved:
                out.write(f"stuck: no technique applies after {len(explanation.steps)} steps\n")
            out.write(f"rating: {explanation.rating.level} (score {explanation.rating.score})\n\n")
            out.flush()
    sys.exit(tally.exit_code)


@cli.command()
@_human_options
@click.option("--time-limit", type=SECONDS, metavar="SECONDS",
              help="Budget per puzzle for the proof that it has one solution (default: none).")
@_proof_node_limit
def hint(files, input_format, shape, symbols, time_limit, node_limit) -> None:
    """The easiest next step for every puzzle, one line each ('solved' for a complete board,
    'stuck' when no technique applies)."""
    tally = Tally()
    out = sys.stdout
    with interruptible():
        for source, record, board in boards(files, input_format, shape, symbols, tally, out, "line"):
            try:
                step = logic.hint(board, time_limit=time_limit, node_limit=node_limit)
            except logic.NotUnique as error:
                _unratable(error.status.value, source, record, tally, out)
                continue
            except ValueError as error:  # a variant's rules
                _refused(source, record, error, tally, out)
                continue
            tally.add("solved")
            if step is not None:
                out.write(step.text + "\n")
            else:
                out.write("solved\n" if board.status().complete else "stuck: no technique applies\n")
            out.flush()
    sys.exit(tally.exit_code)


def _print_explanation(explanation, out: IO[str]) -> None:
    """Each step under the candidate grid it was found on, drawn with rich."""
    # start-up cost: rich loads only when grids are drawn
    from rich.console import Console

    from ..render import candidate_grid_text

    console = Console(file=out, highlight=False, soft_wrap=True)
    grid = logic.CandidateGrid(explanation.puzzle)
    for number, step in enumerate(explanation.steps, 1):
        console.print(candidate_grid_text(grid.values, grid.candidates, grid.board.shape, grid.board.symbols, step))
        console.print(f"{number}. {step.text}")
        grid.apply(step)


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (the default serves this machine only).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port to listen on.")
def serve(host, port) -> None:
    """Serve the web page and its JSON API: paste a puzzle, check, solve, hints, explanations,
    ratings (needs the web extra: pip install 'sudokit[web]'). Ctrl-C stops it."""
    try:
        # optional extra: starlette and uvicorn come with sudokit[web]
        from ..web import serve as serve_page
    except ImportError as error:
        warn(f"sudokit: serve needs the web extra: pip install 'sudokit[web]' ({error})")
        sys.exit(ExitCode.BAD_INPUT)
    warn(f"sudokit: serving on http://{'[' + host + ']' if ':' in host else host}:{port}/ (Ctrl-C stops it)")
    serve_page(host, port)


# -- new puzzles ------------------------------------------------------------------------------


def _parse_score(ctx, param, value: str | None):
    if value is None:
        return None
    low, sep, high = value.partition("-")
    try:
        if not sep:
            return (int(low), None)
        return (int(low) if low.strip() else None, int(high) if high.strip() else None)
    except ValueError:
        raise click.BadParameter(f"expected LOW-HIGH, LOW- or -HIGH (HoDoKu's score), not {value!r}") from None


@cli.command()
@click.option("-n", "--count", type=click.IntRange(min=0), default=1, show_default=True,
              help="How many puzzles (0: a stream without end, until Ctrl-C or --time-limit).")
@click.option("--shape", "board_shape", default="9x9", show_default=True, metavar="NxN|HxW|N",
              help="Board (9x9, 16x16), box shape (2x3: 2 rows by 3 columns) or board size (6).")
@click.option("--symmetry", type=click.Choice(SYMMETRIES), default="none", show_default=True,
              help="Symmetry of the pattern of givens.")
@click.option("--clues", type=click.IntRange(min=1), metavar="N", help="At most N givens.")
@click.option("--minimal/--not-minimal", default=True, show_default=True,
              help="No given can be taken out without losing uniqueness (proven); with --symmetry, no symmetric group"
                   " of givens (see --strict-minimal); --not-minimal may stop at --clues.")
@click.option("--strict-minimal", is_flag=True,
              help="With --symmetry, keep only puzzles from which no single given can go either (rare with the bigger symmetries).")
@click.option("--mixing", type=click.IntRange(min=0), default=0, show_default=True, metavar="MOVES",
              help="Gibbs moves on each full grid, towards uniformly drawn grids (each about 6x a grid's cost on 9x9).")
@click.option("--level", metavar="LEVEL", help="HoDoKu's level: easy, medium, hard, unfair, extreme ('hard+' for hard and above).")
@click.option("--score", callback=_parse_score, metavar="LOW-HIGH", help="HoDoKu's score in this range (LOW- or -HIGH for open ends).")
@click.option("--seed", type=click.IntRange(min=0), help="The same seed prints the same puzzles, with any --workers.")
@click.option("--workers", type=click.IntRange(min=1), envvar="SUDOKIT_WORKERS", help="Threads (default: $SUDOKIT_WORKERS, else every CPU).")
@click.option("--attempts", type=click.IntRange(min=1), metavar="N", help=f"Puzzles carved at most per puzzle asked for (default {DEFAULT_ATTEMPTS:,}).")
@click.option("--time-limit", type=SECONDS, metavar="SECONDS", help="Stop after this long in all.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), help="Write the puzzles here (default: stdout).")
@click.option("--to", "output_format", type=click.Choice(FORMATS + ("pdf",)), default="line", show_default=True,
              help="Output format (pdf: a printable book with -o, see 'sudokit print').")
@click.option("--progress/--no-progress", default=None, help="Progress bar on stderr (default: when stderr is a terminal and -o is a file).")
@click.option("--dask", "dask_address", metavar="ADDRESS", help="Carve on a Dask cluster (scheduler address or file, or 'local'): the same puzzles as here.")
@click.option("--resume", is_flag=True, help="Go on from where an interrupted run with the same -o and --seed stopped.")
def generate(count, board_shape, symmetry, clues, minimal, strict_minimal, mixing, level, score, seed, workers, attempts,
             time_limit, output, output_format, progress, dask_address, resume) -> None:
    """Generate new puzzles, each with exactly one solution (proven), streamed as they are
    made. A target the budget cannot reach (--clues, --level, --score) stops with what was
    made and exit status 3. With --dask or --resume the puzzles go to -o a round at a time,
    synced, so that --resume completes an interrupted run (as 'sudokit batch' does)."""
    options = dict(shape=board_shape, symmetry=symmetry, clues=clues, minimal="strict" if minimal and strict_minimal else minimal,
                   level=level, score=score, seed=seed, attempts=attempts, time_limit=time_limit, mixing=mixing)
    try:
        stream = make_puzzles(None if count == 0 else count, workers=workers, **options)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    if strict_minimal and not minimal:
        raise click.UsageError("--strict-minimal and --not-minimal contradict each other")
    made_shape = Shape.parse(board_shape)
    if made_shape != Shape.for_size_or_none(made_shape.size) and output_format not in ("json", "pdf"):
        # the other formats cannot carry a box shape the size does not have by default
        warn(f"sudokit: these are {made_shape.name}; read them back with --shape {made_shape.box_height}x{made_shape.box_width} "
             f"(--to json writes the boxes into each record)")
    if output_format == "pdf" or dask_address or resume:
        from . import setters  # Dask, the PDF pages and the resumable file: its own module's

        setters.generate_to_file(stream, count, options, workers, output, output_format, progress, dask_address, resume,
                                 _generate_progress)
    try:
        out = click.open_file(output or "-", "w")
    except OSError as error:
        raise click.UsageError(f"cannot write {output}: {error.strerror or error}") from None
    show = progress if progress is not None else (sys.stderr.isatty() and bool(output) and output != "-")
    made = 0
    with contextlib.ExitStack() as stack, interruptible():
        stack.enter_context(out)
        advance = _generate_progress(stack, count) if show else None
        try:
            for board in stream:
                out.write(format_board(board, output_format))
                out.flush()
                made += 1
                if advance is not None:
                    advance()
        except GenerationError as error:
            warn(f"sudokit: {error}")
            sys.exit(ExitCode.UNKNOWN)
    sys.exit(ExitCode.OK)


def _generate_progress(stack, count: int):
    """A rich progress bar on stderr for ``generate``; returns the function that advances it."""
    # start-up cost: rich's progress bar imports only when a terminal shows one
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn, TimeRemainingColumn

    bar = stack.enter_context(Progress(
        "puzzles", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), "eta", TimeRemainingColumn(),
        console=Console(stderr=True),
    ))
    task = bar.add_task("generate", total=count or None)
    return lambda: bar.advance(task)


# -- equivalent boards: canonical forms and shuffles --------------------------------------------


@cli.command()
@_human_options
def canon(files, input_format, shape, symbols) -> None:
    """The canonical (minlex) form of every 9x9 puzzle, one line each: the smallest of its
    equivalent rearrangements, '.' for empty and the digits renamed 1-9 in order of first
    appearance. Equivalent puzzles, and only they, print the same line."""
    tally = Tally()
    out = sys.stdout
    with interruptible():
        for source, record, board in boards(files, input_format, shape, symbols, tally, out, "line"):
            try:
                line = canonical(board)
            except ValueError as error:  # not 9x9, a variant's rules, or givens that repeat
                conflicts = board.status().conflicts
                _refused(source, record, error, tally, out, cell=conflicts[0].cells[0] if conflicts else None)
                continue
            tally.add("solved")
            out.write(line + "\n")
            out.flush()
    sys.exit(tally.exit_code)


@cli.command()
@_human_options
@click.option("--seed", type=click.IntRange(min=0), help="Seed of the random moves (default: fresh each run); the same seed prints the same boards.")
def shuffle(files, input_format, shape, symbols, seed) -> None:
    """A random equivalent of every puzzle, in the input's format: bands, rows in a band,
    stacks and columns in a stack reordered, transposed (square boxes) and values renamed, each
    rearrangement equally likely."""
    rng = np.random.default_rng(seed)
    tally = Tally()
    out = sys.stdout
    with interruptible():
        for source, record, board in boards(files, input_format, shape, symbols, tally, out):
            try:
                moved = shuffled(board, rng)
            except ValueError as error:  # a variant's rules, which the moves would break
                _refused(source, record, error, tally, out, record_format=record.format)
                continue
            tally.add("solved")
            out.write(format_board(moved, record.format))
            out.flush()
    sys.exit(tally.exit_code)
