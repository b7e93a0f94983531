"""Light's own programs generate the ledger: a real chain in LiteSVM, and a Solana node over it.

The v1 programs of `@lightprotocol/zk-compression-cli` 0.18.0 (installed with the prover, see
`ledger_proofs.install`) run in LiteSVM (`runtime`); instructions are encoded from borsh layouts
(`layouts`, `system`, `token`, `forester`); operations drawn with hypothesis from a seed over the
kit's model of who owns what (`kinds`, `draw`, `model`) are executed with real proofs
(`proofs`), and written as `getBlock` results (`generation`), which `rpc` and `node` serve as a
Solana JSON-RPC node. `replay` loads a chain folder back into LiteSVM, `judge` puts any
validity proof into a simulated transaction for the on-chain verifier to accept or refuse, and
`judge_queued` a spend by index of an account of a batched tree's output queue. `judging` is the
one face its judges (the harness's `onchain` checks) see: `ChainJudge` and the values it returns.
A layer of its own: it may import `ledger_crypto`, `ledger_ingest`, `ledger_proofs` and `schema`,
never `harness`, `reference_server` or `cases`. See docs/real-chain.md.
"""

from csi_conformance.ledger_chain.accounts import TreeAccount, read_tree
from csi_conformance.ledger_chain.chain import Chain
from csi_conformance.ledger_chain.generation import Generated, generate
from csi_conformance.ledger_chain.judge import (
    RootHistory,
    Verdict,
    groups,
    judge_proof,
    new_address,
    root_history,
    spent_accounts,
)
from csi_conformance.ledger_chain.judging import (
    AccountGroup,
    ChainJudge,
    QueuedAccount,
    SpentAccount,
    read_root_history,
)
from csi_conformance.ledger_chain.proofs import ChainProver
from csi_conformance.ledger_chain.replay import Replayer, load_chain, read_chain
from csi_conformance.ledger_chain.rpc import ChainRpc
from csi_conformance.ledger_chain.runtime import ChainError, Runtime

__all__ = [
    "AccountGroup",
    "Chain",
    "ChainError",
    "ChainJudge",
    "ChainProver",
    "ChainRpc",
    "Generated",
    "QueuedAccount",
    "Replayer",
    "RootHistory",
    "Runtime",
    "SpentAccount",
    "TreeAccount",
    "Verdict",
    "generate",
    "groups",
    "judge_proof",
    "load_chain",
    "new_address",
    "read_chain",
    "read_root_history",
    "read_tree",
    "root_history",
    "spent_accounts",
]
