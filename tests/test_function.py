"""autograd.Function vs PyTorch: both styles, ctx API, outputs that are inputs or views,
errors word for word, once_differentiable, legacy Functions, reentrant backward."""
import warnings

import numpy as np
import pytest

import autotensor
from differential import catch, compare

X = np.array([0.5, -1.0, 2.0])


def _x(torch, rg=True):
    return torch.tensor(X, requires_grad=rg)


def test_both_styles_and_keyword_defaults():
    def scenario(torch):
        class Combined(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, k=2.0):
                ctx.save_for_backward(x)
                ctx.k = k
                return x * x * k

            @staticmethod
            def backward(ctx, g):
                (x,) = ctx.saved_tensors
                return g * 2 * x * ctx.k, None

        seen = []

        class Separate(torch.autograd.Function):
            @staticmethod
            def forward(x, k=3.0):
                return x.exp() * k

            @staticmethod
            def setup_context(ctx, inputs, output):
                seen.append((len(inputs), inputs[1], torch.is_grad_enabled()))
                ctx.save_for_backward(output)
                ctx.k = inputs[1]

            @staticmethod
            def backward(ctx, g):
                (out,) = ctx.saved_tensors
                return g * out, None

        x = _x(torch)
        a = Combined.apply(x)
        b = Combined.apply(x, k=4.0)
        c = Separate.apply(x)
        d = Separate.apply(x, k=0.5)
        (a + b + c + d).sum().backward()
        return a, b, c, d, x.grad, seen, a.grad_fn.name(), c.grad_fn.name(), \
            catch(Separate.apply, x, z=1)

    compare(scenario)


def test_non_tensor_inputs_outputs_and_needs_input_grad():
    def scenario(torch):
        log = []

        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, y, n, s):
                log.append(ctx.needs_input_grad)
                return x * y * n, s + "!", None

            @staticmethod
            def backward(ctx, g, g_s, g_none):
                log.append((g_s, g_none))
                return g * 2, None, None, None

        x = _x(torch)
        y = torch.tensor(X * 2)
        out = F.apply(x, y, 3, "s")
        out[0].sum().backward()
        return out, x.grad, log

    compare(scenario)


def test_gradient_count_and_type_errors():
    def scenario(torch):
        def make(ret):
            class F(torch.autograd.Function):
                @staticmethod
                def forward(ctx, x, y):
                    return x * 2

                @staticmethod
                def backward(ctx, g):
                    return ret(g)
            return F

        x = _x(torch)
        res = []
        for ret in (lambda g: g, lambda g: (g, g, g), lambda g: (g, g[:2]),
                    lambda g: (g, g, None), lambda g: (3, None), lambda g: (g, g.double())):
            for y in (x, 3):
                res.append(catch(lambda ret=ret, y=y: make(ret).apply(x, y).sum().backward()))
        res.append(x.grad)
        return res

    compare(scenario)


def test_wrong_shape_gradient_is_reported_or_summed():
    def scenario(torch):
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return ctx.ret(g)

        x = _x(torch)
        r1 = catch(lambda: torch.autograd.grad(_with(F.apply(x), lambda g: g[:2]), x))
        r2 = torch.autograd.grad(_with(F.apply(x), lambda g: g.expand(2, 3)), x)
        return r1, r2

    def _with(out, ret):
        out.grad_fn.ret = ret
        return out.sum()

    compare(scenario)


def test_save_for_backward_rules():
    def scenario(torch):
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, bad):
                inter = x * 3
                ctx.save_for_backward(x, None, inter, bad) if bad is not None \
                    else ctx.save_for_backward(x, None, inter)
                return x * 2

            @staticmethod
            def backward(ctx, g):
                x, none, inter = ctx.saved_tensors
                return g * inter, None

        x = _x(torch)
        err = catch(F.apply, x, 3)
        y = F.apply(x, None)
        saved = y.grad_fn.saved_tensors
        y.sum().backward()
        return err, saved, x.grad, catch(lambda: y.grad_fn.saved_tensors)

    compare(scenario)


def test_saved_tensor_modified_in_place():
    def scenario(torch):
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                out = x.exp()
                ctx.save_for_backward(x, out)
                return out

            @staticmethod
            def backward(ctx, g):
                x, out = ctx.saved_tensors
                return g * out

        x = _x(torch)
        a = x * 1
        y = F.apply(a)
        a.mul_(2)
        e1 = catch(lambda: y.sum().backward(retain_graph=True))
        b = x * 1
        z = F.apply(b)
        z.mul_(2)
        e2 = catch(lambda: z.sum().backward())
        return e1, e2

    compare(scenario)


def test_mark_dirty():
    def scenario(torch):
        class Double(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.mark_dirty(x)
                return x.mul_(2)

            @staticmethod
            def backward(ctx, g):
                return g * 2

        class Forgot(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.mark_dirty(x)
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2

        x = _x(torch)
        r = [catch(Double.apply, x)]
        a = x * 1
        b = Double.apply(a)
        r += [b is a, a.grad_fn.name(), a._version, b]
        b.sum().backward()
        r.append(x.grad)
        base = x * 1
        v = base[:2]
        w = Double.apply(v)
        r += [w is v, type(w.grad_fn).__name__, type(base.grad_fn).__name__, base]
        x.grad = None
        base.sum().backward()
        r.append(x.grad)
        r.append(catch(Forgot.apply, x * 1))
        return r

    compare(scenario)


def test_returning_inputs_and_views():
    def scenario(torch):
        class Id(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x

            @staticmethod
            def backward(ctx, g):
                return g * 3

        class Head(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x[:2]

            @staticmethod
            def backward(ctx, g):
                return torch.cat([g, g.new_zeros(1)])

        x = _x(torch)
        a = x * 1
        y = Id.apply(a)
        z = Head.apply(a)
        r = [y is a, y._base is a, y.grad_fn.name(), a.grad_fn.name(), z._base is a,
             catch(y.mul_, 2), catch(z.mul_, 2)]
        (y.sum() + z.sum()).backward()
        r.append(x.grad)
        with torch.no_grad():
            w = Id.apply(x)
        r += [w is x, w._base is None, w.requires_grad]
        leaf = Id.apply(x)
        r += [leaf is x, leaf.grad_fn.name(), x.grad_fn]
        return r

    compare(scenario)


def test_mark_non_differentiable_and_materialize_grads():
    def scenario(torch):
        log = []

        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, materialize):
                ctx.set_materialize_grads(materialize)
                idx = x.argmax()
                mask = x > 0
                f = x * 5
                ctx.mark_non_differentiable(f)
                return x * 2, x * 3, idx, mask, f

            @staticmethod
            def backward(ctx, g1, g2, g_idx, g_mask, g_f):
                log.append((g1, g2, g_idx, g_mask, g_f))
                return (g1 if g1 is not None else g2 * 0), None

        x = _x(torch)
        out = F.apply(x, True)
        out[0].sum().backward()
        out2 = F.apply(x, False)
        out2[0].sum().backward()
        return [t.requires_grad for t in out], out[4].grad_fn, log, x.grad

    compare(scenario)


def test_once_differentiable():
    def scenario(torch):
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x ** 3

            @staticmethod
            @torch.autograd.function.once_differentiable
            def backward(ctx, g):
                (x,) = ctx.saved_tensors
                return g * 3 * x ** 2

        x = _x(torch)
        v = torch.ones(3, dtype=torch.float64, requires_grad=True)
        (g,) = torch.autograd.grad(F.apply(x), x, v, create_graph=True)
        g_name = g.grad_fn.name()
        err = catch(lambda: g.sum().backward())
        (g2,) = torch.autograd.grad(F.apply(x).sum(), x, create_graph=True)
        return g, g_name, type(g.grad_fn).__name__, err, g2

    compare(scenario)


def test_legacy_and_unimplemented():
    def scenario(torch):
        class Legacy(torch.autograd.Function):
            def forward(self, x):
                return x

        class NoBackward(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            inst = Legacy()
        x = _x(torch)
        return ([str(m.message).replace("autotensor", "torch") for m in w],
                [m.category.__name__ for m in w], catch(inst, x),
                catch(lambda: NoBackward.apply(x).sum().backward()),
                catch(torch.autograd.Function.apply, x))

    compare(scenario)


def test_double_backward_through_custom_function():
    """The 'double backward with custom functions' tutorial: backward written in ops."""
    def scenario(torch):
        class Square(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x ** 2

            @staticmethod
            def backward(ctx, grad_out):
                (x,) = ctx.saved_tensors
                return grad_out * 2 * x

        class Exp(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                result = torch.exp(x)
                ctx.save_for_backward(result)
                return result

            @staticmethod
            def backward(ctx, grad_out):
                (result,) = ctx.saved_tensors
                return grad_out * result

        x = _x(torch)
        (g,) = torch.autograd.grad(Square.apply(x).sum(), x, create_graph=True)
        (gg,) = torch.autograd.grad(g.sum(), x)
        (h,) = torch.autograd.grad(Exp.apply(x).sum(), x, create_graph=True)
        (hh,) = torch.autograd.grad(h.sum(), x)
        return g, gg, h, hh, torch.autograd.gradcheck(Square.apply, (x,)), \
            torch.autograd.gradgradcheck(Exp.apply, (x,))

    compare(scenario)


def test_custom_function_hooks_and_graph():
    def scenario(torch):
        log = []

        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                return x * y

            @staticmethod
            def backward(ctx, g):
                log.append("backward")
                return g, g

        x = _x(torch)
        y = F.apply(x, x * 2)
        y.grad_fn.register_prehook(lambda go: log.append("pre"))
        y.grad_fn.register_hook(lambda gi, go: log.append(("post", len(gi))))
        y.register_hook(lambda g: log.append("tensor"))
        y.sum().backward()
        return log, x.grad, [n is None or n.name() for n, _ in y.grad_fn.next_functions]

    compare(scenario)


def _deep_reentrant(torch, depth):
    class DeepReentrant(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            with torch.enable_grad():
                ctx.x = x.detach().requires_grad_(True) - 1
            return ctx.x.detach()

        @staticmethod
        def backward(ctx, g):
            if ctx.x < 0:
                return g
            with torch.enable_grad():
                DeepReentrant.apply(ctx.x).sum().backward()
            return g

    v = torch.tensor(float(depth), requires_grad=True)
    DeepReentrant.apply(v).sum().backward()
    return v.grad


def test_reentrant_backward():
    def scenario(torch):
        order = []

        class Inner(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * 2

            @staticmethod
            def backward(ctx, g):
                (x,) = ctx.saved_tensors
                order.append("outer node")
                with torch.enable_grad():
                    inner = x.detach().requires_grad_(True)
                    y = (inner ** 3).sum()
                    y.grad_fn.register_hook(lambda gi, go: order.append("inner graph"))
                    (gi,) = torch.autograd.grad(y, inner)
                    z = (inner * 2).sum()
                    z.backward()
                order.append(("inner grads", gi, inner.grad))
                return g * gi

        x = _x(torch)
        w = x.exp()
        w.grad_fn.register_hook(lambda gi, go: order.append("after"))
        Inner.apply(w).sum().backward()
        return order, x.grad, _deep_reentrant(torch, 200)

    compare(scenario)


def test_deep_reentrant_backward_10000():
    """10,000 nested reentrant backward calls: no RecursionError (Note [Reentrant
    backward]: past a depth the inner call moves to a fresh thread, like PyTorch's pool)."""
    assert _deep_reentrant(autotensor, 10_000).item() == 1.0


def test_reentrant_error_propagates():
    def scenario(torch):
        class Bad(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 1

            @staticmethod
            def backward(ctx, g):
                with torch.enable_grad():
                    t = torch.ones(1, requires_grad=True)
                    (t * 2).sum().backward()
                    (t * 2).sum().backward()
                    t.sum().backward(inputs=[])
                return g

        return catch(lambda: Bad.apply(_x(torch)).sum().backward())

    compare(scenario)


@pytest.mark.parametrize("n", [1, 3])
def test_apply_outside_grad_mode_returns_plain_outputs(n):
    def scenario(torch):
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return tuple(x * (i + 1) for i in range(n)) if n > 1 else x * 2

            @staticmethod
            def backward(ctx, *g):
                return g[0]

        x = _x(torch)
        with torch.no_grad():
            a = F.apply(x)
        b = F.apply(torch.tensor(X))
        return a, b

    compare(scenario)
