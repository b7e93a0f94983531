"""Errors a user of `csi` can meet, and the exit code each one ends a run with.

    CsiError (groundwork.errors)
    ├── ContractError         the schema/ sources are malformed                  exit 2
    ├── JsonError             a document is not JSON this kit can read exactly
    ├── UsageError            a command line that cannot work                     exit 2
    ├── ConfigError           a config or keys file that cannot work              exit 2
    └── TargetError           the target cannot be certified at all               exit 3
        ├── Unreachable       no connection could be made
        ├── Timeout           the target did not answer in time
        └── PreconditionUnmet the target is up but not in a state to be certified

A check that finds a fault does not raise one of these: that is a finding, not an error.
"""

from __future__ import annotations

from csi_conformance.groundwork.errors import ConfigError, ContractError, CsiError, JsonError, UsageError

__all__ = [
    "ConfigError",
    "ContractError",
    "CsiError",
    "JsonError",
    "PreconditionUnmet",
    "TargetError",
    "Timeout",
    "Unreachable",
    "UsageError",
    "exit_code_for",
]


class TargetError(CsiError):
    """The target cannot be certified at all."""


class Unreachable(TargetError):
    pass


class Timeout(TargetError):
    pass


class PreconditionUnmet(TargetError):
    pass


def exit_code_for(error: CsiError) -> int:
    """3 when the target is at fault, 2 for everything the user can fix in the invocation."""
    return 3 if isinstance(error, TargetError) else 2
