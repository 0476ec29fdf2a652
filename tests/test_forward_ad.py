"""Forward-mode AD: generated over the op table (every sample's JVP against PyTorch's
forward AD, float64 central differences, and the dot test <u, J v> = <J^T u, v>); every
table entry has a rule; dual-tensor API and errors; views and in-place ops; forward-over-
reverse and reverse-over-forward."""
import numpy as np
import pytest

import autotensor
from autotensor._ops import FAMILIES
from autotensor._ops.dispatch import OpDef
from differential import catch, compare
from op_db import SAMPLES

OPS = [v for m in FAMILIES for v in vars(m).values() if isinstance(v, OpDef)]
DIFF_SAMPLES = [s for s in SAMPLES if any(s.requires_grad())]


def test_every_op_has_a_forward_rule():
    missing = [op for op in OPS if op.jvp is None]
    assert not missing, f"ops without a forward-mode rule: {missing}"


def _tangents(sample):
    rng = np.random.default_rng(sum(map(ord, sample.name)) + 17)
    return [rng.standard_normal(np.shape(a)) if rg else None
            for a, rg in zip(sample.args, sample.requires_grad(), strict=True)]


def _primals(m, sample):
    """The sample's inputs as tensors of module m, none requiring grad."""
    return [t.detach() for t in sample.make_inputs(m)]


def _flat(out):
    return list(out) if isinstance(out, (tuple, list)) else [out]


def _run_dual(m, sample, tangents):
    fw = m.autograd.forward_ad
    with fw.dual_level():
        duals = [x if v is None else fw.make_dual(x, m.tensor(v))
                 for x, v in zip(_primals(m, sample), tangents, strict=True)]
        outs = _flat(sample(m, *duals))
        res = []
        for o in outs:
            p, t = fw.unpack_dual(o)
            res.append((p.detach().numpy().copy(), None if t is None else
                        (str(t.dtype).rsplit(".", 1)[-1], t.detach().numpy().copy())))
    return res


def _run_dual_supported(sample, tangents):
    """The sample's tangents, or None for an op PyTorch gives no forward rule (we raise its
    error there; test_jvp_vs_torch compares the errors)."""
    try:
        return _run_dual(autotensor, sample, tangents)
    except NotImplementedError as e:
        if str(e).startswith("Trying to use forward AD with"):
            return None
        raise


# PyTorch's own forward formula loses the values here, and ours is PyTorch's (compared with
# it, not with central differences or the dot test): logcumsumexp_jvp divides by
# cumsum(exp(x - max)) + 1e-13, so at x ~ 40 below the maximum the tangent of the first
# element is 1.7e-06 for a tangent of 1.4 (the eps also gives 0, not NaN, before an inf).
FORWARD_AS_TORCH_NOT_EXACT = {"logcumsumexp_large"}
TORCH_FORWARD_INACCURATE = set()
# PyTorch 2.13 gives scatter_reduce(reduce="prod") no tangent at all (undefined in its
# scatter_reduce_jvp); ours is checked against central differences and the dot test.
TORCH_FORWARD_INACCURATE |= {"scatter_reduce_prod_self", "scatter_reduce_prod_noself",
                             "scatter_reduce_prod_zero"}
# torch.triangular_solve's forward formula uses the whole tangent of A (it reads one
# triangle) and cholesky_inverse's disagrees with central differences by ~5e-2 (checked
# with torch's own forward AD against (f(x + eps t) - f(x - eps t)) / 2 eps); ours pass the
# central-difference and dot tests.
TORCH_FORWARD_INACCURATE |= {"la_triangular_solve", "la_triangular_solve_lower_t_unit",
                             "la_triangular_solve_solution", "la_cholesky_inverse",
                             "la_cholesky_inverse_upper"}


@pytest.mark.parametrize("sample", [s for s in DIFF_SAMPLES
                                    if s.name not in TORCH_FORWARD_INACCURATE], ids=repr)
def test_jvp_vs_torch(sample):
    torch = pytest.importorskip("torch")
    tangents = _tangents(sample)
    want = catch(_run_dual, torch, sample, tangents)
    if not isinstance(want, list):  # PyTorch has no forward rule: the same error
        assert catch(_run_dual, autotensor, sample, tangents) == want
        return
    got = _run_dual(autotensor, sample, tangents)
    assert len(got) == len(want)
    for i, ((gp, gt), (wp, wt)) in enumerate(zip(got, want, strict=True)):
        np.testing.assert_allclose(gp, wp, rtol=1e-10, atol=1e-12, err_msg=f"primal {i}")
        assert (gt is None) == (wt is None), f"output {i}: tangent {gt} vs torch's {wt}"
        if gt is None:
            continue
        assert gt[0] == wt[0], f"output {i}: tangent dtype {gt[0]} != torch's {wt[0]}"
        assert gt[1].shape == wt[1].shape, f"output {i}: tangent shape"
        np.testing.assert_allclose(gt[1], wt[1], rtol=1e-10, atol=1e-12,
                                   err_msg=f"tangent of output {i}")


@pytest.mark.parametrize("sample", [s for s in DIFF_SAMPLES if not s.kink and
                                    s.name not in FORWARD_AS_TORCH_NOT_EXACT], ids=repr)
def test_jvp_vs_central_differences(sample):
    tangents = _tangents(sample)
    got = _run_dual_supported(sample, tangents)
    if got is None:
        return
    lossy = bool(sample.gradcheck_kwargs)  # goes through float32: coarser differences
    eps = 1e-3 if lossy else 1e-6

    def f(sign):
        xs = [autotensor.tensor(np.asarray(np.asarray(a, dtype=np.float64) + sign * eps * v))
              if v is not None else x
              for a, v, x in zip(sample.args, tangents, _primals(autotensor, sample))]
        return [o.detach().numpy() for o in _flat(sample(autotensor, *xs))]

    plus, minus = f(1), f(-1)
    for i, ((_, gt), p, q) in enumerate(zip(got, plus, minus, strict=True)):
        if p.dtype.kind != "f":
            assert gt is None, f"output {i} is not floating: no tangent"
            continue
        num = (p.astype(np.float64) - q) / (2 * eps)
        have = np.zeros_like(num) if gt is None else gt[1]
        tol = 1e-3 if lossy else 1e-5
        np.testing.assert_allclose(have, num, rtol=tol, atol=tol,
                                   err_msg=f"tangent of output {i}")


@pytest.mark.parametrize("sample", [s for s in DIFF_SAMPLES if not s.kink and
                                    s.name not in FORWARD_AS_TORCH_NOT_EXACT], ids=repr)
def test_dot_jvp_vjp(sample):
    """<u, J v> (forward mode) equals <J^T u, v> (reverse mode)."""
    tangents = _tangents(sample)
    got = _run_dual_supported(sample, tangents)
    if got is None:
        return
    inputs = sample.make_inputs(autotensor)
    outs = _flat(sample(autotensor, *inputs))
    rng = np.random.default_rng(3)
    diff = [(o, rng.standard_normal(tuple(o.shape))) for o in outs if o.requires_grad]
    if not diff:
        return
    diff_in = [(x, v) for x, v in zip(inputs, tangents, strict=True) if v is not None]
    grads = autotensor.autograd.grad([o for o, _ in diff],
                                     [x for x, _ in diff_in],
                                     [autotensor.tensor(u).to(o.dtype) for o, u in diff],
                                     allow_unused=True)
    rhs = sum(float((g.numpy() * v).sum()) for g, (_, v) in zip(grads, diff_in)
              if g is not None)
    lhs = 0.0
    k = 0
    for o, (_, gt) in zip(outs, got, strict=True):
        if o.requires_grad:
            if gt is not None:
                lhs += float((gt[1] * diff[k][1]).sum())
            k += 1
    lossy = bool(sample.gradcheck_kwargs)  # goes through float32
    np.testing.assert_allclose(lhs, rhs, rtol=1e-5 if lossy else 1e-8, atol=1e-10)


# ---- the dual-tensor API, against PyTorch ----------------------------------------------------
X = np.array([1.0, 2.0, 3.0])
T = np.array([0.5, 0.25, -1.0])
M = np.arange(6.0).reshape(2, 3) / 4 + 0.5
TM = np.linspace(-1, 1, 6).reshape(2, 3)


def _t(m, a, **kw):
    return m.tensor(a, dtype=m.float64, **kw)


def _tangent(m, t):
    return m.autograd.forward_ad.unpack_dual(t).tangent


def test_api_errors_vs_torch():
    def scenario(torch):
        fw = torch.autograd.forward_ad
        x, t = _t(torch, X), _t(torch, T)
        out = [catch(fw.make_dual, x, t), catch(fw.exit_dual_level)]
        with fw.dual_level():
            out += [catch(fw.enter_dual_level),
                    catch(fw.make_dual, x, _t(torch, M)),
                    catch(fw.make_dual, x, torch.ones(3, dtype=torch.int64)),
                    catch(fw.make_dual, torch.tensor([1, 2, 3]), t),
                    catch(fw.make_dual, x, t, level=3)]
            d = fw.make_dual(x, t)
            out += [catch(fw.make_dual, d, t), catch(fw.unpack_dual, d, level=3),
                    catch(fw.exit_dual_level, level=4)]
        out.append(fw.enter_dual_level())
        fw.exit_dual_level()
        return out

    compare(scenario)


def test_dual_tensors_vs_torch():
    def scenario(torch):
        fw = torch.autograd.forward_ad
        x, t = _t(torch, X), _t(torch, T)
        with fw.dual_level():
            d = fw.make_dual(x, t)
            p, tt = fw.unpack_dual(d)
            up = fw.unpack_dual(x)
            alt = fw.make_dual(_t(torch, M), _t(torch, TM.T).t())  # layout unlike the primal
            res = [d, p, tt, tt is t, p._base is x, d._base is x, up.tangent, up.primal is x,
                   type(fw.unpack_dual(d)).__name__, fw.unpack_dual(d)._fields,
                   _tangent(torch, alt).stride(), repr(d), repr(d * 2), str(d.exp())]
            y = d.exp().detach()
            res += [_tangent(torch, y), _tangent(torch, d.sum())]
            keep = d * 3
        res += [_tangent(torch, keep), repr(keep), _tangent(torch, d)]
        return res

    compare(scenario, rtol=1e-12, atol=1e-12)


def test_views_and_inplace_vs_torch():
    def scenario(torch):
        fw = torch.autograd.forward_ad
        x, t = _t(torch, M), _t(torch, TM)
        res = []
        with fw.dual_level():
            d = fw.make_dual(x.clone(), t)
            v = d[0]
            res += [_tangent(torch, v), _tangent(torch, v)._base is t,
                    _tangent(torch, d.t())._base is t, _tangent(torch, d.view(3, 2)),
                    [_tangent(torch, s) for s in d.split(1, 1)],
                    _tangent(torch, d.unbind(0)[1]), _tangent(torch, d.diagonal())]
            d.mul_(2)                      # the tangent is updated in place
            res += [t.clone(), _tangent(torch, d)]
            d[1].mul_(3)                   # in place on a view: the base's tangent changes
            res += [t.clone(), _tangent(torch, d)]
            d.exp_()
            res += [_tangent(torch, d)]
            y = torch.zeros(3, 4, dtype=torch.float64)
            y[1:, 1:].copy_(d)             # a plain base gets a tangent through its view
            res += [_tangent(torch, y), _tangent(torch, y[0])]
            z = torch.ones(2, 3, dtype=torch.float64)
            z.add_(d)
            res += [_tangent(torch, z)]
            z.copy_(x)                     # overwritten by a value without a tangent
            res += [_tangent(torch, z)]
            w = fw.make_dual(x.clone(), t.clone())
            w.zero_()
            res += [_tangent(torch, w)]
            u = fw.make_dual(x.clone(), t.clone())
            u.detach().mul_(2)            # detach shares memory but not the tangent
            res += [u, _tangent(torch, u)]
        return res

    compare(scenario, rtol=1e-12, atol=1e-12)


def test_forward_over_reverse_and_reverse_over_forward_vs_torch():
    """The seed's closing paragraph: Hessian-vector products without the Hessian."""
    def scenario(torch):
        fw = torch.autograd.forward_ad

        def f(x):
            return (x.sin() * x.exp()).sum() + (x @ x) ** 2

        x, v = _t(torch, X, requires_grad=True), _t(torch, T)
        with fw.dual_level():
            d = fw.make_dual(x, v)
            g, = torch.autograd.grad(f(d), d, create_graph=True)
            hvp = _tangent(torch, g)                    # forward-over-reverse: H v
            out = fw.make_dual(x, v).tanh() * x
            jv = _tangent(torch, out)
            rof, = torch.autograd.grad(jv.sum(), x)     # reverse-over-forward
            d2 = fw.make_dual(x, v)
            g2, = torch.autograd.grad(f(d2), d2)       # without create_graph too
            plain = (_tangent(torch, g2), g2.requires_grad)
        h = torch.autograd.functional.hessian(f, x.detach())
        return hvp, h @ v, rof, g.detach(), plain

    compare(scenario, rtol=1e-10, atol=1e-12)


def test_custom_function_jvp_vs_torch():
    def scenario(torch):
        fw = torch.autograd.forward_ad

        class Exp(torch.autograd.Function):
            @staticmethod
            def forward(ctx, foo):
                result = torch.exp(foo)
                ctx.result = result
                return result

            @staticmethod
            def jvp(ctx, gI):
                gO = gI * ctx.result
                del ctx.result
                return gO

        class Mul(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                ctx.save_for_forward(a, b)
                return a * b, a + b

            @staticmethod
            def jvp(ctx, ta, tb):
                a, b = ctx.saved_tensors
                return ta * b + a * tb, ta + tb

        class NoJvp(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2

        x, t = _t(torch, X), _t(torch, T)
        with fw.dual_level():
            d = fw.make_dual(x, t)
            e = Exp.apply(d)
            p, s = Mul.apply(d, x)
            return (e, _tangent(torch, e), _tangent(torch, p), _tangent(torch, s),
                    catch(NoJvp.apply, d), _tangent(torch, NoJvp.apply(x)))

    compare(scenario, rtol=1e-12, atol=1e-12)


def test_gradcheck_forward_ad():
    gradcheck = autotensor.autograd.gradcheck
    x = autotensor.tensor(M, requires_grad=True)
    assert gradcheck(lambda a: (a.sin() * a).softmax(1), (x,), check_forward_ad=True)

    class Bad(autotensor.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

        @staticmethod
        def jvp(ctx, t):
            return t * 3

    with pytest.raises(autotensor.autograd.GradcheckError,
                       match="Jacobian computed with forward mode mismatch for output 0 with "
                             "respect to input 0"):
        gradcheck(Bad.apply, (x,), check_forward_ad=True, check_backward_ad=False,
                  check_undefined_grad=False)
    assert not gradcheck(Bad.apply, (x,), check_forward_ad=True, raise_exception=False)
    assert gradcheck(Bad.apply, (x,))  # the backward alone is right


# ---- programs: PyTorch's forward-AD tutorial and the seed's worked example ------------------
# PyTorch's tutorial "Forward-mode Automatic Differentiation" (intermediate/forward_ad_usage),
# its code unchanged (comments dropped; functorch included: ``import functorch`` resolves to
# autotensor.functorch), with prints of what it computes added (the lines marked "added").
TUTORIAL = '''
import torch
import torch.autograd.forward_ad as fwAD

primal = torch.randn(10, 10)
tangent = torch.randn(10, 10)

def fn(x, y):
    return x ** 2 + y ** 2

with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    assert fwAD.unpack_dual(dual_input).tangent is tangent

    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    assert fwAD.unpack_dual(dual_input_alt).tangent is not tangent

    plain_tensor = torch.randn(10, 10)
    dual_output = fn(dual_input, plain_tensor)

    jvp = fwAD.unpack_dual(dual_output).tangent

assert fwAD.unpack_dual(dual_output).tangent is None
print(jvp[:2, :4])  # added

import torch.nn as nn

model = nn.Linear(5, 5)
input = torch.randn(16, 5)

params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}

with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))

    out = model(input)
    jvp = fwAD.unpack_dual(out).tangent
print(jvp[:2])  # added

from torch.func import functional_call

model = nn.Linear(5, 5)

dual_params = {}
with fwAD.dual_level():
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out = functional_call(model, dual_params, input)
    jvp2 = fwAD.unpack_dual(out).tangent

assert torch.allclose(jvp, jvp2)

class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result

    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        del ctx.result
        return gO

fn = Fn.apply

primal = torch.randn(10, 10, dtype=torch.double, requires_grad=True)
tangent = torch.randn(10, 10)

with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input)
    jvp = fwAD.unpack_dual(dual_output).tangent
print(jvp[0, :4])  # added

torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True,
                         check_backward_ad=False, check_undefined_grad=False,
                         check_batched_grad=False)

import functorch as ft

primal0 = torch.randn(10, 10)
tangent0 = torch.randn(10, 10)
primal1 = torch.randn(10, 10)
tangent1 = torch.randn(10, 10)

def fn(x, y):
    return x ** 2 + y ** 2

primal_out, tangent_out = ft.jvp(fn, (primal0, primal1), (tangent0, tangent1))
print(tangent_out[0, :4])  # added

primal = torch.randn(10, 10)
tangent = torch.randn(10, 10)
y = torch.randn(10, 10)

import functools
new_fn = functools.partial(fn, y=y)
primal_out, tangent_out = ft.jvp(new_fn, (primal,), (tangent,))
print(primal_out[0, :3], tangent_out[0, :3])  # added

model = nn.Linear(5, 5)
input = torch.randn(16, 5)
tangents = tuple([torch.rand_like(p) for p in model.parameters()])

func, params, buffers = ft.make_functional_with_buffers(model)

def func_params_only(params):
    return func(params, buffers, input)

model_output, jvp_out = ft.jvp(func_params_only, (params,), (tangents,))
print(jvp_out[:2])  # added
print(func, [type(p).__name__ for p in params], buffers)  # added
'''

# Seed 004's worked example: u = x1 x2, v = sin u, y = v + x2, pushed forward along
# (1, 0) (dy/dx1) and (0, 1) (dy/dx2), and a Hessian-vector product by forward-over-reverse.
SEED_004 = '''
import torch
import torch.autograd.forward_ad as fwAD

x1 = torch.tensor(1.5, dtype=torch.float64)
x2 = torch.tensor(-0.5, dtype=torch.float64)
for d1, d2 in ((1.0, 0.0), (0.0, 1.0)):
    with fwAD.dual_level():
        a = fwAD.make_dual(x1, torch.tensor(d1, dtype=torch.float64))
        b = fwAD.make_dual(x2, torch.tensor(d2, dtype=torch.float64))
        u = a * b
        v = torch.sin(u)
        y = v + b
        print(fwAD.unpack_dual(y).tangent.item())
print((x2 * torch.cos(x1 * x2)).item(), (x1 * torch.cos(x1 * x2) + 1).item())

w = torch.randn(4, dtype=torch.float64, requires_grad=True)
vec = torch.randn(4, dtype=torch.float64)
with fwAD.dual_level():
    wd = fwAD.make_dual(w, vec)
    loss = (torch.tanh(wd) ** 2).sum() + wd.prod()
    grad, = torch.autograd.grad(loss, wd, create_graph=True)
    print(fwAD.unpack_dual(grad).tangent)
print(torch.autograd.functional.hvp(lambda t: (torch.tanh(t) ** 2).sum() + t.prod(), w, vec)[1])
'''


@pytest.mark.parametrize("program", [TUTORIAL, SEED_004], ids=["tutorial", "seed004"])
def test_program_prints_what_torch_prints(program):
    import contextlib
    import io
    import re

    from autotensor.examples import seeds
    torch = pytest.importorskip("torch")

    def run(module):
        out = io.StringIO()
        ns = seeds._fresh_namespace(module)
        module.manual_seed(0)
        with contextlib.redirect_stdout(out):
            exec(compile(program, "<program>", "exec"), ns)
        return out.getvalue()

    got, want = run(autotensor), run(torch)
    num = re.compile(r"-?\d+\.\d+(e[+-]\d+)?")
    assert num.sub("#", got) == num.sub("#", want), f"autotensor:\n{got}\ntorch:\n{want}"
    ga = [float(m.group()) for m in num.finditer(got)]
    gb = [float(m.group()) for m in num.finditer(want)]
    np.testing.assert_allclose(ga, gb, rtol=1e-3, atol=2e-4)


def test_multi_output_nn_ops_carry_tangents_without_grad_vs_torch():
    """max_pool2d, batch_norm and layer_norm (several outputs) give tangents when nothing
    requires grad, as every other op does."""
    def scenario(torch):
        fw, F = torch.autograd.forward_ad, torch.nn.functional
        rng = np.random.default_rng(5)
        x = torch.tensor(rng.standard_normal((2, 3, 4, 4)))
        v = torch.tensor(rng.standard_normal((2, 3, 4, 4)))
        w = _t(torch, [1.5, 2.0, -1.0])
        b = _t(torch, [0.1, 0.2, 0.3])
        rm, rv = torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)
        res = []
        with fw.dual_level():
            d = fw.make_dual(x, v)
            dw = fw.make_dual(w, _t(torch, [0.3, -0.2, 0.5]))
            outs = [F.max_pool2d(d, 2), F.max_pool2d(d, 2, return_indices=True)[0],
                    F.batch_norm(d, None, None, training=True),
                    F.batch_norm(d, rm, rv, training=False),
                    F.batch_norm(x, None, None, dw, b, training=True),
                    F.layer_norm(d, (4,)), F.layer_norm(d, (4, 4), dw[:1].expand(4, 4)),
                    F.layer_norm(x, (4, 4))]
            for o in outs:
                t = _tangent(torch, o)
                res.append(None if t is None else (t, t.requires_grad))
        return res

    compare(scenario, rtol=1e-10, atol=1e-12)


# ---- whether a tangent is differentiable, as PyTorch's formulas make it ------------------
def _tangent_grad_state(m, sample, mode):
    """Per output: None (no tangent) or tangent.requires_grad; mode "p":
    the primals require grad, "t": the tangents do, "pt": both."""
    fw = m.autograd.forward_ad
    rng = np.random.default_rng(0)
    with fw.dual_level():
        xs = []
        for a, rg in zip(sample.args, sample.requires_grad(), strict=True):
            x = m.tensor(np.asarray(a))
            if rg:
                if "p" in mode:
                    x.requires_grad_()
                t = m.tensor(rng.standard_normal(np.shape(a)))
                if "t" in mode:
                    t.requires_grad_()
                x = fw.make_dual(x, t)
            xs.append(x)
        res = []
        for o in _flat(sample(m, *xs)):
            t = fw.unpack_dual(o).tangent if isinstance(o, m.Tensor) else None
            res.append(None if t is None else t.requires_grad)
    return res


@pytest.mark.parametrize("sample", [s for s in DIFF_SAMPLES
                                    if s.name not in TORCH_FORWARD_INACCURATE], ids=repr)
def test_tangent_requires_grad_vs_torch(sample):
    """A tangent requires grad exactly when PyTorch's does: when its tangents do, or when
    its formula reads a primal that does (the zero terms of inputs without a tangent, the
    activation backward ops, in-place results included)."""
    torch = pytest.importorskip("torch")
    for mode in ("p", "t", "pt"):
        want = catch(_tangent_grad_state, torch, sample, mode)
        if not isinstance(want, list):
            continue  # no forward rule in PyTorch (test_jvp_vs_torch compares the error)
        assert _tangent_grad_state(autotensor, sample, mode) == want, mode


def test_activation_double_backward_vs_torch():
    """Activation gradients are PyTorch's ops (threshold_backward, ...): a backward recorded
    with create_graph reads self (zero second derivative), hardsigmoid's has none, and
    relu passes the gradient where its result is NaN."""
    def scenario(torch):
        F = torch.nn.functional
        fns = [F.relu, F.leaky_relu, F.hardtanh, F.relu6, F.softshrink, F.hardshrink,
               lambda t: F.threshold(t, 0.1, 2.0), lambda t: F.rrelu(t, training=False),
               F.hardsigmoid, lambda t: F.leaky_relu(t.clone(), 0.2, inplace=True),
               lambda t: F.threshold(t.clone(), 0.1, 2.0, inplace=True)]
        res = []
        for f in fns:
            x = _t(torch, [-1.0, 0.05, 0.5, 4.0], requires_grad=True)
            g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
            res += [g, g.requires_grad, g.grad_fn.name()]
            res.append(catch(lambda g=g, x=x: torch.autograd.grad(g.sum(), x)))
        x = _t(torch, [float("nan"), -1.0, 2.0], requires_grad=True)
        F.relu(x).sum().backward()
        res.append(x.grad)
        fw = torch.autograd.forward_ad
        for f in (F.hardsigmoid, F.relu, F.leaky_relu):   # forward-over-reverse
            x = _t(torch, [-1.0, 0.5, 4.0], requires_grad=True)
            with fw.dual_level():
                d = fw.make_dual(x, _t(torch, [1.0, 2.0, 3.0]))
                res.append(catch(lambda d=d, f=f: _tangent(torch, torch.autograd.grad(
                    f(d).sum(), d, create_graph=True)[0])))
        return res

    compare(scenario, rtol=1e-12, atol=1e-12)


def test_reverse_over_forward_through_in_place_and_zero_terms_vs_torch():
    """The tangent of an in-place op reads the result's history; the zero term of a factor
    without a tangent reads its primal: reverse mode through such tangents, as PyTorch."""
    def scenario(torch):
        fw = torch.autograd.forward_ad
        x = _t(torch, X, requires_grad=True)
        w = _t(torch, [2.0, -1.0, 0.5], requires_grad=True)

        def dense(gs):  # PyTorch's zero terms give ZeroTensor gradients: plain zeros here
            return [g + torch.zeros_like(g) for g in gs]
        res = []
        with fw.dual_level():
            d = fw.make_dual(x, _t(torch, T))
            y = d * 1
            y.tan_()
            ty = _tangent(torch, y)
            res += [ty, ty.requires_grad, ty.grad_fn.name()]
            res.append(torch.autograd.grad(ty.sum(), x, retain_graph=True))
            z = d * w            # w has no tangent: w_t * x_p + x_t * w_p
            tz = _tangent(torch, z)
            res += [tz, tz.requires_grad]
            res.append(dense(torch.autograd.grad(tz.sum(), (x, w), allow_unused=True)))
            q = d / 4.0          # a Python number is a wrapped tensor without a tangent
            res += [_tangent(torch, q).requires_grad,
                    dense(torch.autograd.grad(_tangent(torch, q).sum(), x))]
            inf = fw.make_dual(_t(torch, [1.0, 2.0]), _t(torch, [1.0, 1.0])) * \
                _t(torch, [float("inf"), 1.0], requires_grad=True)
            res.append(_tangent(torch, inf).detach())   # the zero term: 0 * inf is not NaN
        return res

    compare(scenario, rtol=1e-12, atol=1e-12)


def test_forward_ad_fuzz_findings_vs_torch():
    """Programs the standalone fuzzer (``python -m tests.fuzz --dual 0.25``) found
    differing under a dual level."""
    def scenario(torch):
        fw = torch.autograd.forward_ad
        with fw.dual_level():
            v0 = fw.make_dual(torch.tensor(1.764), torch.tensor(1.624))
            res = [_tangent(torch, v0.squeeze(0)), _tangent(torch, v0.squeeze(-1)),
                   _tangent(torch, v0.flip(0))]
            v0.requires_grad_()  # the dual tensor is a view (of a leaf): PyTorch's message
            res.append(catch(v0.add_, v0))
        v = torch.tensor(1.5).view_as(torch.tensor(1.5))
        v.requires_grad_()
        return res + [catch(v.add_, v)]

    compare(scenario, rtol=1e-12, atol=1e-12)
