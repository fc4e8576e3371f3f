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
    n = shape.size
    # a jigsaw's regions are not boxes: one frame, no inner rules (as ``str(board)``)
    height, width = (shape.box_height, shape.box_width) if board.geometry.is_boxed(shape) else (n, n)
    segment = "─" * (2 * width + 1)
    stacks = n // width

    def rule(left: str, middle: str, right: str) -> str:
        return left + middle.join([segment] * stacks) + right + "\n"

    text = Text(rule("┌", "┬", "┐"))
    for row in range(n):
        if row and row % height == 0:
            text.append(rule("├", "┼", "┤"))
        text.append("│")
        for col in range(n):
            cell = row * n + col
            value = int(board.cells[cell])
            style = GIVEN_STYLE if givens[cell] else FILLED_STYLE if value else ""
            text.append(" ")
            text.append(table[value], style=style)
            if (col + 1) % width == 0:
                text.append(" │")
        text.append("\n")
    text.append(rule("└", "┴", "┘").rstrip("\n"))
    return text


#: styles of a step's parts on the candidate grid
PATTERN_STYLE = "bold yellow"
FIN_STYLE = "bold magenta"
ELIMINATED_STYLE = "red strike"
PLACED_STYLE = "bold green"
CHAIN_STYLES = ("bold blue", "bold cyan", "bold yellow", "bold magenta")


def candidate_grid_text(values, candidates, shape, symbols: str, step=None) -> Text:
    """The candidate grid as rich text: each empty cell shows its candidates in a small block
    (box height rows of box width values); with a ``step``, its pattern is highlighted, its
    eliminations struck out in red and its placements in green. ``values`` are the cell values
    (0 empty), ``candidates`` the candidate masks (bit v-1 for value v)."""
    n, bh, bw = shape.size, shape.box_height, shape.box_width
    styles: dict[tuple[int, int], str] = {}
    if step is not None:
        for cell in step.cells:
            for value in step.values:
                styles[(cell, value)] = PATTERN_STYLE
        for index, (cell, value, flag) in enumerate(step.chain):
            styles[(cell, value)] = CHAIN_STYLES[int(flag) % len(CHAIN_STYLES)] if step.technique.code[:2] == "05" else (
                CHAIN_STYLES[index % 2])
        for cell in step.fins:
            for value in step.values:
                styles[(cell, value)] = FIN_STYLE
        for cell, value in step.eliminations:
            styles[(cell, value)] = ELIMINATED_STYLE
        for cell, value in step.placements:
            styles[(cell, value)] = PLACED_STYLE
    inner = "─" * (bw * (2 * bw + 1) + (bw - 1))
    stacks = n // bw

    def rule(left: str, middle: str, right: str) -> str:
        return left + middle.join([inner] * stacks) + right + "\n"

    text = Text(rule("┏", "┳", "┓"))
    for row in range(n):
        if row and row % bh == 0:
            text.append(rule("┣", "╋", "┫"))
        for line in range(bh):  # each cell is bh lines of bw candidates
            text.append("┃")
            for col in range(n):
                cell = row * n + col
                value = int(values[cell])
                text.append(" ")
                for k in range(bw):
                    candidate = line * bw + k + 1
                    if value:
                        char = symbols[value - 1] if line == bh // 2 and k == bw // 2 else " "
                        text.append(char, style=GIVEN_STYLE)
                    elif candidate <= n and int(candidates[cell]) >> (candidate - 1) & 1:
                        text.append(symbols[candidate - 1], style=styles.get((cell, candidate), ""))
                    else:
                        text.append("·", style="dim")
                    if k + 1 < bw:
                        text.append(" ")
                text.append(" ")
                text.append("┃" if (col + 1) % bw == 0 else "│")
            text.append("\n")
    text.append(rule("┗", "┻", "┛").rstrip("\n"))
    return text
