"""Shared test set-up: a private table cache per test session, the data folder."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
DATA = SHARED / "data"


@pytest.fixture(scope="session", autouse=True)
def _cache_folder(tmp_path_factory):
    """Tables go to a cache shared by the whole session, unless one is given."""
    if not os.environ.get("PERMGROUP_CACHE"):
        os.environ["PERMGROUP_CACHE"] = str(tmp_path_factory.mktemp("cache"))
    yield
