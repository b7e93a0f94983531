"""A method the target does not serve: one rule for every check.

A target that answers "Method not found" (JSON-RPC -32601), or its HTTP equivalent on the JSON-RPC URL
(404 or 501 with no JSON-RPC answer), does not serve the method asked. That is one finding, on the method,
by the check that asks every method of the contract (`health.methods-served`, and `v2.method-present` for the
methods a second contract adds); every other check that meets such an answer is N/A with that reason,
instead of a finding whose title says the method answered wrongly.
"""

from __future__ import annotations

from csi_conformance.harness.answer import Answer
from csi_conformance.harness.core.failures import CheckFailure, NotApplicable

__all__ = ["METHOD_NOT_FOUND", "NOT_SERVED", "not_served", "unless_served"]

METHOD_NOT_FOUND = -32601
NOT_SERVED = "not served"
"""The detail member of the one finding that says a method is not served: that failure stays a finding."""
HTTP_NOT_SERVED = (404, 501)


def not_served(answer: Answer | None) -> bool:
    """Whether `answer` says its method is not served at all."""
    if answer is None:
        return False
    if answer.error is not None:
        return answer.error.get("code") == METHOD_NOT_FOUND
    exchange = answer.exchange
    return (exchange.status in HTTP_NOT_SERVED and exchange.path == "/" and not answer.has_result
            and exchange.error is None)


def unless_served(failure: CheckFailure) -> CheckFailure:
    """`failure` itself, unless it was found in an answer saying its method is not served: then the check
    cannot apply, with that reason (`NotApplicable` raised)."""
    if NOT_SERVED in failure.detail or not not_served(failure.answer):
        return failure
    method = failure.answer.method
    raise NotApplicable(f"{method} is not served by the target (it answered \"Method not found\"): "
                        "health.methods-served reports it once")
