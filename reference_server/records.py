"""What the ledger takes and holds, as values: the accounts a transaction opens, the transactions applied, the
accounts indexed. `Ledger` (reference_server/ledger.py) is the one that changes them."""

from __future__ import annotations

from dataclasses import dataclass

from csi_conformance.ledger_crypto import (
    TOKEN_DISCRIMINATOR,
    TOKEN_PROGRAM_ID,
    TokenDataFields,
    encode_token_data,
    hash_to_field,
    token_data_hash,
)
from csi_conformance.reference_server.pagination import SignatureKey

__all__ = ["Account", "NewAccount", "PendingTransaction", "TokenBalanceChange", "Transaction"]


@dataclass(frozen=True)
class NewAccount:
    """An account a transaction opens, without the values the ledger derives (hash, leaf, seq)."""

    owner: bytes
    lamports: int
    tree: bytes
    address: bytes | None = None
    discriminator: int | None = None
    data: bytes | None = None
    data_hash: bytes | None = None
    token: TokenDataFields | None = None

    def __post_init__(self) -> None:
        """Reject what `account_hash` would, so that a bad account fails before anything changes."""
        for name in ("owner", "tree", "address", "data_hash"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, bytes) or len(value) != 32):
                raise ValueError(f"{name} must be 32 bytes")
        for name in ("lamports", "discriminator"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**64):
                raise ValueError(f"{name} must be an integer in [0, 2^64), got {value!r}")
        if not (self.discriminator is None) == (self.data is None) == (self.data_hash is None):
            raise ValueError("an account's discriminator, data and data hash are given together")

    @classmethod
    def plain(
        cls, *, owner: bytes, lamports: int, tree: bytes, address: bytes | None = None,
        discriminator: int | None = None, data: bytes | None = None,
    ) -> NewAccount:
        """A program account. Its data hash is `hash_to_field(data)`: the ledger leaves the data
        hash to the owning program, and this is the scenarios' convention."""
        data_hash = None if data is None else hash_to_field(data)
        return cls(owner, lamports, tree, address, discriminator, data, data_hash)

    @classmethod
    def token_account(
        cls, *, token: TokenDataFields, tree: bytes, lamports: int = 0, address: bytes | None = None
    ) -> NewAccount:
        """A compressed token account: owned by the token program, borsh TokenData as its data."""
        data_hash = token_data_hash(
            mint=token.mint, owner=token.owner, amount=token.amount,
            delegate=token.delegate, frozen=token.state == "frozen",
        )
        return cls(TOKEN_PROGRAM_ID, lamports, tree, address, TOKEN_DISCRIMINATOR,
                   encode_token_data(token), data_hash, token)


@dataclass(frozen=True)
class PendingTransaction:
    """A transaction to apply: what it opens, and the hashes of the accounts it closes."""

    signature: bytes
    slot: int
    block_time: int
    error: str | None = None
    open: tuple[NewAccount, ...] = ()
    close: tuple[bytes, ...] = ()


@dataclass(slots=True)
class Account:
    """A compressed account as indexed; `closed_by` is the signature that consumed it."""

    hash: bytes
    lamports: int
    leaf_index: int
    owner: bytes
    slot_created: int
    tree: bytes
    seq: int | None
    """None for an account of a batched tree: its leaf is written by a batch, not by its own transaction."""
    address: bytes | None
    data: bytes | None
    discriminator: int | None
    data_hash: bytes | None
    token: TokenDataFields | None
    opened_by: bytes
    closed_by: bytes | None = None
    queue: bytes | None = None
    """The output queue of a batched tree the account was written to (None in a v1 tree)."""

    @property
    def closed(self) -> bool:
        return self.closed_by is not None


@dataclass(frozen=True)
class TokenBalanceChange:
    """One token account a transaction opened or closed, as `tokenBalanceChanges` lists it."""

    owner: bytes
    mint: bytes
    amount: int

    @classmethod
    def of(cls, account: Account) -> TokenBalanceChange:
        """The change a token account makes (its owner, mint and amount)."""
        token = account.token
        assert token is not None
        return cls(token.owner, token.mint, token.amount)


@dataclass(frozen=True)
class Transaction:
    """An applied transaction; `opened` and `closed` hold account hashes."""

    signature: bytes
    slot: int
    block_time: int
    error: str | None
    opened: tuple[bytes, ...] = ()
    closed: tuple[bytes, ...] = ()
    pre_token_balances: tuple[TokenBalanceChange, ...] = ()
    post_token_balances: tuple[TokenBalanceChange, ...] = ()
    uses_compression: bool = True
    """False for a real non-voting transaction that never touched compression: it has no compression info."""
    solana: str | None = None
    """The transaction as Solana's `getTransaction` answers it, compact JSON, for a real transaction that used
    compression (read from the ledger); None for a scenario's, which holds no Solana transaction."""

    @property
    def key(self) -> SignatureKey:
        return (self.slot, self.signature)
