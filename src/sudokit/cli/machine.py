"""The commands that answer a program's questions about one board at a time: solve, count,
maximize, minimize (``batch``, for files at scale, has a module of its own)."""

from __future__ import annotations

import sys
from typing import IO, Callable

import click

from ..board import Record
from ..errors import FormatError
from ..formats import FORMATS, format_board
from ..optimize import PRESETS, as_weights, optimum, parse_weights
from ..results import UNLIMITED, ExitCode, Limits, SolveResult, Tally
from ..solver import run as search
from .base import MARKERS, boards, cli, input_options, interruptible, marker, no_solution, warn, where


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
