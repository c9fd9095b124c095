import sys

from permgroup.cli import main

sys.exit(main())
