"""Golden request/response cases over the bundled scenarios, and the scenarios themselves."""

from pathlib import Path

__all__ = ["CASES_DIR", "SCENARIO_DIR"]

CASES_DIR = Path(__file__).parent
"""The golden cases, one folder per method (`<method>/<name>.io`), shipped inside the package."""

SCENARIO_DIR = Path(__file__).parent / "scenarios"
"""The bundled scenario files (`<name>.yaml`), found next to the package so a wheel carries them."""
