"""`python3 -m enotty COMMAND`: see enotty.cli."""
import sys

from .cli import main

sys.exit(main())
