"""Mutant: builds the Sorry reply by editing the response, so it keeps the tool calls and the name."""

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
        model_input = get_model_input_state(state)
        if is_dynamic_model:
            response = resolve_model(state, runtime).invoke(model_input, config)
        else:
            response = static_model.invoke(model_input, config)
        response.name = name
        if are_more_steps_needed(state, response):
            return {"messages": [response.model_copy(update={"content": SORRY})]}
        return {"messages": [response]}

    return call_model
