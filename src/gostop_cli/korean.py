"""The Korean sentences of ``gostop play --korean``: the one table lives in
:mod:`gostop_core.korean` (shared with the web table and the SVG titles);
this module keeps its old import path."""

from gostop_core.korean import name_ko, translate

__all__ = ["translate", "name_ko"]
