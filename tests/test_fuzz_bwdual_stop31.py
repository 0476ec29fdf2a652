"""Stop 31: backward() inside a forward-AD level (forward-over-reverse).

PyTorch runs each backward formula on the saved tensors as they are, dual ones included, so
the gradients carry tangents: hooks and retain_grad see them, an accumulation into an
existing .grad adds them, a copied first gradient keeps its tangent and a stolen one
(``new_grad.detach()``) has none. Each scenario runs on torch and on autotensor and the
records (values, ``_version``, dtype, tangent) are compared."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
import autotensor  # noqa: E402


def _rec(lib, t):
    if t is None:
        return None
    fa = lib.autograd.forward_ad
    tan = fa.unpack_dual(t).tangent
    return (np.array(t.detach().tolist()), t._version, str(t.dtype).split(".")[-1],
            None if tan is None else np.array(tan.tolist()))


def _same(a, b, path="out"):
    if isinstance(a, (list, tuple)) and not isinstance(a, np.ndarray):
        assert isinstance(b, (list, tuple)) and len(a) == len(b), (path, a, b)
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{path}[{i}]")
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray), (path, a, b)
        np.testing.assert_allclose(b, a, rtol=1e-6, atol=1e-7, err_msg=path)
    else:
        assert a == b, (path, a, b)


def _both(fn):
    want = fn(torch)
    got = fn(autotensor)
    _same(want, got)
    return want


def _dual(lib, vals, tan, dtype="float32", leaf=True):
    fa = lib.autograd.forward_ad
    dt = getattr(lib, dtype)
    p = lib.tensor(vals, dtype=dt, requires_grad=leaf)
    return p, fa.make_dual(p, lib.tensor(tan, dtype=dt))


def test_leaf_first_gradient_stolen_then_accumulated():
    def run(lib):
        fa = lib.autograd.forward_ad
        out = []
        with fa.dual_level():
            p, x = _dual(lib, [1.5, 2.0], [1.0, 0.5])
            w = lib.tensor([0.3, 0.7], requires_grad=True)
            y = (x.sin() * w).sum()
            y.backward(retain_graph=True)
            out += [_rec(lib, w.grad), _rec(lib, p.grad)]
            y.backward()  # (in place: w.grad += g, the tangents added)
            out += [_rec(lib, w.grad), _rec(lib, p.grad)]
        return out
    want = _both(run)
    assert want[0][3] is None and want[2][3] is not None  # (stolen, then accumulated)


def test_float64_and_second_order_through_dual_leaf():
    def run(lib):
        fa = lib.autograd.forward_ad
        with fa.dual_level():
            p, x = _dual(lib, [0.5, -1.25, 2.0], [1.0, -2.0, 0.25], "float64")
            w = lib.tensor([0.3, 0.7, -1.1], dtype=lib.float64, requires_grad=True)
            b = lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64, requires_grad=True)
            (x.exp() * w + b * x * x).sum().backward()
            return [_rec(lib, w.grad), _rec(lib, b.grad), _rec(lib, p.grad)]
    _both(run)


def test_hooks_see_tangents_and_a_kept_gradient_is_copied():
    def run(lib):
        fa = lib.autograd.forward_ad
        seen, kept = [], []
        with fa.dual_level():
            p, x = _dual(lib, [1.5, 2.0], [1.0, 0.5])
            w = lib.tensor([0.3, 0.7], requires_grad=True)
            v = lib.tensor([0.1, 0.2], requires_grad=True)
            w.register_hook(lambda g: seen.append(_rec(lib, g)))
            v.register_hook(kept.append)  # (holds it: .grad is a copy, with the tangent)
            y = x.sin() * w
            y.register_hook(lambda g: seen.append(_rec(lib, g)))
            z = (y * x).sum() + (v * x.cos()).sum()
            z.register_hook(lambda g: seen.append(_rec(lib, g)))
            z.backward()
            return seen + [_rec(lib, w.grad), _rec(lib, v.grad), _rec(lib, kept[0]),
                           _rec(lib, p.grad)]
    want = _both(run)
    assert want[1][3] is not None and want[4][3] is not None and want[4][1] == 1


def test_noop_hook_still_steals():
    def run(lib):
        fa = lib.autograd.forward_ad
        with fa.dual_level():
            p, x = _dual(lib, [1.5, 2.0], [1.0, 0.5])
            w = lib.tensor([0.3, 0.7], requires_grad=True)
            w.register_hook(lambda g: None)
            y = (x.sin() * w).sum()
            y.backward(retain_graph=True)
            out = [_rec(lib, w.grad)]
            y.backward()  # (stolen first: the tangent is the second gradient's only)
            return out + [_rec(lib, w.grad)]
    assert _both(run)[0][3] is None


def test_hook_returning_a_dual_gradient():
    def run(lib):
        fa = lib.autograd.forward_ad
        with fa.dual_level():
            p, x = _dual(lib, [1.5, 2.0], [1.0, 0.5])
            w = lib.tensor([0.3, 0.7], requires_grad=True)
            w.register_hook(lambda g: g * x)  # (a fresh tensor: stolen, no tangent)
            (w * 2.0).sum().backward()
            kept = []
            v = lib.tensor([0.3, 0.7], requires_grad=True)
            v.register_hook(lambda g: kept.append(g * x) or kept[-1])  # (held: copied)
            (v * 2.0).sum().backward()
            return [_rec(lib, w.grad), p.grad is None, _rec(lib, v.grad)]
    _both(run)


def test_retain_grad_non_leaf_and_accumulation():
    def run(lib):
        fa = lib.autograd.forward_ad
        out = []
        with fa.dual_level():
            p, x = _dual(lib, [1.5, 2.0, -0.5], [1.0, 0.5, 2.0])
            w = lib.tensor([0.3, 0.7, 0.9], requires_grad=True)
            y = x.sin() * w
            y.retain_grad()
            z = (y * x).sum()
            z.backward(retain_graph=True)
            out += [_rec(lib, y.grad), _rec(lib, w.grad)]
            z.backward()
            out += [_rec(lib, y.grad), _rec(lib, w.grad), _rec(lib, p.grad)]
        return out
    want = _both(run)
    assert want[0][3] is not None


def test_existing_grad_with_tangent_and_gradient_without():
    def run(lib):
        fa = lib.autograd.forward_ad
        out = []
        with fa.dual_level():
            p, x = _dual(lib, [1.5, 2.0], [1.0, 0.5])
            w = lib.tensor([0.3, 0.7], requires_grad=True)
            (x * w).sum().backward()
            (w * w).sum().backward(retain_graph=True)  # (stolen, no tangent)
            (x * w).sum().backward()  # (in place: the tangent appears)
            out.append(_rec(lib, w.grad))
            (w * 3.0).sum().backward()  # (no tangent: the old one stays)
            out.append(_rec(lib, w.grad))
        return out
    _both(run)


def test_backward_inputs():
    def run(lib):
        fa = lib.autograd.forward_ad
        out = []
        with fa.dual_level():
            p, x = _dual(lib, [1.5, 2.0], [1.0, 0.5])
            w = lib.tensor([0.3, 0.7], requires_grad=True)
            u = lib.tensor([1.3, -0.7], requires_grad=True)
            y = x.sin() * w
            z = (y * x + u * x).sum()
            z.backward(inputs=[w], retain_graph=True)
            out += [_rec(lib, w.grad), _rec(lib, u.grad), _rec(lib, p.grad)]
            z.backward(inputs=[w, u], retain_graph=True)
            out += [_rec(lib, w.grad), _rec(lib, u.grad)]
            z.backward(inputs=[y], retain_graph=True)  # (a non-leaf: retained)
            out += [_rec(lib, y.grad), _rec(lib, w.grad)]
            lib.autograd.backward([z], inputs=[p])
            out += [_rec(lib, p.grad)]
        return out
    _both(run)


def test_given_dual_gradient_and_post_accumulate_hook():
    def run(lib):
        fa = lib.autograd.forward_ad
        seen = []
        with fa.dual_level():
            w = lib.tensor([0.3, 0.7], requires_grad=True)
            w.register_post_accumulate_grad_hook(lambda t: seen.append(_rec(lib, t.grad)))
            g = fa.make_dual(lib.tensor([1.0, 2.0]), lib.tensor([0.5, -1.0]))
            (w * 2.0).backward(g)  # (the caller's gradient is copied)
            v = lib.tensor([0.3, 0.7], requires_grad=True)
            lib.autograd.backward([v.exp()], [g])
            u = lib.tensor([0.3, 0.7], requires_grad=True)
            u.register_post_accumulate_grad_hook(lambda t: seen.append(_rec(lib, t.grad)))
            u.backward(g)  # (the caller's gradient itself: copied, with its tangent)
            u.backward(g)  # (added in place)
            return seen + [_rec(lib, w.grad), _rec(lib, v.grad), _rec(lib, u.grad)]
    _both(run)


def test_create_graph_inside_a_level():
    def run(lib):
        fa = lib.autograd.forward_ad
        with fa.dual_level():
            p, x = _dual(lib, [1.5, 2.0], [1.0, 0.5])
            w = lib.tensor([0.3, 0.7], requires_grad=True)
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                (x.sin() * w * w).sum().backward(create_graph=True)
            g = w.grad
            out = [_rec(lib, g), g.requires_grad, type(g.grad_fn).__name__]
            g.sum().backward()
            out += [_rec(lib, w.grad)]
        return out
    _both(run)


def test_backward_op_without_forward_rule_sees_dual_gradient():
    # hardsigmoid_backward has no forward rule: its incoming gradient is dual here
    def run(lib):
        fa = lib.autograd.forward_ad
        with fa.dual_level():
            p, x = _dual(lib, [1.5, 2.0], [1.0, 0.5])
            a = lib.tensor([0.3, -0.7], requires_grad=True)
            h = lib.nn.functional.hardsigmoid(a)
            try:
                (h * x).sum().backward()
            except NotImplementedError as e:
                return ["raised", str(e), a.grad is None]
            return ["ok", _rec(lib, a.grad)]
    assert _both(run)[0] == "raised"


def test_backward_op_without_forward_rule_saved_dual():
    def run(lib):
        fa = lib.autograd.forward_ad
        with fa.dual_level():
            p, x = _dual(lib, [1.5, 2.0], [1.0, 0.5])
            try:
                lib.nn.functional.hardsigmoid(x).sum().backward()
            except NotImplementedError as e:
                return ["raised", str(e)]
            return ["ok", _rec(lib, p.grad)]
    _both(run)


def test_outside_a_level_unchanged():
    def run(lib):
        w = lib.tensor([0.3, 0.7], requires_grad=True)
        kept = []
        w.register_hook(kept.append)
        (w.sin() * 2.0).sum().backward()
        v = lib.tensor([0.3, 0.7], requires_grad=True)
        v.register_hook(lambda g: None)
        (v.sin() * 2.0).sum().backward()
        return [_rec(lib, w.grad), _rec(lib, v.grad)]
    _both(run)


def test_copied_gradients_custom_function_roots_edges_and_node_hooks():
    def run(lib):
        fa = lib.autograd.forward_ad
        out = []
        with fa.dual_level():
            p, x = _dual(lib, [[1.5, 2.0], [0.1, -0.3]], [[1.0, 0.5], [0.2, 0.3]])
            w = lib.tensor([[0.3, 0.7], [0.1, 0.2]]).t().requires_grad_()  # (not contiguous)
            (x.sin() * w).sum().backward()
            out += [_rec(lib, w.grad), _rec(lib, p.grad)]
            v = lib.tensor([0.3, 0.7], requires_grad=True)
            (x * v.sum()).sum().backward()  # (sum's expanded gradient: copied)
            out += [_rec(lib, v.grad)]

            class F(lib.autograd.Function):
                @staticmethod
                def forward(ctx, a, b):
                    ctx.save_for_backward(a, b)
                    return a * b

                @staticmethod
                def backward(ctx, g):
                    a, b = ctx.saved_tensors
                    out.append(_rec(lib, g))
                    return g * b, g * a
            u = lib.tensor([0.3, 0.7], requires_grad=True)
            (F.apply(u, lib.tensor([2.0, 3.0])) * x[0]).sum().backward()
            out += [_rec(lib, u.grad)]
            u2 = lib.tensor([0.3, 0.7], requires_grad=True)
            lib.autograd.backward([u2 * x[0], u2.exp()], [x[1], lib.ones(2)])
            out += [_rec(lib, u2.grad)]
            u3 = lib.tensor([0.3, 0.7], requires_grad=True)
            y3 = u3 * x[0]
            (y3 * x[1]).sum().backward(inputs=[lib.autograd.graph.get_gradient_edge(u3)])
            out += [_rec(lib, u3.grad)]
            u4 = lib.tensor([0.3, 0.7], dtype=lib.float64, requires_grad=True)
            (u4 * x[0]).sum().backward()
            out += [_rec(lib, u4.grad), _rec(lib, p.grad)]
            u5 = lib.tensor([0.3, 0.7], requires_grad=True)
            y5 = u5 * 1.0
            y5.grad_fn.next_functions[0][0].register_hook(
                lambda gi, go: out.append([_rec(lib, g) for g in go]))
            (y5 * x[0]).sum().backward()
            out += [_rec(lib, u5.grad)]
            x2 = fa.make_dual(lib.tensor([1.0, 2.0], requires_grad=True),
                              lib.tensor([1.0, 1.0]))
            x2.retain_grad()
            (x2 * x2).sum().backward()
            out += [_rec(lib, x2.grad)]
        return out
    _both(run)


def test_create_graph_inside_a_level_hooks_retain_grad_accumulation():
    def graph(t):
        return None if t is None else (t.requires_grad, type(t.grad_fn).__name__)

    def run(lib):
        import warnings
        fa = lib.autograd.forward_ad
        out = []
        with fa.dual_level(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            p, x = _dual(lib, [1.5, 2.0], [1.0, 0.5])
            w = lib.tensor([0.3, 0.7], requires_grad=True)
            w.register_hook(lambda g: out.append([_rec(lib, g), graph(g)]))
            y = x.sin() * w
            y.retain_grad()
            z = (y * x).sum()
            for _ in range(2):
                z.backward(create_graph=True)
                out += [[_rec(lib, t), graph(t)] for t in (w.grad, y.grad, p.grad)]
        return out
    _both(run)
