"""The web page in a real browser: headless Chromium (Debian's ``chromium``) driven by
Playwright, against ``sudokit serve``'s app on a free port of the loopback.

Most tests run twice, on a desktop (1280x900) and on a phone (390x844, touch); each numbered
defect of issue 30 has its own test (``test_defect_N_...``). Accessibility is checked by
axe-core (``axe-playwright-python``, which bundles it) in three states of the page and in
setter mode.

On a developer's machine without Chromium or Playwright these tests skip, saying which is
missing; in CI (``CI=true``) that is a failure, since ``.ci/run`` installs both. Screenshots
are kept under ``build/test-artifacts/`` (or ``$SUDOKIT_ARTIFACTS``); ``docs/web-page*.png``
are copies of ``test_screenshots``' two.
"""

from __future__ import annotations

import json
import math
import os
import re
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

#: a real browser: about half of what the fast tier took (170 s of 370 on two cores); the whole
#: suite runs these, and so does ``pytest tests/test_web_browser.py``
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "variants"
ARTIFACTS = Path(os.environ.get("SUDOKIT_ARTIFACTS") or ROOT / "build" / "test-artifacts")
#: the flags the browser needs on a machine without network (else it floods refused connections)
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
BROWSERS = ("chromium", "chromium-browser", "google-chrome")
#: the two sizes every test of the page runs at: a desktop and a phone (touch)
VIEWPORTS = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2},
}

EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
EASY_SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
MEDIUM = ".617..9..7.4.....1..........965...171....2.....2..8.4..27.....55.8...7964........"
SMALL = "......12.1.3.32."
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQ"


def variant(name: str) -> tuple[str, dict]:
    """The first puzzle of a variant data file (tests/data/variants): its JSON line, decoded too."""
    text = (DATA / f"{name}.jsonl").read_text().splitlines()[0]
    return text, json.loads(text)


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


def new_tab(browser, server, device: str, **options):
    """A fresh browser context (its own storage) and tab at a device's size, at the server."""
    context = browser.new_context(**VIEWPORTS[device], **options)
    tab = context.new_page()
    tab.set_default_timeout(20_000)
    tab.base = server  # type: ignore[attr-defined]
    tab.device = device  # type: ignore[attr-defined]
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.errors = errors  # type: ignore[attr-defined]
    return context, tab


@pytest.fixture(params=list(VIEWPORTS))
def page(request, browser, server):
    """A tab at each of the two sizes in turn; the test fails on a script error."""
    context, tab = new_tab(browser, server, request.param)
    yield tab
    context.close()
    assert not tab.errors, tab.errors


@pytest.fixture
def desktop(browser, server):
    """A tab at the desktop size only, for what does not depend on the screen."""
    context, tab = new_tab(browser, server, "desktop")
    yield tab
    context.close()
    assert not tab.errors, tab.errors


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
            line[cell] = SYMBOLS[value - 1]
    return "".join(line)


def click(page, button: str) -> None:
    """Press a button (a tap on the phone) and wait for the request it makes."""
    press(page, f"#{button}")
    idle(page)


def press(page, selector: str) -> None:
    """A tap on a touch screen, a click elsewhere."""
    if page.device == "phone":
        page.tap(selector)
    else:
        page.click(selector)


def cell(page, number: int):
    """The locator of a cell of the board."""
    return page.locator(f'#board g.cell[data-cell="{number}"]')


def pick(page, number: int) -> None:
    """Select a cell (by touch on the phone)."""
    press(page, f'#board g.cell[data-cell="{number}"]')  # selected as the pointer goes down


def load_text(page, text: str) -> None:
    """Paste a text into the box and load it."""
    page.fill("#paste", text)
    click(page, "load")


def status(page):
    return page.locator("#status")


def notes_of(page, number: int, kind: str = "corner") -> str:
    """The notes a cell shows, in order ('centre' notes are one text)."""
    return "".join(page.locator(f'#board g.cell[data-cell="{number}"] text.note.{kind}').all_text_contents())


def fill_of(page, selector: str) -> str:
    """The computed fill of an SVG element."""
    return page.eval_on_selector(selector, "e => getComputedStyle(e).fill")


# -- what the page did before issue 30 --------------------------------------------------------


def test_type_a_puzzle_with_the_keyboard_and_solve_it(desktop):
    page = desktop
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
    expect(status(page)).to_contain_text("Solved")
    assert page.locator('g.cell[data-kind="solver"]').count() == 81 - 30


@pytest.mark.slow
def test_hints_at_three_levels_until_solved(desktop):
    page = desktop
    open_page(page, f"?p={MEDIUM}")
    assert values(page) == MEDIUM
    shot = False
    for _ in range(120):
        click(page, "hint")
        if "." not in values(page):
            break
        level_one = page.locator("#step-text").inner_text()
        assert "=" not in level_one and " in " not in level_one, level_one  # the name only
        click(page, "hint")
        assert " in r" in page.locator("#step-text").inner_text()
        assert page.locator("rect.bg.pattern").count() >= 1
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
        if "." not in values(page):
            break
    else:
        pytest.fail("the hints did not solve the puzzle in 120 steps")
    solution = sudokit.solve(MEDIUM).board
    assert solution is not None and values(page) == solution.to_line()
    assert page.locator('g.cell[data-kind="hint"]').count() == MEDIUM.count(".")
    assert shot, "no step eliminated a candidate"


def test_a_malformed_paste_shows_the_error_in_place(page):
    open_page(page)
    grid = Board.from_line(EASY).to_grid().splitlines()
    grid[2] = grid[2][:4] + "x" + grid[2][5:]
    text = "\n".join(grid) + "\n"
    load_text(page, text)
    expect(page.locator("#paste-error")).to_contain_text("line 3, column 5")
    expect(page.locator("#paste")).to_have_attribute("aria-invalid", "true")
    start = page.eval_on_selector("#paste", "area => area.selectionStart")
    assert text[start] == "x"  # the cursor stands on the offending symbol
    load_text(page, Board.from_line(EASY).format("leetcode"))
    expect(page.locator("#paste-error")).to_have_text("")
    assert values(page) == EASY
    expect(status(page)).to_contain_text("leetcode format")


def test_pasting_on_the_board_reads_any_format(desktop):
    page = desktop
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
    press(page, "#forward")
    page.focus("#board")
    page.keyboard.press("]")
    expect(page.locator("#step-count")).to_have_text(f"step 3 of {steps}")
    assert values(page).count(".") == SMALL.count(".") - 2
    page.keyboard.press("[")
    expect(page.locator("#step-count")).to_have_text(f"step 2 of {steps}")
    for _ in range(steps - 1):
        press(page, "#forward")
    expect(page.locator("#step-count")).to_have_text(f"end ({steps} steps)")
    assert "." not in values(page)
    page.keyboard.press("Escape")
    expect(page.locator("#step-nav")).to_be_hidden()


@pytest.mark.parametrize("size", [4, 6, 9, 16, 25])
def test_every_size_draws_and_takes_its_symbols(desktop, size):
    page = desktop
    open_page(page)
    page.select_option("#size", str(size))
    expect(page.locator("#board g.cell")).to_have_count(size * size)
    expect(page.locator("#pad button.digit")).to_have_count(size)
    page.click('#board g.cell[data-cell="0"]')
    page.keyboard.press("a" if size > 9 else "1")  # 16x16 and 25x25 boards write letters
    expect(cell(page, 0)).to_have_attribute("data-value", "1")
    if size <= 16:
        assert page.locator('g.cell[data-cell="1"] text.cand').count() == size - 1


# -- issue 30's defects, each at both sizes ---------------------------------------------------


def test_defect_1_a_variant_keeps_its_rules(page):
    open_page(page)
    load_text(page, EASY + " diagonals")
    expect(status(page)).to_contain_text("diagonals")
    expect(page.locator("line.diag")).to_have_count(2)
    click(page, "solve")  # the diagonals make this one impossible: no grid breaking them
    expect(status(page)).to_contain_text("no solution")
    assert values(page) == EASY
    text, record = variant("windoku")  # X-Windoku: diagonals and windows
    load_text(page, text)
    expect(page.locator("rect.bg.window")).to_have_count(36)
    click(page, "solve")
    assert values(page) == record["solution"]
    assert "windoku" in page.url and "diagonals" in page.url  # the link keeps the rules


def test_defect_1_a_sukaku_starts_from_its_marks(page):
    text, record = variant("pencilmark")
    board = Board.parse(text)
    open_page(page)
    page.uncheck("#show-candidates")  # a Sukaku's marks are the puzzle: drawn all the same
    load_text(page, board.to_sukaku())
    expect(status(page)).to_contain_text("Sukaku")
    assert page.locator('g.cell[data-cell="0"] text.cand').all_text_contents() == ["1", "2"]
    click(page, "hint")
    expect(page.locator("#step-text")).not_to_be_empty()
    click(page, "solve")
    assert values(page) == record["solution"]


def test_defect_2_generate_16x16_at_any_level(page):
    open_page(page)
    expect(page.locator("#level")).to_have_value("")  # "any level" is the default
    assert page.locator("#level option").first.inner_text() == "any level"
    page.select_option("#size", "16")
    click(page, "generate")
    expect(status(page)).to_contain_text("A new 16x16 puzzle")
    line = values(page)
    assert len(line) == 256 and 0 < line.count(".") < 256
    assert sudokit.is_unique(Board.from_line(line)).unique


def test_defect_3_a_phone_enters_digits_and_notes_by_touch(page):
    open_page(page, f"?p={EASY}")
    pick(page, 2)
    press(page, '#pad button[data-value="4"]')
    expect(cell(page, 2)).to_have_attribute("data-value", "4")
    pick(page, 3)
    press(page, "#notes")
    expect(page.locator("#notes")).to_have_attribute("aria-pressed", "true")
    press(page, '#pad button[data-value="1"]')
    press(page, '#pad button[data-value="2"]')
    assert notes_of(page, 3) == "12"
    press(page, "#erase")  # an empty cell's notes go
    assert notes_of(page, 3) == ""
    height = page.locator('#pad button[data-value="5"]').bounding_box()["height"]
    assert height >= 40, height  # a finger's size


def test_defect_4_notes_are_the_players_and_stay(page):
    open_page(page, f"?p={EASY}")
    page.uncheck("#show-candidates")
    pick(page, 2)
    page.keyboard.press(" ")  # corner notes
    page.keyboard.press("1")
    page.keyboard.press("4")
    assert notes_of(page, 2) == "14"
    page.keyboard.press(" ")  # centre notes
    pick(page, 3)
    page.keyboard.press("6")
    page.keyboard.press("2")
    assert notes_of(page, 3, "centre") == "26"
    click(page, "explain")
    press(page, "#forward")
    press(page, "#done")
    assert notes_of(page, 2) == "14" and notes_of(page, 3, "centre") == "26"
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    assert notes_of(page, 2) == "14" and notes_of(page, 3, "centre") == "26"
    shared = page.url
    assert "nc=" in shared and "nm=" in shared
    context, fresh = new_tab(page.context.browser, page.base, page.device)
    try:
        open_page(fresh, shared[shared.index("?") :])  # another browser: only the link
        assert notes_of(fresh, 2) == "14" and notes_of(fresh, 3, "centre") == "26"
    finally:
        context.close()


def test_defect_5_the_board_keeps_the_keyboard_after_a_button(page):
    open_page(page, f"?p={EASY}")
    pick(page, 2)
    click(page, "hint")
    page.keyboard.press("4")
    expect(cell(page, 2)).to_have_attribute("data-value", "4")
    click(page, "check")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("6")
    expect(cell(page, 3)).to_have_attribute("data-value", "6")


def test_defect_6_nothing_replaces_the_board_without_undo(page):
    open_page(page, f"?p={EASY}")
    page.focus("#size")
    page.keyboard.press("ArrowDown")  # a stray arrow on the size list
    assert values(page) == EASY and f"p={EASY}" in page.url
    expect(status(page)).to_contain_text("chosen for New board and Generate")
    page.select_option("#size", "9")
    click(page, "clear")
    assert values(page) == "." * 81
    page.keyboard.press("Control+z")
    assert values(page) == EASY
    click(page, "solve")
    assert values(page) == EASY_SOLUTION
    page.keyboard.press("Control+z")
    assert values(page) == EASY
    click(page, "explain")
    for _ in range(10):
        press(page, "#forward")
    assert values(page).count(".") == EASY.count(".") - 10
    press(page, "#done")  # the explanation was a view: the board is as it was
    assert values(page) == EASY


def test_defect_7_a_slow_request_shows_busy_and_can_be_cancelled(page):
    open_page(page, f"?p={EASY}")
    held = []
    page.route("**/api/solve", lambda route: held.append(route))  # answered never: slow
    press(page, "#solve")
    expect(page.locator("#busy")).to_be_visible()
    expect(page.locator("#busy")).to_contain_text("Solve")
    press(page, "#hint")
    expect(status(page)).to_contain_text("Still busy with Solve")
    press(page, "#cancel")
    idle(page)
    expect(status(page)).to_contain_text("Cancelled")
    expect(page.locator("#busy")).to_be_hidden()
    assert values(page) == EASY
    assert held
    page.unroute("**/api/solve")
    click(page, "solve")
    assert values(page) == EASY_SOLUTION


def test_defect_8_checks_marks_stay_until_the_cell_changes(page):
    solution = sudokit.solve(MEDIUM).board
    open_page(page, f"?p={MEDIUM}")
    wrong = next(v for v in "123456789" if v != str(solution.cells[0]))
    pick(page, 0)
    page.keyboard.press(wrong)
    click(page, "check")
    expect(status(page)).to_contain_text(re.compile("1 of 1 entries (is|are) wrong"))
    expect(page.locator("text.value.wrong")).to_have_count(1)
    pick(page, 4)
    page.keyboard.press(str(solution.cells[4]))  # another cell: the mark stays
    expect(page.locator("text.value.wrong")).to_have_count(1)
    pick(page, 0)
    page.keyboard.press(str(solution.cells[0]))  # the cell itself: it goes
    expect(page.locator("text.value.wrong")).to_have_count(0)


def test_defect_9_notes_that_leave_out_the_value_are_checked_not_hinted(page):
    open_page(page, f"?p={EASY}")
    pick(page, 2)  # its value is 4
    page.keyboard.press("Shift+1")
    page.keyboard.press("Shift+2")
    assert notes_of(page, 2) == "12"
    click(page, "hint")
    expect(page.locator("#step-text")).not_to_be_empty()
    assert "leave out" not in page.locator("#step-text").inner_text() + status(page).inner_text()
    click(page, "check")
    expect(status(page)).to_contain_text("the notes of r1c3 leave out the cell's value")
    expect(page.locator('g.cell[data-cell="2"] rect.bg.wrong')).to_have_count(1)


def test_defect_10_rate_and_explain_say_what_they_rate(page):
    open_page(page, f"?p={MEDIUM}")
    click(page, "rate")
    expect(status(page)).to_contain_text(f"Rating of the puzzle, from its givens: {sudokit.rate(MEDIUM).level}")
    click(page, "explain")
    expect(status(page)).to_contain_text("Difficulty of the rest, from this position")


def test_defect_11_small_things(page):
    open_page(page, f"?p={EASY}")
    board = page.locator("#board").bounding_box()
    width = VIEWPORTS[page.device]["viewport"]["width"]
    if page.device == "phone":
        assert abs(board["x"] + board["width"] / 2 - width / 2) <= 1, board  # centred
    assert board["x"] >= 0 and board["x"] + board["width"] <= width
    expect(page.locator("#canonical")).to_be_visible()
    click(page, "solve")
    page.keyboard.press("Control+z")
    page.select_option("#level", "easy")
    click(page, "generate")
    for word in ("nodes", "guesses", "seed"):  # no jargon in the status line
        assert word not in status(page).inner_text()
    load_text(page, "55" + "." * 79)  # a repeated given, selected: still red
    pick(page, 0)
    expect(page.locator('g.cell[data-cell="0"] rect.bg.conflict')).to_have_count(1)
    assert fill_of(page, 'g.cell[data-cell="0"] rect.bg') == fill_of(page, 'g.cell[data-cell="1"] rect.bg')
    for size in (6, 16):
        page.select_option("#size", str(size))
        click(page, "clear")
        expect(page.locator("#canonical")).to_be_hidden()  # minlex forms are for 9x9
    pick(page, 0)
    heights = page.eval_on_selector_all("#board text.cand", "ts => ts.map(t => t.getBoundingClientRect().height)")
    assert not heights or min(heights) >= 7, min(heights)
    if not heights:  # too small to read on this screen: the selected cell's, in words, below
        expect(page.locator("#cell-info")).to_contain_text("candidates A B C D")


# -- variants, solved and hinted --------------------------------------------------------------


def test_a_jigsaw_drawn_solved_and_hinted(page):
    text, record = variant("jigsaw")
    regions = record["regions"]
    borders = sum(regions[c] != regions[c + 1] for c in range(81) if c % 9 < 8) + sum(regions[c] != regions[c + 9] for c in range(72))
    open_page(page)
    load_text(page, text)
    expect(status(page)).to_contain_text("jigsaw regions")
    assert page.get_attribute("#board .rules path.thick", "d").count("M") == borders
    click(page, "hint")  # the techniques know rows, columns and boxes only: said, not guessed
    expect(status(page)).to_contain_text("jigsaw regions")
    expect(status(page)).to_contain_text("Reveal cell")
    empty = record["givens"].index(".")
    pick(page, empty)
    click(page, "reveal")
    expect(cell(page, empty)).to_have_attribute("data-value", record["solution"][empty])
    expect(cell(page, empty)).to_have_attribute("data-kind", "hint")
    click(page, "solve")
    assert values(page) == record["solution"]


def test_a_killer_drawn_solved_and_hinted(page):
    text, record = variant("killer_generated")
    open_page(page)
    load_text(page, text)
    expect(status(page)).to_contain_text("killer cages")
    sums = sorted(str(total) for total, _ in record["cages"] if total is not None)
    assert sorted(page.locator("#board text.cage-sum").all_text_contents()) == sums
    expect(page.locator("#board path.cage")).to_have_count(len(record["cages"]))
    sides = page.eval_on_selector_all("#board path.cage", "ps => ps.map(p => p.getAttribute('d').split('M').length - 1)")
    assert min(sides) >= 4  # a cage of one cell has four sides, a bigger one more
    dashed = page.eval_on_selector("#board path.cage", "l => getComputedStyle(l).strokeDasharray")
    assert dashed not in ("none", "")
    click(page, "explain")
    expect(status(page)).to_contain_text("killer cages")
    pick(page, 40)
    click(page, "reveal")
    expect(cell(page, 40)).to_have_attribute("data-value", record["solution"][40])
    click(page, "solve")
    assert values(page) == record["solution"]
    click(page, "check")
    expect(status(page)).to_contain_text("all 81 entries are right")


# -- play ---------------------------------------------------------------------------------------


def test_undo_and_redo_over_every_change(page):
    open_page(page, f"?p={SMALL}")
    pick(page, 0)
    page.keyboard.press("1")
    page.keyboard.press("Shift+3")  # a filled cell takes no note
    pick(page, 1)
    page.keyboard.press("Shift+3")
    click(page, "apply")
    applied = values(page)
    click(page, "explain")
    press(page, "#forward")
    press(page, "#forward")
    press(page, "#keep")  # play on from step 2
    kept = values(page)
    assert kept.count(".") == applied.count(".") - 2
    click(page, "solve")
    assert "." not in values(page)
    for expected in (kept, applied):
        page.keyboard.press("Control+z")
        assert values(page) == expected
    press(page, "#undo")  # the applied step
    assert notes_of(page, 1) == "3"
    page.keyboard.press("Control+z")  # the note
    page.keyboard.press("Control+z")  # the 1
    assert values(page) == SMALL and notes_of(page, 1) == ""
    page.keyboard.press("Control+y")
    press(page, "#redo")
    assert notes_of(page, 1) == "3" and values(page)[0] == "1"
    for _ in range(3):
        page.keyboard.press("Control+y")
    assert "." not in values(page)


def test_same_digit_highlight_and_kinds_of_digits(page):
    open_page(page, f"?p={EASY}")
    pick(page, 0)  # a given 5
    fives = EASY.count("5")
    expect(page.locator("rect.bg.same")).to_have_count(fives - 1)
    pick(page, 2)
    page.keyboard.press("4")  # the player's
    pick(page, 3)
    click(page, "reveal")  # a hint's
    click(page, "solve")  # the solver's
    fills = {kind: fill_of(page, f"text.value.{kind}") for kind in ("given", "entry", "hint", "solver")}
    assert len(set(fills.values())) == 4, fills
    label = cell(page, 0).get_attribute("aria-label")
    assert label == "Row 1, column 1: 5, given"
    assert "your entry" in cell(page, 2).get_attribute("aria-label")
    assert "placed by a hint" in cell(page, 3).get_attribute("aria-label")


def _seconds(page) -> int:
    """The clock's reading in seconds."""
    minutes, seconds = page.locator("#timer").inner_text().split(":")
    return int(minutes) * 60 + int(seconds)


def test_the_clock_runs_pauses_and_stops_when_solved(page):
    page.clock.install()
    open_page(page, f"?p={EASY}")
    pick(page, 2)
    page.keyboard.press("4")
    page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 1)  # from here time moves when told (seconds)
    start = _seconds(page)
    page.clock.run_for(65_000)
    expect(page.locator("#timer")).to_have_text(f"1:{start + 5:02d}")
    press(page, "#pause")
    expect(page.locator("#board svg")).to_be_hidden()
    page.keyboard.press("6")  # paused: no play
    expect(cell(page, 3)).to_have_attribute("data-value", "0")
    page.clock.run_for(30_000)
    expect(page.locator("#timer")).to_have_text(f"1:{start + 5:02d}")
    press(page, "#pause")
    page.clock.run_for(10_000)
    expect(page.locator("#timer")).to_have_text(f"1:{start + 15:02d}")
    click(page, "solve")
    expect(status(page)).to_contain_text("Solved")
    page.clock.run_for(10_000)
    expect(page.locator("#timer")).to_have_text(f"1:{start + 15:02d}")


def test_a_game_is_resumed_after_reload(page):
    open_page(page, f"?p={EASY}")
    pick(page, 2)
    page.keyboard.press("4")
    pick(page, 3)
    page.keyboard.press("Shift+6")
    click(page, "apply")
    kinds = page.eval_on_selector_all("#board g.cell", "gs => gs.map(g => g.dataset.kind)")
    page.goto(page.base + "/")  # no address: the game saved in the browser
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    expect(status(page)).to_contain_text("as you left it")
    assert values(page)[:4] == "534." and notes_of(page, 3) == "6"
    assert page.eval_on_selector_all("#board g.cell", "gs => gs.map(g => g.dataset.kind)") == kinds
    page.reload()  # the address now carries it too
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    assert values(page)[:3] == "534" and notes_of(page, 3) == "6"


def test_copy_link_puts_the_position_on_the_clipboard(page):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=page.base)
    open_page(page, f"?p={EASY}")
    pick(page, 2)
    page.keyboard.press("Shift+7")
    press(page, "#copy-link")
    expect(status(page)).to_contain_text("clipboard")
    link = page.evaluate("navigator.clipboard.readText()")
    assert link == page.url and f"p={EASY}" in link and "nc=2-40" in link


# -- comfort --------------------------------------------------------------------------------


def _dark(page, selector: str = "body") -> bool:
    """Whether an element's background is dark."""
    colour = page.eval_on_selector(selector, "e => getComputedStyle(e).backgroundColor")
    red, green, blue = (int(x) for x in re.findall(r"\d+", colour)[:3])
    return red + green + blue < 200


def test_dark_mode_follows_the_system_and_the_toggle(browser, server):
    for device in VIEWPORTS:
        context, page = new_tab(browser, server, device, color_scheme="dark")
        try:
            open_page(page, f"?p={EASY}")
            assert _dark(page)
            expect(page.locator("#theme")).to_have_attribute("aria-pressed", "true")
            page.click("#theme")
            assert not _dark(page)
            page.reload()  # the choice is kept
            expect(page.locator("body")).to_have_attribute("data-ready", "1")
            assert not _dark(page)
            page.click("#theme")
            assert _dark(page) and _dark(page, '#board g.cell[data-cell="4"] rect.bg')
            assert not page.errors
        finally:
            context.close()


def test_print_the_board_alone_and_a_sheet_of_puzzles(page):
    open_page(page, f"?p={EASY}")
    page.emulate_media(media="print")
    expect(page.locator("#controls")).to_be_hidden()
    expect(page.locator("#pad")).to_be_hidden()
    expect(page.locator("#board")).to_be_visible()
    width = VIEWPORTS[page.device]["viewport"]["width"]
    assert page.locator("#board").bounding_box()["width"] >= min(600, width - 40)
    page.emulate_media(media="screen")
    page.select_option("#size", "6")
    click(page, "print-sheet")
    expect(page.locator("#sheet-boards svg")).to_have_count(8)  # eight 6x6 puzzles a page
    expect(page.locator("#sheet-title")).to_contain_text("6x6")
    page.emulate_media(media="print")
    expect(page.locator("#play")).to_be_hidden()
    expect(page.locator("#sheet-boards")).to_be_visible()
    assert values(page) == EASY  # the sheet is apart from the game


@pytest.mark.parametrize("size", [4, 6, 9, 16, pytest.param(25, marks=pytest.mark.slow)])
def test_generate_at_every_size(desktop, size):
    page = desktop
    open_page(page)
    page.select_option("#size", str(size))
    click(page, "generate")
    expect(status(page)).to_contain_text(f"A new {size}x{size} puzzle")
    line = values(page)
    assert len(line) == size * size and "." in line
    page.keyboard.press("Control+z")  # undo brings the empty board back
    assert values(page) == "." * size * size


def test_a_slow_level_says_so_before_it_starts(page):
    open_page(page)
    page.select_option("#size", "16")
    expect(page.locator("#level-note")).to_be_hidden()
    page.select_option("#level", "hard")
    expect(page.locator("#level-note")).to_be_visible()
    expect(page.locator("#level-note")).to_contain_text("any level")
    page.select_option("#size", "9")
    expect(page.locator("#level-note")).to_be_hidden()


# -- setter mode ------------------------------------------------------------------------------


def setter_idle(page) -> None:
    """Wait for setter mode's answer about the givens as they stand."""
    expect(page.locator("body")).to_have_attribute("data-setter", "done")


def setter_on(page) -> None:
    """Turn setter mode on and wait for its first answer."""
    press(page, "#setter")
    expect(page.locator("#setter")).to_have_attribute("aria-pressed", "true")
    setter_idle(page)


def marked(page, kind: str) -> list[int]:
    """The cells setter mode marks as `kind` (core, add, differ, spare)."""
    return sorted(page.eval_on_selector_all(f"#board rect.bg.set-{kind}", "rs => rs.map(r => Number(r.parentNode.dataset.cell))"))


def test_setter_mode_marks_givens_that_clash(page):
    open_page(page)
    setter_on(page)
    pick(page, 0)
    for symbol in "123456":
        page.keyboard.press(symbol)
        page.keyboard.press("ArrowRight")
    pick(page, 17)
    page.keyboard.press("9")  # 9 has no place left in row 1, yet no digit repeats
    setter_idle(page)
    expect(status(page)).to_contain_text("No solution: these 7 givens clash")
    assert page.locator("rect.bg.conflict").count() == 0
    line = values(page)
    assert marked(page, "core") == sorted(sudokit.diagnose(line).core) == [0, 1, 2, 3, 4, 5, 17]
    assert "clashes with other givens" in cell(page, 17).get_attribute("aria-label")
    page.keyboard.press("Backspace")  # removed: the rest fit
    setter_idle(page)
    expect(status(page)).not_to_contain_text("No solution")
    assert marked(page, "core") == []
    load_text(page, EASY + " diagonals")  # a variant: its rules go with the givens
    setter_idle(page)
    expect(status(page)).to_contain_text("No solution")
    assert marked(page, "core") == sorted(sudokit.diagnose(EASY + " diagonals").core)


def test_setter_mode_counts_solutions_and_marks_givens_to_add(page):
    open_page(page)
    page.select_option("#size", "4")
    setter_on(page)
    expect(status(page)).to_contain_text("288 solutions")
    pick(page, 0)
    page.keyboard.press("1")
    setter_idle(page)
    expect(status(page)).to_contain_text("72 solutions. Adding")
    text = status(page).inner_text()
    adds = {(int(r) - 1) * 4 + int(c) - 1: v for r, c, v in re.findall(r"r(\d)c(\d)=(\d)", text)}
    assert adds and marked(page, "add") == sorted(adds)
    assert "no fewer would do" in text
    for number, value in adds.items():
        pick(page, number)
        page.keyboard.press(value)
    setter_idle(page)
    expect(status(page)).to_contain_text("Unique")
    assert marked(page, "add") == [] and marked(page, "differ") == []


def test_setter_mode_names_the_givens_that_could_go(page):
    open_page(page)
    setter_on(page)
    load_text(page, EASY)  # pasted
    setter_idle(page)
    expect(status(page)).to_contain_text("Unique, but not minimal")
    spare = sorted(sudokit.diagnose(EASY).redundant)
    assert marked(page, "spare") == spare
    expect(status(page)).to_contain_text(f"these {len(spare)} givens could go")
    expect(status(page)).to_contain_text("r1c1, r1c2, r1c5")


def test_setter_mode_estimates_an_open_board(desktop):
    page = desktop
    open_page(page)
    setter_on(page)  # an empty 9x9: 6.67e21 grids
    found = re.search(r"About (\d\.\d\d)e(\d+) solutions", status(page).inner_text())
    assert found, status(page).inner_text()
    assert 21 <= math.log10(float(found[1]) * 10 ** int(found[2])) < 22.3
    assert marked(page, "add") == [] and marked(page, "differ") == []
    page.select_option("#size", "16")  # an empty 16x16 is taken at once: about 5.96e98
    setter_idle(page)
    found = re.search(r"About (\d\.\d\d)e(\d+) solutions", status(page).inner_text())
    assert found and 97 <= int(found[2]) <= 99, status(page).inner_text()


def test_setter_mode_is_off_by_default_reached_by_keyboard_and_remembered(page):
    open_page(page, f"?p={EASY}")
    toggle = page.locator("#setter")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert page.locator("body").get_attribute("data-setter") is None  # nothing asked
    page.focus("#edit")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "setter"
    page.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#setter-legend")).to_be_visible()
    setter_idle(page)
    expect(status(page)).to_contain_text("Unique")
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    setter_idle(page)
    page.focus("#setter")
    page.keyboard.press(" ")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(status(page)).to_have_text("Setter mode off.")
    assert marked(page, "spare") == []


# -- accessibility ----------------------------------------------------------------------------


def _axe(page, state: str) -> list[str]:
    """axe-core's serious and critical violations on the page, one line each; every finding
    (and the rules that passed) goes to ARTIFACTS/axe-<device>-<state>.json."""
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright", reason="pip install -e '.[test]'")
    results = axe_module.Axe().run(page).response
    assert len(results["passes"]) >= 10  # axe ran its rules on the page
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    found = [{"id": v["id"], "impact": v["impact"], "help": v["help"], "nodes": len(v["nodes"])} for v in results["violations"]]
    summary = {"passes": len(results["passes"]), "incomplete": [v["id"] for v in results["incomplete"]], "violations": found}
    (ARTIFACTS / f"axe-{page.device}-{state}.json").write_text(json.dumps(summary, indent=1))
    return [f"{v['impact']}: {v['id']}: {v['help']} ({v['nodes']} nodes)" for v in found if v["impact"] in ("serious", "critical")]


def test_axe_finds_nothing_serious_in_three_states(page):
    open_page(page)
    assert _axe(page, "empty") == []
    open_page(page, f"?p={EASY}")
    pick(page, 2)
    page.keyboard.press("Shift+1")
    page.keyboard.press("Shift+2")
    pick(page, 3)
    page.keyboard.press("6")
    assert _axe(page, "playing") == []  # with notes
    click(page, "explain")
    press(page, "#forward")
    assert _axe(page, "explaining") == []
    assert cell(page, 2).get_attribute("aria-label") == "Row 1, column 3: empty; corner notes 1 2; candidates 1 2 4"


def test_axe_finds_nothing_serious_in_setter_mode(page):
    open_page(page)
    setter_on(page)
    load_text(page, "123456" + "." * 11 + "9" + "." * 63)  # no solution: the clashing givens marked
    setter_idle(page)
    assert marked(page, "core")
    assert _axe(page, "setter") == []


# -- the screenshots of the docs --------------------------------------------------------------


def test_screenshots(page):
    """A killer being played, with the player's notes and the candidates (docs/web-page*.png)."""
    text, record = variant("killer_generated")
    open_page(page)
    load_text(page, text)
    page.fill("#paste", "")
    page.uncheck("#show-candidates")  # the player's own notes, as a killer player keeps them
    solution = record["solution"]
    for number in (0, 1, 2, 9, 10):
        pick(page, number)
        page.keyboard.press(solution[number])
    pick(page, 11)
    page.keyboard.press("Shift+" + solution[11])
    page.keyboard.press("Shift+" + str(10 - int(solution[11])))
    pick(page, 12)
    page.keyboard.press(" ")
    page.keyboard.press(" ")
    for digit in sorted({solution[12], "1", "7"}):
        page.keyboard.press(digit)
    page.keyboard.press(" ")
    pick(page, 40)
    click(page, "reveal")
    pick(page, 30)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"web-{page.device}.png"
    page.screenshot(path=str(path), full_page=page.device == "phone")
    assert path.stat().st_size > 20_000
