"""``import miniagent`` holds only what mirrors upstream (and the demo): no course tooling."""

from __future__ import annotations

import pkgutil
import re
from pathlib import Path

import miniagent

ARCHITECTURE = Path(__file__).resolve().parents[3] / "ARCHITECTURE.md"


def test_every_miniagent_module_is_on_the_map_to_upstream():
    modules = [m.name for m in pkgutil.walk_packages(miniagent.__path__, "miniagent.")]
    table = ARCHITECTURE.read_text(encoding="utf-8").split("## Cross-module contracts")[0]
    mapped = set(re.findall(r"`(miniagent/[\w/.]+)`", table))
    mapped |= {f"miniagent/messages/{n}" for n in ("human.py",)}  # a row names it beside system.py
    mapped |= {f"miniagent/utils/{n}" for n in ("json.py", "utils.py")}  # likewise
    for name in modules:
        path = name.replace(".", "/")
        parts = path.split("/")
        folders = {"/".join(parts[:n]) + "/" for n in range(2, len(parts))}  # its packages
        on_map = (
            f"{path}.py" in mapped
            or bool(folders & mapped)
            or any(m.startswith(f"{path}/") for m in mapped)  # a package of mapped modules
        )
        assert on_map, f"{name} is not in ARCHITECTURE.md's map to upstream: no twin?"
        assert not name.startswith(("miniagent.course", "miniagent.grading", "miniagent.site"))


def test_miniagent_never_imports_the_course_tooling():
    """No module of miniagent names a package built on it (``miniagent_<name>``: the course)."""
    source = Path(miniagent.__file__).parent
    offenders = [
        str(p.relative_to(source))
        for p in source.rglob("*.py")
        if re.search(r"\bminiagent_[a-z]\w*", p.read_text(encoding="utf-8"))
    ]
    assert offenders == []
