"""The GitHub Action's work (action.yml at the repository's root), in one step a vendor's CI can also run alone.

`python -m csi_conformance.harness.faces.action` runs `csi run` with the action's inputs (environment variables
`INPUT_<NAME>`, as action.yml sets them), then writes the step's outputs to `$GITHUB_OUTPUT`, a summary to
`$GITHUB_STEP_SUMMARY` and a pull-request comment to a file, all read from the run's report.json, and ends with
`csi run`'s exit code. `... action prover-key` writes the key the action caches the light prover under.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from csi_conformance.harness.report.ci_markdown import comment_body, step_summary

__all__ = ["FLAGS", "INPUTS", "OUTPUTS", "artifact_name", "csi_command", "env_name", "main"]

FLAGS = {"target": "--target", "api": "--api", "profile": "--profile", "fail-on": "--fail-on",
         "baseline": "--baseline", "chain": "--chain"}
"""Action input -> the `csi run` option it gives (left out when the input is empty)."""
INPUTS = (*FLAGS, "args", "report-dir", "artifact-name", "matrix-key")
"""Every input the script reads; action.yml passes each as `INPUT_<NAME>` (tests/harness/test_action.py)."""
OUTPUTS = ("verdict", "exit-code", "report-path", "report-dir", "comment-path", "artifact-name", "prover-key")
"""Every output the script writes to `$GITHUB_OUTPUT`."""
DEFAULT_REPORT_DIR = "csi-report"
COMMENT_NAME = "pr-comment.markdown"
_ARTIFACT_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
"""upload-artifact refuses `" : < > | * ? \\ /` and line breaks in a name: anything but these becomes `-`."""
_LINE_BREAKS = re.compile(r"[\r\n]+")


def env_name(name: str) -> str:
    """The environment variable an input arrives in: `fail-on` -> `INPUT_FAIL_ON`."""
    return "INPUT_" + name.upper().replace("-", "_")


def read_inputs(env: Mapping[str, str]) -> dict[str, str]:
    """Every input, stripped; an input not set is empty."""
    return {name: env.get(env_name(name), "").strip() for name in INPUTS}


def csi_command(inputs: Mapping[str, str], report_dir: Path) -> list[str]:
    """The `csi run` command line the inputs give (`args` is split as a shell would)."""
    command = [sys.executable, "-m", "csi_conformance.harness", "run", "--report-dir", str(report_dir)]
    for name, flag in FLAGS.items():
        if inputs.get(name):
            command += [flag, inputs[name]]
    return command + shlex.split(inputs.get("args", ""))


def artifact_name(inputs: Mapping[str, str], env: Mapping[str, str]) -> str:
    """The name given, else one no other job of the run shares: the job id, a digest of what differs between
    the legs of a matrix (the matrix key, target, api, profile, chain, arguments) and the run attempt."""
    if inputs.get("artifact-name"):
        return _ARTIFACT_UNSAFE.sub("-", inputs["artifact-name"])
    leg = json.dumps([inputs.get(name, "") for name in ("matrix-key", *FLAGS, "args")])
    digest = hashlib.sha256(leg.encode()).hexdigest()[:10]
    job = env.get("GITHUB_JOB") or "job"
    return _ARTIFACT_UNSAFE.sub("-", f"csi-report-{job}-{digest}-{env.get('GITHUB_RUN_ATTEMPT') or '1'}")


def prover_key() -> str:
    """The light prover's cache key: its package version and the digest of the manifest its files are checked
    against, so that a kit pinning other files never restores a stale prover."""
    manifest = (resources.files("csi_conformance.ledger_proofs") / "prover-files.json").read_bytes()
    version = json.loads(manifest)["version"]
    return f"{version}-{hashlib.sha256(manifest).hexdigest()[:16]}"


def write_outputs(env: Mapping[str, str], values: Mapping[str, Any]) -> None:
    """Append `name=value` lines to `$GITHUB_OUTPUT` (line breaks in a value become spaces); nothing without it."""
    path = env.get("GITHUB_OUTPUT")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as out:
        for name, value in values.items():
            out.write(f"{name}={_LINE_BREAKS.sub(' ', str(value))}\n")


def load_report(path: Path) -> dict[str, Any] | None:
    """The report.json a run wrote, or None when there is none a summary can be read from."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return document if isinstance(document, dict) else None


def certify(env: Mapping[str, str]) -> int:
    """Run `csi run` with the inputs, then write the outputs, the summary and the comment; `csi run`'s exit code."""
    inputs = read_inputs(env)
    report_dir = Path(inputs["report-dir"] or DEFAULT_REPORT_DIR)
    report_path = report_dir / "report.json"
    report_path.unlink(missing_ok=True)  # a report left by an earlier run is never read as this one's
    code = subprocess.run(csi_command(inputs, report_dir), env=dict(env), check=False).returncode
    report = load_report(report_path) or _no_report(code)
    name = artifact_name(inputs, env)
    comment = report_dir / COMMENT_NAME
    report_dir.mkdir(parents=True, exist_ok=True)
    comment.write_text(comment_body(report, key=name), encoding="utf-8")
    if env.get("GITHUB_STEP_SUMMARY"):
        with open(env["GITHUB_STEP_SUMMARY"], "a", encoding="utf-8") as summary:
            summary.write(step_summary(report))
    gate = report.get("gate") if isinstance(report.get("gate"), dict) else {}
    write_outputs(env, {"verdict": gate.get("verdict", "not run"), "exit-code": code, "report-path": report_path,
                        "report-dir": report_dir, "comment-path": comment, "artifact-name": name})
    return code


def _no_report(code: int) -> dict[str, Any]:
    """What the summary says of a run that left no report.json (the kit failed before writing one)."""
    return {"gate": {"verdict": "not run", "exit_code": code, "threshold": None, "blocking": None}, "findings": []}


def main(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> int:
    """`action` (the default) certifies; `action prover-key` writes the prover's cache key."""
    argv = list(sys.argv[1:] if argv is None else argv)
    env = os.environ if env is None else env
    if argv == ["prover-key"]:
        write_outputs(env, {"prover-key": prover_key()})
        return 0
    if argv:
        print("usage: python -m csi_conformance.harness.faces.action [prover-key]", file=sys.stderr)
        return 2
    return certify(env)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
