"""Id prefixes of generated message ids. Mirrors ``langchain_core/utils/utils.py:495``."""

LC_AUTO_PREFIX = "lc_"
LC_ID_PREFIX = "lc_run-"
