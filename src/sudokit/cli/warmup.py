"""``sudokit warmup``: every kernel compiled and cached now, in a module of its own since it
imports every part of the package."""

from __future__ import annotations

import click

from .. import engines, warming
from ..canon import canonical
from ..generator import generate
from ..logic import rate, se
from ..logic.scales import ALL
from ..setters import estimate
from .base import cli


@cli.command()
def warmup() -> None:
    """Compile and cache every kernel now (useful after installing, or in a container image)."""
    warmed = engines.warm_up()
    warming.family("search.generate").warm()  # both ways of proving uniqueness, the big grids
    warmed.append("generation")
    rate(generate(1, seed=1)[0], scale=ALL)  # the human-style finders, the rating loops of both scales
    warmed.append("logic")
    se.warm_nested()  # minutes: only puzzles rated 9.5 and more reach them
    warmed.append("nested forcing chains")
    canonical("." * 81)
    warmed.append("canonical forms")
    estimate("." * 16, samples=10, seed=1)
    warmed.append("estimation")
    click.echo(f"sudokit: kernels compiled and cached ({', '.join(warmed)})")
