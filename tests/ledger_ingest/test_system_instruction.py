"""The light system program's invoke formats read at their edges, from the fixtures' one mode-1
`invoke_cpi_with_read_only` (tests/ledger_ingest/test_instruction_accounts.py) re-encoded:

- the same outputs in the `invoke_cpi_with_account_info` format (no fixture has it) read as the same
  accounts, owned by the invoking program, and the transaction carrying it reads as the original;
- a CPI context account adds one system account; a context is set by either of its two flags;
- an instruction with outputs and nothing else carries state;
- the `invoke` formats' length prefix must state exactly the bytes that follow.
"""

from __future__ import annotations

import hashlib

import construct
import pytest
from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.ledger_ingest.events import EventError
from csi_conformance.ledger_ingest.recognize import LIGHT_SYSTEM_PROGRAM_ID
from csi_conformance.ledger_ingest.system import (
    _INVOKE_CPI,
    _WITH_ACCOUNT_INFO,
    _WITH_READ_ONLY,
    INVOKE_DISCRIMINATORS,
    parse_system_instruction,
)

from tests.ledger_ingest.test_batched_ingest import changes, inner_instructions, raw
from tests.ledger_ingest.test_batched_refusals import ADDRESS_TX
from tests.ledger_ingest.test_instruction_accounts import MODE_ONE

_DISCRIMINATOR = {name: hashlib.sha256(f"global:{name}".encode()).digest()[:8]
                  for name in ("invoke", "invoke_cpi", "invoke_cpi_with_read_only", "invoke_cpi_with_account_info")}
"""Anchor's discriminators, computed as Anchor does (the first 8 bytes of SHA-256 of `global:<name>`)."""


def test_the_four_discriminators_are_anchors() -> None:
    assert {key: name for name, key in _DISCRIMINATOR.items()} == INVOKE_DISCRIMINATORS


def _mode_one() -> tuple[dict, dict, construct.Container]:
    """The raw transaction, its system instruction (editable) and that instruction's body."""
    result = raw(*MODE_ONE)
    [item] = inner_instructions(result, LIGHT_SYSTEM_PROGRAM_ID)
    return result, item, _WITH_READ_ONLY.parse(b58decode(item["data"])[8:])


def _account_info(body: construct.Container) -> bytes:
    """The read-only body's outputs as `account_infos[].output` (the invoking program owns them)."""
    head = {name: body[name] for name in ("mode", "bump", "invoking_program_id", "compress_or_decompress_lamports",
                                          "is_compress", "with_cpi_context", "with_transaction_hash", "cpi_context",
                                          "proof", "new_address_params")}
    infos = [{"address": o.compressed_account.address, "input": None,
              "output": {"discriminator": o.compressed_account.data.discriminator,
                         "data_hash": o.compressed_account.data.data_hash,
                         "output_merkle_tree_index": o.merkle_tree_index, "lamports": o.compressed_account.lamports,
                         "data": o.compressed_account.data.data}} for o in body.outputs]
    built = _WITH_ACCOUNT_INFO.build({**head, "account_infos": infos, "read_only_addresses": [],
                                      "read_only_accounts": []})
    return _DISCRIMINATOR["invoke_cpi_with_account_info"] + built


def test_the_account_info_format_reads_as_the_same_outputs() -> None:
    result, item, body = _mode_one()
    original = parse_system_instruction(b58decode(item["data"]))
    assert all(output.owner == body.invoking_program_id for output in original.outputs)
    data = _account_info(body)
    read = parse_system_instruction(data)
    assert (read.kind, read.outputs, read.system_accounts, read.writes_cpi_context, read.carries_state) == (
        "invoke_cpi_with_account_info", original.outputs, 6, False, True)
    plain = changes(raw(*MODE_ONE))
    item["data"] = b58encode(data)
    assert changes(result).opened == plain.opened
    with pytest.raises(EventError, match=r"invoke_cpi_with_account_info takes .* bytes: 1 bytes are left over"):
        parse_system_instruction(data + b"\0")


@pytest.mark.parametrize(("lamports", "compress", "accounts"), [(0, False, 7), (5, True, 8), (5, False, 9)])
def test_a_cpi_context_account_adds_one_system_account(lamports: int, compress: bool, accounts: int) -> None:
    _, _, body = _mode_one()
    body.update({"compress_or_decompress_lamports": lamports, "is_compress": compress, "with_cpi_context": True})
    read = parse_system_instruction(_DISCRIMINATOR["invoke_cpi_with_read_only"] + _WITH_READ_ONLY.build(body))
    assert read.system_accounts == accounts
    assert not read.writes_cpi_context and read.carries_state  # no flag set: it executes the context


@pytest.mark.parametrize(("set_context", "first_set_context"), [(True, False), (False, True), (True, True)])
def test_either_flag_sets_a_cpi_context(set_context: bool, first_set_context: bool) -> None:
    _, _, body = _mode_one()
    body.with_cpi_context = True
    body.cpi_context.update({"set_context": set_context, "first_set_context": first_set_context})
    read = parse_system_instruction(_DISCRIMINATOR["invoke_cpi_with_read_only"] + _WITH_READ_ONLY.build(body))
    assert read.writes_cpi_context


def test_outputs_alone_carry_state_and_nothing_carries_none() -> None:
    _, _, body = _mode_one()
    assert not body.inputs and not body.new_address_params and body.outputs
    data = _DISCRIMINATOR["invoke_cpi_with_read_only"] + _WITH_READ_ONLY.build(body)
    assert parse_system_instruction(data).carries_state
    body.outputs = []
    data = _DISCRIMINATOR["invoke_cpi_with_read_only"] + _WITH_READ_ONLY.build(body)
    assert not parse_system_instruction(data).carries_state


def test_the_length_prefix_states_exactly_the_bytes_that_follow() -> None:
    [item] = inner_instructions(raw(*ADDRESS_TX), LIGHT_SYSTEM_PROGRAM_ID)
    data = b58decode(item["data"])
    assert _INVOKE_CPI.parse(data[12:]) and parse_system_instruction(data).kind == "invoke_cpi"
    length = len(data) - 12
    with pytest.raises(EventError, match=f"invoke_cpi states {length} bytes of data but {length - 1} follow"):
        parse_system_instruction(data[:-1])
    with pytest.raises(EventError, match="invoke_cpi instruction data has 11 bytes: no room for its length"):
        parse_system_instruction(data[:11])


def _invoke_cpi(**edits: object) -> bytes:
    """The fixture's `invoke_cpi` (new addresses and outputs) with `edits`, length-prefixed again."""
    [item] = inner_instructions(raw(*ADDRESS_TX), LIGHT_SYSTEM_PROGRAM_ID)
    body = _INVOKE_CPI.parse(b58decode(item["data"])[12:])
    body.update(edits)
    built = _INVOKE_CPI.build(body)
    return _DISCRIMINATOR["invoke_cpi"] + len(built).to_bytes(4, "little") + built


def test_an_invoke_cpi_carries_state_by_any_one_of_its_parts() -> None:
    executing = {"set_context": False, "first_set_context": False, "cpi_context_account_index": 0}
    parked = {**executing, "first_set_context": True}
    cases = {
        "outputs and new addresses": ({}, True, False),
        "outputs alone": ({"new_address_params": []}, True, False),
        "new addresses alone": ({"outputs": []}, True, False),
        "nothing": ({"outputs": [], "new_address_params": []}, False, False),
        "executes a context": ({"outputs": [], "new_address_params": [], "cpi_context": executing}, True, False),
        "parks in a context": ({"cpi_context": parked}, True, True),
    }
    for name, (edits, carries, writes_context) in cases.items():
        read = parse_system_instruction(_invoke_cpi(**edits))
        assert (read.carries_state, read.writes_cpi_context) == (carries, writes_context), name


def test_a_read_only_invoke_with_a_context_and_nothing_else_executes_it_unless_it_sets_it() -> None:
    _, _, body = _mode_one()
    body.update({"outputs": [], "with_cpi_context": True})
    data = _DISCRIMINATOR["invoke_cpi_with_read_only"] + _WITH_READ_ONLY.build(body)
    assert parse_system_instruction(data).carries_state
    body.cpi_context.update({"set_context": True})
    data = _DISCRIMINATOR["invoke_cpi_with_read_only"] + _WITH_READ_ONLY.build(body)
    read = parse_system_instruction(data)
    assert read.writes_cpi_context and not read.carries_state


def test_another_discriminator_is_no_invoke() -> None:
    data = _invoke_cpi()
    with pytest.raises(EventError, match=rf"discriminator {bytes(8).hex()} is not an invoke"):
        parse_system_instruction(bytes(8) + data[8:])
