"""Hypothesis strategies for this API's keys and for params the contract forbids.

Written from the contract rather than from a generic JSON Schema generator: invalid params are
valid params with one thing broken (a member dropped, a value of the wrong kind, a key that is
not base58 or decodes to the wrong length), kept only when the contract's own params validator
rejects them, so every example is invalid by the spec and not by this module's opinion.
Examples are drawn, seeded, by `harness.checks.params.drawing`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from csi_conformance.groundwork.base58 import b58encode
from csi_conformance.groundwork.jsonio import dumps
from csi_conformance.harness.core.model import Basis
from csi_conformance.schema import Contract, Method
from hypothesis import strategies as st

__all__ = ["InvalidCase", "NoValidParams", "array_item", "base58_keys", "invalid_base58", "invalid_params",
           "member_kind", "pubkeys", "signatures", "valid_params"]

BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def base58_keys(*, size: int) -> st.SearchStrategy[str]:
    """Base58 strings that decode to exactly `size` bytes.

    Examples shrink towards the all-zero key (`111…1`).
    """
    if size <= 0:
        raise ValueError(f"size must be positive, got {size!r}")
    return st.binary(min_size=size, max_size=size).map(b58encode)


def pubkeys() -> st.SearchStrategy[str]:
    """32-byte public keys (and hashes) in base58."""
    return base58_keys(size=32)


def signatures() -> st.SearchStrategy[str]:
    """64-byte transaction signatures in base58."""
    return base58_keys(size=64)


def invalid_base58() -> st.SearchStrategy[str]:
    """Strings that are not a 32-byte base58 key: foreign characters, or a wrong decoded length.

    Examples shrink towards short strings holding one of `0OIl`.
    """
    foreign = st.tuples(st.text(alphabet=BASE58_ALPHABET, max_size=40), st.sampled_from("0OIl+/=_ "),
                        st.text(alphabet=BASE58_ALPHABET, max_size=3)).map("".join)
    wrong_length = st.integers(min_value=1, max_value=64).filter(lambda n: n != 32).flatmap(
        lambda n: base58_keys(size=n))
    return st.one_of(foreign, wrong_length)


WRONG_VALUES = st.one_of(st.just(1.5), st.just(-1), st.just(True), st.just([]), st.just({}), st.just("x"),
                         st.integers(min_value=2**64, max_value=2**70), invalid_base58())
"""Values of the wrong kind for some member of some method's params."""

NOT_STRUCTURED = ("params", 7, True)
"""Whole `params` values that are neither an object nor an array."""


@dataclass(frozen=True)
class InvalidCase:
    """Params that break one rule, with what the rule rests on: the verdict follows `basis`.

    `breaks` says in words what is wrong with these params, for a finding's Expected line.
    """

    params: Any
    breaks: str
    basis: Basis
    clause: str


WHOLE_PARAMS_RULE = {
    "object": (Basis.SPEC, "4.1-R5", "params must be an object (§4.1)"),
    "array": (Basis.SPEC, "4.1-R5", "params must be an array of Pubkey (§4.1, §4.2 #16)"),
    "none": (Basis.JSON_RPC, "4.1-R5", "the method sends no params (§4.1); refusing a params that is neither an "
                                       "array nor an object is a JSON-RPC 2.0 rule"),
}
"""Per params kind: what a non-structured `params` breaks, and the basis of that rule."""


def invalid_params(contract: Contract, method: Method, valid: Any) -> st.SearchStrategy[InvalidCase]:
    """Invalid cases for `method` that its params schema rejects, derived from a valid params value.

    Each example breaks one thing: a required member dropped, one member replaced by a value of
    the wrong kind (both rules of the §4.2 table: the spec), or the whole params replaced by a
    value that is neither an object nor an array (the spec for methods that take params, JSON-RPC
    2.0 for those that take none). Examples shrink towards dropping the first required member.
    """
    validator = contract.params_validator(method.name)
    basis, clause, rule = WHOLE_PARAMS_RULE[method.params_kind]
    candidates: list[st.SearchStrategy[InvalidCase]] = [st.sampled_from(NOT_STRUCTURED).map(
        lambda params: InvalidCase(params, f"params is {dumps(params)}: {rule}", basis, clause))]
    if isinstance(valid, dict):
        names = sorted(set(valid) | set(method.param_names))
        if method.required_params:
            candidates.insert(0, st.sampled_from(method.required_params).map(lambda name: InvalidCase(
                {k: v for k, v in valid.items() if k != name}, f"required param `{name}` left out (§4.2)",
                Basis.SPEC, method.clause)))
        if names:
            candidates.append(st.tuples(st.sampled_from(names), WRONG_VALUES).map(lambda pair: InvalidCase(
                {**valid, pair[0]: pair[1]}, f"param `{pair[0]}` is {dumps(pair[1])}, not of its type (§4.2)",
                Basis.SPEC, method.clause)))
    elif isinstance(valid, list):
        candidates.append(st.lists(WRONG_VALUES, min_size=1, max_size=3).map(lambda values: InvalidCase(
            values, f"params holds {dumps(values)}, not only Pubkeys (§4.2 #16)", Basis.SPEC, method.clause)))
    return st.one_of(candidates).filter(lambda case: not validator.is_valid(case.params))


UNKEYED_MEMBERS = {"tree": "batched_trees", "trees": "batched_trees"}
"""The kind of key a member the contract gives no key kind takes: the batched trees the queue methods ask about
(getQueueElements' `tree`, getQueueInfo's `trees`), which discovery reads from the target's getQueueInfo."""
ARRAY_ITEMS = {"Hash": "hashes", "AddressWithTree": "address_trees"}
"""For params that are a list itself: the kind of key its items are drawn from, by the items' definition; a list
of `Pubkey` holds new addresses (getMultipleNewAddressProofs)."""
QUEUE_REQUESTS = ("outputQueue", "inputQueue")
"""The queue requests of getQueueElements a batched state tree answers: `{limit}` each."""
QUEUE_LIMIT = 1000


def member_kind(method: Method, name: str) -> str | None:
    """The kind of key that fills a member: the contract's, else the queue methods' trees (`UNKEYED_MEMBERS`)."""
    return method.key_kind(name) or (UNKEYED_MEMBERS.get(name) if name in method.param_names else None)


def array_item(method: Method) -> str | None:
    """The definition the items of a list-valued params are (`Hash`, `Pubkey`, `AddressWithTree`), else None."""
    if method.params_kind != "array":
        return None
    ref = (method.params_schema.get("items") or {}).get("$ref", "")
    return ref.rsplit("/", 1)[-1] or None


def _optional(name: str, method: Method, keys: Mapping[str, Sequence[str]]) -> st.SearchStrategy[Any] | None:
    """A valid value for an optional member, or None when the member is better left out."""
    limit = method.observed.get("limit", {}).get("max", 1000)
    if name == "limit":
        return st.integers(min_value=1, max_value=limit)
    if name in QUEUE_REQUESTS:
        return st.fixed_dictionaries({"limit": st.integers(min_value=1, max_value=QUEUE_LIMIT)})
    kind = member_kind(method, name)
    if kind and keys.get(kind):
        found = list(keys[kind])
        if method.takes_list(name):
            return st.lists(st.sampled_from(found), min_size=1, max_size=len(found), unique=True)
        return st.sampled_from(found)
    if name == "dataSlice":
        return st.fixed_dictionaries({"offset": st.integers(0, 40), "length": st.integers(0, 40)})
    if name == "filters":
        return st.just([])
    return None


class NoValidParams(Exception):
    """No valid params can be built for a method from the keys known: the reason says which are missing."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def valid_params(method: Method, keys: Mapping[str, Sequence[str]]) -> st.SearchStrategy[Any]:
    """Params for `method` that a conforming server answers with a result, drawn from known keys.

    The members a request names (`Method.asked_by`: the required ones, or one key member alone) take
    discovered keys of the kind the contract gives them, a list member a list of them in a count the
    method's limit allows; optional members (`limit`, `mint`, `dataSlice`, `filters`) are present or
    not. Raises `NoValidParams` when no way of asking has its keys, rather than returning a strategy
    that can draw nothing. Examples shrink towards the first key and no optional member.
    """
    if method.params_kind == "none":
        return st.sampled_from([[], {}])
    if method.params_kind == "array":
        return _array_params(method, keys)
    asked = {name for members in method.asked_by for name in members}
    optional = {name: strategy for name in method.param_names if name not in asked
                for strategy in [_optional(name, method, keys)] if strategy is not None}
    ways = [st.fixed_dictionaries(named, optional=optional) for members in method.asked_by
            for named in [_named(method, members, keys)] if named is not None]
    if method.asked_by and not ways:
        wanted = " or ".join(dict.fromkeys(member_kind(method, n) or n for members in method.asked_by for n in members))
        raise NoValidParams(f"no {wanted} discovered for {method.name}")
    return st.one_of(ways) if ways else st.fixed_dictionaries({}, optional=optional)


LIST_KEYS_AT_MOST = 4
"""Keys a generated list member holds at most: each is a proof the target computes (getValidityProof)."""


def _named(method: Method, members: tuple[str, ...], keys: Mapping[str, Sequence[str]]
           ) -> dict[str, st.SearchStrategy[Any]] | None:
    """A strategy per member that names what a request asks about, None when a kind of key is missing."""
    named: dict[str, st.SearchStrategy[Any]] = {}
    for name in members:
        found = list(keys.get(member_kind(method, name) or name, ()))
        if not found:
            return None
        if not method.takes_list(name):
            named[name] = st.sampled_from(found)
            continue
        limit = method.limit_for(name)
        at_most = min(len(found), LIST_KEYS_AT_MOST)
        counts = [n for n in (limit.counts if limit else range(1, at_most + 1)) if n <= at_most]
        if not counts:
            return None
        named[name] = st.sampled_from(counts).flatmap(
            lambda n, found=found: st.permutations(found).map(lambda chosen: list(chosen[:n])))
    return named


def _array_params(method: Method, keys: Mapping[str, Sequence[str]]) -> st.SearchStrategy[Any]:
    """A list-valued params: keys of the kind its items are (`ARRAY_ITEMS`), or new addresses."""
    new_address = st.binary(min_size=31, max_size=31).filter(any).map(lambda tail: b58encode(b"\x00" + tail))
    item = array_item(method)
    kind = ARRAY_ITEMS.get(item or "")
    if kind is None:
        return st.lists(new_address, min_size=1, max_size=5, unique=True)
    found = list(keys.get(kind, ()))
    if not found:
        raise NoValidParams(f"no {kind} discovered for {method.name}")
    if item == "AddressWithTree":
        pairs = st.tuples(new_address, st.sampled_from(found)).map(lambda pair: {"address": pair[0], "tree": pair[1]})
        return st.lists(pairs, min_size=1, max_size=3, unique_by=lambda pair: pair["address"])
    return st.lists(st.sampled_from(found), min_size=1, max_size=min(len(found), LIST_KEYS_AT_MOST), unique=True)
