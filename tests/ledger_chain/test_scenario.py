"""The bundled default scenario against the real programs: every account of it the v1 programs can make for
keys nobody holds a secret for is made on-chain with the scenario's own values (owners, lamports up to
2^53+1, addresses from the scenario's seeds, token amounts up to u64 max, a frozen account, lamports on a
token account), and the programs' account, data and hash equal what the scenario derives: the same
owner, lamports, address, TokenData bytes and data hash, and the kit's account hash (the function the
scenario derives every hash with) at the leaf index the chain gave. The rest is said where it is skipped.

Not made: accounts with data owned by a program (`counter`, `registry`: only a program may own such an
account, through `invoke_cpi`, and no such program is installed), delegated token accounts (an approve
needs the owner's signature, and scenario keys are hashes, not keypairs), and accounts in the scenario's
second tree `smt2rJ…` (a tree account is created by its own keypair, which is not public). Leaf indices
differ from the scenario's (its first leaf is a data account), so the hash is compared through the
kit's function, not byte for byte with the scenario's stored hash.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
import yaml
from Crypto.Hash import keccak
from csi_conformance.ledger_chain import Chain
from csi_conformance.ledger_chain.operations import Built, Context, Operation, SolInvoke
from csi_conformance.ledger_chain.programs import SPL_TOKEN, STATE_TREE
from csi_conformance.ledger_chain.proofs import ChainProver
from csi_conformance.ledger_chain.system import Output
from csi_conformance.ledger_chain.token import MINT_SIZE, TokenInput, create_token_pool, freeze, mint_to
from csi_conformance.ledger_crypto import account_hash, encode_token_data
from csi_conformance.ledger_proofs.install import Installation
from csi_conformance.reference_server.records import Account as ScenarioAccount
from csi_conformance.reference_server.scenario import open_scenario, scenario_path
from solders.account import Account
from solders.pubkey import Pubkey

pytestmark = pytest.mark.chain


@dataclass(frozen=True)
class Plan(Operation):
    """An operation written out in the test: its instructions come from `make`."""

    kind: ClassVar[str] = "scenario"
    make: Any

    def build(self, ctx: Context) -> Built:
        return self.make(ctx)


def _spl_mint(authority: Pubkey) -> bytes:
    """An initialised SPL mint (82 bytes): the test's treasurer its mint and freeze authority, 0 decimals."""
    return (b"\x01\0\0\0" + bytes(authority) + bytes(8) + b"\x00\x01" + b"\x01\0\0\0" + bytes(authority))


def _seed(owner: bytes, seeds: list[str]) -> bytes:
    digest = keccak.new(data=owner + b"".join(s.encode() for s in seeds), digest_bits=256).digest()
    return b"\0" + digest[1:]


def _made(chain: Chain, before: set[bytes]) -> list[Any]:
    return [a for h, a in chain.model.live.items() if h not in before]


def test_default_scenario_accounts_are_what_the_programs_make(installation: Installation) -> None:
    scenario = open_scenario("default")
    document = yaml.safe_load(scenario_path("default").read_text())
    seeds = {spec["label"]: spec["address"]["seed"] for tx in document["transactions"] for spec in tx.get("open", [])
             if isinstance(spec.get("address"), dict) and "seed" in spec["address"]}
    label_of = {hash_: label for label, hash_ in scenario.labels.items()}
    tree1 = bytes(STATE_TREE)
    plain = [a for a in scenario.ledger.accounts.values() if a.tree == tree1 and a.token is None and a.data is None]
    tokens = [a for a in scenario.ledger.accounts.values()
              if a.tree == tree1 and a.token is not None and a.token.delegate is None and a.token.tlv is None]
    assert len(plain) >= 8 and len(tokens) >= 4

    chain = Chain(7, installation, ChainProver())
    chain.runtime.fund(chain.keys.user(0).pubkey(), 2**62)
    made: list[tuple[ScenarioAccount, Any]] = []
    for account in plain:
        before = set(chain.model.live)
        address_seeds = seeds.get(label_of[account.hash])
        seed = () if address_seeds is None else (_seed(account.owner, address_seeds),)
        output = Output(Pubkey.from_bytes(account.owner), account.lamports, STATE_TREE, account.address)
        chain.run(SolInvoke("scenario", 0, outputs=(output,), seeds=seed, compress=account.lamports or None))
        made.append((account, _made(chain, before)[0]))
    treasurer = chain.keys.treasurer.pubkey()
    for mint in {a.token.mint for a in tokens if a.token}:
        chain.runtime.svm.set_account(Pubkey.from_bytes(mint), Account(
            lamports=chain.runtime.rent(MINT_SIZE), data=_spl_mint(treasurer), owner=SPL_TOKEN, executable=False,
            rent_epoch=0))
        chain.run(Plan(lambda ctx, m=mint: Built((create_token_pool(treasurer, Pubkey.from_bytes(m)),),
                                                 (ctx.keys.treasurer,))))
    for account in tokens:
        assert account.token is not None
        token, before = account.token, set(chain.model.live)
        chain.run(Plan(lambda ctx, t=token, a=account: Built((mint_to(
            treasurer, treasurer, Pubkey.from_bytes(t.mint), STATE_TREE, [(Pubkey.from_bytes(t.owner), t.amount)],
            lamports=a.lamports or None),), (ctx.keys.treasurer,))))
        if token.state == "frozen":
            (minted,) = _made(chain, before)
            chain.run(Plan(lambda ctx, t=token, m=minted: Built((freeze(
                treasurer, treasurer, Pubkey.from_bytes(t.mint), owner=Pubkey.from_bytes(t.owner),
                inputs=[TokenInput(t.amount, STATE_TREE, ctx.model.state_trees[STATE_TREE].queue, m.leaf_index,
                                   ctx.model.root_index(STATE_TREE), lamports=m.lamports)],
                proof=ctx.prover.prove([ctx.model.account_proof(m)], []), tree=STATE_TREE),), (ctx.keys.treasurer,))))
        made.append((account, _made(chain, before)[-1]))

    assert {a.token.state for a, _ in made if a.token} == {"initialized", "frozen"}
    for expected, onchain in made:
        assert (bytes(onchain.owner), onchain.lamports, onchain.address) == (expected.owner, expected.lamports,
                                                                              expected.address)
        data_hash = None
        if expected.token is not None:
            assert onchain.token == expected.token
            data_hash = scenario.ledger.accounts[expected.hash].data_hash
            assert encode_token_data(expected.token) == expected.data
        assert onchain.hash == account_hash(owner=expected.owner, leaf_index=onchain.leaf_index, tree=tree1,
                                            lamports=expected.lamports, address=expected.address,
                                            discriminator=expected.discriminator, data_hash=data_hash)
