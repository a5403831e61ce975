"""``python -m promptkit`` runs the CLI."""

import sys

from promptkit.cli.main import main

sys.exit(main())
