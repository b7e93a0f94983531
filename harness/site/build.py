"""`csi site build`: the whole site from reports, written at once, the same bytes for the same inputs.

Nothing is run or fetched, and the pages hold no time of the build: everything is sorted (groups,
targets, versions, rows), so a site rebuilt from the same reports is byte-identical and a diff of two
builds shows only what the reports changed. The folder is put into place whole (`staged_folder`); a
folder that is not empty and is not a site built before is refused rather than replaced.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from csi_conformance.groundwork import jsonio
from csi_conformance.groundwork.files import staged_folder, write_atomic
from csi_conformance.harness.core.errors import ConfigError
from csi_conformance.harness.site.align import Group, align, read_runs
from csi_conformance.harness.site.badges import badge_json, badge_svg
from csi_conformance.harness.site.index_page import index_page
from csi_conformance.harness.site.pages import Site
from csi_conformance.harness.site.readings import readings_page
from csi_conformance.harness.site.target_page import target_page
from csi_conformance.harness.site.triage import Triage

__all__ = ["MARK", "build_site", "site_files"]

MARK = ".csi-site"
"""A file every built site holds: a folder with it may be replaced by a new build, another one not."""


def site_files(groups: list[Group], triage: list[Triage], reference: str | None) -> dict[str, str]:
    """Every file of the site, by path inside it."""
    names = sorted({name for group in groups for name in group.targets()})
    site = Site(names)
    files = {MARK: "a site written by `csi site build`: a new build replaces this folder\n",
             "index.html": index_page(site, groups, triage, reference), "ambiguities.html": readings_page(groups)}
    for name in names:
        files[site.target_page(name)] = target_page(site, name, groups, triage)
    for group in groups:  # a later group of one contract (by ledger, kit) writes over an earlier one's badge
        for name, result in group.latest().items():
            verdict = result.verdict()
            files[site.badge(name, group.contract, "svg")] = badge_svg(group.contract, verdict)
            files[site.badge(name, group.contract, "json")] = jsonio.dumps(badge_json(group.contract, verdict)) + "\n"
    return files


def build_site(reports: Sequence[Path], out: Path, triage: list[Triage] | None = None,
               reference: str | None = None) -> list[Path]:
    """Read the reports, write the site into `out`; the paths written, sorted."""
    groups = align(read_runs(reports))
    files = site_files(groups, triage or [], reference)
    out = Path(out)
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / MARK).exists())):
        raise ConfigError(f"{out}: not empty and not a site built before: give an empty or new folder")
    with staged_folder(out) as staging:
        for relative, text in sorted(files.items()):
            path = staging / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, text)
    return sorted(out / relative for relative in files)
