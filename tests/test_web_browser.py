"""The web page in a real browser: headless Chromium (Debian's ``chromium``) driven by
Playwright, against ``sudokit serve``'s app on a free port of the loopback.

On a developer's machine without Chromium or Playwright these tests skip, saying which is
missing; in CI (``CI=true``) that is a failure, since ``.ci/run`` installs both. The page's
screenshot is kept under ``build/test-artifacts/`` (or ``$SUDOKIT_ARTIFACTS``).
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

import sudokit
from sudokit import Board

try:
    from playwright.sync_api import expect, sync_playwright
except ImportError:  # an optional tool: the fixture below says what to do
    sync_playwright = None  # type: ignore[assignment]

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = Path(os.environ.get("SUDOKIT_ARTIFACTS") or ROOT / "build" / "test-artifacts")
#: the flags the browser needs on a machine without network (else it floods refused connections)
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
BROWSERS = ("chromium", "chromium-browser", "google-chrome")

EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
EASY_SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
MEDIUM = ".617..9..7.4.....1..........965...171....2.....2..8.4..27.....55.8...7964........"
SMALL = "......12.1.3.32."


def _unavailable(reason: str) -> None:
    """Skip on a developer's machine; fail in CI, where the browser must be there."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true: .ci/run installs it; the browser tests must run)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser():
    """Chromium, headless, for the module's tests (skipped or failed when missing, see above)."""
    if sync_playwright is None:
        _unavailable("Playwright for Python is not installed (pip install -e '.[test]')")
    executable = next((found for name in BROWSERS if (found := shutil.which(name))), None)
    if executable is None:
        _unavailable("no Chromium on PATH (Debian: apt-get install chromium)")
    pytest.importorskip("uvicorn", reason="the browser tests serve the page with uvicorn (pip install -e '.[web]')")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, headless=True, args=FLAGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def server(browser):
    """The app under uvicorn in a thread, on a port of 127.0.0.1 the system picks."""
    import uvicorn

    from sudokit.web import api, create_app

    api.warm_up()  # the kernels load before the first page asks, not while a test waits
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(create_app(), log_level="warning", ws="none", lifespan="on")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(200):
        if running.started:
            break
        time.sleep(0.05)
    assert running.started, "uvicorn did not start"
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    running.should_exit = True
    thread.join(10)
    sock.close()


@pytest.fixture
def page(browser, server):
    """A fresh browser context and tab for each test, pointed at the server."""
    context = browser.new_context(viewport={"width": 1180, "height": 800})
    tab = context.new_page()
    tab.set_default_timeout(20_000)
    tab.base = server  # type: ignore[attr-defined]
    yield tab
    context.close()


def open_page(page, query: str = "") -> None:
    """Load the page (with a query) and wait until its script has started."""
    page.goto(page.base + "/" + query)
    expect(page.locator("body")).to_have_attribute("data-ready", "1")


def idle(page) -> None:
    """Wait for the page's request in flight, if any, to be answered."""
    expect(page.locator("body")).to_have_attribute("data-busy", "0")


def values(page) -> str:
    """The board as the page draws it, one line ('.' for empty)."""
    cells = page.eval_on_selector_all(
        "#board g.cell", "gs => gs.map(g => [Number(g.dataset.cell), Number(g.dataset.value)])"
    )
    line = ["."] * len(cells)
    for cell, value in cells:
        if value:
            line[cell] = "123456789ABCDEFG"[value - 1]
    return "".join(line)


def click(page, button: str) -> None:
    """Click a button and wait for the request it makes."""
    page.click(f"#{button}")
    idle(page)


def test_type_a_puzzle_with_the_keyboard_and_solve_it(page):
    open_page(page)
    page.click("#clear")
    page.click('#board g.cell[data-cell="0"]')
    for row in range(9):
        for symbol in EASY[row * 9 : row * 9 + 9]:
            page.keyboard.press(symbol if symbol != "." else "ArrowRight")
            if symbol != ".":
                page.keyboard.press("ArrowRight")
        page.keyboard.press("Home")
        page.keyboard.press("ArrowDown")
    assert values(page) == EASY
    assert f"p={EASY}" in page.url  # the link carries the puzzle
    page.keyboard.press("ArrowUp")
    page.keyboard.press("4")
    page.keyboard.press("Backspace")  # typed and taken back: the board is unchanged
    assert values(page) == EASY
    click(page, "edit")  # play
    click(page, "solve")
    assert values(page) == EASY_SOLUTION
    expect(page.locator("#status")).to_contain_text("Solved")
    assert page.locator('g.cell[data-kind="solver"]').count() == 81 - 30


def test_hints_at_three_levels_until_solved(page):
    open_page(page, f"?p={MEDIUM}")
    assert values(page) == MEDIUM
    shot = False
    for _ in range(120):
        click(page, "hint")
        status = page.locator("#status").inner_text()
        if status.startswith("Solved"):
            break
        level_one = page.locator("#step-text").inner_text()
        assert "=" not in level_one and " in " not in level_one, level_one  # the name only
        click(page, "hint")
        assert " in r" in page.locator("#step-text").inner_text()
        assert page.locator("rect.bg.pattern").count() + page.locator("rect.bg.selected").count() >= 1
        click(page, "hint")
        whole = page.locator("#step-text").inner_text()
        assert whole.startswith(level_one) and ("=>" in whole or "=" in whole)
        if "<>" in whole:  # eliminations: struck out on the board
            assert page.locator("text.cand.elim").count() >= 1 and page.locator("line.strike").count() >= 1
            if not shot:
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "web-hint.png"), full_page=True)
                shot = True
        click(page, "apply")
    else:
        pytest.fail("the hints did not solve the puzzle in 120 steps")
    solution = sudokit.solve(MEDIUM).board
    assert solution is not None and values(page) == solution.to_line()
    assert shot, "no step eliminated a candidate"
    assert (ARTIFACTS / "web-hint.png").stat().st_size > 10_000


def test_a_malformed_paste_shows_the_error_in_place(page):
    open_page(page)
    grid = Board.from_line(EASY).to_grid().splitlines()
    grid[2] = grid[2][:4] + "x" + grid[2][5:]
    text = "\n".join(grid) + "\n"
    page.fill("#paste", text)
    click(page, "load")
    expect(page.locator("#paste-error")).to_contain_text("line 3, column 5")
    expect(page.locator("#paste")).to_have_attribute("aria-invalid", "true")
    start = page.eval_on_selector("#paste", "area => area.selectionStart")
    assert text[start] == "x"  # the cursor stands on the offending symbol
    page.fill("#paste", Board.from_line(EASY).format("leetcode"))
    click(page, "load")
    expect(page.locator("#paste-error")).to_have_text("")
    assert values(page) == EASY
    expect(page.locator("#status")).to_contain_text("leetcode format")


def test_pasting_on_the_board_reads_any_format(page):
    open_page(page)
    text = Board.from_line(SMALL).to_pretty()
    page.eval_on_selector(
        "#board",
        """(board, text) => {
            const data = new DataTransfer();
            data.setData("text/plain", text);
            board.dispatchEvent(new ClipboardEvent("paste", {clipboardData: data, bubbles: true}));
        }""",
        text,
    )
    idle(page)
    expect(page.locator("#board g.cell")).to_have_count(16)
    assert values(page) == SMALL


def test_step_forward_and_back_through_the_explanation(page):
    open_page(page, f"?p={SMALL}")
    click(page, "explain")
    steps = len(sudokit.explain(SMALL).steps)
    expect(page.locator("#step-count")).to_have_text(f"step 1 of {steps}")
    page.click("#forward")
    page.focus("#board")
    page.keyboard.press("]")
    expect(page.locator("#step-count")).to_have_text(f"step 3 of {steps}")
    assert values(page).count(".") == SMALL.count(".") - 2
    page.keyboard.press("[")
    expect(page.locator("#step-count")).to_have_text(f"step 2 of {steps}")
    for _ in range(steps - 1):
        page.click("#forward")
    expect(page.locator("#step-count")).to_have_text(f"end ({steps} steps)")
    assert "." not in values(page)
    page.keyboard.press("Escape")
    expect(page.locator("#step-nav")).to_be_hidden()


@pytest.mark.parametrize("size", [4, 6, 9, 16])
def test_every_size_draws_and_takes_its_symbols(page, size):
    open_page(page)
    page.select_option("#size", str(size))
    expect(page.locator("#board g.cell")).to_have_count(size * size)
    page.click('#board g.cell[data-cell="0"]')
    page.keyboard.press("a" if size == 16 else "1")  # 16x16 boards write A-P
    expect(page.locator('#board g.cell[data-cell="0"]')).to_have_attribute("data-value", "1")
    assert page.locator('g.cell[data-cell="1"] text.cand').count() == size - 1


def test_check_marks_a_wrong_entry_and_rate_says_the_level(page):
    open_page(page, f"?p={MEDIUM}")
    click(page, "rate")
    expect(page.locator("#status")).to_contain_text(f"Rating: {sudokit.rate(MEDIUM).level}")
    solution = sudokit.solve(MEDIUM).board
    assert solution is not None
    wrong = next(v for v in "123456789" if v != str(solution.cells[0]))
    page.click('#board g.cell[data-cell="0"]')
    page.keyboard.press(wrong)
    click(page, "check")
    expect(page.locator("#status")).to_contain_text("1 of 1 entries are wrong")
    assert page.locator("text.value.wrong").count() == 1
    assert "v=" in page.url  # the entry travels in the link too
    shared = page.url
    open_page(page, shared[shared.index("?") :])
    assert values(page)[0] == wrong


def test_generate_and_canonical(page):
    open_page(page, f"?p={EASY}")
    click(page, "canonical")
    expect(page.locator("#status")).to_contain_text(f"Canonical form: {sudokit.canonical(EASY)}")
    page.select_option("#level", "easy")
    click(page, "generate")
    expect(page.locator("#status")).to_contain_text("new easy puzzle")
    assert values(page) != EASY and values(page).count(".") > 0
