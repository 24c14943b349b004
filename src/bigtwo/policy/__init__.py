"""The learned policy that computer players run, in numpy alone: below the bots, which play
it, and the training (:mod:`bigtwo.learn`), which makes it.

- :mod:`.encoding`: a seat's view as a fixed-size vector and every move as an action index
  (``docs/learning.md`` lists the layout).
- :mod:`.network`: the network's shape, its weights file and its forward pass.
"""
