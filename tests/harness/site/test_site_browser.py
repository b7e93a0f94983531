"""The site in a real browser: every page renders in headless Chromium with no console error, passes an
axe-core scan with no serious or critical violation, and every link inside the site resolves.

Chromium comes from Debian's packages (`make test` installs it when missing). Without it this test FAILS,
as the report's browser test does. Each page is copied with two scripts added: one that records
`window.onerror`, failed loads and `console.error` from the start, and axe-core, run when the page has
loaded; the results are written into the DOM, which `--dump-dom` hands back.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote

import pytest
from csi_conformance.harness.faces.cli import main

from tests.harness.site.axe import axe_script
from tests.harness.site.test_site import tags

COLLECT = """<script>window.__csiErrors=[];
window.addEventListener('error',function(e){window.__csiErrors.push(e.message||('failed to load '+
(e.target&&(e.target.src||e.target.href))))},true);
(function(){var original=console.error;console.error=function(){window.__csiErrors.push(
Array.prototype.map.call(arguments,String).join(' '));original.apply(console,arguments)}})();</script>"""
SCAN = """<script src="{root}axe.min.js"></script><script>window.addEventListener('load',function(){
axe.run(document,{resultTypes:['violations']}).then(function(r){write(r.violations.map(function(v){
return {id:v.id,impact:v.impact,nodes:v.nodes.map(function(n){return n.target.join(' ')})}}))},
function(e){window.__csiErrors.push('axe: '+e);write([])})});
function write(violations){var p=document.createElement('pre');p.id='csi-scan';
p.textContent=JSON.stringify({errors:window.__csiErrors,violations:violations});document.body.appendChild(p)}
</script>"""
BLOCKING = {"serious", "critical"}


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail("chromium is not installed: `make test` installs it (apt-get install -y chromium)")
    return found


@pytest.fixture(scope="module")
def site(reports: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("browsed") / "site"
    assert main(["site", "build", *map(str, reports.values()), "-o", str(out)]) == 0
    return out


def _pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def _scanned(site: Path, page: Path, copy: Path) -> dict:
    """The errors and axe violations of `page`, rendered from a copy of the site with the scripts added."""
    relative = page.relative_to(site)
    root = "../" * (len(relative.parts) - 1)
    text = page.read_text(encoding="utf-8")
    text = text.replace("<head>", "<head>" + COLLECT, 1).replace("</body>", SCAN.replace("{root}", root) + "</body>", 1)
    (copy / relative).write_text(text, encoding="utf-8")
    done = subprocess.run([_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                           "--virtual-time-budget=60000", (copy / relative).as_uri()],
                          capture_output=True, timeout=180, cwd=copy)
    assert done.returncode == 0, done.stderr[-2000:]
    found = re.search(r'<pre id="csi-scan">(.*?)</pre>', done.stdout.decode("utf-8"), re.S)
    assert found, f"{relative}: the scan did not finish: {done.stderr[-1000:]!r}"
    return json.loads(html.unescape(found.group(1)))


def test_every_page_renders_without_error_and_passes_axe(site: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(site, copy)
    (copy / "axe.min.js").write_text(axe_script(), encoding="utf-8")
    pages = _pages(site)
    assert len(pages) >= 8  # index, ambiguities and a page per target
    for page in pages:
        scan = _scanned(site, page, copy)
        name = page.relative_to(site)
        assert scan["errors"] == [], f"{name}: {scan['errors']}"
        assert [v for v in scan["violations"] if v["impact"] in BLOCKING] == [], name


def test_every_link_inside_the_site_resolves(site: Path) -> None:
    ids = {page: {attrs["id"] for _, attrs in tags(page) if "id" in attrs} for page in _pages(site)}
    checked = 0
    for page in _pages(site):
        for _, attrs in tags(page):
            for name in ("href", "src"):
                link = attrs.get(name)
                if link is None or re.match(r"[a-z]+:", link):
                    continue  # outside the site (an issue link): nothing to resolve here
                path, _, fragment = link.partition("#")
                target = (page.parent / unquote(path)).resolve() if path else page.resolve()
                assert target.is_file() and target.is_relative_to(site.resolve()), f"{page.name}: {link}"
                if fragment:
                    assert fragment in ids[target], f"{page.name}: {link}"
                checked += 1
    assert checked > 50
