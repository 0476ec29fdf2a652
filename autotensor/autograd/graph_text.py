"""The backward graph as text: ``format_graph`` / ``print_graph`` and ``saved_tensors_report``.

Both walk ``grad_fn.next_functions`` with an explicit stack (no recursion: a 100,000-node
graph is fine) and use only what PyTorch's nodes also have (``next_functions``,
``variable``, ``_saved_*``), so they print a real ``torch`` graph the same way; the tests
compare the two.

Note [Graph text]
~~~~~~~~~~~~~~~~~
The seeds draw a graph as chains of arrows (``z -> MulBackward0 -> PowBackward0 ->
AccumulateGrad``), leaving out inputs that need no gradient. So does this: a node with
one input that needs a gradient continues its line (``MulBackward0 -> PowBackward0 ->
AccumulateGrad(x)``), a run of same-named nodes is written once with a count
(``MulBackward0 (x99,999)``), and a node with several such inputs starts one indented line
per input. A node reached a second time (a shared subgraph) is printed with ``(*)`` and
not expanded again, so the output grows with the graph's size, not its number of paths.
At most ``max_nodes`` entries are printed; the rest of a large graph is summarised on one
last line (how many more nodes, and how many of each type).
"""
from collections import Counter

MAX_NODES = 200
MAX_INDENT = 24  # deeper levels are numbered instead of indented further


def _as_node(t):
    """A tensor's grad_fn, its AccumulateGrad for a leaf that requires grad, or the node."""
    if hasattr(t, "next_functions") or t is None:
        return t
    fn = t.grad_fn
    if fn is None and getattr(t, "requires_grad", False) and hasattr(t, "_grad_accumulator"):
        return t._grad_accumulator()  # a leaf: its (otherwise hidden) AccumulateGrad
    return fn


def node_label(node, names_by_id=None) -> str:
    """The node's class name as the seeds write it (``AccumulateGrad``, not PyTorch's
    ``torch::autograd::AccumulateGrad``), with the leaf's name for an AccumulateGrad."""
    label = type(node).__name__
    variable = getattr(node, "variable", None)
    if variable is not None and names_by_id and id(variable) in names_by_id:
        label += f"({names_by_id[id(variable)]})"
    return label


def graph_lines(grad_fn, names_by_id=None, max_nodes=MAX_NODES) -> list:
    """Note [Graph text] as a list of lines (the unit ``format_graph`` joins)."""
    names_by_id = names_by_id or {}
    if grad_fn is None:
        return ["None"]
    lines = []
    seen = {}  # id -> node; holding the node keeps its id valid
    stack = [(grad_fn, 0)]
    shown = 0
    while stack:
        if shown >= max_nodes:
            lines.append(_summary(grad_fn, seen))
            break
        node, depth = stack.pop()
        indent = "  " * depth if depth <= MAX_INDENT else \
            "  " * MAX_INDENT + f"[depth {depth}] "
        if id(node) in seen:
            lines.append(indent + node_label(node, names_by_id) + " (*)")
            continue
        parts = []  # [label, repeat count]
        while True:
            seen[id(node)] = node
            label = node_label(node, names_by_id)
            if parts and parts[-1][0] == label:
                parts[-1][1] += 1  # a run costs one entry of the budget
            else:
                parts.append([label, 1])
                shown += 1
            nexts = [fn for fn, _ in node.next_functions if fn is not None]
            if len(nexts) == 1 and id(nexts[0]) not in seen and shown < max_nodes:
                node = nexts[0]
                continue
            break
        line = indent + " -> ".join(p if n == 1 else f"{p} (x{n:,})" for p, n in parts)
        if len(nexts) == 1 and id(nexts[0]) not in seen:
            lines.append(line + " -> ...")  # the node budget ran out inside a chain
            lines.append(_summary(grad_fn, seen))
            break
        lines.append(line)
        for child in reversed(nexts):
            stack.append((child, depth + 1))
    return lines


def _summary(root, shown):
    """'... N more nodes (counts by type)' for the part of the graph not printed."""
    counts = Counter()
    seen = {id(root): root}
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) not in shown:
            counts[type(node).__name__] += 1
        for nxt, _ in node.next_functions:
            if nxt is not None and id(nxt) not in seen:
                seen[id(nxt)] = nxt
                stack.append(nxt)
    kinds = ", ".join(f"{n:,} {k}" for k, n in counts.most_common(5))
    more = "" if len(counts) <= 5 else ", ..."
    return (f"... {sum(counts.values()):,} more nodes not shown ({len(seen):,} in all): "
            f"{kinds}{more}")


def _names_by_id(names):
    if not names:
        return {}
    return {id(t): name for name, t in dict(names).items()}


def format_graph(t, names=None, max_nodes=MAX_NODES) -> str:
    """The backward graph behind tensor ``t`` (or a node) as text (Note [Graph text]).

    ``names``: ``{name: tensor}`` (e.g. ``dict(model.named_parameters())``) to label the
    leaves' AccumulateGrad nodes.

    >>> import autotensor as torch
    >>> x = torch.randn(8, requires_grad=True)
    >>> print(torch.autograd.graph.format_graph(x ** 2 * 2, {"x": x}))
    MulBackward0 -> PowBackward0 -> AccumulateGrad(x)
    """
    return "\n".join(graph_lines(_as_node(t), _names_by_id(names), max_nodes))


def print_graph(t, names=None, max_nodes=MAX_NODES, file=None) -> None:
    """Print ``format_graph(t, names, max_nodes)``."""
    print(format_graph(t, names, max_nodes), file=file)


# ---- memory held by saved tensors -------------------------------------------------------
def _saved_values(node):
    """(attribute, tensor) for every tensor a node holds for backward: its ``_saved_*``
    values (tuples of tensors too) and a custom Function's ``saved_tensors``."""
    out = []
    for attr in _saved_attrs(type(node)):
        val = getattr(node, attr)
        name = attr[len("_saved_"):]
        if hasattr(val, "element_size"):
            out.append((name, val))
        elif isinstance(val, (tuple, list)):
            out.extend((f"{name}[{i}]", v) for i, v in enumerate(val)
                       if hasattr(v, "element_size"))
    if hasattr(node, "saved_tensors") and not hasattr(node, "variable"):
        for i, v in enumerate(node.saved_tensors):
            if v is not None:
                out.append((f"saved_tensors[{i}]", v))
    return out


_SAVED_ATTRS = {}


def _saved_attrs(cls):
    """The ``_saved_*`` accessors of a node class (cached: ``dir`` is slow on big graphs)."""
    names = _SAVED_ATTRS.get(cls)
    if names is None:
        names = _SAVED_ATTRS[cls] = [a for a in dir(cls) if a.startswith("_saved_")]
    return names


def _memory_key(t):
    """What identifies the memory a saved tensor holds (two views of one buffer share it)."""
    try:
        return (t.untyped_storage().data_ptr(), t.untyped_storage().nbytes())
    except (AttributeError, RuntimeError, NotImplementedError):
        return (id(t), t.numel() * t.element_size())


class SavedTensorsReport:
    """Bytes held as saved tensors by each node of a graph, before backward frees them.

    ``nodes``: ``[(node_name, [(attribute, shape, dtype, nbytes), ...], node_bytes)]`` in
    graph order (only nodes that save tensors); ``total_bytes``: the memory they hold,
    each buffer counted once (a tensor saved by two nodes, or a parameter, is one buffer).
    ``total_bytes`` is the number activation checkpointing lowers.
    """

    def __init__(self, nodes, total_bytes, n_nodes):
        self.nodes = nodes
        self.total_bytes = total_bytes
        self.n_nodes = n_nodes

    def by_node(self):
        """{node name: bytes}, summed over nodes of the same name."""
        out = Counter()
        for name, _, nbytes in self.nodes:
            out[name] += nbytes
        return dict(out)

    def table(self, row_limit=20):
        rows = sorted(self.nodes, key=lambda r: -r[2])[:row_limit]
        width = max([len("Node")] + [len(r[0]) for r in rows]) + 2
        lines = [f"{'Node':<{width}}{'Saved':>12}  Tensors",
                 "-" * (width + 14 + 30)]
        for name, items, nbytes in rows:
            what = ", ".join(f"{a} {tuple(s)} {d}" for a, s, d, _ in items)
            lines.append(f"{name:<{width}}{_format_bytes(nbytes):>12}  {what}")
        lines.append("-" * (width + 14 + 30))
        lines.append(f"{self.n_nodes} nodes, {len(self.nodes)} saving tensors; "
                     f"saved tensors hold {_format_bytes(self.total_bytes)} in all")
        return "\n".join(lines)

    __str__ = table

    def __repr__(self):
        return (f"<SavedTensorsReport: {len(self.nodes)} nodes save tensors, "
                f"{self.total_bytes} bytes>")


def _format_bytes(n):
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if abs(n) >= size:
            return f"{n / size:.2f} {unit}"
    return f"{n} B"


def saved_tensors_report(t) -> SavedTensorsReport:
    """What the graph behind ``t`` holds in saved tensors, per node and in total.

    Call it before ``backward()`` (which frees them). Walks the graph iteratively.
    """
    root = _as_node(t)
    nodes = []
    buffers = {}
    tensors = {}  # id -> (tensor, shape, dtype, nbytes); holding it keeps the id valid
    n_nodes = 0
    if root is not None:
        seen = {id(root): root}
        stack = [root]
        while stack:
            node = stack.pop()
            n_nodes += 1
            items = []
            node_bytes = 0
            for attr, v in _saved_values(node):
                info = tensors.get(id(v))
                if info is None:  # the same tensor saved by many nodes: measured once
                    nbytes = v.numel() * v.element_size()
                    info = tensors[id(v)] = (v, tuple(v.shape), str(v.dtype), nbytes)
                    key = _memory_key(v)
                    buffers[key] = max(buffers.get(key, 0), nbytes)
                node_bytes += info[3]
                items.append((attr,) + info[1:])
            if items:
                nodes.append((type(node).__name__, items, node_bytes))
            for nxt, _ in reversed(node.next_functions):
                if nxt is not None and id(nxt) not in seen:
                    seen[id(nxt)] = nxt
                    stack.append(nxt)
    return SavedTensorsReport(nodes, sum(buffers.values()), n_nodes)
