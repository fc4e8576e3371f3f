"""Errors: a malformed text is an error (:class:`FormatError`); a puzzle that breaks the rules,
has no solution or has several is a *result*, reported by ``Board.status()`` and the result
objects (:mod:`sudokit.results`, which also owns the exit codes).
"""

from __future__ import annotations


class FormatError(ValueError):
    """A text that is not a board, with where it went wrong.

    ``line`` and ``column`` are 1-based and count in the whole input (not in the record);
    ``source`` names the file when there is one. ``str(error)`` is ``source:line:col: message``.
    """

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        source: str | None = None,
    ) -> None:
        self.message = message
        self.line = line
        self.column = column
        self.source = source
        super().__init__(self._render())

    def _render(self) -> str:
        where = [part for part in (self.source, self.line, self.column) if part is not None]
        prefix = ":".join(str(part) for part in where)
        return f"{prefix}: {self.message}" if prefix else self.message

    def located(
        self, *, line_offset: int = 0, source: str | None = None
    ) -> FormatError:
        """The same error moved ``line_offset`` lines down and attributed to ``source``."""
        return FormatError(
            self.message,
            line=None if self.line is None else self.line + line_offset,
            column=self.column,
            source=source if source is not None else self.source,
        )

    def __reduce__(self):  # keep line and column across pickling (worker processes)
        return (_rebuild_format_error, (self.message, self.line, self.column, self.source))


def _rebuild_format_error(message, line, column, source) -> FormatError:
    return FormatError(message, line=line, column=column, source=source)


def quote(text: str, limit: int = 40) -> str:
    """``repr`` of a piece of input, cut short with an ellipsis when long."""
    if len(text) > limit:
        return repr(text[:limit]) + "..."
    return repr(text)
