"""Day 04's Think part, answered: for each variant of ``variants.py``, an input on which it does
not do what upstream does.

The instructors' side: no learner file, kit.toml, ``cases.py``, ``variants.py`` nor grader holds
this function; the engine finds it here because kit.toml names no ``reference`` for ``inputs``
(``grading/course.py``, ``ANSWERS``). The mutants ``mutants/spots_*.patch`` edit its source.

Why each input tells its variant apart:

* ``variant_a`` tests ``callable`` before ``Runnable``: a Runnable that is also callable is
  wrapped in a ``RunnableLambda`` instead of being returned as it is;
* ``variant_b`` accepts any ``Mapping``: a ``MappingProxyType`` becomes a ``RunnableParallel``
  where upstream refuses it;
* ``variant_c`` unpacks a nested sequence as its first and last steps: a nested sequence of three
  steps loses its middle one;
* ``variant_d`` uses ``first`` and ``last`` even when positional steps are given;
* ``variant_e`` merges the other way round: on a shared key the old value wins;
* ``variant_f`` binds the binding itself: a binding of a binding, with only the new kwargs;
* ``variant_g`` starts the new binding with an empty config: a binding with a config loses it.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from miniagent.runnables import RunnableLambda
from miniagent.testing import FakeToolCallingModel


class CallableLambda(RunnableLambda):
    """A Runnable that can also be called like a function."""

    def __call__(self, x: Any) -> Any:
        return self.invoke(x)


def inputs() -> dict[str, Any]:
    one, two, three = RunnableLambda(abs), RunnableLambda(str), RunnableLambda(len)
    model = FakeToolCallingModel()
    return {
        "variant_a": CallableLambda(abs),
        "variant_b": MappingProxyType({"n": len}),
        "variant_c": ((one, two | three | one), {}),
        "variant_d": ((one, two), {"first": three, "last": three}),
        "variant_e": (model.bind(stop=["a"]), {"stop": ["b"]}),
        "variant_f": (model.bind(stop=["a"]), {"temperature": 0}),
        "variant_g": (model.with_config(tags=["mine"]), {"temperature": 0}),
    }
