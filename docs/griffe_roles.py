"""A griffe extension that reads sudokit's docstrings as they are written: Sphinx roles
(:class:`Board`, :func:`sudokit.solve`, :data:`STATUSES`, ``~`` included), doctest blocks
(``>>>``) and ``::`` literal blocks, turned into the Markdown that mkdocstrings renders.

A role becomes a cross-reference to the name it resolves to in the package; a name that
resolves nowhere is logged as a warning, so ``mkdocs build --strict`` fails on a stale
reference. A name that exists but has no section in the reference renders as code.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_logger = griffe.get_logger("griffe_roles")

ROLE = re.compile(r":(?:py:)?(class|func|meth|data|attr|mod|exc|obj):`(~?)([\w.]+)(?:\(\))?`")
DOCTEST = re.compile(r"^(\s*)>>> ")


class SphinxRoles(griffe.Extension):
    """Rewrite every docstring of the package once it is loaded."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        for obj in _objects(pkg):
            if obj.docstring is not None:
                obj.docstring.value = markdown(obj.docstring.value, obj)


def _objects(obj: griffe.Object):
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _objects(member)


def markdown(text: str, scope: griffe.Object) -> str:
    """The docstring ``text`` of ``scope`` with its reST constructs in Markdown."""
    text = ROLE.sub(lambda match: _reference(match, scope), text)
    return _blocks(text)


def _reference(match: re.Match, scope: griffe.Object) -> str:
    role, short, name = match.groups()
    target = _resolve(name, scope)
    shown = name.rsplit(".", 1)[-1] if short else name
    if role in ("func", "meth"):
        shown += "()"
    if target is None:
        where = f"{scope.relative_filepath}:{scope.lineno}" if scope.lineno else scope.path
        _logger.warning(f"{where}: {scope.path}'s docstring names {name!r}, which is not in the package")
        return f"`{shown}`"
    return f'<autoref identifier="{target}" optional><code>{shown}</code></autoref>'


def _resolve(name: str, scope: griffe.Object) -> str | None:
    """The path ``name`` means in ``scope``'s docstring: a name in its scope or one of its
    parents', a dotted path from there, or a full path from the package's root."""
    head, _, rest = name.partition(".")
    package = scope.package
    candidates = []
    try:
        candidates.append(scope.resolve(head))
    except (griffe.NameResolutionError, ValueError, KeyError):
        pass
    for holder in (scope, *_parents(scope)):
        if head in holder.members:
            candidates.append(holder.members[head].path)
    if head == package.name:
        candidates.append(package.path)
    for path in candidates:
        full = f"{path}.{rest}" if rest else path
        found = _lookup(package, full)
        if found is not None:
            return found
    return None


def _parents(obj: griffe.Object):
    while obj.parent is not None:
        obj = obj.parent
        yield obj


def _lookup(package: griffe.Module, path: str) -> str | None:
    """The path of the object at ``path`` (an alias's target's), or None."""
    if path == package.path:
        return path
    if not path.startswith(package.path + "."):
        return path  # a name from outside the package (numpy.ndarray): not checked
    try:
        found = package[path[len(package.path) + 1 :]]
    except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None
    if found.is_alias:
        try:
            return found.final_target.path
        except (griffe.AliasResolutionError, griffe.CyclicAliasError):
            return found.path
    return found.path


def _blocks(text: str) -> str:
    """Doctest blocks fenced as ``pycon``; a paragraph ending in ``::`` ends in ``:``, the
    indented block after it staying a Markdown code block."""
    out: list[str] = []
    in_doctest = False
    for line in text.split("\n"):
        if not in_doctest and DOCTEST.match(line):
            if out and out[-1].strip():
                out.append("")
            out.append("```pycon")
            in_doctest = True
        elif in_doctest and not line.strip():
            out.append("```")
            in_doctest = False
        if not in_doctest and line.rstrip().endswith("::") and not line.strip().startswith("::"):
            line = line.rstrip()[:-1]
        out.append(line)
    if in_doctest:
        out.append("```")
    return "\n".join(out)
