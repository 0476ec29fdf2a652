"""The reverse-mode engine, compared with PyTorch scenario by scenario.

Accumulation, execution order, hooks, retain_grad, retain_graph, create_graph,
autograd.grad's options, grad modes (and their thread-locality), the Node API; then two
autotensor-only checks: a 100,000-op chain and the absence of reference cycles.
"""
from __future__ import annotations

import gc
import importlib
import os
import pathlib
import subprocess
import sys
import textwrap
import threading
import types
import weakref

import numpy as np
import pytest
from _gc import collect_until_clean
from differential import catch, compare, node_name


def f32(torch, data, **kwargs):
    return torch.tensor(np.array(data, dtype=np.float32), **kwargs)


def f64(torch, data, **kwargs):
    return torch.tensor(np.array(data, dtype=np.float64), **kwargs)


def walk_nodes(grad_fn):
    """Every node reachable from ``grad_fn``, each once, in a fixed order (iterative DFS)."""
    order, seen, stack = [], set(), [grad_fn]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        order.append(node)
        stack.extend(fn for fn, _ in reversed(node.next_functions))
    return order


def label(node, leaves):
    """A node's class name, with the leaf's name for AccumulateGrad (``leaves``: name->t)."""
    name = node_name(node)
    variable = getattr(node, "variable", None)
    for leaf_name, leaf in leaves.items():
        if variable is leaf:
            return f"{name}({leaf_name})"
    return name


def graph_structure(grad_fn, leaves):
    """``[(label, [(child label or None, input_nr), ...]), ...]`` for the whole graph."""
    return [(label(n, leaves), [(None if fn is None else label(fn, leaves), nr)
                                for fn, nr in n.next_functions])
            for n in walk_nodes(grad_fn)]


# --------------------------------------------------------------------------------------
# accumulation
# --------------------------------------------------------------------------------------
def test_accumulation_across_calls_and_zero():
    def scenario(torch):
        x = f32(torch, [1.0, -2.0, 3.0], requires_grad=True)
        grads = []
        for _ in range(3):
            (x * x).sum().backward()
            grads.append(x.grad.clone())
        zeroed = x.grad.zero_()
        (x * 3).sum().backward()
        return grads, zeroed, x.grad

    compare(scenario)


def test_accumulation_across_paths():
    def scenario(torch):
        x = f32(torch, [0.5, -1.0, 2.0], requires_grad=True)
        w = f32(torch, np.arange(9).reshape(3, 3) / 10, requires_grad=True)
        twice = (x * x + x).sum()                      # a leaf used by two ops
        y = x * 2
        shared = (y * y + y.exp()).sum()               # a non-leaf used by two ops
        residual = (x + torch.tanh(w @ x)).sum()       # a residual connection
        shared_param = ((w @ x) * (w @ x.sin())).sum()  # a parameter used twice
        outs = []
        for out in (twice, shared, residual, shared_param):
            outs.append(torch.autograd.grad(out, [x, w], allow_unused=True))
        return outs

    compare(scenario)


def test_broadcast_bias_gradient_is_summed_back():
    def scenario(torch):
        x = f32(torch, np.arange(12).reshape(4, 3) / 7)
        b = f32(torch, [0.1, 0.2, 0.3], requires_grad=True)
        s = f32(torch, [[2.0]], requires_grad=True)
        out = ((x + b) * s).pow(2).mean()
        out.backward()
        return out, b.grad, s.grad

    compare(scenario)


def test_backward_with_gradient_vector():
    """Seed 004: y.backward(tensor([0.5, 3.0])) is the vector-Jacobian product."""
    def scenario(torch):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x**2
        y.backward(torch.tensor([0.5, 3.0]))
        z = x * 3
        torch.autograd.backward([z], [torch.tensor([1.0, -1.0])])
        return y, x.grad

    res = compare(scenario)
    assert res[1][1].values.tolist() == [4.0, 9.0]  # [1, 12] + [3, -3]


# --------------------------------------------------------------------------------------
# execution order and hooks
# --------------------------------------------------------------------------------------
def _record_order(torch, build):
    """Register a pre-hook and a hook on every node; return the order they fire in."""
    leaves, out = build(torch)
    fired = []
    for node in walk_nodes(out.grad_fn):
        name = label(node, leaves)
        node.register_prehook(lambda grad_outputs, name=name: fired.append("pre " + name))
        node.register_hook(lambda grad_inputs, grad_outputs, name=name: fired.append(name))
    for leaf_name, leaf in leaves.items():
        leaf.register_hook(lambda g, n=leaf_name: fired.append("tensor hook " + n))
    out.backward()
    return fired, {n: t.grad for n, t in leaves.items()}


def _branches(torch):
    x = f32(torch, [0.3, -0.7], requires_grad=True)
    c = x.exp().sin().cos()  # an older, longer branch
    d = x.tanh()             # a newer branch: runs first (highest sequence number)
    return {"x": x}, (c + d).sum()


def _diamond(torch):
    x = f32(torch, [0.3, -0.7], requires_grad=True)
    w = f32(torch, [1.5, 2.0], requires_grad=True)
    h = x * w
    a = h.sigmoid()
    b = h.relu()
    y = (a * b + h).mean()
    return {"x": x, "w": w}, y


def _mlp(torch):
    x = f32(torch, np.arange(6).reshape(2, 3) / 5)
    w1 = f32(torch, np.arange(12).reshape(3, 4) / 10 - 0.5, requires_grad=True)
    b1 = f32(torch, [0.1, -0.2, 0.3, 0.0], requires_grad=True)
    w2 = f32(torch, np.arange(4).reshape(4, 1) / 3, requires_grad=True)
    out = ((x @ w1 + b1).relu() @ w2).sum()
    return {"w1": w1, "b1": b1, "w2": w2}, out


@pytest.mark.parametrize("build", [_branches, _diamond, _mlp], ids=["branches", "diamond", "mlp"])
def test_execution_order(build):
    compare(lambda torch: _record_order(torch, build))


@pytest.mark.parametrize("build", [_branches, _diamond, _mlp], ids=["branches", "diamond", "mlp"])
def test_graph_structure(build):
    """Node names, next_functions (with None and input_nr) of whole graphs."""
    def scenario(torch):
        leaves, out = build(torch)
        return graph_structure(out.grad_fn, leaves)

    compare(scenario)


def test_tensor_hooks_replace_gradients_and_handles_remove():
    def scenario(torch):
        seen = []
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        y = x * x
        h_y = y.register_hook(lambda g: g * 10)               # replaces y's gradient
        y.register_hook(lambda g: seen.append(("y", g.clone())))  # sees the replaced one
        h_x1 = x.register_hook(lambda g: g + 1)
        x.register_hook(lambda g: seen.append(("x", g.clone())))  # returns None: no change
        y.sum().backward(retain_graph=True)
        first = x.grad.clone()
        h_y.remove()
        h_x1.remove()
        h_x1.remove()  # removing twice is harmless
        x.grad = None
        y.sum().backward()
        return first, x.grad, seen

    compare(scenario)


def test_node_hooks_and_prehooks_can_replace_gradients():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        w = f32(torch, [3.0, 4.0], requires_grad=True)
        y = x * w
        z = y.sum()
        record = []

        def prehook(grad_outputs):
            record.append(("pre", grad_outputs))
            return (grad_outputs[0] * 2,)

        def hook(grad_inputs, grad_outputs):
            record.append(("post", grad_inputs, grad_outputs))
            return (grad_inputs[0], grad_inputs[1] * 0)

        handle_pre = y.grad_fn.register_prehook(prehook)
        handle = y.grad_fn.register_hook(hook)
        z.backward(retain_graph=True)
        grads = (x.grad.clone(), w.grad.clone())
        handle_pre.remove()
        handle.remove()
        x.grad = None
        w.grad = None
        z.backward()
        return record, grads, x.grad, w.grad

    compare(scenario)


def test_post_accumulate_grad_hook():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        seen = []
        x.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.clone()))
        (x * 3).sum().backward()
        (x * x).sum().backward()
        return seen, x.grad

    compare(scenario)


def test_retain_grad_and_non_leaf_grad():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        y = x + 2
        y.retain_grad()
        y.retain_grad()  # idempotent
        z = y * y * 3
        out = z.mean()
        flags = (x.is_leaf, y.is_leaf, x.retains_grad, y.retains_grad, z.retains_grad)
        out.backward(retain_graph=True)
        first = (y.grad.clone(), z.grad, x.grad.clone())
        out.backward()
        return flags, first, y.grad, z.grad, x.grad

    compare(scenario)


def test_retain_graph():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        y = (x.exp() * x).sum()
        y.backward(retain_graph=True)
        g1 = x.grad.clone()
        y.backward(retain_graph=True)
        g2 = x.grad.clone()
        y.backward()
        return g1, g2, x.grad, catch(y.backward)

    compare(scenario)


def test_detach_and_data():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        y = x * 2
        d = y.detach()
        flags = (d.requires_grad, d.is_leaf, d.grad_fn, d._version == y._version)
        data = x.data
        data_flags = (data.requires_grad, data.is_leaf)
        z = y * 3
        z.detach_()
        return flags, data_flags, d, z, z.is_leaf, z.requires_grad, z.grad_fn

    compare(scenario)


# --------------------------------------------------------------------------------------
# autograd.grad, inputs=, create_graph
# --------------------------------------------------------------------------------------
def test_autograd_grad_options():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        w = f32(torch, [0.5, -1.0], requires_grad=True)
        u = f32(torch, [5.0, 5.0], requires_grad=True)
        y = x * w
        z = (x * x).sum()
        res = [torch.autograd.grad(y, x, grad_outputs=f32(torch, [1.0, 10.0]),
                                   retain_graph=True)]
        res.append(torch.autograd.grad([y, z], [x, w],
                                       grad_outputs=[f32(torch, [1.0, 1.0]), None],
                                       retain_graph=True))
        res.append(torch.autograd.grad(z, [x, u], allow_unused=True, retain_graph=True))
        res.append(torch.autograd.grad(z, [x, u], materialize_grads=True, retain_graph=True))
        res.append(torch.autograd.grad(z, x, retain_graph=True)[0].requires_grad)
        res.append((x.grad, w.grad, u.grad))  # autograd.grad leaves .grad alone
        return res

    compare(scenario)


def test_backward_inputs():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        w = f32(torch, [3.0, 4.0], requires_grad=True)
        y = x * w
        out = (y * y).sum()
        out.backward(inputs=[x], retain_graph=True)
        only_x = (x.grad.clone(), w.grad)
        out.backward(inputs=[y], retain_graph=True)  # a non-leaf input gets its .grad
        non_leaf = (y.grad, x.grad.clone())
        torch.autograd.backward(out, inputs=[w])
        return only_x, non_leaf, x.grad, w.grad

    compare(scenario)


def test_create_graph_second_derivative():
    """Seed 004: d2/dx2 of x**3 at 2 is 12 (and the first derivative is 12 too)."""
    def scenario(torch):
        x = torch.tensor(2.0, requires_grad=True)
        y = x**3
        first, = torch.autograd.grad(y, x, create_graph=True)
        second, = torch.autograd.grad(first, x)
        return first, second, x.grad

    res = compare(scenario)
    first, second = res[1][0], res[1][1]
    assert float(first.values) == 12.0 and float(second.values) == 12.0


def test_hessian_vector_product():
    def scenario(torch):
        a = f64(torch, [[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])
        x = f64(torch, [0.5, -1.0, 2.0], requires_grad=True)
        v = f64(torch, [1.0, 0.0, -1.0])
        f = (x.exp() * x).sum() + x @ a @ x + (x.sin() ** 2).sum()
        g, = torch.autograd.grad(f, x, create_graph=True)
        hvp, = torch.autograd.grad(g, x, grad_outputs=v, retain_graph=True)
        hvp2, = torch.autograd.grad((g * v).sum(), x)
        return f, g, hvp, hvp2

    compare(scenario, rtol=1e-10, atol=1e-12)


def test_backward_create_graph_makes_grad_differentiable():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        (x**3).sum().backward(create_graph=True)
        g = x.grad
        flags = (g.requires_grad, node_name(g.grad_fn))
        gg, = torch.autograd.grad(g.sum(), x)
        return flags, g, gg

    compare(scenario)


# --------------------------------------------------------------------------------------
# grad modes
# --------------------------------------------------------------------------------------
def test_grad_mode_context_managers():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        res = [torch.is_grad_enabled()]
        with torch.no_grad():
            a = x * 2
            res.append(torch.is_grad_enabled())
            with torch.enable_grad():
                b = x * 2
                res.append(torch.is_grad_enabled())
            c = x * 2
        with torch.set_grad_enabled(False):
            d = x * 2
            with torch.set_grad_enabled(True):
                e = x * 2
        res.append(torch.is_grad_enabled())
        return res, [(t.requires_grad, node_name(t.grad_fn)) for t in (a, b, c, d, e)]

    compare(scenario)


def test_grad_mode_decorators_and_function_form():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0], requires_grad=True)

        @torch.no_grad()
        def f1(t):
            return t * 2

        @torch.no_grad
        def f2(t):
            return t * 2

        @torch.set_grad_enabled(False)
        def f3(t):
            return t * 2

        @torch.enable_grad()
        def f4(t):
            return t * 2

        res = [f(x).requires_grad for f in (f1, f2, f3)]
        with torch.no_grad():
            res.append(f4(x).requires_grad)
            res.append(torch.is_grad_enabled())
        res.append(torch.is_grad_enabled())
        torch.set_grad_enabled(False)  # the plain call switches the mode now
        try:
            res.append((torch.is_grad_enabled(), (x * 2).requires_grad))
        finally:
            torch.set_grad_enabled(True)
        res.append(torch.is_grad_enabled())
        return res

    compare(scenario)


def test_grad_mode_is_thread_local():
    def scenario(torch):
        seen = []

        def worker():
            x = f32(torch, [1.0], requires_grad=True)
            seen.append((torch.is_grad_enabled(), (x * 2).requires_grad))
            with torch.no_grad():
                seen.append(torch.is_grad_enabled())
                barrier.wait()  # main thread checks its mode while we hold no_grad
                barrier.wait()

        barrier = threading.Barrier(2)
        with torch.no_grad():
            t = threading.Thread(target=worker)
            t.start()
            barrier.wait()
            main_under_no_grad = torch.is_grad_enabled()
        main_after = torch.is_grad_enabled()
        barrier.wait()
        t.join()
        return seen, main_under_no_grad, main_after

    res = compare(scenario)
    assert res[1][0][1][0] == ("tuple", [True, True])


# --------------------------------------------------------------------------------------
# the Node API
# --------------------------------------------------------------------------------------
def test_node_api():
    def scenario(torch):
        x = f32(torch, [1.0, 2.0], requires_grad=True)
        w = f32(torch, [3.0, 4.0], requires_grad=True)
        c = f32(torch, [5.0, 6.0])
        b = x * w
        node = b.grad_fn
        acc = node.next_functions[0][0]
        d = b + c
        handle = node.register_hook(lambda gi, go: None)
        pre = node.register_prehook(lambda go: None)
        handle.remove()
        pre.remove()
        return [
            node.name(), node_name(node), acc.name(), node_name(acc),
            acc.variable is x, node.next_functions[1][0].variable is w,
            [(node_name(fn), nr) for fn, nr in node.next_functions],
            [(node_name(fn), nr) for fn, nr in d.grad_fn.next_functions],
            node.metadata, x.grad_fn, x.is_leaf,
            node._saved_self, node._saved_other,
            node._saved_self is x, node._saved_other is w,
            acc.next_functions,
        ]

    compare(scenario)


CORE_OPS = {
    # name: op(torch, x, y, v, idx, mask); x, y: (2, 3) float32 leaves, v: (3,) leaf
    "add": lambda t, x, y, v, i, m: x + y,
    "add_scalar": lambda t, x, y, v, i, m: x + 1,
    "add_broadcast": lambda t, x, y, v, i, m: x + v,
    "sub": lambda t, x, y, v, i, m: x - y,
    "rsub_scalar": lambda t, x, y, v, i, m: 2 - x,
    "sub_alpha": lambda t, x, y, v, i, m: t.sub(x, y, alpha=2),
    "mul": lambda t, x, y, v, i, m: x * y,
    "mul_scalar": lambda t, x, y, v, i, m: x * 2,
    "div": lambda t, x, y, v, i, m: x / y,
    "div_scalar": lambda t, x, y, v, i, m: x / 2,
    "rdiv_scalar": lambda t, x, y, v, i, m: 1 / x,
    "neg": lambda t, x, y, v, i, m: -x,
    "pow_scalar": lambda t, x, y, v, i, m: x ** 2,
    "pow_tensor": lambda t, x, y, v, i, m: x ** y,
    "rpow_scalar": lambda t, x, y, v, i, m: 2 ** x,
    "exp": lambda t, x, y, v, i, m: x.exp(),
    "log": lambda t, x, y, v, i, m: x.log(),
    "sqrt": lambda t, x, y, v, i, m: x.sqrt(),
    "abs": lambda t, x, y, v, i, m: (x - 1).abs(),
    "sin": lambda t, x, y, v, i, m: x.sin(),
    "cos": lambda t, x, y, v, i, m: x.cos(),
    "tanh": lambda t, x, y, v, i, m: x.tanh(),
    "sigmoid": lambda t, x, y, v, i, m: x.sigmoid(),
    "relu": lambda t, x, y, v, i, m: (x - 0.8).relu(),
    "clamp": lambda t, x, y, v, i, m: x.clamp(0.5, 1.0),
    "maximum": lambda t, x, y, v, i, m: t.maximum(x, y),
    "minimum": lambda t, x, y, v, i, m: t.minimum(x, y),
    "where": lambda t, x, y, v, i, m: t.where(m, x, y),
    "sum": lambda t, x, y, v, i, m: x.sum(),
    "sum_dim": lambda t, x, y, v, i, m: x.sum(1),
    "sum_dims_keepdim": lambda t, x, y, v, i, m: x.sum((0, 1), keepdim=True),
    "mean": lambda t, x, y, v, i, m: x.mean(),
    "mean_dim": lambda t, x, y, v, i, m: x.mean(0, keepdim=True),
    "max": lambda t, x, y, v, i, m: x.max(),
    "max_dim": lambda t, x, y, v, i, m: x.max(1),
    "min": lambda t, x, y, v, i, m: x.min(),
    "min_dim": lambda t, x, y, v, i, m: x.min(0),
    "max_ties": lambda t, x, y, v, i, m: (x * 0 + 1).max(),
    "norm": lambda t, x, y, v, i, m: x.norm(),
    "softmax": lambda t, x, y, v, i, m: x.softmax(1),
    "log_softmax": lambda t, x, y, v, i, m: x.log_softmax(1),
    "matmul_2d": lambda t, x, y, v, i, m: x @ y.t(),
    "mm": lambda t, x, y, v, i, m: t.mm(x, y.t()),
    "matmul_mv": lambda t, x, y, v, i, m: x @ v,
    "matmul_dot": lambda t, x, y, v, i, m: v @ v,
    "matmul_batched": lambda t, x, y, v, i, m: x.unsqueeze(0).expand(4, 2, 3) @ y.t(),
    "t": lambda t, x, y, v, i, m: x.t(),
    "transpose": lambda t, x, y, v, i, m: x.transpose(0, 1),
    "permute": lambda t, x, y, v, i, m: x.permute(1, 0),
    "view": lambda t, x, y, v, i, m: x.view(3, 2),
    "reshape": lambda t, x, y, v, i, m: x.reshape(6),
    "reshape_copy": lambda t, x, y, v, i, m: x.t().reshape(6),
    "flatten": lambda t, x, y, v, i, m: x.flatten(),
    "squeeze": lambda t, x, y, v, i, m: x.unsqueeze(0).squeeze(0),
    "unsqueeze": lambda t, x, y, v, i, m: x.unsqueeze(1),
    "expand": lambda t, x, y, v, i, m: x.expand(2, 2, 3),
    "narrow": lambda t, x, y, v, i, m: x.narrow(1, 0, 2),
    "split": lambda t, x, y, v, i, m: x.split(1, 1)[0],
    "chunk": lambda t, x, y, v, i, m: x.chunk(3, 1)[1],
    "index_int": lambda t, x, y, v, i, m: x[0],
    "index_slice_step": lambda t, x, y, v, i, m: x[:, ::2],
    "index_none": lambda t, x, y, v, i, m: x[None],
    "index_ellipsis": lambda t, x, y, v, i, m: x[..., 1],
    "index_mask": lambda t, x, y, v, i, m: x[m],
    "index_tensor": lambda t, x, y, v, i, m: x[t.tensor(np.array([1, 0, 1]))],
    "cat": lambda t, x, y, v, i, m: t.cat([x, y]),
    "stack": lambda t, x, y, v, i, m: t.stack([x, y]),
    "gather": lambda t, x, y, v, i, m: x.gather(1, i),
    "scatter_add": lambda t, x, y, v, i, m: x.scatter_add(1, i, y[:, :2]),
    "index_select": lambda t, x, y, v, i, m: x.index_select(1, t.tensor(np.array([2, 0]))),
    "masked_fill": lambda t, x, y, v, i, m: x.masked_fill(m, 0.0),
    "clone": lambda t, x, y, v, i, m: x.clone(),
    "contiguous": lambda t, x, y, v, i, m: x.t().contiguous(),
    "to_float64": lambda t, x, y, v, i, m: x.to(t.float64),
    "double": lambda t, x, y, v, i, m: x.double(),
    "float": lambda t, x, y, v, i, m: x.float(),
    "linear": lambda t, x, y, v, i, m: t.nn.functional.linear(x, y, v[:2]),
    "mse_loss": lambda t, x, y, v, i, m: t.nn.functional.mse_loss(x, y),
    "gt": lambda t, x, y, v, i, m: x > y,
    "eq": lambda t, x, y, v, i, m: x.eq(y),
}


@pytest.mark.parametrize("op", list(CORE_OPS))
def test_core_op_node_names_and_gradients(op):
    """The node each Core op records (name and next_functions), its value, and the
    gradients it sends to its inputs: against torch's, on the same inputs."""
    def scenario(torch):
        x = f32(torch, np.arange(1, 7).reshape(2, 3) / 4, requires_grad=True)
        y = f32(torch, np.arange(6, 0, -1).reshape(2, 3) / 4, requires_grad=True)
        v = f32(torch, [0.5, 1.5, 2.5], requires_grad=True)
        idx = torch.tensor(np.array([[0, 2], [1, 0]], dtype=np.int64))
        mask = torch.tensor(np.array([[True, False, True], [False, True, False]]))
        out = CORE_OPS[op](torch, x, y, v, idx, mask)
        first = out[0] if isinstance(out, tuple) else out
        structure = [(node_name(n), [(node_name(fn), nr) for fn, nr in n.next_functions])
                     for n in walk_nodes(first.grad_fn)] if first.grad_fn else None
        grads = None
        if first.requires_grad:
            weights = f32(torch, np.linspace(0.5, 1.5, first.numel()).reshape(first.shape))
            grads = torch.autograd.grad((first * weights.to(first.dtype)).sum(), [x, y, v],
                                        allow_unused=True)
        return out, structure, grads

    compare(scenario)


# --------------------------------------------------------------------------------------
# autotensor-only: deep graphs and memory
# --------------------------------------------------------------------------------------
_ROOT = pathlib.Path(__file__).resolve().parents[1]

_CHAIN = textwrap.dedent("""
    import gc, sys, numpy as np
    import {module} as torch
    n = 100_000
    x = torch.tensor(np.array([1.0, 2.0], dtype=np.float32), requires_grad=True)
    y = x
    for i in range(n):
        y = y * 1.0 if i % 2 else y + 0.0
    assert y.grad_fn is not None and str(y).startswith("tensor([1., 2.], grad_fn=")
    g, = torch.autograd.grad(y.sum(), x, retain_graph=True)
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0] and g.tolist() == [1.0, 1.0], (x.grad, g)
    del y, g  # tearing the 100,000-node graph down must not recurse either
    gc.collect()
    print("ok")
""")


@pytest.mark.parametrize("module", ["autotensor", "torch"])
def test_100k_op_chain(module):
    """Backward, autograd.grad and teardown of a 100,000-op chain: no RecursionError and
    no crash (run in a subprocess, so a C stack overflow cannot take pytest down)."""
    if module == "torch":
        pytest.importorskip("torch")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(_ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    proc = subprocess.run([sys.executable, "-c", _CHAIN.format(module=module)],
                          capture_output=True, text=True, timeout=600, cwd=str(_ROOT), env=env)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", (
        f"exit status {proc.returncode}\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")


def _mlp_step(torch, refs):
    """Forward + backward of a small MLP; weak references to every tensor made."""
    x = f32(torch, np.arange(12).reshape(4, 3) / 5)
    target = f32(torch, np.arange(8).reshape(4, 2) / 8)
    w1 = f32(torch, np.arange(15).reshape(3, 5) / 10 - 0.7, requires_grad=True)
    b1 = f32(torch, np.linspace(-0.5, 0.5, 5), requires_grad=True)
    w2 = f32(torch, np.arange(10).reshape(5, 2) / 9 - 0.5, requires_grad=True)
    b2 = f32(torch, [0.1, -0.1], requires_grad=True)
    h = (x @ w1 + b1).relu()
    out = h @ w2 + b2
    loss = ((out - target) ** 2).sum()
    loss.backward()
    saved_node = out.grad_fn  # a node outliving the forward's locals for a moment
    for t in (x, target, w1, b1, w2, b2, h, out, loss, w1.grad, b1.grad, w2.grad, b2.grad):
        refs.append(weakref.ref(t))
    del saved_node
    return float(loss.item())


def _module_of(obj) -> str:
    module = getattr(obj, "__module__", None)
    return module if isinstance(module, str) else ""


def _is_ours(obj, prefix) -> bool:
    """Whether ``obj`` is an object of the library ``prefix`` (its class, function or frame
    comes from it).  Looks only at types, never at arbitrary attributes of ``obj``."""
    if _module_of(type(obj)).startswith(prefix):
        return True
    kind = type(obj)  # type(), not isinstance(): no attribute lookups on lazy modules
    if kind is types.FunctionType or kind is types.BuiltinFunctionType:
        return _module_of(obj).startswith(prefix)
    if kind is types.MethodType:
        return _module_of(type(obj.__self__)).startswith(prefix)
    if kind is types.FrameType:
        return f"{os.sep}{prefix}{os.sep}" in obj.f_code.co_filename
    return False


def _count_ours(prefix) -> int:
    """How many live gc-tracked objects belong to ``prefix`` (gc.get_objects, by module)."""
    return sum(1 for o in gc.get_objects() if _is_ours(o, prefix))


def cycle_check(module_name, step=None):
    """Run ``step(torch, refs)`` (the MLP step by default) with the cycle collector off and
    assert that it leaves nothing for the collector: every tensor in ``refs`` dies by
    reference counting, and one gc.collect() afterwards finds nothing, of ours or anyone's."""
    step = _mlp_step if step is None else step
    torch = importlib.import_module(module_name)
    step(torch, [])  # warm up: first-call caches are not garbage
    collect_until_clean()  # Note [One gc.collect() is not a clean baseline]
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        before = _count_ours(module_name)
        refs: list = []
        step(torch, refs)
        left = _count_ours(module_name) - before  # objects of ours the step left behind
        alive = [r() for r in refs if r() is not None]
        alive_desc = [f"{type(t).__name__}{tuple(t.shape)}" for t in alive]
        del alive
        gc.set_debug(gc.DEBUG_SAVEALL)
        found = gc.collect()
        garbage = list(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was_enabled:
            gc.enable()
    ours = [type(o).__name__ for o in garbage if _is_ours(o, module_name)]
    del garbage
    assert not alive_desc, f"tensors still alive before gc.collect(): {alive_desc}"
    assert left == 0, f"{left} more {module_name} objects tracked by gc after the step"
    assert not ours, f"the cycle collector found {module_name} objects: {ours[:20]}"
    assert found == 0, f"gc.collect() found {found} unreachable objects"


@pytest.mark.parametrize("module_name", ["autotensor", "torch"])
def test_no_reference_cycles(module_name):
    """With the cycle collector off, a forward+backward leaves nothing for it: every
    tensor dies by reference counting as soon as its last reference goes."""
    if module_name == "torch":
        pytest.importorskip("torch")
    cycle_check(module_name)


@pytest.mark.parametrize("expr", ["x + x", "x.add(x)", "x * 2 + x * 2", "x.exp() + x.exp()",
                                  "x + x + x", "(x + x) * x", "x.sum() + x.sum()",
                                  "x.expand(2, 3).sum()", "x[0] + x[0]"])
def test_summed_gradient_version_like_torch(expr):
    """autograd.grad's result shows the in-place sums PyTorch's input buffer did: none when
    both gradients are one tensor (x + x) or the buffer is an expanded view."""
    import autotensor
    torch = pytest.importorskip("torch")
    versions = []
    for T in (autotensor, torch):
        x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
        g = T.autograd.grad(eval(expr, {"x": x}).sum(), [x])[0]
        versions.append(g._version)
    assert versions[0] == versions[1], versions


def test_leaf_gradient_stolen_only_when_nothing_else_holds_it():
    """Note [Stealing gradients]: a gradient no one else holds becomes .grad without a copy
    (Linear's weight gradient, the transposed product, stays that view); one a hook kept,
    the caller's own gradient, or one delivered to two leaves is copied, so writing into
    .grad (the optimizer does) never changes another tensor. Values and .grad's _version
    are PyTorch's either way."""
    import autotensor
    torch = pytest.importorskip("torch")
    lin = autotensor.nn.Linear(4, 3)
    x = autotensor.randn(5, 4)
    autotensor.nn.functional.mse_loss(lin(x), autotensor.randn(5, 3)).backward()
    w = lin.weight.grad._data
    assert w.base is not None and w.flags.c_contiguous  # stolen: not copied
    # held by a hook: copied
    a = autotensor.tensor([1.0, 2.0, 3.0], requires_grad=True)
    kept = []
    a.register_hook(lambda g: kept.append(g))
    (a * a).sin().sum().backward()
    assert not np.shares_memory(a.grad._data, kept[0]._data)
    a.grad.add_(1.0)
    assert not np.array_equal(a.grad._data, kept[0]._data)
    # the caller's gradient (passed through by clone): copied
    for T in (autotensor, torch):
        b = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
        g = T.ones(3)
        b.clone().backward(g)
        b.grad.mul_(5)
        assert g.tolist() == [1.0, 1.0, 1.0] and b.grad._version == 2
    # one gradient for two leaves (AddBackward0 passes it to both): each gets its own
    c = autotensor.tensor([1.0, 2.0], requires_grad=True)
    d = autotensor.tensor([3.0, 4.0], requires_grad=True)
    ((c + d) * 2).sum().backward()
    assert not np.shares_memory(c.grad._data, d.grad._data)
    c.grad.add_(1.0)
    assert d.grad.tolist() == [2.0, 2.0]


_MADE_IN_PLACE = {  # backward formulas PyTorch computes into a fresh tensor written in place
    "median": "v.median()", "nanmedian": "v.nanmedian()", "median_dim": "v.median(1)[0]",
    "nanmedian_dim": "v.nanmedian(0)[0]", "kthvalue": "v.kthvalue(1, 0)[0]",
    "mode": "v.mode(1)[0]", "cummax": "v.cummax(1)[0]", "cummin": "v.cummin(0)[0]",
    "sort_stable": "v.sort(stable=True)[0]", "take": "v.take(T.tensor([0, 4]))",
    "copysign": "v.copysign(w)", "nextafter": "v.nextafter(w)", "max": "v.max() + w.min()",
    "index_put_broadcast": "v.index_put((T.tensor([0, 1]),), w[0])",
    "gather": "v.gather(1, T.tensor([[0, 2], [1, 1]]))", "topk": "v.topk(2)[0]",
    "trace": "v.trace()", "repeat_zero": "v.repeat(0, 1)", "irfft": "T.fft.irfft(v)",
    "maximum_broadcast": "v.maximum(w[0])", "minimum_broadcast": "w[1].minimum(v)",
    # (views of a gradient buffer summed into in place share its version)
    "cat": "T.cat([v, w], 1)", "diff_prepend": "v.diff(prepend=w[:, :1])",
}


# (with create_graph, irfft's gradient reaches a real input through ToCopyBackward0's
# conjugated copy, not a view: version 0 where PyTorch shows 1; not modelled)
@pytest.mark.parametrize("name,create_graph",
                         [(n, False) for n in sorted(_MADE_IN_PLACE)] +
                         [(n, True) for n in sorted(_MADE_IN_PLACE) if n != "irfft"])
def test_gradient_versions_of_in_place_formulas_like_torch(name, create_graph):
    """Note [Gradient versions]: a gradient PyTorch's formula made with zeros(...) and an
    in-place write (masked_fill_, scatter_, put_) shows that write's version, per input."""
    import autotensor
    torch = pytest.importorskip("torch")
    seen = []
    for T in (autotensor, torch):
        v = T.tensor([[1.76, 0.3, 2.0], [0.5, -1.2, 0.7]], requires_grad=True)
        w = T.tensor([[0.4, -0.3, 1.0], [0.25, 1.2, -0.7]], requires_grad=True)
        out = eval(_MADE_IN_PLACE[name], {"v": v, "w": w, "T": T})
        grads = T.autograd.grad((out * out).sum(), [v, w], allow_unused=True,
                                create_graph=create_graph)
        seen.append([None if g is None else (g._version, g.detach().tolist()) for g in grads])
    assert seen[0] == seen[1]
