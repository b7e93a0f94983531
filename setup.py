"""The packages the wheel installs: each room of the repository, under the kit's own name.

The rooms stay at the top of the repository (`schema/`, `harness/`, ...); pyproject.toml maps
`csi_conformance` onto the repository's root, and this lists what is under it, so a new subpackage
is installed without editing a list. Folders of data only (`cases/<method>/`, `schema/methods/`) are found as
namespace packages: listed, setuptools installs their files as package data without warning that they would be
ignored.
"""

from setuptools import find_namespace_packages, setup

ROOMS = ("groundwork", "schema", "harness", "reference_server", "cases",
         "ledger_crypto", "ledger_ingest", "ledger_proofs", "ledger_chain")

setup(packages=[f"csi_conformance.{name}" for name in find_namespace_packages(
    include=[f"{room}*" for room in ROOMS], exclude=["*__pycache__*"])])
