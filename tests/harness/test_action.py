"""The GitHub Action (action.yml) and its one script, run as the action runs it: inputs in `INPUT_*`, outputs in
`$GITHUB_OUTPUT`, the summary in `$GITHUB_STEP_SUMMARY`, against the bundled reference and a broken variant on
loopback. action.yml itself is checked against what the script reads and writes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import yaml
from csi_conformance.harness.faces import action
from csi_conformance.harness.faces.action import FLAGS, INPUTS, OUTPUTS, artifact_name, env_name, main
from csi_conformance.harness.report.ci_markdown import cell, comment_body, step_summary

from tests.conftest import PROOF_CHECK

from .broken import VARIANTS, serving

ROOT = Path(__file__).resolve().parents[2]
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
STEPS = {step.get("id") or step["name"]: step for step in ACTION["runs"]["steps"]}


def _action(tmp_path: Path, **inputs: str) -> tuple[int, dict[str, str], str, dict[str, Any] | None]:
    """Run the script as action.yml does; its exit code, outputs, step summary and report.json."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("INPUT_", "GITHUB_"))}
    env |= {"CSI_PROVER": "none", "GITHUB_OUTPUT": str(tmp_path / "output"), "GITHUB_JOB": "certify",
            "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")}
    env |= {env_name(name): value for name, value in inputs.items()}
    done = subprocess.run([sys.executable, "-m", "csi_conformance.harness.faces.action"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=False)
    lines = (tmp_path / "output").read_text(encoding="utf-8").splitlines()
    outputs = dict(line.split("=", 1) for line in lines)
    report = tmp_path / outputs["report-path"]
    document = json.loads(report.read_text(encoding="utf-8")) if report.exists() else None
    return done.returncode, outputs, (tmp_path / "summary.md").read_text(encoding="utf-8"), document


def _row(finding: dict[str, Any]) -> str:
    return (f"| `{cell(finding['check_id'])}` | {cell(finding['method'])} | {cell(finding['title'])}"
            f"{' (baselined)' if finding['baselined'] else ''} | {cell(', '.join(finding['clauses']))} |")


def test_the_bundled_reference_is_conformant(tmp_path: Path) -> None:
    code, outputs, summary, report = _action(tmp_path, args=f"--skip {PROOF_CHECK}")
    assert code == 0 and report is not None
    assert outputs["verdict"] == "conformant" and outputs["exit-code"] == "0"
    assert outputs["report-path"] == "csi-report/report.json" and report["gate"]["passed"]
    assert "**conformant**" in summary and "No failures." in summary
    comment = (tmp_path / outputs["comment-path"]).read_text(encoding="utf-8")
    assert comment.startswith(f"<!-- csi-conformance:{outputs['artifact-name']} -->") and "No failures." in comment


def test_a_broken_variant_is_named_fail_by_fail(tmp_path: Path) -> None:
    variant = next(v for v in VARIANTS if v.name == "string-lamports")
    with serving(variant) as url:
        code, outputs, summary, report = _action(tmp_path, target=url, args=f"--skip {PROOF_CHECK}",
                                                 **{"report-dir": "out", "fail-on": "fail"})
    assert code == 1 and report is not None
    assert (outputs["verdict"], outputs["exit-code"], outputs["report-path"]) == ("not conformant", "1",
                                                                                  "out/report.json")
    fails = [finding for finding in report["findings"] if finding["status"] == "FAIL"]
    assert len({finding["check_id"] for finding in fails}) >= 2
    assert f"#### Failures ({len(fails)})" in summary and "**not conformant**" in summary
    assert [_row(finding) for finding in fails if _row(finding) not in summary] == []
    assert summary.count("\n| `") == len(fails)


def test_a_baseline_gives_the_findings_new_and_gone(tmp_path: Path) -> None:
    variant = next(v for v in VARIANTS if v.name == "balance-off-by-one")
    stale = "- {check: consistency.account-balance, method: getCompressedAccountBalance}\n"
    (tmp_path / "stale.yaml").write_text(stale, encoding="utf-8")
    (tmp_path / "known.yaml").write_text(stale + "- {check: consistency.balance-by-owner}\n", encoding="utf-8")
    runs = {}
    with serving(variant) as url:
        for name in ("stale", "known"):
            (tmp_path / name).mkdir()
            runs[name] = _action(tmp_path / name, target=url, args="--only consistency",
                                 baseline=str(tmp_path / f"{name}.yaml"))
    (new_code, new, _, _), (known_code, known, _, _) = runs["stale"], runs["known"]
    assert (new_code, new["verdict"], known_code, known["verdict"]) == (1, "not conformant", 0, "conformant")
    gone = "| `consistency.account-balance` | getCompressedAccountBalance | – |"
    first = (tmp_path / "stale" / new["comment-path"]).read_text(encoding="utf-8")
    assert "#### New failures (1)" in first and "`consistency.balance-by-owner`" in first and gone in first
    second = (tmp_path / "known" / known["comment-path"]).read_text(encoding="utf-8")
    assert "No new failures." in second and "still present: 1" in second and gone in second


def test_a_usage_error_still_gives_the_outputs(tmp_path: Path) -> None:
    code, outputs, summary, _ = _action(tmp_path, target="http://127.0.0.1:9", profile="loose")
    assert code == 2 and outputs["exit-code"] == "2" and outputs["verdict"] == "not run"
    assert "exit code 2" in summary


def test_a_report_left_by_an_earlier_run_is_never_read(tmp_path: Path, monkeypatch) -> None:
    """A kit that dies before writing its report (exit 4, killed) is `not run`, never the earlier verdict."""
    (tmp_path / "csi-report").mkdir()
    (tmp_path / "csi-report" / "report.json").write_text('{"gate": {"verdict": "conformant"}}', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(action.subprocess, "run", lambda *args, **kwargs: subprocess.CompletedProcess(args, 4))
    assert main([], {"GITHUB_OUTPUT": str(tmp_path / "output")}) == 4
    assert "verdict=not run\nexit-code=4\n" in (tmp_path / "output").read_text(encoding="utf-8")


def test_a_hostile_text_stays_one_inert_cell() -> None:
    title = "x | y\n## z <script>@org/team</script> `code` [link](http://evil)"
    report = {"gate": {"verdict": "not conformant", "exit_code": 1, "threshold": "FAIL", "blocking": 1},
              "findings": [{"status": "FAIL", "check_id": "a.b", "method": "m|n", "title": title, "clauses": ["1"],
                            "baselined": False}]}
    row = next(line for line in step_summary(report).splitlines() if line.startswith("| `a.b`"))
    assert row.count(" | ") == 3 and row.count("\\|") == 2
    assert not re.search(r"[<>@`]|(?<!\\)[\[\]]", row.removeprefix("| `a.b`")), row
    assert len(cell("7" * 1000)) == 200
    assert comment_body(report, key="k").startswith("<!-- csi-conformance:k -->\n")


def test_artifact_names_differ_between_jobs_and_matrix_legs() -> None:
    env = {"GITHUB_JOB": "certify", "GITHUB_RUN_ATTEMPT": "1"}
    names = {artifact_name({"target": "http://127.0.0.1:1"}, env), artifact_name({"target": "http://127.0.0.1:2"}, env),
             artifact_name({"target": "http://127.0.0.1:1", "matrix-key": '{"os": "mac"}'}, env),
             artifact_name({"target": "http://127.0.0.1:1"}, {"GITHUB_JOB": "other", "GITHUB_RUN_ATTEMPT": "1"}),
             artifact_name({"target": "http://127.0.0.1:1"}, {"GITHUB_JOB": "certify", "GITHUB_RUN_ATTEMPT": "2"})}
    assert len(names) == 5 and all(re.fullmatch(r"csi-report-[\w.-]+", name) for name in names)
    assert artifact_name({"target": "http://127.0.0.1:1"}, env) in names, "the same leg gets the same name"
    assert artifact_name({"artifact-name": 'reports: "a/b"'}, env) == "reports-a-b-"


def test_the_prover_key_follows_the_manifest(tmp_path: Path) -> None:
    output = tmp_path / "output"
    assert main(["prover-key"], {"GITHUB_OUTPUT": str(output)}) == 0
    manifest = json.loads((ROOT / "ledger_proofs" / "prover-files.json").read_text(encoding="utf-8"))
    assert re.fullmatch(rf"prover-key={re.escape(manifest['version'])}-[0-9a-f]{{16}}\n", output.read_text())
    assert main(["nonsense"], {}) == 2


# -- action.yml ----------------------------------------------------------------------------------
def test_the_certify_step_passes_every_input_the_script_reads() -> None:
    step = STEPS["csi"]
    assert step["run"] == "python -m csi_conformance.harness.faces.action"
    given = {key: value for key, value in step["env"].items() if key.startswith("INPUT_")}
    assert given == {env_name(name): f"${{{{ inputs.{name} }}}}" for name in INPUTS}
    assert set(INPUTS) <= set(ACTION["inputs"]) and set(FLAGS) <= set(ACTION["inputs"])
    assert step["env"]["CSI_API_KEY"] == "${{ inputs.api-key }}"


def test_every_output_read_is_one_the_script_writes() -> None:
    text = (ROOT / "action.yml").read_text(encoding="utf-8")
    read = set(re.findall(r"steps\.csi\.outputs\.([\w-]+)", text)) | set(
        re.findall(r"steps\.prover\.outputs\.([\w-]+)", text))
    assert read and read <= set(OUTPUTS)
    for name, output in ACTION["outputs"].items():
        assert output["value"] == f"${{{{ steps.csi.outputs.{name} }}}}", name
    assert {"verdict", "exit-code", "report-path", "comment-path"} <= set(ACTION["outputs"])
    used = set(re.findall(r"inputs\.([\w-]+)", text))
    assert used == set(ACTION["inputs"]), "every input is used, and only declared ones"


def test_the_action_installs_the_current_major_and_caches_the_prover() -> None:
    assert ACTION["runs"]["using"] == "composite"
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    major, minor = (int(part) for part in version.split(".")[:2])
    pin = f">={major}.{minor},<{major}.{minor + 1}" if major == 0 else f">={major},<{major + 1}"
    assert ACTION["inputs"]["version"]["default"] == pin
    install = STEPS["Install csi-conformance"]["run"]
    assert '"csi-conformance$CSI_VERSION"' in install and '"$CSI_ACTION_PATH"' in install
    uses = {step["uses"].split("@")[0]: step for step in ACTION["runs"]["steps"] if "uses" in step}
    assert uses["actions/setup-python"]["with"]["python-version"] == "3.11"
    assert uses["actions/cache"]["with"]["path"] == "~/.cache/csi-conformance/prover"
    assert "steps.prover.outputs.prover-key" in uses["actions/cache"]["with"]["key"]
    assert uses["actions/upload-artifact"]["with"]["name"] == "${{ steps.csi.outputs.artifact-name }}"
    after = ACTION["runs"]["steps"][list(STEPS).index("csi") + 1:]
    assert after and all("!cancelled()" in step["if"] for step in after), "reports are kept when the gate fails"


def test_docs_name_the_one_line() -> None:
    docs = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    assert re.search(r"- uses: [\w-]+/csi-conformance@v\d+", docs) and "target:" in docs
