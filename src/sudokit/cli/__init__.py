"""The ``sudokit`` command: a thin layer of options over the library.

Every input record yields exactly one output record, in order, in the input's format. A puzzle
with no solution (or several, under ``--unique``) yields a marked record on stdout and a message
on stderr, and the rest of the input is still processed; the exit status says what happened
(see :class:`sudokit.ExitCode`). ``base`` holds what the commands share and the group;
``machine``, ``people`` and ``setters`` the commands, each module imported when one of its
commands is called (``base.COMMAND_MODULES``).
"""

from .base import cli, main

__all__ = ["cli", "main"]
