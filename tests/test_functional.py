"""``autograd.functional`` (vjp, jvp, jacobian, hessian, hvp, vhp) against PyTorch: output
structures for tensor/tuple inputs and outputs, strict-mode errors, create_graph, unused
inputs; and against float64 finite differences."""
import numpy as np
import pytest

import autotensor
from differential import catch, compare

pytest.importorskip("torch")

RNG = np.random.default_rng(9)
X = RNG.standard_normal(3)
Y = RNG.standard_normal((2, 3))
V3 = RNG.standard_normal(3)
V23 = RNG.standard_normal((2, 3))
V2 = RNG.standard_normal(2)


def _t(torch, a, rg=False):
    return torch.tensor(a, dtype=torch.float64, requires_grad=rg)


# functions of one tensor and of a tuple; single and tuple outputs
def f_single(x):
    return x.sin() * x


def f_scalar(x):
    return (x.exp() * x).sum()


def f_tuple_out(x):
    return x * 2, (x ** 2).sum()


def f_two(x, y):
    return (y * x).sum(0) + x.cos()


def f_two_scalar(x, y):
    return (y.tanh() * x).sum() + (x ** 3).sum()


def f_unused(x, y):
    return x.sin()


def f_linear(x):
    return x * 3


def f_const(x):
    return x.detach() * 2


def _strip(obj):
    """Tensors as (values, requires_grad): second-order graphs name their nodes after the
    op table's formulas (PyTorch fuses some, e.g. TanhBackwardBackward0), so only values
    and differentiability are compared where create_graph=True."""
    if isinstance(obj, (tuple, list)) and not hasattr(obj, "_fields"):
        return type(obj)(_strip(o) for o in obj)
    if hasattr(obj, "detach"):
        return obj.detach(), obj.requires_grad
    return obj


API = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


def _call(torch, api, fn, ins, **kw):
    F = torch.autograd.functional
    if api in ("vjp",):
        out = fn(*ins)
        outs = out if isinstance(out, tuple) else (out,)
        v = tuple(torch.ones_like(o) * 0.5 + o.detach() for o in outs)
        v = v if isinstance(out, tuple) else v[0]
        return F.vjp(fn, ins if len(ins) > 1 else ins[0], v, **kw)
    if api in ("jvp", "hvp", "vhp"):
        v = tuple(torch.ones_like(i) * 0.25 + i.detach() ** 2 for i in ins)
        return getattr(F, api)(fn, ins if len(ins) > 1 else ins[0],
                               v if len(ins) > 1 else v[0], **kw)
    return getattr(F, api)(fn, ins if len(ins) > 1 else ins[0], **kw)


CASES = [
    ("vjp", f_single, 1), ("vjp", f_tuple_out, 1), ("vjp", f_two, 2), ("vjp", f_unused, 2),
    ("jvp", f_single, 1), ("jvp", f_tuple_out, 1), ("jvp", f_two, 2), ("jvp", f_unused, 2),
    ("jacobian", f_single, 1), ("jacobian", f_tuple_out, 1), ("jacobian", f_two, 2),
    ("jacobian", f_unused, 2),
    ("hessian", f_scalar, 1), ("hessian", f_two_scalar, 2),
    ("hvp", f_scalar, 1), ("hvp", f_two_scalar, 2),
    ("vhp", f_scalar, 1), ("vhp", f_two_scalar, 2),
]


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("api,fn,n", CASES, ids=[f"{a}-{f.__name__}" for a, f, _ in CASES])
def test_functional_vs_torch(api, fn, n, create_graph):
    def scenario(torch):
        ins = (_t(torch, X),) if n == 1 else (_t(torch, X), _t(torch, Y))
        return _strip(catch(_call, torch, api, fn, ins, create_graph=create_graph))

    compare(scenario, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("api,fn,n", CASES, ids=[f"{a}-{f.__name__}" for a, f, _ in CASES])
def test_functional_strict_vs_torch(api, fn, n):
    def scenario(torch):
        ins = (_t(torch, X),) if n == 1 else (_t(torch, X), _t(torch, Y))
        return (catch(_call, torch, api, fn, ins, strict=True),
                _strip(catch(_call, torch, api, fn, ins, strict=True, create_graph=True)))

    compare(scenario, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("api", API)
@pytest.mark.parametrize("fn", [f_linear, f_const], ids=["linear", "const"])
def test_strict_errors_vs_torch(api, fn):
    """Independent outputs/jacobians/hessians: PyTorch's strict-mode errors word for word,
    and zeros in non-strict mode."""
    def scenario(torch):
        def g(x):
            out = fn(x)
            return out.sum() if api in ("hessian", "hvp", "vhp") else out
        ins = (_t(torch, X),)
        return (catch(_call, torch, api, g, ins, strict=True),
                _strip(catch(_call, torch, api, g, ins, strict=True, create_graph=True)),
                catch(_call, torch, api, g, ins),
                _strip(catch(_call, torch, api, g, ins, create_graph=True)))

    compare(scenario, rtol=1e-10, atol=1e-12)


def test_create_graph_keeps_graph_to_inputs():
    """With create_graph the results are differentiable wrt inputs that require grad."""
    def scenario(torch):
        F = torch.autograd.functional
        x = _t(torch, X, rg=True)
        v = _t(torch, V3)
        _, h = F.hvp(f_scalar, x, v, create_graph=True)
        g1, = torch.autograd.grad(h.sum(), x)
        _, j = F.jvp(f_single, x, v, create_graph=True)
        g2, = torch.autograd.grad(j.sum(), x)
        jac = F.jacobian(f_single, x, create_graph=True)
        g3, = torch.autograd.grad(jac.sum(), x)
        _, plain = F.vjp(f_single, x, v)
        return h.requires_grad, g1, j.requires_grad, g2, g3, plain.requires_grad

    compare(scenario, rtol=1e-10, atol=1e-12)


def test_jacobian_vectorize_and_forward_mode():
    def scenario(torch):
        F = torch.autograd.functional
        x, y = _t(torch, X), _t(torch, Y)
        return (F.jacobian(f_two, (x, y), vectorize=True),
                catch(F.jacobian, f_two, (x, y), vectorize=True, strict=True),
                catch(F.jacobian, f_two, (x, y), strategy="forward-mode"),
                catch(F.jacobian, f_two, (x, y), strategy="forward-mode", vectorize=True,
                      strict=True),
                catch(F.jacobian, f_two, (x, y), strategy="forward-mode", vectorize=True,
                      create_graph=True),
                F.jacobian(f_two, (x, y), strategy="forward-mode", vectorize=True),
                F.jacobian(f_tuple_out, x, strategy="forward-mode", vectorize=True),
                F.jacobian(f_unused, (x, y), strategy="forward-mode", vectorize=True),
                _strip(F.hessian(f_two_scalar, (x, y), outer_jacobian_strategy="forward-mode",
                                 vectorize=True)),
                catch(F.jacobian, f_two, (x, y), strategy="sideways"),
                catch(F.hessian, f_scalar, x, outer_jacobian_strategy="sideways"))

    compare(scenario)


def test_bad_arguments_vs_torch():
    def scenario(torch):
        F = torch.autograd.functional
        x, y = _t(torch, X), _t(torch, Y)
        return (catch(F.vjp, f_single, x),
                catch(F.vjp, f_single, x, _t(torch, V2)),
                catch(F.vjp, f_tuple_out, x, (_t(torch, V3),)),
                catch(F.jvp, f_two, (x, y), (_t(torch, V3), _t(torch, V3))),
                catch(F.jvp, f_single, x),
                catch(F.jvp, f_single, [1.0]),
                catch(F.jvp, f_single, (x, 1.0)),
                catch(F.hvp, f_single, x, _t(torch, V3)),
                catch(F.vhp, f_tuple_out, x, _t(torch, V3)),
                catch(F.hessian, f_single, x),
                catch(F.vjp, lambda x: 3.0, x),
                F.vjp(lambda x: x.sum(), x),
                F.jvp(lambda x: x * 2, _t(torch, np.array([2.0]))),
                F.hvp(lambda x: x ** 3, _t(torch, 2.0)))

    compare(scenario)


def test_vs_finite_differences():
    F = autotensor.autograd.functional
    x = autotensor.tensor(X)
    y = autotensor.tensor(Y)
    eps = 1e-6
    jx, jy = F.jacobian(f_two, (x, y))
    for j, (inp, jac) in enumerate(((X, jx), (Y, jy))):
        flat = inp.reshape(-1)
        for k in range(flat.size):
            d = np.zeros_like(flat)
            d[k] = eps
            args = [X, Y]
            plus = [a.copy() for a in args]
            minus = [a.copy() for a in args]
            plus[j] = (flat + d).reshape(inp.shape)
            minus[j] = (flat - d).reshape(inp.shape)
            fp = f_two(*[autotensor.tensor(a) for a in plus]).numpy()
            fm = f_two(*[autotensor.tensor(a) for a in minus]).numpy()
            np.testing.assert_allclose(jac.numpy().reshape(3, -1)[:, k], (fp - fm) / (2 * eps),
                                       rtol=1e-6, atol=1e-8)
    h = F.hessian(f_scalar, x).numpy()
    g = [F.vjp(f_scalar, autotensor.tensor(X + s * eps * np.eye(3)[k]))[1].numpy()
         for k in range(3) for s in (1, -1)]
    num = np.stack([(g[2 * k] - g[2 * k + 1]) / (2 * eps) for k in range(3)], 1)
    np.testing.assert_allclose(h, num, rtol=1e-6, atol=1e-8)
    _, hv = F.hvp(f_scalar, x, autotensor.tensor(V3))
    np.testing.assert_allclose(hv.numpy(), h @ V3, rtol=1e-12, atol=1e-12)
