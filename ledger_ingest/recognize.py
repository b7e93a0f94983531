"""Which instructions carry state: the two event paths of the ZK Compression programs.

**Queue insertions** (the newer system program; Light's `sdk-libs/event/src/parse.rs`
`event_from_light_transaction`, which Photon tries first): in each group [outer instruction, its inner
instructions…], every account-compression `insert_into_queues` (its discriminator, and the registered
program PDA as its second account) is paired with the light system instruction that executed it, found
by scanning back past at least one system-program transfer; light system instructions further back
(up to the previous insertion) wrote the CPI context it may execute. Instructions with data shorter
than 12 bytes, and the system program's `create_cpi_context_account`, take no part.

**Noop events** (ledger-native.md, "Which instructions carry state"), read only in a group where no
queue insertion was found, as Photon does: at every account-compression instruction, when the next
instructions are one or two system-program instructions and then the noop, the noop's data is a
`PublicTransactionEvent` (a user transaction of the older system program); when the very next
instruction is the noop, its data is a `MerkleTreeEvent` (a forester transaction).

Any event marks the transaction as one that used compression. Light system invoke instructions and
`insert_into_queues` instructions that no event accounts for are reported (`unexplained`): the caller
decides whether they carried state that cannot be read. A transaction with an outer instruction of the
vote program is a voting transaction.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from csi_conformance.groundwork.base58 import b58decode
from csi_conformance.ledger_ingest.decode import DecodedTransaction, Instruction
from csi_conformance.ledger_ingest.queues import INSERT_INTO_QUEUES
from csi_conformance.ledger_ingest.system import INVOKE_DISCRIMINATORS

__all__ = [
    "ACCOUNT_COMPRESSION_PROGRAM_ID",
    "LIGHT_SYSTEM_PROGRAM_ID",
    "NOOP_PROGRAM_ID",
    "REGISTERED_PROGRAM_PDA",
    "SYSTEM_PROGRAM_ID",
    "VOTE_PROGRAM_ID",
    "QueueInsertion",
    "Recognized",
    "Unexplained",
    "recognize",
]

ACCOUNT_COMPRESSION_PROGRAM_ID = b58decode("compr6CUsB5m2jS4Y3831ztGSTnDpnKJTKS95d64XVq", length=32)
LIGHT_SYSTEM_PROGRAM_ID = b58decode("SySTEM1eSU2p4BGQfQpimFEWWSC1XDFeun3Nqzz3rT7", length=32)
NOOP_PROGRAM_ID = b58decode("noopb9bkMVfRPU8AsbpTUg8AQkHtKwMYZiFUjNRtMmV", length=32)
REGISTERED_PROGRAM_PDA = b58decode("35hkDgaAKwMCaxRz2ocSZ6NaUrtKkyNqU6c4RV3tYJRh", length=32)
SYSTEM_PROGRAM_ID = bytes(32)
VOTE_PROGRAM_ID = b58decode("Vote111111111111111111111111111111111111111", length=32)
_CREATE_CPI_CONTEXT_ACCOUNT = bytes([233, 112, 71, 66, 121, 33, 178, 188])

EventKind = Literal["user", "tree", "queues"]
_Class = Literal["solana_system", "light_system", "insert_into_queues", "other"]


@dataclass(frozen=True, slots=True)
class QueueInsertion:
    """An `insert_into_queues` and the light system instruction that executed it, accounts resolved."""

    where: str
    data: bytes
    accounts: tuple[bytes, ...]
    """The insertion's accounts after its first two (authority, registered program PDA)."""
    system_where: str
    system_data: bytes
    system_accounts: tuple[bytes, ...]


@dataclass(frozen=True, slots=True)
class Unexplained:
    """A light system invoke or an `insert_into_queues` that no event accounts for."""

    where: str
    program: bytes
    data: bytes


@dataclass(frozen=True, slots=True)
class Recognized:
    events: tuple[tuple[EventKind, bytes | QueueInsertion], ...]
    """In the order the groups hold them: `user` (noop data, a PublicTransactionEvent), `tree` (noop data,
    a MerkleTreeEvent) or `queues` (a `QueueInsertion`)."""
    unexplained: tuple[Unexplained, ...]
    uses_compression: bool
    voting: bool


def _where(group: int, position: int) -> str:
    return f"instruction {group}" if position == 0 else f"inner instruction {group}.{position - 1}"


def _classify(tx: DecodedTransaction, ix: Instruction) -> _Class:
    if len(ix.data) < 12:
        return "other"
    if ix.program == SYSTEM_PROGRAM_ID:
        return "solana_system"
    if ix.program == LIGHT_SYSTEM_PROGRAM_ID:
        return "other" if ix.data[:8] == _CREATE_CPI_CONTEXT_ACCOUNT else "light_system"
    if (ix.program == ACCOUNT_COMPRESSION_PROGRAM_ID and ix.data[:8] == INSERT_INTO_QUEUES and len(ix.accounts) > 2
            and tx.account_keys[ix.accounts[1]] == REGISTERED_PROGRAM_PDA):
        return "insert_into_queues"
    return "other"


def _pattern(classes: list[_Class], start: int) -> tuple[tuple[int, int, tuple[int, ...]] | None, int]:
    """Scan back from the insertion at `start`: (insertion, executing system, CPI-context writers) or None,
    and where the scan stopped (Light's `find_cpi_pattern`)."""
    transfer_seen = False
    system: int | None = None
    writers: list[int] = []
    for index in range(start - 1, -1, -1):
        kind = classes[index]
        if kind == "solana_system":
            transfer_seen = True
        elif kind == "light_system" and system is None and transfer_seen:
            system = index
        elif kind == "light_system" and system is not None:
            writers.append(index)
        elif kind == "insert_into_queues" and system is not None:
            return (start, system, tuple(writers)), index
        elif system is None:
            return None, index
    return ((start, system, tuple(writers)) if system is not None else None), 0


def _patterns(classes: list[_Class]) -> list[tuple[int, int, tuple[int, ...]]]:
    """Every insertion with its executing instruction, in instruction order (Light's `find_cpi_patterns`)."""
    found = []
    next_index = len(classes)
    for index in range(len(classes) - 1, -1, -1):
        if index > next_index or classes[index] != "insert_into_queues":
            continue
        pattern, next_index = _pattern(classes, index)
        if pattern is not None:
            found.append(pattern)
    return found[::-1]


def _noop_events(group: tuple[Instruction, ...]) -> Iterator[tuple[EventKind, bytes]]:
    programs = [ix.program for ix in group]
    for index, program in enumerate(programs):
        if program != ACCOUNT_COMPRESSION_PROGRAM_ID:
            continue
        following = programs[index + 1 : index + 4]
        if following[:1] == [NOOP_PROGRAM_ID]:
            yield "tree", group[index + 1].data
        elif following[:2] == [SYSTEM_PROGRAM_ID, NOOP_PROGRAM_ID]:
            yield "user", group[index + 2].data
        elif following == [SYSTEM_PROGRAM_ID, SYSTEM_PROGRAM_ID, NOOP_PROGRAM_ID]:
            yield "user", group[index + 3].data


def _group(tx: DecodedTransaction, number: int, group: tuple[Instruction, ...]
           ) -> tuple[list[tuple[EventKind, bytes | QueueInsertion]], list[Unexplained]]:
    def keys(ix: Instruction) -> tuple[bytes, ...]:
        return tuple(tx.account_keys[i] for i in ix.accounts)

    classes = [_classify(tx, ix) for ix in group]
    patterns = _patterns(classes)
    events: list[tuple[EventKind, bytes | QueueInsertion]] = []
    explained: set[int] = set()
    for insertion, system, writers in patterns:
        events.append(("queues", QueueInsertion(
            _where(number, insertion), group[insertion].data, keys(group[insertion])[2:],
            _where(number, system), group[system].data, keys(group[system]))))
        explained.update((insertion, system, *writers))
    if not patterns:
        events.extend(_noop_events(group))
        if any(kind == "user" for kind, _ in events):
            explained.update(range(len(group)))  # the older system program's state is in its event
    unexplained = [
        Unexplained(_where(number, position), ix.program, ix.data)
        for position, ix in enumerate(group)
        if position not in explained and (
            (ix.program == LIGHT_SYSTEM_PROGRAM_ID and ix.data[:8] in INVOKE_DISCRIMINATORS)
            or (ix.program == ACCOUNT_COMPRESSION_PROGRAM_ID and ix.data[:8] == INSERT_INTO_QUEUES))
    ]
    return events, unexplained


def recognize(tx: DecodedTransaction) -> Recognized:
    events: list[tuple[EventKind, bytes | QueueInsertion]] = []
    unexplained: list[Unexplained] = []
    for number, group in enumerate(tx.groups):
        found, left = _group(tx, number, group)
        events.extend(found)
        unexplained.extend(left)
    voting = any(group[0].program == VOTE_PROGRAM_ID for group in tx.groups)
    return Recognized(tuple(events), tuple(unexplained), bool(events), voting)
