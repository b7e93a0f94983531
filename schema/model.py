"""Plain values the contract is made of: clauses, ambiguities, methods and their rules.

They are built once from the YAML sources by `schema.loader` and never change; code reads
them through `schema.Contract`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "Ambiguity",
    "Clause",
    "Deprecation",
    "ErrorRule",
    "Example",
    "Limit",
    "Method",
    "Pagination",
    "Reading",
]


@dataclass(frozen=True)
class Clause:
    """One rule of the spec with its stable id (e.g. `4.3-R1`); `excluded` says why no check can test it."""

    id: str
    section: str
    text: str
    excluded: str | None = None
    quote: str | None = None
    """The spec's own words for the rule, verbatim from its section; None for the ledger's rules."""
    basis: str | None = None
    """What the rule rests on when it is not the spec's: `observed-practice` (a contract that extends the spec)."""
    source: str | None = None
    """Where the practice is seen: a path and commit of an implementation's code, or a client's call."""

    @property
    def silent(self) -> bool:
        """The spec says "not shown" here: nothing a server does can break it, so no check can prove it."""
        return "-S" in self.id or "not shown" in self.text


@dataclass(frozen=True)
class Reading:
    """One way to read an ambiguous point, as a schema variant."""

    name: str
    source: str
    schema: Any


@dataclass(frozen=True)
class Ambiguity:
    """A point the spec leaves open or states twice; `observed` is the most used indexer's reading."""

    id: str
    clause: str
    subject: Literal["value", "response", "http-status", "exchange"]
    question: str
    observed: str
    readings: Mapping[str, Reading]
    quote: str = ""
    """The spec's own words that leave the point open, verbatim from the section of `clause`."""
    also: tuple[str, ...] = ()
    """Other clauses the point bears on, besides `clause`."""
    checks: tuple[str, ...] = ()
    """The checks that record the reading a target follows, or whose verdict depends on it."""
    evidence: str = ""
    """What a run must see to tell the reading a target follows (said when a run saw none)."""
    governs: frozenset[str] | None = None
    """For a point an answer can touch: the members whose values its readings decide (empty for a point of the
    whole response); None for a point of the request or the exchange."""

    @property
    def clauses(self) -> tuple[str, ...]:
        return (self.clause, *self.also)

    @property
    def definition(self) -> str:
        """Name of the `$defs` entry that stands for this point in every schema."""
        return f"ambiguity.{self.id}"


@dataclass(frozen=True)
class Pagination:
    """How a list method pages: the key of its items, of its cursor, and what the spec states."""

    items: str
    cursor: str
    null_cursor_at_end_stated: bool
    cursor_shown: bool
    clause: str


@dataclass(frozen=True)
class Limit:
    """A count the spec allows for one param (§8), e.g. `hashes` in {1, 2, 3, 4, 8}."""

    param: str
    counts: tuple[int, ...]
    clauses: tuple[str, ...]

    def allows(self, count: int) -> bool:
        return count in self.counts

    def edges(self) -> tuple[list[int], list[int]]:
        """Counts just inside and just outside the allowed set, to probe both sides of each edge."""
        inside = sorted(self.counts)
        outside = sorted({n for c in inside for n in (c - 1, c + 1) if n >= 0 and n not in self.counts})
        return inside, outside


@dataclass(frozen=True)
class ErrorRule:
    """A condition under which a method must fail (§7, §4.3), and whether the spec or practice states it."""

    kind: str
    clauses: tuple[str, ...]
    source: Literal["spec", "observed"]
    members: tuple[str, ...] = ()
    param: str | None = None

    @property
    def clause(self) -> str:
        return self.clauses[0]


@dataclass(frozen=True)
class Deprecation:
    param: str
    replacement: str
    clause: str


@dataclass(frozen=True)
class Example:
    """An answer of the kind the spec shows, with the params that ask for it."""

    name: str
    params: Any
    result: Any


@dataclass(frozen=True)
class Method:
    """Everything the contract knows about one operation of §4.2."""

    name: str
    row: int
    clause: str
    summary: str
    state: bool
    params_kind: Literal["object", "array", "none"]
    params_schema: Any
    result_schema: Any
    response_schema: Any | None
    alias_of: str | None = None
    pagination: Pagination | None = None
    limits: tuple[Limit, ...] = ()
    errors: tuple[ErrorRule, ...] = ()
    filters: tuple[tuple[str, str], ...] = ()
    deprecated: tuple[Deprecation, ...] = ()
    not_found: tuple[str, Any] | None = None
    observed: Mapping[str, Any] = field(default_factory=dict)
    examples: tuple[Example, ...] = ()
    keys: Mapping[str, str] = field(default_factory=dict)
    """Key member -> the kind of key that fills it (`owner` -> `token_owners`); a list member takes a list of them.
    When no member is required, a request asks by one of these alone (an address or a hash; some hashes)."""

    @property
    def canonical(self) -> str:
        """The method this one is an alias of, or its own name."""
        return self.alias_of or self.name

    @property
    def param_names(self) -> tuple[str, ...]:
        if self.params_kind != "object":
            return ()
        return tuple(self.params_schema.get("properties", {}))

    @property
    def required_params(self) -> tuple[str, ...]:
        if self.params_kind != "object":
            return ()
        return tuple(self.params_schema.get("required", ()))

    @property
    def paginated(self) -> bool:
        return self.pagination is not None

    def key_kind(self, param: str) -> str | None:
        """The kind of key that fills `param`, None for a member that takes a free value."""
        return self.keys.get(param)

    @property
    def asked_by(self) -> tuple[tuple[str, ...], ...]:
        """The ways a request names what it asks about: its required members, or, when none is required, any
        one key member alone (`address` or `hash`; `hashes`). Empty for a method that names nothing."""
        if self.required_params:
            return (self.required_params,)
        return tuple((name,) for name in self.keys)

    def takes_list(self, param: str) -> bool:
        """Whether `param` is a list (of keys, for a key member), also where the contract allows it null
        (`anyOf: [array, null]`)."""
        if self.params_kind != "object":
            return False
        node = self.params_schema.get("properties", {}).get(param, {})
        return node.get("type") == "array" or any(
            isinstance(part, dict) and part.get("type") == "array" for part in node.get("anyOf", ()))

    def limit_for(self, param: str) -> Limit | None:
        return next((limit for limit in self.limits if limit.param == param), None)
