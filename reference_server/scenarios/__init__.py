"""The scenarios the reference serves by name (`default`, `empty`, `stale`), documented in README.md here.

A data folder with no imports, so the golden cases can name their scenario without loading the server.
"""

from pathlib import Path

__all__ = ["SCENARIO_DIR", "bundled_scenarios"]

SCENARIO_DIR = Path(__file__).parent
"""The bundled scenario files (`<name>.yaml`), shipped inside the package so a wheel carries them."""


def bundled_scenarios() -> tuple[str, ...]:
    """The names of the bundled scenarios, sorted."""
    return tuple(sorted(path.stem for path in SCENARIO_DIR.glob("*.yaml")))
