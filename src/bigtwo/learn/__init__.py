"""Learning from bigtwo's own play: standard environments, self-play, training.

The encoding of a seat's view and of every move, and the network the ``learned`` player runs,
are below the bots, in :mod:`bigtwo.policy`; this package is above the bots and the arena.

- :mod:`.env`: a Gymnasium environment, one learning seat against bigtwo bots.
- :mod:`.aec`: a PettingZoo AEC environment, every seat an agent.
- :mod:`.vector`: a self-play runner that plays many deals at once and batches the policy.

The environments need the ``learn`` extra (``pip install 'bigtwo[learn]'``: Gymnasium and
PettingZoo); the runner needs only numpy, the trainer (:mod:`.train`) PyTorch.
"""
