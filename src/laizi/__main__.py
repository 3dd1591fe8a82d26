import sys

from laizi.cli import main

sys.exit(main())
