"""Whether two Cython-generated C files hold the same C kernels: every
``cdef`` function of a module (``__pyx_f_<module>_<name>``), compared with
Cython's line bookkeeping and comments taken out.  For a refactor of a .pyx
that must not change the compiled search (docs/performance.md): if every
kernel is the same text, the speed figures stand.

    cython -3 -I OLD/src/gostop_core OLD/src/gostop_core/bots/search.pyx -o /tmp/old.c
    cython -3 -I src/gostop_core src/gostop_core/bots/search.pyx -o /tmp/new.c
    python scripts/same_kernels.py /tmp/old.c /tmp/new.c gostop_core.bots.search
"""

from __future__ import annotations

import argparse
import re
import sys

_BOOKKEEPING = re.compile(r"__pyx_lineno = \d+;|__pyx_clineno = \d+;|__pyx_filename = __pyx_f\[\d+\];"
                          r"|__PYX_ERR\(\d+, \d+, (__pyx_L\d+_error)\)")


def kernels(text: str, module: str) -> dict[str, str]:
    """Each kernel's body, normalised, by its C name."""
    prefix = "__pyx_f_" + "_".join(f"{len(part)}{part}" for part in module.split("."))
    head = re.compile(r"^static [^\n;]*?(" + re.escape(prefix) + r"_\w+)\([^;{]*\)\s*\{", re.M)
    out = {}
    for found in head.finditer(text):
        depth, i = 1, found.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        body = re.sub(r"/\*.*?\*/", "", text[found.end():i], flags=re.S)
        out[found.group(1)] = " ".join(_BOOKKEEPING.sub(r"\1", body).split())
    return out


def compare(old: str, new: str, module: str) -> tuple[list[str], list[str], list[str]]:
    """(kernels that differ, only in old, only in new)."""
    a, b = kernels(old, module), kernels(new, module)
    return (sorted(n for n in a if n in b and a[n] != b[n]), sorted(set(a) - set(b)),
            sorted(set(b) - set(a)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("module", help="the module's dotted name, e.g. gostop_core.bots.search")
    args = parser.parse_args(argv)
    with open(args.old) as fa, open(args.new) as fb:
        old, new = fa.read(), fb.read()
    differ, gone, added = compare(old, new, args.module)
    count = len(kernels(new, args.module))
    print(f"{count} kernels; differ: {differ or 'none'}; only old: {gone or 'none'}; "
          f"only new: {added or 'none'}")
    return 1 if differ or gone or added or not count else 0


if __name__ == "__main__":
    sys.exit(main())
