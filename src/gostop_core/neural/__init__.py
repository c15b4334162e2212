"""The neural network of the ``neural`` bot and its Deep Monte-Carlo training.

* :mod:`gostop_core.neural.selfplay` (compiled): the inputs of a seat's view and
  of each legal move, the split first layer, the batched self-play actor;
* :mod:`gostop_core.neural.network`: the Q network in numpy, Adam, weights files;
* :mod:`gostop_core.neural.dmc`: the training loop (``gostop train-neural``).

The shipped weights (``casual2.npz``, 2 players, casual: self-play, then fitted
to the search with its own playouts; ``casual2-neural.npz``, the ``neural`` bot's
at that table: ``casual2.npz`` fitted to those values blended with its Q;
``casual3.npz``, 3 players, the same two steps as ``casual2.npz``;
``casual3-neural.npz``, the ``neural`` bot's at 3-player casual, made as
``casual2-neural.npz``; ``standard2.npz``; ``standard2-neural.npz``, the
``neural`` bot's at 2-player standard, made the same way) and how they were made
are in docs/strength.md (rounds 6, 12, 13, 16, 17, 22, 23 and 25); each file's
header names the command that made it.
"""
