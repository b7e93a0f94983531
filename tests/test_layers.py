"""Import rules that keep the kit's layers apart (docs/development/architecture.md).

Two kinds of rule: between the top-level rooms (`FORBIDDEN`: what each must never import), and
inside the harness, an order of layers (`HARNESS_LAYERS`, lowest first): a room imports only from
its own layer or below, and no two rooms import each other.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NAMESPACE = "csi_conformance."
"""What the kit's rooms are installed under (pyproject.toml): every import of a room is written with it."""

FORBIDDEN = {
    "groundwork": {"schema", "harness", "reference_server", "ledger_crypto", "ledger_ingest", "ledger_proofs",
                   "ledger_chain", "cases"},
    "schema": {"harness", "reference_server", "ledger_crypto", "cases"},
    "ledger_crypto": {"harness", "reference_server", "schema", "cases"},
    "ledger_ingest": {"harness", "reference_server", "cases"},
    "ledger_proofs": {"harness", "reference_server", "cases"},
    "ledger_chain": {"harness", "reference_server", "cases"},
    "reference_server": {"harness", "cases"},
    "cases": {"harness", "reference_server"},
    "cases.tools": {"harness"},
    "harness": {"reference_server", "cases.tools"},
}
"""Room -> what no module of it may import. A room's most specific entry rules (`cases.tools`, the tools that
run the reference, are apart from `cases`, the golden data the harness reads)."""

ALLOWED = {"cases": {"reference_server.scenarios"}}
"""Exceptions to `FORBIDDEN`: the cases name the reference's bundled scenarios (a data folder that imports
nothing)."""

FACES = {"harness": ("ledger_chain", "ledger_chain.judging")}
"""Room -> (a room it imports, that room's one face): the harness reads a chain only through its judging face,
so of `ledger_chain` it may import the face's module, or from the package the names the face exports (its
`__all__`), and nothing else: never the generator's model, keys or runtime."""

HARNESS_LAYERS = (
    ("harness.core",),
    ("harness.redact", "harness.connection"),
    ("harness.answer", "harness.context", "harness.generate"),
    ("harness.discover",),
    ("harness.judging", "harness.verify"),
    ("harness.differential",),
    ("harness.mirror",),
    ("harness.checks",),
    ("harness.report",),
    ("harness.engine",),
    ("harness.faces", "harness.fuzz", "harness.__main__", "harness"),
)
"""The harness's rooms, lowest first. `harness` itself (its `__init__`, the public API) is a face."""


def _imported(path: Path) -> list[str]:
    """Every module name a file imports, as written."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names += [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
    return names


def _imports(path: Path) -> set[str]:
    """The kit's modules a file imports, named without the namespace (`from csi_conformance.schema import x`
    names `schema` and `schema.x`)."""
    return {name.removeprefix(NAMESPACE) for name in _imported(path) if name.startswith(NAMESPACE)}


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


ROOMS = sorted((room for layer in HARNESS_LAYERS for room in layer), key=len, reverse=True)
LEVEL = {room: level for level, layer in enumerate(HARNESS_LAYERS) for room in layer}


def _room(module: str) -> str | None:
    """The harness room a module belongs to (the longest room name it starts with)."""
    return next((room for room in ROOMS if module == room or module.startswith(room + ".")), None)


def _harness_edges() -> dict[tuple[str, str], list[str]]:
    """(importing room, imported room) -> the files that make that edge."""
    edges: dict[tuple[str, str], list[str]] = defaultdict(list)
    for path in sorted((ROOT / "harness").rglob("*.py")):
        source = _room(_module(path))
        for name in _imports(path):
            target = _room(name)
            if source and target and target != source:
                edges[(source, target)].append(str(path.relative_to(ROOT)))
    return edges


def _rule_of(module: str) -> str:
    """The most specific `FORBIDDEN` entry a module falls under."""
    return max((room for room in FORBIDDEN if module == room or module.startswith(room + ".")), key=len)


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_layer_imports(package: str) -> None:
    files = [path for path in sorted((ROOT / package.replace(".", "/")).rglob("*.py"))
             if _rule_of(_module(path)) == package]
    assert files, package
    for path in files:
        allowed = ALLOWED.get(package, set())
        for name in (n for n in _imports(path) if not any(n == a or n.startswith(a + ".") for a in allowed)):
            for banned in FORBIDDEN[package]:
                assert not (name == banned or name.startswith(banned + ".")), f"{path}: imports {name}"


def _exported(module: str) -> set[str]:
    """The names a module's `__all__` lists (read from its source: importing it would load what it needs)."""
    path = ROOT / module.replace(".", "/")
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
            return {ast.literal_eval(item) for item in node.value.elts}  # type: ignore[attr-defined]
    return set()


def _past_face(imported: set[str], below: str, face: str) -> set[str]:
    """The names of `below` imported other than its face's module and the names the face exports."""
    names = _exported(face)
    allowed = {below, face} | {f"{below}.{name}" for name in names} | {f"{face}.{name}" for name in names}
    return {name for name in imported if (name == below or name.startswith(below + ".")) and name not in allowed}


@pytest.mark.parametrize("room", sorted(FACES))
def test_a_room_below_is_reached_only_through_its_face(room: str) -> None:
    below, face = FACES[room]
    assert _exported(face) and _exported(face) <= _exported(below), f"{below} must export every name of {face}"
    reached = {f"{path.relative_to(ROOT)}: {name}" for path in sorted((ROOT / room).rglob("*.py"))
               for name in _past_face(_imports(path), below, face)}
    assert not reached, f"{room} reaches past {face}: {sorted(reached)}"


def test_the_face_rule_catches_a_name_past_the_face() -> None:
    below, face = FACES["harness"]
    imported = {"ledger_chain", "ledger_chain.ChainJudge", "ledger_chain.judging.Verdict", "ledger_chain.Chain",
                "ledger_chain.model", "ledger_chain.model.LiveAccount", "ledger_crypto.b58encode"}
    assert _past_face(imported, below, face) == {"ledger_chain.Chain", "ledger_chain.model",
                                                 "ledger_chain.model.LiveAccount"}


def test_every_harness_module_has_a_room() -> None:
    homeless = [str(p.relative_to(ROOT)) for p in (ROOT / "harness").rglob("*.py") if _room(_module(p)) is None]
    assert not homeless, f"add these to HARNESS_LAYERS: {homeless}"


def test_harness_rooms_import_only_downwards() -> None:
    upwards = {f"{source} -> {target}": files for (source, target), files in _harness_edges().items()
               if LEVEL[target] > LEVEL[source]}
    assert not upwards, f"imports from a higher layer: {upwards}"


def test_no_two_harness_rooms_import_each_other() -> None:
    edges = _harness_edges()
    both = sorted({tuple(sorted(pair)) for pair in edges if (pair[1], pair[0]) in edges})
    assert not both, f"rooms that depend on each other: {[(a, b, edges[(a, b)], edges[(b, a)]) for a, b in both]}"


KIT = ("groundwork", "schema", "harness", "reference_server", "ledger_crypto", "ledger_ingest", "ledger_proofs",
       "ledger_chain", "cases")
"""The kit's packages: no import circle among their modules, type-checking imports included."""


def _kit_graph() -> dict[str, set[str]]:
    """Module -> the kit's modules it imports (`from a.b import c` names a.b, and a.b.c when c is a module)."""
    paths = {_module(path): path for package in KIT for path in (ROOT / package).rglob("*.py")}
    return {name: {other for other in _imports(path) if other in paths and other != name}
            for name, path in paths.items()}


def test_every_import_of_a_room_names_the_namespace() -> None:
    """A bare `import schema` would load PyPI's `schema` in a user's environment, or the room twice in ours."""
    files = [path for folder in (*KIT, "tests", "benchmarks") for path in (ROOT / folder).rglob("*.py")]
    bare = [f"{path.relative_to(ROOT)}: {name}" for path in files for name in _imported(path)
            if name.split(".")[0] in KIT]
    assert files and not bare, bare


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle, as the modules along it, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    return next((found for node in sorted(graph) if node not in state and (found := visit(node))), None)


def test_no_import_circle_anywhere() -> None:
    assert _circle(_kit_graph()) is None, f"an import circle: {' -> '.join(_circle(_kit_graph()) or [])}"


def test_the_circle_finder_finds_a_circle() -> None:
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _circle({"a": {"b"}, "b": set()}) is None


GROUND = "groundwork"
"""The ground floor: every room imports its names from where they live, so none re-exports one."""


def _reexported(room: str, ground: set[str], exported: Callable[[str], set[str]] = _exported) -> set[str]:
    """The ground floor's names a room's packages list in their `__all__` (its face would hand them on)."""
    packages = [_module(path) for path in sorted((ROOT / room).rglob("__init__.py"))]
    return {f"{package}.{name}" for package in packages for name in exported(package) & ground}


def _ground_names() -> set[str]:
    return {name for path in sorted((ROOT / GROUND).glob("*.py")) for name in _exported(_module(path))}


@pytest.mark.parametrize("room", [room for room in KIT if room != GROUND])
def test_no_room_re_exports_a_ground_floor_name(room: str) -> None:
    assert not _reexported(room, _ground_names()), f"import these from {GROUND} where they live"


def test_the_re_export_rule_catches_a_planted_name() -> None:
    """`ledger_crypto` listing base58 in its `__all__` again (as it once did) is caught."""
    def planted(package: str) -> set[str]:
        return _exported(package) | ({"b58encode"} if package == "ledger_crypto" else set())

    assert _reexported("ledger_crypto", _ground_names(), planted) == {"ledger_crypto.b58encode"}
