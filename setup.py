"""The build: setuptools as ``pyproject.toml`` says, and the kernels of a first command (the
searches, generation, HoDoKu's techniques, Sudoku Explainer's rating loop, canonical forms) compiled ahead of time, in
processes side by side (``src/sudokit/kernels/build/ahead.py``),
so that no run waits for numba to compile or to load them. Where they cannot be compiled (no C
compiler, numba missing from the build environment, ``SUDOKIT_AHEAD=0``) the package is built
without them, and numba compiles the kernels on first use, as it does for every other kernel."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

SOURCE = Path(__file__).resolve().parent / "src" / "sudokit" / "kernels" / "build"


class BuildWithKernels(build_py):
    """``build_py``, then ``kernels/build/ahead.py`` into the built package (into the source tree for an
    editable install, where the package is imported from)."""

    def run(self) -> None:
        super().run()
        if os.environ.get("SUDOKIT_AHEAD", "1") == "0":
            return
        editable = getattr(self, "editable_mode", False)
        folder = SOURCE if editable else Path(self.build_lib) / "sudokit" / "kernels" / "build"
        print(f"sudokit: compiling the search, generation, HoDoKu, SE (nested chains too) and canonical-form kernels ahead of time into {folder} (minutes)", flush=True)
        # each compile unit says on stdout when it starts and ends (``pip install -v`` shows it)
        done = subprocess.run([sys.executable, str(folder / "ahead.py"), str(folder)], stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            reason = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
            print(f"sudokit: not compiled ahead of time ({reason}); numba compiles the kernels on first use",
                  file=sys.stderr, flush=True)


class WithKernels(Distribution):
    """A wheel that holds the compiled kernels is one for this platform and Python."""

    def has_ext_modules(self) -> bool:
        return True


setup(cmdclass={"build_py": BuildWithKernels}, distclass=WithKernels)
