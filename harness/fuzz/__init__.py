"""Run the exported OpenAPI under the schemathesis CLI, JSON-RPC-aware.

JSON-RPC answers errors with HTTP 200, so schemathesis's status-based checks
(`status_code_conformance`, `negative_data_rejection`, `positive_data_acceptance`) would misjudge
every server. `schemathesis.toml` here turns them off, and `schemathesis_hooks` registers
`jsonrpc_envelope`, which checks the envelope and the result against the contract instead:

    SCHEMATHESIS_HOOKS=harness.fuzz.schemathesis_hooks \\
      schemathesis --config-file "$(python -c 'import csi_conformance.harness.fuzz as f; print(f.CONFIG)')" \\
      run schema/dist/openapi.json --url http://127.0.0.1:8784
"""

from pathlib import Path

CONFIG = Path(__file__).resolve().parent / "schemathesis.toml"
HOOKS = "csi_conformance.harness.fuzz.schemathesis_hooks"

__all__ = ["CONFIG", "HOOKS"]
