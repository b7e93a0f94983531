import sys

from harness.faces.cli import main

sys.exit(main())
