"""A wheel of the course, built offline from a checkout, for the Gradescope autograder.

The autograder installs the course at the version it was built from, so the zip carries a wheel
of the checkout's ``src/`` (the packages ``pyproject.toml`` names). A wheel is a zip with a
``.dist-info`` folder (PEP 427); writing it here needs no build backend and no network, so the
same zip installs offline. It leaves out what grading never reads: caches, the kits' alternative
solutions and the instructors' own checks (``submission.NEVER_COPIED``).
"""

from __future__ import annotations

import base64
import fnmatch
import hashlib
import re
import sys
import zipfile
from pathlib import Path

from miniagent_course.classroom.submission import NEVER_COPIED

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

TAG = "py3-none-any"
FIXED_TIME = (2020, 1, 1, 0, 0, 0)  # the same bytes for the same files


def _kept(relative: str) -> bool:
    """Is ``miniagent_course/kits/day07/instructor/...`` a file grading needs?"""
    parts = relative.split("/")
    if "__pycache__" in parts or relative.endswith((".pyc", ".pyo")):
        return False
    if len(parts) > 3 and parts[1] == "kits":
        inside = "/".join(parts[3:])
        return not any(
            fnmatch.fnmatch(inside, p) or inside.startswith(p + "/") for p in NEVER_COPIED
        )
    return True


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return f"sha256={digest.decode('ascii')}"


def _requirement(requirement: str, extra: str) -> str:
    name, _, marker = requirement.partition(";")
    condition = f'extra == "{extra}"'
    if marker.strip():
        condition = f"({marker.strip()}) and {condition}"
    return f"Requires-Dist: {name.strip()}; {condition}"


def metadata(project: dict) -> str:
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project.get('description', '')}",
    ]
    if "requires-python" in project:
        lines.append(f"Requires-Python: {project['requires-python']}")
    lines += [f"Requires-Dist: {r}" for r in project.get("dependencies", [])]
    for extra, requirements in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [_requirement(r, extra) for r in requirements]
    return "\n".join(lines) + "\n"


def build_wheel(root: Path, into: Path) -> Path:
    """Write the course's wheel into ``into``; its path."""
    pyproject = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    project = pyproject["project"]
    packages = pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"]
    name = re.sub(r"[-_.]+", "_", project["name"]).lower()
    dist_info = f"{name}-{project['version']}.dist-info"
    files: dict[str, bytes] = {}
    for package in packages:
        folder = root / package
        for path in sorted(folder.rglob("*")):
            relative = path.relative_to(folder.parent).as_posix()
            if path.is_file() and _kept(relative):
                files[relative] = path.read_bytes()
    scripts = project.get("scripts", {})
    files[f"{dist_info}/METADATA"] = metadata(project).encode("utf-8")
    files[f"{dist_info}/WHEEL"] = (
        f"Wheel-Version: 1.0\nGenerator: miniagent-classroom\nRoot-Is-Purelib: true\nTag: {TAG}\n"
    ).encode()
    if scripts:
        entries = "".join(f"{k} = {v}\n" for k, v in scripts.items())
        files[f"{dist_info}/entry_points.txt"] = f"[console_scripts]\n{entries}".encode()
    record = "".join(f"{n},{_record_hash(d)},{len(d)}\n" for n, d in files.items())
    files[f"{dist_info}/RECORD"] = (record + f"{dist_info}/RECORD,,\n").encode()
    into.mkdir(parents=True, exist_ok=True)
    wheel = into / f"{name}-{project['version']}-{TAG}.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as zipped:
        for relative, data in files.items():
            info = zipfile.ZipInfo(relative, FIXED_TIME)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zipped.writestr(info, data)
    return wheel
