"""Day 08, solved with a callable object: the seven values are attributes, each gate a method,
and the node is the object itself (its ``__call__`` has the parameters the node injects by)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from miniagent.messages import AIMessage


@dataclass
class CallModel:
    is_async_dynamic_model: bool
    is_dynamic_model: bool
    static_model: Any
    name: str | None
    get_model_input_state: Any
    resolve_model: Any
    are_more_steps_needed: Any

    def __call__(self, state, runtime, config):
        self.refuse_async()
        model_input = self.get_model_input_state(state)
        model = self.resolve_model(state, runtime) if self.is_dynamic_model else self.static_model
        response = model.invoke(model_input, config)
        response.name = self.name
        if self.are_more_steps_needed(state, response):
            response = self.sorry(response)
        return {"messages": [response]}

    def refuse_async(self):
        if not self.is_async_dynamic_model:
            return
        raise RuntimeError(
            "Async model callable provided but agent invoked synchronously. Use agent.ainvoke()"
            " or agent.astream(), or provide a sync model callable."
        )

    @staticmethod
    def sorry(response):
        return AIMessage(content="Sorry, need more steps to process this request.", id=response.id)


def make_call_model(**pieces):
    return CallModel(**pieces)


def predictions():
    sorry = "Sorry, need more steps to process this request."
    raised = {
        "async_model_unanswered_call": (1, "RuntimeError"),
        "async_model_unanswered_call_ainvoke": (2, "ValueError"),
        "unanswered_call": (2, "ValueError"),
        "dynamic_model_unanswered_call": (2, "ValueError"),
    }
    returned = {
        "async_model_ainvoke": (6, "2 + 3 = 5", None),
        "hook_hides_unanswered_call": (6, "2 + 3 = 5", None),
        "unnamed_agent": (6, "2 + 3 = 5", None),
        "named_agent": (6, "2 + 3 = 5", "helper"),
        "tool_call_one_step_left": (5, sorry, None),
        "answer_one_step_left": (6, "2 + 3 = 5", "helper"),
    }
    return {**{key: (*value, None) for key, value in raised.items()}, **returned}
