"""Boards for a person's eyes in a terminal: the boxed grid, with the givens set apart."""

from __future__ import annotations

from rich.text import Text

from .board import Board

GIVEN_STYLE = "bold"
FILLED_STYLE = "cyan"


def board_text(board: Board, puzzle: Board | None = None) -> Text:
    """The boxed grid of ``str(board)`` as rich text: cells given in ``puzzle`` in bold, cells
    the solver filled in colour (plain text where the terminal has no colour)."""
    shape = board.shape
    table = "." + board.symbols
    givens = puzzle.cells if puzzle is not None else board.cells
    segment = "─" * (2 * shape.box_width + 1)
    stacks = shape.size // shape.box_width

    def rule(left: str, middle: str, right: str) -> str:
        return left + middle.join([segment] * stacks) + right + "\n"

    text = Text(rule("┌", "┬", "┐"))
    for row in range(shape.size):
        if row and row % shape.box_height == 0:
            text.append(rule("├", "┼", "┤"))
        text.append("│")
        for col in range(shape.size):
            cell = row * shape.size + col
            value = int(board.cells[cell])
            style = GIVEN_STYLE if givens[cell] else FILLED_STYLE if value else ""
            text.append(" ")
            text.append(table[value], style=style)
            if (col + 1) % shape.box_width == 0:
                text.append(" │")
        text.append("\n")
    text.append(rule("└", "┴", "┘").rstrip("\n"))
    return text
