"""Build the Cython core. Metadata lives in pyproject.toml.

Build modes (environment variables read at build time):

* ``GOSTOP_DEBUG=1``: the core's assertions (``GS_ASSERT`` in gostop_guard.h:
  array bounds, counters) are compiled in and abort with the failed condition.
* ``GOSTOP_SANITIZE=1``: a debug build with AddressSanitizer and
  UndefinedBehaviorSanitizer (``-fsanitize=address,undefined``, no recovery);
  run it with ``scripts/sanitize.sh`` (docs/testing.md).
"""
import os

from Cython.Build import cythonize
import numpy
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# the compiled modules, by dotted name under gostop_core: the rules core first,
# then the searches of the bots
MODULES = ["cards", "rules", "scoring", "movegen", "settlement", "state", "sampling", "core",
           "gameloop",
           "bots.search", "bots.policy", "bots.ismcts",
           "neural.inputs", "neural.selfplay", "neural.playout"]

SANITIZE = os.environ.get("GOSTOP_SANITIZE", "") not in ("", "0")
DEBUG = SANITIZE or os.environ.get("GOSTOP_DEBUG", "") not in ("", "0")
compile_args = ["-O3"]
link_args: list[str] = []
macros = [("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")]
if DEBUG:
    macros.append(("GOSTOP_DEBUG", "1"))
if SANITIZE:
    flags = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
             "-fno-omit-frame-pointer", "-g"]
    compile_args = ["-O1"] + flags
    link_args = flags

extensions = [
    Extension(
        f"gostop_core.{name}",
        [f"src/gostop_core/{name.replace('.', '/')}.pyx"],
        include_dirs=["src/gostop_core", "src/gostop_core/neural", numpy.get_include()],
        extra_compile_args=compile_args,
        extra_link_args=link_args,
        define_macros=macros,
    )
    for name in MODULES
] + [
    # the batched learning environment (gostop_core.envs.VectorGame)
    Extension(
        "gostop_core.envs.vector",
        ["src/gostop_core/envs/vector.pyx"],
        include_dirs=["src/gostop_core", numpy.get_include()],
        extra_compile_args=["-O3"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    ),
]


def compile_args(compiler_type: str, args: list[str]) -> list[str]:
    """The extensions' flags in the compiler's own dialect: GCC/Clang get them as
    written (portable ones only: no -march=native, the wheels must run on any
    CPU of their platform); MSVC gets /O2 instead of the GCC-style options."""
    if compiler_type == "msvc":
        return [a for a in args if not a.startswith("-")] + ["/O2"]
    return list(args)


def build_jobs() -> int:
    """Extensions compiled side by side: ``GOSTOP_BUILD_JOBS`` if set to a
    positive number, otherwise one per core (compiling is most of an install's
    time; ``build_ext -j N`` still chooses)."""
    jobs = os.environ.get("GOSTOP_BUILD_JOBS", "")
    if not jobs:
        return os.cpu_count() or 1
    if not (jobs.isascii() and jobs.isdigit() and int(jobs) > 0):
        raise SystemExit(f"GOSTOP_BUILD_JOBS must be a positive whole number, not {jobs!r}")
    return int(jobs)


class PortableBuildExt(build_ext):
    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = build_jobs()

    def build_extensions(self):
        for ext in self.extensions:
            ext.extra_compile_args = compile_args(self.compiler.compiler_type,
                                                  ext.extra_compile_args)
        super().build_extensions()


setup(
    cmdclass={"build_ext": PortableBuildExt},
    ext_modules=cythonize(
        extensions,
        compiler_directives={
            "language_level": 3,
            "binding": True,
            "embedsignature": True,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
        include_path=["src"],
    ),
)
