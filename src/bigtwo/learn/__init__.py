"""Learning from bigtwo's own play: fixed-size encodings, standard environments, self-play.

- :mod:`.encoding`: a seat's view as a fixed-size vector and every move as an action index
  (numpy only; ``docs/learning.md`` lists the layout).
- :mod:`.env`: a Gymnasium environment, one learning seat against bigtwo bots.
- :mod:`.aec`: a PettingZoo AEC environment, every seat an agent.
- :mod:`.vector`: a self-play runner that plays many deals at once and batches the policy.

The environments need the ``learn`` extra (``pip install 'bigtwo[learn]'``: Gymnasium and
PettingZoo); the encoding and the runner need only numpy.
"""
