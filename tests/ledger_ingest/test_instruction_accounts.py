"""Where an instruction's account indices point, at their edges: real transactions of `fixtures/photon-head/`
with their instruction accounts or data edited.

- `insert_into_queues`: an account index past the instruction's accounts (one past, and two) is refused
  as malformed (an EventError naming it, not an IndexError), for a leaf, a nullifier and an address alike.
- `invoke_cpi_with_read_only` in mode 1: the leading system accounts grow by one with lamports (the
  sol pool) and by one more when decompressing (the recipient). The outputs' tree indices count from
  there, so a transaction whose count is misread names the wrong tree and is refused.
"""

from __future__ import annotations

import pytest
from csi_conformance.groundwork.base58 import b58decode, b58encode
from csi_conformance.ledger_ingest import IngestError
from csi_conformance.ledger_ingest.events import EventError
from csi_conformance.ledger_ingest.queues import _INSERT_INTO_QUEUES, INSERT_INTO_QUEUES, parse_insert_into_queues
from csi_conformance.ledger_ingest.recognize import LIGHT_SYSTEM_PROGRAM_ID, QueueInsertion, recognize
from csi_conformance.ledger_ingest.system import _WITH_READ_ONLY, parse_system_instruction

from tests.ledger_ingest.test_batched_ingest import changes, folder_transactions, inner_instructions, raw

MODE_ONE = ("index_compress_and_close_with_tlv",
            "5rqnqJKFbBDwbLeX5Dv2q9LQNQUJWMP4wMRmbHoCA5F13nRvWFU8XRVzZKaZV1meXtmfbqF5uvaTndXMaxpQ4tBB")
"""The one mode-1 `invoke_cpi_with_read_only` of the fixtures: no lamports, no CPI context, 6 system accounts."""


def only(folder: str, what: str) -> tuple[bytes, tuple[bytes, ...]]:
    """The first real `insert_into_queues` of `folder` with entries of `what`, the other entries taken out
    (so that an entry of `what` names the highest account index), and its accounts."""
    event = next(event for tx, _ in folder_transactions(folder) for _, event in recognize(tx).events
                 if isinstance(event, QueueInsertion) and getattr(parse_insert_into_queues(event.data,
                                                                                           event.accounts), what))
    body = _INSERT_INTO_QUEUES.parse(event.data[12:])
    for other in {"leaves", "nullifiers", "addresses"} - {what}:
        body[other] = []
    if what != "leaves":
        body.output_leaf_indices = []
    built = _INSERT_INTO_QUEUES.build(body)
    return INSERT_INTO_QUEUES + len(built).to_bytes(4, "little") + built, event.accounts


_NAMED = {"leaves": ("account_index",), "nullifiers": ("tree_index", "queue_index"),
          "addresses": ("tree_index", "queue_index")}


@pytest.mark.parametrize(("folder", "what", "says"), [
    ("batched_tree_transactions", "leaves", "leaf"),
    ("batch_append_nullify", "nullifiers", "nullifier"),
    ("batched_address_transactions", "addresses", "address"),
])
def test_an_account_index_one_past_the_accounts_is_a_malformed_instruction(folder: str, what: str,
                                                                           says: str) -> None:
    data, accounts = only(folder, what)
    entries = _INSERT_INTO_QUEUES.parse(data[12:])[what]
    needed = 1 + max(entry[name] for entry in entries for name in _NAMED[what])
    assert needed <= len(accounts)
    parse_insert_into_queues(data, accounts[:needed])  # every index inside: read
    for short in range(1, min(needed, 2) + 1):  # one past the accounts, and two past where there is room
        with pytest.raises(EventError, match=rf"{says} \d+: account index \d+ is outside its "
                                             rf"{needed - short} tree and queue accounts"):
            parse_insert_into_queues(data, accounts[:needed - short])


def _with_lamports(result: dict, *, lamports: int, compress: bool, extra: int) -> dict:
    """The mode-1 system instruction moving `lamports` (compressing or decompressing), with `extra` more
    accounts after its 6 system accounts, as the program requires them: the outputs' tree indices unchanged."""
    [item] = inner_instructions(result, LIGHT_SYSTEM_PROGRAM_ID)
    data = b58decode(item["data"])
    body = _WITH_READ_ONLY.parse(data[8:])
    assert (body.mode, body.compress_or_decompress_lamports, body.with_cpi_context) == (1, 0, False)
    body.compress_or_decompress_lamports = lamports
    body.is_compress = compress
    item["data"] = b58encode(data[:8] + _WITH_READ_ONLY.build(body))
    item["accounts"] = [*item["accounts"][:6], *item["accounts"][:extra], *item["accounts"][6:]]
    return result


def test_the_mode_one_fixture_has_six_system_accounts_and_outputs() -> None:
    [item] = inner_instructions(raw(*MODE_ONE), LIGHT_SYSTEM_PROGRAM_ID)
    system = parse_system_instruction(b58decode(item["data"]))
    assert (system.kind, system.system_accounts) == ("invoke_cpi_with_read_only", 6)
    assert changes(raw(*MODE_ONE)).opened


@pytest.mark.parametrize(("compress", "accounts"), [(True, 7), (False, 8)], ids=["compress", "decompress"])
def test_mode_one_lamports_add_the_sol_pool_and_a_decompression_adds_its_recipient(compress: bool,
                                                                                   accounts: int) -> None:
    plain = changes(raw(*MODE_ONE))
    edited = _with_lamports(raw(*MODE_ONE), lamports=5_000, compress=compress, extra=accounts - 6)
    [item] = inner_instructions(edited, LIGHT_SYSTEM_PROGRAM_ID)
    assert parse_system_instruction(b58decode(item["data"])).system_accounts == accounts
    read = changes(edited)
    assert read.opened == plain.opened and read.closed == plain.closed


def test_a_miscounted_system_account_names_another_tree_and_is_refused() -> None:
    """The edit without its extra accounts: the outputs' indices land on a system account, not the queue."""
    edited = _with_lamports(raw(*MODE_ONE), lamports=5_000, compress=False, extra=0)
    with pytest.raises(IngestError, match=r"names .* as its tree or queue, insert_into_queues appends to") as caught:
        changes(edited)
    assert MODE_ONE[1] in str(caught.value)

