"""How sudokit compiles its kernels: one decorator, a cache that works on read-only installs,
and a notice on stderr while a first run compiles.

numba caches compiled kernels next to their source (``__pycache__``). Where the package
directory is read-only (a system or container install) we point numba at a per-user cache
directory instead, and where nothing is writable we compile without caching rather than fail.
numba keys each cached kernel to its own source file only, so a kernel that calls into another
module (``general_batch`` runs ``general.search``, every search inlines ``driver``) would keep
the callee's old machine code after the callee changed; here each kernel is keyed to the sources
of its module and of every kernel module that module imports, directly or not (a change to the
logic kernels leaves the search kernels' caches valid, and the other way round).
This must run before any kernel is decorated, so every kernel module imports ``kernel`` from here.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import sys
import tempfile
from pathlib import Path

import numba

#: True when NUMBA_DISABLE_JIT=1: kernels run as plain Python (for coverage and debugging)
JIT_DISABLED = bool(numba.config.DISABLE_JIT)  # type: ignore[attr-defined]


def _writable(directory: Path) -> bool:
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError:
        return False
    return True


def _configure_cache() -> bool:
    """Pick a cache directory numba can write; False when there is none."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return True  # the user chose; numba reports problems itself
    if _writable(Path(__file__).parent / "__pycache__"):
        return True  # numba's default: next to the source
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    for candidate in (
        Path(base) / "sudokit" / "numba",
        Path(tempfile.gettempdir()) / f"sudokit-numba-{os.getuid() if hasattr(os, 'getuid') else 'user'}",
    ):
        if _writable(candidate):
            numba.config.CACHE_DIR = str(candidate)  # type: ignore[attr-defined]
            return True
    return False


CACHE = _configure_cache()


#: ``from .name import ...`` or ``from . import name, other as alias`` (kernel modules import
#: each other only so); read with a pattern rather than ``ast``, whose parse of every kernel
#: source cost a warm start 0.13 s
_RELATIVE_IMPORT = re.compile(r"^\s*from\s+\.(\w*)\s+import\s+(\([^)]*\)|[^\n]*)", re.MULTILINE)


@functools.lru_cache(maxsize=None)
def _kernel_imports(path: Path) -> frozenset[str]:
    """The kernel modules (names beside this file) that the module at ``path`` imports."""
    found: set[str] = set()
    for module, names in _RELATIVE_IMPORT.findall(path.read_text()):
        listed = [module] if module else [n.split()[0] for n in names.strip("()").replace("\n", " ").split(",") if n.strip()]
        found.update(name for name in listed if (path.parent / f"{name}.py").exists())
    return frozenset(found)


def kernel_closure(name: str) -> frozenset[str]:
    """Kernel module ``name`` and every kernel module it imports, directly or through others."""
    folder = Path(__file__).parent
    closure: set[str] = set()
    todo = [name]
    while todo:
        module = todo.pop()
        if module not in closure:
            closure.add(module)
            todo.extend(_kernel_imports(folder / f"{module}.py"))
    return frozenset(closure)


@functools.lru_cache(maxsize=None)
def module_stamp(name: str) -> bytes:
    """A digest of the sources of ``kernel_closure(name)``: what the compiled kernels of
    module ``name`` depend on."""
    folder = Path(__file__).parent
    digest = hashlib.sha256()
    for module in sorted(kernel_closure(name)):
        digest.update(module.encode())
        digest.update((folder / f"{module}.py").read_bytes())
    return digest.digest()


def _key_caches_to_every_kernel() -> bool:
    """Put cache locators in front of numba's own that serve the kernel modules only and
    stamp their caches with ``module_stamp``. numba's locator list is not public API: where
    it is missing the caches stay keyed per file, as numba makes them. Returns whether the
    locators are in place."""
    try:
        from numba.core import caching

        def named(name):  # numba 0.59-0.6x spell these with a leading underscore
            return getattr(caching, name, None) or getattr(caching, "_" + name)

        locators = named("CacheImpl")._locator_classes
        bases = (named("UserProvidedCacheLocator"), named("InTreeCacheLocator"))
    except (ImportError, AttributeError):
        return False
    folder = Path(__file__).parent.resolve()
    ours = []
    for base in bases:

        class KernelsLocator(base):  # type: ignore[valid-type, misc]
            stamp = b""

            def get_source_stamp(self):
                return self.stamp

            @classmethod
            def from_function(cls, py_func, py_file):
                path = Path(py_file).resolve()
                if path.parent != folder:
                    return None  # another library's function: numba's own locators
                locator = super().from_function(py_func, py_file)
                if locator is not None:
                    locator.stamp = module_stamp(path.stem)
                return locator

        ours.append(KernelsLocator)
    locators[:0] = ours
    return True


KEYED_TO_EVERY_KERNEL = _key_caches_to_every_kernel()


def kernel(*args, **options):
    """``numba.njit`` with sudokit's defaults: cached, and releasing the GIL so that threads can
    run kernels side by side."""
    options.setdefault("cache", CACHE)
    options.setdefault("nogil", True)
    return numba.njit(*args, **options)


_noticed: set[str] = set()


def will_compile(dispatcher) -> bool:
    """Whether calling ``dispatcher`` now compiles it (no copy in memory nor in the cache)."""
    if JIT_DISABLED or getattr(dispatcher, "overloads", None):
        return False
    cache = getattr(dispatcher, "_cache", None)
    try:
        return not cache._cache_file._load_index()  # type: ignore[union-attr]  # private, hence the broad except
    except Exception:
        return True


def notify_compile(*dispatchers, what: str = "the search kernel", takes: str = "a few seconds") -> None:
    """Say on stderr, once per process, that a first-run compile is under way (and about how
    long it ``takes``)."""
    if what in _noticed:
        return
    # asked once: a kernel found compiled or cached now stays so, and looking again cost a
    # quarter of the Python side of an easy 16x16 solve
    _noticed.add(what)
    if os.environ.get("SUDOKIT_QUIET"):
        return
    if any(will_compile(dispatcher) for dispatcher in dispatchers):
        when = (
            f"first run only, this takes {takes}"
            if CACHE
            else "no writable cache, so every run compiles: set NUMBA_CACHE_DIR to a writable folder"
        )
        print(f"sudokit: compiling {what} ({when})...", file=sys.stderr, flush=True)
