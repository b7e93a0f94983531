"""Judging a validity proof on-chain: the real verifier in a simulated transaction.

Whoever served a proof (the reference, or an indexer under test), the programs are the judge: a
transaction spends the proven accounts and creates the proven addresses with the served proof
and root indices, and LiteSVM simulates it over the chain's state, keeping nothing. Accepted, or
refused with the program's error code and what it means (13006: the proof does not verify
against the on-chain roots at those indices; 13002/13003: a point that does not decompress;
9002: an account already spent), or the program's panic (a root index past the newest root makes
the v1 system program panic on an empty slot of the root history). The chain's keys come from
its seed, so any of its users can sign the spend. Accounts proven together must be spendable
together: plain accounts of one owner (with or without new addresses), or token accounts of one
owner and one mint; `groups` lists such sets. An account the chain has spent, whose leaf the
forester has not zeroed yet (`spent_accounts`), can be put in such a transaction too: a proof of it
still folds to the on-chain root, and the nullifier queue refuses the spend (9002).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from csi_conformance.ledger_chain.accounts import read_tree
from csi_conformance.ledger_chain.batched_model import read_batched_tree
from csi_conformance.ledger_chain.chain import COMPUTE_UNITS, Chain
from csi_conformance.ledger_chain.errors_0_28 import today_error_meaning
from csi_conformance.ledger_chain.instructions import CompressedAccount, InputAccount
from csi_conformance.ledger_chain.model import LiveAccount, Model
from csi_conformance.ledger_chain.operations import address_of, input_of
from csi_conformance.ledger_chain.programs import error_meaning
from csi_conformance.ledger_chain.runtime import Executed, failing_program
from csi_conformance.ledger_chain.system import NewAddress, Output, invoke
from csi_conformance.ledger_chain.token import TokenInput, TokenOutput, transfer
from solders.compute_budget import set_compute_unit_limit
from solders.instruction import Instruction
from solders.keypair import Keypair
from solders.message import Message
from solders.pubkey import Pubkey
from solders.transaction import Transaction

__all__ = ["RootHistory", "Verdict", "groups", "history_of", "judge_proof", "new_address", "panic_meaning",
           "root_history", "spent_accounts"]


@dataclass(frozen=True)
class RootHistory:
    """A tree's on-chain roots: `roots[i]` is what a proof naming root index i is checked against."""

    tree: Pubkey
    sequence_number: int
    roots: tuple[bytes, ...]

    @property
    def current_index(self) -> int:
        return self.sequence_number % len(self.roots)


@dataclass(frozen=True)
class Verdict:
    accepted: bool
    code: int | None
    meaning: str
    logs: tuple[str, ...]
    compute_units: int


BATCHED_TREE = b"BatchMta"
"""The discriminator of a batched tree account (light-batched-merkle-tree's `BatchedMerkleTreeAccount`)."""


def root_history(chain: Chain, tree: Pubkey) -> RootHistory:
    """The root history of a state or address tree, as its account holds it now (a batched tree's too)."""
    return history_of(tree, chain.runtime.data(tree))


def history_of(tree: Pubkey, data: bytes) -> RootHistory:
    """A tree's root history from its account's bytes: a batched tree by its discriminator, else a v1 tree."""
    if data[:8] == BATCHED_TREE:
        batched = read_batched_tree(data)
        return RootHistory(tree, batched.sequence_number, batched.history)
    onchain = read_tree(data)
    return RootHistory(tree, onchain.sequence_number, onchain.roots)


def new_address(chain: Chain, seed: bytes) -> bytes:
    """The address a 32-byte seed creates in the chain's address tree: ask a proof for this, judge with the seed."""
    return address_of(seed, chain.model.address_tree_key)


def groups(chain: Chain) -> list[list[bytes]]:
    """Sets of live account hashes that one transaction can spend together (one owner, one kind, one mint)."""
    found: dict[tuple[bytes, bytes | None], list[bytes]] = {}
    for account in sorted(chain.model.live.values(), key=lambda a: a.hash):
        users = chain.keys.users
        if account.holder not in users or (account.token is not None and account.token.state != "initialized"):
            continue
        mint = account.token.mint if account.token else None
        found.setdefault((bytes(account.holder), mint), []).append(account.hash)
    return list(found.values())


def appended_groups(chain: Chain) -> list[list[bytes]]:
    """Sets of live plain accounts of one user appended to one batched tree by the forester (their leaf in the
    tree, as its account's next index says): what a v2 inclusion proof (height 32) proves, spent together."""
    batched = getattr(chain.model, "batched", {})
    next_index = {tree: read_batched_tree(chain.runtime.data(tree)).next_index for tree in batched}
    found: dict[tuple[bytes, Pubkey], list[bytes]] = {}
    for account in sorted(chain.model.live.values(), key=lambda a: a.hash):
        if account.tree in next_index and account.leaf_index < next_index[account.tree] \
                and account.token is None and account.holder in chain.keys.users:
            found.setdefault((bytes(account.holder), account.tree), []).append(account.hash)
    return list(found.values())


def spent_accounts(chain: Chain) -> list[bytes]:
    """Hashes of accounts the chain has spent and the forester has not nullified yet, that a user of the chain
    could sign for: a transaction spending one again is what an indexer's proof of a spent account leads to."""
    users = set(chain.keys.users)
    return sorted(hash_ for hash_, account in chain.model.spent.items()
                  if account.holder in users and (account.token is None or account.token.state == "initialized"))


def judge_proof(chain: Chain, *, hashes: Sequence[bytes] = (), seeds: Sequence[bytes] = (), proof: dict,
                root_indices: Sequence[int]) -> Verdict:
    """Simulate spending `hashes` (live accounts, or spent ones of `spent_accounts`) and creating the addresses of
    `seeds` with `proof`; `root_indices` as served (the accounts' first, then the addresses'). ValueError when
    they cannot be spent together."""
    if len(root_indices) != len(hashes) + len(seeds):
        raise ValueError(f"{len(root_indices)} root indices for {len(hashes)} accounts and {len(seeds)} addresses")
    accounts = []
    for hash_ in hashes:
        account = chain.model.live.get(hash_) or chain.model.spent.get(hash_)
        if account is None:
            raise ValueError(f"0x{hash_.hex()} is not a live account of this chain, nor a spent one whose leaf is "
                             "still in its tree")
        accounts.append(account)
    signer = _signer(chain, accounts)
    if accounts and accounts[0].token is not None:
        if seeds:
            raise ValueError("token accounts and new addresses cannot be spent in one transaction")
        ix = _token_spend(chain, signer, accounts, proof, root_indices)
    else:
        ix = _spend(chain, signer, accounts, seeds, proof, root_indices)
    message = Message.new_with_blockhash([set_compute_unit_limit(COMPUTE_UNITS), ix], signer.pubkey(),
                                         chain.runtime.blockhash)
    return _verdict(chain.runtime.simulate(Transaction([signer], message, chain.runtime.blockhash)), today=chain.today)


def _signer(chain: Chain, accounts: Sequence[LiveAccount]) -> Keypair:
    holders = {account.holder for account in accounts}
    kinds = {None if a.token is None else (a.token.mint, a.token.state) for a in accounts}
    if len(holders) > 1 or len(kinds) > 1:
        raise ValueError("the accounts have several owners or kinds: one transaction cannot spend them")
    holder = holders.pop() if holders else chain.keys.users[0]
    try:
        return chain.keys.signer_of(holder)
    except KeyError:
        raise ValueError(f"{holder} is no user of this chain: nobody here can sign for its accounts") from None


def _spend(chain: Chain, signer: Keypair, accounts: Sequence[LiveAccount], seeds: Sequence[bytes], proof: dict,
           root_indices: Sequence[int]) -> Instruction:
    model = chain.model
    inputs = [_input(model, account, root_indices[i]) for i, account in enumerate(accounts)]
    tree = accounts[0].tree if accounts and accounts[0].tree in model.state_trees else next(iter(model.state_trees))
    outputs = [Output(signer.pubkey(), sum(a.lamports for a in accounts), tree)] if accounts else []
    addresses = [NewAddress(seed, root_indices[len(accounts) + i], model.address_tree_key, model.address_queue)
                 for i, seed in enumerate(seeds)]
    return invoke(payer=signer.pubkey(), authority=signer.pubkey(), inputs=inputs, outputs=outputs,
                  new_addresses=addresses, proof=proof)


def _input(model: Model, account: LiveAccount, root_index: int) -> InputAccount:
    """Where an account to spend by proof is: a v1 tree and its nullifier queue, or a batched tree and its output
    queue (its leaf appended, proven by root: the byte that was 0.18.0's empty queue index is `prove_by_index`
    false in today's layout)."""
    batched = getattr(model, "batched", {})
    if account.tree in batched:
        return InputAccount(CompressedAccount(account.owner, account.lamports, account.address), account.hash,
                            account.tree, batched[account.tree].queue, account.leaf_index, root_index)
    return replace(input_of(model, account), root_index=root_index)


def _token_spend(chain: Chain, signer: Keypair, accounts: Sequence[LiveAccount], proof: dict,
                 root_indices: Sequence[int]) -> Instruction:
    inputs = []
    for account, root_index in zip(accounts, root_indices, strict=True):
        assert account.token is not None
        delegate = None if account.token.delegate is None else Pubkey.from_bytes(account.token.delegate)
        inputs.append(TokenInput(account.token.amount, account.tree, chain.model.state_trees[account.tree].queue,
                                 account.leaf_index, root_index, delegate, account.lamports))
    assert accounts[0].token is not None
    total = sum(item.amount for item in inputs)
    return transfer(signer.pubkey(), signer.pubkey(), Pubkey.from_bytes(accounts[0].token.mint), inputs=inputs,
                    outputs=[TokenOutput(signer.pubkey(), total, accounts[0].tree)], proof=proof)


def _verdict(executed: Executed, *, today: bool = False) -> Verdict:
    """The programs' verdict; a refusal's code in the words of the programs that gave it (today's have their own)."""
    if executed.err is None:
        return Verdict(True, None, "accepted", executed.logs, executed.compute_units)
    code = executed.custom_code
    if code is None:
        meaning = panic_meaning(executed)
    else:
        meaning = today_error_meaning(code, executed.logs) if today else error_meaning(code,
                                                                                       failing_program(executed.logs))
    return Verdict(False, code, meaning, executed.logs, executed.compute_units)


def panic_meaning(executed: Executed) -> str:
    """A refusal without an error code, in words: where the program panicked, or the transaction's error."""
    panic = next((line.split("panicked at ", 1)[1] for line in executed.logs if "panicked at " in line), None)
    meaning = f"the program panicked at {panic}" if panic else str(executed.err)
    if panic and "verify_state_proof" in panic:
        meaning += " (a root index naming no root yet in the tree's history)"
    return meaning
