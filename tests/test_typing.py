"""The package is typed (``py.typed`` ships with it) and mypy finds nothing wrong in it."""

from importlib import resources
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_py_typed_ships_with_the_package():
    assert (resources.files("sudokit") / "py.typed").is_file()


@pytest.mark.slow
def test_mypy_is_clean_over_the_sources():
    api = pytest.importorskip("mypy.api")
    stdout, stderr, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), str(ROOT / "src" / "sudokit")])
    assert status == 0, stdout + stderr
