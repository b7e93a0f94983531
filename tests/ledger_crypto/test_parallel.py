"""Batch Poseidon over worker processes: same results as in-process hashing, errors, pipelining."""

import random

import pytest
from csi_conformance.ledger_crypto import (
    FIELD_MODULUS,
    AddressTree,
    StateTree,
    hashing_pool,
    parallel_threshold,
    poseidon,
    poseidon_many,
    poseidon_stream,
)


def rows(count: int, seed: int) -> list[tuple[bytes, ...]]:
    """Rows of one to four field elements."""
    rng = random.Random(seed)
    return [tuple(rng.randrange(FIELD_MODULUS).to_bytes(32, "big") for _ in range(rng.randint(1, 4)))
            for _ in range(count)]


def test_without_a_pool_nothing_is_shared():
    batch = rows(5, seed=1)
    assert parallel_threshold() is None
    assert poseidon_many(batch) == [poseidon(*row) for row in batch]
    with hashing_pool(0) as workers:
        assert workers == 0
        assert parallel_threshold() is None
        assert poseidon_many(batch) == [poseidon(*row) for row in batch]


def test_workers_give_the_same_hashes_in_the_same_order():
    batch = rows(101, seed=2)
    expected = [poseidon(*row) for row in batch]
    with hashing_pool(2, min_batch=10) as workers:
        assert workers == 2
        assert parallel_threshold() == 10
        assert poseidon_many(batch) == expected
        assert poseidon_many(batch[:7]) == expected[:7]  # under min_batch: hashed here
        with hashing_pool(5) as nested:  # a nested block keeps the outer workers
            assert nested == 2
            assert poseidon_many(batch) == expected
    assert parallel_threshold() is None


def test_a_bad_row_raises_and_the_workers_stay_usable():
    batch = rows(40, seed=3)
    with hashing_pool(1, min_batch=1):
        for bad_at in (0, 39):  # in the worker's share, then in this process's share
            broken = [*batch]
            broken[bad_at] = (b"short",)
            with pytest.raises(ValueError, match="32 bytes"):
                poseidon_many(broken)
        too_big = [*batch[:10], (FIELD_MODULUS.to_bytes(32, "big"),)]
        with pytest.raises(ValueError):
            poseidon_many(too_big)
        assert poseidon_many(batch) == [poseidon(*row) for row in batch]


@pytest.mark.parametrize("workers", [0, 1])
def test_stream_yields_every_batch_in_order_with_its_tag(workers: int):
    batches = [(f"batch-{i}", rows(size, seed=10 + i)) for i, size in enumerate((12, 0, 30, 5))]
    with hashing_pool(workers, min_batch=1):
        got = list(poseidon_stream(iter(batches)))
    assert [tag for tag, _ in got] == [tag for tag, _ in batches]
    for (_, hashes), (_, batch) in zip(got, batches, strict=True):
        assert hashes == [poseidon(*row) for row in batch]


def test_a_stream_left_early_keeps_the_workers_in_step():
    batches = [(i, rows(20, seed=20 + i)) for i in range(4)]
    with hashing_pool(1, min_batch=1):
        stream = poseidon_stream(iter(batches))
        first_tag, _ = next(stream)
        stream.close()  # the second batch was already sent
        assert first_tag == 0
        assert poseidon_many(batches[3][1]) == [poseidon(*row) for row in batches[3][1]]


def test_trees_built_with_workers_equal_trees_built_here():
    rng = random.Random(5)
    leaves = [rng.randrange(FIELD_MODULUS).to_bytes(32, "big") for _ in range(300)]
    values = [rng.randrange(1, 2**248 - 1) for _ in range(120)]
    here, shared = StateTree(), StateTree()
    here_addresses, shared_addresses = AddressTree(), AddressTree()
    here.write_many(appends=leaves, nullify=[3, 250])
    here_addresses.insert_many(values)
    with hashing_pool(1, min_batch=4):
        shared.write_many(appends=leaves, nullify=[3, 250])
        shared_addresses.insert_many(values)
    assert (shared.root, shared.seq) == (here.root, here.seq)
    assert shared.proof(123) == here.proof(123)
    assert (shared_addresses.root, shared_addresses.seq) == (here_addresses.root, here_addresses.seq)
    assert shared_addresses.element(50) == here_addresses.element(50)
