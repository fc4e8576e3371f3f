"""The API reference (mkdocs.yml, docs/) builds without a warning, and its hand-written parts
say what the code does: every command and option of the command line, every endpoint and
field of the web API, HoDoKu's and Sudoku Explainer's tables, the floors and rooms."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest

import test_architecture
from sudokit.cli import cli
from sudokit.kernels.se import rate as se_rate
from sudokit.logic.techniques import TECHNIQUES
from sudokit.web import api
from sudokit.web.messages import BUDGET_FIELDS, PUZZLE_FIELDS, ApiError, Settings

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def page(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def sections(text: str, level: str = "###") -> dict[str, str]:
    """Each heading of ``level`` and the text under it, up to the next heading of that level
    or a higher one."""
    parts = re.split(rf"^({level} .*)$", text, flags=re.M)
    out = {}
    for heading, body in zip(parts[1::2], parts[2::2]):
        higher = re.search(rf"^#{{1,{len(level)}}} ", body, flags=re.M)
        out[heading[len(level) + 1 :]] = body[: higher.start()] if higher else body
    return out


@pytest.mark.slow
def test_the_reference_builds_without_a_warning(tmp_path):
    """``mkdocs build --strict``: a broken link or anchor, a page outside the navigation, a
    docstring naming something that is not in the package, or any other warning fails it."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    warnings = [line for line in output.splitlines() if line.startswith(("WARNING", "ERROR"))]
    assert not warnings, "\n".join(warnings)
    site = tmp_path / "site"
    for name in ("boards", "solving", "batch", "human", "generation", "variants", "web", "cli", "architecture"):
        assert (site / name / "index.html").is_file(), name
    assert (site / "web-page.png").is_file()  # the README's screenshot lives in docs/ too
    board = (site / "boards" / "index.html").read_text(encoding="utf-8")
    assert 'id="sudokit.Board.from_line"' in board  # the reference sections come from the docstrings
    assert ":class:" not in board and ":func:" not in board  # roles rendered as links or code


def test_every_command_and_option_is_on_the_command_line_page():
    text = page("cli.md")
    headings = " ".join(sections(text))
    for name, command in cli.all_commands().items():
        assert f"`sudokit {name}`" in headings, f"no section for sudokit {name}"
        for parameter in command.params:
            if isinstance(parameter, click.Option):
                for option in (*parameter.opts, *parameter.secondary_opts):
                    if option.startswith("--") and option != "--help":
                        found = re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text)
                        assert found, f"sudokit {name} {option} is not on docs/cli.md"


def accepted_fields(name: str) -> set[str]:
    """The fields an endpoint takes, as it says when it refuses one it does not."""
    with pytest.raises(ApiError) as refused:
        api.ENDPOINTS[name]({"no such field": 1}, Settings())
    match = re.search(r"this endpoint takes (.*)$", refused.value.message)
    assert match, refused.value.message
    return set(match.group(1).split(", "))


def test_every_endpoint_and_field_is_on_the_web_page():
    text = page("web.md")
    endpoints = sections(text)
    assert "`GET /api/info`" in endpoints
    for name in api.ENDPOINTS:
        heading = f"`POST /api/{name}`"
        assert heading in endpoints, f"no section for {heading}"
        own = accepted_fields(name) - set(PUZZLE_FIELDS) - set(BUDGET_FIELDS)
        for field in own:
            assert f"`{field}`" in endpoints[heading], f"{heading} takes {field}, which its section does not say"
    for field in PUZZLE_FIELDS + BUDGET_FIELDS:
        assert f"| `{field}` |" in text, f"the shared field {field} is not in the web page's tables"


def table_rows(text: str, header: str) -> list[list[str]]:
    """The cells of each row of the Markdown table whose header row starts with ``header``."""
    lines = text[text.index(header) :].splitlines()[2:]
    rows = []
    for line in lines:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_hodoku_table_is_the_engine_s():
    rows = table_rows(page("human.md"), "| Technique (variants) |")
    assert len(rows) == len(TECHNIQUES)
    for (name, code, score, level), technique in zip(rows, TECHNIQUES):
        variants = f" ({', '.join(technique.variants)})" if technique.variants else ""
        assert name == technique.name + variants
        assert code == (technique.code or "-")
        assert (int(score), level) == (technique.score, technique.level.value), technique.name


def test_se_table_is_the_rating_loop_s():
    rows = table_rows(page("human.md"), "| # | Rule |")
    assert len(rows) == se_rate.RULES
    for number, (rule, (position, name, floor)) in enumerate(zip(se_rate.RULE_NAMES, rows), 1):
        assert int(position) == number
        assert name.lower().startswith(rule), (name, rule)
        assert float(floor) == pytest.approx(float(se_rate.RULE_FLOORS[number - 1])), name


def test_architecture_page_names_every_floor_and_room():
    text = page("architecture.md")
    for floor in test_architecture.FLOORS:
        for module in floor:
            assert f"`{module}`" in text, f"{module} (a floor of tests/test_architecture.py) is not on the page"
    for room in test_architecture.KERNEL_ROOMS:
        for module in room:
            path = module.replace("sudokit.", "", 1).replace(".", "/")
            path = f"{path}.py" if module.endswith(".ahead") else f"{path}/"
            assert f"`{path}`" in text, f"the kernel room {path} is not on the page"
