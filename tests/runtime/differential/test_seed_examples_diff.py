"""The source articles' own examples, run on miniagent and on langchain 1.5.2 with fake models.

Each example is rewritten here as a runnable script (scripted models, tools that record their
calls) and run through both sides (``tests/runtime/sides``); the stream, what each model saw,
the tools that ran, the warnings and the final state must be equal. The asserts after each
``on_both`` spell out what the example really does:

* seed 003, a travel guardrail: ``before_model`` returning messages *without* ``jump_to``
  does not stop anything -- its message is appended and the model is still called, seeing it
  (a ``jump_to: "end"`` with ``@hook_config(can_jump_to=["end"])`` is what skips the model);
  ``wrap_model_call`` switching ``request.model`` by assignment works but warns; and
  ``wrap_tool_call`` answering for ``book_hotel`` keeps the tool from running.
* seed 002, context assembly: a ``@dynamic_prompt`` that projects state (the current work
  order) and runtime context into the system message, and a ``wrap_model_call`` that trims the
  history for this call only (``request.override(messages=...)``) while the checkpoint keeps it.
* seed 004, a plain function as a tool, streamed with ``stream_mode="updates"``.
"""

import warnings
from dataclasses import dataclass

import pytest

pytest.importorskip("langchain.agents")

from typing_extensions import NotRequired  # noqa: E402

from .agent_helpers import final, on_both, plain, script, tool_call, updates  # noqa: E402

# ---- seed 003: a travel guardrail --------------------------------------------------------------

REFUSAL = "I can't make a risky booking for you directly."
NEEDS_CONFIRMATION = "book_hotel needs the user's confirmation first."


def asks_to_book_directly(text: str) -> bool:
    return "book" in text.lower() and "directly" in text.lower()


def travel_guardrail(ns, strong_model, log, *, jump=False):
    """The guardrail class: a refusal in ``before_model`` (with ``jump_to: "end"`` if
    ``jump``), the strong model for complex trips, ``book_hotel`` only once confirmed."""

    class TravelState(ns.mw.AgentState):
        trip_complexity: NotRequired[str]
        user_confirmed: NotRequired[bool]

    def refuse(self, state, runtime):
        last_user = state["messages"][-1]
        if asks_to_book_directly(last_user.content):
            update = {"messages": [ns.m.AIMessage(REFUSAL, id="refusal")]}
            return {**update, "jump_to": "end"} if jump else update
        return None

    class TravelGuardrail(ns.mw.AgentMiddleware):
        state_schema = TravelState

        if jump:
            before_model = ns.mw.hook_config(can_jump_to=["end"])(refuse)
        else:
            before_model = refuse

        def wrap_model_call(self, request, handler):
            if request.state.get("trip_complexity") == "high":
                request.model = strong_model  # assignment, as the article writes it
            response = handler(request)
            log.append(("model response", type(response).__name__))
            return response

        def wrap_tool_call(self, request, handler):
            if request.tool.name == "book_hotel" and not request.state.get("user_confirmed"):
                return ns.m.ToolMessage(NEEDS_CONFIRMATION, tool_call_id=request.tool_call["id"])
            return handler(request)

    return TravelGuardrail()


def travel_run(ns, text, default_replies, strong_replies=("unused",), *, jump=False, **extra):
    log: list = []

    @ns.tool
    def search_flights(destination: str) -> str:
        """Search flights to a destination."""
        log.append(("search_flights", destination))
        return f"3 flights to {destination}, from 89 EUR"

    @ns.tool
    def book_hotel(city: str) -> str:
        """Book the cheapest hotel in a city tonight."""
        log.append(("book_hotel", city))
        return f"Booked Hotel Central in {city}"

    default_model = script(ns, *default_replies)
    strong_model = script(ns, *strong_replies)
    agent = ns.create_agent(
        model=default_model,
        tools=[search_flights, book_hotel],
        middleware=[travel_guardrail(ns, strong_model, log, jump=jump)],
        checkpointer=ns.InMemorySaver(),
    )
    inputs = {"messages": [{"role": "user", "content": text, "id": "h-1"}], **extra}
    config = {"configurable": {"thread_id": "trip"}}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        stream = updates(agent, inputs, config=config)
    seen = {
        name: [[(m.type, m.content) for m in call["messages"]] for call in model.calls]
        for name, model in (("default", default_model), ("strong", strong_model))
    }
    warned = [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]
    return stream, seen, log, warned, final(agent.get_state(config).values)


def test_travel_guardrail_before_model_without_jump_to_still_calls_the_model():
    book = [tool_call("book_hotel", {"city": "Paris"})]
    stream, seen, log, warned, _ = on_both(
        lambda ns: travel_run(
            ns, "Book me the cheapest hotel tonight, directly.", [book, "Please confirm first."]
        )
    )
    assert [node for node, _ in stream] == [
        "TravelGuardrail.before_model",
        "model",  # called anyway: no jump_to, so the edge goes on to the model
        "tools",
        "TravelGuardrail.before_model",  # the last message is now a tool result: no refusal
        "model",
    ]
    # the refusal is just one more message in the history the model sees
    assert seen["default"][0] == [
        ("human", "Book me the cheapest hotel tonight, directly."),
        ("ai", REFUSAL),
    ]
    assert stream[2][1]["messages"][0]["content"] == NEEDS_CONFIRMATION
    assert ("book_hotel", "Paris") not in log  # wrap_tool_call answered for the tool
    assert log == [("model response", "ModelResponse")] * 2  # what handler() hands back
    assert seen["strong"] == [] and warned == []


def test_travel_guardrail_with_jump_to_end_skips_the_model():
    stream, seen, log, _, state = on_both(
        lambda ns: travel_run(ns, "Book it directly.", ["never said"], jump=True)
    )
    assert [node for node, _ in stream] == ["TravelGuardrail.before_model"]
    assert seen == {"default": [], "strong": []}
    assert [(m["type"], m["content"]) for m in state["messages"]] == [
        ("human", "Book it directly."),
        ("ai", REFUSAL),
    ]
    # the jump is a private channel: invoke's output leaves it out, but the thread's saved
    # values (get_state) still hold the last jump on both sides
    assert state["jump_to"] == "end"

    def output_keys(ns):
        guard = travel_guardrail(ns, None, [], jump=True)
        agent = ns.create_agent(script(ns, "never said"), middleware=[guard])
        return sorted(agent.invoke({"messages": [("user", "Book it directly.")]}))

    assert on_both(output_keys) == ["messages"]


def test_travel_guardrail_switches_to_the_strong_model_for_a_complex_trip():
    book = [tool_call("book_hotel", {"city": "Kyoto"})]
    stream, seen, log, warned, _ = on_both(
        lambda ns: travel_run(
            ns,
            "Plan a three-city trip and book the hotel in Kyoto.",
            ["unused"],
            [book, "Booked in Kyoto."],
            trip_complexity="high",
            user_confirmed=True,
        )
    )
    assert seen["default"] == [] and len(seen["strong"]) == 2
    assert ("book_hotel", "Kyoto") in log  # confirmed: the tool ran
    assert stream[2][1]["messages"][0]["content"] == "Booked Hotel Central in Kyoto"
    # one warning per assignment: `request.override(model=...)` is the supported way
    assert len(warned) == 2
    assert warned[0].startswith("Direct attribute assignment to ModelRequest.model is deprecated")


def test_travel_guardrail_lets_searches_through_unconfirmed():
    search = [tool_call("search_flights", {"destination": "Lisbon"})]
    _, seen, log, _, _ = on_both(
        lambda ns: travel_run(ns, "Find flights to Lisbon.", [search, "Three flights found."])
    )
    assert ("search_flights", "Lisbon") in log
    assert seen["default"][1][-1] == ("tool", "3 flights to Lisbon, from 89 EUR")


# ---- seed 002: context assembly -- a dynamic prompt from state, trimmed history --------------

RULES = "You maintain work orders. Change an order only through save_order."
WINDOW = 3  # messages kept for one model call


@dataclass
class AssistantContext:
    user: str
    now: str


def work_order_agent(ns, model):
    class WorkOrderState(ns.mw.AgentState):
        current_order: NotRequired[dict]

    @ns.tool
    def save_order(title: str, due: str, runtime: ns.ToolRuntime[AssistantContext]) -> object:
        """Create or update the current work order."""
        previous = runtime.state.get("current_order") or {"id": "WO-DEMO", "version": 0}
        order = {**previous, "title": title, "due": due, "version": previous["version"] + 1}
        summary = {"ok": True, "id": order["id"], "version": order["version"]}
        message = ns.m.ToolMessage(
            content=repr(summary), tool_call_id=runtime.tool_call_id, id=f"t-{order['version']}"
        )
        return ns.Command(update={"current_order": order, "messages": [message]})

    @ns.mw.dynamic_prompt
    def work_order_prompt(request):
        context = request.runtime.context
        saved = request.state.get("current_order")
        return f"{RULES}\nUser: {context.user}. Now: {context.now}.\nCurrent order: {saved}"

    @ns.mw.wrap_model_call
    def recent_window(request, handler):
        window = request.messages[-WINDOW:]
        while window and window[0].type == "tool":  # never open on a tool result
            window = window[1:]
        return handler(request.override(messages=window))

    return ns.create_agent(
        model=model,
        tools=[save_order],
        state_schema=WorkOrderState,
        context_schema=AssistantContext,
        checkpointer=ns.InMemorySaver(),
        middleware=[work_order_prompt, recent_window],
    )


def work_order_run(ns):
    model = script(
        ns,
        [tool_call("save_order", {"title": "Pump inspection", "due": "today 17:00"}, "c1")],
        "Draft WO-DEMO saved.",
        [tool_call("save_order", {"title": "Pump inspection", "due": "tomorrow 17:00"}, "c2")],
        "Moved to tomorrow.",
    )
    agent = work_order_agent(ns, model)
    config = {"configurable": {"thread_id": "worker-7:session-1"}}
    context = AssistantContext(user="Ana", now="2025-03-04T09:00")
    turns = []
    for i, text in enumerate(["Create a pump inspection draft.", "Move it to tomorrow."], 1):
        inputs = {"messages": [{"role": "user", "content": text, "id": f"h-{i}"}]}
        turns.append(updates(agent, inputs, config=config, context=context))
    seen = [[(m.type, m.content) for m in call["messages"]] for call in model.calls]
    return turns, seen, final(agent.get_state(config).values)


def test_dynamic_prompt_projects_the_order_and_the_window_trims_this_call_only():
    turns, seen, state = on_both(work_order_run)
    assert [[node for node, _ in turn] for turn in turns] == [["model", "tools", "model"]] * 2
    first_call_of_turn_2 = seen[2]
    system, *history = first_call_of_turn_2
    assert system[0] == "system"
    assert "Now: 2025-03-04T09:00" in system[1]  # from the runtime context
    order = "{'id': 'WO-DEMO', 'version': 1, 'title': 'Pump inspection', 'due': 'today 17:00'}"
    assert system[1].endswith(f"Current order: {order}")  # the full order, from state
    # the window dropped the first turn's request and tool result from this call...
    assert history == [("ai", "Draft WO-DEMO saved."), ("human", "Move it to tomorrow.")]
    # ...but the checkpoint keeps the whole history, and the order moved on
    assert [m["type"] for m in state["messages"]] == ["human", "ai", "tool", "ai"] * 2
    assert state["current_order"]["due"] == "tomorrow 17:00"
    assert state["current_order"]["version"] == 2
    assert seen[0][0][1].endswith("Current order: None")  # nothing saved before the first call


# ---- seed 004: a plain function as a tool, streamed as updates ---------------------------------


def check_weather(location: str) -> str:
    """Return the weather forecast for the specified location."""
    return f"It's always sunny in {location}"


def weather_run(ns):
    model = script(ns, [tool_call("check_weather", {"location": "sf"})], "It's sunny in SF.")
    graph = ns.create_agent(
        model=model, tools=[check_weather], system_prompt="You are a helpful assistant"
    )
    inputs = {"messages": [{"role": "user", "content": "what is the weather in sf"}]}
    stream = updates(graph, inputs)  # each chunk {node: update} as a (node, update) pair
    seen = [[(m.type, m.content) for m in call["messages"]] for call in model.calls]
    return stream, seen, plain(model.calls[0]["kwargs"])


def test_a_plain_function_becomes_a_tool_and_updates_stream_each_node():
    stream, seen, kwargs = on_both(weather_run)
    # one chunk per node run, keyed by the node: only what that node changed
    assert [node for node, _ in stream] == ["model", "tools", "model"]
    assert [len(update["messages"]) for _, update in stream] == [1, 1, 1]
    tool_message = stream[1][1]["messages"][0]
    assert (tool_message["name"], tool_message["content"]) == (
        "check_weather",
        "It's always sunny in sf",
    )
    # what the model was told about the function: name, docstring and signature
    assert kwargs["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "check_weather",
                "description": "Return the weather forecast for the specified location.",
                "parameters": {
                    "properties": {"location": {"type": "string"}},
                    "required": ["location"],
                    "type": "object",
                },
            },
        }
    ]
    # the system prompt is sent, but not stored: the dict input became a human message
    assert seen[0] == [
        ("system", "You are a helpful assistant"),
        ("human", "what is the weather in sf"),
    ]
