"""What a check expects of a request the target must refuse, and params to break one rule of.

A refusal is a JSON-RPC error: a result breaks the rule the request broke (with that rule's basis),
and a 5xx, a transport error or a body that is no JSON-RPC error is a JSON-RPC fault.
"""

from __future__ import annotations

from typing import Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.harness.context import Answer, CheckContext, answer_value
from csi_conformance.harness.core.model import Basis
from csi_conformance.harness.core.paths import member
from csi_conformance.harness.judging.answers import outcome_path
from csi_conformance.harness.judging.samples import sample_params_or_none
from csi_conformance.schema import Method

__all__ = ["expect_refusal", "formal_params"]


def expect_refusal(ctx: CheckContext, answer: Answer, title: str, why: str = "", *, basis: Basis = Basis.SPEC,
                   clauses: tuple[str, ...] = ()) -> None:
    """The answer must be a JSON-RPC error: a result breaks the rule (`basis`); a 5xx, a transport
    error or a body that is no JSON-RPC error is a JSON-RPC fault. `title` is fixed, `why` says
    what was wrong with this request."""
    why = f": {why}" if why else ""
    if answer.has_result:
        ctx.fail(f"{title} accepted", expected=f"a JSON-RPC error{why}", received=answer_value(answer), answer=answer,
                 basis=basis, clauses=clauses, path=member("result"))
    if answer.exchange.error or (answer.status or 0) >= 500 or answer.error is None:
        ctx.fail(f"{title} not refused cleanly", expected=f"a JSON-RPC error object (not a 5xx, not a transport "
                 f"error){why}", received=answer_value(answer), answer=answer, basis=Basis.JSON_RPC, clauses=clauses,
                 path=outcome_path(answer))
    ctx.examined("refusals")


def _fresh(ctx: CheckContext, method: Method, name: str) -> Any:
    """A key no ledger holds, of the kind `name` takes (a list of one for a list member)."""
    kind = method.key_kind(name)
    key = b58encode(ctx.random_bytes(64)) if kind == "signatures" else ctx.fresh_pubkey()
    return [key] if method.takes_list(name) else key


def formal_params(ctx: CheckContext, method: Method) -> Any:
    """Params the contract accepts: discovered keys where there are some, else fresh keys.

    For refusal checks, whose point is the one member they break, not whether the keys exist:
    an empty ledger is tested as well as a full one.
    """
    params = sample_params_or_none(ctx, method)
    if params is not None:
        return params
    members = method.asked_by[0] if method.asked_by else ()
    return {name: _fresh(ctx, method, name) for name in members}
