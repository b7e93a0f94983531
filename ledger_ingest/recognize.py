"""Which instruction groups carry state (ledger-native.md, "Which instructions carry state").

In each group [outer instruction, its inner instructions…], at every account-compression
instruction: when the next instructions are one or two system-program instructions and then
the noop, the noop's data is a `PublicTransactionEvent` (a user transaction); when the very
next instruction is the noop, its data is a `MerkleTreeEvent` (a forester transaction). Any
such pattern marks the transaction as one that used compression. A transaction with an outer
instruction of the vote program is a voting transaction.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from ledger_crypto import b58decode
from ledger_ingest.decode import DecodedTransaction, Instruction

__all__ = [
    "ACCOUNT_COMPRESSION_PROGRAM_ID",
    "NOOP_PROGRAM_ID",
    "SYSTEM_PROGRAM_ID",
    "VOTE_PROGRAM_ID",
    "Recognized",
    "recognize",
]

ACCOUNT_COMPRESSION_PROGRAM_ID = b58decode("compr6CUsB5m2jS4Y3831ztGSTnDpnKJTKS95d64XVq", length=32)
NOOP_PROGRAM_ID = b58decode("noopb9bkMVfRPU8AsbpTUg8AQkHtKwMYZiFUjNRtMmV", length=32)
SYSTEM_PROGRAM_ID = bytes(32)
VOTE_PROGRAM_ID = b58decode("Vote111111111111111111111111111111111111111", length=32)

EventKind = Literal["user", "tree"]


@dataclass(frozen=True, slots=True)
class Recognized:
    events: tuple[tuple[EventKind, bytes], ...]
    """(kind, noop data) in the order the groups hold them: `user` for a PublicTransactionEvent,
    `tree` for a MerkleTreeEvent."""
    uses_compression: bool
    voting: bool


def _events(group: tuple[Instruction, ...]) -> Iterator[tuple[EventKind, bytes]]:
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


def recognize(tx: DecodedTransaction) -> Recognized:
    events = tuple(event for group in tx.groups for event in _events(group))
    voting = any(group[0].program == VOTE_PROGRAM_ID for group in tx.groups)
    return Recognized(events, bool(events), voting)
