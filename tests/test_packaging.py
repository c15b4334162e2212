"""Packaging: one version everywhere, the wheel configuration for every platform,
a card header that compiles the same on MSVC as on GCC, portable build flags."""

from __future__ import annotations

import ast
import importlib.metadata
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = pytest.importorskip("tomli")
from click.testing import CliRunner

import gostop_core
from gostop_cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
HEADER = ROOT / "src" / "gostop_core" / "gostop_cards.h"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


# ---------------------------------------------------------------- version
def test_one_version_everywhere():
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"gostop {gostop_core.__version__}"
    assert importlib.metadata.version("gostop") == gostop_core.__version__


def test_the_version_is_written_in_one_place():
    assert "version" not in PYPROJECT["project"]
    assert "version" in PYPROJECT["project"]["dynamic"]
    attr = PYPROJECT["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "gostop_core._version.__version__"
    assigned = [p.relative_to(ROOT) for p in (ROOT / "src").rglob("*.py")
                if "__version__ = " in p.read_text(encoding="utf-8")]
    assert assigned == [Path("src/gostop_core/_version.py")]


# ---------------------------------------------------------------- wheels
EXPECTED_BUILDS = {
    "linux": [f"cp3{v}-manylinux_{a}" for v in (10, 11, 12, 13) for a in ("x86_64", "aarch64")],
    "macos": [f"cp3{v}-macosx_{a}" for v in (10, 11, 12, 13) for a in ("x86_64", "arm64")],
    "windows": [f"cp3{v}-win_amd64" for v in (10, 11, 12, 13)],
}


@pytest.mark.parametrize("platform", sorted(EXPECTED_BUILDS))
def test_cibuildwheel_builds_every_platform(platform):
    pytest.importorskip("cibuildwheel")
    exe = Path(sys.executable).with_name("cibuildwheel")
    run = subprocess.run([str(exe), "--print-build-identifiers", "--platform", platform],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert sorted(run.stdout.split()) == sorted(EXPECTED_BUILDS[platform])


def test_cibuildwheel_tests_each_wheel():
    config = PYPROJECT["tool"]["cibuildwheel"]
    assert any("gostop perft" in c for c in config["test-command"])
    assert any(c.startswith("pytest") for c in config["test-command"])


def test_package_data_ships_the_cython_interface():
    data = PYPROJECT["tool"]["setuptools"]["package-data"]["gostop_core"]
    assert {"*.pxd", "*.h", "*.pyi", "py.typed"} <= set(data)
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8")
    for needed in ("*.pxd", "*.h", "*.pyx", "tests", "examples", "docs"):
        assert needed in manifest


# ---------------------------------------------------------------- portable C
def _preprocess(tmp_path: Path, *defines: str) -> str:
    """The header after the preprocessor, with none of GCC's own macros
    (``-undef``: no __GNUC__, no __x86_64__) and stub system headers."""
    cpp = shutil.which("cpp") or shutil.which("gcc")
    if cpp is None:
        pytest.skip("no C preprocessor")
    stubs = tmp_path / "stubs"
    stubs.mkdir(exist_ok=True)
    (stubs / "stdint.h").write_text("typedef unsigned long long uint64_t;\n")
    (stubs / "intrin.h").write_text("/* MSVC intrinsics */\n")
    (stubs / "cpuid.h").write_text("/* GCC's cpuid */\n")
    args = [cpp] + (["-E"] if cpp.endswith("gcc") else [])
    args += ["-P", "-undef", "-nostdinc", f"-I{stubs}", *defines, str(HEADER)]
    run = subprocess.run(args, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout


@pytest.mark.parametrize("arch", ["_M_X64", "_M_ARM64"])
def test_msvc_sees_no_gcc_builtin(tmp_path, arch):
    code = _preprocess(tmp_path, "-D_MSC_VER=1930", f"-D{arch}")
    assert "__builtin_" not in code and "__attribute__" not in code
    assert "_BitScanForward64" in code
    assert "static __inline int gs_popcount(" in code


def test_msvc_with_avx_counts_with_the_instruction(tmp_path):
    code = _preprocess(tmp_path, "-D_MSC_VER=1930", "-D_M_X64", "-D__AVX__")
    assert "__popcnt64" in code and "__builtin_" not in code


def test_an_unknown_compiler_gets_plain_c(tmp_path):
    code = _preprocess(tmp_path)
    assert "__builtin_" not in code and "_BitScanForward64" not in code
    assert "return gs_lowest_portable(x);" in code


def test_gcc_keeps_its_builtins(tmp_path):
    code = _preprocess(tmp_path, "-D__GNUC__=12", "-D__x86_64__")
    assert "__builtin_ctzll" in code


def test_the_plain_c_bit_counts_are_right(tmp_path):
    """The code MSVC and unknown compilers run (forced here with GS_PORTABLE),
    compiled and compared with Python's own counts."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    rng = random.Random(18)
    values = [1 << i for i in range(64)] + [rng.getrandbits(64) | 1 << rng.randrange(64)
                                           for _ in range(300)]
    src = tmp_path / "bits.c"
    src.write_text(
        '#include <stdio.h>\n#include "gostop_cards.h"\n'
        "int main(void) { unsigned long long x;\n"
        '  while (scanf("%llu", &x) == 1) printf("%d %d\\n", gs_popcount(x), gs_lowest(x));\n'
        "  return 0; }\n")
    exe = tmp_path / "bits"
    build = subprocess.run([cc, "-O2", "-DGS_PORTABLE", f"-I{HEADER.parent}", str(src),
                            "-o", str(exe)], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    run = subprocess.run([str(exe)], input="\n".join(map(str, values)), capture_output=True,
                         text=True, check=True)
    got = [tuple(map(int, line.split())) for line in run.stdout.splitlines()]
    want = [(bin(v).count("1"), (v & -v).bit_length() - 1) for v in values]
    assert got == want


def _compile_args():
    """setup.py's compile_args, taken out of the file (importing setup.py builds)."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "compile_args")
    namespace: dict = {}
    exec(compile(ast.Module(body=[fn], type_ignores=[]), "setup.py", "exec"), namespace)
    return namespace["compile_args"]


def test_build_flags_are_portable():
    compile_args = _compile_args()
    assert compile_args("unix", ["-O3"]) == ["-O3"]
    msvc = compile_args("msvc", ["-O3"])
    assert "/O2" in msvc and not any(a.startswith("-") for a in msvc)
    # no CPU-specific flag among setup.py's string constants (docstrings aside)
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    flags = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
             and isinstance(n.value, str) and n.value.startswith("-")]
    assert "-O3" in flags
    assert not [f for f in flags if f.startswith(("-march", "-mtune", "-mcpu", "-mpopcnt"))]
