"""What a chat-model API receives for a tool. Mirrors ``langchain_core/utils/function_calling.py``.

``convert_to_openai_tool`` turns a function, a tool, a pydantic model or a dict into::

    {"type": "function",
     "function": {"name": ..., "description": ..., "parameters": <JSON schema>}}

The JSON schema is pydantic's, with ``$ref``s inlined and ``title``s removed: models read the
``description``s, and titles like ``"Location"`` would only repeat the property names.
"""

from __future__ import annotations

from collections.abc import Callable
from copy import deepcopy
from typing import Any

from pydantic import BaseModel
from pydantic.errors import PydanticInvalidForJsonSchema

from miniagent.tools.base import BaseTool
from miniagent.tools.schema import create_schema_from_function

_WellKnownOpenAITools = (  # function_calling.py:499 -- dicts of these types pass through
    "function",
    "file_search",
    "computer",
    "computer_use_preview",
    "code_interpreter",
    "mcp",
    "image_generation",
    "web_search_preview",
    "web_search",
    "tool_search",
    "apply_patch",
    "namespace",
)


# --8<-- [start:convert_to_openai_tool]
def convert_to_openai_tool(
    tool: dict[str, Any] | type[BaseModel] | Callable[..., Any] | BaseTool,
) -> dict[str, Any]:
    """The OpenAI ``tools=[...]`` entry for a tool-like object (function_calling.py:515).

    Dicts that are already OpenAI tools (or OpenAI built-ins like ``web_search``) pass through.
    """
    if isinstance(tool, dict):
        tool_type = tool.get("type") or ""
        if tool_type in _WellKnownOpenAITools or tool_type.startswith("web_search_preview"):
            return tool
    return {"type": "function", "function": convert_to_openai_function(tool)}


# --8<-- [end:convert_to_openai_tool]


# --8<-- [start:convert_to_openai_function]
def convert_to_openai_function(
    function: dict[str, Any] | type[BaseModel] | Callable[..., Any] | BaseTool,
) -> dict[str, Any]:
    """``{"name", "description", "parameters"}`` for one tool-like object (function_calling.py:377).

    Checked in this order: an Anthropic-format dict, an OpenAI function dict, a JSON schema
    with a ``title``, a pydantic model class, a ``BaseTool``, any other callable.
    """
    if isinstance(function, dict) and all(k in function for k in ("name", "input_schema")):
        oai_function = {"name": function["name"], "parameters": function["input_schema"]}
        if "description" in function:
            oai_function["description"] = function["description"]
        return oai_function
    if isinstance(function, dict) and "name" in function:
        keep = {"name", "description", "parameters", "strict"}
        return {k: v for k, v in function.items() if k in keep}
    if isinstance(function, dict) and "title" in function:
        function_copy = function.copy()
        oai_function = {"name": function_copy.pop("title")}
        if "description" in function_copy:
            oai_function["description"] = function_copy.pop("description")
        if function_copy and "properties" in function_copy:
            oai_function["parameters"] = function_copy
        return oai_function
    if isinstance(function, type) and issubclass(function, BaseModel):
        return _convert_pydantic_to_openai_function(function)
    if isinstance(function, BaseTool):
        return _format_tool_to_openai_function(function)
    if callable(function):
        return _convert_python_function_to_openai_function(function)
    if isinstance(function, dict) and ("type" in function or "properties" in function):
        raise ValueError(
            f"Unsupported function\n\n{function}\n\nTo use a JSON schema as a "
            "function, it must have a top-level 'title' key to be used as the "
            "function name."
        )
    raise ValueError(
        f"Unsupported function\n\n{function}\n\nFunctions must be passed in"
        " as Dict, pydantic.BaseModel, or Callable. If they're a dict they must"
        " either be in OpenAI function format or valid JSON schema with top-level"
        " 'title' key."
    )


# --8<-- [end:convert_to_openai_function]


def _convert_python_function_to_openai_function(function: Callable[..., Any]) -> dict[str, Any]:
    """A plain function: its schema, docstring parsed Google-style (function_calling.py:212).

    Unlike ``@tool``, the description is only the docstring's summary, and injected
    arguments are left out of the schema itself.
    """
    func_name = function.__name__
    model = create_schema_from_function(
        func_name,
        function,
        filter_args=(),
        parse_docstring=True,
        error_on_invalid_docstring=False,
        include_injected=False,
    )
    return _convert_pydantic_to_openai_function(model, name=func_name, description=model.__doc__)


def _format_tool_to_openai_function(tool: BaseTool) -> dict[str, Any]:
    """A tool: its ``tool_call_schema`` under its own name and description (function_calling.py:329)."""
    schema = tool.tool_call_schema
    if isinstance(schema, dict):
        return _convert_json_schema_to_openai_function(
            schema, name=tool.name, description=tool.description
        )
    return _convert_pydantic_to_openai_function(
        schema, name=tool.name, description=tool.description
    )


def _convert_pydantic_to_openai_function(
    model: type[BaseModel], *, name: str | None = None, description: str | None = None
) -> dict[str, Any]:
    """A pydantic model's JSON schema as a function (function_calling.py:157)."""
    try:
        schema = model.model_json_schema()
    except PydanticInvalidForJsonSchema as e:
        model_name = getattr(model, "__name__", str(model))
        raise PydanticInvalidForJsonSchema(
            f"Failed to generate JSON schema for '{model_name}': {e}\n\n"
            "Tool argument schemas must be JSON-serializable. If your schema includes "
            "custom Python classes, consider:\n"
            "  1. Converting them to Pydantic models with JSON-compatible fields\n"
            "  2. Using primitive types (str, int, float, bool, list, dict) instead\n"
            "  3. Passing the data as serialized JSON strings\n\n"
        ) from e
    return _convert_json_schema_to_openai_function(schema, name=name, description=description)


# --8<-- [start:convert_json_schema_to_openai_function]
def _convert_json_schema_to_openai_function(
    schema: dict[str, Any], *, name: str | None = None, description: str | None = None
) -> dict[str, Any]:
    """Inline ``$ref``s, drop ``$defs``, lift title/description, strip titles (function_calling.py:121)."""
    schema = dereference_refs(schema)
    schema.pop("$defs", None)
    title = schema.pop("title", "")
    default_description = schema.pop("description", "")
    return {
        "name": name or title,
        "description": description or default_description,
        "parameters": _rm_titles(schema),
    }


# --8<-- [end:convert_json_schema_to_openai_function]


def _rm_titles(kv: dict[str, Any], prev_key: str = "") -> dict[str, Any]:
    """Remove ``title`` keys, except a *property* named "title" (function_calling.py:87).

    Only dicts are entered, not lists: a model inside ``Optional[...]`` (an ``anyOf`` list)
    keeps its titles, exactly as upstream.
    """
    new_kv = {}
    for k, v in kv.items():
        if k == "title":
            if isinstance(v, dict) and prev_key == "properties":
                new_kv[k] = _rm_titles(v, k)  # a field called "title", not a title
        elif isinstance(v, dict):
            new_kv[k] = _rm_titles(v, k)
        else:
            new_kv[k] = v
    return new_kv


def dereference_refs(schema_obj: dict[str, Any]) -> dict[str, Any]:
    """A copy of the schema with each ``{"$ref": "#/$defs/X"}`` replaced by X's schema.

    Mirrors ``langchain_core/utils/json_schema.py:188`` (default arguments). Sibling keys of
    a ``$ref`` (e.g. a field's ``description``) are merged over the referenced schema; a
    reference to a definition already being expanded (a recursive model) keeps only them.
    """
    return _dereference_refs_helper(schema_obj, schema_obj, set())


def _dereference_refs_helper(
    obj: Any, full_schema: dict[str, Any], processed_refs: set[str]
) -> Any:
    """Recursive worker of ``dereference_refs`` (utils/json_schema.py:83)."""
    if isinstance(obj, dict) and "$ref" in obj:
        ref_path = obj["$ref"]
        siblings = {k: v for k, v in obj.items() if k != "$ref"}
        if ref_path in processed_refs:  # a cycle: stop expanding here
            return _dereference_refs_helper(siblings, full_schema, processed_refs)
        processed_refs.add(ref_path)
        resolved = _dereference_refs_helper(
            _retrieve_ref(ref_path, full_schema), full_schema, processed_refs
        )
        processed_refs.remove(ref_path)
        if not siblings:
            return resolved
        merged = dict(resolved) if isinstance(resolved, dict) else {}
        merged.update(_dereference_refs_helper(siblings, full_schema, processed_refs))
        return merged
    if isinstance(obj, dict):  # the definitions themselves are copied, not expanded
        return {
            k: deepcopy(v)
            if k == "$defs"
            else _dereference_refs_helper(v, full_schema, processed_refs)
            for k, v in obj.items()
        }
    if isinstance(obj, list):
        return [_dereference_refs_helper(item, full_schema, processed_refs) for item in obj]
    return obj


def _retrieve_ref(path: str, schema: dict[str, Any]) -> Any:
    """A deep copy of the object at ``#/a/b/...`` (utils/json_schema.py:12)."""
    components = path.split("/")
    if components[0] != "#":
        raise ValueError(
            "ref paths are expected to be URI fragments, meaning they should start with #."
        )
    out: Any = schema
    for component in components[1:]:
        if isinstance(out, dict) and component in out:
            out = out[component]
        elif isinstance(out, list) and component.isdigit() and int(component) < len(out):
            out = out[int(component)]
        else:
            raise KeyError(f"Reference '{path}' not found.")
    return deepcopy(out)


def convert_to_anthropic_tool(
    tool: dict[str, Any] | type[BaseModel] | Callable[..., Any] | BaseTool,
) -> dict[str, Any]:
    """The Anthropic ``tools=[...]`` entry: ``{"name", "input_schema", "description"}``.

    Mirrors ``langchain_anthropic.chat_models.convert_to_anthropic_tool`` (plus its
    ``bind_tools``, which passes server-side built-ins like ``{"type": "web_search_20250305",
    ...}`` through). Everything else goes through ``convert_to_openai_tool`` first.
    """
    if isinstance(tool, dict):
        if "name" in tool and "input_schema" in tool:
            return dict(tool)  # already Anthropic format
        if tool.get("type") not in (None, "function", "object"):
            return tool  # a built-in tool
    function = convert_to_openai_tool(tool)["function"]
    anthropic_tool = {"name": function["name"], "input_schema": function["parameters"]}
    if "description" in function:
        anthropic_tool["description"] = function["description"]
    return anthropic_tool
