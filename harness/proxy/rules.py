"""The rules of a session of traffic that no single answer check holds: batches, notifications, cursor walks.

`csi run` checks these by asking on purpose (`envelope.batch`, `envelope.notification`, `pagination.walk`);
here they are judged on what the app asked, under the same check ids, clauses and bases, with the same
titles. A rule raises through `ctx.fail` and is run guarded, like every check body.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.harness.context import Answer, CheckContext, body_value
from csi_conformance.harness.core.paths import BODY, HTTP_STATUS, result_value
from csi_conformance.harness.judging.pages import item_key, items_of

__all__ = ["BATCH", "NOTIFICATION", "WALK", "Walks", "batch_answered", "notification_unanswered"]

BATCH, NOTIFICATION, WALK = "envelope.batch", "envelope.notification", "pagination.walk"
"""The checks of `csi run` whose rules the traffic is judged by here."""


def batch_answered(ctx: CheckContext, answer: Answer, requests: list) -> None:
    """A batch gets an array of answers, one per request with an id, matched by id (JSON-RPC 2.0)."""
    wanted = sorted(dumps(item.get("id")) for item in requests if isinstance(item, dict) and "id" in item)
    body = answer.exchange.json
    got = sorted(dumps(item.get("id")) for item in body if isinstance(item, dict)) if isinstance(body, list) else None
    if got != wanted and (wanted or body is not None):
        ctx.fail("Batch not answered", expected=f"an array of {len(wanted)} answers with ids {', '.join(wanted)}",
                 received=_got(answer), answer=answer, path=BODY)
    ctx.examined("answers")


def notification_unanswered(ctx: CheckContext, answer: Answer) -> None:
    """A request without `id` is a notification: no JSON-RPC result comes back (JSON-RPC 2.0)."""
    exchange = answer.exchange
    if exchange.error or (exchange.status or 0) >= 500:
        ctx.fail("Notification failed", expected="HTTP 200/204 with no body", received=_got(answer),
                 answer=answer, path=BODY if exchange.error else HTTP_STATUS)
    if exchange.body.strip() and isinstance(exchange.json, dict) and "result" in exchange.json:
        ctx.fail("Notification answered", expected="no answer body", received=_got(answer), answer=answer, path=BODY)
    ctx.examined("answers")


def _got(answer: Answer) -> Any:
    exchange = answer.exchange
    return {"transport_error": exchange.error} if exchange.error else body_value(exchange)


@dataclass
class _Walk:
    """A list the app is walking: the items seen so far, and the cursor its last page gave."""

    seen: set[str] = field(default_factory=set)
    cursor: Any = None


@dataclass
class Walks:
    """The cursor walks the app made, by method and the params besides the cursor and the limit."""

    walks: dict[str, _Walk] = field(default_factory=dict)

    def judge(self, ctx: CheckContext, answer: Answer) -> None:
        """A page no longer than the limit asked (§4.2-N3); a page fetched with the cursor the last page gave
        (§4.1-R8) repeats none of the items of the walk so far."""
        method = ctx.contract.methods.get(answer.method)
        params = answer.params
        if method is None or method.pagination is None or not isinstance(params, dict):
            return
        items = items_of(method, answer.value)
        if items is None:
            return  # an error or a page without a list: the schema checks say what is wrong with it
        cursor_key = method.pagination.cursor
        key = dumps([answer.method, {k: v for k, v in sorted(params.items()) if k not in (cursor_key, "limit")}])
        cursor = params.get(cursor_key)
        walk = self.walks.get(key)
        continued = cursor is not None and walk is not None and walk.cursor == cursor
        if not continued:
            walk = self.walks[key] = _Walk()
        keys = [item_key(item) for item in items]
        limit = params.get("limit")
        if type(limit) is int and 0 < limit < len(items):
            ctx.fail("Page longer than limit", expected=f"at most {limit} items", received=f"{len(items)} items",
                     answer=answer, clauses=("4.2-N3",), path=result_value(method.pagination.items, limit))
        repeated = [k for k in keys if k in walk.seen]
        walk.seen.update(keys)
        walk.cursor = answer.value.get(cursor_key) if isinstance(answer.value, dict) else None
        if continued and repeated:
            ctx.fail("Duplicate items across pages", expected="each item once",
                     received=f"{len(repeated)} repeated on a page fetched with the cursor the page before gave",
                     answer=answer, path=result_value(method.pagination.items, "*"))
        if continued:
            ctx.examined("pages", method=answer.method)
