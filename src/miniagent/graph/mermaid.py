"""Draw a compiled graph as Mermaid text, exactly as upstream does for the same topology.

Two upstream pieces, in miniature:

* ``draw_graph`` (``langgraph/pregel/_draw.py:42``) finds the edges by *running the graph
  symbolically*: starting from ``__start__``, each triggered node "writes" its static edges
  and, once, the targets its conditional edges declare (their ``path_map`` or ``Literal``
  return annotation, or ``Command[Literal[...]]`` / ``destinations`` for nodes). A conditional
  edge that declares nothing draws nothing, and a node that starts no one else gets an edge to
  ``__end__``.
* ``Graph.draw_mermaid`` (``langchain_core/runnables/graph.py:580``) and ``draw_mermaid``
  (``langchain_core/runnables/graph_mermaid.py:86``) print nodes, edges and class styles.
"""

from __future__ import annotations

import string
from collections import defaultdict
from typing import Any, NamedTuple

from miniagent.constants import END, START

__all__ = ["Graph", "Node", "Edge", "draw_graph", "draw_mermaid"]


class Node(NamedTuple):
    """A node of the drawing (langchain_core/runnables/graph.py:98)."""

    id: str
    name: str
    data: Any
    metadata: dict[str, Any] | None


class Edge(NamedTuple):
    """An edge of the drawing; ``data`` is its label (langchain_core/runnables/graph.py:68)."""

    source: str
    target: str
    data: str | None = None
    conditional: bool = False


class Graph:
    """Nodes and edges, in the order they were added (langchain_core/runnables/graph.py:258)."""

    def __init__(self) -> None:
        self.nodes: dict[str, Node] = {}
        self.edges: list[Edge] = []

    def add_node(self, data: Any, id: str, *, metadata: dict[str, Any] | None = None) -> Node:
        if id in self.nodes:
            raise ValueError(f"Node with id {id} already exists")
        node = self.nodes[id] = Node(id, id, data, metadata)
        return node

    def add_edge(self, source: Node, target: Node, data: Any = None, conditional: bool = False):
        edge = Edge(source.id, target.id, data, conditional)
        self.edges.append(edge)
        return edge

    def first_node(self) -> Node | None:
        """The one node no edge points to, if there is exactly one (graph.py:462)."""
        targets = {edge.target for edge in self.edges}
        found = [node for node in self.nodes.values() if node.id not in targets]
        return found[0] if len(found) == 1 else None

    def last_node(self) -> Node | None:
        """The one node no edge leaves, if there is exactly one (graph.py:474)."""
        sources = {edge.source for edge in self.edges}
        found = [node for node in self.nodes.values() if node.id not in sources]
        return found[0] if len(found) == 1 else None

    def draw_mermaid(
        self, *, with_styles: bool = True, curve_style: Any = "linear", wrap_label_n_words: int = 9
    ) -> str:
        """Mermaid flowchart text (graph.py:580)."""
        first, last = self.first_node(), self.last_node()
        return draw_mermaid(
            self.nodes,
            self.edges,
            first_node=first.id if first else None,
            last_node=last.id if last else None,
            with_styles=with_styles,
            curve_style=getattr(curve_style, "value", curve_style),
            wrap_label_n_words=wrap_label_n_words,
        )


class _TriggerEdge(NamedTuple):
    """A write that triggers a node: (target or source, conditional, label) (_draw.py:36)."""

    node: str
    conditional: bool
    label: str | None


def _static_writes(proc: Any) -> list[tuple[list[tuple[str, str | None]], Any]]:
    """The targets a node declares for drawing, per writer: its ``Command`` ends, then each
    conditional edge's ``path_map`` (upstream: ``ChannelWrite.get_static_writes``)."""
    writers = []
    if proc.ends:
        if isinstance(proc.ends, dict):
            writers.append(([(k, label) for k, label in proc.ends.items()], ("ends", proc.name)))
        else:
            writers.append(([(k, None) for k in proc.ends], ("ends", proc.name)))
    for i, (branch, _) in enumerate(proc.branches):
        if branch.ends:
            targets = [(end, str(label)) for label, end in branch.ends.items()]
            writers.append((targets, ("branch", proc.name, i)))
    return writers


# --8<-- [start:draw_graph]
def draw_graph(nodes: dict[str, Any], interrupt_before: Any = (), interrupt_after: Any = ()):
    """Discover the edges by stepping through the graph without running any node
    (langgraph/pregel/_draw.py:42)."""
    edges: set[tuple[str, str, bool, str | None]] = set()
    static_seen: set[Any] = set()
    sources: dict[str, set[_TriggerEdge]] = {}
    step_sources: dict[str, set[_TriggerEdge]] = {}
    static_declared: dict[str, set[_TriggerEdge]] = defaultdict(set)
    tasks: list[str] = [START]
    for _step in range(-1, 250):
        if not tasks:
            break
        conditionals: dict[tuple[str, str], str | None] = {}
        writes: dict[str, list[str]] = {}
        for name in tasks:
            proc = nodes[name]
            writes[name] = list(proc.edges)  # static edges write on every run
            for targets, writer in _static_writes(proc):
                if writer in static_seen:  # declared targets are written once
                    continue
                static_seen.add(writer)
                for target, label in targets:
                    if target == END:
                        edges.add((name, END, True, label))
                        continue
                    conditionals[(name, target)] = label
                    static_declared[name].add(_TriggerEdge(target, True, label))
                    writes[name].append(target)
        step_sources = {
            name: {
                _TriggerEdge(t, (name, t) in conditionals, conditionals.get((name, t)))
                for t in writes[name]
            }
            | static_declared.get(name, set())
            for name in tasks
        }
        sources.update(step_sources)
        trigger_to_sources: dict[str, set[_TriggerEdge]] = defaultdict(set)
        for src, triggers in sources.items():
            for trigger, cond, label in triggers:
                trigger_to_sources[trigger].add(_TriggerEdge(src, cond, label))
        tasks = sorted({t for name in tasks for t in writes[name] if t in nodes})
        for task in tasks:
            added = False
            for src, cond, label in sorted(trigger_to_sources[task]):
                edges.add((src, task, cond, label))
                if (task, cond, label) in step_sources.get(src, set()):
                    added = True
                else:
                    sources[src].discard(_TriggerEdge(task, cond, label))
            if not added:  # triggered by an earlier step: draw from all of this step's nodes
                for src in step_sources:
                    edges.add((src, task, True, None))
    return _assemble(nodes, edges, step_sources, interrupt_before, interrupt_after)


# --8<-- [end:draw_graph]


def _assemble(nodes, edges, step_sources, interrupt_before, interrupt_after) -> Graph:
    """Nodes in insertion order, then the edges sorted, then edges to ``__end__`` for nodes
    that lead nowhere (_draw.py:218)."""
    graph = Graph()
    for name, proc in nodes.items():
        metadata = dict(proc.metadata or {})
        if name in interrupt_before and name in interrupt_after:
            metadata["__interrupt"] = "before,after"
        elif name in interrupt_before:
            metadata["__interrupt"] = "before"
        elif name in interrupt_after:
            metadata["__interrupt"] = "after"
        tools_by_name = getattr(proc.bound, "tools_by_name", None)  # a ToolNode
        if isinstance(tools_by_name, dict) and tools_by_name:
            metadata["__tools"] = list(tools_by_name)
        graph.add_node(proc.bound, name, metadata=metadata or None)
    for src, dest, conditional, label in sorted(edges):
        _add_edge(graph, src, dest, data=label if label != dest else None, conditional=conditional)
    termini = {d for _, d, _, _ in edges if d != END} - {s for s, _, _, _ in edges}
    if termini:
        for src in sorted(termini):
            _add_edge(graph, src, END)
    elif len(step_sources) == 1 and not any(d == END for _, d, _, _ in edges):
        for src in sorted(step_sources):
            _add_edge(graph, src, END, conditional=True)
    return graph


def _add_edge(graph: Graph, source: str, target: str, *, data=None, conditional=False) -> None:
    """Add an edge unless one joins the same nodes; add ``__end__`` on first use (_draw.py:284)."""
    for edge in graph.edges:
        if edge.source == source and edge.target == target:
            return
    if target not in graph.nodes and target == END:
        graph.add_node(None, END)
    graph.add_edge(graph.nodes[source], graph.nodes[target], data, conditional)


# ---- the text ----------------------------------------------------------------------------------

MARKDOWN_SPECIAL_CHARS = "*_`"
_LABEL_ESCAPES = {"[": "#91;", "]": "#93;", "(": "#40;", ")": "#41;", "{": "#123;", "}": "#125;"}
_LABEL_ESCAPES.update({'"': "#quot;", "<": "#60;", ">": "#62;", "|": "#124;"})
_STYLES = (  # NodeStyles (graph.py:160)
    ("default", "fill:#f2f0ff,line-height:1.2"),
    ("first", "fill-opacity:0"),
    ("last", "fill:#bfb6fc"),
)


# --8<-- [start:draw_mermaid]
def draw_mermaid(
    nodes: dict[str, Node],
    edges: list[Edge],
    *,
    first_node: str | None = None,
    last_node: str | None = None,
    with_styles: bool = True,
    curve_style: str = "linear",
    wrap_label_n_words: int = 9,
) -> str:
    """Header, one line per node, one per edge, the class styles (graph_mermaid.py:86)."""
    text = f"---\nconfig:\n  flowchart:\n    curve: {curve_style}\n---\n" if with_styles else ""
    text += "graph TD;\n"
    formats = {"default": "{0}({1})"}
    if first_node is not None:
        formats[first_node] = "{0}([{1}]):::first"
    if last_node is not None:
        formats[last_node] = "{0}([{1}]):::last"
    if with_styles:
        for key, node in nodes.items():
            label = _node_label(node)
            text += "\t" + formats.get(key, formats["default"]).format(_to_safe_id(key), label)
            text += "\n"
    # Upstream groups edges by the common prefix of their ends (graph_mermaid.py:197); a
    # self-loop's prefix is its node's name, so self-loops come after the other edges.
    loops = [edge for edge in edges if edge.source == edge.target]
    for edge in [edge for edge in edges if edge.source != edge.target] + loops:
        if edge.data is None:
            arrow = " -.-> " if edge.conditional else " --> "
        else:
            words = str(edge.data).split()
            data = str(edge.data)
            if len(words) > wrap_label_n_words:
                n = wrap_label_n_words
                data = "&nbsp<br>&nbsp".join(
                    " ".join(words[i : i + n]) for i in range(0, len(words), n)
                )
            arrow = (
                f" -. &nbsp;{data}&nbsp; .-> "
                if edge.conditional
                else f" -- &nbsp;{data}&nbsp; --> "
            )
        text += f"\t{_to_safe_id(edge.source)}{arrow}{_to_safe_id(edge.target)};\n"
    if with_styles:
        text += "".join(f"\tclassDef {name} {style}\n" for name, style in _STYLES)
    return text


# --8<-- [end:draw_mermaid]


def _node_label(node: Node) -> str:
    """``<p>__start__</p>`` for markdown-looking names; node metadata under a rule (l.173)."""
    name = node.name.split(":")[-1]
    special = tuple(MARKDOWN_SPECIAL_CHARS)
    label = f"<p>{name}</p>" if name.startswith(special) and name.endswith(special) else name
    lines = [
        _escape_label(f"{key} = {formatted}")
        for key, value in (node.metadata or {}).items()
        if (formatted := _format_metadata_value(value)) is not None
    ]
    if lines:
        label = f"{label}<hr/><small><em>" + "\n".join(lines) + "</em></small>"
    return label


def _format_metadata_value(value: Any) -> str | None:
    """Scalars and lists of scalars only (graph_mermaid.py:65)."""
    scalars = (str, int, float, bool)
    if isinstance(value, scalars):
        return str(value)
    if isinstance(value, (list, tuple, set)) and all(isinstance(v, scalars) for v in value):
        items = [str(v) for v in value]
        return ", ".join(sorted(items) if isinstance(value, set) else items)
    return None


def _escape_label(text: str) -> str:
    """Mermaid entities for characters that break a label (graph_mermaid.py:58)."""
    text = text.replace("#", "#35;")
    for char, entity in _LABEL_ESCAPES.items():
        text = text.replace(char, entity)
    return text


def _to_safe_id(label: str) -> str:
    """Keep ``[a-zA-Z0-9_-]``; any other character becomes ``\\`` + its hex code (l.295)."""
    allowed = string.ascii_letters + string.digits + "_-"
    return "".join(ch if ch in allowed else "\\" + format(ord(ch), "x") for ch in label)
