"""The bundled reference server, a target the kit starts itself, reached through the `csi.reference`
entry point only (the harness never imports the reference server).

The entry point is a factory of context managers: `factory(source, prover=...)` serves a reference
over `source` on a free loopback port and yields a handle with

- `url`: its base URL;
- `keys`: the keys of its ledger by kind (the `--keys` kinds), for a run to cover;
- `proofs`: `"real"` when its getValidityProof answers carry proofs of the light prover, `"placeholder"`
  when they carry well-formed points that prove nothing (no prover installed, or none asked for);
- `partial_trees`: the trees (base58) of which its ledger has not seen every leaf (a slice that starts
  mid-chain): its roots for them are no truth to compare a target's with;
- `batched_trees`: the batched (v2) state trees (base58) of its ledger.

`source` is a bundled scenario's name or a scenario file, a scenario document (a mapping: what the
mirror replays), or a `LedgerSource`. `api` names the contract it serves: the run's own, so that where the
second contract's practice differs from the spec's (the order of an owner's accounts) the reference serves
what the run judges. `prover` is `auto` (the light prover when it is installed),
`light` or `none`: only a reference that is itself the target needs real proofs; one that is only
compared with never starts a prover.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from importlib.metadata import entry_points
from typing import Any, Literal, Protocol

from csi_conformance.harness.core.errors import UsageError
from csi_conformance.ledger_ingest.ledger_source import LedgerSource

__all__ = ["ReferenceHandle", "bundled_reference"]

Prover = Literal["auto", "light", "none"]


class ReferenceHandle(Protocol):
    """What the entry point yields for a running reference."""

    url: str
    keys: Mapping[str, Sequence[str]]
    proofs: str
    partial_trees: Sequence[str]
    batched_trees: Sequence[str]


@contextlib.contextmanager
def bundled_reference(source: str | Mapping[str, Any] | LedgerSource = "default", *,
                      prover: Prover = "none", api: str | None = None) -> Iterator[ReferenceHandle]:
    """A reference over `source`, served on loopback while the block runs; `UsageError` when none is installed
    (a kit installed without its reference server), `ConfigError` when the source cannot be read."""
    found = [entry for entry in entry_points(group="csi.reference") if entry.name == "default"]
    if not found:
        raise UsageError("no bundled reference server is installed: give --target, and no --scenario or ledger")
    with found[0].load()(source, prover=prover, **({"api": api} if api else {})) as handle:
        yield handle
