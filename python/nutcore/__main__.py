import sys

from nutcore.cli import main

sys.exit(main())
