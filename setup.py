"""The packages the wheel installs: each room of the repository, under the kit's own name.

The rooms stay at the top of the repository (`schema/`, `harness/`, ...); pyproject.toml maps
`csi_conformance` onto the repository's root, and this lists what is under it, so a new subpackage
is installed without editing a list. Folders of data only (`cases/<method>/`, `schema/methods/`) are found as
namespace packages: listed, setuptools installs their files as package data without warning that they would be
ignored.

An editable install (`make setup`) maps the package onto the repository's root with setuptools' import finder,
which tells, as a warning on every install, to beware of folders named like the package in the working
directory. None is: the package is `csi_conformance` and the repository holds no folder of that name, so that one
notice is filtered out here, by its class and words; every other warning and error of the build still shows.
"""

import warnings

from setuptools import find_namespace_packages, setup
from setuptools.warnings import InformationOnly

warnings.filterwarnings("ignore", message=r"\s*Editable installation\.", category=InformationOnly)

ROOMS = ("groundwork", "schema", "harness", "reference_server", "cases",
         "ledger_crypto", "ledger_ingest", "ledger_proofs", "ledger_chain")

setup(packages=[f"csi_conformance.{name}" for name in find_namespace_packages(
    include=[f"{room}*" for room in ROOMS], exclude=["*__pycache__*"])])
