"""day10 mutant: for a static model returns `model` (no prompt) instead of `static_model`."""

from miniagent.prebuilt.chat_agent_executor import _get_prompt_runnable


def make_resolve_model(*, model, prompt, is_dynamic_model, static_model, tools=()):
    def _resolve_model(state, runtime):
        if is_dynamic_model:
            return _get_prompt_runnable(prompt) | model(state, runtime)
        return model

    return _resolve_model
