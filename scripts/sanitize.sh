#!/usr/bin/env bash
# The core under AddressSanitizer and UndefinedBehaviorSanitizer: build a copy
# of the extension modules with GOSTOP_SANITIZE=1 (-fsanitize=address,undefined,
# no recovery, and the GS_ASSERT checks of a debug build) in a scratch
# directory, then run the perft suites, the hardening regressions, the network in C
# under the search, and the crash fuzzer against that copy.  Any sanitizer report
# or failed assertion aborts the process, which the tests and the fuzzer report as
# a failure.
#
#   scripts/sanitize.sh            # 2,000 fuzz inputs (2-4 minutes on 2 cores, build included)
#   scripts/sanitize.sh 20000      # a longer fuzz run
#
# Needs gcc with libasan and libubsan (Debian/Ubuntu: gcc); docs/testing.md.
set -euo pipefail
cd "$(dirname "$0")/.."
INPUTS="${1:-2000}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/gostop-sanitize.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/src"
cp setup.py pyproject.toml "$WORK/"
cp -r src/gostop_core src/gostop_cli "$WORK/src/"
find "$WORK/src" \( -name "*.so" -o -name "*.c" \) -delete
python -c "import Cython, setuptools" 2>/dev/null || python -m pip install -q 'cython>=3.0.8' 'setuptools>=77'
(cd "$WORK" && GOSTOP_SANITIZE=1 python setup.py -q build_ext --inplace >/dev/null 2>&1)

export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export PYTHONPATH="$WORK/src"
python - <<'PY'
import sys
import gostop_core.movegen as m
if not m.DEBUG_BUILD:
    sys.exit("the sanitizer build was not loaded")
print(f"sanitizer build: {m.__file__}")
PY
python -m pytest -q -p no:cacheprovider tests/test_perft_suites.py tests/test_hardening.py \
    tests/test_showdown.py tests/test_gwangpalli.py tests/test_notation.py \
    tests/test_neural_search.py tests/test_neural.py
python tests/fuzz/crash_fuzz.py --inputs "$INPUTS" --seed 1
