"""Import rules that keep the kit's layers apart (docs/development/architecture.md).

Three kinds of rule: between the top-level rooms (`MAY_IMPORT`: an allow-list of what each may import, with
the entry points that join rooms past it), inside the harness an order of floors (`HARNESS_FLOORS`, lowest
first: a room imports only from its own floor or below, and no two rooms import each other), and the check
families (`harness/checks/<family>/`: a folder's checks are its family's, and a module only one family uses
lives in that family's folder).
"""

from __future__ import annotations

import ast
import tomllib
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NAMESPACE = "csi_conformance."
"""What the kit's rooms are installed under (pyproject.toml): every import of a room is written with it."""

MAY_IMPORT = {
    "groundwork": set(),
    "schema": {"groundwork"},
    "ledger_crypto": {"groundwork"},
    "ledger_ingest": {"groundwork", "ledger_crypto"},
    "ledger_proofs": {"groundwork", "ledger_crypto"},
    "ledger_chain": {"groundwork", "ledger_crypto", "ledger_ingest", "ledger_proofs"},
    "reference_server": {"groundwork", "schema", "ledger_crypto", "ledger_ingest", "ledger_proofs"},
    "cases": {"groundwork", "schema", "reference_server.scenarios"},
    "cases.tools": {"groundwork", "schema", "ledger_crypto", "reference_server", "cases"},
    "harness": {"groundwork", "schema", "ledger_crypto", "ledger_ingest", "ledger_proofs", "ledger_chain", "cases"},
}
"""Room -> the only rooms (or parts of one) its modules may import: an allow-list of floors, so a new room or a
new arrow is a decision written here. A room's most specific entry rules (`cases.tools`, the tools that run the
reference, are apart from `cases`, the golden data the harness reads, which may name the reference's bundled
scenarios: a data folder that imports nothing)."""

ENTRY_POINTS = {
    "csi.reference": ("harness.connection.reference", {"reference_server"}),
    "csi.commands": ("harness.faces.cli", {"harness.faces", "schema", "reference_server", "cases.tools",
                                           "ledger_proofs", "ledger_chain"}),
    "pytest11": (None, {"harness.faces"}),
}
"""Entry-point group (pyproject.toml) -> (the one module that loads it, None for pytest's own, and the rooms that
may provide it). An entry point is an import the import rules cannot see: the harness starts the reference and
the CLI gathers each room's commands this way, and nowhere else."""

FACES = {"harness": ("ledger_chain", "ledger_chain.judging")}
"""Room -> (a room it imports, that room's one face): the harness reads a chain only through its judging face,
so of `ledger_chain` it may import the face's module, or from the package the names the face exports (its
`__all__`), and nothing else: never the generator's model, keys or runtime."""

FAMILIES = ("envelope", "transport", "schema", "params", "limits", "pagination", "consistency", "crypto", "v2",
            "onchain", "health", "differential")
"""The check families, one folder each under `harness/checks/` (the registry's `FAMILIES`, pinned below)."""

HARNESS_FLOORS = (
    ("harness.core",),
    ("harness.redact", "harness.connection"),
    ("harness.answer", "harness.context", "harness.generate"),
    ("harness.discover",),
    ("harness.judging", "harness.verify"),
    tuple(f"harness.checks.{family}" for family in FAMILIES),
    ("harness.checks",),
    ("harness.report",),
    ("harness.engine",),
    ("harness.site", "harness.proxy"),
    ("harness.faces", "harness.fuzz", "harness.__main__", "harness"),
)
"""The harness's rooms, lowest first: a room imports from its own floor or below, never two rooms each other, and
no check family from another (what two share lives in `judging` or `verify`). `harness.checks` is the catalogue
that registers every family; `harness` itself (its `__init__`, the public API) is a face."""


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


ROOMS = sorted((room for layer in HARNESS_FLOORS for room in layer), key=len, reverse=True)
LEVEL = {room: level for level, layer in enumerate(HARNESS_FLOORS) for room in layer}


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
    """The most specific `MAY_IMPORT` entry a module falls under."""
    return max((room for room in MAY_IMPORT if module == room or module.startswith(room + ".")), key=len)


def _within(name: str, rooms: set[str]) -> bool:
    return any(name == room or name.startswith(room + ".") for room in rooms)


def _not_allowed(package: str, files: list[Path]) -> list[str]:
    """What the files of a room import beyond itself and its allow-list."""
    return [f"{path.relative_to(ROOT)}: imports {name}" for path in files for name in sorted(_imports(path))
            if _rule_of(name) != package and not _within(name, MAY_IMPORT[package])]


@pytest.mark.parametrize("package", sorted(MAY_IMPORT))
def test_a_room_imports_only_what_its_floor_allows(package: str) -> None:
    files = [path for path in sorted((ROOT / package.replace(".", "/")).rglob("*.py"))
             if _rule_of(_module(path)) == package]
    assert files, package
    assert not _not_allowed(package, files)


def test_the_allow_list_catches_a_planted_import(tmp_path: Path) -> None:
    """A ledger room importing the reference server (a floor above it) is caught; its own floor's imports are not."""
    planted = ROOT / "ledger_proofs" / "_planted_layer_probe.py"
    planted.write_text("from csi_conformance.reference_server.wiring import app_for\n"
                       "from csi_conformance.ledger_crypto import poseidon\n", encoding="utf-8")
    try:
        assert _not_allowed("ledger_proofs", [planted]) == [
            "ledger_proofs/_planted_layer_probe.py: imports reference_server.wiring",
            "ledger_proofs/_planted_layer_probe.py: imports reference_server.wiring.app_for"]
    finally:
        planted.unlink()


def _entry_points() -> dict[str, dict[str, str]]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["entry-points"]


def test_every_entry_point_is_a_seam_the_rules_know() -> None:
    """Each group is loaded by its one module, and provided only by the rooms listed; nothing else loads one."""
    groups = _entry_points()
    assert set(groups) == set(ENTRY_POINTS)
    for group, entries in groups.items():
        providers = ENTRY_POINTS[group][1]
        for name, target in entries.items():
            module = target.split(":")[0].removeprefix(NAMESPACE)
            assert _within(module, providers), f"{group} {name} = {target}: not one of {providers}"
            assert (ROOT / (module.replace(".", "/") + ".py")).is_file(), target
    loading = {_module(path) for room in KIT for path in (ROOT / room).rglob("*.py")
               if "entry_points(" in path.read_text(encoding="utf-8")}
    assert loading == {loader for loader, _ in ENTRY_POINTS.values() if loader}, loading


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
    assert not homeless, f"add these to HARNESS_FLOORS: {homeless}"


def test_harness_rooms_import_only_downwards() -> None:
    upwards = {f"{source} -> {target}": files for (source, target), files in _harness_edges().items()
               if LEVEL[target] > LEVEL[source]}
    assert not upwards, f"imports from a higher layer: {upwards}"


def test_no_two_harness_rooms_import_each_other() -> None:
    edges = _harness_edges()
    both = sorted({tuple(sorted(pair)) for pair in edges if (pair[1], pair[0]) in edges})
    assert not both, f"rooms that depend on each other: {[(a, b, edges[(a, b)], edges[(b, a)]) for a, b in both]}"


def test_no_check_family_imports_another() -> None:
    families = {f"harness.checks.{family}" for family in FAMILIES}
    across = {f"{source} -> {target}": files for (source, target), files in _harness_edges().items()
              if source in families and target in families}
    assert not across, f"share it through harness.judging or harness.verify: {across}"


def test_the_families_are_the_registry_s_and_each_has_its_folder() -> None:
    from csi_conformance.harness.core.registry import FAMILIES as REGISTERED

    assert FAMILIES == REGISTERED
    assert {path.name for path in (ROOT / "harness" / "checks").iterdir() if path.is_dir()
            and path.name != "__pycache__"} == set(FAMILIES)


def _misfiled(checks: list[tuple[str, str]]) -> list[str]:
    """(check id, module that registers it) pairs whose id does not start with the family of the module's folder."""
    prefix = f"{NAMESPACE}harness.checks."
    return [f"{check_id} in {module}" for check_id, module in checks if not module.startswith(prefix)
            or not check_id.startswith(module.removeprefix(prefix).split(".")[0] + ".")]


def _registered() -> list[tuple[str, str]]:
    import csi_conformance.harness.checks  # noqa: F401  (registers every check)
    from csi_conformance.harness.core.registry import REGISTRY

    return [(spec.id, spec.function.__module__) for spec in REGISTRY.all()]


def test_every_check_id_in_a_family_folder_starts_with_the_family() -> None:
    assert _registered() and not _misfiled(_registered())


def test_the_family_rule_catches_a_check_filed_in_another_family() -> None:
    planted = [("crypto.groth16-proof", f"{NAMESPACE}harness.checks.crypto.proofs"),
               ("consistency.unknown-balance", f"{NAMESPACE}harness.checks.crypto.batched"),
               ("health.ok", f"{NAMESPACE}harness.engine.runner")]
    assert _misfiled(planted) == [f"consistency.unknown-balance in {NAMESPACE}harness.checks.crypto.batched",
                                  f"health.ok in {NAMESPACE}harness.engine.runner"]


def test_only_a_family_and_its_folder_are_the_same_set_of_checks() -> None:
    """`--only <family>` selects by the id's family; the folder holds exactly those checks."""
    from csi_conformance.harness.core.registry import REGISTRY

    registered = dict(_registered())
    for family in FAMILIES:
        selected = {spec.id for spec in REGISTRY.select([family])}
        folder = {check_id for check_id, module in registered.items()
                  if module.startswith(f"{NAMESPACE}harness.checks.{family}.")}
        assert selected and selected == folder, family


def _single_family_modules(edges: dict[str, set[str]]) -> list[str]:
    """Harness modules outside the check folders that only one family imports (`edges`: module -> its importers,
    the kit's own code only): each belongs in that family's folder."""
    def family(module: str) -> str | None:
        parts = module.split(".")
        return parts[2] if parts[:2] == ["harness", "checks"] and len(parts) > 3 else None

    return sorted(module for module, users in edges.items()
                  if family(module) is None and users and len({family(user) for user in users}) == 1
                  and family(next(iter(users))) is not None)


def _harness_importers() -> dict[str, set[str]]:
    modules = {_module(path): path for path in (ROOT / "harness").rglob("*.py")}
    users: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for imported in _imports(path):
            if imported in users and imported != name:
                users[imported].add(name)
    return users


def test_a_module_only_one_family_uses_lives_in_its_folder() -> None:
    assert not _single_family_modules(_harness_importers())


def test_the_single_family_rule_catches_a_planted_helper() -> None:
    importers = {"harness.verify.shared": {"harness.checks.crypto.checks", "harness.checks.v2.checks"},
                 "harness.verify.lonely": {"harness.checks.onchain.checks", "harness.checks.onchain.plan"},
                 "harness.judging.engine_too": {"harness.checks.pagination.checks", "harness.engine.runner"},
                 "harness.checks.crypto.trees": {"harness.checks.crypto.tree_roots"}}
    assert _single_family_modules(importers) == ["harness.verify.lonely"]


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
