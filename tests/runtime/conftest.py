"""Make ``import sides`` work in every runtime test (``tests/runtime/sides/``: the two sides,
the upstream fakes, the loopback server); there is no tests/__init__.py."""

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
