"""Mutant: validates the whole history before pre_model_hook's llm_input_messages replace it."""

from miniagent.messages import AIMessage
from miniagent.prebuilt.chat_agent_executor import _get_state_value, _validate_chat_history

SORRY = "Sorry, need more steps to process this request."
ASYNC_ERROR = (
    "Async model callable provided but agent invoked synchronously. "
    "Use agent.ainvoke() or agent.astream(), or provide a sync model callable."
)


def make_call_model(
    *,
    is_async_dynamic_model,
    is_dynamic_model,
    static_model,
    name,
    get_model_input_state,
    resolve_model,
    are_more_steps_needed,
):
    def call_model(state, runtime, config):
        if is_async_dynamic_model:
            raise RuntimeError(ASYNC_ERROR)
        _validate_chat_history(_get_state_value(state, "messages"))
        model_input = get_model_input_state(state)
        if is_dynamic_model:
            response = resolve_model(state, runtime).invoke(model_input, config)
        else:
            response = static_model.invoke(model_input, config)
        response.name = name
        if are_more_steps_needed(state, response):
            return {"messages": [AIMessage(id=response.id, content=SORRY)]}
        return {"messages": [response]}

    return call_model
