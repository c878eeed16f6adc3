"""The package layout: folders are the pipeline's stages and imports only run downward.

``docs/architecture.md`` draws the same picture. Every import counts, also one inside a function:
a lazy import is still a dependency. The dialect lives in the top-level ``dialect/`` folder and is
installed as ``sparkcep.dialect``.
"""

from __future__ import annotations

import ast
import subprocess
import sys

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _setuptools_table(text: str) -> dict:
    """pyproject.toml's ``[tool.setuptools]`` table: tomllib where Python has it (3.11+); on 3.10
    a reader of the few forms that table uses (strings, arrays of strings, inline tables of
    strings, comments), so the test runs on every supported Python without a TOML package."""
    try:
        import tomllib
    except ModuleNotFoundError:
        pass
    else:
        return tomllib.loads(text)["tool"]["setuptools"]
    import ast
    import re

    body = re.search(r"^\[tool\.setuptools\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S).group(1)
    body = re.sub(r'^\s*#.*$|("(?:[^"\\]|\\.)*")|#.*$', lambda m: m.group(1) or "", body, flags=re.M)
    table = {}
    for key, value in re.findall(r'^([\w.-]+)\s*=\s*(.*?)(?=^[\w.-]+\s*=|\Z)', body, re.M | re.S):
        value = value.strip()
        if value.startswith("{"):  # { "k" = "v", ... } -> {"k": "v", ...}
            value = re.sub(r'("(?:[^"\\]|\\.)*")\s*=', r"\1:", value)
        table[key] = ast.literal_eval(value)
    return table

# stage -> the stages it may import (besides itself). Read top to bottom: the pipeline's order,
# inverted (a stage imports only stages below it).
ALLOWED = {
    "api": {"clients", "runtime", "compiler", "errors"},
    "clients": {"runtime", "compiler", "errors"},
    "runtime": {"compiler", "evaluation", "plan", "engines", "errors"},
    "compiler": {"dialect", "plan", "engines", "errors"},
    "evaluation": {"plan", "engines", "errors"},
    "plan": {"engines", "errors"},
    "engines": {"errors"},
    "dialect": {"errors"},
    "errors": set(),
}
PURE = {"compiler", "evaluation", "plan", "engines", "dialect", "errors"}  # no pyspark, no py4j


def _modules() -> dict[str, Path]:
    """Every module of the installed package, by dotted name."""
    found = {}
    for base, prefix in ((ROOT / "sparkcep", "sparkcep"), (ROOT / "dialect", "sparkcep.dialect")):
        for path in base.rglob("*.py"):
            parts = list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([prefix, *parts])] = path
    return found


MODULES = _modules()


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _imports(name: str) -> set[str]:
    """The modules ``name`` imports: internal ones resolved to modules, external ones by their
    top-level name."""
    tree = ast.parse(MODULES[name].read_text())
    package = name if _is_package(name) else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module
            for alias in node.names:
                candidate = f"{module}.{alias.name}"
                out.add(candidate if candidate in MODULES else module)
    return out


def _stage(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1 or parts[1] in ("api", "__main__"):
        return "api"
    if parts[1] == "errors":
        return "errors"
    return parts[1]


GRAPH = {name: {m for m in _imports(name) if m in MODULES} for name in MODULES}


def test_every_module_belongs_to_a_known_stage():
    assert {_stage(m) for m in MODULES} <= set(ALLOWED)


def test_stages_import_only_downward():
    assert sum(map(len, GRAPH.values())) > 100  # the walk found the imports
    wrong = sorted(
        f"{module} ({_stage(module)}) imports {target} ({_stage(target)})"
        for module, targets in GRAPH.items()
        for target in targets
        if _stage(target) != _stage(module) and _stage(target) not in ALLOWED[_stage(module)]
    )
    assert not wrong, "\n".join(wrong)


def test_the_allowed_stage_graph_is_acyclic():
    order: list[str] = []

    def visit(stage: str, path: tuple[str, ...]) -> None:
        assert stage not in path, f"stage cycle: {' -> '.join(path + (stage,))}"
        for lower in ALLOWED[stage]:
            visit(lower, path + (stage,))
        if stage not in order:
            order.append(stage)

    for stage in ALLOWED:
        visit(stage, ())


def test_no_import_cycle_between_modules():
    # Tarjan's strongly connected components over the module graph (package __init__ included)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                connect(w)
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
            if len(component) > 1 or v in GRAPH[v]:
                cycles.append(sorted(component))

    for v in sorted(GRAPH):
        if v not in index:
            connect(v)
    assert not cycles, cycles


def _family(module: str) -> str | None:
    """The engine family of a module (``sparkcep.engines.<family>`` and what is inside it)."""
    parts = module.split(".")
    if len(parts) > 3 or (len(parts) == 3 and _is_package(module)):
        return parts[2]
    return None


def test_engine_families_do_not_import_each_other():
    """``engines.standard`` and ``engines.sase`` share only the engine contract; only
    ``engines.selection`` knows both."""
    wrong = []
    for module, targets in GRAPH.items():
        if not module.startswith("sparkcep.engines"):
            continue
        family = _family(module)
        for target in targets:
            target_family = _family(target)
            if target_family and target_family != family and module != "sparkcep.engines.selection":
                wrong.append(f"{module} imports {target}")
    assert not wrong, wrong


def test_pure_stages_import_no_pyspark():
    wrong = sorted(
        f"{module} imports {target}"
        for module in MODULES
        if _stage(module) in PURE
        for target in _imports(module)
        if target.split(".")[0] in ("pyspark", "py4j")
    )
    assert not wrong, wrong


def test_compiling_loads_no_pyspark():
    code = (
        "import sys, sparkcep\n"
        "sparkcep.transpile('SELECT * FROM t MATCH_RECOGNIZE (ORDER BY x MEASURES LAST(B.x) AS b "
        "PATTERN (A B+) DEFINE B AS B.x > PREV(B.x))')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pyspark', 'py4j')))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_installs_only_the_sparkcep_name():
    """``dialect`` is a name another package on PyPI uses: it is installed as sparkcep.dialect, and
    every package folder is listed (a forgotten one would be missing from a wheel)."""
    setuptools = _setuptools_table((ROOT / "pyproject.toml").read_text())
    listed = set(setuptools["packages"])
    assert all(name == "sparkcep" or name.startswith("sparkcep.") for name in listed)
    assert setuptools["package-dir"] == {"sparkcep.dialect": "dialect"}
    packages = {name for name in MODULES if _is_package(name)}
    assert listed == packages


def test_the_310_reader_agrees_with_tomllib(monkeypatch):
    """The fallback for Python 3.10 reads pyproject.toml as tomllib does (checked where tomllib
    exists, by hiding it)."""
    text = (ROOT / "pyproject.toml").read_text()
    try:
        import tomllib
    except ModuleNotFoundError:
        pytest.skip("tomllib (Python 3.11+) is the reference")
    want = tomllib.loads(text)["tool"]["setuptools"]
    monkeypatch.setitem(sys.modules, "tomllib", None)  # import tomllib now fails
    read = _setuptools_table(text)
    assert {"packages", "package-dir"} <= set(read)
    assert read == {key: want[key] for key in read}  # tomllib also nests [tool.setuptools.*]


@pytest.mark.parametrize("package", sorted(n for n in MODULES if _is_package(n) and n.count(".") == 1
                                           and _stage(n) not in ("api", "errors")))
def test_each_stage_says_its_job_and_what_it_may_import(package):
    docstring = ast.get_docstring(ast.parse(MODULES[package].read_text())) or ""
    assert docstring and "May import" in docstring, package
