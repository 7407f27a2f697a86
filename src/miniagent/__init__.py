"""miniagent: LangGraph's prebuilt ReAct agent and LangChain's create_agent, in miniature.

Importing the package is cheap: submodules load on first use. Import what you need from the
module that mirrors upstream, e.g. ``from miniagent.prebuilt import create_react_agent`` (like
``from langgraph.prebuilt import create_react_agent``).
"""

__version__ = "0.1.0"

UPSTREAM_VERSIONS = {
    "langgraph": "1.2.24",
    "langgraph-prebuilt": "1.1.3",
    "langchain": "1.5.2",
    "langchain-core": "1.8.3",
    "langchain-openai": "1.7.4",
}
