"""The worker process that runs the commands (in click's runner) and the requests (through
httpx's ASGI client), replaced when one outlives its deadline: a command that never ends
cannot stop the suite."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import time
import traceback
from dataclasses import dataclass

import httpx
import numpy as np
from click.testing import CliRunner

import sudokit
from sudokit import engines
from sudokit.canon import canonical
from sudokit.cli import cli
from sudokit.web import api, create_app

from .puzzles import CATALOGUE, write


@dataclass
class Outcome:
    """What one command or request did."""

    exit_code: int | None = None  #: the command's exit status (70 for an exception, as ``main`` says)
    stdout: str = ""
    stderr: str = ""
    error: str | None = None  #: the traceback of an unexpected exception
    elapsed: float = 0.0  #: seconds, measured around the call in the worker
    hung: bool = False  #: no answer within the deadline: the worker was stopped
    status: int | None = None  #: HTTP status of a request
    body: str = ""


def _warm_up(what: str) -> None:
    """Load (or compile, once) the kernels the strategies reach: the searches (``search``) or
    every one (``all``), so that a cold cache is not taken for a broken budget (the first
    call's own promise is the business of tests of their own)."""
    engines.warm_up()
    if what != "all":
        return
    for shape in ("4x4", "6x6", "9x9"):
        board = sudokit.generate(1, shape=shape, seed=1, mixing=1, symmetry="rot180")[0]
        sudokit.generate(1, shape=shape, seed=1, level="easy", time_limit=30)
        sudokit.rate(board, scale="all")  # both scales: SE's kernels too
        sudokit.explain(board)
        if board.size == 9:
            sudokit.explain_se(board)  # SE's step loop is a kernel of its own
    big = next(p for p in CATALOGUE["classic"] if p.size == 16 and p.count == 1)
    sudokit.rate(sudokit.Board.parse(write(big, "line", {})))  # the 16x16 rating loops
    canonical(sudokit.generate(1, seed=2)[0])
    api.warm_up()
    for puzzle in CATALOGUE["variants"][::4] + CATALOGUE["layouts"][:1]:  # the variant kernels
        sudokit.count(sudokit.Board.parse(write(puzzle, "json", {})), 2, node_limit=20_000)
    sukaku = write(CATALOGUE["unique9"][0].with_marks([range(1, 10)] * 81), "sukaku", {})
    sudokit.hint(sudokit.Board.parse(sukaku))
    sudokit.solve_batch(np.zeros((1, 81), dtype=np.uint8))
    for board in (sudokit.generate(1, shape="4x4", seed=3)[0], sudokit.Board.parse("." * 81)):  # the setters' loops
        sudokit.diagnose(board, time_limit=2)
        sudokit.make_unique(board, time_limit=2)
        sudokit.reduce(board, time_limit=2)
        sudokit.estimate(board, samples=64, seed=1)
        sudokit.maximize(board, time_limit=2)


def _serve(conn, warm: str | None) -> None:
    """The worker's loop: a job in, its outcome out, until the pipe closes."""
    if warm:
        _warm_up(warm)
    logging.getLogger("sudokit.web").disabled = True  # a 500's traceback is the finding's, not the log's
    app = create_app()
    conn.send("ready")
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job["kind"] == "cli":
            outcome = _run_cli(CliRunner(), cli, job)
        else:
            outcome = _run_web(app, job)
        conn.send(outcome)


def _run_cli(runner, cli, job: dict) -> Outcome:
    start = time.perf_counter()
    result = runner.invoke(cli, job["args"], input=job["stdin"], catch_exceptions=True)
    elapsed = time.perf_counter() - start
    error = None
    code = result.exit_code
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        error = "".join(traceback.format_exception(result.exception))
        code = 70  # what sudokit.cli.main turns an exception into
    return Outcome(code, result.stdout_bytes.decode("utf-8", "surrogateescape"),
                   result.stderr_bytes.decode("utf-8", "surrogateescape"), error, elapsed)  # fmt: skip


def _run_web(app, job: dict) -> Outcome:
    async def go():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            headers = {"content-type": "application/json"}
            return await client.request(job["method"], job["path"], content=job["body"], headers=headers)

    start = time.perf_counter()
    try:
        response = asyncio.run(go())
    except Exception:  # the app let an exception through: what a server answers with 500
        return Outcome(error=traceback.format_exc(), elapsed=time.perf_counter() - start, status=500)
    elapsed = time.perf_counter() - start
    jobs = app.state.jobs
    waited = time.perf_counter()
    while jobs.running and time.perf_counter() - waited < 5:  # calls given up on: keep the cores free
        time.sleep(0.05)
    outcome = Outcome(elapsed=elapsed, status=response.status_code, body=response.content.decode("utf-8", "replace"))
    if jobs.running:
        outcome.stderr = "busy"  # the worker is replaced before the next job
    return outcome


class Worker:
    """A process that runs commands and requests (:data:`Outcome` each), replaced when one
    outlives its deadline. ``warm``: the kernels it loads before the first job (``all``,
    ``search`` or None)."""

    def __init__(self, warm: str | None = "all", start_timeout: float = 1800.0) -> None:
        self.warm = warm
        self.start_timeout = start_timeout
        self._process = None
        self._conn = None
        self.started = 0  #: processes started (the first, and one after each hang)

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe()
        self._process = context.Process(target=_serve, args=(child, self.warm), daemon=True, name="sudokit-fuzz")
        self._process.start()
        child.close()
        self.started += 1
        if not self._conn.poll(self.start_timeout):
            self.stop()
            raise RuntimeError(f"the fuzzing worker did not start within {self.start_timeout:g} s")
        self._conn.recv()

    def run(self, job: dict, deadline: float) -> Outcome:
        """Run ``job``; a hung outcome when no answer comes within ``deadline`` seconds."""
        if self._process is None or not self._process.is_alive():
            self.stop()
            self._start()
        assert self._conn is not None
        self._conn.send(job)
        try:
            ready = self._conn.poll(deadline)
            outcome = self._conn.recv() if ready else None
        except (EOFError, OSError):  # the worker died (a crash of the interpreter itself)
            self.stop()
            return Outcome(error="the worker process died", elapsed=deadline, exit_code=-1)
        if outcome is None:
            self.stop()
            return Outcome(hung=True, elapsed=deadline)
        if outcome.stderr == "busy":
            self.stop()
            outcome.stderr = ""
        return outcome

    def stop(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.join()
            self._process.close()
        if self._conn is not None:
            self._conn.close()
        self._process = self._conn = None

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
