"""Benchmark ``sudokit serve``: requests per second and latency for solve and hint on one core
with several clients at once, then a load of bad and oversized requests the server must answer
every one of, staying up; then every action of the page, timed in headless Chromium on a
desktop and a phone size, beside the same request sent alone.

The server runs as ``python -m sudokit serve`` on 127.0.0.1 (a free port), pinned to one CPU;
the clients (httpx, keep-alive connections, one coroutine each) run in this process on the
other CPUs. Every run is bounded: a number of requests per phase and a time cap, and it ends
the server it started. It prints, per endpoint:

    requests  failed  req/s  median ms  p99 ms

then the bad-input phase: the requests of each kind, the statuses they got, and whether the
server still answered afterwards (and its memory before and after). Exit status 1 when a
request failed or the server went down.

The page's phase (Playwright and Debian's ``chromium``; skipped, saying so, without them)
prints, per device and action: the median and the slowest of ``--page-repeats`` runs, in ms,
from the click to the board drawn (the page's own ``performance.measure``; actions without a
request are timed around the click in the page), the median of the same request sent alone
with httpx, and their ratio (what the page adds: JSON, drawing, the event loop).

    python benchmarks/web.py                          # 2000 requests a phase, 8 clients
    python benchmarks/web.py --requests 500 --clients 4 --duration 10
    python benchmarks/web.py --only-page --page-repeats 5
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import httpx

import sudokit

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "tests" / "data" / "sample_9x9.txt"
VARIANTS = ROOT / "tests" / "data" / "variants"
EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
MEDIUM = ".617..9..7.4.....1..........965...171....2.....2..8.4..27.....55.8...7964........"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
DEVICES = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}


def free_port() -> int:
    """A port of 127.0.0.1 that is free now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def rss_mb(pid: int) -> float:
    """The resident memory of a process, in MB (Linux), or NaN."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def start_server(port: int, cpu: int) -> subprocess.Popen:
    """``sudokit serve`` on one CPU, its log discarded (uvicorn logs every request)."""
    return subprocess.Popen(
        [sys.executable, "-m", "sudokit", "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=lambda: os.sched_setaffinity(0, {cpu}),
    )


async def wait_until_up(client: httpx.AsyncClient, server: subprocess.Popen, timeout: float) -> None:
    """Poll /api/info, then ask a solve and a hint, so the kernels are loaded before timing."""
    deadline = time.monotonic() + timeout
    while True:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with status {server.returncode}")
        try:
            if (await client.get("/api/info")).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise SystemExit("the server did not answer in time")
        await asyncio.sleep(0.2)
    for endpoint in ("solve", "hint", "solve", "hint"):
        await client.post(f"/api/{endpoint}", json={"puzzle": EASY, "time_limit": 10}, timeout=600)


async def load(client: httpx.AsyncClient, endpoint: str, puzzles: list[str], requests: int, clients: int, duration: float) -> dict[str, Any]:
    """``requests`` POSTs of ``endpoint`` over ``clients`` concurrent clients, at most
    ``duration`` seconds; latency per request, failures (a non-200 or a wrong answer)."""
    latencies: list[float] = []
    failures: collections.Counter[str] = collections.Counter()
    issued = 0
    stop = time.perf_counter() + duration

    async def one_client() -> None:
        """One client: requests one after another on its connection, until the count or the time is spent."""
        nonlocal issued
        while issued < requests and time.perf_counter() < stop:
            puzzle = puzzles[issued % len(puzzles)]
            issued += 1
            began = time.perf_counter()
            try:
                response = await client.post(f"/api/{endpoint}", json={"puzzle": puzzle})
            except httpx.HTTPError as error:
                failures[type(error).__name__] += 1
                continue
            latencies.append(time.perf_counter() - began)
            if response.status_code != 200:
                failures[str(response.status_code)] += 1
            elif response.json()["status"] != "solved":
                failures[response.json()["status"]] += 1

    began = time.perf_counter()
    await asyncio.gather(*(one_client() for _ in range(clients)))
    wall = time.perf_counter() - began
    latencies.sort()
    return {
        "endpoint": endpoint,
        "requests": len(latencies),
        "failed": sum(failures.values()),
        "failures": dict(failures),
        "rate": len(latencies) / wall,
        "median_ms": statistics.median(latencies) * 1e3 if latencies else float("nan"),
        "p99_ms": latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))] * 1e3 if latencies else float("nan"),
    }


def bad_requests(max_body: int) -> list[tuple[str, set[int], Callable[[httpx.AsyncClient], Any]]]:
    """(kind, the statuses it may get, the request) for every kind of bad or heavy input."""

    def post(path: str, **options: Any) -> Callable[[httpx.AsyncClient], Any]:
        """A POST of the given content, for any client."""
        return lambda client: client.post(path, **options)

    async def streamed():
        """A body over the limit, sent in chunks without a Content-Length."""
        yield b'{"puzzle": "'
        for _ in range(max_body // 1000 + 8):
            yield b"." * 1000
        yield b'"}'

    oversized = b'{"puzzle": "' + b"." * (max_body + 10) + b'"}'
    busy = {200, 503}  # a heavy request may find every worker taken: 503 is an answer too
    return [
        ("oversized body", {413}, post("/api/solve", content=oversized)),
        ("oversized, streamed", {413}, lambda client: client.post("/api/solve", content=streamed())),
        ("not JSON", {400}, post("/api/solve", content=b"{")),
        ("random bytes", {400}, lambda client: client.post("/api/hint", content=os.urandom(256))),
        ("deep nesting", {400}, post("/api/solve", content=b"[" * 20_000 + b"]" * 20_000)),
        ("NaN budget", {400}, post("/api/solve", content=b'{"puzzle": "' + EASY.encode() + b'", "time_limit": NaN}')),
        ("array body", {400}, post("/api/rate", json=[EASY])),
        ("wrong type", {422}, post("/api/solve", json={"puzzle": 81})),
        ("unknown field", {422}, post("/api/hint", json={"puzzle": EASY, "levle": 2})),
        ("format error", {422}, post("/api/parse", json={"puzzle": "x" * 81})),
        ("control characters", {422}, post("/api/explain", json={"puzzle": "\x00\x01\x02" * 27})),
        ("bad candidates", {422}, post("/api/hint", json={"puzzle": EASY, "candidates": [[99]] * 81})),
        ("no solution", {200}, post("/api/hint", json={"puzzle": "55" + "." * 79})),
        ("several solutions", {200}, post("/api/explain", json={"puzzle": "." * 81})),
        ("huge budget", busy, post("/api/count", json={"puzzle": "." * 256, "limit": 10**6, "time_limit": 1e9, "node_limit": 10**12})),
        ("unknown endpoint", {404}, lambda client: client.get("/api/nothing")),
        ("wrong method", {405}, lambda client: client.get("/api/solve")),
    ]


async def abuse(client: httpx.AsyncClient, max_body: int, requests: int, clients: int, duration: float) -> dict[str, Any]:
    """Send the bad requests round robin from ``clients`` at once; count what came back."""
    kinds = bad_requests(max_body)
    heavy = {"huge budget"}
    got: dict[str, collections.Counter[str]] = {kind: collections.Counter() for kind, _, _ in kinds}
    unexpected: list[str] = []
    issued = 0
    heavy_sent = 0
    stop = time.perf_counter() + duration

    async def one_client() -> None:
        """One client: requests one after another on its connection, until the count or the time is spent."""
        nonlocal issued, heavy_sent
        while issued < requests and time.perf_counter() < stop:
            kind, allowed, send = kinds[issued % len(kinds)]
            issued += 1
            if kind in heavy:
                if heavy_sent >= 4:  # each holds a worker for the capped budget (10 s)
                    continue
                heavy_sent += 1
            try:
                response = await send(client)
            except httpx.HTTPError as error:
                got[kind][type(error).__name__] += 1
                unexpected.append(f"{kind}: {type(error).__name__}: {error}")
                continue
            got[kind][str(response.status_code)] += 1
            is_json = response.headers.get("content-type", "").startswith("application/json")
            if response.status_code not in allowed or not is_json or "Traceback" in response.text:
                unexpected.append(f"{kind}: {response.status_code} {response.text[:120]}")

    await asyncio.gather(*(one_client() for _ in range(clients)))
    return {"kinds": {kind: dict(counts) for kind, counts in got.items()}, "unexpected": unexpected}


def _variant(name: str) -> str:
    """The first puzzle of a variant data file, as its JSON line."""
    return (VARIANTS / f"{name}.jsonl").read_text().splitlines()[0]


def page_script() -> list[tuple[str, str, Any]]:
    """The page's actions in order: (name, kind, what), where kind is "load" (paste a text),
    "click" (a button that may ask the server), "local" (a button answered in the page),
    "select" (a list's value, untimed) or "key" (a key on the board, timed in the page).
    Everything but ONCE runs ``--page-repeats`` times."""
    sukaku = sudokit.Board.parse(_variant("pencilmark")).to_sukaku()
    steps: list[tuple[str, str, Any]] = [
        ("load 9x9 (a pasted grid)", "load", sudokit.Board.from_line(MEDIUM).to_grid()),
        ("hint, level 1", "click", "hint"),
        ("hint, level 2", "click", "hint"),
        ("hint, level 3", "click", "hint"),
        ("apply step", "click", "apply"),
        ("undo", "local", "undo"),
        ("type a digit", "key", "4567"),
        ("check", "click", "check"),
        ("rate", "click", "rate"),
        ("explain", "click", "explain"),
        ("explain: forward", "local", "forward"),
        ("explain: done", "local", "done"),
        ("solve", "click", "solve"),
        ("undo the solve", "local", "undo"),
        ("reveal cell", "click", "reveal"),
    ]
    for size in (4, 6, 9, 16, 25):
        steps += [(f"size {size}x{size}", "select", ("size", str(size))), (f"generate {size}x{size}, any level", "click", "generate")]
    steps += [
        ("size 9x9", "select", ("size", "9")),
        ("level easy", "select", ("level", "easy")),
        ("generate 9x9, easy", "click", "generate"),
        ("level any", "select", ("level", "")),
        ("load a jigsaw", "load", _variant("jigsaw")),
        ("solve a jigsaw", "click", "solve"),
        ("load a killer", "load", _variant("killer_generated")),
        ("reveal in a killer", "click", "reveal"),
        ("solve a killer", "click", "solve"),
        ("load a Sukaku", "load", sukaku),
        ("hint on a Sukaku", "click", "hint"),
    ]
    return steps


#: actions that change what the next one finds when repeated (a hint's level, undo), run once
ONCE = {"hint, level 1", "hint, level 2", "hint, level 3", "undo", "explain: done", "undo the solve"}


def page_timings(base: str, repeats: int) -> list[dict[str, Any]]:
    """Every action of page_script() ``repeats`` times on each device: the page's time and the
    same request's alone."""
    from playwright.sync_api import sync_playwright  # an optional tool of the page's phase only

    rows: list[dict[str, Any]] = []
    with sync_playwright() as playwright, httpx.Client(base_url=base, timeout=60) as client:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        for device, options in DEVICES.items():
            context = browser.new_context(**options, bypass_csp=True)  # wait_for_function evaluates a string
            page = context.new_page()
            page.set_default_timeout(60_000)
            sent: list[Any] = []
            page.on("request", lambda request: sent.append(request) if "/api/" in request.url and request.method == "POST" else None)
            page.goto(base + "/")
            page.wait_for_selector("body[data-ready='1']")
            for name, kind, what in page_script():
                if kind == "select":
                    page.select_option(f"#{what[0]}", what[1])
                    continue
                times: list[float] = []
                api: list[float] = []
                for attempt in range(1 if name in ONCE else repeats):
                    sent.clear()
                    times.append(_page_action(page, kind, what[attempt % len(what)] if kind == "key" else what))
                    if sent:
                        request = sent[-1]
                        began = time.perf_counter()
                        client.post(request.url, content=request.post_data, headers={"content-type": "application/json"})
                        api.append((time.perf_counter() - began) * 1e3)
                rows.append({
                    "device": device, "action": name, "median_ms": statistics.median(times), "max_ms": max(times),
                    "api_ms": statistics.median(api) if api else None,
                })
            context.close()
        browser.close()
    return rows


def _page_action(page: Any, kind: str, what: Any) -> float:
    """One action on the page; its time in ms as the page measured it."""
    if kind == "load":
        page.fill("#paste", what)
        what = "load"
    if kind in ("load", "click"):
        page.evaluate("performance.clearMeasures()")
        page.click(f"#{what}")
        page.wait_for_function("performance.getEntriesByType('measure').length > 0 && document.body.dataset.busy === '0'")
        return float(page.evaluate("performance.getEntriesByType('measure').at(-1).duration"))
    if kind == "key":
        script = "key => { const t = performance.now(); document.getElementById('board').dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true})); return performance.now() - t; }"
        return float(page.evaluate(script, what))
    script = "id => { const t = performance.now(); document.getElementById(id).click(); return performance.now() - t; }"
    return float(page.evaluate(script, what))


def print_page_timings(rows: list[dict[str, Any]], repeats: int) -> None:
    """The page's table: device, action, page ms (median, slowest), API ms, ratio."""
    print(f"\npage actions in headless Chromium, {repeats} runs each: ms from the click to the board drawn; "
          "API: the same request sent alone (median)")
    print(f"{'device':8} {'action':34} {'page ms':>8} {'max ms':>8} {'API ms':>8} {'page/API':>9}")
    for row in rows:
        api = row["api_ms"]
        ratio = f"{row['median_ms'] / api:>9.2f}" if api else f"{'-':>9}"
        api_text = f"{api:>8.1f}" if api else f"{'-':>8}"
        print(f"{row['device']:8} {row['action']:34} {row['median_ms']:>8.1f} {row['max_ms']:>8.1f} {api_text} {ratio}")


def garbage_http(port: int) -> bool:
    """A line that is not HTTP at all, on a raw socket: the server must answer 400 and go on."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"\x16\x03\x01 not http at all\r\n\r\n")
        try:
            answer = sock.recv(200)
        except OSError:
            return True  # closing the connection is an answer too
    return answer == b"" or answer.startswith(b"HTTP/1.1 400")


async def load_phases(client: httpx.AsyncClient, server: subprocess.Popen, port: int, args: argparse.Namespace, info: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """Solve and hint under load, then the bad input; their figures and whether any failed."""
    # the sample holds puzzles without a solution and with several: only the unique ones
    lines = [line.strip() for line in PUZZLES.read_text().splitlines() if len(line.strip()) == 81]
    puzzles = [line for line in lines if sudokit.is_unique(line).unique]
    print(f"{len(puzzles)} unique puzzles of {PUZZLES.name}, at most {args.requests} requests or {args.duration:g} s a phase")
    print(f"{'endpoint':10} {'requests':>9} {'failed':>7} {'req/s':>8} {'median ms':>10} {'p99 ms':>8}")
    results = []
    failed = False
    for endpoint in ("solve", "hint"):
        result = await load(client, endpoint, puzzles, args.requests, args.clients, args.duration)
        results.append(result)
        failed |= result["failed"] > 0
        print(f"{endpoint:10} {result['requests']:>9} {result['failed']:>7} {result['rate']:>8.0f} "
              f"{result['median_ms']:>10.2f} {result['p99_ms']:>8.2f}" + (f"  {result['failures']}" if result["failures"] else ""))
    before = rss_mb(server.pid)
    bad = await abuse(client, info["limits"]["max_body"], args.bad, args.clients, args.duration + 15)
    raw_ok = all(garbage_http(port) for _ in range(20))
    after_info = await client.get("/api/info")
    after_solve = await client.post("/api/solve", json={"puzzle": EASY})
    up = server.poll() is None and after_info.status_code == 200 and after_solve.json().get("status") == "solved"
    after = rss_mb(server.pid)
    total = sum(sum(counts.values()) for counts in bad["kinds"].values())
    print(f"\nbad and oversized input: {total} requests of {len(bad['kinds'])} kinds, {args.clients} clients at once, "
          f"and 20 lines of garbage on raw sockets ({'each answered 400 or closed' if raw_ok else 'NOT ANSWERED'})")
    for kind, counts in bad["kinds"].items():
        print(f"  {kind:22} {', '.join(f'{status} x{k}' for status, k in sorted(counts.items()))}")
    print(f"unexpected answers: {len(bad['unexpected'])}" + "".join(f"\n  {line}" for line in bad["unexpected"][:10]))
    print(f"server afterwards: {'up, answering' if up else 'DOWN or wrong'}; memory {before:.0f} MB before the bad input, {after:.0f} MB after")
    failed |= bool(bad["unexpected"]) or not raw_ok or not up
    return {"load": results, "bad": bad, "up": up, "rss_mb": [before, after]}, failed


def page_phase(base: str, repeats: int) -> list[dict[str, Any]] | None:
    """The page's actions timed and printed; None (said) without Playwright or Chromium."""
    try:
        import playwright  # noqa: F401  (an optional tool: the test extra has it)
    except ImportError:
        print("\npage actions: skipped, Playwright is not installed (pip install -e '.[test]')")
        return None
    if not Path(CHROMIUM).exists():
        print(f"\npage actions: skipped, no Chromium at {CHROMIUM} (Debian: apt-get install chromium)")
        return None
    rows = page_timings(base, repeats)
    print_page_timings(rows, repeats)
    return rows


async def run(args: argparse.Namespace) -> int:
    """The whole benchmark: start the server, load it, abuse it, time the page, report; the
    exit status."""
    cpus = sorted(os.sched_getaffinity(0))
    server_cpu = cpus[0]
    client_cpus = set(cpus[1:]) or {server_cpu}
    os.sched_setaffinity(0, client_cpus)
    port = args.port or free_port()
    server = start_server(port, server_cpu)
    limits = httpx.Limits(max_connections=args.clients, max_keepalive_connections=args.clients)
    failed = False
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", limits=limits, timeout=60) as client:
            await wait_until_up(client, server, args.start_timeout)
            info = (await client.get("/api/info")).json()
            print(f"sudokit {info['version']} web benchmark: server on CPU {server_cpu} (one core), "
                  f"{args.clients} clients on CPU {','.join(map(str, sorted(client_cpus)))}")
            record: dict[str, Any] = {}
            if not args.only_page:
                record, failed = await load_phases(client, server, port, args, info)
            if args.page_repeats > 0:
                record["page"] = await asyncio.to_thread(page_phase, f"http://127.0.0.1:{port}", args.page_repeats)
            if args.json:
                Path(args.json).parent.mkdir(parents=True, exist_ok=True)
                Path(args.json).write_text(json.dumps(record, indent=1))
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
    return 1 if failed else 0


def main() -> int:
    """Read the options and run."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000, help="requests per endpoint (default 2000)")
    parser.add_argument("--bad", type=int, default=600, help="bad requests in the abuse phase (default 600)")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients (default 8)")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds at most per phase (default 20)")
    parser.add_argument("--port", type=int, default=0, help="port (default: a free one)")
    parser.add_argument("--start-timeout", type=float, default=300.0, help="seconds to wait for the server (kernels may compile)")
    parser.add_argument("--page-repeats", type=int, default=3, help="runs of each page action (default 3; 0 skips the page)")
    parser.add_argument("--only-page", action="store_true", help="time the page's actions only, no load or bad input")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON (benchmarks/results/ is ignored by git)")
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
