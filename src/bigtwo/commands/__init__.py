"""Subcommands of the ``bigtwo`` command line, one module per part of bigtwo."""
