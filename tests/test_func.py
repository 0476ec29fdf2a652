"""``autotensor.func`` (torch.func's transforms) against PyTorch: values, output structures
(argnums, has_aux, pytrees), composition (grad of grad, hessian), functional_call, errors;
and against float64 finite differences."""
import importlib

import numpy as np
import pytest

import autotensor
from differential import catch, compare

pytest.importorskip("torch")

RNG = np.random.default_rng(4)
X = RNG.standard_normal(3)
Y = RNG.standard_normal((2, 3))
V3 = RNG.standard_normal(3)
V23 = RNG.standard_normal((2, 3))


def _func(torch):
    return importlib.import_module(torch.__name__ + ".func")


def _t(torch, a, rg=False):
    return torch.tensor(a, dtype=torch.float64, requires_grad=rg)


def f1(x):
    return (x.sin() * x.exp()).sum()


def f2(x, y):
    return (y * x).tanh().sum() + (x ** 3).sum()


def vec(x, y):
    return (y * x).sum(0) * x.cos()


def multi(x, y):
    return {"a": x.exp()[:2], "b": (x * y).sum()}, [y.t() * 2]


def test_grad_and_value():
    def scenario(torch):
        func = _func(torch)
        x, y = _t(torch, X), _t(torch, Y)
        return (func.grad(f1)(x),
                func.grad(f2)(x, y), func.grad(f2, argnums=1)(x, y),
                func.grad(f2, argnums=(0, 1))(x, y), func.grad(f2, argnums=-1)(x, y),
                func.grad_and_value(f2, argnums=(1, 0))(x, y),
                func.grad(lambda x: (f1(x), x.cos()), has_aux=True)(x),
                func.grad_and_value(lambda x: (f1(x), {"c": x * 2}), has_aux=True)(x),
                func.grad(lambda d: (d["p"] * d["q"]).sum())({"p": x, "q": x * 2}),
                func.grad(lambda x, y: (x * 2).sum())(x, y),
                func.grad(lambda x: x.detach().sum())(x))

    compare(scenario, rtol=1e-12, atol=1e-12)


def test_grad_errors():
    def scenario(torch):
        func = _func(torch)
        x, y = _t(torch, X), _t(torch, Y)
        return (catch(func.grad(lambda x: x * 2), x),
                catch(func.grad(lambda x: 3.0), x),
                catch(func.grad(f1, has_aux=True), x),
                catch(func.grad(f2, argnums=2), x, y),
                catch(func.grad(f2, argnums=(0, 0)), x, y),
                catch(func.grad(f2, argnums=()), x, y),
                catch(func.grad(f2, argnums=[0]), x, y),
                catch(func.grad(f2, argnums=1), x, 2.0))

    compare(scenario)


def test_composition():
    """grad of grad, jacrev of jacrev, hessian (jacfwd of jacrev), results detached."""
    def scenario(torch):
        func = _func(torch)
        x, y = _t(torch, X), _t(torch, Y)
        cube = lambda t: (t ** 3).sum()  # noqa: E731
        s = _t(torch, 2.0)
        return (func.grad(func.grad(lambda t: t ** 3))(s),
                func.grad(lambda t: func.grad(cube)(t).sum())(x),
                func.jacrev(func.jacrev(f1))(x),
                func.hessian(f1)(x), func.hessian(f2, argnums=(0, 1))(x, y),
                func.jacfwd(func.jacrev(f2, argnums=1), argnums=1)(x, y),
                func.grad(lambda x: func.grad(lambda y: (x * y).sum())(x).sum())(x))

    compare(scenario, rtol=1e-10, atol=1e-12)


def test_grad_of_input_requiring_grad_keeps_graph():
    """A transform inside ordinary autograd: its result stays differentiable wrt inputs
    that require grad (torch.func's transforms compose with autograd)."""
    def scenario(torch):
        func = _func(torch)
        x = _t(torch, X, rg=True)
        g = func.grad(f1)(x)
        h, = torch.autograd.grad(g.sum(), x)
        return g.requires_grad, h, func.grad(f1)(x.detach()).requires_grad

    compare(scenario, rtol=1e-12, atol=1e-12)


def test_vjp():
    def scenario(torch):
        func = _func(torch)
        x, y = _t(torch, X), _t(torch, Y)
        out, fn = func.vjp(vec, x, y)
        out2, fn2, aux = func.vjp(lambda x: (x.exp(), x.sum()), x, has_aux=True)
        out3, fn3 = func.vjp(multi, x, y)
        cot3 = ({"a": _t(torch, V3[:2]), "b": _t(torch, 1.5)}, [_t(torch, V23.T)])
        return (out, fn(_t(torch, V3)), out2, fn2(_t(torch, V3)), aux, out3, fn3(cot3),
                catch(fn, (_t(torch, V3),)),
                catch(fn3, ({"a": _t(torch, V3[:2])}, [_t(torch, V23.T)])),
                catch(func.vjp, lambda x: 3.0, x))

    compare(scenario, rtol=1e-12, atol=1e-12)


def test_jvp():
    def scenario(torch):
        func = _func(torch)
        x, y = _t(torch, X), _t(torch, Y)
        return (func.jvp(vec, (x, y), (_t(torch, V3), _t(torch, V23))),
                func.jvp(f1, (x,), (_t(torch, V3),)),
                func.jvp(multi, (x, y), (_t(torch, V3), _t(torch, V23))),
                func.jvp(lambda x: (x.sin(), x.sum()), (x,), (_t(torch, V3),), has_aux=True),
                func.jvp(lambda x, y: x * 2, (x, y), (_t(torch, V3), _t(torch, V23))),
                catch(func.jvp, f1, x, (_t(torch, V3),)),
                catch(func.jvp, f1, (x,), [_t(torch, V3)]),
                catch(func.jvp, f1, (x,), (_t(torch, V3),), strict=True),
                catch(func.jvp, f1, (x,), (_t(torch, V3),), has_aux=True),
                catch(func.jvp, f1, (x,), (1.0,)),
                catch(func.jvp, lambda x, y: (x.sum(), y.detach()), (x, y),
                      (_t(torch, V3), _t(torch, V23)), strict=True))

    compare(scenario, rtol=1e-12, atol=1e-12)


def test_jacobians():
    def scenario(torch):
        func = _func(torch)
        x, y = _t(torch, X), _t(torch, Y)
        return (func.jacrev(vec)(x, y), func.jacfwd(vec)(x, y),
                func.jacrev(vec, argnums=(0, 1))(x, y), func.jacfwd(vec, argnums=(0, 1))(x, y),
                func.jacrev(multi, argnums=1)(x, y), func.jacfwd(multi, argnums=1)(x, y),
                func.jacrev(lambda x: (x.exp(), x.sum()), has_aux=True)(x),
                func.jacfwd(lambda x: (x.exp(), x.sum()), has_aux=True)(x),
                func.jacrev(f1)(x), func.jacfwd(f1)(x),
                catch(func.jacrev, f1, chunk_size=0))

    compare(scenario, rtol=1e-12, atol=1e-12)


def test_linearize():
    def scenario(torch):
        func = _func(torch)
        x = _t(torch, X)
        out, fn = func.linearize(lambda x: x.sin() * x.exp(), x)
        return out, fn(_t(torch, V3)), fn(_t(torch, X))

    compare(scenario, rtol=1e-12, atol=1e-12)


def test_functional_call():
    def scenario(torch):
        func = _func(torch)
        torch.manual_seed(0)
        m = torch.nn.Sequential(torch.nn.Linear(3, 2, dtype=torch.float64), torch.nn.Tanh())
        with torch.no_grad():
            m[0].weight.copy_(_t(torch, Y))
            m[0].bias.fill_(0.5)
        x = _t(torch, X)
        params = {"0.weight": _t(torch, V23), "0.bias": _t(torch, V3[:2])}
        out = func.functional_call(m, params, (x,))
        after = m(x)
        g = func.grad(lambda p: func.functional_call(m, p, x).sum())(params)
        partial = func.functional_call(m, {"0.bias": _t(torch, V3[:2])}, x)
        both = func.functional_call(
            m, ({"0.weight": _t(torch, V23)}, {"0.bias": _t(torch, V3[:2])}), (x,))
        return (out, after, g, partial, both,
                catch(func.functional_call, m, {"0.weight": _t(torch, V23)}, (x,), strict=True),
                catch(func.functional_call, m, {**params, "extra": x}, (x,), strict=True),
                catch(func.functional_call, m, ({"0.bias": x}, {"0.bias": x}), (x,)),
                catch(func.functional_call, m, 3, (x,)))

    compare(scenario, rtol=1e-12, atol=1e-12)


def test_hessian_vs_finite_differences():
    func = autotensor.func
    x = autotensor.tensor(X)
    h = func.hessian(f1)(x).numpy()
    eps = 1e-6
    num = np.stack([(func.grad(f1)(autotensor.tensor(X + eps * e)).numpy()
                     - func.grad(f1)(autotensor.tensor(X - eps * e)).numpy()) / (2 * eps)
                    for e in np.eye(3)], 1)
    np.testing.assert_allclose(h, num, rtol=1e-6, atol=1e-8)
    _, jv = func.jvp(f1, (x,), (autotensor.tensor(V3),))
    np.testing.assert_allclose(jv.item(), func.grad(f1)(x).numpy() @ V3, rtol=1e-12)


def test_functorch_make_functional_vs_torch():
    """functorch's make_functional(_with_buffers) (PyTorch's forward-AD tutorial uses it):
    a deep copy's parameters, the function of them, and functorch's error for buffers."""
    import warnings

    def scenario(torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ft = importlib.import_module("functorch" if torch.__name__ == "torch"
                                         else "autotensor.functorch")
        torch.manual_seed(0)
        model = torch.nn.Linear(3, 2)
        x = _t(torch, Y).float()
        func, params, buffers = ft.make_functional_with_buffers(model)
        res = [type(func).__name__, buffers, [p is q for p, q in zip(params, model.parameters())],
               [type(p).__name__ for p in params], func(params, buffers, x)]
        res.append(func(tuple(2 * p for p in params), buffers, x))
        f, ps = ft.make_functional(model, disable_autograd_tracking=True)
        res += [[p.requires_grad for p in ps], f(ps, x)]
        res.append(catch(ft.make_functional, torch.nn.BatchNorm1d(3)))
        bn = torch.nn.BatchNorm1d(3)
        f, ps, bs = ft.make_functional_with_buffers(bn)
        res += [len(ps), [b.shape for b in bs], f(ps, bs, x.detach())]
        _, jv = ft.jvp(lambda p: func(p, buffers, x), (params,),
                       (tuple(torch.ones_like(p) for p in params),))
        return res + [jv]

    compare(scenario, rtol=1e-6, atol=1e-6)


def test_batched_gradients_vs_torch():
    """grad(is_grads_batched=True), gradcheck's batched checks and functorch.vmap run (PyTorch's
    vmap semantics as the per-entry loop: Note [vmap as a loop]); values, errors and the
    generator's state afterwards as PyTorch's."""
    def scenario(torch):
        x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
        w = torch.ones(2, dtype=torch.float64, requires_grad=True)
        y = x.sin()
        eye = torch.eye(2, dtype=torch.float64)
        z = (x * x).sum()
        res = [torch.autograd.grad(y, x, eye, is_grads_batched=True, retain_graph=True),
               torch.autograd.grad(y, (x, w), eye, is_grads_batched=True, allow_unused=True,
                                   retain_graph=True),
               torch.autograd.grad(y, (x, w), eye, is_grads_batched=True,
                                   materialize_grads=True, retain_graph=True),
               torch.autograd.grad(y, {"a": x}, eye, is_grads_batched=True,
                                   retain_graph=True)["a"]]
        for go in [None, torch.ones(3, dtype=torch.float64), torch.ones(3, 2)]:
            res.append(catch(torch.autograd.grad, z, x, go, is_grads_batched=True,
                             retain_graph=True))
        res.append(catch(torch.autograd.grad, (y, y), x,
                         (torch.ones(3, 2, dtype=torch.float64),
                          torch.ones(4, 2, dtype=torch.float64)), is_grads_batched=True))
        g = torch.autograd.grad(x.exp(), x, eye, is_grads_batched=True, create_graph=True)[0]
        res.append([g.requires_grad, torch.autograd.grad(g.sum(), x)])
        torch.manual_seed(0)
        for check, kw in [(torch.autograd.gradcheck, {"check_batched_grad": True}),
                          (torch.autograd.gradgradcheck, {"check_batched_grad": True}),
                          (torch.autograd.gradcheck,
                           {"check_batched_forward_grad": True, "check_forward_ad": True})]:
            res.append(check(lambda t: (t.sin(), t * t), (x,), **kw))
        res.append(torch.rand(3))  # the checks drew their random vectors as PyTorch's
        res.append(catch(torch.autograd.gradcheck, lambda t: t.sin(), (x,),
                         check_batched_forward_grad=True))
        res.append(catch(torch.autograd.gradcheck, lambda t: t.sin(), (x,),
                         check_batched_grad=True, check_backward_ad=False))
        return res

    compare(scenario, rtol=1e-12, atol=1e-12)


def test_functorch_vmap_runs():
    from autotensor import functorch
    assert functorch.vmap(lambda t: t * 2)(autotensor.ones(3)).tolist() == [2.0, 2.0, 2.0]
