"""Tools: Python functions a model can call. Mirrors ``langchain_core/tools/__init__.py``.

Read in this order:

* ``schema.py``     -- a pydantic model from a function signature (``create_schema_from_function``)
* ``injected.py``   -- arguments the model never sees (``InjectedToolArg``, ``InjectedToolCallId``)
* ``base.py``       -- ``BaseTool``: validate, run, wrap the result in a ``ToolMessage``
* ``structured.py`` -- ``StructuredTool.from_function``: name, description, schema from a function
* ``convert.py``    -- the ``@tool`` decorator
* ``function_calling.py`` -- what the model API receives (``convert_to_openai_tool``)
"""

from miniagent.tools.base import (
    FILTERED_ARGS,
    TOOL_MESSAGE_BLOCK_TYPES,
    ArgsSchema,
    BaseTool,
    InjectedToolArg,
    InjectedToolCallId,
    ToolException,
    get_all_basemodel_annotations,
)
from miniagent.tools.convert import tool
from miniagent.tools.function_calling import (
    convert_to_anthropic_tool,
    convert_to_openai_function,
    convert_to_openai_tool,
)
from miniagent.tools.schema import create_schema_from_function
from miniagent.tools.structured import StructuredTool

__all__ = [
    "FILTERED_ARGS",
    "TOOL_MESSAGE_BLOCK_TYPES",
    "ArgsSchema",
    "BaseTool",
    "InjectedToolArg",
    "InjectedToolCallId",
    "StructuredTool",
    "ToolException",
    "convert_to_anthropic_tool",
    "convert_to_openai_function",
    "convert_to_openai_tool",
    "create_schema_from_function",
    "get_all_basemodel_annotations",
    "tool",
]
