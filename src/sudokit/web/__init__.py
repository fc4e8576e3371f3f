"""The web page over the library: ``sudokit serve`` (an optional extra, ``sudokit[web]``).

One page (plain HTML, CSS and a small script in ``static/``, nothing loaded from outside) and a
small JSON API: ``GET /api/info`` says what the server offers, and ``POST /api/<name>`` for
parse, solve, count, hint, explain, rate, generate and canonical answers one question about a
puzzle in any text format (``api.py``, with ``messages.py`` reading the requests and writing
the answers), under a time and node budget. ``app.py`` makes the ASGI app and serves it with
uvicorn.
"""

from .messages import ApiError, Settings
from .app import create_app, serve

__all__ = ["ApiError", "Settings", "create_app", "serve"]
