"""The coach: how well a seat played a recorded deal, judged from that seat's view alone.

:mod:`.replay` rebuilds a recorded deal as one seat saw it; :mod:`.review` judges each of the
seat's decisions by the expert's search (the points the move played gave up against the best
alternative, with its standard error, and a mark); :mod:`.beliefs` says what the seat may
believe of each opponent's hand from the cards played and the passes; :mod:`.revolution`
reviews Big 2 RevolutioN the same way. None of them reads a hidden card. ``bigtwo review``
(:mod:`bigtwo.commands.review`) is its command.
"""
