"""Build recipe for an extension that cimports gostop_core.core (docs/cython.md)."""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

import gostop_core

GOSTOP = gostop_core.get_include()  # the directory of core.pxd and gostop_cards.h

setup(
    ext_modules=cythonize(
        [Extension("cython_perft", ["cython_perft.pyx"], include_dirs=[GOSTOP])],
        # where Cython finds "gostop_core/core.pxd" (needed for editable installs)
        include_path=[os.path.dirname(GOSTOP)],
        compiler_directives={"language_level": 3},
    ),
)
