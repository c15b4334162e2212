"""The house rules of the source tree (docs/architecture.md): the import
contract holds, it catches an upward import, no module imports itself round a
circle, the compiled modules keep to their layers too, and the module paths of
0.1 still work, with a warning."""

from __future__ import annotations

import importlib
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"

pytest.importorskip("importlinter", reason="the import contract needs import-linter (the test extra)")
grimp = pytest.importorskip("grimp")


def lint_imports(src: Path) -> subprocess.CompletedProcess:
    """``lint-imports`` over the package sources in ``src`` with the project's contract."""
    return subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
         "sys.exit(lint_imports_command())", "--no-cache", str(ROOT / "pyproject.toml")],
        cwd=ROOT, env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=120)


def test_the_import_contract_holds():
    run = lint_imports(SRC)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def test_the_contract_fails_on_an_upward_import(tmp_path):
    """A copy of the sources where the game API imports the bots (the core
    reaching up) breaks the contract, and the output names the chain."""
    copy = tmp_path / "src"
    shutil.copytree(SRC, copy, ignore=shutil.ignore_patterns("*.so", "*.c", "__pycache__"))
    game = copy / "gostop_core" / "game.py"
    game.write_text(game.read_text() + "\n\ndef _upward():\n    import gostop_core.bots.simple\n")
    run = lint_imports(copy)
    assert run.returncode != 0
    assert "BROKEN" in run.stdout
    assert "gostop_core.game -> gostop_core.bots.simple" in run.stdout


def _python_graph():
    return grimp.build_graph("gostop_core", "gostop_cli", exclude_type_checking_imports=True)


def test_no_import_circles_among_python_modules():
    """Strongly connected components of the module graph (imports inside
    functions included) are single modules: nothing imports itself round a
    circle.  A package's __init__ is a facade over its own modules, so the edges
    between a package and its children are left out."""
    graph = _python_graph()
    modules = sorted(graph.modules)

    def edges(m: str) -> set[str]:
        return {t for t in graph.find_modules_directly_imported_by(m)
                if not t.startswith(m + ".") and not m.startswith(t + ".")}

    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for m in modules:
        if m not in index:
            visit(m)
    assert circles == []


# The compiled modules, by layer (lower numbers lower).  import-linter reads only
# Python files, so the .pyx/.pxd imports are checked here.
COMPILED_LAYERS = {
    "gostop_core.cards": 0, "gostop_core.rules": 0, "gostop_core.guard": 0,
    "gostop_core.scoring": 1, "gostop_core.gamestate": 1, "gostop_core.settlement": 2,
    "gostop_core.movegen": 3, "gostop_core.state": 4, "gostop_core.sampling": 4,
    "gostop_core.gameloop": 5, "gostop_core.core": 6,
    "gostop_core.bots.search": 10, "gostop_core.bots.policy": 11, "gostop_core.bots.ismcts": 11,
    "gostop_core.neural.inputs": 12, "gostop_core.neural.selfplay": 13,
    "gostop_core.neural.playout": 13,
    "gostop_core.envs.vector": 20,
}
# Python modules a compiled module may import, with the layer they stand at.
PYTHON_LAYERS = {
    "gostop_core.errors": 0, "gostop_core.korean": 0, "gostop_core.moves": 5,
    "gostop_core.events": 5, "gostop_core.notation": 5, "gostop_core.view": 7,
    "gostop_core.game": 8,
}
# Upward imports of the boundary functions that build Python objects for a
# caller above (they run only when called, after everything is imported).
ALLOWED_UPWARD = {
    ("gostop_core.core", "gostop_core.game"), ("gostop_core.core", "gostop_core.notation"),
    ("gostop_core.core", "gostop_core.cards"),
}

IMPORT_LINE = re.compile(r"^\s*(?:from\s+(gostop_core(?:\.\w+)*)\s+c?import\s+([\w, ()]+)|"
                         r"c?import\s+(gostop_core(?:\.\w+)*))")


def _compiled_sources():
    for path in sorted((SRC / "gostop_core").rglob("*.p[yx][xd]")):
        rel = path.relative_to(SRC).with_suffix("")
        yield ".".join(rel.parts), path


def test_compiled_modules_import_only_downward():
    bad = []
    seen = set()
    for module, path in _compiled_sources():
        seen.add(module)
        layer = COMPILED_LAYERS[module]
        for line in path.read_text().splitlines():
            m = IMPORT_LINE.match(line)
            if not m:
                continue
            target = m.group(1) or m.group(3)
            if target == "gostop_core" and m.group(2):  # from gostop_core cimport movegen
                target = "gostop_core." + m.group(2).split(" as ")[0].strip(" ()")
            if target == module:
                continue
            level = COMPILED_LAYERS.get(target, PYTHON_LAYERS.get(target))
            if level is None:
                bad.append(f"{module} imports {target}, which no compiled module may import")
            elif level > layer and (module, target) not in ALLOWED_UPWARD:
                bad.append(f"{module} (layer {layer}) imports {target} (layer {level})")
    assert bad == []
    assert set(COMPILED_LAYERS) <= seen | {"gostop_core.guard"}, "a compiled module was renamed"


OLD_PATHS = ["gostop_core.search", "gostop_core.ismcts", "gostop_core.plugins",
             "gostop_core.distributed", "gostop_core.selfplay",
             "gostop_core.reference", "gostop_core.lockstep", "gostop_core.perft_suite"]


@pytest.mark.parametrize("old", OLD_PATHS)
def test_the_old_module_paths_still_work_with_a_warning(old):
    from gostop_core._moved import MOVED
    sys.modules.pop(old, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    assert module is importlib.import_module(MOVED[old])  # one module, one state
    assert any(issubclass(w.category, DeprecationWarning) and MOVED[old] in str(w.message)
               for w in caught)


def test_game_records_old_spelling_warns_and_works():
    from gostop_core import Game
    from gostop_core.records import Record, game_from_record, record_from_game
    game = Game("casual", 2, seed=5)
    game.push(next(iter(game.legal_moves)))
    with pytest.warns(DeprecationWarning, match="record_from_game"):
        old = game.to_record()
    assert old.to_dict() == Record.from_game(game, date=old.date).to_dict()
    with pytest.warns(DeprecationWarning, match="game_from_record"):
        again = Game.from_record(old)
    assert again.position() == game_from_record(old).position() == old.to_game().position()
    assert record_from_game(again, date=old.date).to_dict() == old.to_dict()


def test_every_public_name_still_imports():
    import gostop_core
    import gostop_core.bots as bots
    for name in gostop_core.__all__:
        assert getattr(gostop_core, name) is not None, name
    for name in bots.__all__:
        assert getattr(bots, name) is not None, name
    assert bots.make_bot("greedy").name == "greedy"
    from gostop_core.game import Event, PlayerView  # the old homes re-export them
    assert PlayerView is gostop_core.PlayerView and Event is gostop_core.Event


def test_no_module_is_over_700_lines_without_a_reason():
    """A module over about 700 lines says at its top why it stays whole."""
    long = []
    for path in sorted((SRC).rglob("*.py*")):
        if path.suffix not in (".py", ".pyx", ".pxi"):
            continue
        lines = path.read_text().splitlines()
        if len(lines) > 720 and not any("stays one module" in line for line in lines[:40]):
            long.append(f"{path.relative_to(SRC)}: {len(lines)} lines")
    assert long == []


def _package_of(path: Path, src: Path) -> str:
    """``gostop_core`` for a module of the core's top level, ``gostop_core.bots``
    for one of the bots, ...: the package a module belongs to."""
    return ".".join(path.relative_to(src).with_suffix("").parts[:-1])


def private_uses_across_packages(src: Path) -> list[str]:
    """``file:line: name`` for every use of a private name (``obj._name``, or
    ``from m import _name`` of another package) that only other packages
    define: what a layer needs of another must have a public name."""
    import ast
    defined: dict[str, set[str]] = {}
    uses: list[tuple[str, Path, int, str, str | None]] = []

    def private(name: str) -> bool:
        return name.startswith("_") and not name.startswith("__")
    for path in sorted(src.rglob("*.py")):
        package = _package_of(path, src)
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names = [node.name]
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names = [node.attr]
            elif isinstance(node, ast.Assign):
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            for name in names:
                if private(name):
                    defined.setdefault(name, set()).add(package)
            if (isinstance(node, ast.Attribute) and private(node.attr)
                    and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
                uses.append((package, path, node.lineno, node.attr, None))
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    if private(alias.name):
                        uses.append((package, path, node.lineno, alias.name, node.module))
    found = []
    for package, path, line, name, module in uses:
        where = f"{path.relative_to(src)}:{line}"
        if module is not None:
            target = module if (src / module.replace(".", "/")).is_dir() else module.rpartition(".")[0]
            if target != package:
                found.append(f"{where}: from {module} import {name}")
        elif defined.get(name) and package not in defined[name]:
            found.append(f"{where}: .{name} (defined in {', '.join(sorted(defined[name]))})")
    return found


def test_no_private_name_is_used_across_packages():
    """docs/architecture.md: a package uses another only through its public
    names (``Game.from_core_state``, ``game.core_state``,
    ``PlayerView.completed_fields``, ...), never a ``_name``."""
    assert private_uses_across_packages(SRC) == []


def test_the_private_name_check_catches_a_use(tmp_path):
    copy = tmp_path / "src"
    shutil.copytree(SRC, copy, ignore=shutil.ignore_patterns("*.so", "*.c", "__pycache__"))
    positions = copy / "gostop_core" / "protocol" / "positions.py"
    positions.write_text(positions.read_text() + "\n\ndef _peek(game):\n    return game._core\n")
    found = private_uses_across_packages(copy)
    assert len(found) == 1 and "positions.py" in found[0] and "._core" in found[0]
