"""The second contract, photon-366a15b: what Photon serves at 366a15b, on top of the spec's contract, which stays
as it is."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from csi_conformance.groundwork.errors import ContractError
from csi_conformance.schema import SCHEMA_DIR, Contract
from csi_conformance.schema.export import render

PHOTON = "photon-366a15b"
SPEC_METHODS = 19
SPEC_CLAUSES = 118
UNLISTED_AT_050 = {"getCompressedAccountProof", "getMultipleCompressedAccountProofs", "getMultipleCompressedAccounts",
                   "getCompressionSignaturesForAccount", "getCompressedMintTokenHolders",
                   "getCompressedTokenBalancesByOwnerV2", "getMultipleNewAddressProofsV2", "liveness", "readiness"}
V2_AND_QUEUES = {"getCompressedAccountV2", "getMultipleCompressedAccountsV2", "getCompressedAccountsByOwnerV2",
                 "getCompressedTokenAccountsByOwnerV2", "getCompressedTokenAccountsByDelegateV2",
                 "getCompressedAccountProofV2", "getMultipleCompressedAccountProofsV2",
                 "getTransactionWithCompressionInfoV2", "getValidityProofV2", "getQueueElements", "getQueueInfo"}
TREE = "bmt1LryLZUMmF7ZtqESaw7wifBXLfXHQYoE4GAmrahU"
QUEUE = "oq1na8gojfdUhsfCpyjNt6h4JaDWtHf1yQj4koBWfto"
HASH = "2Wu2sJdGyDF84RW4zkzxEVCEDD8ZMJzuj4LVZQKhGCs3"


@pytest.fixture(scope="module")
def photon() -> Contract:
    return Contract.for_api(PHOTON)


def test_it_has_the_39_methods_photon_registers(photon: Contract, contract: Contract) -> None:
    assert len(photon.methods) == 39
    assert set(photon.own_methods()) == UNLISTED_AT_050 | V2_AND_QUEUES
    assert set(photon.methods) - set(photon.own_methods()) == set(contract.methods)
    assert (photon.version, photon.extends) == (PHOTON, "0.50.0")
    assert photon.manifest["source"] == {"repo": "helius-labs/photon", "commit": "366a15b",
                                         "openapi": "src/openapi/specs/api.yaml"}


def test_every_own_clause_rests_on_practice_and_names_its_source(photon: Contract, contract: Contract) -> None:
    own = {cid: clause for cid, clause in photon.clauses.items() if cid not in contract.clauses}
    assert len(own) == len(photon.clauses) - SPEC_CLAUSES > 20
    assert {clause.basis for clause in own.values()} == {"observed-practice"}
    for clause in own.values():
        assert clause.source and ("@366a15b" in clause.source or "stateless.js" in clause.source), clause.id
    assert all(clause.basis is None for clause in contract.clauses.values())


def test_every_method_cites_an_own_clause_and_every_example_validates(photon: Contract) -> None:
    checked = 0
    for name in photon.own_methods():
        method = photon.method(name)
        assert photon.clause(method.clause).basis == "observed-practice"
        assert method.examples, name
        for example in method.examples:
            if method.params_kind != "none":
                assert photon.params_validator(name).violations(example.params) == [], (name, example.name)
            assert photon.result_validator(name).violations(example.result) == [], (name, example.name)
            checked += 1
    assert checked == sum(len(photon.method(name).examples) for name in photon.own_methods()) >= 23


def _account_v2(**changes: object) -> dict:
    account = {"hash": HASH, "address": None, "data": None, "owner": "11111111111111111111111111111111",
               "lamports": 5000, "leafIndex": 7, "seq": None, "slotCreated": 1, "proveByIndex": True,
               "merkleContext": {"treeType": 3, "tree": TREE, "queue": QUEUE, "cpiContext": None,
                                 "nextTreeContext": None}}
    return {**account, **changes}


def test_the_v2_shapes_are_photons(photon: Contract) -> None:
    """Member names exactly as Photon's serde writes them; a V1 account is no AccountV2."""
    answer = lambda value: {"context": {"slot": 5}, "value": value}  # noqa: E731
    valid = photon.result_validator("getCompressedAccountV2")
    assert valid.is_valid(answer(_account_v2()))
    assert valid.is_valid(answer(None))
    # Option members may be left out (nullable and optional); the required ones may not
    slim = {k: v for k, v in _account_v2().items() if k not in ("address", "data", "seq")}
    assert valid.is_valid(answer(slim))
    assert not valid.is_valid(answer({k: v for k, v in _account_v2().items() if k != "proveByIndex"}))
    assert not valid.is_valid(answer(_account_v2(merkleContext={"tree": TREE, "queue": QUEUE})))  # no treeType
    assert not valid.is_valid(answer(_account_v2(prove_by_index=True, proveByIndex="yes")))
    assert not valid.is_valid(answer(_account_v2(leafIndex=7.0)))
    proof = photon.result_validator("getValidityProofV2")
    empty = {"compressedProof": None, "accounts": [], "addresses": []}
    assert proof.is_valid(answer(empty))
    assert not proof.is_valid(answer({**empty, "rootIndices": []} | {"accounts": [{"hash": HASH}]}))
    queue_info = photon.result_validator("getQueueInfo")
    assert queue_info.is_valid({"queues": [], "slot": 9})
    assert not queue_info.is_valid({"context": {"slot": 9}, "value": {"queues": []}})


def test_params_are_read_as_photon_reads_them(photon: Contract) -> None:
    by_hash = photon.params_validator("getCompressedAccountV2")
    assert by_hash.is_valid({"hash": HASH})
    assert not by_hash.is_valid({})  # photon-C1: an address or a hash
    assert not by_hash.is_valid({"hash": HASH, "extra": 1})  # photon-R7: unknown members refused
    many = photon.params_validator("getMultipleCompressedAccountProofsV2")
    assert many.is_valid([HASH] * 1000)
    assert not many.is_valid([HASH] * 1001)  # photon-L2
    holders = photon.params_validator("getCompressedMintTokenHolders")
    assert holders.is_valid({"mint": TREE, "limit": 1000})
    assert not holders.is_valid({"mint": TREE, "limit": 1001})  # photon-L1
    queues = photon.params_validator("getQueueElements")
    assert queues.is_valid({"tree": TREE, "outputQueue": {"limit": 10}})
    assert not queues.is_valid({"tree": TREE})  # photon-C5
    assert not queues.is_valid({"tree": TREE, "outputQueue": {"limit": 30001}})  # photon-L5


def test_the_spec_contract_is_unchanged(contract: Contract) -> None:
    assert len(contract.methods) == SPEC_METHODS
    assert len(contract.clauses) == SPEC_CLAUSES
    assert (contract.version, contract.extends, contract.own_methods()) == ("0.50.0", None, tuple(contract.methods))
    assert Contract.for_api("0.50.0") is Contract.default()
    assert render(contract, "openapi") == (SCHEMA_DIR / "dist" / "openapi.json").read_text(encoding="utf-8")


def test_an_unknown_api_names_the_known_ones() -> None:
    with pytest.raises(ContractError, match=r"unknown API 'photon-000'.*0\.50\.0, photon-366a15b"):
        Contract.for_api("photon-000")


# -- the loader keeps an extending contract honest -----------------------------------------------------------

def _copy(tmp_path: Path) -> Path:
    shutil.copytree(SCHEMA_DIR, tmp_path / "schema", ignore=shutil.ignore_patterns("dist", "*.py", "__pycache__"))
    return tmp_path / "schema" / PHOTON


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_copy_loads_with_its_base(tmp_path: Path) -> None:
    assert len(Contract(_copy(tmp_path)).methods) == 39


@pytest.mark.parametrize(("file", "old", "new", "message"), [
    ("clauses.yaml", "  basis: observed-practice\n", "", r"clause 'photon-M20' needs basis"),
    ("clauses.yaml", "  basis: observed-practice\n", "  basis: hearsay\n",
     r"needs basis \(one of \['observed-practice'\]\)"),
    ("api.yaml", 'api: "0.50.0"', 'api: "0.49.0"', r"extends '0.49.0', but .* holds '0.50.0'"),
    ("api.yaml", "name: photon-366a15b", "name: photon-1", r"name 'photon-1' differs from the folder's name"),
    ("methods/liveness.yaml", "clause: photon-M27", "clause: photon-M99", r"unknown clause id 'photon-M99'"),
])
def test_a_broken_extension_is_refused(tmp_path: Path, file: str, old: str, new: str, message: str) -> None:
    root = _copy(tmp_path)
    _edit(root / file, old, new)
    with pytest.raises(ContractError, match=message):
        Contract(root)


def test_an_extension_may_not_restate_what_it_inherits(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    shutil.copy(SCHEMA_DIR / "methods" / "getIndexerSlot.yaml", root / "methods" / "getIndexerSlot.yaml")
    with pytest.raises(ContractError, match="'getIndexerSlot' is already in the contract this one extends"):
        Contract(root)
