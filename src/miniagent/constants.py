"""Graph constants. Mirrors ``langgraph/constants.py`` and ``langgraph/_internal/_constants.py``."""

import sys

START = sys.intern("__start__")  # langgraph/constants.py:30 -- the virtual entry node
END = sys.intern("__end__")  # langgraph/constants.py:28 -- the virtual exit node

# Where the graph puts its Runtime inside config["configurable"] (_internal/_constants.py:77).
CONFIG_KEY_RUNTIME = sys.intern("__pregel_runtime")
# Where a Send's task finds "read the state I was sent from" (_internal/_constants.py:40).
CONFIG_KEY_READ_STATE = sys.intern("__pregel_read_state")
