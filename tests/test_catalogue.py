"""The op catalogue (issue 11) against PyTorch: which names exist where (torch.*, Tensor
methods, in-place methods, nn.functional), and how each op treats integer, bool and
mixed dtypes: the same result dtype and values, or the same error type and message.
Gradients, node names and double backward are in the generated tests (op_db.py).
"""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

UNARY = """log1p expm1 exp2 log2 log10 tan asin acos atan arcsin arccos arctan sinh cosh asinh
    acosh atanh arcsinh arccosh arctanh erf erfc erfinv lgamma digamma logit sinc trunc fix
    frac nan_to_num deg2rad rad2deg signbit sgn""".split()
BINARY = "atan2 arctan2 hypot logaddexp logaddexp2 xlogy copysign fmax fmin float_power".split()
ACTIVATIONS = """softplus silu gelu elu celu selu leaky_relu hardtanh relu6 hardsigmoid hardswish
    mish softsign logsigmoid glu tanhshrink softshrink hardshrink rrelu""".split()
ALL = UNARY + BINARY + ["lerp", "addcmul", "addcdiv", "polygamma", "threshold"] + ACTIVATIONS


@pytest.mark.parametrize("name", ALL)
def test_exposed_where_torch_exposes_it(name):
    for ns_t, ns_a, what in [(torch, autotensor, "torch"), (torch.Tensor, autotensor.Tensor,
                                                             "Tensor"),
                             (torch.nn.functional, autotensor.nn.functional, "F")]:
        for n in (name, name + "_"):
            assert hasattr(ns_a, n) == hasattr(ns_t, n), f"{what}.{n}"


_INPUTS = {
    "int64": np.array([[-2, 0, 1], [3, 1, -1]], dtype=np.int64),
    "int32": np.array([1, 2, 0], dtype=np.int32),
    "uint8": np.array([1, 2, 0], dtype=np.uint8),
    "bool": np.array([True, False, True]),
    "float32": np.array([0.25, -0.5, 0.75], dtype=np.float32),
    "float64": np.array([[0.25, -0.5, 0.75], [1.5, -2.5, 0.0]]),
    "float64_special": np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0]),
}


def _outcome(fn):
    try:
        out = fn()
    except Exception as e:  # noqa: BLE001  (the error is what is compared)
        return ("error", type(e).__name__, str(e).split("\n")[0])
    outs = out if isinstance(out, tuple) else (out,)
    return ("ok", [(str(o.dtype).rsplit(".", 1)[-1], tuple(o.shape),
                    np.asarray(o.detach().numpy(), dtype=np.float64) if o.dtype != torch.bool
                    else np.asarray(o.numpy())) for o in outs])


def _assert_same(a, t, what):
    assert a[0] == t[0], f"{what}: autotensor {a}, torch {t}"
    if a[0] == "error":
        assert a[1:] == t[1:], what
        return
    for (da, sa, va), (dt, st, vt) in zip(a[1], t[1], strict=True):
        assert (da, sa) == (dt, st), what
        np.testing.assert_allclose(va, vt, rtol=1e-5 if da in ("float32", "float16") else 1e-12,
                                   atol=1e-12, err_msg=what)


def _both(fn, *arrays):
    return (_outcome(lambda: fn(autotensor, *[autotensor.tensor(a) for a in arrays])),
            _outcome(lambda: fn(torch, *[torch.tensor(a) for a in arrays])))


def _call(m, name, *args, **kw):
    ns = m.nn.functional if name in ACTIVATIONS else m
    return getattr(ns, name)(*args, **kw)


@pytest.mark.parametrize("kind", list(_INPUTS))
@pytest.mark.parametrize("name", UNARY + ACTIVATIONS)
def test_unary_dtypes_and_errors_like_torch(name, kind):
    a, t = _both(lambda m, x: _call(m, name, x), _INPUTS[kind])
    _assert_same(a, t, f"{name}({kind})")


@pytest.mark.parametrize("kinds", [("int64", "int64"), ("int32", "float32"), ("bool", "bool"),
                                   ("float32", "float64"), ("float64", "int64"),
                                   ("uint8", "int32"), ("float64_special", "float64_special")])
@pytest.mark.parametrize("name", BINARY)
def test_binary_dtypes_and_errors_like_torch(name, kinds):
    x, y = (_INPUTS[k] for k in kinds)
    if x.shape != y.shape:
        y = np.resize(y, x.shape[-1:])
    a, t = _both(lambda m, p, q: getattr(m, name)(p, q), x, y)
    _assert_same(a, t, f"{name}{kinds}")


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("scalar", [2, 2.5, -1.0])
def test_binary_with_a_python_number_like_torch(name, scalar):
    x = _INPUTS["float32"]
    for fn in (lambda m, p: getattr(m, name)(p, scalar), lambda m, p: getattr(m, name)(scalar, p),
               lambda m, p: getattr(m.Tensor, name)(p, scalar)):
        a, t = _both(fn, x)
        _assert_same(a, t, f"{name} with {scalar!r}")


@pytest.mark.parametrize("kind", ["int64", "bool", "float32", "float64"])
@pytest.mark.parametrize("call", [
    lambda m, x: m.lerp(x, x, 0.5), lambda m, x: m.lerp(x, x * 2, x),
    lambda m, x: m.addcmul(x, x, x, value=2), lambda m, x: m.addcmul(x, x, x, value=0.5),
    lambda m, x: m.addcdiv(x, x, x + 5, value=2), lambda m, x: m.polygamma(1, x.abs() + 1),
    lambda m, x: m.polygamma(3, x.abs() + 1), lambda m, x: (x.abs() + 1).polygamma(0),
    lambda m, x: m.threshold(x, 0.5, 2), lambda m, x: m.logit(x, 0.1),
    lambda m, x: m.nan_to_num(x, 1.0, 2.0, -2.0), lambda m, x: m.nn.functional.glu(x, 0),
    lambda m, x: m.nn.functional.gelu(x, approximate="tanh"),
    lambda m, x: m.nn.functional.softplus(x, 2.0, 0.5),
    lambda m, x: m.nn.functional.hardtanh(x, -0.3, 0.4)], ids=lambda f: "")
def test_other_signatures_like_torch(call, kind):
    a, t = _both(call, _INPUTS[kind])
    _assert_same(a, t, kind)


@pytest.mark.parametrize("call", [
    lambda m, x: x.clone().log1p_(), lambda m, x: x.clone().atan2_(x * 2),
    lambda m, x: x.clone().trunc_(), lambda m, x: x.clone().lerp_(x * 3, 0.25),
    lambda m, x: x.clone().addcdiv_(x, x + 3), lambda m, x: x.clone().xlogy_(2.0),
    lambda m, x: x.clone().copysign_(-1.0), lambda m, x: x.clone().float_power_(2),
    lambda m, x: m.nn.functional.elu_(x.clone()), lambda m, x: m.selu_(x.clone())],
    ids=lambda f: "")
@pytest.mark.parametrize("kind", ["int64", "float32", "float64"])
def test_inplace_variants_like_torch(call, kind):
    a, t = _both(call, _INPUTS[kind])
    _assert_same(a, t, kind)


REDUCTIONS = """var std var_mean std_mean nansum nanmean cumprod logcumsumexp aminmax median
    nanmedian kthvalue cummax cummin count_nonzero diff""".split()


@pytest.mark.parametrize("name", REDUCTIONS)
def test_reductions_exposed_where_torch_exposes_them(name):
    test_exposed_where_torch_exposes_it(name)


@pytest.mark.parametrize("kind", ["int64", "bool", "float32", "float64", "float64_special"])
@pytest.mark.parametrize("call", [
    lambda m, x: m.var(x), lambda m, x: x.std(0), lambda m, x: m.var_mean(x, 0, keepdim=True),
    lambda m, x: m.std_mean(x, correction=0), lambda m, x: m.nansum(x),
    lambda m, x: x.nansum(0), lambda m, x: m.nanmean(x), lambda m, x: x.cumprod(0),
    lambda m, x: x.logcumsumexp(0), lambda m, x: m.aminmax(x), lambda m, x: x.aminmax(dim=0),
    lambda m, x: x.median(), lambda m, x: x.median(0), lambda m, x: m.nanmedian(x),
    lambda m, x: x.nanmedian(0), lambda m, x: x.kthvalue(1, 0), lambda m, x: x.cummax(0),
    lambda m, x: m.cummin(x, 0), lambda m, x: m.count_nonzero(x),
    lambda m, x: x.count_nonzero(0), lambda m, x: m.diff(x), lambda m, x: x.diff(2, 0)],
    ids=lambda f: "")
def test_reduction_dtypes_and_errors_like_torch(call, kind):
    a, t = _both(call, _INPUTS[kind])
    _assert_same(a, t, kind)
