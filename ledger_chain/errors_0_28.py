"""What today's programs' error codes mean, in words: a refusal is reported as the program gave it.

Today's programs share the v1 libraries' ranges (`programs.LIBRARY_ERRORS`) and add the batched
Merkle tree library's 14301-14312 (Light's `program-libs/batched-merkle-tree/src/errors.rs`); the
light system program's own codes (6000 and up) grew to 6066 (Light's `programs/system/src/errors.rs`).
Measured by spending a queued account by index at a place the chain does not hold it: a leaf
whose value is another (or zero, spent) is 14307, a leaf past the queue's next index 14309, a tree
that is no batched state tree 6042 (account compression's 6036 for a v1 tree).
"""

from __future__ import annotations

from collections.abc import Sequence

from csi_conformance.ledger_chain.programs import ANCHOR_ERRORS, LIGHT_SYSTEM, PROGRAM_NAMES, error_meaning
from csi_conformance.ledger_chain.runtime import failing_program

__all__ = ["ANCHOR_WORDS", "BATCHED_TREE_ERRORS", "TODAY_SYSTEM_ERRORS", "today_error_meaning"]

BATCHED_TREE_ERRORS = {
    14301: "batched tree: the batch is not ready to be inserted (its queue is full)",
    14302: "batched tree: the batch is already inserted", 14303: "batched tree: batch insert failed",
    14304: "batched tree: the leaf index is not in the batch", 14305: "batched tree: invalid network fee",
    14306: "batched tree: batch size not divisible by the ZKP batch size",
    14307: "inclusion by index failed: the output queue does not hold this account at that leaf index (another "
           "value is there, or zero: the account was spent)",
    14308: "batched tree: invalid batch index",
    14309: "batched tree: invalid index (the leaf index is past what the output queue has received)",
    14310: "batched tree: the tree is full",
    14311: "batched tree: the value is already in the bloom filter (an address or nullifier taken)",
    14312: "batched tree: the bloom filter must be zeroed before the batch is reused",
}
"""Error codes of the batched Merkle tree library, the same in every program."""

TODAY_SYSTEM_ERRORS = (*ANCHOR_ERRORS[LIGHT_SYSTEM], *(
    "ReadOnlyAddressAlreadyExists", "ReadOnlyAccountDoesNotExist", "HashChainInputsLenghtInconsistent",
    "InvalidAddressTreeHeight", "InvalidStateTreeHeight", "InvalidArgument", "InvalidAccount",
    "AddressMerkleTreeAccountDiscriminatorMismatch",
    "StateMerkleTreeAccountDiscriminatorMismatch (the tree named is no batched state tree)",
    "ProofVerificationFailed", "InvalidAccountMode", "InvalidInstructionDataDiscriminator",
    "NewAddressAssignedIndexOutOfBounds", "AddressIsNone", "AddressDoesNotMatch", "CpiContextAlreadySet",
    "InvalidTreeHeight", "TooManyOutputAccounts", "BorrowingDataFailed", "DuplicateAccountInInputsAndReadOnly",
    "CpiContextPassedAsSetContext", "InvalidCpiContextOwner", "InvalidCpiContextDiscriminator", "InvalidAccountIndex",
    "AccountCompressionCpiDataExceedsLimit", "AddressOwnerIndexOutOfBounds", "AddressAssignedAccountIndexOutOfBounds",
    "OutputMerkleTreeIndexOutOfBounds", "PackedAccountIndexOutOfBounds", "Unimplemented", "CpiContextDeactivated",
    "InputMerkleTreeIndexOutOfBounds", "MissingLegacyMerkleContext"))
"""Today's light system program's errors, in order from 6000: 0.18.0's, then those added since."""

ANCHOR_WORDS = {
    "V1AccountMarkedAsProofByIndex": "the tree named is a v1 tree, whose accounts are never spent by index",
}
"""What an Anchor error name a log gives means, where the name alone does not say it."""


def today_error_meaning(code: int, logs: Sequence[str]) -> str:
    """What a `Custom(code)` of today's programs means, in words, the program that raised it read from `logs`
    (an Anchor program's log names its error: that name is used where no table here has the code)."""
    if code in BATCHED_TREE_ERRORS:
        return BATCHED_TREE_ERRORS[code]
    program = failing_program(logs, origin=True)
    if program == LIGHT_SYSTEM and 6000 <= code < 6000 + len(TODAY_SYSTEM_ERRORS):
        return f"light system program: {TODAY_SYSTEM_ERRORS[code - 6000]}"
    named = _anchor_name(logs, code)
    if named is not None:
        where = PROGRAM_NAMES.get(program, "the failing program") if program is not None else "the failing program"
        return f"{where}: {named}" + (f" ({ANCHOR_WORDS[named]})" if named in ANCHOR_WORDS else "")
    return error_meaning(code, program)


def _anchor_name(logs: Sequence[str], code: int) -> str | None:
    """The error's name from a log line `AnchorError occurred. Error Code: <name>. Error Number: <code>.`."""
    for line in logs:
        if "AnchorError occurred. Error Code: " in line and f"Error Number: {code}." in line:
            return line.split("Error Code: ", 1)[1].split(".", 1)[0]
    return None
