"""Pictures of the autograd graph: ``make_dot`` (torchviz's), the forward/backward
side-by-side view of seed 000 (``trace``), and a gradient-flow plot.

Note [Drawing like torchviz]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~
``make_dot`` takes torchviz's arguments and emits the same DOT statements in the same
order: one grey box per backward node named by its class (``MulBackward0``,
``AccumulateGrad``, ``CopySlices``), a light-blue box per leaf (its name from ``params``
and its shape) pointing at its AccumulateGrad, orange boxes for saved tensors
(``show_saved``) and ``_saved_*`` attributes in the node's label (``show_attrs``), the
output in green with a dotted edge from its base when it is a view, and an edge per entry
of ``next_functions``. Node ids are ``id()`` of the objects, as torchviz's, so the two
outputs are equal once ids are renamed in order of appearance (the tests check this on
the same program run in torch). torchviz recurses; this walks with an explicit stack in
the same order, so a 100,000-node graph is fine. The statements become a
``graphviz.Digraph`` when the ``graphviz`` package is installed (``pip install
autotensor[viz]``; rendering needs Graphviz's ``dot`` program, an OS package), and DOT
text otherwise: the text is what ``Digraph.source`` would say.
"""
import re
import time

SAVED_PREFIX = "_saved_"
NODE_ATTR = dict(style="filled", shape="box", align="left", fontsize="10", ranksep="0.1",
                 height="0.2", fontname="monospace")


def _is_tensor(x):
    from ._tensor import Tensor
    return isinstance(x, Tensor)


# ---- DOT statements and their text ------------------------------------------------------
class _Dot:
    """The statements of a graph in order; becomes a Digraph or DOT text."""

    def __init__(self, graph_attr=None, node_attr=None, name=None):
        self.graph_attr = dict(graph_attr or {})
        self.node_attr = dict(node_attr or {})
        self.name = name
        self.body = []  # ("node", id, label, attrs) | ("edge", a, b, attrs) | ("raw", line)

    def node(self, name, label=None, **attrs):
        self.body.append(("node", name, label, attrs))

    def edge(self, a, b, **attrs):
        self.body.append(("edge", a, b, attrs))

    def finish(self):
        try:
            import graphviz
        except ImportError:
            return self.source()
        dot = graphviz.Digraph(name=self.name, node_attr=self.node_attr,
                               graph_attr=self.graph_attr)
        # the same lines dot.node/dot.edge would add (tested), without their per-call cost
        dot.body.extend(self._lines())
        return dot

    def source(self):
        """The DOT text, exactly as graphviz.Digraph(...).source writes it."""
        head = "digraph " + (_quote(self.name) + " " if self.name else "") + "{\n"
        lines = [head]
        if self.graph_attr:
            lines.append(f"\tgraph {_attr_list(None, self.graph_attr)}\n")
        if self.node_attr:
            lines.append(f"\tnode {_attr_list(None, self.node_attr)}\n")
        lines.extend(self._lines())
        lines.append("}\n")
        return "".join(lines)

    def _lines(self):
        lines = []
        for stmt in self.body:
            if stmt[0] == "node":
                attrs = _attr_list(stmt[2], stmt[3])
                lines.append(f"\t{_quote(stmt[1])}{' ' + attrs if attrs else ''}\n")
            elif stmt[0] == "edge":
                attrs = _attr_list(None, stmt[3])
                lines.append(f"\t{_quote(stmt[1])} -> {_quote(stmt[2])}"
                             f"{' ' + attrs if attrs else ''}\n")
            else:
                lines.append(stmt[1])
        return lines


_ID = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*$")
_NUMERAL = re.compile(r"^-?(?:\.\d+|\d+(?:\.\d*)?)$")
_KEYWORDS = {"node", "edge", "graph", "digraph", "subgraph", "strict"}


def _quote(s):
    """graphviz.quoting.quote: bare ids and numerals stay bare, the rest is quoted."""
    s = str(s)
    if s.isdigit():  # node ids (the common case)
        return s
    if (_ID.match(s) or _NUMERAL.match(s)) and s.lower() not in _KEYWORDS:
        return s
    if s.startswith("<") and s.endswith(">"):
        return s
    return '"' + re.sub(r'(?<!\\)"', r'\\"', s) + '"'


def _attr_list(label, attrs):
    items = ([] if label is None else [f"label={_quote(label)}"]) + \
        [f"{k}={_quote(v)}" for k, v in sorted(attrs.items()) if v is not None]
    return "[" + " ".join(items) + "]" if items else ""


# ---- make_dot -----------------------------------------------------------------------------
def _size_to_str(size):
    return "(" + ", ".join(["%d" % v for v in size]) + ")"


def get_fn_name(fn, show_attrs, max_attr_chars):
    """A node's label: its class name, with its ``_saved_*`` attributes when asked."""
    name = str(type(fn).__name__)
    if not show_attrs:
        return name
    attrs = dict()
    for attr in dir(fn):
        if not attr.startswith(SAVED_PREFIX):
            continue
        val = getattr(fn, attr)
        attr = attr[len(SAVED_PREFIX):]
        if _is_tensor(val):
            attrs[attr] = "[saved tensor]"
        elif isinstance(val, tuple) and any(_is_tensor(t) for t in val):
            attrs[attr] = "[saved tensors]"
        else:
            attrs[attr] = str(val)
    if not attrs:
        return name
    max_attr_chars = max(max_attr_chars, 3)
    col1width = max(len(k) for k in attrs.keys())
    col2width = min(max(len(str(v)) for v in attrs.values()), max_attr_chars)
    sep = "-" * max(col1width + col2width + 2, len(name))
    attrstr = "%-" + str(col1width) + "s: %" + str(col2width) + "s"

    def truncate(s):
        return s[:col2width - 3] + "..." if len(s) > col2width else s
    params = "\n".join(attrstr % (k, truncate(str(v))) for (k, v) in attrs.items())
    return name + "\n" + sep + "\n" + params


def make_dot(var, params=None, show_attrs=False, show_saved=False, max_attr_chars=50):
    """The autograd graph behind ``var`` (a tensor or a tuple of them) as a picture.

    torchviz's ``make_dot`` (Note [Drawing like torchviz]): ``params`` is ``{name:
    tensor}`` (e.g. ``dict(model.named_parameters())``) to name the leaves;
    ``show_attrs`` adds each node's saved non-tensor attributes, ``show_saved`` its saved
    tensors as orange boxes. Returns a ``graphviz.Digraph`` (``.render(path,
    format="svg")``, shown inline by Jupyter) when graphviz is installed, else DOT text.

    >>> import autotensor as torch
    >>> x = torch.randn(3, requires_grad=True)
    >>> dot = make_dot((x * 2).sum(), params={"x": x})
    """
    if params is not None:
        if not all(_is_tensor(p) for p in params.values()):
            raise TypeError("make_dot: params must map names to tensors")
        param_map = {id(v): k for k, v in params.items()}
    else:
        param_map = {}
    dot = _Dot(node_attr=NODE_ATTR, graph_attr=dict(size="12,12"))
    seen = set()
    keep = []  # values read from nodes: alive until the end, so their ids stay unique

    def get_var_name(v, name=None):
        if not name:
            name = param_map[id(v)] if id(v) in param_map else ""
        return "%s\n %s" % (name, _size_to_str(v.size()))

    def enter(fn):
        """What torchviz's add_nodes does before recursing into next_functions."""
        seen.add(fn)
        if show_saved:
            for attr in dir(fn):
                if not attr.startswith(SAVED_PREFIX):
                    continue
                val = getattr(fn, attr)
                keep.append(val)
                try:
                    seen.add(val)
                except TypeError:  # an unhashable attribute (a list): nothing to draw
                    pass
                attr = attr[len(SAVED_PREFIX):]
                if _is_tensor(val):
                    dot.edge(str(id(fn)), str(id(val)), dir="none")
                    dot.node(str(id(val)), get_var_name(val, attr), fillcolor="orange")
                if isinstance(val, tuple):
                    for i, t in enumerate(val):
                        if _is_tensor(t):
                            name = attr + "[%s]" % str(i)
                            dot.edge(str(id(fn)), str(id(t)), dir="none")
                            dot.node(str(id(t)), get_var_name(t, name), fillcolor="orange")
        if hasattr(fn, "variable"):
            v = fn.variable
            seen.add(v)
            dot.node(str(id(v)), get_var_name(v), fillcolor="lightblue")
            dot.edge(str(id(v)), str(id(fn)))
        dot.node(str(id(fn)), get_fn_name(fn, show_attrs, max_attr_chars))

    def leave(fn):
        """What add_nodes does after its children: a custom Function's saved tensors."""
        if hasattr(fn, "saved_tensors") and not hasattr(fn, "variable"):
            for t in fn.saved_tensors:
                keep.append(t)
                seen.add(t)
                dot.edge(str(id(t)), str(id(fn)), dir="none")
                dot.node(str(id(t)), get_var_name(t), fillcolor="orange")

    def add_nodes(root):
        if root in seen:
            return
        enter(root)
        stack = [(root, iter(root.next_functions))]
        while stack:
            fn, it = stack[-1]
            for u in it:
                if u[0] is not None:
                    dot.edge(str(id(u[0])), str(id(fn)))
                    if u[0] not in seen:
                        enter(u[0])
                        stack.append((u[0], iter(u[0].next_functions)))
                        break
            else:
                stack.pop()
                leave(fn)

    def add_base_tensor(v, color="darkolivegreen1"):
        while v is not None and v not in seen:
            seen.add(v)
            dot.node(str(id(v)), get_var_name(v), fillcolor=color)
            if v.grad_fn:
                add_nodes(v.grad_fn)
                dot.edge(str(id(v.grad_fn)), str(id(v)))
            if not v._is_view():
                break
            dot_base = v._base
            if dot_base not in seen:
                # torchviz draws the base first (recursively), then the dotted edge
                add_base_tensor(dot_base, color="darkolivegreen3")
            dot.edge(str(id(dot_base)), str(id(v)), style="dotted")
            break  # a view's _base is never itself a view: one level deep

    if isinstance(var, tuple):
        for v in var:
            add_base_tensor(v)
    else:
        add_base_tensor(var)
    resize_graph(dot)
    return dot.finish()


def resize_graph(dot, size_per_element=0.15, min_size=12):
    """torchviz's: scale the picture with the number of statements."""
    num_rows = len(dot.body)
    content_size = num_rows * size_per_element
    size = max(min_size, content_size)
    size_str = str(size) + "," + str(size)
    dot.graph_attr.update(size=size_str)


def dot_source(graph):
    """DOT text of what ``make_dot`` returned (a Digraph or already text)."""
    return graph if isinstance(graph, str) else graph.source


_ = time


# ---- gradient flow -------------------------------------------------------------------------
def plot_grad_flow(named_parameters, ax=None, log=True):
    """The "are my gradients vanishing?" picture after ``backward()``: per parameter, the
    norm of its gradient and the mean of its absolute value, as bars (log scale).

    ``named_parameters``: ``model.named_parameters()`` or ``[(name, tensor), ...]``;
    parameters without a gradient are left out. Returns the matplotlib ``Figure``
    (needs matplotlib: ``pip install autotensor[viz]``).
    """
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError("plot_grad_flow needs matplotlib: pip install "
                          "'autotensor[viz]' (or pip install matplotlib)") from None
    names, norms, means = [], [], []
    for name, p in named_parameters:
        g = getattr(p, "grad", None)
        if g is None:
            continue
        a = g.detach().abs()
        names.append(name)
        norms.append(float(g.detach().norm()))
        means.append(float(a.mean()) if a.numel() else 0.0)
    if not names:
        raise ValueError("plot_grad_flow: no parameter has a gradient (call backward() first)")
    if ax is None:
        fig = Figure(figsize=(max(4.0, 0.6 * len(names) + 2), 3.5), layout="constrained")
        ax = fig.add_subplot()
    else:
        fig = ax.figure
    xs = list(range(len(names)))
    ax.bar([x - 0.2 for x in xs], norms, width=0.4, label="gradient norm", color="tab:blue")
    ax.bar([x + 0.2 for x in xs], means, width=0.4, label="mean |gradient|",
           color="tab:orange")
    ax.set_xticks(xs)
    ax.set_xticklabels(names, rotation=45, ha="right")
    if log and all(v > 0 for v in norms + means):
        ax.set_yscale("log")
    ax.set_ylabel("gradient")
    ax.set_title("Gradient flow")
    ax.legend()
    return fig


# ---- forward and backward side by side (seed 000's picture) ---------------------------------
class ForwardOp:
    """One top-level op call seen inside ``trace()``: its name (``mul_``), its tensor
    inputs and outputs with their versions (``_version``) at that moment, and the backward
    node its result got (None when nothing needed a gradient)."""

    __slots__ = ("name", "inputs", "outputs", "grad_fn", "inplace")

    def __init__(self, name, inputs, outputs, grad_fn, inplace):
        self.name, self.inputs, self.outputs = name, inputs, outputs
        self.grad_fn, self.inplace = grad_fn, inplace

    def __repr__(self):
        return f"<ForwardOp {self.name} -> {type(self.grad_fn).__name__}>"


class trace:
    """Record the forward ops run inside the block, to draw them next to the backward
    graph they built (``make_dot``), as seed 000 draws ``[ Pow ] -> [ Mul ]`` beside
    ``PowBackward <- MulBackward``. Ops are recorded only here (Note [Observing ops at no
    cost] in _observe.py); ops called by other ops are not shown separately.

    >>> import autotensor as torch
    >>> x = torch.randn(8, requires_grad=True)
    >>> with trace() as tr:
    ...     y = x ** 2
    ...     y.mul_(2)
    >>> [op.name for op in tr.ops]
    ['pow', 'mul_']
    """

    def __init__(self):
        self.ops = []
        self._depth = 0
        self._thread = None

    def __enter__(self):
        import threading
        from . import _observe
        self._thread = threading.get_ident()
        _observe.start(self)
        return self

    def __exit__(self, *exc):
        from . import _observe
        _observe.stop(self)
        return False

    # -- observer protocol (_observe.py) --
    def op_begin(self, name, args, kwargs):
        import threading
        if threading.get_ident() != self._thread:
            return None
        self._depth += 1
        if self._depth > 1:
            return None
        return name, [(a, a._version) for a in args if _is_tensor(a)]

    def op_end(self, token, out, args):
        import threading
        if threading.get_ident() != self._thread:
            return
        self._depth -= 1
        if token is None or out is None:
            return
        name, inputs = token
        outs = [out] if _is_tensor(out) else [t for t in (out if isinstance(out, (tuple, list))
                                                          else ()) if _is_tensor(t)]
        if not outs:
            return
        inplace = any(o is a for o in outs for a, _ in inputs)
        outputs = [(o, o._version) for o in outs]
        self.ops.append(ForwardOp(name.split("::", 1)[-1], inputs, outputs, outs[0].grad_fn,
                                  inplace))

    def node_begin(self, node):
        return None

    def node_end(self, token, outs):
        pass

    def make_dot(self, *outputs, names=None):
        """Forward ops (left) and the backward graph of ``outputs`` (right), with a dashed
        line from each op to the node it created and version numbers on in-place edges.
        ``names``: ``{name: tensor}`` to label tensors (e.g. ``locals()``). Returns a
        ``graphviz.Digraph``, or DOT text without graphviz."""
        return side_by_side(self.ops, outputs, names)


def _node_title(fn):
    name = type(fn).__name__
    inner = getattr(fn, "fn", None)  # CopySlices wraps the in-place op's node
    if name == "CopySlices" and inner is not None:
        return f"CopySlices({type(inner).__name__})"
    return name


def _backward_nodes(roots):
    order, seen = [], set()
    stack = [r for r in roots if r is not None]
    while stack:
        fn = stack.pop()
        if fn in seen:
            continue
        seen.add(fn)
        order.append(fn)
        for nxt, _ in reversed(fn.next_functions):
            if nxt is not None and nxt not in seen:
                stack.append(nxt)
    return order


def side_by_side(ops, outputs, names=None):
    """DOT of ``trace.make_dot`` (see there)."""
    names = {id(t): n for n, t in (names or {}).items() if _is_tensor(t)}
    outputs = [o for o in outputs if _is_tensor(o)]
    if not outputs:  # every traced result with history
        outputs = list(dict.fromkeys(t for op in ops for t, _ in op.outputs
                                     if t.grad_fn is not None))
    nodes = _backward_nodes([o.grad_fn for o in outputs])
    in_graph = set(nodes)
    ops = [op for op in ops if op.grad_fn in in_graph or
           any(t.grad_fn in in_graph for t, _ in op.outputs)]
    dot = _Dot(graph_attr=dict(rankdir="TB", newrank="true"),
               node_attr=dict(fontname="monospace", fontsize="10"))
    dot.body.append(("raw", "\tedge [fontname=monospace fontsize=9]\n"))

    def tname(t):
        return names.get(id(t), "")

    def tensor_id(t, v):
        return f"t{id(t)}_{v}"

    # forward: tensors (ellipses, one per version) and ops (boxes)
    dot.body.append(("raw", "\tsubgraph cluster_forward {\n\t\tlabel=\"forward\"\n"
                            "\t\tstyle=dashed\n"))
    drawn = set()

    def tensor_node(t, v):
        tid = tensor_id(t, v)
        if tid not in drawn:
            drawn.add(tid)
            label = f"{tname(t)}\n{_size_to_str(t.size())}"
            if v:
                label += f"\nversion {v}"
            dot.node(tid, label, shape="ellipse",
                     fillcolor="lightblue" if t.is_leaf and t.requires_grad else "white",
                     style="filled")
        return tid

    for i, op in enumerate(ops):
        oid = f"op{i}"
        dot.node(oid, f"[ {op.name} ]", shape="box", style="filled", fillcolor="lightgrey")
        for t, v in op.inputs:
            attrs = dict(label=f"v{v}") if op.inplace else {}
            dot.edge(tensor_node(t, v), oid, **attrs)
        for t, v in op.outputs:
            attrs = dict(label=f"v{v}") if op.inplace else {}
            dot.edge(oid, tensor_node(t, v), **attrs)
            base = t._base if op.inplace and t._is_view() else None
            if base is not None:  # the write reaches the base: its new version
                dot.edge(oid, tensor_node(base, base._version), style="dashed",
                         label="base")
    dot.body.append(("raw", "\t}\n"))

    # backward: nodes (grey boxes); gradients flow up, as the seed draws them
    dot.body.append(("raw", "\tsubgraph cluster_backward {\n\t\tlabel=\"backward\"\n"
                            "\t\tstyle=dashed\n"))
    for fn in nodes:
        dot.node(f"n{id(fn)}", _node_title(fn), shape="box", style="filled",
                 fillcolor="grey90")
        v = getattr(fn, "variable", None)
        if v is not None:
            gid = f"g{id(v)}"
            dot.node(gid, f"{tname(v)}.grad".lstrip(".") if tname(v) else ".grad",
                     shape="ellipse", style="filled", fillcolor="lightblue")
            dot.edge(gid, f"n{id(fn)}", dir="back")
        for nxt, _ in fn.next_functions:
            if nxt is not None:
                dot.edge(f"n{id(nxt)}", f"n{id(fn)}", dir="back")
    for o in outputs:
        gid = f"g{id(o)}"
        dot.node(gid, f"{tname(o)}.grad" if tname(o) else ".grad", shape="ellipse",
                 style="filled", fillcolor="darkolivegreen1")
        dot.edge(f"n{id(o.grad_fn)}", gid, dir="back")

    # nodes that ops created but that no longer lead anywhere from the outputs: a view's
    # old node after an in-place op rebased it (seed 000: "SelectBackward0 (now dead)")
    stale = [op.grad_fn for op in ops if op.grad_fn is not None and op.grad_fn not in in_graph]
    for fn in dict.fromkeys(stale):
        dot.node(f"n{id(fn)}", f"{_node_title(fn)}\n(no longer used)", shape="box",
                 style="dashed", fontcolor="grey40")
        for nxt, _ in fn.next_functions:
            if nxt is not None and nxt in in_graph:
                dot.edge(f"n{id(nxt)}", f"n{id(fn)}", dir="back", style="dashed",
                         color="grey40")
    dot.body.append(("raw", "\t}\n"))

    # forward on the left, each tensor level with its gradient (x with x.grad, z with z.grad)
    first = {}  # leaf -> the version it entered the first op with
    for op in ops:
        for t, v in op.inputs:
            if t.is_leaf and t.requires_grad:
                first.setdefault(t, v)
    pairs = [(tensor_id(t, v), f"g{id(t)}") for t, v in first.items()]
    pairs += [(tensor_id(o, o._version), f"g{id(o)}") for o in outputs]
    for a, b in pairs:
        if a in drawn:
            dot.body.append(("raw", f"\t{{rank=same; {a}; {b}}}\n"))
            dot.edge(a, b, style="invis")

    # each op level with the node it created, like the seed's rows ([ Pow ] | PowBackward);
    # an in-place op on a view also made its base's CopySlices
    placed = set()
    for i, op in enumerate(ops):
        targets = [op.grad_fn]
        if op.inplace:  # the base's CopySlices, not the view's AsStridedBackward0 on it
            targets = [t._base.grad_fn for t, _ in op.outputs if t._is_view()] or targets
        for fn in targets:
            if fn is not None and fn not in placed:
                placed.add(fn)
                dot.body.append(("raw", f"\t{{rank=same; op{i}; n{id(fn)}}}\n"))
                dot.edge(f"op{i}", f"n{id(fn)}", style="dotted", color="grey60",
                         arrowhead="none")
    return dot.finish()
