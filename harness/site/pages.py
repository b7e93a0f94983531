"""What every page of the site shares: the shell (inline CSS, no script), the navigation, a cell, file names.

Every string a report holds came from a target that may be hostile, so each passes through `escape`
(`harness.report.markup`) on its way into a page; ids and file names are built with `anchor`.
"""

from __future__ import annotations

from collections.abc import Iterable

from csi_conformance.harness.report.markup import anchor, escape
from csi_conformance.harness.site.cells import Cell

__all__ = ["Site", "cell_html", "escape", "page", "status_class"]

CSS = """
body{font:15px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0 auto 2em;max-width:90em;padding:0 1em;
color:#1f1f1f;background:#fff}
a{color:#0b57d0}nav{margin:.6em 0;padding:.4em 0;border-bottom:1px solid #ccc}nav a{margin-right:1.2em}
h1{font-size:1.5em}h2{margin-top:1.8em;border-bottom:1px solid #ccc}h3{margin:1.4em 0 .4em}
table{border-collapse:collapse;margin:.4em 0 1em}th,td{border:1px solid #c8c8c8;padding:.25em .5em;
text-align:left;vertical-align:top}thead th{background:#f1f3f4}caption{text-align:left;font-weight:600;
padding:.3em 0}.st{display:inline-block;font-weight:700;padding:0 .35em;border-radius:3px}
.PASS{background:#e6f4ea;color:#0b5d1e}.FAIL{background:#fce8e6;color:#8a1c12}.WARN{background:#fef7e0;
color:#5c4300}.AMBIGUOUS,.INFO{background:#e8f0fe;color:#1a3e8a}.SKIP,.NA{background:#f1f3f4;color:#333}
.INCONCLUSIVE{background:#ede7f6;color:#4a2a7a}.basis{display:block;font-size:.85em;color:#444}
.absent{color:#555}pre{background:#f6f8fa;border:1px solid #ddd;padding:.5em;overflow-x:auto;
white-space:pre-wrap;word-break:break-all;font-size:.85em}.finding{border-left:4px solid #b3261e;
padding:.2em .8em;margin:1em 0}.issue{display:block;font-size:.85em}dl{display:grid;
grid-template-columns:max-content auto;gap:.2em 1em}dt{font-weight:600}dd{margin:0}
"""


class Site:
    """Where each page lives: file names of targets and badges, unique and stable for given names."""

    def __init__(self, targets: Iterable[str]) -> None:
        self.slugs: dict[str, str] = {}
        taken: set[str] = set()
        for name in sorted(set(targets)):
            slug, n = anchor(name)[:80] or "target", 1
            while slug.lower() in taken:
                n += 1
                slug = f"{anchor(name)[:80]}-{n}"
            taken.add(slug.lower())
            self.slugs[name] = slug

    def target_page(self, name: str) -> str:
        return f"targets/{self.slugs[name]}.html"

    def badge(self, name: str, contract: str, ext: str) -> str:
        return f"badges/{self.slugs[name]}-{anchor(contract)}.{ext}"


def status_class(status: str) -> str:
    return "NA" if status == "N/A" else anchor(status)


def cell_html(cell: Cell, issues: Iterable[str] = ()) -> str:
    """A cell: the status, then the basis under it (two facts), then any triage links."""
    if not cell.status:
        return '<td class="absent">not in this run</td>'
    links = "".join(f'<a class="issue" href="{escape(url)}">triaged: {escape(url)}</a>' for url in issues)
    checks = escape(", ".join(cell.checks))
    return (f'<td title="{checks}"><span class="st {status_class(cell.status)}">{escape(cell.status)}</span>'
            f'<span class="basis">basis: {escape(", ".join(cell.basis))}</span>{links}</td>')


def page(title: str, body: str, *, root: str = "") -> str:
    """A whole page: `root` leads from the page's folder back to the site's top."""
    nav = (f'<nav aria-label="site"><a href="{root}index.html">Targets side by side</a>'
           f'<a href="{root}ambiguities.html">Readings of the spec’s open points</a></nav>')
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{escape(title)}</title><style>{CSS}</style></head>'
            f'<body><header>{nav}</header><main><h1>{escape(title)}</h1>\n{body}</main></body></html>\n')
