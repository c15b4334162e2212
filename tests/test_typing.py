"""The shipped type information is checked: stubs match the compiled modules
(mypy's stubtest) and the pure-Python modules type-check."""

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")

ROOT = Path(__file__).resolve().parent.parent
COMPILED = ["gostop_core.cards", "gostop_core.rules", "gostop_core.scoring", "gostop_core.movegen",
            "gostop_core.state",
            "gostop_core.bots.ismcts", "gostop_core.bots.policy", "gostop_core.core", "gostop_core.gameloop",
            "gostop_core.envs.vector", "gostop_core.neural.selfplay"]


@pytest.mark.slow  # mypy's stubtest: about half a minute
def test_stubs_match_compiled_modules():
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", *COMPILED,
         "--allowlist", str(ROOT / "tests" / "stubtest-allowlist.txt")],
        capture_output=True, text=True, cwd=ROOT / "tests")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow  # mypy over the package: about half a minute
def test_python_modules_type_check(tmp_path):
    import gostop_core
    package = Path(gostop_core.__file__).parent
    # Check the package as installed (its stubs stand next to the .so files), seen
    # through a link so that nothing else in site-packages is taken for user code.
    (tmp_path / "gostop_core").symlink_to(package, target_is_directory=True)
    files = sorted(f"gostop_core/{p.relative_to(package)}"
                   for pattern in ("*.py", "envs/*.py") for p in package.glob(pattern))
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--ignore-missing-imports", "--no-incremental", *files],
        capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


def test_typing_markers_shipped():
    import gostop_core
    package = Path(gostop_core.__file__).parent
    assert (package / "py.typed").exists()
    for name in ("cards", "rules", "scoring", "movegen", "gameloop"):
        assert (package / f"{name}.pyi").exists(), name
