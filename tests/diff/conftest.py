"""The diff tests' config files are data, not test modules."""

collect_ignore_glob = ["configs/*"]
