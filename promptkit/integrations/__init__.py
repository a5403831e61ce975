"""promptkit inside other systems' pipelines: :mod:`promptkit.integrations.ray` (Ray Data, its LLM processor).

Each module imports its system lazily and, when it is missing, raises the
missing-extra error with the ``pip install`` command (``promptkit[ray]``).
"""
