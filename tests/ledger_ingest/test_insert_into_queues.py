"""`insert_into_queues` read at the edges of its layout: a real instruction of `fixtures/photon-head/` with its
data edited (tests/ledger_ingest/test_instruction_accounts.py has the account indices).

Unused sequence-number slots (all zero) are dropped and only they; a tree type is Light's `TreeType`; the data
starts with the discriminator and a length and is consumed exactly; `prove_by_index` is a byte, true when
not zero.
"""

from __future__ import annotations

import construct
import pytest
from csi_conformance.ledger_ingest.events import EventError
from csi_conformance.ledger_ingest.queues import (
    _INSERT_INTO_QUEUES,
    INSERT_INTO_QUEUES,
    SequenceNumber,
    parse_insert_into_queues,
)

from tests.ledger_ingest.test_instruction_accounts import only

_ZERO_SLOT = {"tree": bytes(32), "queue": bytes(32), "tree_type": 0, "seq": 0}


def _real(what: str = "nullifiers") -> tuple[construct.Container, tuple[bytes, ...]]:
    data, accounts = only("batch_append_nullify", what)
    return _INSERT_INTO_QUEUES.parse(data[12:]), accounts


def _data(body: construct.Container) -> bytes:
    built = _INSERT_INTO_QUEUES.build(body)
    return INSERT_INTO_QUEUES + len(built).to_bytes(4, "little") + built


def test_unused_all_zero_slots_are_dropped_wherever_they_sit() -> None:
    body, accounts = _real()
    read = parse_insert_into_queues(_data(body), accounts)
    assert read.input_sequence_numbers, "the real instruction has input sequence numbers"
    for field in ("output_sequence_numbers", "input_sequence_numbers", "address_sequence_numbers"):
        body[field] = [_ZERO_SLOT, *body[field], _ZERO_SLOT]
    padded = parse_insert_into_queues(_data(body), accounts)
    assert padded == read


def test_a_slot_with_a_zero_tree_but_a_number_is_kept() -> None:
    body, accounts = _real()
    body.output_sequence_numbers = [{**_ZERO_SLOT, "tree_type": 3, "seq": 7}]
    read = parse_insert_into_queues(_data(body), accounts)
    assert read.output_sequence_numbers == (SequenceNumber(bytes(32), bytes(32), "state_v2", 7),)


@pytest.mark.parametrize(("tree_type", "name"), [(1, "state_v1"), (2, "address_v1"), (3, "state_v2"),
                                                 (4, "address_v2")])
def test_each_tree_type_is_lights(tree_type: int, name: str) -> None:
    body, accounts = _real()
    body.address_sequence_numbers = [{"tree": bytes([1]) * 32, "queue": bytes([2]) * 32, "tree_type": tree_type,
                                      "seq": 3}]
    assert parse_insert_into_queues(_data(body), accounts).address_sequence_numbers[0].tree_type == name


def test_an_unknown_tree_type_is_refused() -> None:
    body, accounts = _real()
    body.input_sequence_numbers = [{"tree": bytes([1]) * 32, "queue": bytes([2]) * 32, "tree_type": 9, "seq": 3}]
    with pytest.raises(EventError, match="input sequence numbers: unknown tree type 9"):
        parse_insert_into_queues(_data(body), accounts)


@pytest.mark.parametrize(("flag", "proven_by_index"), [(0, False), (1, True), (2, True)])
def test_prove_by_index_is_true_for_any_byte_but_zero(flag: int, proven_by_index: bool) -> None:
    body, accounts = _real()
    for item in body.nullifiers:
        item.prove_by_index = flag
    read = parse_insert_into_queues(_data(body), accounts)
    assert read.nullifiers and all(entry.prove_by_index is proven_by_index for entry in read.nullifiers)


def test_another_discriminator_or_no_room_for_the_length_is_refused() -> None:
    body, accounts = _real()
    data = _data(body)
    lower, higher = (bytes([data[0] + step]) + data[1:] for step in (-1, 1))
    for wrong in (lower, higher, data[:11], b""):
        with pytest.raises(EventError, match=rf"must start with its discriminator and a length \({len(wrong)} bytes"):
            parse_insert_into_queues(wrong, accounts)


def test_bytes_left_over_are_refused() -> None:
    """Its data must be consumed exactly: one byte more than the layout reads is another layout."""
    body, accounts = _real()
    data = _data(body)
    parse_insert_into_queues(data, accounts)
    with pytest.raises(EventError, match=r"insert_into_queues takes .* bytes: 1 bytes are left over"):
        parse_insert_into_queues(data + b"\0", accounts)
