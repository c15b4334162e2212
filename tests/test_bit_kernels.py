"""The C bit kernels every module shares (gostop_cards.h): the run-time popcnt
and the division-free remainder of the shuffle agree with plain arithmetic."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gostop_core.cards import _mod_small, _popcount

U64 = st.integers(min_value=0, max_value=2**64 - 1)


@settings(max_examples=2000, deadline=None)
@given(U64)
def test_popcount_counts_the_bits(x):
    assert _popcount(x) == bin(x).count("1")


@settings(max_examples=3000, deadline=None)
@given(U64, st.integers(min_value=0, max_value=200))
def test_mod_small_is_the_remainder(x, d):
    assert _mod_small(x, d) == (x % d if d else 0)


def test_mod_small_at_the_edges_of_every_quotient():
    """Around multiples of d, at the top of the 64-bit range and at 0, for every
    bound the shuffles use (2 to 64) and the fallbacks on either side."""
    for d in range(1, 67):
        top = (2**64 - 1) // d
        for k in (0, 1, 2, top // 2, top // 3, top - 1, top):
            for x in (k * d - 1, k * d, k * d + 1):
                if 0 <= x < 2**64:
                    assert _mod_small(x, d) == x % d, (x, d)
        assert _mod_small(2**64 - 1, d) == (2**64 - 1) % d
