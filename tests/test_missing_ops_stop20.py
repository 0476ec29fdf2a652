"""Ops that were missing (issue 8's list): frexp, sum_to_size, fill_diagonal_, is_neg /
resolve_neg and the conjugate / negative bits of views, against PyTorch 2.13."""
import numpy as np
import pytest

import autotensor as at

torch = pytest.importorskip("torch")


def _run(lib, fn):
    try:
        return ("ok", fn(lib))
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e))


def _plain(v, rounded=False):
    """Values (bytes; or, ``rounded``, to 14 digits with zeros unsigned), dtypes, graph node
    names of a result (tensors, tuples, numbers)."""
    if isinstance(v, (tuple, list)):
        return tuple(_plain(x, rounded) for x in v)
    if hasattr(v, "grad_fn"):
        fn = v.grad_fn
        data = v.detach()
        if str(v.dtype).endswith("bfloat16"):
            data = data.float()
        data = data.numpy(force=True)
        data = (np.round(data, 14) + 0.0).tolist() if rounded else data.tobytes()
        return (str(v.dtype).replace("autotensor.", "torch."), tuple(v.shape), data,
                v.requires_grad, None if fn is None else type(fn).__name__, v._version)
    return v


def same(fn, rounded=False):
    a, b = _run(at, fn), _run(torch, fn)
    assert a[0] == b[0], (a, b)
    if a[0] == "ok":
        assert _plain(a[1], rounded) == _plain(b[1], rounded)
    else:
        assert a[1] == b[1]


SPECIAL = [0.0, -0.0, 1.0, 3.5, -10.0, float("inf"), float("-inf"), float("nan"), 1e-310,
           2.0 ** 100, 0.75, -0.5, 5e-324, 1.7976931348623157e308]


@pytest.mark.parametrize("dt", ["float64", "float32", "float16", "bfloat16"])
def test_frexp_values(dt):
    vals = SPECIAL + list(np.random.default_rng(0).standard_normal(50) * 100)
    same(lambda m: tuple(m.frexp(m.tensor(vals, dtype=getattr(m, dt)))))
    same(lambda m: m.tensor(vals, dtype=getattr(m, dt)).frexp().exponent)


@pytest.mark.parametrize("case", [
    lambda m: m.frexp(m.tensor([1, 2])),
    lambda m: m.frexp(m.tensor([1j])),
    lambda m: m.frexp(m.tensor(True)),
    lambda m: m.frexp(m.tensor([1.5, 3.0]), out=(m.empty(2, dtype=m.float64),
                                                 m.empty(2, dtype=m.int32))),
    lambda m: m.frexp(m.tensor([1.5, 3.0]), out=(m.empty(2), m.empty(2, dtype=m.int64))),
    lambda m: m.frexp(m.tensor([1.5, 3.0]), out=m.empty(2)),
    lambda m: m.frexp(m.tensor([1.0], requires_grad=True),
                      out=(m.empty(1), m.empty(1, dtype=m.int32))),
    lambda m: tuple(m.frexp(m.tensor([1.5, 3.0]), out=(m.empty(0), m.empty(0, dtype=m.int32)))),
])
def test_frexp_errors_and_out(case):
    same(case)


def test_frexp_gradients_and_graph():
    def f(m):
        x = m.tensor([1.5, -3.0, 0.1], dtype=m.float64, requires_grad=True)
        mant, e = m.frexp(x)
        v = m.tensor([1.0, 2.0, 3.0], dtype=m.float64, requires_grad=True)
        g, = m.autograd.grad(mant, x, v, create_graph=True)
        gv, = m.autograd.grad(g.sum(), v)
        nodes = [type(n).__name__ if n is not None else None
                 for n, _ in g.grad_fn.next_functions[0][0].next_functions]
        return mant, e, g, gv, type(mant.grad_fn).__name__, str(e.requires_grad), tuple(nodes)
    same(f)


def test_frexp_forward_ad():
    def f(m):
        fw = m.autograd.forward_ad
        with fw.dual_level():
            x = fw.make_dual(m.tensor([1.5, 3.0, -0.2], dtype=m.float64),
                             m.tensor([1.0, 1.0, 2.0], dtype=m.float64))
            mant, e = m.frexp(x)
            return fw.unpack_dual(mant).tangent, str(fw.unpack_dual(e).tangent)
    same(f)


@pytest.mark.parametrize("size", [(3, 1), (1, 3, 1), (2, 3, 4), (1,), (), (4,), (1, 1, 1),
                                  (5,), (2, 3, 4, 1), (3, 4), (2, 1, 4)])
def test_sum_to_size(size):
    def f(m):
        x = m.arange(24.0, dtype=m.float64).reshape(2, 3, 4).requires_grad_()
        y = x.sum_to_size(*size) if size else x.sum_to_size(size)
        nxt = y.grad_fn.next_functions if y.grad_fn is not None else ()
        y.sum().backward()
        return y, x.grad, y is x, tuple(type(n).__name__ for n, _ in nxt)
    same(f)
    same(lambda m: m.ones(2, 3).sum_to_size(m.Size([1, 3])))
    same(lambda m: m.ones(2, 3).sum_to_size([2, 1]))


@pytest.mark.parametrize("case", [
    lambda m: m.zeros(7, 3).fill_diagonal_(1, wrap=True),
    lambda m: m.zeros(7, 3).fill_diagonal_(1),
    lambda m: m.zeros(3, 7).fill_diagonal_(2.5, wrap=True),
    lambda m: m.zeros(8, 3).t().fill_diagonal_(1, wrap=True),
    lambda m: m.zeros(2, 2, 2).fill_diagonal_(1),
    lambda m: m.zeros(2, 3, 2).fill_diagonal_(1),
    lambda m: m.zeros(3).fill_diagonal_(1),
    lambda m: m.zeros(3, 3, dtype=m.int32).fill_diagonal_(2.7),
    lambda m: m.zeros(3, 3, dtype=m.bool).fill_diagonal_(2),
    lambda m: m.zeros(3, 3, dtype=m.uint8).fill_diagonal_(-1),
    lambda m: m.zeros(3, 3).fill_diagonal_(m.tensor(2.0)),
    lambda m: m.zeros(0, 0).fill_diagonal_(1),
    lambda m: m.zeros(6, 4)[1:, 1:].fill_diagonal_(1, wrap=True),
    lambda m: m.ones(3, 3, requires_grad=True).fill_diagonal_(0),
])
def test_fill_diagonal_(case):
    same(case)


def test_fill_diagonal_graph():
    def f(m):
        x = m.arange(21.0, dtype=m.float64).reshape(7, 3).requires_grad_()
        y = x * 1
        y.fill_diagonal_(5.0, wrap=True)
        (y * y).sum().backward()
        return y, x.grad, type(y.grad_fn.next_functions[0][0]).__name__
    same(f)


def test_neg_and_conj_bits():
    def f(m):
        x = m.tensor([1 + 2j, 3 - 1j], requires_grad=True)
        v = x.conj().imag
        r = v.resolve_neg()
        w = m._neg_view(x)
        c = x.conj()
        y = m.ones(2)
        return (v.is_neg(), r.is_neg(), type(r.grad_fn).__name__, w.is_neg(),
                type(w.grad_fn).__name__, v.clone().is_neg(), (v * 1).is_neg(),
                v.neg().is_neg(), v[0].is_neg(), v.view(2).is_neg(), v.detach().is_neg(),
                y.resolve_neg() is y, m.is_neg(y), x.conj().real.is_neg(),
                x.conj().imag.conj().is_neg(), c[0].is_conj(), c.view(2).is_conj(),
                c.detach().is_conj(), (c * 1).is_conj(), c.clone().is_conj(), r)
    same(f)
    same(lambda m: m.view_as_real(m.tensor([1 + 2j, 3 - 1j]).conj()[0:1]))


# ---- complex views are autograd views (Note [Complex views]) -------------------------------
def _nodes(t):
    out, fn = [], t.grad_fn
    while fn is not None:
        out.append(type(fn).__name__)
        nxt = [n for n, _ in fn.next_functions if n is not None]
        fn = nxt[0] if nxt else None
    return tuple(out)


def _real_mul(m):
    a = m.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    x = a * 1
    r = x.real
    r.mul_(3)
    (x * x.conj()).real.sum().backward()
    return a.grad, x, r, _nodes(r), _nodes(x)


def _imag_mul_by_grad_input(m):
    a = m.tensor([1 + 2j, 3 - 1j], dtype=m.complex128)
    w = m.tensor([2.0, 5.0], dtype=m.float64, requires_grad=True)
    x = a * 1
    x.imag.mul_(w)
    x.abs().sum().backward()
    return w.grad, x, _nodes(x), x.requires_grad


def _view_as_real_slice(m):
    a = m.tensor([1 + 2j, 3 - 1j, 0.5j], dtype=m.complex128, requires_grad=True)
    x = a * 2
    v = m.view_as_real(x)
    v[1].zero_()
    (x * x).sum().abs().backward()
    return a.grad, v, _nodes(v), _nodes(x)


def _view_as_complex_mul(m):
    y0 = m.tensor([[1.0, 2], [3, 4]], dtype=m.float64, requires_grad=True)
    y = y0 * 1
    c = m.view_as_complex(y)
    c.mul_(1j)
    (y ** 3).sum().backward()
    return y0.grad, c, _nodes(c), _nodes(y)


def _base_write_then_view(m):
    a = m.tensor([1 + 2j, 3 - 1j], dtype=m.complex128, requires_grad=True)
    x = a * 1
    r = x.real
    x.mul_(2)
    r.sum().backward()
    return a.grad, r, _nodes(r)


def _saved_view_modified(m):
    a = m.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    x = a * 1
    r = x.imag
    y = r * r
    x.add_(1)
    y.sum().backward()


def _leaf_view_inplace(m):
    a = m.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    a.real.mul_(2)


def _no_grad_writes_and_versions(m):
    a = m.tensor([1 + 2j, 3 - 1j])
    a.real.mul_(2)
    a.imag[0] = 7
    r = m.view_as_real(a)
    r.add_(1)
    return a, a._version, r._version, r._base is a, a.real._base is a


def _create_graph(m):
    a = m.tensor([1 + 2j, 3 - 1j], dtype=m.complex128, requires_grad=True)
    x = a * 1
    x.real.mul_(x.imag)
    g, = m.autograd.grad((x * x.conj()).real.sum(), a, create_graph=True)
    g2, = m.autograd.grad(g.abs().sum(), a)
    return g, g2


def _forward_ad(m):
    fw = m.autograd.forward_ad
    with fw.dual_level():
        x = fw.make_dual(m.tensor([1 + 2j, 3 - 1j], dtype=m.complex128),
                         m.tensor([1j, 1.0], dtype=m.complex128))
        r = x.real
        r.mul_(3)
        return fw.unpack_dual(x).tangent, fw.unpack_dual(r).tangent


def _as_strided_of_real(m):
    a = m.tensor([1 + 2j, 3 - 1j, 5 + 6j], dtype=m.complex128, requires_grad=True)
    x = a * 1
    s = m.view_as_real(x).as_strided((2,), (2,), 1)
    s.mul_(10)
    x.abs().sum().backward()
    return a.grad, x, s.storage_offset(), _nodes(s)


def _numpy_of_bits(m):
    return m.tensor([1j]).conj().imag.numpy()


def _numpy_of_conj(m):
    return m.tensor([1j]).conj().numpy()


def _view_of_no_grad_base_by_grad_input(m):
    """An in-place op on a view of a base without history, by an input requiring grad (was
    a TypeError in backward: the wrapped node had not computed the view's gradient)."""
    w = m.tensor([2.0, 5.0], requires_grad=True)
    x = m.ones(2, 2) * 1
    x[0].mul_(w)
    (x * x).sum().backward()
    return w.grad, x, _nodes(x)


@pytest.mark.parametrize("case", [
    _real_mul, _imag_mul_by_grad_input, _view_as_real_slice, _view_as_complex_mul,
    _base_write_then_view, _saved_view_modified, _leaf_view_inplace,
    _no_grad_writes_and_versions, _create_graph, _forward_ad, _as_strided_of_real,
    _numpy_of_bits, _numpy_of_conj, _view_of_no_grad_base_by_grad_input])
def test_complex_views_are_autograd_views(case):
    # (values to 14 digits, zeros unsigned: the complex gradients of abs and of a product by
    # a number differ from PyTorch's in the last bit and the sign of a zero imaginary part,
    # with or without views: tests/fuzz/OPEN_FINDINGS.md)
    same(case, rounded=True)


# ---- complex inputs to real-only ops: PyTorch's errors, not NumPy's complex ordering ----------
COMPLEX_CASES = [
    'x > 0.5', 'x.gt(y)', 'x < y', 'x.le(0.5)', 'm.clamp(x, 0.1, 0.2)', 'm.clamp(x, min=y)',
    'x.clamp_min(0.1)', 'm.xlogy(x, y)', 'm.fmod(x, y)', 'm.fmod(x, 2.0)', 'm.remainder(x, y)',
    'm.floor(x)', 'm.ceil(x)', 'm.round(x)', 'm.trunc(x)', 'm.frac(x)', 'm.atan2(x, y)',
    'm.hypot(x, y)', 'x // y', 'm.maximum(x, y)', 'm.fmax(x, y)', 'x.max()', 'x.argmax()',
    'm.sort(x)', 'x.topk(1)', 'm.sign(x)', 'm.copysign(x, y)', 'm.nextafter(x, y)',
    'm.lerp(x, y, 0.5)', 'm.erf(x)', 'm.lgamma(x)', 'm.digamma(x)', 'm.relu(x)',
    'm.nn.functional.softplus(x)', 'm.sigmoid(x)', 'm.special.expit(x)', 'm.cumsum(x, 0)',
    'm.isposinf(x)', 'm.signbit(x)', 'x.min(0)', 'm.minimum(x, y)', 'm.min(x, y)', 'm.eq(x, y)',
    'm.nan_to_num(x)', 'm.square(x)', 'm.rsqrt(x)', 'm.log1p(x)', 'm.expm1(x)', 'm.exp2(x)',
    'm.log2(x)', 'm.logit(x)', 'm.i0(x)', 'm.sinc(x)', 'm.deg2rad(x)', 'm.logical_and(x, y)',
    'm.bitwise_and(x, x)', 'm.float_power(x, 2)', 'm.gcd(x, x)', 'm.quantile(x, 0.5)',
    'm.unique(x)', 'm.bucketize(x, y)', 'm.searchsorted(y, x)', 'm.msort(x)', 'x.renorm(2, 0, 1)',
    'm.nn.functional.relu6(x)', 'm.nn.functional.hardtanh(x)', 'm.nn.functional.leaky_relu(x)',
    'm.nn.functional.elu(x)', 'm.nn.functional.gelu(x)', 'm.nn.functional.silu(x)',
    'm.nn.functional.l1_loss(x, y)', 'm.cdist(x[None], y[None])', 'm.dist(x, y)', 'm.var(x)',
    'm.std(x)', 'm.aminmax(x)', 'm.amax(x)', 'm.logsumexp(x, 0)', 'm.prod(x)', 'm.mean(x)',
    'm.nansum(x)', 'm.nanmean(x)', 'm.count_nonzero(x)', 'm.diff(x)', 'm.trapezoid(x)',
    'm.special.entr(x)', 'm.special.ndtr(x)', 'm.special.erfcx(x)', 'm.igamma(x, y)',
    'm.ldexp(x, y)', 'm.frexp(x)', 'm.isin(x, y)', 'm.tril(x[None])', 'm.clip(x, 0, 1)',
    'm.threshold(x, 0.1, 0.0)', 'm.rrelu(x)', 'm.nn.functional.hardswish(x)',
    'm.nn.functional.mish(x)', 'm.nn.functional.softsign(x)', 'm.nn.functional.tanhshrink(x)',
    'm.nn.functional.logsigmoid(x)', 'm.nn.functional.hardshrink(x)',
    'm.nn.functional.softshrink(x)', 'm.nn.functional.glu(m.cat([x, x]))',
    'm.nn.functional.celu(x)', 'm.nn.functional.selu(x)', 'm.nn.functional.normalize(x[None])',
    'm.nn.functional.kl_div(x, y)', 'x.min()', 'x.argmin()', 'x.amin()', 'x.argsort()',
    'm.unique_consecutive(x)', 'm.isneginf(x)', 'x.logit_()', 'm.searchsorted(x, y)',
    'x.sort(stable=True)', 'm.nn.functional.silu(x)', 'm.nn.functional.hardsigmoid(x)',
    'm.nn.functional.elu(x, inplace=True)', 'm.nn.functional.relu6(x, inplace=True)',
    'm.threshold_(x, 0.1, 0.0)',
    "m.nn.functional.softmax(x, 0)", "m.nn.functional.log_softmax(x, 0)",
    "m.nn.functional.softmax(x[None], 0)", "m.nn.functional.log_softmax(x[None], 0)",
    "m.nn.functional.softmin(x, 0)",
]


@pytest.mark.parametrize("case", COMPLEX_CASES)
def test_complex_inputs_refused_as_pytorch(case):
    """(the 18 calls that still differed: tests/test_complex_fidelity.py)"""
    def f(m):
        x = m.tensor([0.3 + 0.2j, -1.5 + 0.5j, 2.0 - 1.0j])
        y = m.tensor([0.5, 0.1, 1.5])
        eval(case, {"m": m, "x": x, "y": y})
        return "ok"
    same(f)
