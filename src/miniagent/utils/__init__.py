"""Helpers the messages build on. Mirrors ``langchain_core/utils/`` (langchain-core 1.8.3).

``_merge.py`` adds streamed chunks together, ``json.py`` reads the partial JSON of a streamed
tool call, ``usage.py`` adds token counts, ``utils.py`` holds the ``lc_`` id prefixes.
"""
