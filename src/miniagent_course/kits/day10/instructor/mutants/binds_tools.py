# why: binds the agent's tools to the model the callable returned, overwriting the user's binding
# function: make_resolve_model
# whole_file_because: _resolve_model does not close over the tools; the mistake needs the maker's `tools` argument passed into the inner function as well
"""day10 mutant: "helpfully" binds the agent's tools to whatever the callable returned."""

from miniagent.prebuilt.chat_agent_executor import _get_prompt_runnable


def make_resolve_model(*, model, prompt, is_dynamic_model, static_model, tools=()):
    def _resolve_model(state, runtime):
        if is_dynamic_model:
            return _get_prompt_runnable(prompt) | model(state, runtime).bind_tools(tools)
        return static_model

    return _resolve_model
