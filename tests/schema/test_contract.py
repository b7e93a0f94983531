"""The contract holds every method of §4.2 with its rules, each traced to a clause."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from csi_conformance.groundwork.errors import ContractError
from csi_conformance.schema import SCHEMA_DIR, Contract

SPEC_TABLE = [  # §4.2, in its order
    "getCompressedAccount", "getCompressedAccountBalance", "getCompressedBalance", "getCompressedBalanceByOwner",
    "getCompressedAccountsByOwner", "getCompressedTokenAccountsByOwner", "getCompressedTokenAccountsByDelegate",
    "getCompressedTokenBalancesByOwner", "getCompressedTokenAccountBalance", "getTransactionWithCompressionInfo",
    "getCompressionSignaturesForAddress", "getCompressionSignaturesForOwner", "getCompressionSignaturesForTokenOwner",
    "getLatestCompressionSignatures", "getLatestNonVotingSignatures", "getMultipleNewAddressProofs",
    "getValidityProof", "getIndexerHealth", "getIndexerSlot",
]


def test_every_method_of_the_spec_table(contract: Contract) -> None:
    assert [m.name for m in sorted(contract.methods.values(), key=lambda m: m.row)] == SPEC_TABLE
    for method in contract.methods.values():
        assert method.clause == f"4.2-M{method.row}"


def test_params_kinds(contract: Contract) -> None:
    kinds = {m.name: m.params_kind for m in contract.methods.values()}
    assert kinds.pop("getMultipleNewAddressProofs") == "array"
    assert kinds.pop("getIndexerHealth") == kinds.pop("getIndexerSlot") == "none"
    assert set(kinds.values()) == {"object"}


def test_alias_shares_params_and_result(contract: Contract) -> None:
    alias, target = contract.method("getCompressedBalance"), contract.method("getCompressedAccountBalance")
    assert alias.alias_of == target.name and alias.canonical == target.name
    assert alias.param_names == target.param_names and alias.result_schema == target.result_schema
    assert alias.response_schema == target.response_schema and alias.observed == target.observed


def test_only_get_compressed_account_balance_rejects_unknown_members(contract: Contract) -> None:
    """§4.1 states the rule for getCompressedAccountBalance alone (4.1-R10); that its alias rejects them
    too is observed practice (one method under two names), recorded as such, not a spec rule."""
    params = {"hash": "2Wu2sJdGyDF84RW4zkzxEVCEDD8ZMJzuj4LVZQKhGCs3", "commitment": "final"}
    assert not contract.params_validator("getCompressedAccountBalance").is_valid(params)
    assert contract.params_validator("getCompressedBalance").violations(params) == []
    rules = {name: {e.kind: e for e in contract.method(name).errors}
             for name in ("getCompressedAccountBalance", "getCompressedBalance")}
    assert rules["getCompressedAccountBalance"]["unknown-members-rejected"].source == "spec"
    assert rules["getCompressedBalance"]["unknown-members-rejected"].source == "observed"
    assert "4.1-R10" not in rules["getCompressedBalance"]["unknown-members-rejected"].clauses
    assert rules["getCompressedBalance"]["exactly-one-of"] == rules["getCompressedAccountBalance"]["exactly-one-of"]


def test_pagination_facts(contract: Contract) -> None:
    paged = {m.name: m.pagination for m in contract.methods.values() if m.paginated}
    assert set(paged) == set(SPEC_TABLE[4:8]) | set(SPEC_TABLE[10:15])
    assert paged["getCompressedTokenBalancesByOwner"].items == "token_balances"
    stated = {name for name, p in paged.items() if p.null_cursor_at_end_stated}
    assert stated == {"getCompressedAccountsByOwner", "getCompressedTokenAccountsByOwner"}
    assert not paged["getLatestNonVotingSignatures"].cursor_shown


def test_limits_of_section_8(contract: Contract) -> None:
    proof = contract.method("getValidityProof")
    hashes = proof.limit_for("hashes")
    assert hashes.counts == (1, 2, 3, 4, 8) and "8-L1" in hashes.clauses
    assert [n for n in range(10) if hashes.allows(n)] == [1, 2, 3, 4, 8]
    assert hashes.edges() == ([1, 2, 3, 4, 8], [0, 5, 7, 9])
    assert proof.limit_for("newAddressesWithTrees").counts == (1, 2)
    assert [d.param for d in proof.deprecated] == ["newAddresses"]


def test_error_conditions_of_section_7(contract: Contract) -> None:
    kinds = {(m.name, e.kind): e for m in contract.methods.values() for e in m.errors}
    one_of = kinds[("getCompressedAccount", "exactly-one-of")]
    assert one_of.members == ("address", "hash") and one_of.source == "spec" and one_of.clause == "7-C1"
    assert kinds[("getValidityProof", "account-consumed")].source == "spec"
    assert kinds[("getIndexerHealth", "stale")].clause == "7-C3"
    assert contract.method("getCompressedAccount").not_found == ("7-N1", None)


def test_clause_ids_are_stable_and_complete(contract: Contract) -> None:
    for clause_id, clause in contract.clauses.items():
        spec_id = re.fullmatch(r"\d+(\.\d+)?-[RFMNPCLS]\d+", clause_id)
        assert spec_id or re.fullmatch(r"ledger-[HTPB]\d+", clause_id), clause_id
        assert clause_id.startswith(clause.section + "-")
    assert {"4.3-R1", "4.3-R2", "7-C1", "7-C2", "7-C3", "8-L1", "8-L2"} <= set(contract.clauses)


def _copy_sources(tmp_path: Path) -> Path:
    target = tmp_path / "schema"
    shutil.copytree(SCHEMA_DIR, target, ignore=shutil.ignore_patterns("dist", "*.py", "__pycache__"))
    return target


def test_unknown_clause_id_is_rejected(tmp_path: Path) -> None:
    root = _copy_sources(tmp_path)
    path = root / "methods" / "getIndexerSlot.yaml"
    path.write_text(path.read_text().replace("clause: 4.2-M19", "clause: 4.2-M99"))
    with pytest.raises(ContractError, match=r"getIndexerSlot.yaml: unknown clause id '4.2-M99'"):
        Contract(root)


def test_dangling_ref_is_rejected(tmp_path: Path) -> None:
    root = _copy_sources(tmp_path)
    path = root / "methods" / "getIndexerSlot.yaml"
    path.write_text(path.read_text().replace("UnsignedInteger", "UnsignedInt"))
    with pytest.raises(ContractError, match="UnsignedInt' names no definition"):
        Contract(root)


def test_malformed_method_file_names_the_file(tmp_path: Path) -> None:
    root = _copy_sources(tmp_path)
    path = root / "methods" / "getIndexerSlot.yaml"
    path.write_text(path.read_text() + "unexpected: 1\n")
    with pytest.raises(ContractError, match=r"getIndexerSlot\.yaml"):
        Contract(root)


# -- which keys fill which members: the contract's, so a method added to the spec needs no code ----------

KEY_TYPES = {"#/$defs/Pubkey", "#/$defs/Hash", "#/$defs/Signature", "#/$defs/OptionalPubkey", "#/$defs/OptionalHash"}


def _is_key(schema: dict) -> bool:
    return schema.get("$ref") in KEY_TYPES or (schema.get("type") == "array" and _is_key(schema.get("items", {})))


def test_every_key_member_says_which_keys_fill_it(contract: Contract) -> None:
    """A member typed as a key (or a list of keys) is filled from discovered keys; the contract says of which
    kind, and a method that names nothing required is asked by one of them alone."""
    unnamed = {(method.name, name) for method in contract.methods.values() if method.params_kind == "object"
               for name, schema in method.params_schema.get("properties", {}).items()
               if _is_key(schema) and name not in method.keys and name not in {d.param for d in method.deprecated}}
    assert unnamed == set()
    account = contract.method("getCompressedAccount")
    assert account.asked_by == (("address",), ("hash",))
    assert contract.method("getValidityProof").asked_by == (("hashes",),)
    assert contract.method("getValidityProof").takes_list("hashes")
    assert contract.method("getCompressedTokenAccountsByOwner").asked_by == (("owner",),)
    assert contract.method("getCompressedTokenAccountsByOwner").key_kind("owner") == "token_owners"
    assert contract.method("getLatestCompressionSignatures").asked_by == ()


@pytest.mark.parametrize(("keys", "message"), [("{owners: owners}", r"params.keys names \['owners'\]"),
                                               ("{owner: wallets}", "getCompressedAccountsByOwner")])
def test_a_key_names_a_member_and_a_kind_discovery_finds(tmp_path: Path, keys: str, message: str) -> None:
    root = _copy_sources(tmp_path)
    path = root / "methods" / "getCompressedAccountsByOwner.yaml"
    path.write_text(path.read_text().replace("keys: {owner: owners}", f"keys: {keys}"))
    with pytest.raises(ContractError, match=message):
        Contract(root)
