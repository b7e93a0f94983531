"""Batched (v2) hashes: account hashes with big-endian integers, hash chains, tx hashes, nullifiers, addresses.

Vectors from the real chain: Photon's test transactions (helius-labs/photon 366a15b,
`tests/data/transactions/{batched_tree_transactions,batched_tree_token_transactions,four_cpi_events,
batched_address_2_transactions}`), whose instruction data states the output hashes, input hashes and
tx hashes the programs computed; and a compression run on Light's programs.
"""

import pytest
from csi_conformance.groundwork.base58 import b58decode
from csi_conformance.ledger_crypto import (
    FIELD_MODULUS,
    account_hash,
    account_hash_inputs,
    derive_address_v2,
    hash_chain,
    hash_to_field,
    nullifier,
    poseidon,
    transaction_hash,
)
from solders.keypair import Keypair

BATCHED_TREE = "HLKs5NJ8FXkJg8BrzJt56adFYYuwg5etzDtBbQYTsixu"


def pk(text: str) -> bytes:
    return b58decode(text, length=32)


def h(text: str) -> bytes:
    return bytes.fromhex(text)


def test_compression_into_bmt1_vector():
    """1,000,000 lamports compressed into bmt1 by the keypair of seed [7] * 32, leaf 0."""
    owner = bytes(Keypair.from_seed(bytes([7] * 32)).pubkey())
    fields = {"owner": owner, "leaf_index": 0, "tree": pk("bmt1LryLZUMmF7ZtqESaw7wifBXLfXHQYoE4GAmrahU"),
              "lamports": 1_000_000, "address": None, "discriminator": None, "data_hash": None}
    expected = "00442702cf8c1f76e956b3386cf5b569ec94e081e0ce9a13264c8077fcc3ebd7"
    assert account_hash(**fields, batched=True).hex() == expected
    assert poseidon(*account_hash_inputs(**fields, batched=True)).hex() == expected
    assert account_hash(**fields) != account_hash(**fields, batched=True)  # v1 byte order differs


# (owner, leaf index, lamports, discriminator bytes, data hash, account hash) in tree HLKs…
REAL_OUTPUTS = [
    ("1111111BTngbpkVTh3nGGdFdufHcG5TN7hXV6AfDy", 51, 1_000_000, None, None,
     "20083d96527ca094dbb9b7172734b086ef20b6dc757e505461df8e9ed2d79809"),
    ("cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m", 3, 0, "0200000000000000",
     "1b2f406f76f326fb5960dfd1f946ee7d7b8c1f054caf38b71b5de3cd4e9cc967",
     "1439f2378d1e6f17644866b686fc92babd300868cf80d12d18ef9878f1f56563"),
    ("cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m", 0, 1_000_000, "0200000000000000",
     "0ddeee45d3eff9134f189e2c6b5c61b21a6b9229489187a33bc77673c6add603",
     "010d50fbb8a887063b232d31a57a0e736d688bf3b5ad3d5dc9c82dc7f360b753"),
    ("FNt7byTHev1k5x2cXZLBr8TdWiC3zoP5vcnZR4P682Uy", 0, 0, "ffffffffffffffff", "03" * 32,
     "06322064c3610aa26ea2902bc2b1cb9934d0e5215d0b067e643587e9323f9828"),
]


@pytest.mark.parametrize(("owner", "leaf_index", "lamports", "discriminator", "data_hash", "expected"), REAL_OUTPUTS,
                         ids=["lamports", "token", "token-with-lamports", "max-discriminator"])
def test_real_output_hashes(owner, leaf_index, lamports, discriminator, data_hash, expected):
    result = account_hash(
        owner=pk(owner), leaf_index=leaf_index, tree=pk(BATCHED_TREE), lamports=lamports, address=None,
        discriminator=None if discriminator is None else int.from_bytes(h(discriminator), "little"),
        data_hash=None if data_hash is None else h(data_hash), batched=True)
    assert result.hex() == expected


def test_batched_account_hash_layout():
    """Leaf index u32 BE in bytes 28..32; lamports u64 BE in 24..32 with byte 23 = 1."""
    owner, tree = bytes(31) + b"\x01", bytes(31) + b"\x02"
    result = account_hash(owner=owner, leaf_index=0x01020304, tree=tree, lamports=0x0A0B0C0D0E0F1011,
                          address=None, discriminator=None, data_hash=None, batched=True)
    leaf_word = bytes(28) + bytes([1, 2, 3, 4])
    lamports_word = bytes(23) + b"\x01" + bytes(range(10, 18))
    assert result == poseidon(hash_to_field(owner), leaf_word, hash_to_field(tree), lamports_word)


# (slot, input hashes, output hashes, tx hash, (account hash, leaf index, nullifier) of the input)
REAL_SPENDS = [
    (149, ["1184d80ff48d92b01e3871988f020cc723d50e9f12b76ac809ccb33a58ec3cf9"],
     ["20083d96527ca094dbb9b7172734b086ef20b6dc757e505461df8e9ed2d79809"],
     "1b0a52094ff0c15f21009f70d8c7e6f3a90eec853cfc934c580eec5436bba8cb",
     50, "0110db604329663dd407d8c9207bf6cc6be1a43878753fc62973cf8807db1467"),
    (177, ["1eb2f9d37a2570a3464ed491cc69e97ec951e5ffcf077a7af57f26ec0cda986d"],
     ["08fa3bb32668e62cb9e131b42a36f048b9adb6cbbd5ae7663627b0da69377542"],
     "2943f55961acf7aa2ff42f5a302835db091a9605145aafbee71ee7c5131b7000",
     72, "06a13a8b4a833f440899cce90dc32e385d38226ec6c6fc2f0731d1ba3e1f310a"),
]


@pytest.mark.parametrize(("slot", "inputs", "outputs", "tx_hash", "leaf_index", "expected"), REAL_SPENDS,
                         ids=["slot-149", "slot-177"])
def test_real_tx_hashes_and_nullifiers(slot, inputs, outputs, tx_hash, leaf_index, expected):
    computed = transaction_hash([h(x) for x in inputs], [h(x) for x in outputs], slot)
    assert computed.hex() == tx_hash
    assert nullifier(h(inputs[0]), leaf_index, computed).hex() == expected
    assert nullifier(h(inputs[0]), leaf_index + 1, computed).hex() != expected


def test_empty_transaction_hash_vector():
    assert transaction_hash([], [], 0).hex().startswith("22c8a4d0a4fe")


def test_hash_chain_rule():
    a, b, c = (bytes(31) + bytes([n]) for n in (5, 6, 7))
    assert hash_chain([]) == bytes(32)
    assert hash_chain([a]) == a
    assert hash_chain([a, b, c]) == poseidon(poseidon(a, b), c)
    slot_word = (149).to_bytes(32, "big")
    assert transaction_hash([a, b], [c], 149) == poseidon(poseidon(poseidon(bytes(32), poseidon(a, b)), c), slot_word)


def test_nullifier_layout():
    account, tx = bytes(31) + b"\x09", bytes(31) + b"\x0a"
    assert nullifier(account, 2**40 + 3, tx) == poseidon(account, (2**40 + 3).to_bytes(32, "big"), tx)


@pytest.mark.parametrize(("seed", "expected"), [
    ("7fb27b941602d01d11542211134fc71aacae54e37e7d007bbb7b55eff062a284",
     "000f8ee15579e49fa6a914b0e379661d1b9577881c1af1852c636ff8d293e7a9"),
    ("9a63283cbaf0fdbceb1f6479b197f3a88dd0d8092fe72a7c56281538738b07e2",
     "0028494b3f6e36495864ef3b37ba4c5447c7b9bb1732d9915d16d31cf8944a48"),
])
def test_real_v2_addresses(seed, expected):
    tree = pk("EzKE84aVTkCUhDHLELqyJaq1Y7UVVmqxXqZjVHwHY3rK")
    program = pk("FNt7byTHev1k5x2cXZLBr8TdWiC3zoP5vcnZR4P682Uy")
    assert derive_address_v2(h(seed), tree, program).hex() == expected
    assert derive_address_v2(h(seed), tree, program) == hash_to_field(h(seed), tree, program)
    assert derive_address_v2(h(seed), program, tree).hex() != expected


@pytest.mark.parametrize("call", [
    lambda: nullifier(bytes(31), 0, bytes(32)),
    lambda: nullifier(bytes(32), -1, bytes(32)),
    lambda: nullifier(bytes(32), 2**64, bytes(32)),
    lambda: nullifier(bytes(32), True, bytes(32)),
    lambda: nullifier(FIELD_MODULUS.to_bytes(32, "big"), 0, bytes(32)),
    lambda: transaction_hash([bytes(33)], [], 0),
    lambda: transaction_hash([], [], 2**64),
    lambda: transaction_hash([], ["00" * 32], 0),
    lambda: derive_address_v2(bytes(32), bytes(32), bytes(31)),
    lambda: account_hash(owner=bytes(32), leaf_index=2**32, tree=bytes(32), lamports=0, address=None,
                         discriminator=None, data_hash=None, batched=True),
], ids=["short-hash", "negative-index", "index-u64", "bool-index", "modulus", "long-input", "slot-u64",
        "str-output", "short-program", "leaf-u32"])
def test_bad_inputs_are_clear_errors(call):
    with pytest.raises(ValueError):
        call()
