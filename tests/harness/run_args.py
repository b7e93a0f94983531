"""A test's run, asked for in one set of keywords, as `csi run`'s options name it: sorted into what the checks
read (`RunFacts`) and how the engine runs (`RunConfig`)."""

from __future__ import annotations

import dataclasses
from typing import Any

from csi_conformance.harness.context import RunFacts
from csi_conformance.harness.engine.runner import RunConfig

FACT_FIELDS = frozenset(field.name for field in dataclasses.fields(RunFacts))


def run_args(**given: Any) -> tuple[RunFacts, RunConfig]:
    """(`RunFacts`, `RunConfig`) of `given`; a keyword neither knows is a TypeError, as a constructor's is."""
    facts = {name: value for name, value in given.items() if name in FACT_FIELDS}
    return RunFacts(**facts), RunConfig(**{name: value for name, value in given.items() if name not in facts})
