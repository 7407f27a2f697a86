"""The compiled agent graph: node names and mermaid text equal upstream's.

The 16 combinations of tools / pre_model_hook / post_model_hook / response_format are upstream's
``test_react_agent_graph_structure`` (langgraph-prebuilt 1.1.3, ``tests/test_react_agent_graph.py``);
a few more cover ``return_direct`` and ``version="v1"``.
"""

import warnings

import pytest

pytest.importorskip("langgraph")

from langgraph.prebuilt import create_react_agent as upstream_create_react_agent  # noqa: E402
from pydantic import BaseModel  # noqa: E402
from sides.upstream_fakes import FakeToolCallingModel as UpstreamFakeModel  # noqa: E402

from miniagent.prebuilt import create_react_agent  # noqa: E402
from miniagent.testing import FakeToolCallingModel  # noqa: E402


def tool() -> None:
    """Testing tool."""


def pre_model_hook(state):
    return {}


def post_model_hook(state):
    return {}


class ResponseFormat(BaseModel):
    """Response format for the agent."""

    result: str


def build_both(**kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        upstream = upstream_create_react_agent(UpstreamFakeModel(), **kwargs)
    return create_react_agent(FakeToolCallingModel(), **kwargs), upstream


def assert_same_graph(mini, upstream):
    assert list(mini.nodes) == list(upstream.nodes)
    assert mini.get_graph().draw_mermaid() == upstream.get_graph().draw_mermaid()
    assert mini.get_graph().draw_mermaid(with_styles=False) == upstream.get_graph().draw_mermaid(
        with_styles=False
    )


@pytest.mark.parametrize("tools", [[], [tool]], ids=["no_tools", "tools"])
@pytest.mark.parametrize("pre", [None, pre_model_hook], ids=["no_pre", "pre"])
@pytest.mark.parametrize("post", [None, post_model_hook], ids=["no_post", "post"])
@pytest.mark.parametrize("response_format", [None, ResponseFormat], ids=["no_rf", "rf"])
def test_react_agent_graph_structure(tools, pre, post, response_format):
    mini, upstream = build_both(
        tools=tools, pre_model_hook=pre, post_model_hook=post, response_format=response_format
    )
    assert_same_graph(mini, upstream)


def test_graph_with_a_return_direct_tool():
    from langchain_core.tools import tool as upstream_tool

    from miniagent.tools import tool as mini_tool

    def finish(x: str) -> str:
        """Finish the run."""
        return x

    mini = create_react_agent(
        FakeToolCallingModel(),
        [mini_tool(finish, return_direct=True)],
        pre_model_hook=pre_model_hook,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        upstream = upstream_create_react_agent(
            UpstreamFakeModel(),
            [upstream_tool(finish, return_direct=True)],
            pre_model_hook=pre_model_hook,
        )
    assert_same_graph(mini, upstream)


@pytest.mark.parametrize("post", [None, post_model_hook], ids=["no_post", "post"])
def test_graph_version_v1(post):
    mini, upstream = build_both(tools=[tool], post_model_hook=post, version="v1")
    assert_same_graph(mini, upstream)


def test_graph_name():
    mini, upstream = build_both(tools=[tool], name="helper")
    assert mini.name == upstream.name == "helper"
    mini, upstream = build_both(tools=[])
    assert mini.name == upstream.name
