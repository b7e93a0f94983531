"""What cannot be read from today's ledger is refused, naming the transaction: real batched-tree
transactions of `fixtures/photon-head/` with their `meta` edited (the signed bytes, and so the
signature, stay the real ones). What carries no state is not an error."""

from __future__ import annotations

import json

import pytest
from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.ledger_ingest import IngestError
from csi_conformance.ledger_ingest.queues import INSERT_INTO_QUEUES
from csi_conformance.ledger_ingest.recognize import (
    ACCOUNT_COMPRESSION_PROGRAM_ID,
    LIGHT_SYSTEM_PROGRAM_ID,
    NOOP_PROGRAM_ID,
)
from csi_conformance.ledger_ingest.system import _INVOKE_CPI

from tests.ledger_ingest.test_batched_ingest import changes, inner_instructions, raw

TRANSFER = ("batched_tree_transactions",
            "1Ws3mCvi3peBn1BHkfs4zjdnddFcpyE7kPF35YNMkzDW8UXEbTh4SiHgPo7phVjcDY1wc1G5RUym2b4JntKG66U")
ADDRESS_TX = ("batched_address_transactions",
              "2tAThS9uuerGLc6SuNAJmjMQy52eQvbgete32WkmTBq69SePyXn1ohNM3TUdFYLcZQxrqditCLMSxcMtAwj82SWS")


def _insertion(result: dict) -> dict:
    [item] = [i for i in inner_instructions(result, ACCOUNT_COMPRESSION_PROGRAM_ID)
              if b58decode(i["data"])[:8] == INSERT_INTO_QUEUES]
    return item


def test_an_insert_into_queues_of_an_unknown_layout_names_the_transaction() -> None:
    result = raw(*TRANSFER)
    item = _insertion(result)
    data = bytearray(b58decode(item["data"]))
    data[12 + 6 + 32] += 1  # one more leaf than the instruction holds
    item["data"] = b58encode(bytes(data))
    with pytest.raises(IngestError) as caught:
        changes(result)
    assert TRANSFER[1] in str(caught.value) and "insert_into_queues" in str(caught.value)


def test_a_system_instruction_of_an_unknown_layout_names_the_transaction() -> None:
    result = raw(*ADDRESS_TX)
    [item] = inner_instructions(result, LIGHT_SYSTEM_PROGRAM_ID)
    data = b58decode(item["data"]) + b"\0"
    item["data"] = b58encode(data)
    with pytest.raises(IngestError, match="invoke_cpi states 363 bytes of data but 364 follow") as caught:
        changes(result)
    assert ADDRESS_TX[1] in str(caught.value)
    item["data"] = b58encode(data[:8] + (len(data) - 12).to_bytes(4, "little") + data[12:])
    with pytest.raises(IngestError, match="invoke_cpi takes 363 of its 364 bytes: 1 bytes are left over") as caught:
        changes(result)
    assert ADDRESS_TX[1] in str(caught.value)


def test_an_unknown_merkle_tree_event_names_the_transaction() -> None:
    folder, signature = "batched_tree_transactions", (
        "vmAkSPuvbbzgU5iXj4zYyBKcU2Q7KMUdvyvNcsgbEWXHDuGedjUFSfyhKERzsmWp57LcjrRdjU2aZvzsBAEhqce")
    result = raw(folder, signature)
    [event] = inner_instructions(result, NOOP_PROGRAM_ID)
    event["data"] = b58encode(b"\x09" + b58decode(event["data"])[1:])
    with pytest.raises(IngestError, match="unknown variant tag 9") as caught:
        changes(result)
    assert signature in str(caught.value)


def test_a_system_invoke_whose_state_cannot_be_read_is_refused() -> None:
    """Without its insert_into_queues, the compress-and-transfer still ran the system program's invoke:
    the transaction changed state the ledger cannot read, so it is an error, not an empty transaction."""
    result = raw(*TRANSFER)
    item = _insertion(result)
    for group in result["meta"]["innerInstructions"]:
        group["instructions"] = [i for i in group["instructions"] if i is not item]
    with pytest.raises(IngestError) as caught:
        changes(result)
    message = str(caught.value)
    assert TRANSFER[1] in message and "light system invoke carries compressed state" in message


def test_an_insert_into_queues_without_the_registered_program_is_refused() -> None:
    result = raw(*TRANSFER)
    item = _insertion(result)
    item["accounts"][1] = item["accounts"][0]
    with pytest.raises(IngestError, match="registered program PDA") as caught:
        changes(result)
    assert TRANSFER[1] in str(caught.value)


def _with_cpi_context(result: dict, *, set_context: bool) -> dict:
    """The address transaction's invoke_cpi made to park its state in a CPI context (no insertion follows)."""
    [system] = inner_instructions(result, LIGHT_SYSTEM_PROGRAM_ID)
    data = b58decode(system["data"])
    body = _INVOKE_CPI.parse(data[12:])
    body.cpi_context = {"set_context": set_context, "first_set_context": set_context, "cpi_context_account_index": 0}
    encoded = _INVOKE_CPI.build(body)
    system["data"] = b58encode(data[:8] + len(encoded).to_bytes(4, "little") + encoded)
    item = _insertion(result)
    for group in result["meta"]["innerInstructions"]:
        group["instructions"] = [i for i in group["instructions"] if i is not item]
    return result


def test_a_cpi_context_write_carries_no_state_and_is_no_error() -> None:
    read = changes(_with_cpi_context(raw(*ADDRESS_TX), set_context=True))
    assert read.error is None and not read.uses_compression
    assert read.opened == read.closed == read.queued_addresses == ()


def test_executing_a_cpi_context_without_an_insertion_is_refused() -> None:
    with pytest.raises(IngestError, match="invoke_cpi carries compressed state"):
        changes(_with_cpi_context(raw(*ADDRESS_TX), set_context=False))


def test_a_failed_transaction_changes_nothing() -> None:
    result = raw(*TRANSFER)
    result["meta"]["err"] = {"InstructionError": [0, {"Custom": 6017}]}
    _insertion(result)["data"] = "1"  # not read at all
    read = changes(result)
    assert read.error == json.dumps(result["meta"]["err"], separators=(",", ":"))
    assert read.opened == read.closed == read.queued_nullifiers == ()
