"""The ``promptkit`` command line (not part of the library API)."""
