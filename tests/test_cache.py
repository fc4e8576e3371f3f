"""Compiled kernels are cached where the user can write, even on a read-only install."""

import os
import subprocess
import sys
import textwrap


def run_script(tmp_path, body: str) -> subprocess.CompletedProcess:
    script = tmp_path / "probe.py"
    script.write_text(textwrap.dedent(body))
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    env["SUDOKIT_QUIET"] = "1"
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, cwd=tmp_path)


def test_a_read_only_package_directory_falls_back_to_the_user_cache(tmp_path):
    done = run_script(
        tmp_path,
        f"""
        import os, pathlib, numba
        import sudokit.kernels.build.jit as jit
        package_cache = jit.KERNELS / "__pycache__"
        writable = jit._writable
        jit._writable = lambda directory: directory != package_cache and writable(directory)
        os.environ["XDG_CACHE_HOME"] = {str(tmp_path / "cache")!r}
        assert jit._configure_cache()
        assert numba.config.CACHE_DIR.startswith({str(tmp_path / "cache")!r}), numba.config.CACHE_DIR

        @jit.kernel
        def add_one(x):
            return x + 1

        assert add_one(1) == 2
        assert list(pathlib.Path(numba.config.CACHE_DIR).rglob("*.nbi")), "nothing was cached"
        jit._writable = lambda directory: False
        assert jit._configure_cache() is False  # nowhere to write: compile without a cache
        print("ok")
        """,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_sudokit_quiet_silences_the_notice(tmp_path):
    done = run_script(
        tmp_path,
        """
        import sys
        from sudokit.kernels.build import jit

        class Fresh:  # a dispatcher with nothing compiled and nothing cached
            overloads = {}
            _cache = None

        jit.notify_compile(Fresh(), what="a probe")
        jit.notify_compile(Fresh(), what="a probe")
        """,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("compiling a probe (first run only") == 0  # SUDOKIT_QUIET is set


def test_notice_text(tmp_path, capsys):
    from sudokit.kernels.build import jit

    class Fresh:
        overloads = {}
        _cache = None

    saved = os.environ.pop("SUDOKIT_QUIET", None)
    try:
        jit.notify_compile(Fresh(), what="a test probe")
        jit.notify_compile(Fresh(), what="a test probe")
    finally:
        if saved is not None:
            os.environ["SUDOKIT_QUIET"] = saved
    err = capsys.readouterr().err
    assert err.count("sudokit: compiling a test probe (first run only") == 1


def test_every_kernel_cache_is_keyed_to_the_sources_it_depends_on(tmp_path):
    """A change in a kernel module must make stale every cached kernel that carries its code
    (the batch kernel carries ``general.search``'s machine code, which numba would key to its
    own file only), and only those: the logic kernels' caches outlive a change to a search."""
    done = run_script(
        tmp_path,
        """
        import numba
        from sudokit.kernels.build import jit
        from sudokit.kernels.search import classic, general, general_batch, hexa, learn

        assert jit.KEYED_TO_EVERY_KERNEL
        for dispatcher, module in (
            (general_batch.solve_many, "search.general_batch"), (general.search, "search.general"),
            (hexa.search, "search.hexa"), (learn.search, "search.learn"), (classic.search, "search.classic"),
        ):
            locator = dispatcher._cache._impl.locator
            assert type(locator).__name__ == "KernelsLocator", type(locator)
            assert locator.get_source_stamp() == jit.module_stamp(module)
        search = {"search.general", "search.driver", "search.protocol", "search.bits", "search.matching", "build.jit"}
        assert search <= jit.kernel_closure("search.general_batch")
        assert "search.general_batch" not in jit.kernel_closure("search.general")
        assert {"hodoku.core", "hodoku.chains", "hodoku.als"} <= jit.kernel_closure("hodoku.solver")
        assert not {"search.classic", "search.general", "search.hexa"} & jit.kernel_closure("hodoku.solver")
        assert jit.module_stamp("search.general_batch") != jit.module_stamp("search.general")

        @jit.kernel
        def elsewhere(x):  # not a kernel module: numba's own locator, keyed to this file
            return x

        locator = elsewhere._cache._impl.locator
        assert type(locator).__name__ != "KernelsLocator"
        print("ok")
        """,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
