"""Shared paths for the tests: the repository's fixtures and the shared data beside it."""

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"
SHARED = REPO.parent / "shared"


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES
