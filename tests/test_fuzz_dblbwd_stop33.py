"""Stop 33, helper dbl33: the create_graph gradients of soft_margin_loss, cumprod at a zero
and index_reduce, against PyTorch 2.13 (the last _DOUBLE_BACKWARD_OPEN cases of
tests/test_fuzz_lead_stop32.py).

Each case runs one program on torch and on autotensor and compares the whole graph of
every create_graph gradient (each node's name and its edges' names, breadth first), the
gradients' versions, and the values of the gradients and of the second- and third-order
gradients (float64, to 1e-12); errors raised by a further backward are compared by
message."""
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import autotensor  # noqa: E402

LIBS = (autotensor, torch)


def _graph(g):
    """Every node reachable from g's grad_fn, breadth first: (name, edges' names)."""
    order, queue, seen = [], [g.grad_fn], set()
    while queue:
        node = queue.pop(0)
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        children = [fn for fn, _ in node.next_functions]
        order.append((type(node).__name__,
                      tuple(None if c is None else type(c).__name__ for c in children)))
        queue.extend(children)
    return order


def _values(gs):
    return [None if g is None else np.array(g.detach().tolist(), dtype=np.float64)
            for g in gs]


def _higher(m, gs, ins):
    """Second- and third-order gradients' values (or the error a backward raises)."""
    vs = [m.tensor(np.sin(np.arange(g.numel()) + i).reshape(tuple(g.shape)), dtype=g.dtype)
          for i, g in enumerate(gs)]
    out = []
    try:
        g2 = m.autograd.grad(gs, ins, vs, allow_unused=True, create_graph=True)
        out.append(_values(g2))
        s = sum((g * g).sum() for g in g2 if g is not None and g.requires_grad)
        if not isinstance(s, int):
            out.append(_values(m.autograd.grad(s, ins, allow_unused=True)))
    except RuntimeError as e:
        out.append(str(e))
    return out


def _same(a, b):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        assert isinstance(a, np.ndarray) and isinstance(b, np.ndarray), (a, b)
        assert a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-13 * max(1.0, np.abs(b).max(
            initial=0)))
    elif isinstance(a, (list, tuple)):
        assert type(a) is type(b) and len(a) == len(b), (a, b)
        for x, y in zip(a, b):
            _same(x, y)
    elif isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            _same(a[k], b[k])
    else:
        assert a == b


def _run(scenario, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (index_reduce's beta warning)
        _same(*(scenario(m, *args) for m in LIBS))


# ---- soft_margin_loss: no edge for target ------------------------------------------------
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("target_shape", [(2, 3), (3,)])
def test_soft_margin_loss_backward_node_has_no_target_edge(reduction, target_shape):
    """SoftMarginLossBackwardBackward0 has edges for grad_output and self only (target has
    no formula in derivatives.yaml), saves target with its version, and its gradients are
    PyTorch's."""
    def scenario(m):
        x = m.tensor([[0.3, -1.2, 2.0], [0.7, -0.1, -2.5]], dtype=m.float64,
                     requires_grad=True)
        t = m.tensor(np.resize([1.0, -1.0, -1.0], target_shape), dtype=m.float64)
        y = m.nn.functional.soft_margin_loss(x, t, reduction=reduction)
        w = m.tensor(np.cos(np.arange(y.numel())).reshape(tuple(y.shape)) + 0.5,
                     dtype=m.float64, requires_grad=True)
        g, = m.autograd.grad(y, x, w, create_graph=True)
        out = {"graph": _graph(g), "target": g.grad_fn._saved_target.tolist(),
               "g": _values([g]), "higher": _higher(m, [g], (x, w))}
        t.mul_(2)
        try:
            m.autograd.grad(g.sum(), x)
            out["stale"] = None
        except RuntimeError as e:
            out["stale"] = str(e).split(";")[0]
        return out
    _run(scenario)


# ---- cumprod at a zero: PyTorch's O(n^2) create_graph formula ----------------------------
_CUMPROD = [([[1.5, 0.0], [0.0, 2.0], [-1.2, 0.7]], 0), ([[1.5, 0.0, 3.0], [0.0, 2.0, 0.0]], 1),
            ([0.0, 2.0, 3.0, 0.5], 0), ([2.0, 3.0, 0.0, 0.5, 0.0, 1.5], -1),
            ((np.arange(24.0).reshape(2, 3, 4) % 5 - 1).tolist(), 1), ([0.0, 0.0], 0),
            ([3.0, 0.0], 0)]


@pytest.mark.parametrize("values, dim", _CUMPROD)
@pytest.mark.parametrize("grad_requires_grad", [False, True])
def test_cumprod_backward_at_zero_is_copyslices(values, dim, grad_requires_grad):
    """At a zero PyTorch's create_graph cumprod_backward copies each slice's sum of omitted
    products into select(dim, k) of fresh zeros: a chain of CopySlices (version n + 1),
    prod(x[:k], keepdim) and cumprod(x[k+1:]) joined by cat, expand_as."""
    def scenario(m):
        x = m.tensor(values, dtype=m.float64, requires_grad=True)
        y = x.cumprod(dim)
        w = m.tensor(np.cos(np.arange(y.numel())).reshape(tuple(y.shape)), dtype=m.float64,
                     requires_grad=grad_requires_grad)
        g, = m.autograd.grad(y, x, w, create_graph=True)
        ins = (x, w) if grad_requires_grad else (x,)
        return {"graph": _graph(g), "version": g._version, "g": _values([g]),
                "higher": _higher(m, [g], ins)}
    _run(scenario)


def test_cumprod_backward_at_zero_with_tangents():
    """Forward over reverse: with create_graph the gradient is the CopySlices one (version
    n + 1), its tangent the derivative; without it PyTorch's gradient is a fresh tensor
    (version 0; its tangent differs by design: Note [cumprod's gradient at zeros] in
    tests/fuzz/core.py)."""
    def scenario(m):
        fa = m.autograd.forward_ad
        out = []
        for create_graph in (False, True):
            with fa.dual_level():
                x = fa.make_dual(m.tensor([1.764, 0.0, 2.0], dtype=m.float64,
                                          requires_grad=True),
                                 m.tensor([1.0, 2.0, 3.0], dtype=m.float64))
                g, = m.autograd.grad(x.cumprod(0).sum(), x, create_graph=create_graph)
                out.append((g._version, g.tolist(), type(g.grad_fn).__name__))
                if create_graph:
                    out.append(fa.unpack_dual(g).tangent.tolist())
        return out
    _run(scenario)


# ---- index_reduce: PyTorch's index_reduce_backward, op for op ----------------------------
_INDEX_REDUCE = [  # (self, index, source, dim)
    ([[0.5, -1.5], [2.0, 0.25], [-0.75, 1.25], [1.5, -2.0]], [2, 0, 2],
     [[1.5, -0.5], [0.75, 2.0], [-1.25, 0.5]], 0),
    ([[0.2, 0.1, -1.3], [0.0, 0.5, 0.3]], [0, 0, 0, 1],  # (>1 zeros at one position)
     [[-0.0, -1.7, 1.8], [-2.9, -0.4, 0.0], [0.0, 0.2, -1.2], [1.4, -1.3, 0.3]], 0),
    ([[-1.4, -0.5], [0.1, 0.2], [-0.8, 0.0]], [2, 1, 2, 2],
     [[-0.3, 1.4], [0.6, -1.3], [0.0, 0.1], [0.7, 0.2]], 0),  # (a single zero)
    ([[1.1, 0.0, 0.0, 0.5], [-0.7, 1.5, 0.0, 1.5]], [2, 0, 2],
     [[-0.5, 2.6, 0.0], [0.4, 0.0, 1.0]], 1),
]


def _index_reduce(m, case, reduce, include_self, grad_requires_grad):
    self_, index, source, dim = _INDEX_REDUCE[case]
    x = m.tensor(self_, dtype=m.float64, requires_grad=True)
    s = m.tensor(source, dtype=m.float64, requires_grad=True)
    y = x.index_reduce(dim, m.tensor(index), s, reduce, include_self=include_self)
    w = m.tensor(np.cos(np.arange(y.numel())).reshape(tuple(y.shape)) + 0.3, dtype=m.float64,
                 requires_grad=grad_requires_grad)
    gs = m.autograd.grad(y, (x, s), w, create_graph=True)
    ins = (x, s, w) if grad_requires_grad else (x, s)
    return {"graphs": [_graph(g) for g in gs], "g": _values(gs),
            "higher": _higher(m, list(gs), ins)}


@pytest.mark.parametrize("case", range(len(_INDEX_REDUCE)))
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("grad_requires_grad", [False, True])
def test_index_reduce_prod_backward_graph(case, include_self, grad_requires_grad):
    """prod: masked_fill, index_reduce of the masked self / source (IndexReduceBackward0,
    differentiable again: the second- and third-order gradients are PyTorch's), DelayedError's
    Error node where >1 zeros of source meet at one position (its message on backward)."""
    _run(_index_reduce, case, "prod", include_self, grad_requires_grad)


@pytest.mark.parametrize("case", range(len(_INDEX_REDUCE)))
@pytest.mark.parametrize("reduce", ["mean", "amax", "amin"])
def test_index_reduce_excluded_self_is_index_fill(case, reduce):
    """A self not included: grad_self.index_fill(dim, index, 0) (IndexFillBackward0 when the
    gradient requires grad)."""
    _run(_index_reduce, case, reduce, False, True)


# ---- cumsum / cumprod: aten's CPU accumulation type ----------------------------------------
@pytest.mark.parametrize("dtype", ["float32", "complex64"])
@pytest.mark.parametrize("op", ["cumsum", "cumprod", "cumsum_", "cumprod_"])
@pytest.mark.parametrize("shape, dim", [((1000,), 0), ((37, 50), 0), ((37, 50), 1),
                                        ((4, 5, 300), 2)])
def test_cumulative_ops_accumulate_in_double(dtype, op, shape, dim):
    """Note [Cumulative accumulation]: aten's CPU cumsum / cumprod keep the running value in
    double (complex<double>) for float32 (complex64), each output rounded once: bit for
    bit (a float32 running value differed in 60-99% of the outputs)."""
    rng = np.random.default_rng(len(shape) * 7 + dim)
    x = rng.standard_normal(shape)
    if dtype == "complex64":
        x = x + 1j * rng.standard_normal(shape)
    if op.startswith("cumprod"):
        x = 1 + 0.01 * x
    outs = []
    for m in LIBS:
        t = m.tensor(x, dtype=getattr(m, dtype))
        r = getattr(t, op)(dim)
        outs.append(np.array(r.tolist()).astype(dtype))
    np.testing.assert_array_equal(outs[0], outs[1])


def test_cumprod_backward_float32_is_pytorchs():
    """The float32 gradient of cumprod (with and without zeros, create_graph or not) is
    PyTorch's bit for bit: its reversed cumsum accumulates in double."""
    rng = np.random.default_rng(0)
    cases = []
    for _ in range(40):
        shape = tuple(int(n) for n in rng.integers(2, 6, size=int(rng.integers(1, 4))))
        x = rng.standard_normal(shape).astype(np.float32)
        x[rng.random(shape) < 0.3] = 0
        cases.append((x, int(rng.integers(0, len(shape))),
                      rng.standard_normal(shape).astype(np.float32)))
    for create_graph in (False, True):
        outs = []
        for m in LIBS:
            res = []
            for x, dim, w in cases:
                t = m.tensor(x, requires_grad=True)
                g, = m.autograd.grad(t.cumprod(dim), t, m.tensor(w), create_graph=create_graph)
                res.append(np.array(g.tolist(), dtype=np.float32))
            outs.append(res)
        for a, b in zip(*outs):
            np.testing.assert_array_equal(a, b)


# ---- scatter_reduce: the same two differences -----------------------------------------------
@pytest.mark.parametrize("reduce", ["prod", "mean"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_backward_graph(reduce, include_self):
    """scatter_reduce_backward: prod's DelayedError (Error node) where >1 zeros of src meet
    at one position; mean's src gradient grad.gather(index) / N.gather(index)
    (DivBackward0), not a gather of grad / N."""
    def scenario(m):
        x = m.tensor([[1.5, 2.0], [0.5, -1.0], [0.25, 0.0]], dtype=m.float64,
                     requires_grad=True)
        s = m.tensor([[0.0, 1.0], [0.0, 2.0], [3.0, 0.0]], dtype=m.float64,
                     requires_grad=True)
        y = x.scatter_reduce(0, m.tensor([[0, 1], [0, 1], [1, 0]]), s, reduce,
                             include_self=include_self)
        w = m.tensor(np.cos(np.arange(6.0)).reshape(3, 2), dtype=m.float64,
                     requires_grad=True)
        gs = m.autograd.grad(y, (x, s), w, create_graph=True)
        return {"graphs": [_graph(g) for g in gs], "g": _values(gs),
                "higher": _higher(m, list(gs), (x, s, w))}
    _run(scenario)
