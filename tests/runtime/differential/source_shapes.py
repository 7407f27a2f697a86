"""Compare miniagent's functions with their upstream twins as code (``test_source_shape_diff.py``).

A function's *shape* is its ``def`` with what is not code set aside: the docstring, the
annotations (of arguments, of the return, of ``x: T = ...``) and ``typing.cast(T, x)`` (which is
``x`` at run time). A nested function is shown as a stub ``def inner(args): ...``, in its place,
and compared on its own under its qualname (``create_react_agent.call_model``). Decorators,
arguments, defaults and every statement are compared.

Which functions are compared:

* every function of the files in ``WHOLE_FILES`` and the functions named in ``ALSO``;
* every *covered* function, found from the course itself: each snippet section a lesson page
  (``course/days/*.md``) includes, by a ``mini`` fence or a ``--8<-- "src/...py:name"`` line,
  covers the functions defined inside it (a section that holds no whole function, a few lines of
  a longer one, is a *fragment*: each of its statements must be a statement of the upstream
  module); and every graded function of ``course.toml`` (``reference`` -> ``upstream``).

The sections are resolved by the site's own code (``miniagent_course.site.fences.mini_excerpt``)
and qualnames by its symbol table (``miniagent_course.site.upstream.symbols``), so this test
compares what the site shows.
"""

from __future__ import annotations

import ast
import copy
import difflib
import functools
import re
import textwrap
from dataclasses import dataclass, replace
from pathlib import Path

from miniagent_course.grading.course import load_course
from miniagent_course.site.citations import split_page
from miniagent_course.site.fences import mini_excerpt
from miniagent_course.site.upstream import find_file, symbols

ROOT = Path(__file__).resolve().parents[3]

# agents/middleware/'s built-ins and their helpers, each the twin of upstream's namesake
BUILT_INS = (
    "_redaction",
    "_retry",
    "context_editing",
    "model_call_limit",
    "model_fallback",
    "model_retry",
    "pii",
    "tool_call_limit",
    "tool_retry",
)
# miniagent module -> the upstream module it mirrors (ARCHITECTURE.md's table; for the graph
# loop, the upstream file that holds the loop the lessons show).
MODULES = {
    "miniagent.prebuilt.chat_agent_executor": "langgraph.prebuilt.chat_agent_executor",
    "miniagent.prebuilt.tool_node": "langgraph.prebuilt.tool_node",
    "miniagent.graph.message": "langgraph.graph.message",
    "miniagent.graph.state": "langgraph.graph.state",
    "miniagent.graph.pregel": "langgraph.pregel._loop",
    "miniagent.managed": "langgraph.managed.is_last_step",
    "miniagent.types": "langgraph.types",
    "miniagent.errors": "langgraph.errors",
    "miniagent.runtime": "langgraph.runtime",
    "miniagent.constants": "langgraph.constants",
    "miniagent.runnables.base": "langchain_core.runnables.base",
    "miniagent.agents.factory": "langchain.agents.factory",
    "miniagent.agents.middleware.types": "langchain.agents.middleware.types",
    "miniagent.agents.structured_output": "langchain.agents.structured_output",
    **{
        f"miniagent.agents.middleware.{name}": f"langchain.agents.middleware.{name}"
        for name in BUILT_INS
    },
}
# Files compared function by function in full: each function needs an upstream namesake.
WHOLE_FILES = (
    "miniagent.prebuilt.chat_agent_executor",
    "miniagent.prebuilt.tool_node",
    "miniagent.agents.middleware.types",
    "miniagent.agents.structured_output",
    *(f"miniagent.agents.middleware.{name}" for name in BUILT_INS),
)
# Other functions compared whatever the lessons show (module -> qualnames).
ALSO = {
    "miniagent.graph.message": ("_add_messages_wrapper", "add_messages", "_coerce_to_messages"),
    # every function of agents/factory.py but the helpers that hold create_agent's setup and
    # wiring (FACTORY_HELPERS: their statements are upstream's, test_source_shape_diff.py)
    "miniagent.agents.factory": (),
}
# factory.py's helpers with no upstream namesake: upstream has their code inline in create_agent.
FACTORY_HELPERS = (
    "_init_chat_model",
    "_setup_response_format",
    "_middleware_with",
    "_setup_tool_call_wrappers",
    "_setup_tool_node",
    "_setup_model_call_handlers",
    "_add_middleware_nodes",
    "_loop_anchors",
    "_add_agent_edges",
    "_add_loop_edges",
    "_add_before_edges",
    "_add_after_edges",
)

_FUNCTION = (ast.FunctionDef, ast.AsyncFunctionDef)
_INCLUDE = re.compile(r"""--8<--\s+["'](src/[^"':]+\.py):([\w-]+)["']""")


# --- paths ----------------------------------------------------------------------------------


def mini_path(module: str) -> Path:
    return ROOT / "src" / (module.replace(".", "/") + ".py")


def module_of(rel: str) -> str:
    """``src/miniagent/graph/pregel.py`` -> ``miniagent.graph.pregel``."""
    return rel.removeprefix("src/").removesuffix(".py").replace("/", ".")


def upstream_path(module: str) -> Path:
    """The installed pinned file of an upstream module (the site's lookup, pins checked)."""
    return find_file(module.replace(".", "/") + ".py").abs_path


# --- shapes ---------------------------------------------------------------------------------


def _is_cast(node: ast.AST) -> bool:
    """``cast(T, x)`` or ``typing.cast(T, x)``: ``x`` at run time, a note for the type checker."""
    func = getattr(node, "func", None)
    return (
        isinstance(node, ast.Call)
        and len(node.args) == 2
        and not node.keywords
        and (
            (isinstance(func, ast.Name) and func.id == "cast")
            or (isinstance(func, ast.Attribute) and func.attr == "cast")
        )
    )


class _Normalise(ast.NodeTransformer):
    """Set aside docstring, annotations and ``cast``; stub the functions nested in ``top``."""

    def __init__(self, top: ast.AST | None) -> None:
        self.top = top

    def visit_FunctionDef(self, node: ast.AST) -> ast.AST:
        if node is not self.top:  # compared on its own: keep its signature, stub its body
            node.body = [ast.Expr(ast.Constant(Ellipsis))]
        elif (
            node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
            and isinstance(node.body[0].value.value, str)
        ):
            node.body = node.body[1:]  # the docstring
        node.returns = None
        node.type_comment = None
        return self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_arg(self, node: ast.arg) -> ast.AST:
        node.annotation = None
        node.type_comment = None
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST | None:
        if node.value is None:  # `x: T` declares, does nothing
            return None
        return self.visit(ast.Assign(targets=[node.target], value=node.value, lineno=0))

    def visit_Call(self, node: ast.Call) -> ast.AST:
        if _is_cast(node):
            return self.visit(node.args[1])
        return self.generic_visit(node)


def normalise(node: ast.AST, top: ast.AST | None = None) -> ast.AST:
    """A normalised copy of ``node`` (``top``: the function compared, if ``node`` is one)."""
    node = copy.deepcopy(node)
    node = _Normalise(node if top is not None else None).visit(node) or ast.Pass()
    for child in ast.walk(node):  # a body left empty by a dropped declaration
        if isinstance(getattr(child, "body", None), list) and not child.body:
            child.body = [ast.Pass()]
    return ast.fix_missing_locations(node)


def shape(node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
    """The comparable form of one function: its normalised ``def``."""
    return normalise(node, top=node)


def same(a: ast.AST, b: ast.AST) -> bool:
    return ast.dump(a) == ast.dump(b)


def diff(mini: ast.AST, upstream: ast.AST, mini_name: str, upstream_name: str) -> str:
    """A unified diff of two shapes, as code: ``-`` upstream's lines, ``+`` miniagent's."""
    return "\n".join(
        difflib.unified_diff(
            ast.unparse(upstream).splitlines(),
            ast.unparse(mini).splitlines(),
            fromfile=f"upstream {upstream_name}",
            tofile=f"miniagent {mini_name}",
            lineterm="",
        )
    )


@functools.cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def functions(path: Path) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    """qualname -> ``def`` node, with the site's qualnames (``ToolNode._func``, ``f.inner``)."""
    by_line = {n.lineno: n for n in ast.walk(_tree(path)) if isinstance(n, _FUNCTION)}
    return {q: by_line[s.line] for q, s in symbols(path).items() if s.kind == "def"}


# --- what is covered ------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """One miniagent function and its upstream twin."""

    module: str  # "miniagent.prebuilt.chat_agent_executor"
    qualname: str  # "create_react_agent.call_model"
    upstream_module: str  # "" when MODULES has no twin for `module`
    upstream_qualname: str
    why: str  # "course/days/day08-call-model.md", "graded day08 (make_call_model)", "whole file"

    @property
    def key(self) -> str:
        return f"{self.module}:{self.qualname}"


@dataclass(frozen=True)
class Fragment:
    """A lesson section that holds no whole function: a few statements of a longer one."""

    spec: str  # "src/miniagent/graph/pregel.py:stop_step", also its key
    page: str
    statements: tuple[ast.stmt, ...]


def _target(module: str, qualname: str, why: str) -> Target:
    return Target(module, qualname, MODULES.get(module, ""), qualname, why)


def lesson_specs(text: str) -> list[str]:
    """Every section a page includes: ``mini`` fences and ``--8<-- "src/...py:name"`` lines."""
    specs = [block.spec for block in split_page(text)[1] if block.kind == "mini"]
    specs += [f"{m.group(1)}:{m.group(2)}" for m in _INCLUDE.finditer(text)]
    return specs


def section_functions(spec: str, root: Path = ROOT) -> tuple[str, list[str], list[ast.stmt]]:
    """``(module, qualnames of the functions inside the section, its statements if none)``."""
    rel, first, lines = mini_excerpt(spec, root)
    last = first + len(lines) - 1
    inside = [
        q
        for q, s in symbols(root / rel).items()
        if s.kind == "def" and first <= s.first_line and s.end_line <= last
    ]
    statements = [] if inside else ast.parse(textwrap.dedent("".join(lines))).body
    return module_of(rel), inside, statements


def lesson_targets(root: Path = ROOT) -> tuple[list[Target], list[Fragment]]:
    """What the lesson pages (``course/days/*.md``) show of ``src/``."""
    targets: list[Target] = []
    fragments: list[Fragment] = []
    for page in sorted((root / "course" / "days").glob("*.md")):
        rel_page = page.relative_to(root).as_posix()
        for spec in lesson_specs(page.read_text(encoding="utf-8")):
            module, inside, statements = section_functions(spec, root)
            targets += [_target(module, q, rel_page) for q in inside]
            if statements:
                fragments.append(Fragment(spec.strip(), rel_page, tuple(statements)))
    return targets, fragments


def graded_targets(root: Path = ROOT) -> list[Target]:
    """course.toml's graded functions: the miniagent twin of each ``upstream`` function.

    A reference in ``src/miniagent`` is that function. A reference in the course tooling (an
    inner function of ``create_react_agent``, rebuilt from the real one) stands for the miniagent
    function with upstream's qualname, in the module that mirrors upstream's.
    """
    mini_of = {up: mini for mini, up in MODULES.items()}
    out = []
    for exercise in load_course(root, lang="en").exercises:
        for fn in exercise.functions:
            up_module, _, up_qualname = fn.upstream.partition(":")
            ref_module, _, ref_qualname = fn.reference.partition(":")
            module, qualname = ref_module, ref_qualname
            if not ref_module.startswith("miniagent."):
                module, qualname = mini_of.get(up_module, f"(none for {up_module})"), up_qualname
            why = f"graded {exercise.id} ({fn.name})"
            out.append(Target(module, qualname, up_module, up_qualname, why))
    return out


def scope_targets() -> list[Target]:
    """``WHOLE_FILES`` and ``ALSO``."""
    out = []
    for module in WHOLE_FILES:
        out += [_target(module, q, "whole file") for q in functions(mini_path(module))]
    for module, names in ALSO.items():
        if module == "miniagent.agents.factory":  # all but the helpers
            names = [q for q in functions(mini_path(module)) if q not in FACTORY_HELPERS]
        out += [_target(module, q, "named in ALSO") for q in names]
    return out


def all_targets() -> tuple[dict[str, Target], dict[str, Fragment]]:
    """Every compared function and every lesson fragment, by key (with all reasons)."""
    lessons, fragments = lesson_targets()
    targets: dict[str, Target] = {}
    for t in [*lessons, *graded_targets(), *scope_targets()]:
        known = targets.get(t.key)
        if known is None:
            targets[t.key] = t
        elif t.why not in known.why.split("; "):
            targets[t.key] = replace(known, why=f"{known.why}; {t.why}")
    return targets, {f.spec: f for f in fragments}


# --- comparing ------------------------------------------------------------------------------


def compare(target: Target) -> str | None:
    """None when the two functions have the same code, else what differs, readably."""
    where = f"{target.key} ({target.why})"
    mini_file = mini_path(target.module)
    mini = functions(mini_file).get(target.qualname) if mini_file.is_file() else None
    if mini is None:
        return f"{where}: no such function in src/"
    if not target.upstream_module:
        return f"{where}: {target.module} has no upstream module in MODULES (ARCHITECTURE.md)"
    upstream = functions(upstream_path(target.upstream_module)).get(target.upstream_qualname)
    if upstream is None:
        return f"{where}: upstream {target.upstream_module} has no {target.upstream_qualname}"
    a, b = shape(mini), shape(upstream)
    if same(a, b):
        return None
    up = f"{target.upstream_module}:{target.upstream_qualname}"
    return f"{where} differs from upstream:\n{diff(a, b, target.key, up)}"


@functools.cache
def _upstream_statements(module: str) -> frozenset[str]:
    tree = _tree(upstream_path(module))
    return frozenset(ast.dump(normalise(n)) for n in ast.walk(tree) if isinstance(n, ast.stmt))


def compare_fragment(fragment: Fragment) -> str | None:
    """None when each statement of the fragment is a statement of the upstream module."""
    module = module_of(fragment.spec.partition(":")[0])
    if module not in MODULES:
        return f"{fragment.spec}: {module} has no upstream module in MODULES (ARCHITECTURE.md)"
    known = _upstream_statements(MODULES[module])
    missing = [normalise(s) for s in fragment.statements if ast.dump(normalise(s)) not in known]
    if not missing:
        return None
    shown = "\n".join(ast.unparse(s) for s in missing)
    return (
        f"{fragment.spec} ({fragment.page}): not statements of upstream {MODULES[module]}:\n{shown}"
    )
