"""One reading of an open point everywhere: a difference the reading makes is not a difference of value.

Where a reading normalizer exists (`normalize.READINGS`), both answers are brought to one reading and their
values compared. Where none can be (the spec requires an integer `seq`, the most used indexer answers null for
an account of a batched tree: no rule turns null into the integer it stands for), the two values follow
different readings of the point, and which reading a target follows is the readings observer's to report
(schema.ambiguity-readings) and the profile's to judge. So a difference in a member whose schema is the point
(`{$ref: "#/$defs/ambiguity.<id>"}`, read from the contract) is set aside when the two values follow different
sets of the point's readings and the target's follows a reading the run's profile accepts; the differential
names it among the allowed differences (`reading-accepted:<id>`). Values that follow the same readings (two
integers) are still compared exactly.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Mapping
from typing import Any

from csi_conformance.harness.checks.differential.marked import properties_pointing_at
from csi_conformance.harness.judging.compare import MISSING, Difference
from csi_conformance.schema import Contract

__all__ = ["ACCEPTED", "set_aside", "value_points"]

ACCEPTED = "reading-accepted"
"""The name an allowed difference of this kind carries: `reading-accepted:<ambiguity id>`."""
_INDEX = re.compile(r"\[\+?\d+\]")
_PREFIX = "ambiguity."


@functools.cache
def value_points(contract: Contract) -> dict[str, frozenset[str]]:
    """Ambiguity id -> the members it governs whose schema is the point itself (`seq` of `batched-seq`)."""
    pointed = properties_pointing_at(contract)
    found: dict[str, frozenset[str]] = {}
    for amb in contract.ambiguities.values():
        members = pointed.get(f"{_PREFIX}{amb.id}", frozenset()) & (amb.governs or frozenset())
        if members:
            found[amb.id] = members
    return found


def set_aside(contract: Contract, method: str, readings: Mapping[str, Collection[str]],
              found: list[Difference], bridged: frozenset[str]) -> tuple[list[Difference], set[str]]:
    """The differences still to judge, and the points whose accepted readings explain the others. `bridged`: the
    points a reading normalizer already brings to one reading (what differs there after it is a value)."""
    if method not in contract.methods:
        return found, set()
    reachable = set(contract.ambiguities_in(f"{method}.response")) | set(contract.ambiguities_in("Error"))
    points = {amb: members for amb, members in value_points(contract).items()
              if amb in reachable and amb not in bridged}
    kept: list[Difference] = []
    explained: set[str] = set()
    for difference in found:
        last = _INDEX.sub("", difference.path.rsplit(".", 1)[-1])
        point = next((amb for amb, members in points.items() if last in members
                      and _read_otherwise(contract, readings, amb, difference)), None)
        if point is None:
            kept.append(difference)
        else:
            explained.add(point)
    return kept, explained


def _read_otherwise(contract: Contract, readings: Mapping[str, Collection[str]], amb_id: str,
                    difference: Difference) -> bool:
    """Whether the target's value follows a reading the profile accepts, and the two values different readings."""
    if difference.target is MISSING or difference.reference is MISSING:
        return False
    amb = contract.ambiguity(amb_id)
    target = _followed(contract, amb_id, difference.target)
    accepted = set(readings.get(amb_id) or amb.readings)
    return bool(target & accepted) and target != _followed(contract, amb_id, difference.reference)


def _followed(contract: Contract, amb_id: str, value: Any) -> set[str]:
    """The readings of a point a member's value is valid under."""
    amb = contract.ambiguity(amb_id)
    return {name for name in amb.readings if contract.validator(f"{amb.definition}.{name}").is_valid(value)}
