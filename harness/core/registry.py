"""The check registry: each check is a plain function registered with all its metadata.

    @check("limits.validity-hashes", clauses=("8-L1", "4.3-R1"), basis=Basis.SPEC,
           description="getValidityProof accepts 1, 2, 3, 4, 8 hashes and refuses other counts")
    def validity_hashes(ctx): ...

`@check` functions drive requests through the context (`fn(ctx)`, or `fn(ctx, method)` once
per contract method that `methods` selects); `@answer_check` functions judge every answer the
run receives (`fn(ctx, answer)`). Adding a check never means editing the engine. The registry
rejects duplicate ids, ids whose prefix is not a known family, and clause ids unknown to the
contract.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from csi_conformance.groundwork.errors import ContractError
from csi_conformance.harness.core.model import Basis
from csi_conformance.schema import Contract, Method
from csi_conformance.schema.apis import api_directories

__all__ = ["FAMILIES", "REGISTRY", "CheckSpec", "Registry", "answer_check", "check"]

FAMILIES = ("envelope", "transport", "schema", "params", "limits", "pagination", "consistency", "crypto", "v2",
            "onchain", "health", "differential")
"""The families in the order a run executes them."""

MethodSelector = Callable[[Method], bool]
_ID = re.compile(r"^[a-z][a-z0-9]*\.[a-z0-9]+(-[a-z0-9]+)*$")


@dataclass(frozen=True)
class CheckSpec:
    """A registered check: identity, the clauses it enforces, what it rests on, and its function."""

    id: str
    family: str
    clauses: tuple[str, ...]
    basis: Basis
    description: str
    kind: Literal["active", "answer"]
    function: Callable[..., Any]
    methods: MethodSelector | None = None
    only_when: str | None = None
    """For an answer check that judges answers of one sort only (HTTP 429 and 500 bodies): that sort, in words.
    A run in which none came makes the check N/A rather than SKIP."""
    carries: str | None = None
    """For an answer check: the definition of the contract it judges (`Context`, `TokenData`, …); it applies
    to the methods whose answers can hold one. None: every method of the contract."""

    def applies_to(self, method: Method) -> bool:
        return self.methods is None or self.methods(method)

    def applies_to_answers(self, contract: Contract, method: str) -> bool:
        """Whether this answer check's rule can apply to answers of `method` (never to a method outside the
        contract, such as the unknown-method probe: a check examining one says so by examining it)."""
        if self.carries is None:
            return method in contract.methods
        return contract.carries(method, self.carries)


class Registry:
    """Checks by id, in registration order within each family."""

    def __init__(self, contract: Contract | None = None) -> None:
        self._contract = contract
        self._checks: dict[str, CheckSpec] = {}

    @property
    def contract(self) -> Contract:
        return self._contract or Contract.default()

    def check(self, check_id: str, *, clauses: Iterable[str], basis: Basis = Basis.SPEC, description: str,
              methods: MethodSelector | None = None) -> Callable:
        """Register an active check: it sends requests through `ctx` and raises on what it finds."""
        return self._decorator(check_id, tuple(clauses), basis, description, "active", methods)

    def answer_check(self, check_id: str, *, clauses: Iterable[str], basis: Basis = Basis.SPEC,
                     description: str, only_when: str | None = None, carries: str | None = None) -> Callable:
        """Register a check run on every answer of the run (`only_when`, `carries`: see `CheckSpec`)."""
        return self._decorator(check_id, tuple(clauses), basis, description, "answer", None, only_when, carries)

    def _decorator(self, check_id, clauses, basis, description, kind, methods, only_when=None,
                   carries=None) -> Callable:
        def register(function: Callable) -> Callable:
            self.add(CheckSpec(check_id, check_id.split(".")[0], clauses, basis, description, kind, function, methods,
                               only_when, carries))
            return function

        return register

    def add(self, spec: CheckSpec) -> None:
        if not _ID.match(spec.id) or spec.family not in FAMILIES:
            raise ContractError(f"check id {spec.id!r} must be <family>.<kebab-name> with a family of {FAMILIES}")
        if spec.id in self._checks:
            raise ContractError(f"check id {spec.id!r} registered twice")
        if not spec.clauses:
            raise ContractError(f"check {spec.id!r} cites no clause")
        for clause in spec.clauses:
            self._clause(clause)
        if spec.carries is not None and spec.carries not in self.contract.defs():
            raise ContractError(f"check {spec.id!r} carries {spec.carries!r}, which the contract does not define")
        self._checks[spec.id] = spec

    def _clause(self, clause: str) -> None:
        """A clause a check cites must be one of its registry's contract or, for the shared registry, of a contract
        the kit ships (a check of the V2 answers cites the clauses of the contract that has them)."""
        if self._contract is not None or clause in self.contract.clauses:
            self.contract.clause(clause)
            return
        if not any(clause in Contract.for_api(name).clauses for name in api_directories()):
            raise ContractError(f"unknown clause id {clause!r}")

    def all(self) -> list[CheckSpec]:
        """Every check, families in run order."""
        order = {family: index for index, family in enumerate(FAMILIES)}
        return sorted(self._checks.values(), key=lambda spec: order[spec.family])

    def get(self, check_id: str) -> CheckSpec:
        return self._checks[check_id]

    def select(self, only: Iterable[str] = (), skip: Iterable[str] = ()) -> list[CheckSpec]:
        """Checks matching `--only` (id, family or method) and not matching `--skip`."""
        only, skip = list(only), list(skip)
        chosen = [spec for spec in self.all() if not only or any(self._matches(spec, t) for t in only)]
        return [spec for spec in chosen if not any(self._matches(spec, t) for t in skip)]

    def _matches(self, spec: CheckSpec, token: str) -> bool:
        if token in (spec.id, spec.family):
            return True
        if token in self.contract.methods:  # the engine also narrows the methods checks are run on
            return spec.kind == "answer" or (spec.methods is not None and spec.applies_to(self.contract.method(token)))
        return False


REGISTRY = Registry()
check = REGISTRY.check
answer_check = REGISTRY.answer_check
