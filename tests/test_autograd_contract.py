"""The rest of PyTorch's autograd contract (issue 10), scenario by scenario against torch:
hook call order as logs, hooks that see undefined (None) gradients, retain_grad following a
tensor through in-place ops, GradientEdge as outputs and inputs of grad/backward, calling
a node directly, materialize_grads, empty ``inputs``, mark_dirty on views, save_on_cpu,
disable_saved_tensors_hooks, checkpoint(debug=True)."""
import numpy as np
import pytest

from differential import catch, compare

A = np.array([1.0, 2.0])
B = np.array([1.0, 2.0, 3.0])


def _t(torch, a=A, grad=True):
    return torch.tensor(a, requires_grad=grad)


def _none_for_first(torch):
    """A Function whose backward gives None for its first input."""
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a * 1.0 + b

        @staticmethod
        def backward(ctx, g):
            return None, g
    return F


# ---- hook order --------------------------------------------------------------------
def test_full_hook_order_log():
    """tensor hooks (in registration order, retain_grad among them seeing what the hooks
    registered before it returned), node pre-hooks, the node, node post-hooks."""
    def scenario(torch):
        log = []
        x = _t(torch)
        y = x * 2
        y.register_hook(lambda g: log.append(("t1", g)) or g * 10)
        y.retain_grad()
        y.register_hook(lambda g: log.append(("t2", g)) or g + 1)
        y.grad_fn.register_prehook(lambda go: log.append(("pre", go)) or (go[0] * 100,))
        y.grad_fn.register_hook(lambda gi, go: log.append(("post", gi, go)))
        x.register_hook(lambda g: log.append(("leaf", g)))
        (y * 3).sum().backward()
        return log, y.grad, x.grad
    compare(scenario)


def test_retain_grad_does_not_see_node_prehook_changes():
    def scenario(torch):
        log = []
        x = _t(torch)
        y = x * 2
        y.retain_grad()
        y.register_hook(lambda g: log.append(("t", g)) or g * 5)
        y.grad_fn.register_prehook(lambda go: log.append(("pre", go)) or (go[0] * 100,))
        (y * 3).sum().backward()
        return log, y.grad, x.grad
    compare(scenario)


def test_grad_inputs_run_tensor_hooks_not_node_hooks_of_unexecuted_nodes():
    def scenario(torch):
        log = []
        x = _t(torch)
        y = x * 2
        z = y.exp()
        y.register_hook(lambda g: log.append(("yt", g)) or g * 3)
        y.grad_fn.register_prehook(lambda go: log.append("ypre"))
        y.grad_fn.register_hook(lambda gi, go: log.append("ypost"))
        z.register_hook(lambda g: log.append(("zt", g)))
        z.grad_fn.register_prehook(lambda go: log.append("zpre"))
        z.grad_fn.register_hook(lambda gi, go: log.append("zpost"))
        x.register_hook(lambda g: log.append("xt"))
        first = torch.autograd.grad(z.sum(), [y], retain_graph=True)
        log.append("--")
        second = torch.autograd.grad(z.sum(), [z, y])
        return log, first, second
    compare(scenario)


def test_grad_of_leaf_runs_its_hooks_but_not_accumulation():
    def scenario(torch):
        log = []
        x = _t(torch)
        x.register_hook(lambda g: log.append(("xt", g)) or g * 3)
        x.register_post_accumulate_grad_hook(lambda t: log.append("postacc"))
        g = torch.autograd.grad((x * 2).sum(), [x])
        return log, g, x.grad
    compare(scenario)


def test_hooks_on_outputs_of_multi_output_ops():
    def scenario(torch):
        log = []
        x = torch.tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), requires_grad=True)
        a, b = x.unbind(0)
        a.register_hook(lambda g: log.append(("a", g)) or g * 2)
        b.register_hook(lambda g: log.append(("b", g)))
        a.retain_grad()
        b.retain_grad()
        a.grad_fn.register_prehook(lambda go: log.append(("pre", go)))
        (a * 3 + b * 5).sum().backward()
        s = torch.tensor(np.arange(5.0), requires_grad=True)
        parts = s.split(2)
        for n, p in enumerate(parts):
            p.register_hook(lambda g, n=n: log.append((n, g)) or g * (n + 2))
        (parts[0] * 3 + parts[1].sum() + parts[2]).sum().backward()
        return log, x.grad, a.grad, b.grad, s.grad, a.grad_fn is b.grad_fn
    compare(scenario)


def test_hooks_of_an_unused_output_are_called_with_none():
    """PyTorch calls tensor hooks with None where a multi-output node's gradient for that
    output is undefined; retain_grad keeps nothing."""
    def scenario(torch):
        log = []
        x = torch.tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), requires_grad=True)
        a, b = x.unbind(0)
        a.register_hook(lambda g: log.append(("a", g)) or g * 2)
        b.register_hook(lambda g: log.append(("b", g)))
        b.retain_grad()
        a.grad_fn.register_prehook(lambda go: log.append(("pre", go)))
        (a * 3).sum().backward()
        return log, x.grad, b.grad
    compare(scenario)


def test_hooks_see_none_from_a_function_returning_none():
    def scenario(torch):
        F = _none_for_first(torch)
        log = []
        x, w = _t(torch), _t(torch)
        x.register_hook(lambda g: log.append(("x", g)))
        x.register_post_accumulate_grad_hook(lambda t: log.append(("xpost", t.grad)))
        F.apply(x, w).sum().backward()
        y = x * 2
        y.register_hook(lambda g: log.append(("y", g)))
        y.retain_grad()
        y.grad_fn.register_prehook(lambda go: log.append(("pre", go)))
        y.grad_fn.register_hook(lambda gi, go: log.append(("post", gi, go)))
        F.apply(y, w).sum().backward(retain_graph=True)
        grads = torch.autograd.grad(F.apply(y, w).sum(), [y, x], allow_unused=True)
        return log, x.grad, y.grad, grads

    def replace(torch):
        F = _none_for_first(torch)
        x, w = _t(torch), _t(torch)
        y = x * 2
        y.register_hook(lambda g: torch.ones(2, dtype=torch.float64))
        first = catch(lambda: F.apply(y, w).sum().backward())
        x.register_hook(lambda g: torch.ones(2, dtype=torch.float64))
        return first, catch(lambda: F.apply(x, w).sum().backward()), x.grad
    compare(scenario)
    compare(replace)


# ---- hooks and in-place ops --------------------------------------------------------
def test_retain_grad_follows_inplace_ops_other_hooks_stay():
    def scenario(torch):
        log = []
        x = _t(torch)
        y = x * 2
        y.register_hook(lambda g: log.append(("before", g)) or g * 10)
        y.retain_grad()
        y.mul_(3)
        y.register_hook(lambda g: log.append(("after", g)) or g + 1)
        y.retain_grad()  # (already retaining: no second hook)
        y.add_(1)
        (y * y).sum().backward()
        return log, y.grad, x.grad, y.grad_fn.name()
    compare(scenario)


def test_inplace_through_view_moves_base_retain_grad_to_copyslices():
    def scenario(torch):
        log = []
        x = _t(torch, B)
        b = x * 2
        b.retain_grad()
        b.register_hook(lambda g: log.append(("b", g)))
        v = b[:2]
        v.retain_grad()
        v.mul_(5)
        (b * b).sum().backward()
        return log, b.grad, v.grad, x.grad, b.grad_fn.name(), v.grad_fn.name()

    def base_modified(torch):
        x = _t(torch, B)
        b = x * 2
        v = b[:2]
        v.retain_grad()
        b.mul_(5)
        (v * v).sum().backward()
        return v.grad, x.grad, v.grad_fn.name()
    compare(scenario)
    compare(base_modified)


def test_retain_grad_follows_mark_dirty():
    def scenario(torch):
        class Double(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                a.mul_(2)
                ctx.mark_dirty(a)
                return a

            @staticmethod
            def backward(ctx, g):
                return g * 2
        x = _t(torch)
        y = x * 1
        y.retain_grad()
        Double.apply(y)
        (y * y).sum().backward()
        return y.grad, x.grad
    compare(scenario)


# ---- GradientEdge ------------------------------------------------------------------
def test_gradient_edges_as_inputs_and_outputs():
    def scenario(torch):
        G = torch.autograd.graph
        x = _t(torch)
        y = x * 2
        z = y.exp()
        ey, ex, ez = G.get_gradient_edge(y), G.get_gradient_edge(x), G.get_gradient_edge(z)
        out = [ey.node.name(), ey.output_nr, ex.node.name(), type(ey).__name__]
        out.append(torch.autograd.grad((z * z).sum(), [ey, ex, y], retain_graph=True))
        out.append(torch.autograd.grad(ez, x, grad_outputs=torch.ones(2, dtype=torch.float64),
                                       retain_graph=True))
        out.append(catch(torch.autograd.grad, ez, x))
        out.append(catch(torch.autograd.grad, ez, x, grad_outputs=torch.ones(3)))
        a, b = x.unbind()
        eb = G.get_gradient_edge(b)
        out += [eb.output_nr, eb.node.name(), torch.autograd.grad(a * b * 3, [eb])]
        s = (x * 3).sum()
        out.append(torch.autograd.grad(G.get_gradient_edge(s), x))
        out.append(catch(G.get_gradient_edge, torch.ones(1)))
        unused = G.get_gradient_edge(_t(torch) * 1)
        out.append(torch.autograd.grad(s, [unused], allow_unused=True, retain_graph=True))
        out.append(catch(torch.autograd.grad, s, [unused, x], materialize_grads=True))
        return out
    compare(scenario)


def test_gradient_edges_in_backward():
    def scenario(torch):
        G = torch.autograd.graph
        x, w = _t(torch), _t(torch, np.array([3.0, 4.0]))
        y = x * w
        (y * y).sum().backward(inputs=[G.get_gradient_edge(x)])
        first = (x.grad, w.grad)
        v = x * 2
        torch.autograd.backward((v * v).sum(), inputs=[G.get_gradient_edge(v)])
        u = x * 2
        torch.autograd.backward(G.get_gradient_edge(u),
                                grad_tensors=torch.ones(2, dtype=torch.float64))
        return first, x.grad, v.grad
    compare(scenario)


def test_grad_with_dict_inputs():
    def scenario(torch):
        x, w = _t(torch), _t(torch, np.array([3.0, 4.0]))
        r = torch.autograd.grad((x * w).sum(), {"a": x, "b": w})
        return sorted(r), r["a"], r["b"], catch(torch.autograd.backward, (x * w).sum(),
                                                 inputs={}.keys())
    compare(scenario)


# ---- calling nodes, materialize_grads, empty inputs --------------------------------
def test_calling_a_node_directly():
    def scenario(torch):
        x = torch.tensor(np.array([1.0, 2.0]), requires_grad=True)
        y = x * x
        out = [y.grad_fn(torch.ones(2, dtype=torch.float64)), y.grad_fn(None)]
        for args in [(), (1,), (torch.ones(2), torch.ones(2)), ("a",)]:
            out.append(catch(y.grad_fn, *args))
        out.append(catch(lambda: y.grad_fn(grad=torch.ones(2))))
        out.append((x * 2).grad_fn(torch.ones(2, dtype=torch.float64)))
        s = x.sum()
        out += [s.grad_fn(torch.tensor(1.0, dtype=torch.float64)),
                catch(lambda: s.grad_fn(torch.ones(3)))]
        a, b = x.unbind()
        out += [a.grad_fn(torch.tensor(1.0, dtype=torch.float64), None),
                catch(lambda: a.grad_fn(torch.tensor(1.0)))]

        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2
        o = F.apply(x)
        out += [catch(lambda: o.grad_fn(torch.ones(2))),
                o.grad_fn.apply(torch.ones(2, dtype=torch.float64))]
        acc = (x * 2).grad_fn.next_functions[0][0]
        out += [acc(torch.ones(2, dtype=torch.float64)), x.grad]
        return out
    compare(scenario)


def test_materialize_grads_and_empty_inputs():
    def scenario(torch):
        x, w = _t(torch), _t(torch)
        y = (x * 2).sum()
        out = [torch.autograd.grad(y, [x, w], materialize_grads=True, retain_graph=True)]
        for kw in [dict(materialize_grads=True, allow_unused=False), dict(allow_unused=False),
                   dict(materialize_grads=True, allow_unused=True)]:
            out.append(catch(torch.autograd.grad, y, [x, w], retain_graph=True, **kw))
        g = torch.autograd.grad(y, [x, w], materialize_grads=True, create_graph=True)
        out.append([t.requires_grad for t in g])
        y = (x * 2).sum()
        out += [catch(lambda: y.backward(inputs=[])),
                catch(torch.autograd.backward, y, inputs=()),
                catch(torch.autograd.grad, y, []),
                catch(torch.autograd.grad, y, ())]
        return out
    compare(scenario)


# ---- saved tensors -----------------------------------------------------------------
@pytest.mark.parametrize("pin", [False, True])
def test_save_on_cpu_packing(pin):
    """Without pin_memory the CPU tensor itself is packed (later in-place changes show,
    no version error); with it, a copy."""
    def scenario(torch):
        x = _t(torch)
        with torch.autograd.graph.save_on_cpu(pin_memory=pin):
            y = x * x
        s = y.grad_fn._saved_self
        with torch.no_grad():
            x.mul_(2)
        return s, s is x, catch(lambda: y.sum().backward()), x.grad
    compare(scenario)


def test_disable_saved_tensors_hooks_with_hooks_already_registered():
    def scenario(torch):
        G = torch.autograd.graph
        out = []
        with G.saved_tensors_hooks(lambda t: t, lambda t: t):
            out.append(catch(lambda: G.disable_saved_tensors_hooks("late").__enter__()))
        with G.saved_tensors_hooks(lambda t: t, lambda t: t):  # (state left as it was)
            pass
        out.append(catch(torch.is_inference, [1]))
        return out
    compare(scenario)


# ---- mark_dirty on views -----------------------------------------------------------
_DIRTY_CASES = ["split", "nograd", "nograd_nobase", "detach", "plain_nograd_base",
                "plain_view_base_grad", "nonview_nograd", "view_of_leaf"]


@pytest.mark.parametrize("case", _DIRTY_CASES)
def test_mark_dirty_on_views(case):
    """Which views a Function may modify in place and mark dirty (PyTorch's errors
    otherwise), and what the graph looks like after."""
    def scenario(torch):
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a, w):
                a.mul_(2)
                ctx.mark_dirty(a)
                return a

            @staticmethod
            def backward(ctx, g):
                return g * 3, None
        x = _t(torch, np.array([1.0, 2, 3, 4]))
        b = x * 1
        w = _t(torch)
        if case == "split":
            v = b.split(2)[0]
        elif case == "nograd":
            with torch.no_grad():
                v = b[:2]
        elif case == "nograd_nobase":
            b = torch.ones(4, dtype=torch.float64)
            with torch.no_grad():
                v = b[:2]
        elif case == "detach":
            v = b.detach()[:2]
        elif case == "plain_nograd_base":
            b = torch.ones(4, dtype=torch.float64)
            v = b[:2]
        elif case == "plain_view_base_grad":
            v = b[:2]
        elif case == "view_of_leaf":
            v = x[:2]
        else:
            v = torch.ones(2, dtype=torch.float64)
        o = catch(F.apply, v, w)
        if not isinstance(o, torch.Tensor):
            return o
        o.sum().backward()
        return (o, o is v, o.grad_fn.name(), b.grad_fn and b.grad_fn.name(), b.requires_grad,
                x.grad, w.grad)
    compare(scenario)


def test_mark_dirty_view_with_several_outputs_and_not_an_input():
    def scenario(torch):
        class Two(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                a.mul_(2)
                ctx.mark_dirty(a)
                return a, a * 3

            @staticmethod
            def backward(ctx, g1, g2):
                return g1 * 2 + g2 * 6

        class ViewInside(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                v = a[:2]
                v.mul_(2)
                ctx.mark_dirty(v)
                return v

            @staticmethod
            def backward(ctx, g):
                return g
        x = _t(torch, B)
        b = x * 1
        two_plain = Two.apply(x * 1)
        return (catch(Two.apply, b[:2]), catch(ViewInside.apply, b),
                [t.grad_fn.name() for t in two_plain])
    compare(scenario)


# ---- checkpoint(debug=True) --------------------------------------------------------
def _nondeterministic_checkpoint(torch):
    from importlib import import_module
    checkpoint = import_module(torch.__name__ + ".utils.checkpoint")
    calls = [0]

    def f(x):
        calls[0] += 1
        y = x.sin()
        if calls[0] > 1:
            y = y[:1]
        return y.cos()
    x = torch.ones(2, requires_grad=True)
    out = checkpoint.checkpoint(f, x, use_reentrant=False, debug=True)
    try:
        out.sum().backward()
    except checkpoint.CheckpointError as e:
        return str(e)
    raise AssertionError("no CheckpointError")


def test_checkpoint_debug_message_structure():
    """With debug=True a recomputation mismatch raises PyTorch's message: the operators of
    the original forward and of the recomputation, each with the stack that ran it (the
    user's line among them), then the two op logs and the same closing guidance."""
    torch = pytest.importorskip("torch")
    import autotensor
    expected = _nondeterministic_checkpoint(torch)
    actual = _nondeterministic_checkpoint(autotensor)
    headers = ["1. Stack traces of the operators that ran in the original forward",
               "2. Stack traces of the operators that ran during recomputation",
               "3. Log of operators in the original forward and recomputation",
               "Operations executed during the original forward:",
               "Operations executed during recomputation:",
               "ERROR: Detected non-determinism while running activation checkpointing"]
    for text in (expected, actual):
        positions = [text.index(h) for h in headers]
        assert positions == sorted(positions)
        assert "(1 of 2 in original)" in text and "(2 of 2 in original)" in text
        assert "in recompute)" in text
        assert "sin" in text and "cos" in text
        assert "test_autograd_contract.py" in text  # the stack reaches the user's code
    assert actual.split("+---")[-1] == expected.split("+---")[-1]
    assert actual.splitlines()[:4] == expected.splitlines()[:4]


# ---- found by the fuzzer's new steps -----------------------------------------------
def test_function_outputs_without_a_graph():
    """Under no_grad an input that requires grad comes back detached, dirty or not; marked
    dirty, its version goes up twice (the write and mark_dirty) even when an error
    follows; a Function's forward runs with forward AD off."""
    def scenario(torch):
        class Dirty(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                a.mul_(2)
                ctx.mark_dirty(a)
                return a

            @staticmethod
            def backward(ctx, g):
                return g * 2
        x = _t(torch)
        with torch.no_grad():
            o = Dirty.apply(x)
        s = _t(torch, np.array([1.0, 2.0, 3.0, 4.0])).split(2)[0]
        with torch.no_grad():
            p = Dirty.apply(s)
        leaf = _t(torch)
        err = catch(Dirty.apply, leaf)
        fw = torch.autograd.forward_ad
        with fw.dual_level():
            d = fw.make_dual(torch.tensor(A), torch.tensor(np.array([0.5, 1.0])))
            plain = torch.tensor(A)
            fw_err = catch(Dirty.apply, d)
            tangent = fw.unpack_dual(d).tangent
            Dirty.apply(plain)
        return (o, o is x, x._version, p, err, leaf._version, leaf.grad_fn, fw_err, tangent,
                plain)
    compare(scenario)


def test_views_of_a_detached_tensor_made_a_leaf():
    def scenario(torch):
        out = []
        for no_grad in (False, True):
            v0 = torch.tensor(B).detach().requires_grad_()
            if no_grad:
                with torch.no_grad():
                    v1 = v0[:2]
            else:
                v1 = v0[:2]
            out += [v1.requires_grad, v1.grad_fn and v1.grad_fn.name(), v1.is_leaf,
                    catch(v1.mul_, 2), catch(v1.retain_grad)]
        return out
    compare(scenario)


def test_setitem_and_expand_found_by_the_fuzzer():
    def scenario(torch):
        v0 = torch.tensor(A)
        v6 = v0.unsqueeze(0)
        v6[...] = v0  # (full overlap: allowed)
        bad = torch.zeros(3, dtype=torch.bool)
        return (v6, catch(v6.add_, v0), catch(v6.copy_, v0),
                catch(lambda: torch.zeros(0, 2, 1).__setitem__(..., torch.zeros(0, 2))),
                catch(lambda: bad.__setitem__(0, torch.ones(2, dtype=torch.bool))),
                catch(lambda: torch.ones(2, requires_grad=True).expand(())))
    compare(scenario)


# ---- graph API ---------------------------------------------------------------------
def test_node_name_metadata_and_increment_version():
    def scenario(torch):
        G = torch.autograd.graph
        x = _t(torch)
        y = (x * 2).sum()
        n = y.grad_fn
        n.metadata["k"] = 1
        acc = n.next_functions[0][0].next_functions[0][0]
        y2 = x.exp()
        v0 = y2._version
        G.increment_version(y2)
        G.increment_version([y2, x])
        with torch.inference_mode():
            inf = torch.ones(2)
        G.increment_version(inf)

        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a * 2

            @staticmethod
            def backward(ctx, g):
                return g
        f = F.apply(x)
        return (n.name(), n.metadata, y.grad_fn.metadata, acc.name(), acc.metadata,
                acc.variable is x, v0, y2._version, x._version, catch(lambda: inf._version),
                catch(lambda: y2.sum().backward()), f.grad_fn.name(), f.grad_fn.metadata)
    compare(scenario)
