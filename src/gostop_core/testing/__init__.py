"""The test machinery, kept apart from the runtime API (as ``numpy.testing``
is): :mod:`~gostop_core.testing.reference`, the plain pure-Python engine the
compiled core is checked against; :mod:`~gostop_core.testing.lockstep`, which
drives both side by side; :mod:`~gostop_core.testing.perft_suite`, the perft
suites.  Runtime code never imports this package (``gostop bench`` does, to
compare the two engines' speed)."""
