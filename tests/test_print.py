"""Printable books: ``sudokit print`` and ``generate --to pdf``, read back with pypdf (text
and pages) and rendered with pypdfium2 (a page is not blank)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pypdf
import pypdfium2
import pytest
from click.testing import CliRunner

import sudokit
from sudokit import Board
from sudokit.cli import cli
from sudokit.printing import Entry, book

DATA = Path(__file__).parent / "data"


def pages_text(data: bytes) -> list[str]:
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages]


def ink(data: bytes, page: int = 0) -> float:
    """The share of a rendered page's pixels that are dark."""
    document = pypdfium2.PdfDocument(data)
    image = np.asarray(document[page].render(scale=1.0).to_pil().convert("L"))
    return float((image < 128).mean())


@pytest.mark.parametrize("per_page, pages", [(1, 6), (2, 3), (4, 2), (6, 1)])
def test_layouts_number_and_level(per_page, pages):
    puzzles = sudokit.generate(6, seed=21)
    entries = [Entry(board, "easy", sudokit.solve(board).board) for board in puzzles]
    out = io.BytesIO()
    written = book(entries, out, per_page=per_page, title="Book of six")
    data = out.getvalue()
    texts = pages_text(data)
    assert written == len(texts) == pages + 1  # the solutions take one page at the end
    assert "Book of six" in texts[0]
    everything = "\n".join(texts)
    for number in range(1, 7):
        assert f"Puzzle {number}" in everything and f"Solution {number}" in texts[-1]
    assert "easy" in texts[0]
    assert 0.005 < ink(data) < 0.5 and ink(data, written - 1) > 0.005


def test_print_command_with_variants_and_16x16(tmp_path):
    lines = [json.loads((DATA / "variants" / f"{name}.jsonl").read_text().splitlines()[0]) for name in ("jigsaw", "killer", "x")]
    source = tmp_path / "variants.jsonl"
    source.write_text("\n".join(json.dumps(line) for line in lines) + "\n" + "bad record\n")
    target = tmp_path / "book.pdf"
    result = CliRunner().invoke(cli, ["print", str(source), "-o", str(target), "--per-page", "2", "--title", "Variants"])
    assert result.exit_code == 2, result.output  # the bad record: reported, left out
    assert "variants.jsonl:4:1" in result.output
    data = target.read_bytes()
    texts = pages_text(data)
    assert len(texts) == 3  # two pages of puzzles, one of solutions
    assert "Variants" in texts[0] and "Puzzle 3" in texts[1]
    killer = lines[1]
    assert str(killer["cages"][0][0]) in texts[0]  # a cage's sum is printed
    assert ink(data) > 0.005 and ink(data, 1) > 0.005


@pytest.mark.slow  # 10 s: generates and lays out a whole book
def test_generate_to_pdf(tmp_path):
    target = tmp_path / "g.pdf"
    result = CliRunner().invoke(cli, ["generate", "-n", "3", "--seed", "2", "--shape", "16x16", "--to", "pdf", "-o", str(target)])
    assert result.exit_code == 0, result.output
    texts = pages_text(target.read_bytes())
    assert len(texts) == 2 and "Puzzle 3" in texts[0]
    result = CliRunner().invoke(cli, ["generate", "--to", "pdf"])
    assert result.exit_code == 2 and "-o FILE" in result.output


def test_refusals():
    with pytest.raises(ValueError, match="per_page"):
        book([Entry(Board.empty(9))], io.BytesIO(), per_page=3)
    with pytest.raises(ValueError, match="4x4 to 16x16"):
        book([Entry(Board.empty(25))], io.BytesIO())
    assert book([Entry(Board.empty(4))], io.BytesIO(), solutions=False) == 1
