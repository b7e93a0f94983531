"""The root of the kit's errors, shared by every package.

    CsiError
    ├── ContractError        the schema/ sources are malformed (a file, a clause id, a $ref)
    ├── JsonError            a document is not JSON this kit can read exactly
    ├── UsageError           a command line that cannot work
    ├── ConfigError          a config, keys or scenario file that cannot work
    └── (harness.core.errors: TargetError and its kinds)

It lives here, in the lowest layer, so that the reference server and the harness can both
raise and catch it without importing each other.
"""

from __future__ import annotations

__all__ = ["ConfigError", "ContractError", "CsiError", "JsonError", "UsageError"]


class CsiError(Exception):
    """Any error of the kit that is reported to the user, never a bug."""


class ContractError(CsiError):
    """The contract's sources are inconsistent; the message names the file and the member."""


class JsonError(CsiError, ValueError):
    """Bytes that are not a JSON document, or one too deep or too large to read exactly."""


class UsageError(CsiError):
    """The command line asks for something that cannot work."""


class ConfigError(CsiError):
    """A configuration, keys or scenario file is malformed; the message names the file."""
