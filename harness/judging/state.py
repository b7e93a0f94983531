"""What answers say about state, read defensively: sums, balances per mint, account data, the
signature lists a transaction must be in, compression info in either reading.

Pure functions over answer values, shared by the consistency checks; a malformed item is left
out here (schema.result reports it), never a crash.
"""

from __future__ import annotations

import base64
import binascii
from collections import Counter, defaultdict
from typing import Any

from csi_conformance.harness.context import Answer
from csi_conformance.harness.core.keys import Keys

__all__ = ["SLICE", "balances_by_mint", "compression_info", "datas_of", "lamports_of", "mint_of", "no_compression_info",
           "owners_closed_first", "probe_bytes", "signature_lookups", "token_sums", "window"]

SLICE = {"offset": 1, "length": 2}
"""The `dataSlice` the consistency checks ask for."""


def lamports_of(accounts: list) -> int:
    return sum(a["lamports"] for a in accounts if isinstance(a, dict) and type(a.get("lamports")) is int)


def token_sums(items: list) -> dict[str, int]:
    """Token amounts summed per mint over token-account items (mints summing to 0 left out, see
    `balances_by_mint`)."""
    sums: dict[str, int] = defaultdict(int)
    for item in items:
        token = item.get("tokenData") if isinstance(item, dict) else None
        if isinstance(token, dict) and type(token.get("amount")) is int:
            sums[str(token.get("mint"))] += token["amount"]
    return {mint: total for mint, total in sums.items() if total != 0}


def balances_by_mint(items: list) -> dict[str, Any]:
    """Balance per mint; a balance of 0 is left out: listing a mint at 0 or not at all says the same."""
    return {str(b.get("mint")): b.get("balance") for b in items if isinstance(b, dict) and b.get("balance") != 0}


def mint_of(item: Any) -> Any:
    token = item.get("tokenData") if isinstance(item, dict) else None
    return token.get("mint") if isinstance(token, dict) else None


def datas_of(accounts: list) -> dict[str, bytes]:
    """The decoded data of each account that has some, by hash."""
    found = {}
    for account in accounts:
        data = account.get("data") if isinstance(account, dict) else None
        try:
            found[account["hash"]] = base64.b64decode(data["data"], validate=True)
        except (TypeError, KeyError, ValueError, binascii.Error):
            continue
    return found


def window(data: bytes) -> bytes:
    """The part of `data` that `SLICE` asks for."""
    return data[SLICE["offset"]:SLICE["offset"] + SLICE["length"]]


def probe_bytes(datas: dict[str, bytes]) -> bytes | None:
    """The two leading bytes most accounts share: a filter on them matches several, over several pages."""
    counts = Counter(d[:2] for d in datas.values() if len(d) >= 2)
    return counts.most_common(1)[0][0] if counts else None


def signature_lookups(keys: Keys, account_hash: str) -> list[tuple[str, dict]]:
    """The signature lists that must hold a transaction opening or closing this account."""
    seen = keys.touched.get(account_hash)
    if seen is None:
        return []
    account, token = seen["account"], seen["tokenData"]
    lookups = [("getCompressionSignaturesForOwner", {"owner": account.get("owner")})]
    if account.get("address"):
        lookups.append(("getCompressionSignaturesForAddress", {"address": account["address"]}))
    if token is not None:
        lookups.append(("getCompressionSignaturesForTokenOwner", {"owner": token.get("owner")}))
    return lookups


def owners_closed_first(keys: Keys, closed: set[str]) -> list[str]:
    """Owners of closed accounts first (where a closed account could still be listed), then the rest."""
    first = [keys.touched[h]["account"].get("owner") for h in sorted(closed) if h in keys.touched]
    return list(dict.fromkeys([o for o in first if isinstance(o, str)] + list(keys["owners"])))


def no_compression_info(answer: Answer) -> bool:
    """Null compression info, in either reading of `transaction-context`: a bare null result, or
    `{context, value: null}`."""
    result = answer.result
    return answer.has_result and (result is None or (isinstance(result, dict) and "context" in result
                                                     and "value" in result and result["value"] is None))


def compression_info(answer: Answer) -> dict | None:
    """The compression info of a transaction answer, whichever readings it follows."""
    result = answer.result
    if isinstance(result, dict) and "context" in result and "value" in result:
        result = result["value"]
    if not isinstance(result, dict):
        return None
    info = result.get("compressionInfo", result.get("compression_info"))
    return info if isinstance(info, dict) else None
