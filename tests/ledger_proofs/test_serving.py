"""Which prover the reference uses: `--prover light|none`, `$CSI_PROVER`, and the default when installed."""

from __future__ import annotations

from pathlib import Path

import pytest
from csi_conformance.groundwork.errors import UsageError
from csi_conformance.reference_server.prover import choose_prover, start_prover


def test_choice_given_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CSI_PROVER", "light")
    assert choose_prover("none") == "none"
    assert choose_prover() == "light"


def test_default_is_none_when_not_installed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CSI_PROVER", raising=False)
    monkeypatch.setenv("CSI_PROVER_DIR", str(tmp_path))
    assert choose_prover() == "none"
    lines: list[str] = []
    assert start_prover(say=lines.append) is None
    assert "placeholder" in lines[0] and "NOT a proof" in lines[0]


def test_light_without_install_is_a_usage_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CSI_PROVER_DIR", str(tmp_path))
    with pytest.raises(UsageError, match="csi prover install"):
        start_prover("light")
    monkeypatch.setenv("CSI_PROVER", "fast")
    with pytest.raises(UsageError, match="light, none"):
        choose_prover()
