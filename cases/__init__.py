"""Golden request/response cases over the bundled scenarios: the data, its model, loader and invariants.

The tools that fill and generate them (`cases.tools`) run the reference; this package does not.
"""

from pathlib import Path

__all__ = ["CASES_DIR"]

CASES_DIR = Path(__file__).parent
"""The golden cases, one folder per method (`<method>/<name>.io`), shipped inside the package."""
