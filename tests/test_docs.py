"""The docs keep up with the code: every rules field is documented, the README's
and the pages' examples run, and the site lists every page and module."""

import ast
import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

from gostop_core.rules import FIELDS, PRESETS

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_every_rules_field_is_in_the_rules_page():
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    missing = [name for name in FIELDS if f"`{name}`" not in text]
    assert not missing, f"docs/rules.md lacks {missing}"


def test_rules_page_values_match_presets():
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    for line in text.splitlines():
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        name = cells[0].strip("`")
        if name not in FIELDS:
            continue
        values = [int(c) for c in cells[2:6]]
        expected = [PRESETS[p][name] for p in ("casual", "traditional", "standard", "family")]
        assert values == expected, name


# ---------------------------------------------------------------- examples run
README = DOCS.parent / "README.md"
PAGES = sorted(DOCS.glob("*.md"))


def _python_blocks(path: Path) -> list[str]:
    """The ```python blocks of a Markdown file, except whole files shown for
    copying (a first line like ``# setup.py``; tests/test_capi.py builds those)
    and bot programs (a ``#!`` first line: they read the protocol on stdin;
    tests/test_protocol_docs.py runs those)."""
    blocks = re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), re.S)
    return [b for b in blocks if not re.match(r"# [\w/.-]+\.py\n|#!", b)]


def _claimed_value(line: str):
    """The value a snippet's comment claims for its expression (``expr  # 7`` or
    ``expr  # 2: why``), or a sentinel when the comment claims none."""
    code, sep, comment = line.partition("  # ")
    if not sep:
        return _claimed_value  # sentinel
    head = comment.split(":")[0].strip()
    try:
        return ast.literal_eval(head)
    except (ValueError, SyntaxError):
        return _claimed_value


@pytest.mark.parametrize("path", [README] + PAGES, ids=lambda p: p.name)
def test_python_snippets_run(path, tmp_path, monkeypatch):
    """Every snippet runs in a fresh namespace, and a line whose comment states a
    value evaluates to that value.  Snippets run in an empty directory, so the
    files they write (``games.jsonl``) do not land in the checkout."""
    monkeypatch.chdir(tmp_path)
    for block in _python_blocks(path):
        namespace: dict = {}
        exec(compile(block, str(path), "exec"), namespace)
        for line in block.splitlines():
            value = _claimed_value(line)
            if value is not _claimed_value:
                expr = line.partition("  # ")[0].strip()
                assert eval(expr, namespace) == value, (path.name, line)


def test_the_readme_snippets_are_there():
    assert len(_python_blocks(README)) >= 2


def _modules():
    import gostop_cli
    import gostop_core
    for pkg in (gostop_core, gostop_cli):
        yield pkg.__name__
        for info in pkgutil.iter_modules(pkg.__path__):
            yield f"{pkg.__name__}.{info.name}"


@pytest.mark.parametrize("name", list(_modules()))
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


def _pycon_blocks(path: Path) -> str:
    """The ```pycon blocks of a page (interactive sessions), one after the other."""
    return "\n".join(re.findall(r"```pycon\n(.*?)```", path.read_text(encoding="utf-8"), re.S))


DOCTEST_PAGES = [p for p in PAGES if _pycon_blocks(p)]


def test_some_page_has_doctests():
    assert DOCS / "install.md" in DOCTEST_PAGES


@pytest.mark.parametrize("path", DOCTEST_PAGES, ids=lambda p: p.name)
def test_page_doctests(path):
    """A page's interactive sessions run as doctests, in one namespace per page."""
    test = doctest.DocTestParser().get_doctest(_pycon_blocks(path), {}, path.name, str(path), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


# ---------------------------------------------------------------- the site
def test_every_page_is_in_the_site():
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^([\w-]+)$", index, re.M))
    assert {p.stem for p in PAGES} - {"index"} <= listed


def test_every_public_module_is_in_the_api_reference():
    import gostop_core
    api = (DOCS / "api.rst").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\.\. automodule:: (\S+)", api, re.M))
    public = {f"gostop_core.{m.name}" for m in pkgutil.iter_modules(gostop_core.__path__)
              if not m.name.startswith("_")}
    assert public | {"gostop_core"} <= documented
    assert ".. autofunction:: gostop_core.get_include" in api
