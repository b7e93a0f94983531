"""Record each case's expected answer (`<<`) from the reference server, in process.

The answer comes from the reference's own JSON-RPC core (`reference_server.app.JsonRpc`) over
the case's scenario, fed the request line's bytes, so the recorded line is byte for byte the
body the server sends over HTTP, error objects included. Scenarios are loaded once per name,
with default `ServerOptions`. The reference is deterministic (ledger, signatures and the
offline compressedProof are all derived from the scenario), so filling twice writes the same
bytes; a test holds the committed files to that.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from csi_conformance.cases import CASES_DIR
from csi_conformance.cases.loader import load_cases, write_case
from csi_conformance.cases.model import Case
from csi_conformance.groundwork.errors import ConfigError
from csi_conformance.groundwork.files import write_atomic
from csi_conformance.groundwork.jsonio import dumps, loads
from csi_conformance.reference_server.app import JsonRpc
from csi_conformance.reference_server.methods import call
from csi_conformance.reference_server.options import ServerOptions
from csi_conformance.reference_server.scenario import load_scenario
from csi_conformance.schema import Contract

__all__ = ["Reference", "fill", "fill_files"]


class Reference:
    """The reference's JSON-RPC core over each bundled scenario, each scenario loaded once."""

    def __init__(self, options: ServerOptions | None = None, contract: Contract | None = None) -> None:
        self.options = options or ServerOptions()
        self.contract = contract or Contract.default()
        self._cores: dict[str, JsonRpc] = {}

    def core(self, scenario: str) -> JsonRpc:
        if scenario not in self._cores:
            ledger = load_scenario(scenario)
            options, contract = self.options, self.contract

            def dispatch(method: str, params: Any) -> Any:
                return call(ledger, method, params, options, contract)

            self._cores[scenario] = JsonRpc(dispatch, options, contract)
        return self._cores[scenario]

    def answer_text(self, scenario: str, request: Any) -> str:
        """The body the reference sends for `request` over `scenario`, as text."""
        reply = self.core(scenario).handle(dumps(request).encode())
        if reply.status != 200 or reply.body is None:
            raise ConfigError(f"the reference answers HTTP {reply.status} without a JSON-RPC body: "
                              "a case needs a request that gets an answer")
        return reply.body.decode("utf-8")

    def answer(self, case: Case) -> Any:
        """The reference's answer to a case, parsed; its text is exactly what `write_case` writes."""
        try:
            text = self.answer_text(case.scenario, case.request)
        except ConfigError as exc:
            raise ConfigError(f"{case.path}: {exc}") from None
        answer = loads(text)
        if dumps(answer) != text:
            raise ConfigError(f"{case.path}: the reference's answer does not read back byte for byte")
        return answer


def fill(cases: Iterable[Case], reference: Reference | None = None) -> list[Case]:
    """The cases with `response` set to the reference's answer."""
    reference = reference or Reference()
    return [replace(case, response=reference.answer(case)) for case in cases]


def fill_files(root: Path = CASES_DIR, *, method: str | None = None) -> tuple[int, list[Path]]:
    """Rewrite the `<<` line of every case file under `root` (or one method's).

    Returns how many cases were filled and the files whose text changed; unchanged files are
    not touched.
    """
    changed = []
    filled = fill(load_cases(root, method=method))
    for case in filled:
        text = write_case(case)
        if case.path.read_text(encoding="utf-8") != text:
            write_atomic(case.path, text)
            changed.append(case.path)
    return len(filled), changed
