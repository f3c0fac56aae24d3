"""The package uses other libraries only through their public APIs, forks nothing, and runs on
exactly the lock file's packages.

- An AST scan of ``analysis/`` fails on ``x._name`` where ``x`` was imported from another package
  (a module, class or function of it) or ``_name`` is not a name the package defines itself (the
  attribute of an object another library made: ``axis._get_tick``), on ``from lib import _name``, on ``getattr(x, "_name")``
  of such an ``x``, on replacing an attribute of such an ``x`` with a function of one's own
  (monkey-patching; setting a documented option, ``torch.backends...allow_tf32 = False``, is fine), on
  ``os.fork``, ``os.forkpty``, ``os._exit``, a multiprocessing "fork" context, on assigning
  ``sys.argv``, and on importing ``pickle`` (no cache is ever unpickled).
- Every distribution installed in this environment is pinned in the lock file, at its version.
"""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
ANALYSIS = REPO / "analysis"


def foreign_names(tree: ast.AST) -> set[str]:
    """Names bound by importing another package (``import numpy as np``, ``from x import y``)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names if not a.name.startswith("analysis")}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.module.startswith("analysis") and node.level == 0:
            names |= {a.asname or a.name for a in node.names}
    return names


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _root_name(node: ast.AST) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def own_private_names(trees) -> set[str]:
    """Every underscored name the package defines itself (functions, classes, variables and
    attributes it assigns or declares in ``__slots__``, arguments): an ``obj._name`` outside this
    set is another library's."""
    names = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and _root_name(node) in ("self", "cls"):
                names.add(node.attr)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets)
                  and isinstance(node.value, (ast.Tuple, ast.List))):
                names.update(e.value for e in node.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str))
    return {n for n in names if _private(n)}


OWN = own_private_names(ast.parse(p.read_text(encoding="utf-8")) for p in ANALYSIS.rglob("*.py"))


def violations(source: str, own: set[str] = OWN) -> list[str]:
    tree = ast.parse(source)
    foreign, found = foreign_names(tree), []
    functions = {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Attribute) and _private(node.attr) and (
                _root_name(node.value) in foreign or node.attr not in own):
            found.append(f"line {line}: private attribute {ast.unparse(node)}")
        elif isinstance(node, ast.ImportFrom) and node.module and not node.module.startswith("analysis"):
            found += [f"line {line}: imports private {node.module}.{a.name}" for a in node.names if _private(a.name)]
            if node.module == "pickle" or node.module.startswith("pickle."):
                found.append(f"line {line}: imports pickle")
        elif isinstance(node, ast.Import):
            found += [f"line {line}: imports pickle" for a in node.names if a.name in ("pickle", "cPickle", "dill")]
        elif isinstance(node, ast.Call):
            name = ast.unparse(node.func)
            if name in ("os.fork", "os.forkpty", "os._exit"):
                found.append(f"line {line}: calls {name}")
            args = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if name in ("getattr", "setattr", "hasattr", "delattr") and len(node.args) >= 2 and args and \
                    _private(args[0]) and (_root_name(node.args[0]) in foreign or args[0] not in own):
                found.append(f"line {line}: {name}(..., {args[0]!r}) of another library")
            if name.endswith(("get_context", "set_start_method")) and "fork" in args:
                found.append(f"line {line}: multiprocessing fork context")
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                text = ast.unparse(target)
                if text == "sys.argv" or text.startswith("sys.argv["):
                    found.append(f"line {line}: assigns {text}")
                elif isinstance(target, ast.Attribute) and _root_name(target) in foreign and (
                        isinstance(node.value, ast.Lambda)
                        or (isinstance(node.value, ast.Name) and node.value.id in functions)):
                    found.append(f"line {line}: replaces {text} with its own function (monkey-patching)")
    return found


def test_the_package_uses_public_apis_only():
    """One pass over every module (ruff's SLF001 and TID251 catch the simple forms as you type;
    this scan also follows names bound by imports, getattr, patching and sys.argv)."""
    found = {str(p.relative_to(ANALYSIS)): v for p in sorted(ANALYSIS.rglob("*.py"))
             if (v := violations(p.read_text(encoding="utf-8")))}
    assert found == {}


def test_the_scan_sees_each_form():
    source = ("import os, sys, multiprocessing\nimport numpy as np\nfrom sphinx.application import Sphinx\n"
              "from asyncio.events import _set_running_loop\nimport pickle\n"
              "np._core\nSphinx.build = lambda self: None\nsys.argv = ['x']\nos._exit(0)\nos.fork()\n"
              "multiprocessing.get_context('fork')\ngetattr(Sphinx, '_private', 1)\n"
              "class A:\n    def f(self):\n        return self._mine, np.__version__\n"
              "def g(ax):\n    return ax.xaxis._get_tick(), getattr(ax, '_ncols', 1)\n")
    assert sorted({int(v.split(":")[0].split()[1]) for v in violations(source, {"_mine"})}) == [*range(4, 13), 17], violations(source, {"_mine"})
    assert [
        v for v in violations(source, {"_mine"}) if "mine" in v or "__version__" in v] == []


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def locked() -> dict[str, str]:
    """``{name: version}`` of every package the lock file pins (each with its hashes)."""
    text = (REPO / "requirements.txt").read_text(encoding="utf-8")
    pins = dict(re.findall(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s\\;]+)", text, re.M))
    assert pins and all(f"{name}=={version} \\\n    --hash=sha256:" in text for name, version in pins.items())
    return {_normal(k): v for k, v in pins.items()}


def test_every_installed_distribution_is_in_the_lock_at_its_version():
    if sys.prefix == sys.base_prefix:
        pytest.skip("not in a virtual environment: `make test` runs in .venv, made from the lock")
    pins = locked()
    project = _normal(re.search(r'^name = "([^"]+)"', (REPO / "pyproject.toml").read_text(), re.M).group(1))
    installed = {_normal(d.metadata["Name"]): d.version for d in importlib.metadata.distributions()}
    missing = {n: v for n, v in installed.items() if n != project and n not in pins}
    assert missing == {}, "installed but not in requirements.txt (run `make lock`)"
    assert {n: (v, pins[n]) for n, v in installed.items() if n in pins and pins[n] != v} == {}
    assert project in installed  # the package itself, installed editable by `make venv`


def test_the_lock_pins_every_requirement_it_was_made_from():
    pins = locked()
    wanted = re.findall(r"^([A-Za-z0-9][A-Za-z0-9._-]*)", (REPO / "requirements.in").read_text(encoding="utf-8"), re.M)
    assert wanted and [w for w in wanted if _normal(w) not in pins] == []
