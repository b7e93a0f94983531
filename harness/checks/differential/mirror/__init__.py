"""Mirror differential: replay what discovery saw of a target as a scenario for a fresh reference.

A live target holds its own data, so there is no scenario to compare it with. Discovery saw part
of it: transactions with the accounts they opened and closed, the live accounts of some owners,
the live token accounts of some token owners. `build_mirror` writes that as a scenario document
(reference_server/scenarios/README.md) that the bundled reference serves through the `csi.reference` entry
point, so every value the reference derives (balances, token balances, filters, slices, pages,
signature lists) can be set against what the target answers.

The mirror sees only part of the target's trees, so its accounts sit at other leaf indices and
their hashes differ: `MirrorBuild.to_target` maps each mirror hash to the target hash it stands
for (the scenario label is the target hash). An account whose opening transaction discovery did
not see is opened by an invented transaction at its `slotCreated`; an account discovery saw
opened but no longer listed by an owner whose whole list it saw is closed by an invented
transaction at the end. Invented transactions are never compared. What the mirror knows only in
part is left out of the comparisons: see `MirrorBuild.owners`, `token_owners`, `replayed`.
"""

from csi_conformance.harness.checks.differential.mirror.build import (
    MIRROR_SEED,
    MirrorBuild,
    build_mirror,
    synthetic_signature,
)
from csi_conformance.harness.checks.differential.mirror.server import MirrorSession, mirror_server

__all__ = ["MIRROR_SEED", "MirrorBuild", "MirrorSession", "build_mirror", "mirror_server", "synthetic_signature"]
