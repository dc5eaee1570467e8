"""``python -m companion``: the same as the ``companion`` command."""

import sys

from .cli import main

sys.exit(main())
