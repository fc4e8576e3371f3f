"""``python -m sudokit``: the same command as ``sudokit``."""

from .cli import main

main()
