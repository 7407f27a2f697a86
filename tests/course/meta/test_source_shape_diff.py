"""miniagent's lesson code is upstream's code, function by function.

Compared (see ``source_shapes.py`` for how): every function of ``prebuilt/chat_agent_executor.py``
and ``prebuilt/tool_node.py``, ``add_messages`` and its helpers in ``graph/message.py``, and every
*covered* function, found from the course itself: the snippet sections the lesson pages include
and the graded functions of the day kits (``kit.toml``). Inner functions
(``create_react_agent.call_model``) compare by qualname. Docstrings and annotations aside, each
must have its upstream twin's code, unless ``EXPECTED_DIFFERENCES`` names the upstream feature
the miniature leaves out. The course tooling's own functions (no upstream twin by design) are
listed, not compared.
"""

from __future__ import annotations

import ast
import re
import textwrap
import warnings

import pytest

pytest.importorskip("langgraph")

from miniagent_course.grading.course import load_course  # noqa: E402

from . import source_shapes as shapes  # noqa: E402  (after the importorskip)

# create_react_agent's string-model branch: what differs from upstream's, and why
_NO_LANGCHAIN_INIT_CHAT_MODEL = (
    "no langchain (langgraph's optional dependency) and its many-provider init_chat_model: a "
    "'<provider>:<model>' string goes through miniagent.chat_models.init_chat_model (only "
    "'openai' is built), so the import reads `from miniagent.chat_models import "
    "init_chat_model` and its ImportError says `pip install miniagent`, not langchain; "
    "the branch is otherwise upstream's"
)

# the messages-mode handler's node hooks: what differs from upstream's callbacks, and why
_NO_CHAIN_CALLBACKS = (
    "no callback manager around each node (no chain runs with run ids): the loop calls "
    "on_node_start(task) before a node and on_node_end(task, response) after it"
)

# function (``module:qualname``) or lesson fragment (``src/...py:section``) -> the upstream
# feature the miniature leaves out, which is why its code differs. A speed shortcut is never a
# reason: lesson code is upstream's code.
EXPECTED_DIFFERENCES = {
    "miniagent.prebuilt.chat_agent_executor:create_react_agent": (
        "no langgraph.warnings: no @deprecated(LangGraphDeprecatedSinceV10) decorator, and the "
        "config_schema warning spells out that class's text; " + _NO_LANGCHAIN_INIT_CHAT_MODEL
    ),
    "src/miniagent/prebuilt/chat_agent_executor.py:create_react_agent_static_model": (
        _NO_LANGCHAIN_INIT_CHAT_MODEL
    ),
    **{
        f"miniagent.prebuilt.tool_node:ToolNode.{name}": (
            "no execution_info/server_info in the runtime: ToolRuntime is built without them"
        )
        for name in ("_func", "_afunc")
    },
    **{
        f"miniagent.prebuilt.tool_node:ToolNode.{name}": (
            "no is_invalid_resume (interrupt resume): the miniature's interrupt() has no "
            "response_schema, so no resume value fails validation and every error is the tool's"
        )
        for name in ("_execute_tool_sync", "_execute_tool_async", "_run_one", "_arun_one")
    },
    "miniagent.agents.factory:create_agent": (
        "no LangSmith tracing (no traceable around the wrap hooks, no trace_policy on hook "
        "nodes), no stream transformers and no node cache (no cache=/transformers= arguments); "
        "init_chat_model is imported on first use (_init_chat_model); its setup and wiring sit "
        "in helpers made of upstream's statements "
        "(test_factory_helper_is_made_of_upstream_statements)"
    ),
    "miniagent.openai.chat_models.base:_convert_message_to_dict": (
        "no Responses API (the `api=` parameter), no ChatMessage custom roles and no "
        "FunctionMessage: the miniature speaks Chat Completions with the five message classes"
    ),
    "miniagent.agents.factory:_is_openai_compatible_model": (
        "no langchain-openai: the OpenAI-compatible chat model is miniagent.openai's "
        "(miniagent.openai.chat_models.base)"
    ),
    "miniagent.agents.factory:_supports_provider_strategy": (
        "no model profiles (langchain-core's BaseChatModel.profile): only the model-name "
        "fallback list applies"
    ),
    **{
        f"miniagent.agents.middleware.model_fallback:ModelFallbackMiddleware.{name}": (
            "no provider-specific cleaning of the request before a fallback "
            "(_sanitize_request_for_fallback: Anthropic cache_control markers, the Fireworks "
            "session header, prompt_cache_key): no Anthropic or Fireworks models"
        )
        for name in ("wrap_model_call", "awrap_model_call")
    },
    "miniagent.agents.middleware.pii:PIIMiddleware.__init__": (
        "no stream transformers: no _PIIStreamTransformer installed as self.transformers "
        "(redaction of the v3 event stream's deltas and tool events)"
    ),
    "miniagent.runnables.base:coerce_to_runnable": (
        "no RunnableGenerator: upstream turns a generator function into one (chunk-by-chunk "
        "streaming of a function's output); the miniature does not"
    ),
    "miniagent.runnables.base:RunnableSequence.__init__": (
        "no pydantic RunnableSerializable base (serialisation of Runnables): upstream hands "
        "first, middle, last and name to super().__init__, the miniature sets them"
    ),
    "miniagent.runnables.base:RunnableBinding.bind": (
        "no config_factories and no custom input/output types (with_types) on a binding: only "
        "bound, config and kwargs are carried over"
    ),
    "miniagent.graph.pregel:PregelLoop.tick": (
        "no checkpoint saved at each step (_prepare_tasks_and_emit_checkpoint), no replay of "
        "pending writes, no drain control, no debug 'tasks' stream; an interrupted run resumes "
        "from the loop's own state, not from checkpoint versions"
    ),
    "miniagent.graph.pregel:StreamMessagesHandler._emit": (
        "no subgraphs, so no namespace in the stream: upstream's meta is (namespace, metadata) "
        "and it streams (namespace, 'messages', (message, metadata)); the miniature's meta is "
        "the metadata and it hands ('messages', (message, metadata)) to the loop's emit"
    ),
    "miniagent.graph.pregel:StreamMessagesHandler.on_node_start": (
        _NO_CHAIN_CALLBACKS + ": upstream's on_chain_start(serialized, inputs, run_id, tags, "
        "metadata) sees every chain run, keeps a graph node's (namespace, metadata) by run_id "
        "and skips hidden runs (TAG_HIDDEN) and other graphs' nodes (subgraph namespaces)"
    ),
    "miniagent.graph.pregel:StreamMessagesHandler.on_node_end": (
        _NO_CHAIN_CALLBACKS + ": the metadata is the task's, where upstream's "
        "on_chain_end(response, run_id) pops what on_chain_start kept under the run_id"
    ),
    "miniagent.graph.pregel:PregelLoop.finish": (
        "no SyncPregelLoop/AsyncPregelLoop driven by Pregel.stream/astream: upstream raises the "
        "recursion error in Pregel.stream (pregel/main.py:3119), the miniature in its one loop"
    ),
}

NOT_A_FEATURE = re.compile(r"speed|fast|perf|slow|optimi", re.I)

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    TARGETS, FRAGMENTS, UNTWINNED = shapes.all_targets()


def reason_problem(reason: str) -> str | None:
    """Why an exemption's reason is not acceptable, or None."""
    if not reason.strip():
        return "gives no reason"
    if m := NOT_A_FEATURE.search(reason):
        return f"gives a speed reason ({m.group(0)!r}); name the upstream feature left out"
    return None


@pytest.mark.parametrize("key", sorted(TARGETS))
def test_function_has_upstream_code(key):
    problem = shapes.compare(TARGETS[key])
    if key in EXPECTED_DIFFERENCES:  # excuses a difference of code, nothing else
        assert problem, f"{key} now matches upstream: drop it from EXPECTED_DIFFERENCES"
        assert problem.of_code, problem.text
    elif problem:
        pytest.fail(problem.text, pytrace=False)


def test_an_exemption_excuses_only_a_difference_of_code():
    def problem(module, qualname, upstream_module, upstream_qualname=None):
        target = shapes.Target(
            module, qualname, upstream_module, upstream_qualname or qualname, "made up"
        )
        return shapes.compare(target)

    executor = "miniagent.prebuilt.chat_agent_executor"
    up_executor = "langgraph.prebuilt.chat_agent_executor"
    differs = problem(executor, "create_react_agent", up_executor)
    assert differs.of_code and " differs from upstream:\n" in differs.text
    no_namesake = problem("miniagent.graph.pregel", "PregelLoop.finish", "langgraph.pregel._loop")
    assert no_namesake.of_code
    assert problem(executor, "create_react_agent._resolve_model", up_executor) is None
    for not_found in (
        problem(executor, "no_such_function", up_executor),
        problem("miniagent.tools.base", "tool", ""),
        problem(executor, "create_react_agent", "nowhere.chat_agent_executor"),
    ):
        assert not_found and not not_found.of_code, not_found


@pytest.mark.parametrize("spec", sorted(FRAGMENTS))
def test_lesson_fragment_is_upstream_code(spec):
    problem = shapes.compare_fragment(FRAGMENTS[spec])
    if spec in EXPECTED_DIFFERENCES:
        assert problem, f"{spec} now matches upstream: drop it from EXPECTED_DIFFERENCES"
    elif problem:
        pytest.fail(problem, pytrace=False)


def test_every_exemption_names_an_omitted_feature_of_something_compared():
    problems = [
        f"{key}: {why}"
        for key, reason in EXPECTED_DIFFERENCES.items()
        for why in [
            reason_problem(reason),
            None if key in TARGETS or key in FRAGMENTS else "is no longer compared (stale)",
        ]
        if why
    ]
    assert problems == []


def test_a_speed_reason_is_rejected():
    assert reason_problem("one walk over the history instead of two (speed)")
    assert reason_problem("Faster: skips the thread pool")
    assert reason_problem("better performance")
    assert reason_problem(" ")
    assert reason_problem("no async path") is None


# a made-up course: course.toml names the kits' folder, whose one kit graded these functions
_MADE_UP_COURSE = 'kits = "kits"\n'
_MADE_UP_KIT = """\
title = "t"
lesson = "l"
notebook = "n"
file = "f"

[[functions]]
name = "outer"
reference = "miniagent.prebuilt.chat_agent_executor:outer"
upstream = "langgraph.prebuilt.chat_agent_executor:outer"

[[functions]]
name = "make_call_model"
reference = "miniagent_course.kits.day01.cases:make_call_model"
upstream = "langgraph.prebuilt.chat_agent_executor:create_react_agent.call_model"

[[functions]]
name = "add_messages"
reference = "miniagent_course.kits.day01.cases:add_messages"
upstream = "langgraph.graph.message:add_messages"

[[functions]]
name = "run_loop"
reference = "miniagent_course.kits.day01.cases:run_loop"
upstream = "langgraph.prebuilt.chat_agent_executor:create_react_agent"

[[functions]]
name = "predictions"
reference = "miniagent_course.kits.day01.cases:predictions"
upstream = "langgraph.pregel._messages:StreamMessagesHandler._emit"

[judgment]
kind = "predict"
title = "t"
function = "predictions"
"""


def test_the_covered_functions_come_from_lessons_and_the_kits(tmp_path):
    """Discovery on a small made-up course: a fence and an include, a section holding a
    function with an inner one, a section holding a few statements, a shown section of the
    course tooling; graded functions of the runtime and of the course tooling (a stand-in for an
    inner function, a name bound to the runtime's function, the learner's own loop, the
    judgment part)."""
    src = tmp_path / "src/miniagent/prebuilt/chat_agent_executor.py"
    src.parent.mkdir(parents=True)
    src.write_text(
        textwrap.dedent(
            """\
            # --8<-- [start:outer]
            def outer(x):
                def inner(y):
                    return y
                return inner(x)
            # --8<-- [end:outer]

            def other():
                # --8<-- [start:piece]
                a = 1
                # --8<-- [end:piece]
                return a
            """
        ),
        encoding="utf-8",
    )
    course_code = tmp_path / "src/miniagent_course/kits/day01/cases.py"
    course_code.parent.mkdir(parents=True)
    course_code.write_text(
        textwrap.dedent(
            """\
            add_messages = closure_vars(_message.add_messages)["func"]

            def make_call_model(**values):
                return rebind(reference_inner_function("call_model"), **values)

            # --8<-- [start:run_loop]
            def run_loop(model, tools):
                def step(state):
                    return state
                return step({})
            # --8<-- [end:run_loop]

            def predictions():
                # --8<-- [start:a_few_lines]
                found = {}
                # --8<-- [end:a_few_lines]
                return found
            """
        ),
        encoding="utf-8",
    )
    days = tmp_path / "course/days"
    days.mkdir(parents=True)
    fence = '=== "mini"\n\n    ```mini\n    {}\n    ```\n\n'
    (days / "day01.md").write_text(
        fence.format("src/miniagent/prebuilt/chat_agent_executor.py:outer")
        + '```python\n--8<-- "src/miniagent/prebuilt/chat_agent_executor.py:piece"\n```\n\n'
        + fence.format("src/miniagent_course/kits/day01/cases.py:run_loop")
        + fence.format("src/miniagent_course/kits/day01/cases.py:a_few_lines"),
        encoding="utf-8",
    )
    (tmp_path / "course.toml").write_text(_MADE_UP_COURSE, encoding="utf-8")
    kit = tmp_path / "kits/day01"
    kit.mkdir(parents=True)
    (kit / "kit.toml").write_text(_MADE_UP_KIT, encoding="utf-8")

    targets, fragments = shapes.lesson_targets(tmp_path)
    mini, course = "miniagent.prebuilt.chat_agent_executor", "miniagent_course.kits.day01.cases"
    assert [(t.module, t.qualname, t.upstream_module, t.no_twin) for t in targets] == [
        (mini, "outer", "langgraph.prebuilt.chat_agent_executor", ""),
        (mini, "outer.inner", "langgraph.prebuilt.chat_agent_executor", ""),
        (course, "run_loop", "", shapes.SHOWN_COURSE_CODE),
        (course, "run_loop.step", "", shapes.SHOWN_COURSE_CODE),
    ]
    assert [(f.spec, [type(s).__name__ for s in f.statements]) for f in fragments] == [
        (f"src/{mini.replace('.', '/')}.py:piece", ["Assign"])  # not the course's a_few_lines
    ]

    graded = {t.why: t for t in shapes.graded_targets(tmp_path)}
    compared = {why: (t.key, t.upstream_qualname) for why, t in graded.items() if not t.no_twin}
    assert compared == {
        "graded day01 (outer)": (f"{mini}:outer", "outer"),
        "graded day01 (make_call_model)": (
            f"{mini}:create_react_agent.call_model",  # upstream's is an inner function
            "create_react_agent.call_model",
        ),
        "graded day01 (add_messages)": (  # the course binds the runtime's function
            "miniagent.graph.message:add_messages",
            "add_messages",
        ),
    }
    untwinned = {why: t.no_twin for why, t in graded.items() if t.no_twin}
    assert untwinned == {
        "graded day01 (run_loop)": "the learner's own code: upstream has no run_loop",
        "graded day01 (predictions)": (
            "the judgment part (predict): about "
            "langgraph.pregel._messages:StreamMessagesHandler._emit, no twin"
        ),
    }


def test_a_module_gathering_several_upstream_files_maps_each_name():
    assert shapes.upstream_module_of("miniagent.graph.pregel", "PregelLoop.tick") == (
        "langgraph.pregel._loop"
    )
    assert shapes.upstream_module_of("miniagent.graph.pregel", "StreamMessagesHandler._emit") == (
        "langgraph.pregel._messages"
    )
    assert shapes.upstream_module_of("miniagent.nowhere", "f") == ""
    assert (
        shapes.mini_module_of("langgraph.pregel._messages", "StreamMessagesHandler._emit")
        == "miniagent.graph.pregel"
    )
    assert (
        shapes.mini_module_of("langchain_core.utils.function_calling", "_parse_google_docstring")
        == "miniagent.tools.schema"
    )
    assert (
        shapes.mini_module_of("langchain_core.utils.function_calling", "convert_to_openai_tool")
        == "miniagent.tools.function_calling"
    )


def test_the_real_course_is_discovered():
    """Every lesson section and graded function is compared, or is course tooling with no
    upstream twin (none silently dropped)."""
    lessons, fragments = shapes.lesson_targets()
    graded = shapes.graded_targets()
    assert lessons and graded
    assert {t.key for t in lessons + graded if not t.no_twin} <= set(TARGETS)
    assert {t.key for t in lessons + graded if t.no_twin} == set(UNTWINNED)
    assert [key for key, t in UNTWINNED.items() if not shapes.is_course_tooling(t.module)] == []
    judged = {
        f"{e.id} ({e.judgment.function})" for e in load_course(shapes.ROOT).exercises if e.judgment
    }
    graded_why = {w.removeprefix("graded ") for t in graded for w in [t.why]}
    assert judged <= graded_why  # every judgment function is among the graded ones


def test_the_comparison_sees_a_one_character_change_and_ignores_docstrings(tmp_path):
    source = shapes.mini_path("miniagent.prebuilt.chat_agent_executor").read_text(encoding="utf-8")
    real = shapes.functions(shapes.mini_path("miniagent.prebuilt.chat_agent_executor"))
    name = "create_react_agent._are_more_steps_needed"

    def shape_of(text: str, file: str):
        path = tmp_path / file
        path.write_text(text, encoding="utf-8")
        return shapes.shape(shapes.functions(path)[name])

    old, new = "remaining_steps < 2 and has_tool_calls", "remaining_steps <= 2 and has_tool_calls"
    assert old in source
    off_by_one = shape_of(source.replace(old, new, 1), "off_by_one.py")
    assert not shapes.same(off_by_one, shapes.shape(real[name]))
    shown = shapes.diff(off_by_one, shapes.shape(real[name]), "changed", "real")
    lines = shown.splitlines()  # the diff shows the changed line, both ways
    assert any(line.startswith("-") and "remaining_steps < 2" in line for line in lines)
    assert any(line.startswith("+") and "remaining_steps <= 2" in line for line in lines)

    docstring, signature = (
        "Too few steps left",
        "(state: StateSchema, response: BaseMessage) -> bool:",
    )
    assert docstring in source and signature in source
    reworded = source.replace(docstring, "Not enough steps left", 1)
    reworded = reworded.replace(signature, "(state: dict, response: object) -> None:", 1)
    assert shapes.same(shape_of(reworded, "reworded.py"), shapes.shape(real[name]))


# factory.py helpers that hold a stretch of upstream's create_agent: every statement but the
# closing ``return`` is a statement of langchain/agents/factory.py. (The other helpers --
# _init_chat_model, _middleware_with, _setup_*_call_*, _add_middleware_nodes, _add_agent_edges
# -- regroup or omit tracing; the differential tests cover what they do.)
STATEMENT_HELPERS = (
    "_setup_response_format",
    "_setup_tool_node",
    "_loop_anchors",
    "_add_loop_edges",
    "_add_before_edges",
    "_add_after_edges",
)


@pytest.mark.parametrize("name", STATEMENT_HELPERS)
def test_factory_helper_is_made_of_upstream_statements(name):
    assert name in shapes.FACTORY_HELPERS
    module = "miniagent.agents.factory"
    body = shapes.shape(shapes.functions(shapes.mini_path(module))[name]).body
    if isinstance(body[-1], ast.Return):
        body = body[:-1]
    fragment = shapes.Fragment(
        spec=f"src/miniagent/agents/factory.py:{name}",
        page="factory helper",
        statements=tuple(body),
    )
    assert body
    problem = shapes.compare_fragment(fragment)
    assert problem is None, problem
