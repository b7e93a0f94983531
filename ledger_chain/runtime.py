"""Light's programs running in LiteSVM, set up as real-chain.md measured: the one runtime of the chain.

The feature set is mainnet's with SIMD-0359 ("enforce padding in Poseidon hash inputs")
deactivated: the v1 programs hash the leaf index as 4 bytes and lamports as 9, and with the gate
on every Poseidon syscall fails (`Custom(1)`). `FeatureSet.all_enabled()` is never used: it turns
on SIMD-0460, and the VM then does not start. The five programs are added, the twelve account
dumps set with their owner and lamports, the sol pool PDA funded with the rent-exempt minimum
(a first compression under 890,880 lamports fails for rent otherwise), and the kit's forester
key written into the dumped trees, which name none (bytes 72..104: `AccessMetadata.forester`),
so the registry lets it nullify leaves and insert addresses.

Transactions are real: signed, size-checked like a packet (1,232 bytes), executed, and what a
node records of them is kept (`Executed`): error, logs, inner instructions, compute units, fee,
balances before and after.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from csi_conformance.ledger_chain.programs import (
    ADDRESS_TREE,
    PROGRAM_FILES,
    PROGRAM_NAMES,
    SOLANA_SYSTEM,
    SPL_TOKEN,
    STATE_TREE,
    error_meaning,
    pda,
)
from csi_conformance.ledger_chain.programs_0_28 import TodayPrograms
from csi_conformance.ledger_proofs.install import Installation
from solders.account import Account
from solders.clock import Clock
from solders.hash import Hash
from solders.litesvm import LiteSVM
from solders.pubkey import Pubkey
from solders.transaction import Transaction
from solders.transaction_metadata import FailedTransactionMetadata, TransactionMetadata

__all__ = ["PACKET_SIZE", "ChainError", "Executed", "InnerInstruction", "Runtime", "failing_program", "read_dumps"]

PACKET_SIZE = 1232
"""Largest serialized transaction a Solana node accepts."""
POSEIDON_PADDING_GATE = Pubkey.from_string("poUdAqRXXsNmfqAZ6UqpjbeYgwBygbfQLEvWSqVhSnb")
FORESTER_FIELD = slice(72, 104)
"""`AccessMetadata.forester` in a tree account: after the 8-byte discriminator, owner and program owner."""
TOKEN_ACCOUNT_SIZE = 165


class ChainError(Exception):
    """An operation the real programs refused, or that cannot be built; names the operation and why."""

    def __init__(self, what: str, *, code: int | None = None, logs: Sequence[str] = ()) -> None:
        self.code = code
        self.logs = tuple(logs)
        super().__init__(what)


@dataclass(frozen=True, slots=True)
class InnerInstruction:
    program_index: int
    accounts: bytes
    data: bytes
    stack_height: int | None


@dataclass(frozen=True, slots=True)
class Executed:
    """One transaction as a node records it."""

    transaction: Transaction
    err: Any
    """None, or the error as the RPC writes it (`{"InstructionError": [1, {"Custom": 13006}]}`)."""
    logs: tuple[str, ...]
    inner: tuple[tuple[InnerInstruction, ...], ...]
    """The inner instructions of each outer instruction, in order."""
    compute_units: int
    fee: int
    pre_balances: tuple[int, ...]
    post_balances: tuple[int, ...]
    pre_token_balances: tuple[dict[str, Any], ...] = ()
    post_token_balances: tuple[dict[str, Any], ...] = ()

    @property
    def signature(self) -> bytes:
        return bytes(self.transaction.signatures[0])

    @property
    def custom_code(self) -> int | None:
        """The `Custom(n)` of an instruction error, if that is how it failed."""
        if isinstance(self.err, dict) and "InstructionError" in self.err:
            detail = self.err["InstructionError"][1]
            if isinstance(detail, dict) and "Custom" in detail:
                return int(detail["Custom"])
        return None

    def failure(self, operation: str) -> ChainError:
        """The one-line error naming the operation, the failing program, its code and what it means."""
        code = self.custom_code
        program = failing_program(self.logs)
        where = PROGRAM_NAMES.get(program, str(program)) if program is not None else "the runtime"
        meaning = f"Custom({code}): {error_meaning(code, program)}" if code is not None else json.dumps(self.err)
        return ChainError(f"{operation} failed in the {where}: {meaning}", code=code, logs=self.logs)


def failing_program(logs: Sequence[str], *, origin: bool = False) -> Pubkey | None:
    """The program whose failure ended a transaction, from its log (`Program <id> failed: …`); with `origin`,
    the one where the failure began (the first such line: the callers that fail after it only pass it on)."""
    for line in logs if origin else reversed(logs):
        parts = line.split()
        if len(parts) >= 3 and parts[0] == "Program" and parts[2].startswith("failed"):
            try:
                return Pubkey.from_string(parts[1])
            except ValueError:
                return None
    return None


def read_dumps(folder: Path) -> list[tuple[Pubkey, Account]]:
    """The account dumps (Solana `getAccountInfo` JSON, data base64) of a folder, in name order."""
    found = []
    for path in sorted(folder.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        raw = document["account"]
        found.append((Pubkey.from_string(document["pubkey"]), Account(
            lamports=raw["lamports"], data=base64.b64decode(raw["data"][0]), owner=Pubkey.from_string(raw["owner"]),
            executable=raw["executable"], rent_epoch=0)))
    return found


class Runtime:
    """One LiteSVM with Light's programs (0.18.0's, or today's), the dumped trees, and the kit's forester."""

    def __init__(self, installation: Installation | TodayPrograms, *, forester: Pubkey) -> None:
        features = LiteSVM.mainnet_feature_set()
        features.deactivate(POSEIDON_PADDING_GATE)
        self.features = features
        self.svm = (LiteSVM.default().with_feature_set(features).with_builtins().with_sysvars()
                    .with_default_programs().with_sigverify(True).with_blockhash_check(False)
                    .with_transaction_history(0))  # the chain names its blockhashes, not LiteSVM (chain.py)
        files = installation.program_files if isinstance(installation, TodayPrograms) else PROGRAM_FILES
        for program, name in files.items():
            self.svm.add_program(program, (installation.programs_dir / name).read_bytes())
        for key, account in read_dumps(installation.accounts_dir):
            if key in (STATE_TREE, ADDRESS_TREE):
                account = _with_forester(account, forester)
            self.svm.set_account(key, account)
        self.fund(pda("sol_pool")[0], self.svm.minimum_balance_for_rent_exemption(0))

    # ------------------------------------------------------------------ state

    def fund(self, key: Pubkey, lamports: int) -> None:
        """Give a system account `lamports` at genesis (not a transaction: the chain starts with them)."""
        self.svm.set_account(key, Account(lamports=lamports, data=b"", owner=SOLANA_SYSTEM, executable=False,
                                          rent_epoch=0))

    def data(self, key: Pubkey) -> bytes:
        account = self.svm.get_account(key)
        return b"" if account is None else bytes(account.data)

    def balance(self, key: Pubkey) -> int:
        return self.svm.get_balance(key) or 0

    def rent(self, size: int) -> int:
        return self.svm.minimum_balance_for_rent_exemption(size)

    @property
    def blockhash(self) -> Hash:
        return self.svm.latest_blockhash()

    def at_slot(self, slot: int, unix_time: int) -> None:
        """Move the clock to `slot`: the programs read it (the registry's epochs, rent)."""
        self.svm.set_clock(Clock(slot=slot, epoch_start_timestamp=0, epoch=0, leader_schedule_epoch=0,
                                 unix_timestamp=unix_time))

    # ------------------------------------------------------------------ transactions

    def execute(self, tx: Transaction) -> Executed:
        """Send a signed transaction; what a node records of it. ChainError when it is too large to send."""
        check_size(tx)
        keys = list(tx.message.account_keys)
        pre, pre_tokens = self._balances(keys)
        result = self.svm.send_transaction(tx)
        post, post_tokens = self._balances(keys)
        return _executed(tx, result, pre, post, pre_tokens, post_tokens)

    def simulate(self, tx: Transaction) -> Executed:
        """Run a signed transaction without keeping anything it changes."""
        check_size(tx)
        keys = list(tx.message.account_keys)
        pre, pre_tokens = self._balances(keys)
        result = self.svm.simulate_transaction(tx)
        outcome = result if isinstance(result, FailedTransactionMetadata) else result.meta()
        return _executed(tx, outcome, pre, pre, pre_tokens, pre_tokens)

    def _balances(self, keys: Iterable[Pubkey]) -> tuple[tuple[int, ...], tuple[dict[str, Any], ...]]:
        lamports, tokens = [], []
        for index, key in enumerate(keys):
            account = self.svm.get_account(key)
            lamports.append(0 if account is None else account.lamports)
            if account is not None and account.owner == SPL_TOKEN and len(account.data) == TOKEN_ACCOUNT_SIZE:
                tokens.append(_token_balance(index, bytes(account.data), self))
        return tuple(lamports), tuple(tokens)


def check_size(tx: Transaction) -> None:
    size = len(bytes(tx))
    if size > PACKET_SIZE:
        raise ChainError(f"the transaction is {size} bytes, over the {PACKET_SIZE} a Solana packet holds")


def _with_forester(account: Account, forester: Pubkey) -> Account:
    data = bytearray(account.data)
    data[FORESTER_FIELD] = bytes(forester)
    return Account(lamports=account.lamports, data=bytes(data), owner=account.owner, executable=account.executable,
                   rent_epoch=account.rent_epoch)


def _token_balance(index: int, data: bytes, runtime: Runtime) -> dict[str, Any]:
    """A `preTokenBalances` / `postTokenBalances` entry of an SPL token account, as a node writes it
    (`uiAmount`, a float on a node, is null here: the exact amount is in `amount` and `uiAmountString`)."""
    mint = Pubkey.from_bytes(data[:32])
    amount = int.from_bytes(data[64:72], "little")
    mint_data = runtime.data(mint)
    decimals = mint_data[44] if len(mint_data) > 44 else 0
    text = _ui_amount(amount, decimals)
    return {"accountIndex": index, "mint": str(mint), "owner": str(Pubkey.from_bytes(data[32:64])),
            "programId": str(SPL_TOKEN),
            "uiTokenAmount": {"amount": str(amount), "decimals": decimals, "uiAmount": None, "uiAmountString": text}}


def _ui_amount(amount: int, decimals: int) -> str:
    """The decimal text of a token amount (`uiAmountString`), exact: no float."""
    if decimals == 0:
        return str(amount)
    whole, fraction = divmod(amount, 10**decimals)
    digits = f"{fraction:0{decimals}d}".rstrip("0")
    return f"{whole}.{digits}" if digits else str(whole)


def _executed(tx: Transaction, result: Any, pre: tuple[int, ...], post: tuple[int, ...],
              pre_tokens: tuple[dict[str, Any], ...], post_tokens: tuple[dict[str, Any], ...]) -> Executed:
    if isinstance(result, FailedTransactionMetadata):
        meta: TransactionMetadata = result.meta()
        err = json.loads(result.to_json())["err"]
    else:
        meta, err = result, None
    inner = tuple(tuple(InnerInstruction(ix.instruction().program_id_index, bytes(ix.instruction().accounts),
                                         bytes(ix.instruction().data), ix.stack_height())
                        for ix in group) for group in meta.inner_instructions())
    inner += ((),) * (len(tx.message.instructions) - len(inner))
    return Executed(tx, err, tuple(meta.logs()), inner, meta.compute_units_consumed(), meta.fee(), pre, post,
                    pre_tokens, post_tokens)

