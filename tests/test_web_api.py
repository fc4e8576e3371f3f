"""The web page's JSON API (``sudokit.web``), through an ASGI test client: every endpoint, bad
input of every kind, the body size limit, the budgets, concurrency, and no traceback ever.

The client is httpx's ASGI transport: requests go straight into the app, no socket.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx", reason="the web API tests need httpx (pip install -e '.[test]')")
pytest.importorskip("starlette", reason="the web API tests need starlette (pip install -e '.[web]')")

import numpy as np  # noqa: E402
from click.testing import CliRunner  # noqa: E402

import sudokit  # noqa: E402
from sudokit import Board, logic  # noqa: E402
from sudokit.cli import cli  # noqa: E402
from sudokit.web import Settings, create_app  # noqa: E402
from sudokit.web import api, messages  # noqa: E402

EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
EASY_SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
#: needs a Naked Pair (HoDoKu: medium), so a step eliminates candidates as well as placing values
MEDIUM = ".617..9..7.4.....1..........965...171....2.....2..8.4..27.....55.8...7964........"
HARD = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
SMALL = "......12.1.3.32."  # a minimal 4x4 puzzle
STATIC = Path(api.__file__).resolve().parent / "static"


def request(app, method: str, path: str, **options) -> httpx.Response:
    """One request to the app, answered in a fresh event loop."""

    async def go() -> httpx.Response:
        """The request, over a client that lives as long as it."""
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            return await client.request(method, path, **options)

    return asyncio.run(go())


@pytest.fixture(scope="module", autouse=True)
def kernels():
    """The kernels loaded (compiled, on a cold cache) before any test times a request."""
    api.warm_up()


@pytest.fixture(scope="module")
def app():
    """One app for the tests that do not need settings of their own."""
    return create_app()


def post(app, endpoint: str, **body) -> httpx.Response:
    """POST a JSON body to an endpoint of the API."""
    return request(app, "POST", f"/api/{endpoint}", json=body)


def ok(app, endpoint: str, **body) -> dict:
    """The JSON answer of a request that must succeed."""
    response = post(app, endpoint, **body)
    assert response.status_code == 200, response.text
    return response.json()


def refused(response: httpx.Response, status: int, *words: str) -> dict:
    """The response is a JSON error with ``status`` whose message holds ``words``."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert isinstance(body["error"], str) and "Traceback" not in response.text
    for word in words:
        assert word in body["error"], body
    return body


# -- the page and what the server offers -------------------------------------------------------


def test_info_lists_the_endpoints_the_capabilities_and_the_limits(app):
    info = request(app, "GET", "/api/info").json()
    assert set(info["endpoints"]) == {"parse", "solve", "count", "hint", "explain", "rate", "generate", "canonical", "diagnose", "estimate"}
    assert info["capabilities"] == {"generate": True, "canonical": True}
    assert [entry["size"] for entry in info["sizes"]] == [4, 6, 9, 16, 25]
    assert info["sizes"][-1]["generate"] == {"minimal": False, "clues": 330}  # minimal ones take minutes
    assert info["levels"] == ["easy", "medium", "hard", "unfair", "extreme"]
    assert info["limits"]["max_body"] == Settings().max_body
    assert info["version"] == sudokit.__version__


def test_the_page_and_its_files_are_served_with_no_outside_resource(app):
    page = request(app, "GET", "/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for name in ("sudokit.js", "sudokit.css"):
        served = request(app, "GET", f"/static/{name}")
        assert served.status_code == 200 and served.text == (STATIC / name).read_text()
    for path in STATIC.iterdir():
        text = path.read_text()
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", "") and "https://" not in text, path.name
    assert "/static/sudokit.js" in page.text and "/static/sudokit.css" in page.text


def test_unknown_paths_and_methods_answer_json(app):
    refused(request(app, "GET", "/api/nothing"), 404)
    refused(request(app, "GET", "/api/solve"), 405)
    refused(request(app, "GET", "/static/missing.js"), 404)


# -- parse ----------------------------------------------------------------------------------


def test_parse_reads_every_format_to_the_same_board(app):
    board = Board.from_line(EASY)
    for name in ("line", "grid", "ints", "leetcode", "pretty"):
        answer = ok(app, "parse", puzzle=board.format(name))
        assert answer["format"] == name
        assert answer["board"]["cells"] == board.cells.tolist()
        assert answer["board"]["line"] == EASY and answer["board"]["givens"] == 30


@pytest.mark.parametrize("size, box", [(4, [2, 2]), (6, [2, 3]), (9, [3, 3]), (16, [4, 4])])
def test_parse_reads_each_page_size(app, size, box):
    text = Board.empty(size).to_line()
    answer = ok(app, "parse", puzzle=text)["board"]
    assert answer["size"] == size and answer["box"] == box and len(answer["cells"]) == size * size
    assert answer["symbols"] == Board.empty(size).symbols


def test_parse_returns_the_rules_of_a_plain_board(app):
    rules = ok(app, "parse", puzzle=EASY)["board"]["rules"]
    assert rules["variant"] is False and rules["json"] == {} and rules["techniques"] is None
    assert rules["cages"] == [] and rules["candidates"] is None
    assert [h["kind"] for h in rules["houses"]] == ["row"] * 9 + ["column"] * 9 + ["box"] * 9
    assert rules["houses"][18]["cells"] == [0, 1, 2, 9, 10, 11, 18, 19, 20]


VARIANTS = Path(__file__).resolve().parent / "data" / "variants"


@pytest.mark.parametrize("name", ["jigsaw", "killer_generated", "windoku", "pencilmark"])
def test_parse_returns_a_variants_rules_and_they_read_back(app, name):
    text = (VARIANTS / f"{name}.jsonl").read_text().splitlines()[0]
    board = Board.parse(text)
    answer = ok(app, "parse", puzzle=text)["board"]
    rules = answer["rules"]
    assert rules["variant"] is True
    geometry = board.geometry
    assert [h["kind"] for h in rules["houses"]] == list(geometry.kinds)
    assert [h["cells"] for h in rules["houses"]] == geometry.houses.tolist()
    assert rules["cages"] == [[cage.total, list(cage.cells)] for cage in board.cages]
    assert rules["candidates"] == (None if board.candidates is None else board.candidates.tolist())
    # the page sends the rules back in the json format, with the values it holds
    again = json.dumps({"givens": answer["line"], "size": answer["size"], **rules["json"]})
    assert Board.parse(again) == board
    solved = ok(app, "solve", puzzle=again, format="json")
    assert solved["solution"]["cells"] == sudokit.solve(board).board.cells.tolist()
    if name == "pencilmark":  # the techniques take pencil marks
        assert rules["techniques"] is None
    else:
        assert "the human-style techniques" in rules["techniques"]
        refused(post(app, "hint", puzzle=again), 422, rules["techniques"])


def test_parse_keeps_the_diagonals_of_a_variant_line(app):
    rules = ok(app, "parse", puzzle=EASY + " diagonals")["board"]["rules"]
    assert rules["json"] == {"diagonals": ["main", "anti"]}
    assert [h["kind"] for h in rules["houses"][27:]] == ["diagonal", "anti-diagonal"]
    assert ok(app, "solve", puzzle=EASY + " diagonals")["status"] == "no solution"


def test_parse_reports_conflicts_as_data_not_errors(app):
    answer = ok(app, "parse", puzzle="55" + "." * 79)["board"]
    assert answer["valid"] is False
    [conflict] = [c for c in answer["conflicts"] if c["kind"] == "row"]
    assert conflict["cells"] == [[0, 0], [0, 1]] and conflict["value"] == 5


def test_a_format_error_names_the_line_and_column_as_the_library_does(app):
    grid = Board.from_line(EASY).to_grid().splitlines()
    grid[2] = grid[2][:4] + "x" + grid[2][5:]
    text = "\n".join(grid) + "\n"
    with pytest.raises(sudokit.FormatError) as expected:
        Board.parse(text)
    body = refused(post(app, "parse", puzzle=text), 422, "line 3, column 5")
    assert (body["kind"], body["field"], body["line"], body["column"]) == ("format", "puzzle", 3, 5)
    assert body["error"].endswith(expected.value.message)


def test_first_lines_that_leave_the_format_a_guess_ask_for_the_format_field(app):
    # the command line asks for --format; a request names its format in the "format" field
    text = "4\t1\t4\t0\t1\n.# a comment between records\n"
    body = refused(post(app, "parse", puzzle=text), 422, 'say the format with the "format" field')
    assert (body["field"], body["line"], body["column"]) == ("puzzle", 1, 1) and "--format" not in body["error"]


def test_parse_wants_exactly_one_board(app):
    refused(post(app, "parse", puzzle="   \n"), 422, "no board")
    body = refused(post(app, "parse", puzzle=EASY + "\n" + EASY + "\n"), 422, "another")
    assert body["line"] == 2


def test_parse_takes_the_options_of_the_command_line(app):
    board = ok(app, "parse", puzzle="1" + "." * 35, shape="3x2")["board"]
    assert board["box"] == [3, 2]
    board = ok(app, "parse", puzzle="0" * 256, symbols="0123456789ABCDEF", format="line")["board"]
    assert board["symbols"] == "0123456789ABCDEF" and board["givens"] == 256
    refused(post(app, "parse", puzzle=EASY, shape="7"), 422, "prime")
    refused(post(app, "parse", puzzle=EASY, format="xml"), 422, "format must be one of")


# -- solve and count ------------------------------------------------------------------------


def test_solve_answers_the_solution_and_its_cost(app):
    answer = ok(app, "solve", puzzle=EASY)
    assert answer["status"] == "solved" and answer["solution"]["line"] == EASY_SOLUTION
    assert answer["nodes"] >= 1 and answer["budget"] == {"time_limit": 2.0, "node_limit": 10_000_000}
    assert ok(app, "solve", puzzle="." * 81, unique=True)["status"] == "several"


def test_solve_of_broken_givens_is_a_result_with_its_conflicts(app):
    answer = ok(app, "solve", puzzle="55" + "." * 79)
    assert answer["status"] == "no solution" and answer["solution"] is None
    assert answer["conflicts"][0]["cells"] == [[0, 0], [0, 1]]


def test_count_proves_uniqueness_and_counts_to_a_limit(app):
    unique = ok(app, "count", puzzle=EASY)
    assert (unique["status"], unique["count"], unique["unique"], unique["exhausted"]) == ("solved", 1, True, True)
    several = ok(app, "count", puzzle="." * 16, limit=1000)
    assert several["count"] == 288 and several["exhausted"] is True and several["count_known"] is True
    refused(post(app, "count", puzzle=EASY, limit=0), 422, "limit must be 1 to")
    refused(post(app, "count", puzzle=EASY, limit=10**7), 422, "limit must be 1 to")


# -- budgets --------------------------------------------------------------------------------


def test_a_node_budget_leaves_the_question_open(app):
    answer = ok(app, "solve", puzzle=HARD, node_limit=1)
    assert answer["status"] == "unknown" and answer["budget"]["node_limit"] == 1
    counted = ok(app, "count", puzzle="." * 81, limit=10**6, node_limit=1000)
    assert counted["count_known"] is False and counted["nodes"] <= 1100


def test_budgets_are_capped_by_the_server():
    app = create_app(Settings(max_time_limit=0.3, max_node_limit=5000))
    answer = ok(app, "count", puzzle="." * 81, limit=10**6, time_limit=10**9, node_limit=10**12)
    assert answer["budget"] == {"time_limit": 0.3, "node_limit": 5000}
    assert answer["nodes"] <= 5100 and answer["count_known"] is False


def test_a_time_budget_stops_a_long_search():
    app = create_app(Settings(max_time_limit=0.3))
    start = time.perf_counter()
    answer = ok(app, "count", puzzle="." * 256, limit=10**6, node_limit=10**9, time_limit=5)
    assert answer["status"] != "solved" and answer["count_known"] is False
    assert time.perf_counter() - start < 4.0  # 0.3 s and the slice the search was in


def test_a_call_without_a_budget_of_its_own_is_given_up_at_the_deadline(monkeypatch):
    """The logic has no budget: past the request's, the answer is 'unknown' at once and the
    call finishes in its thread, still counted against the server's capacity until then."""
    app = create_app(Settings(grace=0.1))
    release = threading.Event()
    original = logic.explain

    def slow(board, **options):
        release.wait(10)
        return original(board, **options)

    monkeypatch.setattr(logic, "explain", slow)
    start = time.perf_counter()
    answer = ok(app, "explain", puzzle=EASY, time_limit=0.2)
    assert time.perf_counter() - start < 4.0  # not the 10 s the call would take
    assert answer["status"] == "unknown" and "0.2 s" in answer["reason"]
    jobs = app.state.jobs
    assert jobs.running == 1
    release.set()
    for _ in range(200):
        if jobs.running == 0:
            break
        time.sleep(0.02)
    assert jobs.running == 0


def _hold_rate(monkeypatch) -> threading.Event:
    """Make every rate request wait (10 s at most) until the event returned is set."""
    release = threading.Event()
    original = logic.rate

    def slow(board, **options):
        release.wait(10)
        return original(board, **options)

    monkeypatch.setattr(logic, "rate", slow)
    return release


def test_a_full_server_answers_503_rather_than_queue_for_ever(monkeypatch):
    app = create_app(Settings(workers=1, queue=0))
    release = _hold_rate(monkeypatch)

    async def both():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            first = asyncio.ensure_future(client.post("/api/rate", json={"puzzle": EASY}))
            await asyncio.sleep(0.3)  # the first holds the only worker
            second = await client.post("/api/rate", json={"puzzle": EASY})
            release.set()
            return await first, second

    first, second = asyncio.run(both())
    assert first.status_code == 200 and first.json()["level"] == "easy"
    refused(second, 503, "busy")
    assert second.headers["retry-after"] == "1"


def test_a_bad_request_is_refused_at_once_and_a_wait_for_a_worker_is_bounded(monkeypatch):
    """Checking a request needs no worker: with the only one taken, a bad request still gets
    its 422 at once, and a good one gets 503 when no worker frees up within its budget."""
    app = create_app(Settings(workers=1, queue=4, grace=0.1))
    release = _hold_rate(monkeypatch)

    async def three():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            first = asyncio.ensure_future(client.post("/api/rate", json={"puzzle": EASY}))
            await asyncio.sleep(0.3)
            began = time.perf_counter()
            bad = await client.post("/api/solve", json={"puzzle": EASY, "time_limt": 1})
            quick = time.perf_counter() - began
            waited = await client.post("/api/solve", json={"puzzle": EASY, "time_limit": 0.2})
            release.set()
            return await first, bad, quick, waited

    first, bad, quick, waited = asyncio.run(three())
    assert first.status_code == 200
    refused(bad, 422, "unknown field")
    assert quick < 0.5
    refused(waited, 503, "no worker was free within 0.3 s")


def test_long_requests_may_hold_only_half_the_workers(monkeypatch):
    """A request asking for more than the default time is long: past half the threads, long
    ones are refused (503) while a short one is still served."""
    app = create_app(Settings(workers=2, queue=4))
    release = _hold_rate(monkeypatch)

    async def three():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            first = asyncio.ensure_future(client.post("/api/rate", json={"puzzle": EASY, "time_limit": 5}))
            await asyncio.sleep(0.3)
            second = await client.post("/api/rate", json={"puzzle": EASY, "time_limit": 5})
            short = await client.post("/api/solve", json={"puzzle": EASY})
            release.set()
            return await first, second, short

    first, second, short = asyncio.run(three())
    assert first.status_code == 200 and short.json()["status"] == "solved"
    refused(second, 503, "long requests")


def test_requests_are_served_at_once():
    """A long search does not hold up a short one: the compiled calls run in threads."""
    app = create_app(Settings(workers=2))
    done: list[str] = []

    async def both():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:

            async def ask(name, body):
                response = await client.post(f"/api/{name}", json=body)
                done.append(name)
                return response

            long = ask("count", {"puzzle": "." * 256, "limit": 10**6, "time_limit": 1.0, "node_limit": 10**9})
            short = ask("solve", {"puzzle": EASY})
            return await asyncio.gather(long, short)

    start = time.perf_counter()
    long, short = asyncio.run(both())
    assert long.status_code == short.status_code == 200
    assert done == ["solve", "count"]
    assert time.perf_counter() - start < 6.0  # the long one's second, not a queue behind it


# -- hints ----------------------------------------------------------------------------------


def test_a_hint_at_three_levels(app):
    """As Sudoku Explainer gives them: the technique, then its cells, then the whole step."""
    one = ok(app, "hint", puzzle=MEDIUM, level=1)["step"]
    two = ok(app, "hint", puzzle=MEDIUM, level=2)["step"]
    three = ok(app, "hint", puzzle=MEDIUM)["step"]
    step = sudokit.hint(MEDIUM)
    assert one["technique"] == two["technique"] == three["technique"] == step.name
    assert "cells" not in one and "text" not in two
    assert two["cells"] == three["cells"] == messages.pattern_cells(step)
    assert three["text"] == step.text
    assert three["placements"] == [list(p) for p in step.placements]
    assert three["eliminations"] == [list(e) for e in step.eliminations]


def test_hints_until_solved_with_the_players_candidates(app):
    """Take hint after hint, keeping the candidates as the page does (what the values allow,
    less what steps removed), until the board is complete; it ends as the solution."""
    board = Board.from_line(MEDIUM)
    n = board.size
    values = board.cells.astype(int).tolist()
    removed = [0] * (n * n)
    peers = board.shape.peers
    steps = eliminated = 0
    while 0 in values:
        marks = [
            [] if values[c] else [v for v in range(1, n + 1) if not removed[c] >> (v - 1) & 1 and all(values[p] != v for p in peers[c])]
            for c in range(n * n)
        ]
        line = "".join(str(v) if v else "." for v in values)
        answer = ok(app, "hint", puzzle=line, candidates=marks)
        step = answer["step"]
        assert answer["status"] == "solved" and step is not None, answer
        for cell, value in step["placements"]:
            values[cell] = value
        for cell, value in step["eliminations"]:
            removed[cell] |= 1 << (value - 1)
            eliminated += 1
        steps += 1
        assert steps < 200
    assert eliminated > 0
    solution = sudokit.solve(MEDIUM).board
    assert solution is not None and values == solution.cells.tolist()
    final = ok(app, "hint", puzzle="".join(map(str, values)))
    assert final["step"] is None and final["complete"] is True and final["stuck"] is False


def test_hint_refuses_candidates_that_leave_out_the_solution(app):
    solution = sudokit.solve(EASY).board
    assert solution is not None
    marks = [[] for _ in range(81)]
    marks[2] = [v for v in range(1, 10) if v != solution.cells[2]]
    marks = [m or list(range(1, 10)) for m in marks]
    refused(post(app, "hint", puzzle=EASY, candidates=marks), 422, "r1c3")
    refused(post(app, "hint", puzzle=EASY, candidates=[[1]] * 80), 422, "81 arrays")
    refused(post(app, "hint", puzzle=EASY, candidates=[[10]] * 81), 422, "candidates[0]")
    refused(post(app, "hint", puzzle=EASY, level=4), 422, "level must be 1 to 3")


def test_hint_on_a_board_without_exactly_one_solution(app):
    assert ok(app, "hint", puzzle="." * 81)["status"] == "several"
    wrong = ok(app, "hint", puzzle="55" + "." * 79)
    assert wrong["status"] == "no solution" and wrong["step"] is None and wrong["conflicts"]


# -- explain and rate -----------------------------------------------------------------------


def test_explain_gives_every_step_and_replaying_them_keeps_the_library_candidates(app):
    """The page replays the steps (placements, then eliminations; a cell's candidates are what
    its peers leave less what was eliminated): that is the library's candidate grid too."""
    answer = ok(app, "explain", puzzle=MEDIUM)
    expected = sudokit.explain(MEDIUM)
    assert answer["solved"] is True and [s["text"] for s in answer["steps"]] == [s.text for s in expected.steps]
    assert answer["rating"]["level"] == expected.rating.level.value
    board = Board.from_line(MEDIUM)
    n, peers = board.size, board.shape.peers
    grid = logic.CandidateGrid(board)
    values = board.cells.astype(int).tolist()
    removed = [0] * (n * n)
    for library, step in zip(expected.steps, answer["steps"]):
        grid.apply(library)
        for cell, value in step["placements"]:
            values[cell] = value
        for cell, value in step["eliminations"]:
            removed[cell] |= 1 << (value - 1)
        masks = [
            0 if values[c] else sum(1 << (v - 1) for v in range(1, n + 1) if not removed[c] >> (v - 1) & 1 and all(values[p] != v for p in peers[c]))
            for c in range(n * n)
        ]
        assert values == grid.values.tolist() and masks == grid.candidates.tolist()


def test_rate_matches_the_library(app):
    answer = ok(app, "rate", puzzle=MEDIUM)
    rating = sudokit.rate(MEDIUM)
    assert (answer["level"], answer["score"], answer["techniques"]) == (rating.level.value, rating.score, rating.techniques)
    assert ok(app, "rate", puzzle="." * 81)["status"] == "several"
    broken = ok(app, "rate", puzzle="55" + "." * 79)
    assert broken["status"] == "no solution" and broken["level"] is None and broken["conflicts"]
    assert ok(app, "explain", puzzle="55" + "." * 79)["conflicts"]


def test_a_variant_the_techniques_do_not_know_is_refused_not_a_server_error(app):
    variants = Path(__file__).parent / "data" / "variants"
    for name, words in (("jigsaw", "jigsaw regions"), ("killer", "killer cages"), ("windoku", "extra houses")):
        record = (variants / f"{name}.jsonl").read_text().splitlines()[0]
        for endpoint in ("rate", "hint", "explain"):
            body = refused(post(app, endpoint, puzzle=record), 422, words)
            assert body["field"] == "puzzle", (name, endpoint)
    marks = (variants / "pencilmark.jsonl").read_text().splitlines()[0]
    refused(post(app, "rate", puzzle=marks), 422, "pencil marks")
    assert ok(app, "hint", puzzle=marks)["step"] is not None  # hints take the player's marks


def test_every_page_size_gets_hints_and_a_rating(app):
    for size in (4, 6, 16):
        full = sudokit.solve(Board.empty(size)).board
        assert full is not None
        cells = full.cells.copy()
        cells[[0, size + 1]] = 0
        line = Board(cells, full.shape).to_line()
        step = ok(app, "hint", puzzle=line)["step"]
        assert step["placements"], step
        assert ok(app, "rate", puzzle=line)["level"] == "easy"
    assert ok(app, "explain", puzzle=SMALL)["solved"] is True


# -- generate and canonical -----------------------------------------------------------------


def test_generate_makes_a_unique_puzzle_again_from_its_seed(app):
    first = ok(app, "generate", size=9, seed=2026, time_limit=10)
    again = ok(app, "generate", size=9, seed=2026, time_limit=10)
    assert first["status"] == "solved" and first["seed"] == 2026
    assert first["puzzle"]["line"] == again["puzzle"]["line"]
    assert first["puzzle"]["line"] == sudokit.generate(1, seed=2026)[0].to_line()
    assert sudokit.is_unique(first["puzzle"]["line"]).unique is True
    assert ok(app, "generate", size=16)["seed"] >= 0  # a seed is chosen and answered
    assert request(app, "GET", "/api/info").json()["capabilities"]["generate"] is True


def test_generate_at_a_level_with_symmetry(app):
    answer = ok(app, "generate", level="hard", seed=7, symmetry="rot180", time_limit=10)
    puzzle = Board.from_line(answer["puzzle"]["line"])
    assert sudokit.rate(puzzle).level.value == "hard"
    cells = puzzle.cells.reshape(9, 9) != 0
    assert (cells == cells[::-1, ::-1]).all()
    assert ok(app, "generate", size=6, seed=1)["puzzle"]["size"] == 6
    refused(post(app, "generate", level="impossible"), 422, "level must be one of")
    refused(post(app, "generate", size=7), 422, "size")
    refused(post(app, "generate", symmetry="spiral"), 422, "symmetry must be one of")
    refused(post(app, "generate", score=[1, 2, 3]), 422, "score must be")


def test_generate_a_25x25_within_the_pages_budget(app):
    info = request(app, "GET", "/api/info").json()
    defaults = info["sizes"][-1]["generate"]
    answer = ok(app, "generate", size=25, seed=3, time_limit=10)
    assert answer["status"] == "solved" and answer["puzzle"]["givens"] == defaults["clues"]
    assert answer["minimal"] is False and ok(app, "generate", size=9, seed=3)["minimal"] is True
    assert sudokit.is_unique(answer["puzzle"]["line"]).unique is True
    # a minimal one would hold a worker for minutes past its budget: refused up front
    refused(post(app, "generate", size=25, minimal=True), 422, "takes minutes")


def test_a_generator_that_runs_out_answers_unknown(app):
    """A target the budget cannot reach is an answer, not a failure."""
    answer = ok(app, "generate", clues=16, time_limit=0.3)
    assert answer["status"] == "unknown" and answer["puzzle"] is None
    assert "at most 16 givens" in answer["reason"]


def test_canonical_matches_the_library(app):
    answer = ok(app, "canonical", puzzle=EASY)
    assert answer["canonical"] == sudokit.canonical(Board.from_line(EASY))
    refused(post(app, "canonical", puzzle=SMALL), 422, "9x9")


# -- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize("content, words", [
    (b"", "found nothing"),
    (b"{", "not JSON"),
    (b"[1, 2]", "not an array"),
    (b'"text"', "not a string"),
    (b'{"puzzle": NaN}', "NaN"),
    (b"\xff\xfe\xfa", "not"),
    (b"[" * 5000 + b"]" * 5000, "nested over 32 deep"),
])  # fmt: skip
def test_a_body_that_is_not_a_json_object_is_400(app, content, words):
    body = refused(request(app, "POST", "/api/solve", content=content), 400, words)
    assert body["kind"] == "json"


def test_brackets_inside_a_string_are_not_nesting(app):
    text = '{"puzzle": "' + "[" * 100 + '\\"' + "]" * 100 + '"}'
    refused(request(app, "POST", "/api/solve", content=text.encode()), 422, "line 1")


@pytest.mark.parametrize("body, field, words", [
    ({}, "puzzle", "required"),
    ({"puzzle": 5}, "puzzle", "must be a string"),
    ({"puzzle": EASY, "time_limt": 1}, "time_limt", "unknown field"),
    ({"puzzle": EASY, "time_limit": "1"}, "time_limit", "must be a number"),
    ({"puzzle": EASY, "time_limit": -1}, "time_limit", "at least 0"),
    ({"puzzle": EASY, "node_limit": 0}, "node_limit", "at least 1"),
    ({"puzzle": EASY, "node_limit": 1.5}, "node_limit", "must be an integer"),
    ({"puzzle": EASY, "node_limit": True}, "node_limit", "not a boolean"),
    ({"puzzle": EASY, "unique": "yes"}, "unique", "true or false"),
    ({"puzzle": EASY, "shape": [3, 3]}, "shape", "box shape"),
])  # fmt: skip
def test_a_wrong_field_is_422_and_named(app, body, field, words):
    answer = refused(request(app, "POST", "/api/solve", json=body), 422, words)
    assert answer["field"] == field


def test_every_endpoint_refuses_a_missing_puzzle(app):
    for name in ("parse", "solve", "count", "hint", "explain", "rate"):
        refused(post(app, name), 422, "required")


# -- the size limit -------------------------------------------------------------------------


def test_a_body_over_the_limit_is_413():
    app = create_app(Settings(max_body=2000))
    big = json.dumps({"puzzle": EASY + " " * 3000})
    refused(request(app, "POST", "/api/parse", content=big, headers={"content-type": "application/json"}), 413, "2000 bytes")
    at_limit = json.dumps({"puzzle": EASY}).ljust(2000)
    assert request(app, "POST", "/api/parse", content=at_limit).status_code == 200


def test_a_streamed_body_is_cut_at_the_limit():
    """Without Content-Length the body is counted as it comes, and refused past the limit."""
    app = create_app(Settings(max_body=2000))

    async def chunks():
        yield b'{"puzzle": "'
        for _ in range(100):
            yield b"." * 100

    response = request(app, "POST", "/api/parse", content=chunks())
    refused(response, 413, "over the limit")


# -- failures -------------------------------------------------------------------------------


def test_an_internal_error_is_logged_never_shown(app, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("secret detail")

    monkeypatch.setattr(api.solver, "count", broken)
    with caplog.at_level(logging.ERROR, logger="sudokit.web"):
        response = post(app, "solve", puzzle=EASY)
    body = refused(response, 500, "internal error")
    assert "secret" not in response.text and body["kind"] == "internal"
    assert "secret detail" in caplog.text


def test_each_request_proves_uniqueness_once(app, monkeypatch):
    """The API proves the puzzle unique under the request's budget and hands the solution to
    the library: one search per request, however many answers it gives (issue 33)."""
    calls = []
    count = api.solver.count  # the module's: the library's rate, explain and hint call it too

    def counted(*args, **kwargs):
        calls.append(args[1] if len(args) > 1 else kwargs.get("limit"))
        return count(*args, **kwargs)

    monkeypatch.setattr(api.solver, "count", counted)
    for endpoint in ("rate", "explain", "hint"):
        calls.clear()
        ok(app, endpoint, puzzle=MEDIUM)
        assert calls == [2], endpoint


def test_rate_takes_a_potential_budget_in_its_own_unit(app):
    """``potential_limit`` bounds SE's chains (``node_limit`` the proof of uniqueness); the
    answer's budget says it, and the endpoints that run no SE refuse the field."""
    answer = ok(app, "rate", puzzle=HARD, potential_limit=1)
    assert answer["status"] == "solved" and answer["se_status"] == "unknown"
    assert answer["budget"]["potential_limit"] == 1 and answer["budget"]["node_limit"] >= 1
    refused(post(app, "solve", puzzle=EASY, potential_limit=1), 422, "potential_limit")


def test_a_host_not_allowed_is_refused():
    app = create_app(Settings(allowed_hosts=("localhost", "127.0.0.1")))
    assert request(app, "GET", "/api/info").status_code == 400  # Host: testserver
    assert request(app, "GET", "/api/info", headers={"host": "localhost:8000"}).status_code == 200


def test_the_serve_command():
    result = CliRunner().invoke(cli, ["serve", "--help"])
    assert result.exit_code == 0 and "--host" in result.output and "127.0.0.1" in result.output
