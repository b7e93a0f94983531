"""One run session, whatever face asks for it: options → references → target → discovery → checks → reports.

`certify` is what `csi run`, the pytest plugin and `harness.certify` all call, so a run is wired once.
It starts the references the options need through the `csi.reference` entry point (a reference over
`--scenario` or over the `--ledger-rpc` slice to compare with, and the bundled reference as the
target when no `--target` is given: only that one may start the light prover), certifies the
target, and writes the reports whenever a report folder was given and can be written: after a
configuration error, an interrupt while a reference starts, or a ledger that cannot be read too,
so that CI always has something to upload. Nothing here prints; `on_event` hears what happens.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from csi_conformance.cases.loader import scenario_cases
from csi_conformance.groundwork import interrupts
from csi_conformance.harness.connection import Target
from csi_conformance.harness.connection.reference import ReferenceHandle, bundled_reference
from csi_conformance.harness.context import RunFacts
from csi_conformance.harness.core.baseline import load_baseline
from csi_conformance.harness.core.errors import ConfigError, CsiError, UsageError
from csi_conformance.harness.core.events import Event, PhaseStarted
from csi_conformance.harness.core.keys import Keys, load_keys_file
from csi_conformance.harness.core.model import BaselineEntry, RunResult
from csi_conformance.harness.core.profile import profile_named
from csi_conformance.harness.core.registry import REGISTRY
from csi_conformance.harness.engine.options import BY_NAME, RunOptions
from csi_conformance.harness.engine.runner import RunConfig, run
from csi_conformance.harness.report import ensure_writable, write_reports
from csi_conformance.ledger_ingest.ledger_source import LedgerSource
from csi_conformance.ledger_ingest.sources import LedgerNotReached
from csi_conformance.schema import Contract

if TYPE_CHECKING:  # replaying a chain needs LiteSVM: imported by runs with one
    from csi_conformance.ledger_chain import ChainJudge

__all__ = ["Given", "certify", "ledger_identity", "read_given", "refused", "run_inputs"]


def certify(options: RunOptions | Mapping[str, Any], *, on_event: Callable[[Event], None] | None = None,
            contract: Contract | None = None) -> RunResult:
    """Certify the target `options` name (or the bundled reference) and write the reports; the result says how
    it went, and `RunResult.exit_code` what `csi run` ends with. The run's contract is `contract`, else the one
    `options.api` names. Options given as a mapping are read with `RunOptions.from_inputs`: one that cannot work
    is a result that did not run (exit 2), its reports written when the report folder itself can be."""
    notify = on_event or (lambda event: None)
    try:
        options = options if isinstance(options, RunOptions) else RunOptions.from_inputs(options)
        contract = contract or Contract.for_api(options.api)
    except CsiError as error:
        return refused(error, options, contract=contract)
    directory = ensure_writable(options.report_dir) if options.report_dir is not None else None
    started = datetime.now(UTC).isoformat(timespec="seconds")
    with interrupts.remembered():  # SIGTERM ends a run like Ctrl-C; a lost KeyboardInterrupt is still heard
        try:
            result = _certify(options, contract, notify)
        except LedgerNotReached as short:  # the node has not produced the ledger yet: nothing to judge against
            result = _failed_start(options, contract, started, precondition=str(short))
        except CsiError as error:
            result = _failed_start(options, contract, started, error=str(error))
        except KeyboardInterrupt:
            result = _failed_start(options, contract, started, interrupted=True)
    if directory is not None:
        write_reports(result, directory, contract, gate=options.fail_on)
    return result


@dataclass(frozen=True)
class Given:
    """What the files the options name hold (keys, baseline, cases), read before any server starts."""

    keys: Keys | None
    baseline: list[BaselineEntry] | None
    cases: Sequence[Any] | None


def read_given(options: RunOptions, contract: Contract) -> Given:
    """Every file the options name, read here; one that cannot be read is a `ConfigError` (exit 2), a check or
    method `--only`/`--skip` names that does not exist a `UsageError`."""
    unknown = [token for token in (*options.only, *options.skip) if not _known_token(token, contract)]
    if unknown:
        raise UsageError("--only/--skip: " + "; ".join(_did_you_mean(token, contract) for token in unknown))
    baseline = load_baseline(options.baseline, checks={spec.id for spec in REGISTRY.all()},
                             methods=set(contract.methods)) if options.baseline else None
    cases = scenario_cases(options.scenario) if options.scenario else [] if options.ledger is not None else None
    return Given(load_keys_file(options.keys) if options.keys else None, baseline, cases)


def run_inputs(options: RunOptions, contract: Contract, *, given: Given | None = None, chain: ChainJudge | None = None,
               compared: ReferenceHandle | None = None, bundled: ReferenceHandle | None = None,
               ) -> tuple[RunFacts, RunConfig]:
    """What the engine is handed, built once: the run's facts (what every check reads) and how to run (the
    engine's own), from the options, the files they name (`given`, else read here), the chain replayed, and
    what the references started for the run hold (`compared`: the one over `--scenario` or the ledger,
    `bundled`: the one serving as the target when no `--target` is given)."""
    given = given or read_given(options, contract)
    ledger = f"ledger {options.ledger}" if options.ledger is not None else None
    of_ledger = compared if compared is not None and options.ledger is not None else None
    serving = bundled or (compared if options.target is None else None)
    facts = RunFacts(
        contract=contract, profile=profile_named(options.profile), seed=options.seed,
        max_requests=options.max_requests, scenario=options.scenario or ledger, cases=given.cases,
        placeholder_proofs=serving is not None and serving.proofs == "placeholder", chain=chain,
        reference_partial_trees=frozenset(getattr(compared, "partial_trees", ())),
        batched_trees=frozenset(getattr(compared, "batched_trees", ())) if compared is not None else None)
    return facts, RunConfig(
        only=list(options.only), skip=list(options.skip),
        keys=_with_keys(given.keys, of_ledger.keys) if of_ledger else given.keys or Keys(),
        concurrency=options.concurrency, baseline=given.baseline, shard=options.shard,
        target_label=None if options.target else f"bundled reference ({options.scenario or 'default'} scenario)",
        target_name=options.target_name, target_version=options.target_version, ledger=ledger_identity(options),
        ledger_signatures=tuple(of_ledger.keys.get("signatures", ())) if of_ledger else ())


def ledger_identity(options: RunOptions) -> str | None:
    """What the run judges the target over, as reports line runs up on it: the ledger's identity, a bundled
    scenario by name (the bundled reference serves `default` when no scenario is given), a scenario file by its
    bytes' SHA-256; None for a target judged on its own data."""
    if options.ledger is not None:
        return options.ledger.identity()
    if options.scenario and Path(options.scenario).is_file():
        return f"scenario sha256:{hashlib.sha256(Path(options.scenario).read_bytes()).hexdigest()}"
    if options.scenario:
        return f"scenario {options.scenario}"
    return None if options.target else "scenario default"


def _certify(options: RunOptions, contract: Contract, notify: Callable[[Event], None]) -> RunResult:
    given = read_given(options, contract)
    chain = _replayed_chain(options.ledger, notify)
    with contextlib.ExitStack() as stack:
        compared = bundled = None
        if options.scenario or options.ledger is not None:
            notify(PhaseStarted("starting the reference to compare with"))
            source = options.ledger if options.ledger is not None else options.scenario
            prover = "auto" if options.target is None else "none"  # it is the target too when none is given
            compared = stack.enter_context(bundled_reference(source, prover=prover, api=_compared_api(options)))
        url = options.target or (compared.url if compared is not None else None)
        if url is None:
            notify(PhaseStarted("starting the bundled reference"))
            bundled = stack.enter_context(bundled_reference("default", prover="auto", api=options.api))
            url = bundled.url
        facts, config = run_inputs(options, contract, given=given, chain=chain, compared=compared, bundled=bundled)
        target = stack.enter_context(Target(url, api_key=options.api_key, timeout=options.timeout,
                                            proof_timeout=options.proof_timeout, rate=options.rate))
        reference = stack.enter_context(Target(compared.url, timeout=options.timeout,
                                               proof_timeout=options.proof_timeout)) if compared else None
        interrupts.raise_if_interrupted()  # heard while the references started, its KeyboardInterrupt lost
        return run(target, facts, config, on_event=notify, reference=reference)


def _compared_api(options: RunOptions) -> str | None:
    """The contract the reference compared with serves: the run's when it is the target too; else the one that
    serves the most (None: the kit's default), since the checks also ask it for facts only the methods a second
    contract adds tell (an account's queue)."""
    return options.api if options.target is None else None


def _replayed_chain(ledger: LedgerSource | None, notify: Callable[[Event], None]) -> Any:
    """The chain of a `--chain` run replayed into LiteSVM, before any server starts (None for other ledgers): the
    onchain checks judge the target's proofs over its state. One that does not replay is a ConfigError (exit 2)."""
    if ledger is None or ledger.kind != "chain":
        return None
    from csi_conformance.ledger_chain import ChainError, ChainJudge  # LiteSVM is loaded by runs with a chain only

    notify(PhaseStarted("replaying the chain into LiteSVM"))
    try:
        return ChainJudge.load(ledger.paths[0])
    except ChainError as error:
        raise ConfigError(f"{ledger.paths[0]}: {error}") from None


def _with_keys(keys: Keys | None, found: Mapping[str, Sequence[str]]) -> Keys:
    """The run's keys with those of the reference's ledger added, as `--keys` would add them."""
    keys = keys or Keys()
    for kind, values in found.items():
        if kind in keys.lists:
            keys.add(kind, *values)
    return keys


def _failed_start(options: RunOptions, contract: Contract, started: str, *, error: str | None = None,
                  interrupted: bool = False, precondition: str | None = None) -> RunResult:
    """The result of a run that stopped before the target was asked anything."""
    label = options.target or f"bundled reference ({options.scenario or 'default'} scenario)"
    return RunResult(target=label, profile=options.profile, seed=options.seed, spec_version=contract.version,
                     started=started, error=error, interrupted=interrupted, precondition=precondition)


def refused(error: CsiError, given: Any, *, contract: Contract | None = None) -> RunResult:
    """Options that cannot work (`error`, raised reading `given`): a result saying so (exit 2), its reports
    written where the report folder `given` names can be written; nothing is read again."""
    contract = contract or Contract.default()
    started = datetime.now(UTC).isoformat(timespec="seconds")
    result = RunResult(target="(not run)", profile="-", seed=0, spec_version=contract.version, started=started,
                       error=str(error))
    directory = _report_dir(given)
    if directory is not None:
        with contextlib.suppress(CsiError):
            write_reports(result, ensure_writable(directory), contract)
    return result


def _report_dir(inputs: Any) -> Path | None:
    """The report folder inputs that could not be read as options still name, if any (else the default)."""
    given = dict(inputs) if isinstance(inputs, Mapping) else {}
    value = given.get("report-dir", given.get("report_dir", BY_NAME["report-dir"].default))
    return Path(value) if isinstance(value, str | Path) and str(value) else None


def _did_you_mean(token: str, contract: Contract) -> str:
    """`healt is no check id, family or method; did you mean health?` (see `csi checks`)."""
    import difflib

    names = {*contract.methods, *(spec.id for spec in REGISTRY.all()), *(spec.family for spec in REGISTRY.all())}
    close = difflib.get_close_matches(token, sorted(names), n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(close)}?" if close else "; `csi checks` lists the check ids and families"
    return f"{token} is no check id, family or method{hint}"


def _known_token(token: str, contract: Contract) -> bool:
    return token in contract.methods or any(token in (spec.id, spec.family) for spec in REGISTRY.all())



