"""Today's programs (0.28.3) with Light's June 2025 verifying keys: the patcher, the install, and the one thing
the patch is for: a v1 spend with a real proof of the installed prover, which the published programs refuse
(6043), is accepted.

The patcher is tried on synthetic binaries (a key found once, absent, twice, of another shape) and on the
installed 0.28.3 system program; the install is checked byte for byte (a byte altered in the base refused,
a patched file that is not the manifest's refused)."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest
from csi_conformance.ledger_chain import Generated, load_chain, patched_programs
from csi_conformance.ledger_chain.batched_ops import PROOF_VERIFICATION_FAILED, RefusedV1Spend
from csi_conformance.ledger_chain.chain import Chain
from csi_conformance.ledger_chain.model import LiveAccount
from csi_conformance.ledger_chain.operations import SolInvoke
from csi_conformance.ledger_chain.patched_programs import (
    PatchedPrograms,
    find_patched,
    install_patched,
    patched_bytes,
    patched_manifest,
)
from csi_conformance.ledger_chain.programs import STATE_TREE
from csi_conformance.ledger_chain.programs_0_28 import TodayPrograms
from csi_conformance.ledger_chain.proofs import ChainProver
from csi_conformance.ledger_chain.system import Output
from csi_conformance.ledger_chain.vk_patch import head_block, k_block, replace_verifying_keys
from csi_conformance.ledger_proofs.npm_package import MARKER, ProverInstallError
from csi_conformance.ledger_proofs.verify import verifying_key

OLD, NEW = verifying_key("inclusion_26_1", "2025-10"), verifying_key("inclusion_26_1", "0.18.0")
SYSTEM = "programs/light_system_program_pinocchio.so"


def program(*blocks: bytes) -> bytes:
    """A stand-in binary: the blocks, each followed by bytes that are no key."""
    return b"\x7fELF" + b"".join(block + bytes(range(16)) for block in blocks)


# ----------------------------------------------------------------------------- the patcher


def test_a_key_found_once_is_replaced_in_place() -> None:
    data = program(head_block(OLD), k_block(OLD))
    out = replace_verifying_keys(data, [(OLD, NEW)])
    assert out == program(head_block(NEW), k_block(NEW)) and len(out) == len(data)
    assert len(head_block(OLD)) == 448 and len(k_block(OLD)) == 64 * (OLD.public_inputs + 1)


@pytest.mark.parametrize(("blocks", "says"), [
    ((k_block(OLD),), "inclusion_26_1: its α‖β‖γ‖δ is not in the program"),
    ((head_block(OLD),), "inclusion_26_1: its K array is not in the program"),
    ((head_block(OLD), head_block(OLD), k_block(OLD)), "inclusion_26_1: its α‖β‖γ‖δ occurs more than once"),
    ((head_block(OLD), k_block(OLD), k_block(OLD)), "inclusion_26_1: its K array occurs more than once"),
], ids=["head-absent", "k-absent", "head-twice", "k-twice"])
def test_a_key_absent_or_found_twice_is_refused_by_name(blocks: tuple[bytes, ...], says: str) -> None:
    with pytest.raises(ValueError, match=says):
        replace_verifying_keys(program(*blocks), [(OLD, NEW)])


def test_a_key_of_another_shape_or_named_twice_is_refused() -> None:
    data = program(head_block(OLD), k_block(OLD))
    with pytest.raises(ValueError, match="inclusion_26_1: the old key takes 2 public inputs, the new key "
                                         "inclusion_26_2 4"):
        replace_verifying_keys(data, [(OLD, verifying_key("inclusion_26_2", "0.18.0"))])
    with pytest.raises(ValueError, match="overlaps the block of inclusion_26_1"):
        replace_verifying_keys(data, [(OLD, NEW), (OLD, NEW)])


def test_the_installed_system_program_is_patched_as_the_manifest_says(published_programs: TodayPrograms) -> None:
    original = (published_programs.folder / SYSTEM).read_bytes()
    patched = patched_bytes(original)
    manifest = patched_manifest()
    assert (len(patched), hashlib.sha256(patched).hexdigest()) == (manifest["patched"]["size"],
                                                                   manifest["patched"]["sha256"])
    assert hashlib.sha256(original).hexdigest() == manifest["published"]["sha256"]
    assert len(manifest["replaced"]) == 41  # v1 15, v2 26: every circuit of the June 2025 setup
    for item in manifest["replaced"]:
        june, october = verifying_key(item["circuit"], item["to"]), verifying_key(item["circuit"], item["from"])
        assert patched.count(head_block(june)) == patched.count(k_block(june)) == 1, item
        assert head_block(october) not in patched, item
    with pytest.raises(ValueError, match="is not in the program"):
        patched_bytes(patched)  # the October keys are gone: nothing is patched twice


# ----------------------------------------------------------------------------- the install


def test_the_install_is_checked_byte_for_byte(published_programs: TodayPrograms, tmp_path: Path) -> None:
    made = install_patched(tmp_path / "set", base=published_programs)
    assert made.check() == [] and made.label == "today's programs (0.28.3) with the June 2025 verifying keys"
    changed = [p.name for p in (tmp_path / "set" / "programs").iterdir()
               if p.read_bytes() != (published_programs.programs_dir / p.name).read_bytes()]
    assert changed == ["light_system_program_pinocchio.so"]
    assert find_patched(tmp_path / "set") == made
    marker = tmp_path / "set" / MARKER
    marker.write_text(marker.read_text(encoding="utf-8").replace(patched_manifest()["patched"]["sha256"], "0" * 64),
                      encoding="utf-8")
    assert find_patched(tmp_path / "set") is None  # made for another manifest: made again
    path = tmp_path / "set" / SYSTEM
    data = bytearray(path.read_bytes())
    data[1000] ^= 1
    path.write_bytes(bytes(data))
    assert made.check() == [f"{SYSTEM}: SHA-256 differs from the published file"]


def test_an_altered_base_is_refused(published_programs: TodayPrograms, tmp_path: Path) -> None:
    base = tmp_path / "base"
    shutil.copytree(published_programs.folder, base)
    path = base / "programs/account_compression.so"
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(ProverInstallError, match=re.escape("account_compression.so: SHA-256 differs")):
        install_patched(tmp_path / "set", base=TodayPrograms(base))
    assert not (tmp_path / "set").exists()


def test_a_patch_that_comes_out_otherwise_is_refused(published_programs: TodayPrograms, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    manifest = patched_manifest()
    wrong = {**manifest, "patched": {**manifest["patched"], "sha256": "0" * 64}}
    monkeypatch.setattr(patched_programs, "patched_manifest", lambda: wrong)
    with pytest.raises(ProverInstallError, match=re.escape("differ from programs-0.28.3-june-2025-keys.json")):
        install_patched(tmp_path / "set", base=published_programs)
    assert not (tmp_path / "set").exists()


# ----------------------------------------------------------------------------- what the patch is for


def _v1_account(chain: Chain) -> LiveAccount:
    user = chain.keys.users[1]
    chain.run(SolInvoke("compress-sol", 1, outputs=(Output(user, 10**6, STATE_TREE),), compress=10**6))
    (account,) = chain.model.live.values()
    return account


def _spend(chain: Chain, account: LiveAccount) -> SolInvoke:
    return SolInvoke("v1-transfer", 1, (account.hash,), (Output(chain.keys.users[2], account.lamports, STATE_TREE),))


def test_a_v1_spend_with_a_real_proof_is_accepted_only_with_the_june_keys(today_programs: TodayPrograms,
                                                                        published_programs: TodayPrograms) -> None:
    prover = ChainProver()
    patched = Chain(0, today_programs, prover)
    account = _v1_account(patched)
    accepted = patched.run(_spend(patched, account))
    assert accepted.err is None and account.hash in patched.model.spent
    published = Chain(0, published_programs, prover)
    assert _v1_account(published) == account  # the same account, so the same proof (from the cache)
    refused = published.run(RefusedV1Spend(_spend(published, account)))
    assert refused.custom_code == PROOF_VERIFICATION_FAILED == 6043
    assert account.hash in published.model.live


def test_the_default_chain_replays_on_the_programs_its_manifest_names(today_generated: Generated) -> None:
    """`programs:` names the patched set, so a replay (as `--chain` does it) loads it; the new v1 addresses the
    chain made are learnt from its transactions, in today's instruction layout."""
    chain = load_chain(today_generated.folder)
    assert isinstance(chain.installation, PatchedPrograms)
    made = {int.from_bytes(a.address, "big") for a in chain.model.live.values() if a.address is not None}
    assert made and set(chain.model.queued_addresses) == made
