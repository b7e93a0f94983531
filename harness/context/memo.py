"""What a run works out once and keeps, under typed keys.

A key is a `MemoKey[T]` declared next to the code that uses it: what it holds has a type, two
modules cannot pick the same name by chance (keys are told apart by identity, not by name), and
a string is refused as a key. The memo is shared by every fork of a run's context.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

__all__ = ["Memo", "MemoKey"]

T = TypeVar("T")


class MemoKey(Generic[T]):
    """The key of one value a run keeps; `start` makes the value on first use (an empty table, say).

    The name says what the value is; for a value the run works out by asking (`CheckContext.once`)
    it also names the fork that asks, so the request ids follow from it.
    """

    def __init__(self, name: str, start: Callable[[], T] | None = None) -> None:
        self.name = name
        self.start = start
        self._parts: dict[str, MemoKey[T]] = {}
        self._lock = threading.Lock()

    def at(self, part: str) -> MemoKey[T]:
        """The key of one of many values of this kind (`name part`): the same key for the same part."""
        with self._lock:
            if part not in self._parts:
                self._parts[part] = MemoKey(f"{self.name} {part}", self.start)
            return self._parts[part]

    def __repr__(self) -> str:
        return f"MemoKey({self.name!r})"


class Memo:
    """The values a run keeps, by `MemoKey`; safe to use from the run's worker threads."""

    def __init__(self) -> None:
        self._values: dict[MemoKey[Any], Any] = {}
        self._lock = threading.Lock()
        self._working: dict[MemoKey[Any], threading.Lock] = {}

    def __getitem__(self, key: MemoKey[T]) -> T:
        """The value kept under `key`, made by its `start` on first use; KeyError when none is kept nor made."""
        _checked(key)
        with self._lock:
            if key not in self._values:
                if key.start is None:
                    raise KeyError(f"nothing kept under {key.name!r}")
                self._values[key] = key.start()
            return self._values[key]

    def __setitem__(self, key: MemoKey[T], value: T) -> None:
        _checked(key)
        with self._lock:
            self._values[key] = value

    def __contains__(self, key: object) -> bool:
        _checked(key)
        with self._lock:
            return key in self._values

    def get(self, key: MemoKey[T]) -> T | None:
        """The value kept under `key`, None when none is yet."""
        _checked(key)
        with self._lock:
            return self._values.get(key)

    def once(self, key: MemoKey[T], compute: Callable[[], T]) -> T:
        """The value under `key`, `compute()`d by the first caller while the others wait for it; one that raises
        keeps nothing, so the next caller tries again."""
        _checked(key)
        with self._lock:
            working = self._working.setdefault(key, threading.Lock())
        with working:
            with self._lock:
                if key in self._values:
                    return self._values[key]
            value = compute()
            with self._lock:
                self._values[key] = value
            return value


def _checked(key: object) -> None:
    if not isinstance(key, MemoKey):
        raise TypeError(f"a run's memo is keyed by a MemoKey declared where it is used, not by {key!r}")
