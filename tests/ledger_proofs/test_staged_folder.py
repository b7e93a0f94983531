"""staged_folder: a folder the kit installs or makes is the old one or the whole new one, and nothing is left
beside it, whether the block ends, raises or is interrupted."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from csi_conformance.groundwork.files import staged_folder


def _old(tmp_path: Path) -> Path:
    folder = tmp_path / "install"
    (folder / "keys").mkdir(parents=True)
    (folder / "keys" / "a.key").write_text("old")
    return folder


def _tree(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): p.read_text() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_new_folder_replaces_the_old_one_whole(tmp_path: Path) -> None:
    folder = _old(tmp_path)
    with staged_folder(folder) as staging:
        assert staging.parent.parent == tmp_path and not any(staging.iterdir())
        assert _tree(folder) == {"keys/a.key": "old"}  # untouched while the new one is written
        (staging / "b.key").write_text("new")
    assert _tree(folder) == {"b.key": "new"}
    assert [p.name for p in tmp_path.iterdir()] == ["install"]


def test_a_folder_not_there_yet_is_made_with_its_parents(tmp_path: Path) -> None:
    folder = tmp_path / "cache" / "prover" / "1.0"
    with staged_folder(folder) as staging:
        (staging / "x").write_text("x")
    assert _tree(folder) == {"x": "x"}
    made = tmp_path / "plain"
    made.mkdir()
    assert stat.S_IMODE(folder.stat().st_mode) == stat.S_IMODE(made.stat().st_mode)  # not the scratch's 0o700


@pytest.mark.parametrize("error", [ValueError("a file is not the published one"), KeyboardInterrupt()],
                         ids=["raises", "interrupted"])
def test_a_block_that_fails_leaves_the_old_folder_and_nothing_beside_it(tmp_path: Path,
                                                                        error: BaseException) -> None:
    folder = _old(tmp_path)
    with pytest.raises(type(error)), staged_folder(folder) as staging:
        (staging / "half").write_text("half")
        raise error
    assert _tree(folder) == {"keys/a.key": "old"}
    assert [p.name for p in tmp_path.iterdir()] == ["install"]
    with pytest.raises(ValueError), staged_folder(tmp_path / "never") as staging:
        raise ValueError("no folder was there: none is made")
    assert not (tmp_path / "never").exists()


def test_a_failed_move_into_place_puts_the_old_folder_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _old(tmp_path)
    real_rename = Path.rename

    def rename(self: Path, target: Path) -> Path:
        if self.name == "new":
            raise OSError("no room")
        return real_rename(self, target)

    monkeypatch.setattr(Path, "rename", rename)
    with pytest.raises(OSError, match="no room"), staged_folder(folder) as staging:
        (staging / "b.key").write_text("new")
    assert _tree(folder) == {"keys/a.key": "old"}
    assert [p.name for p in tmp_path.iterdir()] == ["install"]
