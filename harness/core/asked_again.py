"""`AskedAgain`: a request that timed out while other requests of the kit were in flight, asked again alone.

A deadline measures the target only when the kit is not its own load: a proof that times out while seven
others are being proven at once may be the kit's doing. Such a request is asked once more with nothing else
of the kit in flight and the full deadline, and only that answer is judged; the reports list each one, so a
run that leaned on them says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["AskedAgain"]


@dataclass(frozen=True)
class AskedAgain:
    """One request asked again alone: why (its first timeout, with how many others in flight) and how it ended."""

    method: str | None
    """The JSON-RPC method, when known."""
    path: str
    deadline: float
    """Seconds each of the two attempts was given."""
    in_flight: int
    """Other requests of the kit in flight while the first attempt was out."""
    first: str
    """How the first attempt ended (its timeout message)."""
    answered: bool
    """Whether the lone attempt got an HTTP answer in time."""
    outcome: str
    """How the lone attempt ended, in a few words."""

    @property
    def why(self) -> str:
        return f"{self.first}, with {self.in_flight} other request(s) of the kit in flight"

    def to_json(self) -> dict[str, Any]:
        """The record as report.json writes it."""
        return {"method": self.method, "path": self.path, "deadline": self.deadline, "in_flight": self.in_flight,
                "first": self.first, "why": self.why, "answered": self.answered, "outcome": self.outcome}

    @classmethod
    def from_json(cls, item: dict[str, Any]) -> AskedAgain:
        """A record read back from report.json (`csi report merge`)."""
        return cls(item["method"], item["path"], item["deadline"], item["in_flight"], item["first"],
                   item["answered"], item["outcome"])
