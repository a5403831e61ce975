"""lm-eval parity data: the task folders hold lm-eval-style utils.py modules that lm-eval loads, not test modules."""

collect_ignore_glob = ["tasks/*", "tasks/*/*"]
