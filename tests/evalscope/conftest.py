"""The EvalScope parity data: adapter files and rows are inputs of the parity cases, not test modules."""

collect_ignore_glob = ["adapters/*", "data/*"]
