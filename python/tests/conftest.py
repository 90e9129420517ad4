"""Shared paths for the tests: the repository's fixtures and the shared data beside it."""

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"
# The shared data beside the repository (or beside the directory of its worktrees).
SHARED = next(
    (base / "shared" for base in (REPO.parent, REPO.parent.parent) if (base / "shared").is_dir()),
    REPO.parent / "shared",
)


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES
