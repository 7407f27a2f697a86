"""Day 08, solved by deciding at build time: the factory returns one of two node functions,
and picks the model getter once instead of testing ``is_dynamic_model`` at every step."""

from __future__ import annotations

from miniagent.messages import AIMessage

SORRY = "Sorry, need more steps to process this request."
ASYNC_ON_SYNC = " ".join(
    [
        "Async model callable provided but agent invoked synchronously.",
        "Use agent.ainvoke() or agent.astream(), or provide a sync model callable.",
    ]
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
    if is_async_dynamic_model:

        def call_model(state, runtime, config):
            raise RuntimeError(ASYNC_ON_SYNC)

        return call_model

    def model_for(state, runtime):
        return resolve_model(state, runtime) if is_dynamic_model else static_model

    def call_model(state, runtime, config):
        model_input = get_model_input_state(state)
        response = model_for(state, runtime).invoke(model_input, config)
        response.name = name
        keep = not are_more_steps_needed(state, response)
        return {"messages": [response if keep else AIMessage(SORRY, id=response.id)]}

    return call_model


def predictions():
    answer = "2 + 3 = 5"
    return {
        "async_model_ainvoke": (6, answer, None),
        "async_model_unanswered_call": (1, "RuntimeError", None),
        "async_model_unanswered_call_ainvoke": (2, "ValueError", None),
        "unanswered_call": (2, "ValueError", None),
        "dynamic_model_unanswered_call": (2, "ValueError", None),
        "hook_hides_unanswered_call": (6, answer, None),
        "unnamed_agent": (6, answer, None),
        "named_agent": (6, answer, "helper"),
        "tool_call_one_step_left": (5, SORRY, None),
        "answer_one_step_left": (6, answer, "helper"),
    }
