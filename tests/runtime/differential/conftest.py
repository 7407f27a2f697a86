"""Make ``import scenario_helpers`` and ``import source_shapes`` work here (no tests/__init__.py)."""

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
