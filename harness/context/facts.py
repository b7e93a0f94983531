"""The run's facts: what a run knows before it asks anything, fixed for the whole run.

Whoever starts a run builds them once, from its options and what the references started for it
hold, and nothing patches them afterwards: a check reads them, none writes them. The keys a run covers
grow as discovery finds them, so they are no fact: the context holds them. A new mode of the run is one
field here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from csi_conformance.harness.core.profile import Profile
from csi_conformance.schema import Contract, Readings

if TYPE_CHECKING:  # replaying a chain needs LiteSVM: imported where a run has one, not by every run
    from csi_conformance.ledger_chain import ChainJudge

__all__ = ["RunFacts"]


@dataclass(frozen=True, kw_only=True)
class RunFacts:
    """The contract, the profile and the run's modes; frozen (assigning raises)."""

    profile: Profile
    contract: Contract = field(default_factory=Contract.default)
    seed: int = 0
    max_requests: int | None = None
    """The request budget (`--max-requests`); None asks without one."""
    scenario: str | None = None
    """The scenario target and reference both hold (`--scenario`), or `ledger …`: its name or file, as given."""
    cases: Sequence[Any] | None = None
    """Golden cases to replay (`cases.Case`); None means those of `scenario` in the cases folder."""
    placeholder_proofs: bool = False
    """The target is the bundled reference without a prover: its compressedProof values are placeholders, reported
    UNVERIFIED with how to get real ones, never judged as a vendor's would be."""
    chain: ChainJudge | None = None
    """The chain the target indexed (`--chain`), replayed into LiteSVM: the onchain checks judge its proofs there."""
    reference_partial_trees: frozenset[str] = frozenset()
    """Trees (base58) of which the reference saw only part (a ledger slice from mid-chain): its roots, root indices
    and proof paths for them are no truth, so no comparison of them is made (and the reports say so)."""
    batched_trees: frozenset[str] | None = None
    """The batched (v2) state trees of the ledger compared over; None when no ledger is known (an account's hash
    may then follow either tree kind's layout)."""

    @cached_property
    def readings(self) -> Readings:
        """The readings of the contract's open points the profile accepts (worked out once)."""
        return self.profile.readings(self.contract)
