"""An SVG picture of a board, for notebooks (``Board._repr_svg_``, results' ``_repr_html_``)."""

from __future__ import annotations

from html import escape  # not xml.sax.saxutils: that one imports urllib, http and ssl (55 ms at start-up)

from ._data import BoardLike

CELL = 28  #: pixels per cell
MARGIN = 2
#: the colour of values a solver filled in, set apart from the givens (black)
FILLED = "#1f5fbf"


def format(board: BoardLike, puzzle: BoardLike | None = None) -> str:
    """The board as a standalone SVG document: thin cell lines, thick box lines. With
    ``puzzle``, the values it does not give (a solver's) are drawn in blue."""
    shape = board.shape
    size = shape.size
    side = size * CELL + 2 * MARGIN
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{side}" '
        f'viewBox="0 0 {side} {side}">',
        f'<rect x="{MARGIN}" y="{MARGIN}" width="{size * CELL}" height="{size * CELL}" '
        'fill="white" stroke="black" stroke-width="2"/>',
    ]
    for index in range(1, size):
        offset = MARGIN + index * CELL
        for along, thick in ((True, index % shape.box_width == 0), (False, index % shape.box_height == 0)):
            width = 2 if thick else 0.5
            if along:  # vertical line between columns
                coords = f'x1="{offset}" y1="{MARGIN}" x2="{offset}" y2="{side - MARGIN}"'
            else:  # horizontal line between rows
                coords = f'x1="{MARGIN}" y1="{offset}" x2="{side - MARGIN}" y2="{offset}"'
            parts.append(f'<line {coords} stroke="black" stroke-width="{width}"/>')
    font = int(CELL * 0.6)
    givens = puzzle.cells.tolist() if puzzle is not None else board.cells.tolist()
    for cell, value in enumerate(board.cells.tolist()):
        if value:
            row, col = divmod(cell, size)
            x = MARGIN + col * CELL + CELL / 2
            y = MARGIN + row * CELL + CELL / 2
            colour = "" if givens[cell] else f' fill="{FILLED}"'
            parts.append(
                f'<text x="{x}" y="{y}" font-size="{font}" font-family="sans-serif" '
                f'text-anchor="middle" dominant-baseline="central"{colour}>'
                f"{escape(board.symbols[value - 1])}</text>"
            )
    parts.append("</svg>")
    return "\n".join(parts)
