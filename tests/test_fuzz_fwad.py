"""Forward-AD and gradient-layout classes the differential fuzzer found (issue 8, session
fwlevel4): each test runs the same program on PyTorch and on autotensor and compares values,
tangents, versions, graph node names and errors (tests/fuzz/OPEN_FINDINGS.md lists them).
"""
import math

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

INF, NAN = math.inf, math.nan


def _plain(x):
    """A comparable picture of a tensor (values with NaN as a string, so lists compare)."""
    if x is None:
        return None
    return [("nan" if v != v else v) for v in np.asarray(x.detach().tolist(), float).ravel()]


def _both(fn):
    out = []
    for lib in (torch, autotensor):
        out.append(fn(lib))
    assert out[1] == out[0]
    return out[0]


def _tangent(lib, f, primal, tangent, dtype="float32", requires_grad=False):
    fw = lib.autograd.forward_ad
    with fw.dual_level():
        p = lib.tensor(primal, dtype=getattr(lib, dtype), requires_grad=requires_grad)
        d = fw.make_dual(p, lib.tensor(tangent, dtype=getattr(lib, dtype)))
        t = fw.unpack_dual(f(lib, d)).tangent
        return _plain(t), t.requires_grad, type(t.grad_fn).__name__


# ---- diff(n=0): aten's zeros_like(self).copy_(self) -------------------------------------
@pytest.mark.parametrize("shape", [(0,), (0, 3), (2, 3)])
def test_diff_of_order_zero_is_a_copy(shape):
    """diff with n=0 is aten's zeros_like(self).copy_(self): version 1, CopyBackwards, the
    tangent copied, prepend/append checked but unused (the fuzzer: version 0 vs 1)."""
    def run(lib):
        fw = lib.autograd.forward_ad
        x = lib.ones(shape, requires_grad=True)
        y = x.diff(0, 0)
        z = x.diff(0, -1, prepend=lib.zeros(shape[:-1] + (1,)))
        with lib.no_grad():
            w = x.diff(0, 0)
        with fw.dual_level():
            d = fw.make_dual(lib.zeros(shape), lib.ones(shape))
            v = d.diff(0, 0)
            vt = fw.unpack_dual(v).tangent
            dual = (v._version, _plain(vt), vt is fw.unpack_dual(d).tangent)
        return (y is x, y._version, type(y.grad_fn).__name__, tuple(z.shape), z._version,
                w._version, w.requires_grad, dual)
    _both(run)


def test_diff_argument_checks():
    def run(lib):
        x = lib.ones(2, 3)
        msgs = []
        for kw in ({"n": -1}, {"n": 0, "prepend": lib.ones(3)},
                   {"n": 0, "dim": 0, "prepend": lib.ones(2, 2)},
                   {"n": 1, "dim": 5}, {"n": 1, "append": lib.ones(2, 2, 2)}):
            try:
                x.diff(**kw)
                msgs.append(None)
            except (RuntimeError, IndexError) as e:
                msgs.append((type(e).__name__, str(e)))
        msgs.append(tuple(x.diff(0, dim=5).shape))  # (no dim check for n=0)
        return msgs
    _both(run)


# ---- xlogy / xlog1py at self == 0, other <= 0 (-1) ----------------------------------------
XLOGY_CASES = [
    lambda lib, v: lib.relu(v).xlogy(v),                     # the fuzzer's program
    lambda lib, v: v.xlogy(lib.zeros(4)),
    lambda lib, v: lib.zeros(4).xlogy(v),
    lambda lib, v: v.xlogy(-1.0),
    lambda lib, v: v.xlogy(0.0),
    lambda lib, v: v.xlogy(2.0),
    lambda lib, v: lib.xlogy(0.0, v),
    lambda lib, v: lib.special.xlog1py(lib.relu(v + 1), v),
    lambda lib, v: lib.special.xlog1py(v, -1.0),
    lambda lib, v: lib.special.xlog1py(v, -2.0),
]


@pytest.mark.parametrize("case", range(len(XLOGY_CASES)))
def test_xlogy_masked_where_self_is_zero(case):
    """PyTorch's xlogy/xlog1py formulas are xlogy(grad, other) masked to 0 where self == 0
    and other <= 0 (<= -1): the tangent of relu(x).xlogy(x) at x < 0 is 0 (was NaN); the
    same for the gradient and the double-backward graph (MaskedFillBackward0)."""
    f = XLOGY_CASES[case]
    primal = [-1.0, -2.0, 0.0, 1.5]
    _both(lambda lib: _tangent(lib, f, primal, [1.0, 1.0, 1.0, 1.0], "float64"))

    def grads(lib):
        x = lib.tensor(primal, dtype=lib.float64, requires_grad=True)
        g, = lib.autograd.grad(f(lib, x).sum(), x, create_graph=True)
        return _plain(g), type(g.grad_fn).__name__
    _both(grads)


# ---- prod with zeros: PyTorch's prod_safe_zeros_backward ----------------------------------
@pytest.mark.parametrize("values", [[1.0, 0.0, 3.0, 2.0], [1.0, 0.0, 3.0, 0.0],
                                    [[1.0, 0.0], [3.0, 4.0]], [2.0, 3.0, 4.0]])
@pytest.mark.parametrize("call", ["prod()", "prod(0)", "prod(-1, True)"])
def test_prod_with_zeros(values, call):
    """With a zero, PyTorch's prod backward is the product of the others as exclusive
    cumulative products of the input (differentiable): the tangent of a dual requiring grad
    then needs grad, and the double backward has a graph (was a constant)."""
    def f(lib, x):
        return eval("x." + call)  # noqa: S307 -- the parametrized calls above

    def run(lib):
        x = lib.tensor(values, dtype=lib.float64, requires_grad=True)
        g, = lib.autograd.grad(f(lib, x).sum(), x, create_graph=True)
        gg = lib.autograd.grad(g.sum(), x, allow_unused=True)[0] if g.requires_grad else None
        return (_plain(g), type(g.grad_fn).__name__, _plain(gg),
                _tangent(lib, f, values, np.full(np.shape(values), 0.5).tolist(), "float64",
                         requires_grad=True))
    _both(run)


# ---- scans: logcumsumexp's eps, cumprod of a 0-d tensor -----------------------------------
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("primal,tangent", [
    ([1.764, INF], [0.5, 0.3]), ([1.764, 2.0], [0.5, INF]), ([-INF, 2.0, INF, INF],
     [0.5, 1.0, 2.0, 3.0]), ([-40.0, 0.0], [1.0, 1.0]), ([-INF, -INF], [1.0, 1.0]),
    ([NAN, 1.0], [1.0, 1.0]), (2.5, 1.5), (INF, 1.0)])
def test_logcumsumexp_tangent(dtype, primal, tangent):
    """PyTorch's logcumsumexp_jvp: cumsum(e * t) / (cumsum(e) + 1e-13), e = exp(x - max):
    [1.764, inf] has tangent [0, nan] (was [nan, nan]); the eps shows at x = -40 before 0."""
    _both(lambda lib: _tangent(lib, lambda lib, v: v.logcumsumexp(0), primal, tangent, dtype))


@pytest.mark.parametrize("x", [3.0, 0.0, -0.0, NAN, INF, 1e-40, 0.7])
def test_cumprod_of_a_0d_dual(x):
    """PyTorch's cumprod_jvp on a 0-d tensor is t / x * x, t where x is 0: NaN at a NaN or
    inf primal, inf at a float32 denormal (the fuzzer: log(-0.417).cumprod_(0), NaN vs
    -4.29)."""
    def run(lib):
        out = [_tangent(lib, lambda lib, v: v.cumprod(0), x, 1.789),
               _tangent(lib, lambda lib, v: v.clone().cumprod_(0), x, 1.789),
               _tangent(lib, lambda lib, v: v.cumprod(0), x, 1.789, requires_grad=True)]
        return out
    _both(run)


# ---- backward under a level through an aten backward op without a forward rule -------------
def _attempt(fn, *args):
    try:
        fn(*args)
        return "ok"
    except (NotImplementedError, RuntimeError) as e:
        return f"{type(e).__name__}: {e}"


BACKWARD_OPS = {
    "logit": lambda lib, x: x.logit(),
    "logit_eps": lambda lib, x: x.logit(1e-6),
    "silu": lambda lib, x: lib.nn.functional.silu(x),
    "mish": lambda lib, x: lib.nn.functional.mish(x),
    "hardsigmoid": lambda lib, x: lib.nn.functional.hardsigmoid(x),
    "huber_loss": lambda lib, x: lib.nn.functional.huber_loss(x, lib.zeros(4)),
    "soft_margin_loss": lambda lib, x: lib.nn.functional.soft_margin_loss(x, lib.ones(4)),
    "group_norm": lambda lib, x: lib.nn.functional.group_norm(x.reshape(1, 2, 2), 1),
    "gelu": lambda lib, x: lib.nn.functional.gelu(x),          # (has forward rules: no error)
    "softplus": lambda lib, x: lib.nn.functional.softplus(x),
    "hardswish": lambda lib, x: lib.nn.functional.hardswish(x),
    "logit_": lambda lib, x: x.clone().logit_(),
}


@pytest.mark.parametrize("name", sorted(BACKWARD_OPS))
def test_backward_under_a_level_through_ops_without_forward_rules(name):
    """PyTorch evaluates backward formulas on the saved dual tensors: where its formula is
    one aten op without a forward rule, backward() and autograd.grad raise "Trying to use
    forward AD with aten::logit_backward that does not support it." (logit, silu, mish and
    group_norm only without create_graph; hardsigmoid and huber_loss always), also when
    only the incoming gradient is dual (autograd.grad) and for the in-place op; after the
    level is closed, or with no dual input, nothing is refused."""
    f = BACKWARD_OPS[name]
    modes = ("backward", "grad", "grad_cg", "grad_dual_incoming", "level_closed")
    _both(lambda lib: [_attempt(_backward_case, lib, f, mode) for mode in modes])


def _backward_case(lib, f, mode):
    fw = lib.autograd.forward_ad
    with fw.dual_level():
        p = lib.tensor([0.3, -0.6, 0.2, 0.8], requires_grad=True)
        x = fw.make_dual(p, lib.tensor([1.0, 0.5, -1.0, 2.0]))
        if mode == "backward":
            f(lib, x).sum().backward()
        elif mode == "grad":
            lib.autograd.grad(f(lib, x).sum(), x)
        elif mode == "grad_cg":
            lib.autograd.grad(f(lib, x).sum(), x, create_graph=True)
        elif mode == "grad_dual_incoming":
            d = fw.make_dual(lib.ones(4), lib.ones(4))
            lib.autograd.grad((f(lib, p) * d).sum(), p)
        else:
            y = f(lib, x).sum()
    if mode == "level_closed":
        y.backward()


# ---- gradients that are views (Note [Gradients that are views] in autograd/engine.py) -----
GRAD_CASES = {
    "sum": lambda x: x.sum(),
    "sum_dim": lambda x: x.sum(0).sum(),
    "sum_times_2": lambda x: x.sum() * 2,
    "mean": lambda x: x.mean(),
    "mean_dim": lambda x: x.mean(-1).sum(),
    "exp_sum": lambda x: x.exp().sum(),
}


def _grad_picture(lib, f, shape, level):
    fw = lib.autograd.forward_ad
    x = lib.ones(shape, requires_grad=True)
    v = lib.ones(shape, requires_grad=True)
    with fw.dual_level():
        if level:
            x = fw.make_dual(x, lib.ones(shape))
        g, = lib.autograd.grad(f(x), [x])
        out = [g._is_view(), g._base is not None, tuple(g.stride()), g._version,
               g.requires_grad]
        for write in (lambda: g.__setitem__(Ellipsis, v), lambda: g.add_(1),
                      lambda: g.__setitem__(Ellipsis, 2.0)):
            out.append(_attempt(write))
    f(v).backward()
    out.append((v.grad._is_view(), tuple(v.grad.stride()), v.grad._version))
    return out


@pytest.mark.parametrize("level", [False, True])
@pytest.mark.parametrize("shape", [(1,), (2, 3)])
@pytest.mark.parametrize("case", sorted(GRAD_CASES))
def test_gradient_of_a_sum_is_a_no_grad_view(case, shape, level):
    """autograd.grad of a sum is the expand of the incoming gradient, made under no_grad:
    PyTorch returns it as a view (writing a value that requires grad into it raises "A view
    was created in no_grad mode and is being modified inplace with grad mode enabled...";
    the fuzzer: `v2[...] = v0` succeeded here), a mean's is a fresh division (grad.expand()
    / n, not an expanded quotient), and .grad is a copy."""
    _both(lambda lib: _grad_picture(lib, GRAD_CASES[case], shape, level))


# ---- float16 / bfloat16: PyTorch's float32 opmath (Note [Half scalars in float32]) ---------
HALF_EXPRS = ["x * c", "c * x", "x / c", "c / x", "x.clone().mul_(c)", "x.clone().div_(c)",
              "torch.mul(x, c)", "x + c", "x - c", "c - x"]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("c", [0.1, 0.6931471805599453, 2049, 1e-3, 7.3])
def test_half_times_a_python_number_is_computed_in_float32(dtype, c):
    """float16/bfloat16 mul and div by a Python number are PyTorch's float32 computation of
    the number as a float32, rounded once (NumPy rounded the number to float16 first: 33% of
    x * 0.1 over [-3, 3] were 1 ulp off); add/sub keep NumPy's (PyTorch's too). Bit for bit
    on 2,001 values (PyTorch's vector loop and scalar tail agree for these)."""
    xs = np.linspace(-3, 3, 2001)

    def run(lib):
        x = lib.tensor(xs).to(getattr(lib, dtype))
        return [_plain(eval(e, {"x": x, "c": c, "torch": lib}).float())  # noqa: S307
                for e in HALF_EXPRS]
    _both(run)


def test_half_add_with_alpha_is_nearly_float32():
    """x.add(y, alpha) of float16: PyTorch's a + alpha * b in float32 with alpha rounded to
    float16, one rounding (was two: 4-24% of elements 1 ulp off); PyTorch's scalar tail loop
    still differs for a few elements (at most 1%, by one ulp)."""
    xs = np.linspace(-3, 3, 2001)
    got = {}
    for lib in (torch, autotensor):
        x = lib.tensor(xs).to(lib.float16)
        got[lib] = np.array([np.asarray(x.add(x, alpha=a).float().tolist())
                             for a in (0.1, 0.6931471805599453, 7.3)])
    differ = got[torch] != got[autotensor]
    assert differ.mean(axis=1).max() <= 0.01
    assert np.all(np.abs(got[torch] - got[autotensor]) <= np.abs(got[torch]) * 2 ** -10)


@pytest.mark.parametrize("op", ["tanh", "exp2", "log2", "log10", "atanh", "erf", "erfc",
                                "logit", "tanhshrink", "deg2rad", "cumsum", "cumprod",
                                "softmax"])
def test_float16_tangents_bit_for_bit(op):
    """float16 tangents of these ops equal PyTorch's bit for bit on a grid (tanh_backward
    computes in float32 and rounds once; the formulas' constants are float32 opmath;
    scans and softmax accumulate in float32)."""
    xs = np.linspace(-2.3, 2.9, 61)
    ts = np.linspace(0.3, 1.7, 61)

    def f(lib, v):
        if op in ("log2", "log10"):
            v = v.abs() + 0.1
        elif op in ("atanh",):
            v = v * 0.4
        elif op == "logit":
            v = v.abs() * 0.3 + 0.05
        if op == "tanhshrink":
            return lib.nn.functional.tanhshrink(v)
        if op in ("cumsum", "cumprod", "softmax"):
            return getattr(v, op)(0)
        return getattr(v, op)()
    _both(lambda lib: _tangent(lib, f, xs.tolist(), ts.tolist(), "float16"))


# ---- the fuzzer's reproducers (`python -m tests.fuzz --dual 0.9`), run on both libraries ---
_LEVEL = "torch.autograd.forward_ad.enter_dual_level()"


def _dual(name, value, tangent, requires_grad=False):
    rg = ", requires_grad=True" if requires_grad else ""
    return [f"{name} = torch.tensor(np.array({value!r}, dtype='float32'){rg})",
            f"{name} = torch.autograd.forward_ad.make_dual({name}, torch.tensor("
            f"np.array({tangent!r}, dtype='float32')))"]


FWAD_FINDINGS = {
    "cumprod_ of a 0-d dual NaN (log of a negative)": [
        _LEVEL, *_dual("v0", -0.417, 1.789), "v1 = v0.log()", "v2 = v1.cumprod_(0)"],
    "diff(0, 0) of an empty dual: version 1": [
        _LEVEL, *_dual("v0", [], []), "v1 = v0.exp()", "v2 = v0.diff(0, 0)"],
    "checkpoint under a level: recomputation saves as the forward, tangents kept": [
        _LEVEL, *_dual("v0", 1.764, 1.624), *_dual("v1", 1.764, 1.624, True),
        "v2 = v0.exp()", "v3 = _ckpt(v1, False)",
        "v4 = torch.autograd.grad(v3, [v1], retain_graph=False, create_graph=False, "
        "allow_unused=False)[0]"],
    "logit backward under a level": [
        _LEVEL, *_dual("v0", [0.3, 0.6], [1.0, 0.5], True), "v1 = v0.logit()",
        "v2 = v1.sum()", "v2.backward()"],
    "relu(v0).xlogy(v0), v0 < 0": [
        _LEVEL, *_dual("v0", [-0.5, 0.0, 2.0], [1.0, 1.0, 1.0]),
        "v1 = torch.relu(v0).xlogy(v0)"],
    "special.i1 of a float16 dual: i1_backward has no Half kernel": [
        _LEVEL, "v1 = torch.tensor(np.array(1.763671875, dtype='float16'))",
        "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array(1.624, "
        "dtype='float16')))", "v2 = torch.special.i1(v1)", "v3 = torch.special.i1e(v1)"],
    "nan_to_num's tangent at inf: grad * isfinite(self) (-0.0)": [
        _LEVEL, *_dual("v1", [INF, 1.0], [-0.417, 2.0]), "v2 = v1.nan_to_num()"],
    "sum(0) of a 0-d -0.0 is +0.0": [
        _LEVEL, *_dual("v0", -0.417, 1.789), "v0.backward()", "v1 = v0 % v0",
        "v2 = v1.sum(0, keepdim=False)", "v3 = v1.mean(0)"],
    "index by a mask frees its indices: backward twice raises": [
        _LEVEL, *_dual("v0", 1.764, 1.624, True), "v1 = v0.exp()", "v3 = v0[v0 > 0]",
        "v3.sum().backward()", "v3.sum().backward()"],
    "nansum of a 0-d NaN primal: its NaN tangent counts 0": [
        _LEVEL, *_dual("v0", 1.764, 1.624), "v2 = v0.asin()", "v3 = v2.nansum(0)",
        "v4 = v2.reshape(1).nansum(0)"],
    "prod over a dim of size 1 with a zero: the tangent reads no input": [
        _LEVEL, *_dual("v1", [0.0], [1.624], True), "v2 = v1.prod(0)", "v3 = v1.prod()"],
    "a sum's gradient under a level is a no-grad view": [
        _LEVEL, *_dual("v0", [1.5], [1.0], True),
        "v2 = torch.autograd.grad(v0.sum(), [v0])[0]", "v2[...] = v0"],
    # stop 20
    "a hook's gradient under a level has a tangent but no graph": [
        _LEVEL, *_dual("v0", 1.764, 1.624, True), "v1 = v0.exp()",
        "v0.register_hook(lambda g: _log.append(('v0', _c([g]))))",
        "v3 = torch.autograd.grad(v1, [v0], retain_graph=False, create_graph=False, "
        "allow_unused=False)[0]"],
    "var without degrees of freedom: a float32 gradient (a default-dtype mask)": [
        _LEVEL, *_dual("v0", 1.764, 1.624, True),
        "v0.register_hook(lambda g: _log.append(('v0', _c([g]))))",
        "v1 = v0.var(0, keepdim=False)", "v1.backward()",
        "v2 = torch.tensor(np.array([1.5], dtype='float32'), requires_grad=True)",
        "v2.register_hook(lambda g: _log.append(('v2', _c([g]))))", "v2.std().backward()"],
    "bool @ float of an empty batch: computed, with a zero tangent": [
        _LEVEL, "v2 = torch.autograd.forward_ad.make_dual(torch.zeros(0, 0, 0), "
        "torch.zeros(0, 0, 0))", "v4 = v2.logical_not()", "v6 = v4 @ v2",
        "v7 = torch.autograd.forward_ad.make_dual(torch.zeros(2, 0, 3), torch.zeros(2, 0, 3))",
        "v8 = torch.zeros(2, 3, 0, dtype=torch.bool) @ v7",
        "v9 = torch.zeros(2, 3, 0, dtype=torch.float64) @ v7"],
    "a no_grad view's view, base modified: the message names the view": [
        _LEVEL, *_dual("v0", 1.764, 1.624, True), "v1 = v0.exp()",
        "with torch.no_grad():\n    v3 = v1.view_as(v1); v3.retain_grad()",
        "v4 = v3.transpose(0, 0)", "v1.add_(v0)"],
    "float16 logsumexp's tangent: PyTorch's steps, each rounded to half": [
        _LEVEL, "v1 = torch.tensor(np.array([1.763671875, 0.39990234375], dtype='float16'))",
        "v1 = torch.autograd.forward_ad.make_dual(v1, torch.tensor(np.array([1.624, -0.612], "
        "dtype='float16')))", "v2 = v1.logsumexp(0, keepdim=False)", *_dual("v0", 1.764, 1.624),
        "v3 = v0.add(v2)"],
    "median of a NaN (an empty input's median): evenly_read_jvp divides by 0": [
        _LEVEL, *_dual("v0", [], []), "v1 = v0.median()", "v2 = v1.median()",
        "v3 = v1.max()", "v4 = v1.nanmedian()",
        *_dual("v5", [1.0, float("nan"), 2.0], [1.0, 2.0, 3.0]), "v6 = v5.max()",
        "v7 = v5.min()"],
    "amax/amin's tangent ignores the unselected (inf, NaN) tangents": [
        _LEVEL, *_dual("v0", [1.624, 0.0], [-0.417, -0.056]), "v1 = v0.rsqrt()",
        "v2 = v1.amin(0, keepdim=False)", "v3 = (v0 * float('inf')).amax(0)",
        "v4 = v1.aminmax()", "v5 = v1.amin()"],
    "mvlgamma's gradient graph: Sum(Digamma(Add(Unsqueeze)))": [
        _LEVEL, *_dual("v1", 1.764, 1.624, True), "v4 = v1.mvlgamma(2)",
        "v5 = torch.autograd.grad(v4, [v1], retain_graph=False, create_graph=True, "
        "allow_unused=False)[0]"],
    "where's tangent: one where() (a selected -0.0 stays), in where()'s dtype": [
        _LEVEL, *_dual("v0", 1.624, -0.417), "v1 = 1 ** v0",
        "v2 = torch.where(v1 > 0, v1, v0)",
        "v3 = torch.autograd.forward_ad.make_dual(torch.ones(2, dtype=torch.bfloat16), "
        "torch.ones(2, dtype=torch.bfloat16))", "v4 = torch.where(v3 > 0, v3, v0)",
        "v5 = torch.where(v3 > 0, v3.detach(), v0)"],
    "sum(0)/mean(0) of a 0-d tensor is a 0-d array (in place writable), not a NumPy scalar": [
        _LEVEL, *_dual("v0", 1.764, 1.624), "v1 = v0.sum(0, keepdim=False)",
        "v2 = _Dirty.apply(v1)", "v3 = v0.mean(0)", "v4 = v3.mul_(2)"],
    "mode with NaNs: std::sort's order decides (NaN compares false)": [
        _LEVEL, *_dual("v0", [[-0.417, -0.056], [-2.136, 1.64]], [[1.789, 0.437], [0.096, -1.863]]),
        "v2 = v0.log()", "v11 = v2.mode(0, keepdim=False)[0]",
        "v12 = torch.tensor([2.0, float('nan'), 1.0, 2.0, float('nan')]).mode()",
        "v13 = torch.tensor([float('nan')] * 3 + [1.0, 0.0, 1.0] * 6).mode()"],
    "mvlgamma/masked_fill/masked_scatter of a transposed dual are contiguous, as PyTorch's": [
        _LEVEL, "v0 = torch.tensor(np.array([[1.764, 0.979], [0.4, 2.241]], dtype='float32'))"
        ".transpose(0, 1).detach()",
        "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[1.624, -0.612], "
        "[-0.528, -1.073]], dtype='float32')))", "v2 = v0.mvlgamma(1)", "v3 = v2.view(-1)",
        "v4 = v0.mvlgamma(2).view(-1)", "v5 = v0.sum().mvlgamma(2)",
        "v6 = v0.masked_fill(v0 > 0, 0).view(-1)", "v7 = v0.sum().masked_fill(v0.sum() > 0, 0)",
        "v8 = v0.detach().masked_scatter(v0 > 1, torch.ones(4)).view(-1)"],
    "a custom Function's view, base modified through a detached alias": [
        _LEVEL, *_dual("v0", 1.764, 1.624), "v2 = v0.detach().requires_grad_()",
        "v3 = _View.apply(v2)", "v4 = v0.exp_()"],
}


@pytest.mark.parametrize("name", sorted(FWAD_FINDINGS))
def test_fwad_fuzz_finding(name):
    from tests.fuzz.core import run_and_compare
    run_and_compare(FWAD_FINDINGS[name])


@pytest.mark.parametrize("xs", [[1.764, INF], [-INF, 2.0, INF, INF], [-40.0, 0.0], [3.0],
                                [-INF, -INF], [NAN, 1.0], [1000.0, -1000.0, 3.0]])
def test_logcumsumexp_backward_at_infinities(xs):
    """PyTorch's logcumsumexp_backward works in log space on the positive and negative parts
    of the gradient (a reverse logcumsumexp): [1.764, inf] gets [1, nan] (ours was [nan,
    nan]); float64, where the two agree to rounding."""
    def run(lib):
        x = lib.tensor(xs, dtype=lib.float64, requires_grad=True)
        g = lib.tensor([1.0, -2.0, 0.5, 0.0][:len(xs)], dtype=lib.float64)
        out, = lib.autograd.grad(x.logcumsumexp(0), x, g)
        return [v if isinstance(v, str) else round(v, 12) for v in _plain(out)]
    _both(run)


@pytest.mark.parametrize("call", ["v[torch.tensor([1, 0])]", "v[[1, 0]]", "v[v > 0]",
                                  "v.index_put((torch.tensor([1]),), v[:1])", "v[1:]"])
def test_advanced_indexing_frees_its_indices(call):
    """IndexBackward0 and IndexPutBackward0 save the index tensors, which backward frees:
    a second backward raises PyTorch's "Trying to backward through the graph a second time"
    (a basic slice saves none: it runs twice)."""
    def run(lib):
        v = lib.tensor([1.0, -2.0], requires_grad=True)
        y = eval(call, {"v": v, "torch": lib})  # noqa: S307 -- the parametrized calls
        y.sum().backward()
        return _attempt(lambda: y.sum().backward())[:60]
    _both(run)
