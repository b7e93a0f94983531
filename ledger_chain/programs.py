"""Light's programs as data: their ids, the PDAs the instructions name, the account dumps, and what
their error codes mean.

Ids and seeds are those of the v1 programs in `@lightprotocol/zk-compression-cli` 0.18.0
(docs/real-chain.md). Error codes: the programs' own Anchor errors count from 6000
per program (so 6000 means something else in each program), and the libraries they share have
ranges of their own (7xxx hasher, 8xxx bounded vector, 9xxx hash set of the queues, 10xxx
concurrent merkle tree, 11xxx indexed merkle tree, 13xxx Groth16 verifier).
"""

from __future__ import annotations

from functools import cache

from solders.pubkey import Pubkey

__all__ = [
    "ACCOUNT_COMPRESSION",
    "ADDRESS_QUEUE",
    "ADDRESS_TREE",
    "ANCHOR_ERRORS",
    "COMPRESSED_TOKEN",
    "LIBRARY_ERRORS",
    "LIGHT_SYSTEM",
    "NOOP",
    "NULLIFIER_QUEUE",
    "PROGRAM_FILES",
    "PROGRAM_NAMES",
    "REGISTRY",
    "SEEDS",
    "SOLANA_SYSTEM",
    "SPL_TOKEN",
    "STATE_TREE",
    "error_meaning",
    "pda",
    "token_pool",
]

NOOP = Pubkey.from_string("noopb9bkMVfRPU8AsbpTUg8AQkHtKwMYZiFUjNRtMmV")
LIGHT_SYSTEM = Pubkey.from_string("SySTEM1eSU2p4BGQfQpimFEWWSC1XDFeun3Nqzz3rT7")
COMPRESSED_TOKEN = Pubkey.from_string("cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m")
ACCOUNT_COMPRESSION = Pubkey.from_string("compr6CUsB5m2jS4Y3831ztGSTnDpnKJTKS95d64XVq")
REGISTRY = Pubkey.from_string("Lighton6oQpVkeewmo2mcPTQQp7kYHr4fWpAgJyEmDX")
SOLANA_SYSTEM = Pubkey.from_string("11111111111111111111111111111111")
SPL_TOKEN = Pubkey.from_string("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")
"""SPL Token, which LiteSVM loads by default (the token pool of a mint is an SPL token account)."""

STATE_TREE = Pubkey.from_string("smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT")
NULLIFIER_QUEUE = Pubkey.from_string("nfq1NvQDJ2GEgnS8zt9prAe8rjjpAW1zFkrvZoBR148")
ADDRESS_TREE = Pubkey.from_string("amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2")
ADDRESS_QUEUE = Pubkey.from_string("aq1S9z4reTSQAdgWHGD2zDaS39sjGrAxbR31vxJ2F4F")

PROGRAM_FILES = {
    NOOP: "spl_noop.so",
    LIGHT_SYSTEM: "light_system_program.so",
    COMPRESSED_TOKEN: "light_compressed_token.so",
    ACCOUNT_COMPRESSION: "account_compression.so",
    REGISTRY: "light_registry.so",
}
"""Program id -> its file in the install's `programs/` folder."""

PROGRAM_NAMES = {
    NOOP: "noop", LIGHT_SYSTEM: "light system program", COMPRESSED_TOKEN: "compressed token program",
    ACCOUNT_COMPRESSION: "account compression program", REGISTRY: "registry", SPL_TOKEN: "SPL token program",
    SOLANA_SYSTEM: "system program",
}

SEEDS = {
    "system_cpi_authority": ((b"cpi_authority",), LIGHT_SYSTEM),
    "registered_system_program": ((bytes(LIGHT_SYSTEM),), ACCOUNT_COMPRESSION),
    "registered_registry_program": ((bytes(REGISTRY),), ACCOUNT_COMPRESSION),
    "sol_pool": ((b"sol_pool_pda",), LIGHT_SYSTEM),
    "token_cpi_authority": ((b"cpi_authority",), COMPRESSED_TOKEN),
    "registry_cpi_authority": ((b"cpi_authority",), REGISTRY),
    "protocol_config": ((b"authority",), REGISTRY),
}
"""Named PDAs: (seeds, deriving program)."""


@cache
def pda(name: str) -> tuple[Pubkey, int]:
    """A named PDA of `SEEDS` and its bump."""
    seeds, program = SEEDS[name]
    return Pubkey.find_program_address(list(seeds), program)


def token_pool(mint: Pubkey) -> Pubkey:
    """The SPL token account that holds a mint's compressed tokens (seed `pool`, then the mint)."""
    return Pubkey.find_program_address([b"pool", bytes(mint)], COMPRESSED_TOKEN)[0]


LIBRARY_ERRORS = {
    7001: "hasher: integer overflow", 7002: "hasher: Poseidon failed (an input not below the field modulus?)",
    8001: "bounded vector full", 8002: "bounded vector: array size", 8003: "bounded vector: iteration out of bounds",
    9001: "queue full", 9002: "the queue already holds this element: the account is already spent, or the "
                             "address already being created",
    9003: "the queue does not hold this element", 9004: "hash set: usize conversion", 9005: "hash set: overflow",
    9006: "hash set: buffer size",
    10001: "merkle tree: integer overflow", 10007: "merkle tree full", 10008: "more leaves than the changelog holds",
    10009: "merkle proof of the wrong length", 10010: "merkle proof does not lead to the tree's root",
    10011: "the leaf was changed by a newer update", 10012: "cannot update an empty leaf",
    10013: "no leaves to append", 10014: "merkle tree: buffer size",
    11001: "indexed tree: integer overflow", 11002: "indexed tree: index above the maximum",
    11003: "indexed tree: low element not found",
    11004: "indexed tree: the low element is not below the new element",
    11005: "indexed tree: the new element is not below the low element's next value",
    11006: "indexed tree: the element already exists", 11007: "indexed tree: the element does not exist",
    11008: "indexed tree: changelog buffer size", 11009: "indexed tree full",
    13001: "verifier: public inputs cannot be read", 13002: "a proof point (A or C) does not decompress to a G1 point",
    13003: "the proof point B does not decompress to a G2 point",
    13004: "verifier: wrong number of public inputs (no circuit for these counts)",
    13005: "verifier: cannot be set up", 13006: "the proof does not verify against the on-chain roots at the given "
                                               "root indices (wrong proof, root, leaf, address or order)",
}
"""Error codes of the libraries the programs share, the same in every program."""

ANCHOR_ERRORS = {
    LIGHT_SYSTEM: (
        "SumCheckFailed", "SignerCheckFailed", "CpiSignerCheckFailed", "ComputeInputSumFailed",
        "ComputeOutputSumFailed", "ComputeRpcSumFailed", "InvalidAddress", "DeriveAddressError",
        "CompressedSolPdaUndefinedForCompressSol", "DeCompressLamportsUndefinedForCompressSol",
        "CompressedSolPdaUndefinedForDecompressSol", "DeCompressLamportsUndefinedForDecompressSol",
        "DecompressRecipientUndefinedForDecompressSol", "WriteAccessCheckFailed", "InvokingProgramNotProvided",
        "InvalidCapacity", "InvalidMerkleTreeOwner", "ProofIsNone", "ProofIsSome", "EmptyInputs",
        "CpiContextAccountUndefined", "CpiContextEmpty", "CpiContextMissing", "DecompressionRecipientDefined",
        "SolPoolPdaDefined", "AppendStateFailed", "InstructionNotCallable", "CpiContextFeePayerMismatch",
        "CpiContextAssociatedMerkleTreeMismatch", "NoInputs", "InputMerkleTreeIndicesNotInOrder",
        "OutputMerkleTreeIndicesNotInOrder", "OutputMerkleTreeNotUnique", "DataFieldUndefined",
    ),
    ACCOUNT_COMPRESSION: (
        "IntegerOverflow", "InvalidAuthority", "NumberOfLeavesMismatch", "InvalidNoopPubkey",
        "NumberOfChangeLogIndicesMismatch", "NumberOfIndicesMismatch", "NumberOfProofsMismatch",
        "InvalidMerkleProof", "LeafNotFound", "MerkleTreeAndQueueNotAssociated", "MerkleTreeAlreadyRolledOver",
        "NotReadyForRollover", "RolloverNotConfigured", "NotAllLeavesProcessed", "InvalidQueueType",
        "InputElementsEmpty", "NoLeavesForMerkleTree", "InvalidAccountSize", "InsufficientRolloverFee",
        "UnsupportedHeight", "UnsupportedCanopyDepth", "InvalidSequenceThreshold", "UnsupportedCloseThreshold",
        "InvalidAccountBalance", "UnsupportedAdditionalBytes", "InvalidGroup", "ProofLengthMismatch",
    ),
    REGISTRY: (
        "InvalidForester", "NotInReportWorkPhase", "StakeAccountAlreadySynced", "EpochEnded",
        "ForesterNotEligible", "NotInRegistrationPeriod", "WeightInsuffient", "ForesterAlreadyRegistered",
        "InvalidEpochAccount", "InvalidEpoch", "EpochStillInProgress", "NotInActivePhase",
        "ForesterAlreadyReportedWork", "InvalidNetworkFee", "FinalizeCounterExceeded", "CpiContextAccountMissing",
    ),
    COMPRESSED_TOKEN: (
        "PublicKeyAmountMissmatch", "ComputeInputSumFailed", "ComputeOutputSumFailed", "ComputeCompressSumFailed",
        "ComputeDecompressSumFailed", "SumCheckFailed", "DecompressRecipientUndefinedForDecompress",
        "CompressedPdaUndefinedForDecompress", "DeCompressAmountUndefinedForDecompress",
        "CompressedPdaUndefinedForCompress", "DeCompressAmountUndefinedForCompress", "DelegateSignerCheckFailed",
        "MintTooLarge", "SplTokenSupplyMismatch", "HeapMemoryCheckFailed", "InstructionNotCallable",
        "ArithmeticUnderflow", "HashToFieldError", "InvalidAuthorityMint", "InvalidFreezeAuthority",
        "InvalidDelegateIndex", "TokenPoolPdaUndefined", "IsTokenPoolPda", "InvalidTokenPoolPda",
        "NoInputTokenAccountsProvided", "NoInputsProvided",
    ),
}
"""Each program's own Anchor errors, in order from 6000 (the programs' `#[error_code]` enums)."""


def error_meaning(code: int, program: Pubkey | None = None) -> str:
    """What a `Custom(code)` error means, in words; `program` (the one that failed) decides 6000 and up."""
    if code in LIBRARY_ERRORS:
        return LIBRARY_ERRORS[code]
    names = ANCHOR_ERRORS.get(program) if program is not None else None
    if names is not None and 6000 <= code < 6000 + len(names):
        return f"{PROGRAM_NAMES[program]}: {names[code - 6000]}"
    if code < 6000:
        return "an Anchor framework error (account or constraint check); the log names it"
    return "an error of the failing program; the log names it"
