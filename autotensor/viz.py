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
