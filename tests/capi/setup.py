"""Builds check_capi.pyx with the recipe of docs/cython.md."""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

import gostop_core

GOSTOP = gostop_core.get_include()

setup(
    ext_modules=cythonize(
        [Extension("check_capi", ["check_capi.pyx"], include_dirs=[GOSTOP])],
        include_path=[os.path.dirname(GOSTOP)],
        compiler_directives={"language_level": 3},
    ),
)
