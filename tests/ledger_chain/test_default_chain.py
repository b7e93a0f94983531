"""The default of `csi chain generate`: today's programs (0.28.3) with the June 2025 keys and the kit setup's batch
keys, the forester in the chain.

Seed 4 draws, within 40 operations, every kind of today's chain, the forester's batch appends and nullifies, and
v2 transfers: accounts the forester appended, spent by root with a real v2 inclusion proof that today's system
program verifies. The blocks say so in the programs' own log lines; the chain replays, and leaves accounts both
queued and appended in the batched trees. Needs the 0.27.0 prover (`make test` installs it): its proofs, and the
kit setup made once per machine, are cached after the first run.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
import yaml
from csi_conformance.ledger_chain import ChainJudge, Generated, generate
from csi_conformance.ledger_chain.generation import TODAY, programs_for
from csi_conformance.ledger_chain.kinds_0_28 import TODAY_KINDS
from csi_conformance.ledger_chain.proofs import ChainProver

pytestmark = pytest.mark.chain
SEED, OPS = 4, 40
BATCHES = ("batch-append", "batch-nullify")
INSTRUCTIONS = {"Approve": "approve-by-index", "Revoke": "revoke-by-index", "Freeze": "freeze-by-index",
                "Thaw": "thaw-by-index", "Burn": "burn-by-index", "BatchAppend": "batch-append",
                "BatchNullify": "batch-nullify"}
"""The program's log line `Instruction: X` -> the kind whose transaction writes it."""


@pytest.fixture(scope="module")
def default_chain(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate(OPS, SEED, tmp_path_factory.mktemp("default") / "chain", prover=ChainProver(),
                    installation=programs_for(TODAY))


def _manifest(folder: Path) -> dict:
    return yaml.safe_load((folder / "chain.yaml").read_text(encoding="utf-8"))


def _logged(folder: Path) -> Counter[str]:
    """How many successful transactions log `Instruction: X`, for each X of `INSTRUCTIONS`."""
    found: Counter[str] = Counter()
    for block in folder.iterdir():
        if not block.name.isdigit():
            continue
        for transaction in json.loads(block.read_text(encoding="utf-8"))["transactions"]:
            if transaction["meta"]["err"] is None:
                logs = transaction["meta"]["logMessages"]
                found.update(x for x in INSTRUCTIONS if f"Program log: Instruction: {x}" in logs)
    return found


def test_every_kind_and_the_forester_are_drawn(default_chain: Generated) -> None:
    manifest = _manifest(default_chain.folder)
    assert manifest["programs"] == ("today's programs (0.28.3) with the June 2025 verifying keys + batch keys of "
                                    "the kit setup")
    assert set(manifest["kinds"]) == set(TODAY_KINDS) | set(BATCHES)
    assert manifest["kinds"]["v2-transfer"] >= 1


def test_the_programs_log_every_token_instruction_and_both_batches(default_chain: Generated) -> None:
    logged = _logged(default_chain.folder)
    kinds = _manifest(default_chain.folder)["kinds"]
    assert {x: logged[x] for x in INSTRUCTIONS} == {x: kinds[kind] for x, kind in INSTRUCTIONS.items()}


def test_the_chain_replays_with_accounts_queued_and_appended(default_chain: Generated) -> None:
    judge = ChainJudge.load(default_chain.folder)
    assert any(item.spendable and not item.spent for item in judge.queued_accounts())
    assert judge.appended_groups()
