"""The kit's model of the chain: who owns what, and its own copy of every tree.

It learns only from what the programs did: after each transaction the events it wrote (read by
`ledger_ingest`, as an indexer reads them) say which accounts it opened, with their hashes, leaf
indices and seqs, and which it spent. The trees are the kit's own (`ledger_crypto`: Poseidon,
height 26, root history); a proof's root, path and root index come from them, and after every
transaction each tree's root and sequence number must equal the on-chain account's (`check`),
or the kit and the programs disagree: a ChainError, never a chain written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from csi_conformance.ledger_chain.accounts import read_tree
from csi_conformance.ledger_chain.proofs import AccountProof, AddressProof
from csi_conformance.ledger_chain.runtime import ChainError, Runtime
from csi_conformance.ledger_crypto import AddressTree, StateTree, TokenDataFields
from csi_conformance.ledger_ingest import LedgerTransaction
from solders.pubkey import Pubkey

__all__ = ["LiveAccount", "Mint", "Model", "StateTreeMirror"]


@dataclass(frozen=True, slots=True)
class LiveAccount:
    """An unspent compressed account."""

    hash: bytes
    tree: Pubkey
    leaf_index: int
    owner: Pubkey
    lamports: int
    address: bytes | None
    token: TokenDataFields | None

    @property
    def holder(self) -> Pubkey:
        """Who may spend it: the token owner of a token account, else the owner."""
        return Pubkey.from_bytes(self.token.owner) if self.token is not None else self.owner


@dataclass
class StateTreeMirror:
    key: Pubkey
    queue: Pubkey
    tree: StateTree = field(default_factory=StateTree)


@dataclass(frozen=True, slots=True)
class Mint:
    key: Pubkey
    decimals: int
    freezable: bool


@dataclass
class Model:
    state_trees: dict[Pubkey, StateTreeMirror]
    address_tree_key: Pubkey
    address_queue: Pubkey
    address_tree: AddressTree = field(default_factory=AddressTree)
    live: dict[bytes, LiveAccount] = field(default_factory=dict)
    spent: dict[bytes, LiveAccount] = field(default_factory=dict)
    """Spent accounts whose leaf the forester has not zeroed yet, by hash."""
    queued_addresses: list[int] = field(default_factory=list)
    """New addresses the forester has not inserted yet, oldest first."""
    mints: dict[Pubkey, Mint] = field(default_factory=dict)
    spl: dict[tuple[Pubkey, Pubkey], int] = field(default_factory=dict)
    """SPL token balances of the users' associated token accounts: (owner, mint) -> amount."""

    # ------------------------------------------------------------------ reading

    def accounts_of(self, holder: Pubkey, *, token: bool | None = None) -> list[LiveAccount]:
        """A holder's live accounts (plain ones, token ones, or both), in hash order."""
        found = [a for a in self.live.values()
                 if a.holder == holder and (token is None or (a.token is not None) == token)]
        return sorted(found, key=lambda a: a.hash)

    def account_proof(self, account: LiveAccount) -> AccountProof:
        tree = self.state_trees[account.tree].tree
        return AccountProof(tree.root, account.leaf_index, tuple(tree.proof(account.leaf_index)), account.hash)

    def root_index(self, tree: Pubkey) -> int:
        return self.state_trees[tree].tree.root_index

    def address_proof(self, value: int) -> AddressProof:
        proof = self.address_tree.non_inclusion_proof(value)
        return AddressProof(proof.root, value, proof.low_leaf_index, proof.path, proof.low_value,
                            proof.low_next_value, proof.low_next_index)

    def address_taken(self, value: int) -> bool:
        return value in self.address_tree or value in self.queued_addresses

    # ------------------------------------------------------------------ learning

    def apply(self, changes: LedgerTransaction, *, queued: tuple[int, ...] = ()) -> None:
        """What a successful transaction did, from its events; ChainError when the kit's trees disagree."""
        for hash_ in changes.closed:
            account = self.live.pop(hash_, None)
            if account is None:
                raise ChainError(f"the chain spent 0x{hash_.hex()}, which the kit holds for no live account")
            self.spent[hash_] = account
        for output in changes.opened:
            tree_key = Pubkey.from_bytes(output.tree)
            tree = self.state_trees[tree_key].tree
            index, seq = tree.append(output.hash)
            if (index, seq) != (output.leaf_index, output.seq):
                raise ChainError(f"the chain put 0x{output.hash.hex()} at leaf {output.leaf_index}, seq {output.seq}; "
                                 f"the kit's tree at leaf {index}, seq {seq}")
            self.live[output.hash] = LiveAccount(output.hash, tree_key, output.leaf_index,
                                                 Pubkey.from_bytes(output.owner), output.lamports, output.address,
                                                 output.token)
        for nullified in changes.nullified:
            tree_key = Pubkey.from_bytes(nullified.tree)
            self.state_trees[tree_key].tree.nullify(nullified.leaf_index)
            place = (tree_key, nullified.leaf_index)
            self.spent = {h: a for h, a in self.spent.items() if (a.tree, a.leaf_index) != place}
        for update in changes.address_updates[1::2]:  # (new low element, new element) per insertion
            self.address_tree.insert(update.value)
            self.queued_addresses.remove(update.value)
        self.queued_addresses.extend(queued)

    def check(self, runtime: Runtime) -> None:
        """Every tree's root and sequence number equal the on-chain account's; ChainError otherwise."""
        trees = [(key, mirror.tree) for key, mirror in self.state_trees.items()]
        for key, tree in (*trees, (self.address_tree_key, self.address_tree)):
            onchain = read_tree(runtime.data(key))
            if onchain.sequence_number != tree.seq or onchain.root != tree.root:
                raise ChainError(f"tree {key}: on-chain seq {onchain.sequence_number} root 0x{onchain.root.hex()}, "
                                 f"the kit's seq {tree.seq} root 0x{tree.root.hex()}")
