# why: calls the model callable on the first step only and reuses that pipeline afterwards
# function: make_resolve_model
# whole_file_because: the cache must outlive one call of _resolve_model, so it lives beside the inner function, in the maker: two places
"""day10 mutant: calls the model callable on the first step only and reuses that pipeline."""

from miniagent.prebuilt.chat_agent_executor import _get_prompt_runnable


def make_resolve_model(*, model, prompt, is_dynamic_model, static_model, tools=()):
    cache = {}

    def _resolve_model(state, runtime):
        if not is_dynamic_model:
            return static_model
        if "pipeline" not in cache:
            cache["pipeline"] = _get_prompt_runnable(prompt) | model(state, runtime)
        return cache["pipeline"]

    return _resolve_model
