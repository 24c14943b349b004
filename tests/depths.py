"""Two depths of a property test: ``make test`` checks a few dozen examples, the thorough run
(marked ``slow``: ``make test-slow`` and CI) ten times as many, or ``thorough``."""

from __future__ import annotations

from typing import Any

import pytest


def depths(quick: int, thorough: int | None = None) -> list[Any]:
    """The ``examples`` parameter of a test at both depths."""
    return [
        pytest.param(quick, id="quick"),
        pytest.param(
            quick * 10 if thorough is None else thorough, id="thorough", marks=pytest.mark.slow
        ),
    ]
