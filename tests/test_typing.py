"""The shipped type information is checked: stubs match the compiled modules
(mypy's stubtest) and the pure-Python modules type-check."""

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")

ROOT = Path(__file__).resolve().parent.parent
COMPILED = ["gostop_core.cards", "gostop_core.rules", "gostop_core.scoring", "gostop_core.movegen"]


def test_stubs_match_compiled_modules():
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", *COMPILED,
         "--allowlist", str(ROOT / "tests" / "stubtest-allowlist.txt")],
        capture_output=True, text=True, cwd=ROOT / "tests")
    assert result.returncode == 0, result.stdout + result.stderr


def test_python_modules_type_check():
    import gostop_core
    package = Path(gostop_core.__file__).parent
    files = sorted(str(p.name) for p in package.glob("*.py"))
    # Check the package where it is installed, so its stubs stand next to the .so files.
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--ignore-missing-imports", "--no-incremental",
         *[f"gostop_core/{f}" for f in files]],
        capture_output=True, text=True, cwd=package.parent)
    assert result.returncode == 0, result.stdout + result.stderr


def test_typing_markers_shipped():
    import gostop_core
    package = Path(gostop_core.__file__).parent
    assert (package / "py.typed").exists()
    for name in ("cards", "rules", "scoring", "movegen"):
        assert (package / f"{name}.pyi").exists(), name
