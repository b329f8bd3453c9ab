"""The OpenSpiel adapter's quick list of a tensor equals numpy's own ``tolist``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

pytest.importorskip("pyspiel")

from ranchhand.envs.openspiel import _as_list

SPARSE = st.sampled_from([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.5, -2.25])


@given(
    hnp.arrays(np.float32, st.integers(0, 300), elements=SPARSE)
    | hnp.arrays(np.float32, st.integers(0, 300), elements=st.floats(-4, 4, width=32))
)
def test_the_list_of_a_tensor_equals_tolist(flat: np.ndarray) -> None:
    made = _as_list(flat)
    assert type(made) is list
    assert made == flat.tolist()
    assert all(type(value) is float for value in made)
