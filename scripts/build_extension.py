"""Build an outside Cython extension (a folder with its own setup.py, such as
examples/cython_perft) into another directory, against the installed gostop.

    python scripts/build_extension.py examples/cython_perft /tmp/cython_perft

The tests and benchmarks load this file, call :func:`build` and put the
directory on sys.path.
"""
from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
from pathlib import Path


def build(source: str | Path, dest: str | Path) -> Path:
    """Copy ``source`` (its .pyx, setup.py, pyproject.toml) to ``dest`` and run
    ``setup.py build_ext --inplace`` there; returns ``dest``.  Raises
    RuntimeError with the compiler's output when the build fails."""
    source, dest = Path(source), Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    for f in source.iterdir():
        if f.is_file() and f.suffix in (".pyx", ".pxd", ".py", ".toml"):
            shutil.copy(f, dest / f.name)
    run = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
                         cwd=dest, capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"building {source.name} failed:\n{run.stdout}\n{run.stderr}")
    return dest


def build_and_import(source: str | Path, dest: str | Path, module: str):
    """:func:`build`, then import ``module`` from ``dest``."""
    build(source, dest)
    sys.path.insert(0, str(dest))
    try:
        return importlib.import_module(module)
    finally:
        sys.path.remove(str(dest))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: build_extension.py SOURCE_DIR DEST_DIR")
    print(build(sys.argv[1], sys.argv[2]))
