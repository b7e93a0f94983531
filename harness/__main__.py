import sys

from csi_conformance.harness.faces.cli import main

sys.exit(main())
