"""day10 mutant: returns the callable's model without the prompt in front of it."""


def make_resolve_model(*, model, prompt, is_dynamic_model, static_model, tools=()):
    def _resolve_model(state, runtime):
        if is_dynamic_model:
            return model(state, runtime)
        return static_model

    return _resolve_model
