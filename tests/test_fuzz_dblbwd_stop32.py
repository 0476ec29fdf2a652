"""Stop 32, helper dbl32: the backward of layer_norm, batch_norm (training and evaluation,
instance_norm through it) and convolution under create_graph, against PyTorch 2.13.

PyTorch records each as one op whose node differentiates it by an explicit formula
(NativeLayerNormBackwardBackward0, NativeBatchNormBackwardBackward0,
ConvolutionBackwardBackward0; Note [Norm and convolution backward ops] in
autotensor/_ops/nn_ops.py). Each case runs one program on torch and on autotensor and
compares every gradient's node, its edges (names, input numbers, order), output number and
version, and the values of the second-, third- and fourth-order gradients (float64, to
~1e-12 of the largest value, at least 1); the forward-over-reverse cases compare the
gradients' values and tangents."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import autotensor  # noqa: E402

LIBS = (autotensor, torch)


def _name(fn):
    return None if fn is None else fn.name()


def _node(g):
    """A gradient's node: name, edges (name and input number, in order), output number
    and version."""
    fn = g.grad_fn
    return (_name(fn), tuple((_name(f), i) for f, i in fn.next_functions) if fn else None,
            g.output_nr, g._version)


def _values(gs):
    return [None if g is None else np.array(g.detach().tolist(), dtype=np.float64)
            for g in gs]


def _loss(lib, y):
    """A weighted sum of squares (a normalization's plain sum of squares is constant)."""
    c = lib.tensor(np.random.default_rng(1).standard_normal(tuple(y.shape)), dtype=y.dtype)
    return (y * y * c).sum()


def _orders(lib, y, ins, fourth=True):
    """Second-order gradients (create_graph), their nodes; third- and fourth-order values."""
    gs = lib.autograd.grad(_loss(lib, y), ins, create_graph=True, allow_unused=True)
    out = {"nodes": [_node(g) for g in gs], "g2": _values(gs)}
    s = sum((g * g).sum() for g in gs if g is not None)
    g3 = lib.autograd.grad(s, ins, create_graph=True, allow_unused=True)
    out["g3"] = _values(g3)
    out["g3_nodes"] = [None if g is None else _name(g.grad_fn) for g in g3]
    if fourth:
        s3 = sum((g ** 2).sum() for g in g3 if g is not None and g.requires_grad)
        out["g4"] = _values(lib.autograd.grad(s3, ins, allow_unused=True))
    return out


def _close(a, b, rtol=1e-12):
    assert (a is None) == (b is None)
    if a is None:
        return
    assert a.shape == b.shape
    scale = max(1.0, np.abs(b).max()) if b.size else 1.0  # (values of O(1) inputs)
    np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol * scale)


def _compare(case, **kw):
    a, b = (case(lib, np.random.default_rng(0), **kw) for lib in LIBS)
    assert a.keys() == b.keys()
    for k in b:
        if k.endswith("nodes"):
            assert a[k] == b[k], k
        else:
            assert len(a[k]) == len(b[k]), k
            for x, y in zip(a[k], b[k]):
                _close(x, y, rtol=1e-11 if k == "g4" else 1e-12)


def _t(lib, rng, *shape, rg=True):
    return lib.tensor(rng.standard_normal(shape), dtype=lib.float64, requires_grad=rg)


# ---- layer_norm ------------------------------------------------------------------------
def _layer_norm(lib, rng, shape, k, weight, bias, wrt):
    x = _t(lib, rng, *shape)
    ns = shape[len(shape) - k:]
    w = _t(lib, rng, *ns) if weight else None
    b = _t(lib, rng, *ns) if bias else None
    y = lib.nn.functional.layer_norm(x, ns, w, b)
    ins = [t for t, name in ((x, "x"), (w, "w"), (b, "b")) if t is not None and name in wrt]
    return _orders(lib, y, ins)


@pytest.mark.parametrize("shape,k,weight,bias,wrt", [
    ((2, 3), 1, True, True, "xwb"),
    ((2, 3), 1, False, False, "x"),
    ((2, 3), 1, True, False, "x"),      # weight requires grad, not asked for
    ((2, 3), 1, True, True, "wb"),
    ((2, 3, 4), 2, True, True, "xwb"),
    ((3,), 1, True, True, "xwb"),       # no leading dims
])
def test_layer_norm_double_backward_node(shape, k, weight, bias, wrt):
    _compare(_layer_norm, shape=shape, k=k, weight=weight, bias=bias, wrt=wrt)


@pytest.mark.parametrize("shape", [(0,), (2, 0)])
def test_layer_norm_empty_input_node(shape):
    """An empty input's gradient is still the op's (the fuzzer's reproducer, in a
    forward-AD level with a dual input)."""
    def case(lib, rng):
        fa = lib.autograd.forward_ad
        with fa.dual_level():
            x = lib.zeros(shape, dtype=lib.float32, requires_grad=True)
            xd = fa.make_dual(x, lib.zeros(shape, dtype=lib.float32))
            y = lib.nn.functional.layer_norm(xd, shape[-1:])
            g, = lib.autograd.grad(y.sum(), [xd], create_graph=True)
            return {"nodes": [_node(g), fa.unpack_dual(g).tangent is None,
                              str(g.dtype), tuple(g.shape)]}
    _compare(case)


# ---- batch_norm, instance_norm -----------------------------------------------------------
def _batch_norm(lib, rng, training, running, affine, wrt="xwb"):
    x = _t(lib, rng, 2, 3, 4)
    w, b = (_t(lib, rng, 3), _t(lib, rng, 3)) if affine else (None, None)
    rm = rv = None
    if running:
        rm = lib.tensor(rng.standard_normal(3), dtype=lib.float64)
        rv = lib.tensor(rng.random(3) + 0.5, dtype=lib.float64)
    y = lib.nn.functional.batch_norm(x, rm, rv, w, b, training=training)
    ins = [t for t, name in ((x, "x"), (w, "w"), (b, "b")) if t is not None and name in wrt]
    return _orders(lib, y, ins)


@pytest.mark.parametrize("training,running,affine,wrt", [
    (True, False, True, "xwb"),
    (True, True, True, "xwb"),
    (True, False, False, "x"),
    (False, True, True, "xwb"),
    (False, True, False, "x"),
    (True, False, True, "w"),
])
def test_batch_norm_double_backward_node(training, running, affine, wrt):
    _compare(_batch_norm, training=training, running=running, affine=affine, wrt=wrt)


def test_instance_norm_double_backward():
    """instance_norm is batch_norm of the (1, N*C, ...) view: its gradient is a view of
    the batch-norm backward op's, and its fourth order the explicit formula's."""
    def case(lib, rng):
        x = _t(lib, rng, 2, 3, 4)
        return _orders(lib, lib.nn.functional.instance_norm(x), [x])
    _compare(case)


@pytest.mark.parametrize("affine,wrt", [(True, "xwb"), (False, "x"), (True, "w")])
def test_group_norm_create_graph(affine, wrt):
    """Under create_graph PyTorch runs infinitely_differentiable_native_group_norm_backward:
    its ops (ViewBackward0 over AddBackward0 for the input, over SumBackward1 for weight and
    bias), the saved statistics differentiable outputs of the forward's node."""
    def case(lib, rng):
        x = _t(lib, rng, 2, 4, 3)
        w, b = (_t(lib, rng, 4), _t(lib, rng, 4)) if affine else (None, None)
        y = lib.nn.functional.group_norm(x, 2, w, b)
        ins = [t for t, name in ((x, "x"), (w, "w"), (b, "b")) if t is not None and name in wrt]
        inner = [[_name(f) for f, _ in g.grad_fn.next_functions[0][0].next_functions]
                 for g in lib.autograd.grad(_loss(lib, y), ins, create_graph=True,
                                            retain_graph=True)]
        return {**_orders(lib, y, ins), "inner_nodes": inner}
    _compare(case)


# ---- convolution -----------------------------------------------------------------------
def _conv(lib, rng, fn, xs, ws, bias, wrt="xwb", fourth=True, **kw):
    x, w = _t(lib, rng, *xs, rg="x" in wrt), _t(lib, rng, *ws, rg="w" in wrt)
    b = _t(lib, rng, kw.pop("bias_size")) if bias else None
    y = getattr(lib.nn.functional, fn)(x, w, b, **kw)
    ins = [t for t, name in ((x, "x"), (w, "w"), (b, "b")) if t is not None and name in wrt]
    return _orders(lib, y, ins, fourth)


@pytest.mark.parametrize("fn,xs,ws,bias,wrt,kw", [
    ("conv1d", (2, 3, 5), (4, 3, 2), False, "xw", {}),
    ("conv1d", (2, 3, 5), (4, 3, 2), False, "x", {}),
    ("conv1d", (2, 3, 5), (4, 3, 2), False, "w", {}),
    ("conv2d", (1, 4, 5, 5), (6, 2, 3, 3), True, "xwb",
     {"stride": 2, "padding": 1, "groups": 2, "bias_size": 6}),
    ("conv3d", (1, 2, 3, 3, 3), (2, 2, 2, 2, 2), False, "xw", {"padding": 1}),
    ("conv2d", (2, 2, 4, 4), (3, 2, 2, 2), True, "b", {"bias_size": 3, "dilation": 2}),
    ("conv_transpose2d", (1, 2, 3, 3), (2, 3, 2, 2), True, "xwb",
     {"stride": 2, "bias_size": 3}),
])
def test_convolution_double_backward_node(fn, xs, ws, bias, wrt, kw):
    _compare(_conv, fn=fn, xs=xs, ws=ws, bias=bias, wrt=wrt, **kw)


def test_conv_transpose_output_padding_third_order():
    """Up to the third order (PyTorch's fourth of a transposed convolution with
    output_padding raises in its own _convolution_double_backward)."""
    _compare(_conv, fn="conv_transpose1d", xs=(1, 2, 4), ws=(2, 3, 3), bias=True,
             fourth=False, stride=2, output_padding=1, bias_size=3)


def test_convolution_saves_input_and_weight():
    """PyTorch's one convolution_backward formula reads input and weight: both are saved
    whenever the node is made, so an in-place change of the input makes backward raise even
    when only it requires grad."""
    def case(lib, rng):
        x = _t(lib, rng, 2, 3, 5)
        w = _t(lib, rng, 4, 3, 2, rg=False)
        xx = x * 1
        y = lib.nn.functional.conv1d(xx, w)
        xx.add_(1)
        try:
            y.sum().backward()
        except RuntimeError as e:
            return {"nodes": [str(e).split(";")[0]]}
        return {"nodes": ["no error"]}
    _compare(case)


# ---- forward-over-reverse ----------------------------------------------------------------
def _fwd_over_rev(lib, rng, kind):
    F = lib.nn.functional
    fa = lib.autograd.forward_ad
    with fa.dual_level():
        if kind == "layer_norm":
            x, w, b = _t(lib, rng, 2, 3), _t(lib, rng, 3), _t(lib, rng, 3)
            y = F.layer_norm(fa.make_dual(x, _t(lib, rng, 2, 3, rg=False)), (3,), w, b)
            ins = [x, w, b]
        elif kind == "layer_norm_weight":
            x, w, b = _t(lib, rng, 2, 3), _t(lib, rng, 3), _t(lib, rng, 3)
            y = F.layer_norm(x, (3,), fa.make_dual(w, _t(lib, rng, 3, rg=False)), b)
            ins = [x, w, b]
        elif kind in ("batch_norm", "batch_norm_eval"):
            x, w, b = _t(lib, rng, 2, 3, 4), _t(lib, rng, 3), _t(lib, rng, 3)
            rm = lib.tensor(rng.standard_normal(3), dtype=lib.float64)
            rv = lib.tensor(rng.random(3) + 0.5, dtype=lib.float64)
            y = F.batch_norm(fa.make_dual(x, _t(lib, rng, 2, 3, 4, rg=False)), rm, rv, w, b,
                             training=kind == "batch_norm")
            ins = [x, w, b]
        elif kind == "group_norm":
            x, w, b = _t(lib, rng, 2, 4, 3), _t(lib, rng, 4), _t(lib, rng, 4)
            y = F.group_norm(fa.make_dual(x, _t(lib, rng, 2, 4, 3, rg=False)), 2, w, b)
            ins = [x, w, b]
        elif kind == "conv1d":
            x, w, b = _t(lib, rng, 2, 3, 5), _t(lib, rng, 4, 3, 2), _t(lib, rng, 4)
            y = F.conv1d(fa.make_dual(x, _t(lib, rng, 2, 3, 5, rg=False)), w, b, padding=1)
            ins = [x, w, b]
        else:  # conv2d with a dual weight
            x, w = _t(lib, rng, 1, 2, 4, 4), _t(lib, rng, 4, 2, 3, 3)
            y = F.conv2d(x, fa.make_dual(w, _t(lib, rng, 4, 2, 3, 3, rg=False)), stride=2)
            ins = [x, w]
        gs = lib.autograd.grad(_loss(lib, y), ins, create_graph=True)
        nodes, primals, tangents = [], [], []
        for g in gs:
            p, t = fa.unpack_dual(g)
            nodes.append((_node(g), t is None))
            primals.append(p)
            tangents.append(t)
        return {"nodes": nodes, "primals": _values(primals), "tangents": _values(tangents)}


@pytest.mark.parametrize("kind", ["layer_norm", "layer_norm_weight", "batch_norm",
                                  "batch_norm_eval", "group_norm", "conv1d", "conv2d_weight"])
def test_forward_over_reverse(kind):
    _compare(_fwd_over_rev, kind=kind)


@pytest.mark.parametrize("norm", ["layer_norm", "batch_norm"])
def test_bias_without_weight_third_order_raises(norm):
    """With a bias and no weight, the explicit formula adds the bias's incoming gradient as
    an undefined tensor: PyTorch's add_ refuses it when the input's term is defined."""
    def case(lib, rng):
        x, b = _t(lib, rng, 2, 3, 4), _t(lib, rng, 3 if norm == "batch_norm" else 4)
        F = lib.nn.functional
        y = F.layer_norm(x, (4,), None, b) if norm == "layer_norm" else \
            F.batch_norm(x, None, None, None, b, training=True)
        gs = lib.autograd.grad(_loss(lib, y), [x, b], create_graph=True)
        try:
            lib.autograd.grad(sum((g * g).sum() for g in gs), [x, b])
        except RuntimeError as e:
            return {"nodes": [_node(g) for g in gs] + [str(e)]}
        return {"nodes": [_node(g) for g in gs] + ["no error"]}
    _compare(case)
