"""Shared fixtures.  The differential-testing helpers live in ``differential.py``."""
import pytest


@pytest.fixture
def reference_torch():
    """PyTorch, the test oracle; the test is skipped where it is not installed."""
    return pytest.importorskip("torch")
