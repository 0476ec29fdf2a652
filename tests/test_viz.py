"""Pictures and text of the autograd graph (issue 13): make_dot against torchviz on the same
torch program, DOT text without graphviz, SVG rendering, deep graphs, format_graph and
saved_tensors_report against the same walk over torch's graph."""
import os
import re
import shutil
import sys

import pytest

import autotensor
from autotensor import viz
from autotensor.autograd.graph import format_graph, print_graph, saved_tensors_report


def canon(src):
    """DOT text with the object ids renamed n0, n1, ... in order of appearance."""
    ids = {}
    return re.sub(r"\b\d{8,}\b", lambda m: ids.setdefault(m.group(0), f"n{len(ids)}"), src)


def run(prog, module):
    ns = {"torch": module}
    exec(prog, ns)
    return ns


PROGRAMS = {
    "seed001": "x = torch.randn(2, 2, requires_grad=True)\ny = x + 2\nz = y * y * 3\n"
               "out = z.mean()\nparams = {'x': x}",
    "seed000_pow_mul": "x = torch.randn(8, requires_grad=True)\ny = x ** 2\nout = y * 2",
    "seed000_mul_": "x = torch.randn(8, requires_grad=True)\ny = x ** 2\ny.mul_(2)\nout = y",
    "seed000_view_base": "x = torch.randn(8, 8, requires_grad=True)\ny = x ** 2\nv = y[0]\n"
                         "v.mul_(2)\nout = y",
    "seed000_view": "x = torch.randn(8, 8, requires_grad=True)\ny = x ** 2\nv = y[0]\n"
                    "v.mul_(2)\nout = v",
    "seed000_two_views": "x = torch.randn(8, 8, requires_grad=True)\ny = x ** 2\n"
                         "v1 = y[0,:]\nv2 = y[:,0]\nv1.mul_(2)\nout = (v1, v2)",
    "linear_relu": "w = torch.randn(3, 4, requires_grad=True)\n"
                   "b = torch.randn(3, requires_grad=True)\nx = torch.randn(5, 4)\n"
                   "out = (x @ w.t() + b).relu().sum()\nparams = {'w': w, 'b': b}",
    "multi_output": "x = torch.randn(4, requires_grad=True)\na, b = x.split(2)\n"
                    "out = (a * b, a.exp())",
    "shared": "x = torch.randn(3, requires_grad=True)\ny = x.exp()\n"
              "out = (y * y + y.sin()).sum()\nparams = {'x': x}",
}

# Programs whose nodes save the same attributes as PyTorch's (show_attrs/show_saved
# draw them). The others differ in the op table, not in the drawing: MeanBackward0 has
# no _saved_self_sym_numel, a Python-number operand of mul is kept as a number (PyTorch
# wraps it in a 0-d tensor), AddBackward0 keeps no alpha, MmBackward0 no sizes/strides,
# AsStridedBackward0 an extra ``layout``.
SAME_ATTRS = ["seed000_view_base", "multi_output", "shared"]


def _dots(name, **kw):
    torch = pytest.importorskip("torch")
    torchviz = pytest.importorskip("torchviz")
    prog = PROGRAMS[name]
    ns_t = run(prog, torch)
    ns_a = run(prog, autotensor)
    ours = viz.make_dot(ns_a["out"], params=ns_a.get("params"), **kw)
    theirs = torchviz.make_dot(ns_t["out"], params=ns_t.get("params"), **kw)
    return canon(viz.dot_source(ours)), canon(theirs.source)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_make_dot_same_graph_as_torchviz(name):
    ours, theirs = _dots(name)
    assert ours == theirs


@pytest.mark.parametrize("kw", [dict(show_attrs=True), dict(show_saved=True),
                                dict(show_attrs=True, show_saved=True, max_attr_chars=5)])
@pytest.mark.parametrize("name", SAME_ATTRS)
def test_make_dot_saved_and_attrs_as_torchviz(name, kw):
    ours, theirs = _dots(name, **kw)
    assert ours == theirs


def test_make_dot_labels():
    x = autotensor.randn(2, 3, requires_grad=True)
    y = autotensor.randn(3, requires_grad=True)
    src = viz.dot_source(viz.make_dot((x * y).sum(), params={"x": x, "y": y},
                                      show_saved=True))
    for text in ('"x\n (2, 3)" fillcolor=lightblue', '"y\n (3)" fillcolor=lightblue',
                 "label=SumBackward0", "label=MulBackward0", "label=AccumulateGrad",
                 '"self\n (2, 3)" fillcolor=orange', '"other\n (3)" fillcolor=orange',
                 '"\n ()" fillcolor=darkolivegreen1'):
        assert text in src
    # an edge for every next_functions entry: x, y -> AccumulateGrad -> Mul -> Sum -> out
    assert src.count(" -> ") - src.count("[dir=none]") == 6
    with pytest.raises(TypeError):
        viz.make_dot(x.sum(), params={"x": 1.0})


def test_view_and_copyslices_are_marked():
    x = autotensor.randn(8, 8, requires_grad=True)
    y = x ** 2
    v = y[0]
    v.mul_(2)
    src = viz.dot_source(viz.make_dot(v))
    assert "label=CopySlices" in src and "label=AsStridedBackward0" in src
    assert "[style=dotted]" in src and "fillcolor=darkolivegreen3" in src


def test_text_without_graphviz_is_digraph_source(monkeypatch):
    graphviz = pytest.importorskip("graphviz")
    x = autotensor.randn(3, requires_grad=True)
    out = (x.exp() * x).sum()
    assert isinstance(viz.make_dot(out), graphviz.Digraph)
    # the statements replayed through graphviz's own API give our text
    monkeypatch.setattr(viz._Dot, "finish", lambda self: self)
    stmts = viz.make_dot(out, params={"x": x}, show_attrs=True, show_saved=True)
    real = graphviz.Digraph(node_attr=stmts.node_attr, graph_attr=stmts.graph_attr)
    for kind, a, b, attrs in stmts.body:
        (real.node if kind == "node" else real.edge)(a, b, **attrs)
    assert stmts.source() == real.source
    monkeypatch.undo()
    monkeypatch.setitem(sys.modules, "graphviz", None)  # import graphviz -> ImportError
    text = viz.make_dot(out, params={"x": x}, show_attrs=True, show_saved=True)
    assert isinstance(text, str) and canon(text) == canon(stmts.source())


def test_quote_like_graphviz():
    graphviz = pytest.importorskip("graphviz")
    for s in ["abc", "a b", "12", "1.5", "-3", "node", 'say "hi"', "x\n (2)", "<b>",
              "a_1", "1a"]:
        assert viz._quote(s) == graphviz.quoting.quote(s), s


def test_make_dot_100000_nodes():
    x = autotensor.randn(3, requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y * x
    src = viz.dot_source(viz.make_dot(y))
    assert src.count("label=MulBackward0") == 100_000
    assert src.count("label=AccumulateGrad") == 1


@pytest.mark.skipif(shutil.which("dot") is None,
                    reason="Graphviz's dot program is not installed (apt-get install graphviz)")
def test_render_svg_and_png(tmp_path):
    pytest.importorskip("graphviz")
    x = autotensor.randn(8, 8, requires_grad=True)
    y = x ** 2
    y[0].mul_(2)
    g = viz.make_dot(y, params={"x": x})
    svg = g.render(tmp_path / "g", format="svg")
    text = open(svg).read()
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    assert "CopySlices" in text and "PowBackward0" in text
    png = g.render(tmp_path / "g", format="png")
    assert open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n"


# ---- format_graph / print_graph -----------------------------------------------------------
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_format_graph_same_as_on_torch(name):
    torch = pytest.importorskip("torch")
    ns_t = run(PROGRAMS[name], torch)
    ns_a = run(PROGRAMS[name], autotensor)
    for key in ("out", "y", "z"):
        if key in ns_a and not isinstance(ns_a[key], tuple):
            names = {"x": ns_a["x"]}
            assert format_graph(ns_a[key], names) == format_graph(ns_t[key],
                                                                  {"x": ns_t["x"]})


def test_format_graph_seed_style(capsys):
    x = autotensor.randn(8, requires_grad=True)
    y = x ** 2
    z = y * 2
    assert format_graph(z, {"x": x}) == "MulBackward0 -> PowBackward0 -> AccumulateGrad(x)"
    assert format_graph(x, {"x": x}) == "AccumulateGrad(x)"
    assert format_graph(x.detach()) == "None"
    a = autotensor.randn(2, 2, requires_grad=True)
    b = a + 2
    out = (b * b * 3).mean()
    assert format_graph(out, {"a": a}).splitlines() == [
        "MeanBackward0 -> MulBackward0 (x2)",
        "  AddBackward0 -> AccumulateGrad(a)",
        "  AddBackward0 (*)"]
    print_graph(z)
    assert capsys.readouterr().out == "MulBackward0 -> PowBackward0 -> AccumulateGrad\n"


def test_format_graph_deep_chain_is_one_line():
    x = autotensor.randn(3, requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y * 1.5
    assert format_graph(y, {"x": x}) == "MulBackward0 (x100,000) -> AccumulateGrad(x)"


def test_format_graph_bounded_summary():
    x = autotensor.randn(3, requires_grad=True)
    y = x
    for _ in range(50_000):  # 100,000 op nodes, each with two inputs needing grad
        y = y * x + y
    lines = format_graph(y, max_nodes=50).splitlines()
    assert len(lines) == 51
    assert lines[-1] == ("... 99,951 more nodes not shown (100,001 in all): "
                         "49,975 AddBackward0, 49,975 MulBackward0, 1 AccumulateGrad")
    # indentation is bounded: deep levels are numbered
    deep = format_graph(y, max_nodes=200).splitlines()
    assert max(len(s) - len(s.lstrip()) for s in deep) <= 2 * 24
    assert any(s.lstrip().startswith("[depth ") for s in deep)


def test_graph_lines_on_plain_objects():
    """The walker needs only next_functions (it also reads torch's graphs)."""

    class Node:
        def __init__(self, *nxt):
            self.next_functions = tuple((n, 0) for n in nxt)

    class Leaf(Node):
        pass

    leaf = Leaf()
    shared = Node(leaf)
    root = Node(Node(shared), shared, None)
    assert format_graph(root).splitlines() == ["Node", "  Node (x2) -> Leaf", "  Node (*)"]


# ---- saved_tensors_report ----------------------------------------------------------------
def test_saved_tensors_report_counts_bytes():
    w = autotensor.randn(4, 3, requires_grad=True)
    x = autotensor.randn(5, 4)
    h = (x @ w).relu()
    out = (h * h).sum()
    r = saved_tensors_report(out)
    by = r.by_node()
    assert by["MmBackward0"] == 5 * 4 * 4          # x saved for w's gradient
    assert by["ReluBackward0"] == 5 * 3 * 4        # the result
    assert by["MulBackward0"] == 2 * 5 * 3 * 4     # h twice: relu's result, one buffer
    assert r.total_bytes == (5 * 4 + 5 * 3) * 4
    assert "MulBackward0" in r.table() and "in all" in str(r)
    out.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        saved_tensors_report(out)


def test_saved_tensors_report_same_as_torch():
    torch = pytest.importorskip("torch")
    prog = ("w1 = torch.randn(8, 16, requires_grad=True)\n"
            "w2 = torch.randn(16, 4, requires_grad=True)\nx = torch.randn(32, 8)\n"
            "out = (x.mm(w1).tanh().mm(w2).exp().sigmoid()).sum()")
    ra = saved_tensors_report(run(prog, autotensor)["out"])
    rt = saved_tensors_report(run(prog, torch)["out"])
    assert ra.by_node() == rt.by_node()
    assert ra.total_bytes == rt.total_bytes
    assert [(n, [i[:3] for i in items]) for n, items, _ in ra.nodes] == \
        [(n, [(a, s, d.replace("torch.", "torch.")) for a, s, d, _ in items])
         for n, items, _ in rt.nodes]


def test_saved_tensors_report_custom_function_and_deep():
    class Cube(autotensor.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 3 * x ** 2 * g

    x = autotensor.randn(10, requires_grad=True, dtype=autotensor.float64)
    r = saved_tensors_report(Cube.apply(x).sum())
    assert r.by_node() == {"CubeBackward": 80}
    y = x
    for _ in range(20_000):
        y = y.exp()
    r = saved_tensors_report(y)
    assert r.n_nodes == 20_001 and r.total_bytes == 20_000 * 80


# ---- forward/backward side by side (viz.trace) ---------------------------------------------
def test_trace_records_forward_ops_only_inside():
    x = autotensor.randn(8, 8, requires_grad=True)
    autotensor.exp(x)  # not traced
    with viz.trace() as tr:
        y = x ** 2
        v = y[0]
        v.mul_(2)
        autotensor.nn.functional.linear(x, x)  # its inner ops are not listed separately
    autotensor.exp(x)
    assert [op.name for op in tr.ops] == ["pow", "select", "mul_", "linear"]
    pow_, select, mul_, _ = tr.ops
    assert type(pow_.grad_fn).__name__ == "PowBackward0"
    assert type(select.grad_fn).__name__ == "SelectBackward0"
    assert mul_.inplace and [vv for _, vv in mul_.inputs] == [0]
    assert [vv for _, vv in mul_.outputs] == [1]
    assert not pow_.inplace


def test_side_by_side_seed000_view_picture():
    x = autotensor.randn(8, 8, requires_grad=True)
    with viz.trace() as tr:
        y = x ** 2
        v = y[0]
        v.mul_(2)
    src = viz.dot_source(tr.make_dot(y, v, names={"x": x, "y": y, "v": v}))
    assert "subgraph cluster_forward" in src and "subgraph cluster_backward" in src
    for label in ('"[ pow ]"', '"[ select ]"', '"[ mul_ ]"', '"CopySlices(MulBackward0)"',
                  "AsStridedBackward0", "PowBackward0", '"x.grad"', '"y.grad"', '"v.grad"',
                  '"SelectBackward0\n(no longer used)"', '"v\n(8)\nversion 1"',
                  '"y\n(8, 8)\nversion 1"'):
        assert label in src, label
    # version numbers on the in-place op's edges, and the write reaching the base
    assert "[label=v0]" in src and "[label=v1]" in src and "[label=base style=dashed]" in src
    # each op on the row of the node it created
    assert src.count("{rank=same; op") == 3


def test_side_by_side_renders(tmp_path):
    pytest.importorskip("graphviz")
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot program is not installed (apt-get install graphviz)")
    x = autotensor.randn(8, requires_grad=True)
    with viz.trace() as tr:
        z = x ** 2 * 2
    out = tr.make_dot(z, names={"x": x, "z": z}).render(tmp_path / "p", format="svg")
    assert "MulBackward0" in open(out).read()


def test_seeds_draw_writes_every_graph(tmp_path, capsys):
    from autotensor.examples import seeds
    names = [seeds.example_name(e) for e in seeds.EXAMPLES if e.seed == "000"]
    paths = seeds.draw_examples(str(tmp_path), names=names)
    assert len(paths) == 2 * len(names)
    texts = {os.path.basename(p): open(p).read() for p in paths}
    aliasing = [t for n, t in texts.items() if n.startswith("seed000_04") and "_graph" in n]
    assert aliasing and "CopySlices" in aliasing[0] and "AsStridedBackward0" in aliasing[0]
    assert all(("<svg" in t) if shutil.which("dot") else t.startswith("digraph")
               for t in texts.values())
    assert seeds.main(["--draw", str(tmp_path / "all")]) == 0
    out = capsys.readouterr().out
    assert "pictures written" in out and "no tensor with a graph to draw" in out


# ---- gradient flow -------------------------------------------------------------------------
def test_gradient_flow_plot():
    pytest.importorskip("matplotlib")
    model = autotensor.nn.Sequential(autotensor.nn.Linear(4, 8), autotensor.nn.Tanh(),
                                     autotensor.nn.Linear(8, 1))
    model(autotensor.randn(16, 4)).pow(2).mean().backward()
    fig = viz.plot_grad_flow(model.named_parameters())
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels == ["0.weight", "0.bias", "2.weight", "2.bias"]
    norms = [float(p.grad.norm()) for _, p in model.named_parameters()]
    heights = [b.get_height() for b in ax.patches][:4]
    assert heights == pytest.approx(norms, rel=1e-6)
    with pytest.raises(ValueError, match="no parameter has a gradient"):
        viz.plot_grad_flow([("w", autotensor.zeros(2, requires_grad=True))])
