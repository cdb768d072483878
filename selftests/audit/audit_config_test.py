"""audit_config.build_folder: one build folder per configuration, reused."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import audit_config  # noqa: E402

FULL = "CONFIG_A=y\nCONFIG_B=y\nCONFIG_C=y\n"
REDUCED = "CONFIG_A=y\nCONFIG_R=y\n"


def built(folder: Path, wanted: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "audit.fragment").write_text(wanted)
    return folder


def test_a_new_configuration_gets_a_new_folder_until_the_limit(tmp_path):
    first = audit_config.build_folder(tmp_path, FULL)
    built(first, FULL)
    second = audit_config.build_folder(tmp_path, REDUCED)
    assert second != first
    built(second, REDUCED)
    assert audit_config.build_folder(tmp_path, FULL) == first
    assert audit_config.build_folder(tmp_path, REDUCED) == second


def test_past_the_limit_the_nearest_configuration_is_reused(tmp_path):
    full = built(tmp_path / "build-0", FULL)
    reduced = built(tmp_path / "build-1", REDUCED)
    assert audit_config.build_folder(tmp_path, FULL + "CONFIG_D=y\n") == full
    assert audit_config.build_folder(tmp_path, REDUCED + "CONFIG_E=y\n") == reduced


def test_a_folder_without_a_stamp_is_a_candidate_not_a_match(tmp_path):
    (tmp_path / "build-0").mkdir()
    assert audit_config.build_folder(tmp_path, FULL) == tmp_path / "build-1"
