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
import types
from pathlib import Path

import numba
from numba.core import types as numba_types

from . import inlining

inlining.apply()  # before any kernel compiles: numba's inliner otherwise copies scopes per block

#: True when NUMBA_DISABLE_JIT=1: kernels run as plain Python (for coverage and debugging)
JIT_DISABLED = bool(numba.config.DISABLE_JIT)  # type: ignore[attr-defined]
#: the folder of the kernels: module keys are paths below it, ``search.classic``
KERNELS = Path(__file__).resolve().parent.parent


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
    if _writable(KERNELS / "__pycache__"):
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


#: ``from .name import ...``, ``from ..room.name import ...`` or ``from . import name, other as
#: alias`` (kernel modules import each other only so); read with a pattern rather than ``ast``,
#: whose parse of every kernel source cost a warm start 0.13 s
_RELATIVE_IMPORT = re.compile(r"^\s*from\s+(\.+)([\w.]*)\s+import\s+(\([^)]*\)|[^\n]*)", re.MULTILINE)


def _path_of(key: str) -> Path:
    return KERNELS.joinpath(*key.split(".")).with_suffix(".py")


@functools.lru_cache(maxsize=None)
def _kernel_imports(key: str) -> frozenset[str]:
    """The kernel modules (keys such as ``search.bits``) that kernel module ``key`` imports."""
    found: set[str] = set()
    package = key.split(".")[:-1]
    for dots, module, names in _RELATIVE_IMPORT.findall(_path_of(key).read_text()):
        base = package[: len(package) - (len(dots) - 1)] if len(dots) > 1 else package
        if module:
            found.add(".".join(base + module.split(".")))
        else:
            listed = [n.split()[0] for n in names.strip("()").replace("\n", " ").split(",") if n.strip()]
            found.update(".".join(base + [name]) for name in listed)
    return frozenset(name for name in found if _path_of(name).exists())


def kernel_closure(key: str) -> frozenset[str]:
    """Kernel module ``key`` and every kernel module it imports, directly or through others."""
    closure: set[str] = set()
    todo = [key]
    while todo:
        module = todo.pop()
        if module not in closure:
            closure.add(module)
            todo.extend(_kernel_imports(module))
    return frozenset(closure)


def key_of(path: Path) -> str | None:
    """The module key of a kernel source file (``search.classic``), None outside the kernels."""
    try:
        relative = path.resolve().relative_to(KERNELS)
    except ValueError:
        return None
    return ".".join(relative.with_suffix("").parts)


@functools.lru_cache(maxsize=None)
def module_stamp(key: str) -> bytes:
    """A digest of the sources of ``kernel_closure(key)``: what the compiled kernels of
    module ``key`` depend on."""
    digest = hashlib.sha256()
    for module in sorted(kernel_closure(key)):
        digest.update(module.encode())
        digest.update(_path_of(module).read_bytes())
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
    ours = []
    for base in bases:

        class KernelsLocator(base):  # type: ignore[valid-type, misc]
            stamp = b""

            def get_source_stamp(self):
                return self.stamp

            @classmethod
            def from_function(cls, py_func, py_file):
                key = key_of(Path(py_file))
                if key is None:
                    return None  # another library's function: numba's own locators
                locator = super().from_function(py_func, py_file)
                if locator is not None:
                    locator.stamp = module_stamp(key)
                return locator

        ours.append(KernelsLocator)
    locators[:0] = ours
    return True


KEYED_TO_EVERY_KERNEL = _key_caches_to_every_kernel()


def kernel(*args, **options):
    """``numba.njit`` with sudokit's defaults: cached, releasing the GIL so that threads can
    run kernels side by side, and compiled once per argument types rather than once per
    constant a caller passes (``one_specialization``; ``literal=True`` keeps numba's way)."""
    options.setdefault("cache", CACHE)
    options.setdefault("nogil", True)
    literal = options.pop("literal", False)
    made = numba.njit(*args, **options)
    if literal:
        return made
    if args and callable(args[0]):
        return one_specialization(made)
    return lambda fn: one_specialization(made(fn))


def one_specialization(dispatcher):
    """Make kernels that call ``dispatcher`` type their constant arguments by their plain type.

    numba compiles a callee once per *literal* argument a jitted caller passes: ``f(x, 1)``,
    ``f(x, 2)`` and ``f(x, True)`` are three compiles of ``f`` (SE's hint writer was compiled
    12 times, its chaining 6). One specialization per plain type leaves constant folding to
    LLVM, which still inlines the small callees; the big ones compile once."""
    if not isinstance(dispatcher, numba.core.dispatcher.Dispatcher):
        return dispatcher  # NUMBA_DISABLE_JIT: the plain function
    typed_as_given = dispatcher.get_call_template

    def get_call_template(args, kws):
        return typed_as_given(tuple(numba_types.unliteral(a) for a in args), {k: numba_types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def instantiate(fn, name: str, **names):
    """A compiled copy of the plain function ``fn`` named ``name`` (its own cache entry), with
    the given global names bound to other kernels: how one generic code serves several callers
    that numba could not reach by recursion (SE's chaining, once per tier of nesting)."""
    scope = dict(fn.__globals__)
    scope.update(names)
    copy = types.FunctionType(fn.__code__, scope, name, fn.__defaults__, fn.__closure__)
    copy.__qualname__ = name
    copy.__module__ = fn.__module__
    copy.__doc__ = fn.__doc__
    return kernel(copy)


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
