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
  module); and every graded function of a day kit (``kit.toml``: ``reference`` -> ``upstream``).

The course tooling (``src/miniagent_course``) is the course's own code, not a miniature of
upstream: a function of it that a page shows (Day 03's ``loop_graph``) or that is graded without
being a runtime function (the learner's ``run_loop``, a day's judgment part such as
``predictions``) has no upstream twin and is not compared (``Target.no_twin`` says why). A graded
course function that *is* a runtime function -- an inner function of ``create_react_agent``
rebuilt from the real one, or a name bound to the runtime's function -- is compared as that
function.

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
    "miniagent.messages.utils": "langchain_core.messages.utils",
    "miniagent.tools.schema": "langchain_core.tools.base",
    "miniagent.tools.function_calling": "langchain_core.utils.function_calling",
    "miniagent.openai.chat_models.base": "langchain_openai.chat_models.base",
    **{
        f"miniagent.agents.middleware.{name}": f"langchain.agents.middleware.{name}"
        for name in BUILT_INS
    },
}
# A miniagent module that gathers what upstream spreads over several files: its top-level names
# (a function, or a class with its methods) whose twin is in another upstream module than
# MODULES says.
DEFINED_IN = {
    "miniagent.graph.pregel": {
        "StreamMessagesHandler": "langgraph.pregel._messages",
        "_state_values": "langgraph.pregel._messages",
    },
    "miniagent.tools.schema": {"_parse_google_docstring": "langchain_core.utils.function_calling"},
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
    # ChatOpenAI's error handlers (what they raise: tests/runtime, test_openai_errors_diff.py)
    "miniagent.openai.chat_models.base": ("_handle_openai_bad_request", "_handle_openai_api_error"),
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
    no_twin: str = ""  # course tooling: why it has no upstream twin (then it is not compared)

    @property
    def key(self) -> str:
        return f"{self.module}:{self.qualname}"


@dataclass(frozen=True)
class Fragment:
    """A lesson section that holds no whole function: a few statements of a longer one."""

    spec: str  # "src/miniagent/graph/pregel.py:stop_step", also its key
    page: str
    statements: tuple[ast.stmt, ...]


def upstream_module_of(module: str, qualname: str) -> str:
    """The upstream module that holds the twin of ``module:qualname`` ("" if MODULES has none)."""
    top = qualname.partition(".")[0]
    return DEFINED_IN.get(module, {}).get(top) or MODULES.get(module, "")


def mini_module_of(upstream_module: str, upstream_qualname: str) -> str:
    """The miniagent module that holds the twin of an upstream function ("" if none)."""
    top = upstream_qualname.partition(".")[0]
    for module, names in DEFINED_IN.items():
        if names.get(top) == upstream_module:
            return module
    return next((m for m, up in MODULES.items() if up == upstream_module), "")


def is_course_tooling(module: str) -> bool:
    """Not ``src/miniagent``, which holds only modules with an upstream twin (ARCHITECTURE.md):
    the course's own code (``miniagent_course``: grading, site, stubs)."""
    return module.partition(".")[0] != "miniagent"


def _target(module: str, qualname: str, why: str, no_twin: str = "") -> Target:
    return Target(module, qualname, upstream_module_of(module, qualname), qualname, why, no_twin)


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


SHOWN_COURSE_CODE = "course tooling shown on a page: the course's own code (no upstream twin)"


def lesson_targets(root: Path = ROOT) -> tuple[list[Target], list[Fragment]]:
    """What the lesson pages (``course/days/*.md``) show of ``src/``.

    A section of the course tooling (Day 03's ``loop_graph``, the learner's loop as a graph) is
    the course's own code: its functions come back with ``no_twin`` set, and its fragments are
    not compared.
    """
    targets: list[Target] = []
    fragments: list[Fragment] = []
    for page in sorted((root / "course" / "days").glob("*.md")):
        rel_page = page.relative_to(root).as_posix()
        for spec in lesson_specs(page.read_text(encoding="utf-8")):
            module, inside, statements = section_functions(spec, root)
            no_twin = SHOWN_COURSE_CODE if is_course_tooling(module) else ""
            targets += [_target(module, q, rel_page, no_twin) for q in inside]
            if statements and not no_twin:
                fragments.append(Fragment(spec.strip(), rel_page, tuple(statements)))
    return targets, fragments


def _is_closure(module: str, qualname: str) -> bool:
    """Whether upstream defines ``module:qualname`` inside a function (``create_react_agent``'s
    ``call_model``), out of a grader's reach but through the closure (grading/closures.py)."""
    parent = qualname.rpartition(".")[0]
    found = symbols(upstream_path(module)).get(parent) if parent else None
    return found is not None and found.kind == "def"


def _is_alias(module: str, qualname: str, root: Path) -> bool:
    """Whether the course module binds ``qualname`` to a runtime function rather than defining
    it (Day 01's ``add_messages = closure_vars(_message.add_messages)["func"]``)."""
    path = root / "src" / (module.replace(".", "/") + ".py")
    found = symbols(path).get(qualname) if path.is_file() else None
    return found is not None and found.kind == "assign"


def graded_targets(root: Path = ROOT) -> list[Target]:
    """The kits' graded functions: the miniagent twin of each ``upstream`` function.

    A reference in ``src/miniagent`` is that function. A reference in the course tooling stands
    for the miniagent function with upstream's qualname, in the module that mirrors upstream's,
    when it is that function: an inner function of ``create_react_agent``, rebuilt from the real
    one, or a name bound to the runtime's function. Any other course function is the learner's
    own code, with ``no_twin`` saying so: the day's judgment part (predict / grader / extend:
    its ``upstream`` names what it is about) or a function upstream has no counterpart of (Day
    03's ``run_loop``: upstream builds the loop as a graph).
    """
    out = []
    for exercise in load_course(root, lang="en").exercises:
        judgment = exercise.judgment
        for fn in exercise.functions:
            up_module, _, up_qualname = fn.upstream.partition(":")
            ref_module, _, ref_qualname = fn.reference.partition(":")
            module, qualname, no_twin = ref_module, ref_qualname, ""
            if is_course_tooling(ref_module):
                if judgment is not None and fn.name == judgment.function:
                    no_twin = f"the judgment part ({judgment.kind}): about {fn.upstream}, no twin"
                elif _is_closure(up_module, up_qualname) or _is_alias(
                    ref_module, ref_qualname, root
                ):
                    module = mini_module_of(up_module, up_qualname) or f"(none for {up_module})"
                    qualname = up_qualname
                else:
                    no_twin = f"the learner's own code: upstream has no {ref_qualname}"
            why = f"graded {exercise.id} ({fn.name})"
            out.append(Target(module, qualname, up_module, up_qualname, why, no_twin))
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


def all_targets() -> tuple[dict[str, Target], dict[str, Fragment], dict[str, Target]]:
    """Every compared function and every lesson fragment, by key (with all reasons), and the
    course tooling's functions that have no upstream twin (not compared)."""
    lessons, fragments = lesson_targets()
    targets: dict[str, Target] = {}
    untwinned: dict[str, Target] = {}
    # graded first: a kit.toml names the twin (``on_node_start`` -> ``on_chain_start``)
    for t in [*graded_targets(), *lessons, *scope_targets()]:
        into = untwinned if t.no_twin else targets
        known = into.get(t.key)
        if known is None:
            into[t.key] = t
        elif t.why not in known.why.split("; "):
            into[t.key] = replace(known, why=f"{known.why}; {t.why}")
    return targets, {f.spec: f for f in fragments}, untwinned


# --- comparing ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """Why a function is not its upstream twin's code, readably."""

    text: str
    # the code differs, or upstream has no namesake: an omitted upstream feature may explain it
    # (EXPECTED_DIFFERENCES); not so for a function or upstream file that cannot be found
    of_code: bool = False


def compare(target: Target) -> Problem | None:
    """None when the two functions have the same code, else what differs."""
    where = f"{target.key} ({target.why})"
    mini_file = mini_path(target.module)
    mini = functions(mini_file).get(target.qualname) if mini_file.is_file() else None
    if mini is None:
        return Problem(f"{where}: no such function in src/")
    if not target.upstream_module:
        return Problem(
            f"{where}: {target.module} has no upstream module in MODULES (ARCHITECTURE.md)"
        )
    try:
        upstream_file = upstream_path(target.upstream_module)
    except ValueError as e:  # CitationError, UpstreamMissing: not a file of a pinned package
        return Problem(f"{where}: {e}")
    upstream = functions(upstream_file).get(target.upstream_qualname)
    if upstream is None:
        up = f"{target.upstream_module} has no {target.upstream_qualname}"
        return Problem(f"{where}: upstream {up}", of_code=True)
    a, b = shape(mini), shape(upstream)
    if same(a, b):
        return None
    up = f"{target.upstream_module}:{target.upstream_qualname}"
    return Problem(f"{where} differs from upstream:\n{diff(a, b, target.key, up)}", of_code=True)


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
