"""The reference pages of docs/ that are made from the kit's own tables, so that the pages cannot drift from them.

- `docs/reference/options.md`: `csi run`'s options, its pytest plugin's and a `csi.toml`'s, from
  `harness.engine.options.OPTIONS` (the one table all three faces read);
- `docs/reference/checks.md`: the catalogue, from the check registry, with each check's clauses and basis;
- `docs/reference/exit-codes.md`: every command's exit codes, from `harness.faces.exit_codes`;
- `docs/reference/profiles.md`: the status a broken rule gets under each profile, from `harness.core.profile`.

`make export` writes them (`python -m tests.docs_reference docs/reference`); tests/test_docs_site.py fails when a
committed page differs from what this makes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import csi_conformance.harness.checks  # noqa: F401  (registers the catalogue)
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.core.profile import PROFILES
from csi_conformance.harness.core.registry import REGISTRY, CheckSpec
from csi_conformance.harness.engine.options import CONFIG_NAME, OPTIONS, Option
from csi_conformance.harness.faces.exit_codes import DONE, EXIT_CODES, SHARED

GENERATED = "<!-- made by `make export` (tests/docs_reference.py): edit the table it is made from, not this page -->"


def _page(title: str, intro: str, lines: Iterable[str]) -> str:
    return "\n".join([f"# {title}", "", GENERATED, "", intro, "", *lines]).rstrip("\n") + "\n"


def _flag(option: Option, prefix: str = "") -> str:
    return f"`--{prefix}{option.name}{' ' + option.metavar if option.metavar else ''}`"


def _option(option: Option) -> list[str]:
    where = [f"pytest {_flag(option, 'csi-')}"]
    if option.env:
        where.append(f"environment `${option.env}`; never read from a file")
    elif option.name != "config":
        where.append(f"{CONFIG_NAME} `{option.name} = …`" + (" (a list)" if option.many else ""))
    repeat = " Repeatable." if option.many else ""
    return [f"- **{_flag(option)}** ({'; '.join(where)}): {option.help}.{repeat}"]


def options_page() -> str:
    intro = ("`csi run`, the pytest plugin (`pytest --csi-<option>`) and a `csi.toml`'s `[run]` table take the same "
             "options, read and checked by one model: a bad value is exit 2 with one line naming the option. A flag "
             "given wins over the environment, which wins over the file. The options, in the order `csi run --help` "
             "lists them:")
    return _page("Options of `csi run` and `csi.toml`", intro, [line for option in OPTIONS for line in _option(option)])


def _check(spec: CheckSpec) -> str:
    clauses = ", ".join(f"`{clause}`" for clause in spec.clauses) or "none"
    kind = "judges every answer" if spec.kind == "answer" else "asks its own requests"
    return f"- **`{spec.id}`** ({kind}; basis: {spec.basis.label}; clauses {clauses}): {spec.description}"


def checks_page() -> str:
    specs = REGISTRY.all()
    families = sorted({spec.family for spec in specs})
    intro = (f"{len(specs)} checks in {len(families)} families, as `csi checks` lists them. A check's basis is what "
             "the rule it enforces rests on ([profiles](profiles.md) turn it into a status); its clauses are the "
             "ids of [the clause map](../clauses.md).")
    lines: list[str] = []
    for family in families:
        members = [spec for spec in specs if spec.family == family]
        lines += [f"## {family}", "", *(_check(spec) for spec in members), ""]
    return _page("Checks", intro, lines)


def _codes(command: str) -> dict[int, str]:
    return {**SHARED, **EXIT_CODES.get(command, DONE)}


def exit_codes_page() -> str:
    intro = ("Every command's `--help` ends with the same lines. Codes 2, 4 and 130 mean the same for every command; "
             "[How verdicts are reached](../explanation/verdicts.md#exit-codes-in-more-words) tells `csi run`'s in "
             "more words.")
    lines: list[str] = ["| command | code | meaning |", "|---|---|---|"]
    for command in EXIT_CODES:
        lines += [f"| `csi {command}` | {code} | {meaning} |" for code, meaning in sorted(_codes(command).items())]
    return _page("Exit codes", intro, lines)


def profiles_page() -> str:
    intro = ("The status a broken rule gets, by what it rests on (its basis) and the run's `--profile` "
             "(default `spec`). `strict` also pins every ambiguity to its observed reading, so only another "
             "reading fails.")
    names = list(PROFILES)
    lines = ["| basis | " + " | ".join(f"`{name}`" for name in names) + " |", "|---|" + "---|" * len(names)]
    lines += [f"| {basis.label} | " + " | ".join(PROFILES[name].status_for(basis).value for name in names) + " |"
              for basis in Basis]
    return _page("Profiles", intro, lines)


PAGES: dict[str, Callable[[], str]] = {"options.md": options_page, "checks.md": checks_page,
                                       "exit-codes.md": exit_codes_page, "profiles.md": profiles_page}
"""Page (in docs/reference/) -> what makes it."""


def write(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, make in PAGES.items():
        (folder / name).write_text(make(), encoding="utf-8")


if __name__ == "__main__":
    write(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/reference"))
