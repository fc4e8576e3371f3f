"""The ASGI app: one page, its static files and the JSON API of ``api.py``, served by uvicorn.

Every API request is read with a size limit (413 past it), decoded and checked, then answered in
a bounded pool of worker threads: the compiled calls release the GIL, so requests are served at
once on every core while the event loop stays free. Each call runs under the request's budget;
one that outlives it (the logic has no budget of its own) is answered ``unknown`` and left to
finish in its thread, and when every thread and queue slot is taken a request gets 503 rather
than a wait without end. No answer ever carries a traceback: failures are logged here.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import threading
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Callable

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import engines
from ..threads import thread_pool
from . import api
from .messages import ApiError, Json, Settings, kind_of, seconds

STATIC = Path(__file__).resolve().parent / "static"
LOG = logging.getLogger("sudokit.web")

#: every response says where its page may load from: this server only, nothing outside
HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class Jobs:
    """The worker threads that run the library's calls: a fixed number of threads and a
    bounded queue, each call awaited under a deadline. Calls that ask for more time than the
    default budget may hold at most half the threads, so a few of them cannot starve the
    short ones. The threads start with the first call and stop with the app (its lifespan's
    end), to start again if it serves once more."""

    def __init__(self, workers: int, queue: int) -> None:
        """A pool of ``workers`` threads and ``queue`` more calls waiting."""
        self.workers = workers
        self._executor: Executor | None = None
        self._capacity = workers + queue
        self._long_capacity = max(1, workers // 2)
        self._lock = threading.Lock()
        self._running = 0  # submitted and not finished, including calls given up on
        self._long = 0  # of which asked for more than the default time

    def _release(self, long: bool) -> None:
        """One call less in flight (and among the long ones, if it was one)."""
        with self._lock:
            self._running -= 1
            self._long -= long

    async def run(self, deadline: float, work: Callable[[], Json], long: bool = False) -> Json | None:
        """``work()`` in a worker thread; None if it starts but outlives ``deadline`` seconds
        (its wait for a thread included). Raises 503 when every thread and queue slot is
        taken (for a ``long`` call, when its half of the threads is), or when the deadline
        passes before a thread is free."""
        with self._lock:
            if self._running >= self._capacity:
                raise ApiError(503, "the server is busy: every worker is taken; try again shortly", kind="busy")
            if long and self._long >= self._long_capacity:
                raise ApiError(503, "the server is busy with long requests: ask for less time, or try again shortly", kind="busy")
            self._running += 1
            self._long += long
            if self._executor is None:
                self._executor = thread_pool(self.workers, "sudokit-web")
            executor = self._executor
        started = threading.Event()

        def call() -> Json:
            """The work, marked as started (a call never started is one the queue held up)."""
            started.set()
            return work()

        try:
            future = executor.submit(call)
        except RuntimeError:  # shut down between the two steps above
            self._release(long)
            raise ApiError(503, "the server is shutting down", kind="busy") from None
        future.add_done_callback(lambda _: self._release(long))
        try:
            # a call still queued at the deadline is cancelled; a running one finishes unseen
            return await asyncio.wait_for(asyncio.wrap_future(future), deadline)
        except asyncio.TimeoutError:
            if not started.is_set():
                raise ApiError(503, f"the server is busy: no worker was free within {deadline:g} s; try again shortly", kind="busy") from None
            return None

    @property
    def running(self) -> int:
        """Calls submitted and not finished (those given up on included)."""
        return self._running

    def close(self) -> None:
        """Stop the threads once their calls end; calls still queued are dropped."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)


async def read_json(request: Request, limit: int) -> Json:
    """The request's JSON object, read no further than ``limit`` bytes: 413 past it (whether
    or not Content-Length says so beforehand), 400 for anything but a JSON object."""
    declared = request.headers.get("content-length")
    if declared is not None and not declared.isdigit():
        raise ApiError(400, f"Content-Length is not a number: {declared[:20]!r}", kind="request")
    if declared is not None and int(declared) > limit:
        raise ApiError(413, f"the request body is over the limit of {limit} bytes", kind="too large")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, f"the request body is over the limit of {limit} bytes", kind="too large")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        raise ApiError(400, "expected a JSON object in the request body, found nothing", kind="json")
    if _nesting(raw) > MAX_NESTING:  # json.loads would recurse once a level, up to Python's limit
        raise ApiError(400, f"the request body is not JSON this API reads: nested over {MAX_NESTING} deep", kind="json")
    try:
        body = json.loads(raw, parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise ApiError(400, "the request body is not UTF-8 text", kind="json") from None
    except json.JSONDecodeError as error:
        raise ApiError(400, f"the request body is not JSON: {error.msg} (line {error.lineno}, column {error.colno})",
                       kind="json", line=error.lineno, column=error.colno) from None
    except (ValueError, RecursionError) as error:
        raise ApiError(400, f"the request body is not JSON: {error}", kind="json") from None
    if not isinstance(body, dict):
        raise ApiError(400, f"expected a JSON object in the request body, not {kind_of(body)}", kind="json")
    return body


#: the deepest nesting of arrays and objects a request may have (the API's own go two deep)
MAX_NESTING = 32


def _nesting(raw: bytes) -> int:
    """How deep the arrays and objects of a JSON text nest, brackets inside strings aside."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # closing quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def _no_constant(name: str) -> None:
    """NaN and Infinity are not JSON (Python's reader takes them unless told not to)."""
    raise ValueError(f"{name} is not a JSON number")


def _answer(endpoint: str, settings: Settings, jobs: Jobs) -> Callable[[Request], Any]:
    """The route that serves one POST endpoint of the API."""
    function = api.ENDPOINTS[endpoint]

    async def route(request: Request) -> Response:
        """Read, check and answer one request; no exception leaves it."""
        try:
            body = await read_json(request, settings.max_body)
            task = function(body, settings)  # a bad request is refused here, before any wait
            long = seconds(task.budget) > settings.time_limit
            answer = await jobs.run(seconds(task.budget) + settings.grace, task.work, long)
            return ApiJSON(api.unknown(task.budget) if answer is None else answer)
        except ApiError as error:
            return _error(error)
        except Exception:  # a bug: logged with its traceback here, never sent
            LOG.exception("internal error in /api/%s", endpoint)
            return _error(ApiError(500, "internal error (the server's log has the details)", kind="internal"))

    route.__name__ = endpoint
    route.__doc__ = function.__doc__
    return route


class ApiJSON(JSONResponse):
    """A JSON answer that any text can be quoted in: a lone surrogate (``\\ud800``, which JSON
    may carry and UTF-8 cannot) is written as its escape instead of failing the answer."""

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")


def _error(error: ApiError) -> JSONResponse:
    """An API error as its JSON answer (503s say when to try again)."""
    headers = {"retry-after": "1"} if error.status == 503 else None
    return ApiJSON(error.json(), status_code=error.status, headers=headers)


async def _http_error(request: Request, error: Exception) -> Response:
    """404, 405 and the like, as JSON like every other error."""
    assert isinstance(error, HTTPException)
    return JSONResponse({"error": str(error.detail), "kind": "http"}, status_code=error.status_code, headers=error.headers)


async def _server_error(request: Request, error: Exception) -> Response:
    """The last guard: an exception outside the API's own handling, logged, never shown."""
    LOG.error("internal error on %s", request.url.path, exc_info=error)
    return JSONResponse({"error": "internal error (the server's log has the details)", "kind": "internal"}, status_code=500)


class SecurityHeaders:
    """Adds :data:`HEADERS` to every response (a plain ASGI wrapper: no per-request task)."""

    def __init__(self, app: ASGIApp) -> None:
        """Wrap ``app``."""
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on; add the headers as the response starts."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            """Pass a message of the response on, with the headers added to its start."""
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + HEADERS
            await send(message)

        await self.app(scope, receive, sending)


def create_app(settings: Settings | None = None) -> Starlette:
    """The ASGI app: ``/`` the page, ``/static/`` its files, ``GET /api/info`` and a POST
    endpoint per name of :data:`sudokit.web.api.ENDPOINTS`."""
    settings = settings or Settings()
    # more threads than cores: the compiled calls release the GIL, so a few long searches
    # share the cores with the short ones instead of holding every thread
    workers = settings.workers or max(8, 4 * engines.cpus())
    jobs = Jobs(workers, settings.queue)

    async def page(request: Request) -> Response:
        """The page (plain HTML; its script and style come from /static)."""
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    async def information(request: Request) -> Response:
        """What the server offers and allows."""
        return JSONResponse(api.info(settings))

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # the kernels load in the background: the server answers at once, and a request that
        # comes while they compile (a fresh install) is bounded by its budget like any other
        """Warm the kernels up as the server starts; stop the threads as it ends."""
        threading.Thread(target=_warm_up, name="sudokit-web-warm-up", daemon=True).start()
        try:
            yield
        finally:
            jobs.close()

    routes = [
        Route("/", page, methods=["GET", "HEAD"]),
        Route("/api/info", information, methods=["GET"]),
        *(Route(f"/api/{name}", _answer(name, settings, jobs), methods=["POST"]) for name in api.ENDPOINTS),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(SecurityHeaders)]
    if settings.allowed_hosts:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=list(settings.allowed_hosts)))
    app = Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers={HTTPException: _http_error, Exception: _server_error},
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.jobs = jobs
    return app


def _warm_up() -> None:
    """Load the kernels in the background, logging a failure instead of raising it."""
    try:
        api.warm_up()
    except Exception:  # the requests will say what is wrong; the server stays up
        LOG.exception("warming up the kernels failed")


#: the Host headers a server bound to the loopback accepts (against DNS rebinding: another
#: site's page cannot reach it through a name of its own)
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1", "[::1]")


def serve(host: str = "127.0.0.1", port: int = 8000, settings: Settings | None = None) -> None:
    """Serve the page and the API with uvicorn until interrupted (``sudokit serve``)."""
    settings = settings or Settings()
    if host in LOOPBACK_HOSTS and not settings.allowed_hosts:
        settings = dataclasses.replace(settings, allowed_hosts=LOOPBACK_HOSTS)
    # limit_concurrency: past that many connections uvicorn answers 503 itself, so a flood of
    # clients cannot exhaust the process
    uvicorn.run(create_app(settings), host=host, port=port, limit_concurrency=256, timeout_keep_alive=5, ws="none", log_level="info")
