"""Sphinx configuration of gostop's documentation site.

Build:  pip install '.[docs]' && sphinx-build -W --keep-going -b html docs docs/_build/html

The pages are the Markdown files of this folder (MyST); the API reference
(api.rst) is generated from the docstrings of the installed package, with the
signatures of the compiled modules taken from their ``.pyi`` stubs.
"""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import gostop_core

project = "gostop"
author = "the gostop authors"
copyright = "the gostop authors"
release = version = gostop_core.__version__

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon",
              "sphinx.ext.viewcode"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": True}
html_theme = "alabaster"
html_title = f"gostop {release}"
nitpicky = False
# a JSON sample with "..." elisions in testing.md is shown as plain text
suppress_warnings = ["misc.highlighting_failure"]


# ---------------------------------------------------------------- .pyi signatures
_STUBS: dict[str, dict[str, tuple[str, str | None]]] = {}


def _stub_signatures(module_name: str) -> dict[str, tuple[str, str | None]]:
    """``{qualified name: (signature, return annotation)}`` of a compiled
    module's stub; empty for modules without one."""
    if module_name in _STUBS:
        return _STUBS[module_name]
    found: dict[str, tuple[str, str | None]] = {}
    try:
        module = importlib.import_module(module_name)
        stub = Path(module.__file__).with_name(module_name.rsplit(".", 1)[-1] + ".pyi")
    except Exception:
        stub = None
    if stub is not None and stub.exists() and not str(module.__file__).endswith(".py"):
        tree = ast.parse(stub.read_text(encoding="utf-8"))

        def visit(body, prefix):
            for node in body:
                if isinstance(node, ast.ClassDef):
                    visit(node.body, prefix + node.name + ".")
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    args = ast.unparse(node.args)
                    if prefix and args.split(",")[0].strip() in ("self", "cls"):
                        args = ", ".join(a.strip() for a in args.split(",")[1:])
                    ret = ast.unparse(node.returns) if node.returns is not None else None
                    found[prefix + node.name] = (f"({args})", ret)

        visit(tree.body, "")
    _STUBS[module_name] = found
    return found


def _signature_from_stub(app, what, name, obj, options, signature, return_annotation):
    """Functions, methods and classes of compiled modules get the stub's signature."""
    if what not in ("function", "method", "class"):
        return None
    parts = name.split(".")
    for cut in range(len(parts) - 1, 0, -1):   # the longest prefix that is a module
        stubs = _stub_signatures(".".join(parts[:cut]))
        key = ".".join(parts[cut:]) + (".__init__" if what == "class" else "")
        if key in stubs:
            sig, ret = stubs[key]
            return (sig, None) if what == "class" else (sig, ret)
    return None


def setup(app):
    app.connect("autodoc-process-signature", _signature_from_stub)
