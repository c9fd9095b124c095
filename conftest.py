"""Test-session set-up shared by the tests and the doctests: tables go to a
private cache folder for the session (unless PERMGROUP_CACHE names one), never to
the user's cache.  Under pytest-xdist each worker has its own folder, so a test
sees only tables that tests run before it in the same process built, as in
one process."""
from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def _cache_folder(tmp_path_factory):
    if not os.environ.get("PERMGROUP_CACHE"):
        os.environ["PERMGROUP_CACHE"] = str(tmp_path_factory.mktemp("cache"))
    yield
