"""The chain's keypairs, all derived from the seed: the same seed signs the same transactions.

Ed25519 signatures are deterministic, so with the same keys, messages and blockhashes, two runs
give byte-identical transactions. A key is `Keypair.from_seed(sha256("csi-chain/<seed>/<role>"))`:
users, the forester, mint authorities, mints, and the accounts of trees a run creates.
"""

from __future__ import annotations

import hashlib
from functools import cache

from solders.keypair import Keypair
from solders.pubkey import Pubkey

__all__ = ["USERS", "Keys"]

USERS = 6
"""Wallets that own compressed accounts (and pay for their transactions)."""


class Keys:
    def __init__(self, seed: int) -> None:
        self.seed = seed

    @cache  # noqa: B019 - a Keys lives as long as its chain
    def keypair(self, role: str) -> Keypair:
        return Keypair.from_seed(hashlib.sha256(f"csi-chain/{self.seed}/{role}".encode()).digest())

    def user(self, index: int) -> Keypair:
        return self.keypair(f"user/{index}")

    @property
    def users(self) -> list[Pubkey]:
        return [self.user(i).pubkey() for i in range(USERS)]

    @property
    def forester(self) -> Keypair:
        return self.keypair("forester")

    @property
    def treasurer(self) -> Keypair:
        """Pays for setup transactions (trees, mints) and holds the mints' authorities."""
        return self.keypair("treasurer")

    def signer_of(self, key: Pubkey) -> Keypair:
        """The keypair of a user, the forester or the treasurer (KeyError for any other key)."""
        for keypair in (*(self.user(i) for i in range(USERS)), self.forester, self.treasurer):
            if keypair.pubkey() == key:
                return keypair
        raise KeyError(f"{key} is not a key of this chain")
