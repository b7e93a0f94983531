"""Hashes, merkle trees and proofs of the compressed-state ledger, as pure functions.

Shared by the reference server (to build state) and the harness (to verify a
server's answers).
"""

from .address_tree import (
    AddressElement,
    AddressExistsError,
    AddressTree,
    NonInclusionProof,
    element_leaf,
    verify_non_inclusion,
)
from .hashing import (
    FIELD_MODULUS,
    HIGHEST_ADDRESS_PLUS_ONE,
    TOKEN_DISCRIMINATOR,
    TOKEN_PROGRAM_ID,
    TokenDataFields,
    account_hash,
    account_hash_inputs,
    b58decode,
    b58encode,
    decode_token_data,
    derive_address,
    encode_token_data,
    hash_to_field,
    poseidon,
    token_data_hash,
    token_data_hash_inputs,
)
from .merkle import (
    HEIGHT,
    ROOT_HISTORY,
    ZERO_HASHES,
    SparseMerkleTree,
    StateTree,
    fold_path,
)
from .parallel import hashing_pool, parallel_threshold, poseidon_many, poseidon_stream

__all__ = [
    "FIELD_MODULUS",
    "HEIGHT",
    "HIGHEST_ADDRESS_PLUS_ONE",
    "ROOT_HISTORY",
    "TOKEN_DISCRIMINATOR",
    "TOKEN_PROGRAM_ID",
    "ZERO_HASHES",
    "AddressElement",
    "AddressExistsError",
    "AddressTree",
    "NonInclusionProof",
    "SparseMerkleTree",
    "StateTree",
    "TokenDataFields",
    "account_hash",
    "account_hash_inputs",
    "b58decode",
    "b58encode",
    "decode_token_data",
    "derive_address",
    "element_leaf",
    "encode_token_data",
    "fold_path",
    "hash_to_field",
    "hashing_pool",
    "parallel_threshold",
    "poseidon",
    "poseidon_many",
    "poseidon_stream",
    "token_data_hash",
    "token_data_hash_inputs",
    "verify_non_inclusion",
]
