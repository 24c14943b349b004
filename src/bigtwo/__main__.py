"""``python -m bigtwo``: the ``bigtwo`` command, for when the script is not on ``PATH`` (or to
pick the interpreter explicitly); it runs :func:`bigtwo.cli.main` with the same arguments."""

from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
