"""Hypothesis strategies for this API's keys and for params the contract forbids.

Written from the contract rather than from a generic JSON Schema generator: invalid params are
valid params with one thing broken (a member dropped, a value of the wrong kind, a key that is
not base58 or decodes to the wrong length), kept only when the contract's own params validator
rejects them, so every example is invalid by the spec and not by this module's opinion.
Draws are seeded: the same seed yields the same requests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from ledger_crypto import b58encode
from schema import Contract, Method

__all__ = ["base58_keys", "drawn", "invalid_base58", "invalid_params", "pubkeys", "signatures", "valid_params"]

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


def invalid_params(contract: Contract, method: Method, valid: Any) -> st.SearchStrategy[Any]:
    """Params for `method` that its params schema rejects, derived from a valid params value.

    Each example breaks one thing: a required member dropped, one member replaced by a value of
    the wrong kind, or the whole params replaced by the wrong JSON type. Examples shrink towards
    dropping the first required member.
    """
    validator = contract.params_validator(method.name)
    candidates: list[st.SearchStrategy[Any]] = [st.sampled_from(["params", 7, True])]
    if isinstance(valid, dict):
        names = sorted(set(valid) | set(method.param_names))
        if method.required_params:
            candidates.insert(0, st.sampled_from(method.required_params).map(
                lambda name: {k: v for k, v in valid.items() if k != name}))
        if names:
            candidates.append(st.tuples(st.sampled_from(names), WRONG_VALUES).map(
                lambda pair: {**valid, pair[0]: pair[1]}))
    elif isinstance(valid, list):
        candidates.append(st.lists(WRONG_VALUES, min_size=1, max_size=3))
    return st.one_of(candidates).filter(lambda params: not validator.is_valid(params))


def _optional(name: str, method: Method, keys: Mapping[str, Sequence[str]]) -> st.SearchStrategy[Any] | None:
    """A valid value for an optional member, or None when the member is better left out."""
    limit = method.observed.get("limit", {}).get("max", 1000)
    if name == "limit":
        return st.integers(min_value=1, max_value=limit)
    if name == "mint" and keys.get("mints"):
        return st.sampled_from(list(keys["mints"]))
    if name == "dataSlice":
        return st.fixed_dictionaries({"offset": st.integers(0, 40), "length": st.integers(0, 40)})
    if name == "filters":
        return st.just([])
    return None


def valid_params(method: Method, keys: Mapping[str, Sequence[str]], *,
                 key_for: Callable[[Method, str], str | None]) -> st.SearchStrategy[Any]:
    """Params for `method` that a conforming server answers with a result, drawn from known keys.

    Required key members take discovered keys (`key_for` names the kind of key a member takes);
    optional members (`limit`, `mint`, `dataSlice`, `filters`) are present or not. Methods that
    take exactly one of `address` and `hash` get one of them. Examples shrink towards the first
    key and no optional member.
    """
    if method.params_kind == "none":
        return st.sampled_from([[], {}])
    if method.params_kind == "array":
        new_address = st.binary(min_size=31, max_size=31).filter(any).map(lambda tail: b58encode(b"\x00" + tail))
        return st.lists(new_address, min_size=1, max_size=5, unique=True)
    if method.name == "getValidityProof":
        live = list(keys.get("hashes", ()))
        counts = [n for n in method.limit_for("hashes").counts if n <= min(len(live), 4)]
        if not counts:
            return st.nothing()
        return st.sampled_from(counts).flatmap(
            lambda n: st.permutations(live).map(lambda hashes: {"hashes": list(hashes[:n])}))
    required: dict[str, st.SearchStrategy[Any]] = {}
    for name in method.required_params:
        values = list(keys.get(key_for(method, name) or "", ()))
        if not values:
            return st.nothing()
        required[name] = st.sampled_from(values)
    optional = {name: strategy for name in method.param_names if name not in required
                for strategy in [_optional(name, method, keys)] if strategy is not None}
    params = st.fixed_dictionaries(required, optional=optional)
    if not required and {"address", "hash"} <= set(method.param_names):
        choices = [st.fixed_dictionaries({name: st.sampled_from(list(keys[kind]))})
                   for name, kind in (("hash", "hashes"), ("address", "addresses")) if keys.get(kind)]
        return st.one_of(choices) if choices else st.nothing()
    return params


def drawn(strategy: st.SearchStrategy[Any], *, count: int, seed: int) -> list[Any]:
    """`count` examples of a strategy, the same for the same seed (no example database)."""
    found: list[Any] = []

    @settings(max_examples=count, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @hypothesis_seed(seed)
    @given(strategy)
    def collect(example: Any) -> None:
        found.append(example)

    collect()
    return found[:count]
