"""The result model every report is written from: statuses, findings, check results, a run.

Values only: the engine builds them, the reports read them. A finding is frozen and carries
everything needed to understand and reproduce it without the run that produced it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from csi_conformance.harness.core.asked_again import AskedAgain

__all__ = ["KINDS", "BaselineEntry", "Basis", "CheckResult", "FailureKind", "Finding", "Observation", "RunResult",
           "Status"]


class Status(StrEnum):
    """A verdict; `rank` orders them from harmless to blocking.

    N/A is a check that cannot apply to the run's mode (the scenario differential without a
    scenario, the mirror with one, a rule about HTTP 429 bodies when no 429 came): it says nothing
    of the target and never gates. SKIP is a check that could have applied and examined nothing.
    Two are not verdicts on the target's conformance: UNVERIFIED (something the kit could not
    verify, such as a null proof) and ERROR (the kit itself failed on a check: a bug of the kit,
    never a FAIL of the target). Neither ever fails the gate; an ERROR makes the run inconclusive.
    """

    PASS = "PASS"
    NOT_APPLICABLE = "N/A"
    SKIP = "SKIP"
    UNVERIFIED = "UNVERIFIED"
    INFO = "INFO"
    AMBIGUOUS = "AMBIGUOUS"
    WARN = "WARN"
    ERROR = "ERROR"
    FAIL = "FAIL"

    @property
    def rank(self) -> int:
        return _RANKS[self]

    @classmethod
    def worst(cls, statuses: Any, default: Status | None = None) -> Status:
        ranked = sorted(statuses, key=lambda s: s.rank)
        return ranked[-1] if ranked else (default or cls.PASS)


_RANKS = {Status.PASS: 0, Status.NOT_APPLICABLE: 1, Status.SKIP: 2, Status.UNVERIFIED: 3, Status.INFO: 4,
          Status.AMBIGUOUS: 5, Status.WARN: 6, Status.ERROR: 7, Status.FAIL: 8}
GATES = (Status.FAIL, Status.WARN, Status.AMBIGUOUS, Status.INFO, Status.SKIP)
"""Statuses a gate can be set at (`--fail-on`); ERROR and UNVERIFIED never gate."""


class Basis(StrEnum):
    """What a rule rests on; the profile turns a basis into a status when the rule is broken."""

    SPEC = "spec"  # the spec states it
    JSON_RPC = "json-rpc"  # JSON-RPC 2.0 or HTTP convention the spec does not restate (a SHOULD)
    OBSERVED = "observed"  # what the most used indexer does where the spec is silent
    AMBIGUITY = "ambiguity"  # one reading of a point the spec leaves open
    LEDGER = "ledger"  # how the ledger hashes, trees and proves (docs/ledger-facts.md), not the spec text
    KIT = "kit"  # the kit's own error: never a rule the target broke
    CONTRACT = "contract"  # a rule of the contract chosen with --api beyond the spec's (observed practice at a commit)

    @property
    def label(self) -> str:
        """How reports name the basis, saying so where it is not the spec text."""
        return _BASIS_LABELS[self]


_BASIS_LABELS = {
    Basis.SPEC: "the spec",
    Basis.JSON_RPC: "JSON-RPC 2.0 / HTTP convention (not stated by the spec)",
    Basis.OBSERVED: "observed practice of the most used indexer (not stated by the spec)",
    Basis.AMBIGUITY: "one reading of a point the spec leaves open",
    Basis.LEDGER: "the ledger's hashing, tree and proof rules (docs/ledger-facts.md, not the spec text)",
    Basis.KIT: "an error of the kit itself (not a finding about the target)",
    Basis.CONTRACT: "the contract chosen with --api: what the most used indexer serves at a commit (not the spec)",
}


@dataclass(frozen=True)
class FailureKind:
    """What one kind of failure means for the reports: how its two values read, and when two are one fault."""

    name: str
    exact: bool
    """True: `expected` and `received` are both exact JSON values (a text view quotes their strings);
    False: `expected` may state the rule in words, and a string on either side reads as words."""
    key: tuple[str, ...]
    """The finding fields (with list indices in `path` read as `[*]`) that make two findings one fault."""


KINDS = {kind.name: kind for kind in (
    FailureKind("rule", exact=False, key=("title", "path")),
    FailureKind("mismatch", exact=True, key=("title", "path")),
    FailureKind("schema", exact=False, key=("path",)),
    FailureKind("difference", exact=True, key=("title", "path")),
    FailureKind("reading", exact=True, key=("title", "expected")),
)}
"""Every kind of failure by name: data the engine groups findings by and the writers render them from.
`harness.core.failures` has the exception of each kind."""


@dataclass(frozen=True)
class Finding:
    """One broken rule in one answer: what was asked, what came back, what was expected, as values.

    `expected` and `received` are JSON values: what the member at `path` held, and what the rule
    wanted there (a value, or the rule in words: `kind` says which, see `harness.core.failures.KINDS`).
    Reports build every sentence they print from these fields.
    """

    check_id: str
    title: str
    status: Status
    basis: Basis
    clauses: tuple[str, ...]
    method: str | None
    kind: str
    """The kind of failure (`harness.core.failures.KINDS`): how findings group, how `expected` reads."""
    expected: Any
    received: Any
    path: str | None = None
    """Where in the answer the wrong thing is: a JSON path into the body (`$.result.value.items[3].leafIndex`),
    or `HTTP status` / `HTTP header Content-Type` for what the body does not carry."""
    request: Any = None
    response: Any = None
    http_status: int | None = None
    curl: str | None = None
    seed: int | None = None
    reference_response: Any = None
    """What the reference answered to the same request, for differential findings; None otherwise."""
    baselined: bool = False
    """A known finding listed in the run's baseline: reported, but not counted by the gate."""
    occurrences: int = 1
    """How many answers showed this same fault (the same `key`); one entry for all."""
    examples: tuple[dict[str, Any], ...] = ()
    """A few of the other occurrences: `{path, expected, received, request, curl}` each."""
    detail: dict[str, Any] = field(default_factory=dict)
    """Other facts of the failure, as JSON values by name (a difference's allowed differences, the
    open points it rests on, the pages walked), which reports show after the two values."""

    @property
    def key(self) -> tuple:
        """Findings with the same key are one fault seen in several answers: reported once, with a count.

        What identifies a fault is the kind's (`FailureKind.key`): its title and member, with list
        indices read as `[*]`, so one wrong member in every item of a list is one finding."""
        fields = KINDS[self.kind].key if self.kind in KINDS else ("title", "path")
        parts = tuple(_INDICES.sub("[*]", self.path or "") if name == "path" else getattr(self, name)
                      for name in fields)
        return (self.check_id, self.method, self.status, self.kind, *parts)

    def example(self) -> dict[str, Any]:
        """This finding as one example of a grouped one."""
        return {"path": self.path, "expected": self.expected, "received": self.received, "request": self.request,
                "curl": self.curl}


_INDICES = re.compile(r"\[\d+\]")


@dataclass(frozen=True)
class Observation:
    """Which reading of an ambiguity a target's answers were consistent with, and how often; a run
    records one for every point, saying why when nothing it saw told the reading."""

    ambiguity: str
    clause: str
    question: str
    observed_practice: str
    counts: dict[str, int]
    answers: int
    reason: str | None = None
    """Why no answer of the run showed a reading (what it takes, and what became of the checks that look
    for it); None when answers did."""

    @property
    def readings(self) -> tuple[str, ...]:
        """Readings consistent with every answer that touched the point."""
        return tuple(name for name, count in self.counts.items() if count == self.answers and self.answers)


@dataclass(frozen=True)
class BaselineEntry:
    """A known finding (`--baseline FILE`): a check, and optionally the method and title it is about."""

    check: str
    method: str | None = None
    """None matches the check on any method."""
    title: str | None = None
    """None matches any title."""

    def matches(self, finding: Finding) -> bool:
        return (finding.check_id == self.check and self.method in (None, finding.method)
                and self.title in (None, finding.title))


OWNED_ELSEWHERE = "its work belongs to other shards of this split run (--shard): their reports have it"
"""Why a check is N/A in a shard that owns none of its work."""


@dataclass
class CheckResult:
    """Everything one check produced; its status is the worst of its findings."""

    check_id: str
    family: str
    clauses: tuple[str, ...]
    description: str
    findings: list[Finding] = field(default_factory=list)
    runs: int = 0
    skipped: list[str] = field(default_factory=list)
    methods: set[str] = field(default_factory=set)
    """The contract's methods the check's rule applied to in the run (it ran there, and the method's answers
    can hold what it judges); `examined_methods` says where it found something to judge."""
    incomplete: str | None = None
    """Why the check did not run to its end (the run was interrupted during it)."""
    examined: dict[str, int] = field(default_factory=dict)
    """What the check looked at, by kind (answers, accounts, proofs, pages, items, …): PASS needs some."""
    examined_methods: set[str] = field(default_factory=set)
    """The methods on which the check examined something; the others it did not reach."""
    basis: Basis = Basis.SPEC
    """What the check's rule rests on (a finding may name another, for a sub-rule resting elsewhere)."""
    not_applicable: str | None = None
    """Why the check cannot apply to this run's mode (it is then N/A, unless it examined something)."""
    unreached: list[str] = field(default_factory=list)
    """What the check could not reach after examining some of its work (a count needing more accounts
    than discovered, a list longer than its bound): a PASS with these is partial, and every report says so."""
    other_shards: bool = False
    """Part of the check's work belongs to other shards of a split run (`--shard`): what it did not examine
    here, another shard may have, so only the merged report can say the check examined nothing."""

    @property
    def examined_total(self) -> int:
        return sum(self.examined.values())

    @property
    def status(self) -> Status:
        if self.findings:
            return Status.worst(f.status for f in self.findings)
        if self.incomplete:
            return Status.SKIP  # cut short: what did not run cannot count as a pass
        if self.examined_total:
            return Status.PASS
        return Status.NOT_APPLICABLE if self.not_applicable or self.owned_elsewhere else Status.SKIP

    @property
    def owned_elsewhere(self) -> bool:
        """Every unit of the check's work belongs to another shard: this shard had none of it to do."""
        return self.other_shards and not self.runs

    @property
    def not_reached(self) -> list[str]:
        """What a check that examined something could not reach: the parts of its work it skipped (a method
        with no key discovered, a count needing more accounts) and what its bounds left out."""
        if not self.examined_total:
            return []
        return sorted(set(self.skipped)) + list(dict.fromkeys(self.unreached))

    @property
    def partial(self) -> bool:
        """A PASS over part of the check's work: `not_reached` says what it did not reach."""
        return self.status is Status.PASS and bool(self.not_reached)

    @property
    def skip_reason(self) -> str | None:
        """Why the check examined nothing: why it could not apply (N/A), or what kept it from its work (SKIP)."""
        if self.status is Status.NOT_APPLICABLE:
            return self.not_applicable or OWNED_ELSEWHERE
        if self.status is not Status.SKIP:
            return None
        reasons = sorted(set(self.skipped)) + ([self.incomplete] if self.incomplete else [])
        return "; ".join(reasons) or "examined nothing: no answer gave this check anything to judge"


@dataclass
class RunResult:
    """A whole certification run, as every report renders it."""

    target: str
    profile: str
    seed: int
    spec_version: str
    started: str
    target_name: str | None = None
    """What the target's operator calls it (`--target-name`); None: it goes by `target`."""
    target_version: str | None = None
    """The target's version as declared (`--target-version`); None when none was."""
    ledger: str | None = None
    """What the target was judged over (`scenario default`, `chain sha256:…`, …), so that runs over the same data
    line up; None for a target judged on its own data."""
    duration: float = 0.0
    requests: int = 0
    throttled: int = 0
    """HTTP 429 answers (rate limited) received in the run, retried or not."""
    checks: list[CheckResult] = field(default_factory=list)
    discovered: dict[str, list[str]] = field(default_factory=dict)
    observations: list[Observation] = field(default_factory=list)
    interrupted: bool = False
    shard: str | None = None
    """`I/N` when the run was one shard of a split run (`--shard`); None for a whole or merged run."""
    stopped: str | None = None
    """Why the run stopped asking the target early (it flooded or hung); the run is then inconclusive."""
    asked_again: list[AskedAgain] = field(default_factory=list)
    """Requests that timed out with others of the kit in flight and were asked again alone before judging."""
    notes: list[str] = field(default_factory=list)
    scenario: str | None = None
    """The scenario the target was compared on with the reference (`--scenario`), if any."""
    baseline: list[BaselineEntry] | None = None
    """The known findings the run was given (`--baseline`); None when none were."""
    stale_baseline: list[BaselineEntry] = field(default_factory=list)
    """Baseline entries whose check ran and matched no finding: fixed, or the baseline is out of date."""
    inconclusive: list[str] = field(default_factory=list)
    """Why the run cannot say the target conforms (budget spent, stopped asking, kit errors, …)."""
    precondition: str | None = None
    """Why the target could not be certified at all (unreachable, refused the key, behind the scenario);
    no check ran, and the run is inconclusive."""
    error: str | None = None
    """Why the run did not start: options or files that cannot work (a usage or configuration error, exit 2).
    Nothing was asked of the target; the reports say so and nothing else."""

    @property
    def findings(self) -> list[Finding]:
        return [f for result in self.checks for f in result.findings]

    def counts(self) -> dict[str, int]:
        tally = {status.value: 0 for status in Status}
        for result in self.checks:
            tally[result.status.value] += 1
        return tally

    def kit_errors(self) -> list[Finding]:
        """Findings that are errors of the kit itself, not of the target."""
        return [f for f in self.findings if f.status is Status.ERROR]

    def blocking(self, threshold: Status = Status.FAIL) -> list[Finding]:
        """Findings at or above the threshold that no baseline entry excuses (never the kit's own errors)."""
        return [f for f in self.findings if f.status.rank >= threshold.rank and not f.baselined
                and f.status not in (Status.ERROR, Status.UNVERIFIED)]

    def gate(self, threshold: Status = Status.FAIL) -> bool:
        """True when no finding outside the baseline is at or above the threshold: the target passes what
        was examined. (A SKIP threshold also wants every check that could apply to have examined something:
        `unexamined` says which did not, and they make the run inconclusive, not failed.)"""
        return not self.blocking(threshold)

    def unexamined(self, threshold: Status = Status.FAIL) -> list[CheckResult]:
        """Under a SKIP threshold, the checks that could have applied and examined nothing; else none. A
        shard leaves out the checks with work in other shards: only their merged report can tell."""
        if threshold is not Status.SKIP:
            return []
        return [check for check in self.checks if check.status is Status.SKIP and not check.other_shards]

    def exit_code(self, threshold: Status = Status.FAIL) -> int:
        """What `csi run` (and `csi report merge`, and the pytest plugin) ends with.

        2 the run did not start (a usage or configuration error); 130 interrupted; 1 findings at or
        above the gate; 4 the kit failed on a check (its bug); 3 inconclusive (budget spent, stopped
        asking, a shard missing); 0 conformant.
        """
        if self.error:
            return 2
        if self.interrupted:
            return 130
        if not self.gate(threshold):
            return 1
        if self.kit_errors():
            return 4
        if self.stopped or self.inconclusive or self.precondition or self.unexamined(threshold):
            return 3
        return 0

    def verdict(self, threshold: Status = Status.FAIL) -> str:
        """`conformant`, `not conformant`, `inconclusive`, or `not run` (the options or files could not work):
        what a banner and the exit code say."""
        if self.error:
            return "not run"
        if not self.gate(threshold):
            return "not conformant"
        if (self.interrupted or self.stopped or self.inconclusive or self.precondition or self.kit_errors()
                or self.unexamined(threshold)):
            return "inconclusive"
        return "conformant"
