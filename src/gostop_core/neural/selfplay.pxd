# The batched self-play actor (selfplay.pyx): used from Python only; the C inputs
# and first layer it calls are declared in inputs.pxd.
