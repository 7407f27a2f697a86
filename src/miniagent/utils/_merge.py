"""Merge the dicts and lists of streamed chunks. Mirrors ``langchain_core/utils/_merge.py``."""

from __future__ import annotations

from typing import Any, Optional


def merge_dicts(left: dict[str, Any], *others: dict[str, Any]) -> dict[str, Any]:
    """Merge dicts key by key: strings concatenate, numbers add (langchain_core/utils/_merge.py:6)."""
    merged = left.copy()
    for right in others:
        for k, right_v in right.items():
            left_v = merged.get(k)
            if k not in merged or (right_v is not None and left_v is None):
                merged[k] = right_v
            elif right_v is None:
                continue
            elif type(left_v) is not type(right_v):
                raise TypeError(
                    f'additional_kwargs["{k}"] already exists in this message,'
                    " but with a different type."
                )
            elif isinstance(left_v, str):
                if (k == "index" and left_v.startswith("lc_")) or (
                    k in {"id", "output_version", "model_provider"} and left_v == right_v
                ):
                    continue
                merged[k] = left_v + right_v
            elif isinstance(left_v, dict):
                merged[k] = merge_dicts(left_v, right_v)
            elif isinstance(left_v, list):
                merged[k] = merge_lists(left_v, right_v)
            elif left_v == right_v:
                continue
            elif isinstance(left_v, int) and not isinstance(left_v, bool):
                merged[k] = right_v if k in {"index", "created", "timestamp"} else left_v + right_v
            else:
                raise TypeError(
                    f"Additional kwargs key {k} already exists in left dict and "
                    f"value has unsupported type {type(left_v)}."
                )
    return merged


def merge_lists(left: Optional[list], *others: Optional[list]) -> Optional[list]:
    """Concatenate lists, merging dicts that share an ``index`` (langchain_core/utils/_merge.py:98).

    Upstream's special case for v1 ``non_standard`` content blocks is left out.
    """
    merged = left.copy() if left is not None else None
    for other in others:
        if other is None:
            continue
        if merged is None:
            merged = other.copy()
            continue
        for e in other:
            index = e.get("index") if isinstance(e, dict) else None
            if not isinstance(index, int) and not (
                isinstance(index, str) and index.startswith("lc_")
            ):
                merged.append(e)
                continue
            to_merge = [
                i
                for i, e_left in enumerate(merged)
                if isinstance(e_left, dict)
                and "index" in e_left
                and e_left["index"] == index
                and (
                    e_left.get("id") in {None, ""}
                    or e.get("id") in {None, ""}
                    or e_left.get("id") == e.get("id")
                )
            ]
            if to_merge:
                new_e = {k: v for k, v in e.items() if k != "type"}
                merged[to_merge[0]] = merge_dicts(merged[to_merge[0]], new_e)
            else:
                merged.append(e)
    return merged
