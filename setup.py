"""Build the Cython core. Metadata lives in pyproject.toml."""
from Cython.Build import cythonize
import numpy
from setuptools import Extension, setup

MODULES = ["cards", "rules", "scoring", "movegen", "search"]

extensions = [
    Extension(
        f"gostop_core.{name}",
        [f"src/gostop_core/{name}.pyx"],
        include_dirs=["src/gostop_core", numpy.get_include()],
        extra_compile_args=["-O3"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
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

setup(
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
