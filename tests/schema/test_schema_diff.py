"""`csi schema diff`: how an OpenAPI document differs from a contract of the kit, method by method and member by
member. Photon's own document at 366a15b (fixtures/, see fixtures/SOURCE) against the contract photon-366a15b."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from csi_conformance.harness.faces.cli import main
from csi_conformance.schema import SCHEMA_DIR, Contract
from csi_conformance.schema.diff import diff_document
from csi_conformance.schema.export import to_openapi

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PHOTON_DOCUMENT = FIXTURES / "photon-366a15b-api.yaml"
EXPECTED = FIXTURES / "photon-366a15b-api.diff"


def test_photons_document_differs_from_the_contract_exactly_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "diff", str(PHOTON_DOCUMENT), "--api", "photon-366a15b"]) == 1
    printed = capsys.readouterr().out.splitlines()
    assert printed == EXPECTED.read_text(encoding="utf-8").splitlines()
    # the differences the issue names, and what the V2 answers' own members show
    assert printed[:5] == ["only in the document: getAccountInterface",
                           "only in the document: getMultipleAccountInterfaces",
                           "only in the contract photon-366a15b: getCompressedBalance",
                           "only in the contract photon-366a15b: liveness",
                           "only in the contract photon-366a15b: readiness"]
    for line in ["getTransactionWithCompressionInfoV2: result.compression_info: only in the document",
                 "getTransactionWithCompressionInfoV2: result.compressionInfo: only in the contract",
                 "getValidityProofV2: result.value.compressedProof: required in the contract only",
                 "getCompressedAccountV2: result.value.merkleContext.cpiContext: nullable in the contract only",
                 "getCompressedAccountsByOwnerV2: result.value.cursor: required in the contract only"]:
        assert line in printed
    assert printed[-1] == "125 differences from the contract photon-366a15b (24 methods differ)"


def test_the_kits_own_export_has_no_difference(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "diff", str(SCHEMA_DIR / "dist" / "openapi.json")]) == 0
    assert "no difference from the contract 0.50.0" in capsys.readouterr().out


def test_each_kind_of_difference_is_found(contract: Contract) -> None:
    """Edit the kit's own export one member at a time: each edit is the one difference found."""
    base = to_openapi(contract)
    schemas = base["components"]["schemas"]
    assert diff_document(base, contract) == []
    schemas["CompressedAccount"]["properties"]["tree"] = {"type": "integer"}
    schemas["CompressedAccount"]["required"].remove("lamports")
    schemas["CompressedAccount"]["properties"]["colour"] = {"type": "string"}
    del schemas["TokenBalance"]["properties"]["mint"]
    base["paths"]["/getNothing"] = base["paths"].pop("/getIndexerSlot")
    base["paths"]["/getNothing"]["post"]["requestBody"] = {}
    found = {str(d) for d in diff_document(base, contract)}
    assert "only in the document: getNothing" in found
    assert "only in the contract 0.50.0: getIndexerSlot" in found
    assert "getCompressedAccount: result.value.tree: type integer in the document, string in the contract" in found
    assert "getCompressedAccount: result.value.lamports: required in the contract only" in found
    assert "getCompressedAccount: result.value.colour: only in the document" in found
    assert "getCompressedTokenBalancesByOwner: result.value.token_balances[].mint: only in the contract" in found


@pytest.mark.parametrize("content", ["[1, 2", '{"openapi": "3.0.3"}'])
def test_a_file_that_is_no_openapi_document_is_a_usage_error(tmp_path: Path, content: str,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "api.json"
    path.write_text(content, encoding="utf-8")
    assert main(["schema", "diff", str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"csi: cannot read {path}" if "[" in content else f"csi: {path}")


def test_an_unknown_api_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "api.json"
    path.write_text(json.dumps({"paths": {}}), encoding="utf-8")
    assert main(["schema", "diff", str(path), "--api", "today"]) == 2
    assert "unknown API 'today'" in capsys.readouterr().err
