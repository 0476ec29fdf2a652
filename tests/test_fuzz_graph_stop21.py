"""Fuzz stop 21 (helper fz6a): the autograd-graph / forward-AD / views classes, each as its
reproducer (tests/fuzz/pending_stop2*) and a differential sweep of its neighbours against
PyTorch. Every test compares with torch, so the file needs it."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

LEVEL = "torch.autograd.forward_ad.enter_dual_level()"


def _dual(name, value, requires_grad=False, dtype="float32"):
    """Fuzzer lines making ``name`` a dual tensor of ``value`` (tangent 1.624 everywhere)."""
    arr = np.asarray(value, dtype=dtype)
    rg = ", requires_grad=True" if requires_grad else ""
    return [f"{name} = torch.tensor(np.array({arr.tolist()!r}, dtype={dtype!r}).reshape("
            f"{arr.shape!r}){rg})",
            f"{name} = torch.autograd.forward_ad.make_dual({name}, torch.tensor(np.full("
            f"{arr.shape!r}, 1.624), dtype={name}.dtype))"]


FINDINGS = {
    # a saved result of an in-place op keeps self's tangent (PyTorch's SavedVariable)
    "grad through sqrt_ under a level has a tangent (s20 repro_001)":
        [LEVEL, *_dual("v0", 1.764, True), "v3 = v0.add(v0)", "v4 = v3.sqrt_()",
         "v5 = torch.autograd.grad(v3, [v0])[0]"],
    "grad through exp_ under a level has a tangent (s20 end_repro_004)":
        [LEVEL, *_dual("v0", 1.764, True), "v1 = v0.add(v0)", "v2 = v1.exp_()",
         "v3 = torch.autograd.grad(v1, [v0])[0]"],
    # a tangent broadcast from 0-d to (1,) is the output's own, not a view of the input's
    "0-d dual plus a (1,) tensor, then the dual written (s20 end_repro_003)":
        [LEVEL, *_dual("v0", 1.764), *_dual("v1", [1.764]), "v3 = v1.logical_not()",
         "v4 = v0.add(v3)", "v0[...] = 0"],
    # rot90 copies, even a 1x1 input and k=0
    "rot90 of a 1x1 dual, then add_ on the input (s21 repro_014)":
        [LEVEL, *_dual("v0", [[1.764]]), "v1 = v0.rot90()", "v0.add_(v0)"],
    # a view's grad_fn is rebuilt after its base's detach_() and an in-place op
    "view after base.detach_() and exp_() (s20 repro_003)":
        ["v0 = torch.tensor(np.array(1.764, dtype='float32'), requires_grad=True)",
         "v1 = v0.transpose(0, 0)", "v2 = v0.detach_()", "v3 = v0.exp_()"],
    # NotImplemented keeps the (None, 0) edge of an input requiring grad without history
    "floor_divide by a no_grad view (s21 repro_010)":
        ["v0 = torch.tensor(np.array(1.764, dtype='float32'), requires_grad=True)",
         "with torch.no_grad():\n    v3 = v0.unsqueeze(0)", "v4 = v0 // v3"],
    "floor_divide by a no_grad custom Function view (s20 repro_007)":
        ["v0 = torch.tensor(np.array(1.764, dtype='float32'), requires_grad=True)",
         "with torch.no_grad():\n    v1 = _View.apply(v0)", "v2 = v0.floor_divide(v1)"],
    # tensordot of a one-element result is a dot
    "inner of (1, 0) duals is a dot (s21 repro_018)":
        [LEVEL, "v0 = torch.tensor(np.zeros((1, 0), dtype='float32'), requires_grad=True)",
         "v0 = torch.autograd.forward_ad.make_dual(v0, torch.zeros((1, 0)))",
         "v5 = v0.inner(v0)"],
    # view + in-place messages: PyTorch's CreationMeta and prefix rules
    "no_grad view of an unrecorded custom Function, base written (s20 end_repro_007)":
        [LEVEL, *_dual("v0", 1.764),
         "v3 = v0.detach().to(torch.float32).requires_grad_()",
         "with torch.no_grad():\n    v4 = _View.apply(v3)", "v5 = v0.exp_()"],
    "split under no_grad, written (s21 repro_004)":
        [LEVEL, "v0 = torch.tensor(np.zeros((0,), dtype='float32'), requires_grad=True)",
         "v0 = torch.autograd.forward_ad.make_dual(v0, torch.zeros((0,)))",
         "with torch.no_grad():\n    v6 = v0.split(1, 0)[0]", "v7 = v6.exp_()"],
    "no_grad view of a dual made a leaf (s21 repro_005)":
        [LEVEL, *_dual("v0", 1.764), "v1 = v0.requires_grad_()",
         "with torch.no_grad():\n    v2 = v0.view(-1)"],
}


@pytest.mark.parametrize("name", sorted(FINDINGS))
def test_fuzz_finding(name):
    from tests.fuzz.core import run_and_compare
    try:
        run_and_compare(FINDINGS[name])
    finally:
        if autotensor.autograd.forward_ad._current[0] >= 0:
            autotensor.autograd.forward_ad.exit_dual_level()


def _both(fn):
    """fn(lib) on autotensor and on torch: (ours, theirs), each a result or an error."""
    out = []
    for lib in (autotensor, torch):
        try:
            out.append(fn(lib))
        except Exception as e:  # noqa: BLE001
            out.append(f"{type(e).__name__}: {e}")
    return out


def _arr(t):
    return None if t is None else np.asarray(t.detach().double().tolist())


INPLACE_SAVING_RESULT = ["sqrt_", "rsqrt_", "exp_", "tanh_", "sigmoid_", "exp2_", "expm1_",
                         "reciprocal_", "relu_", "pow_", "div_"]


@pytest.mark.parametrize("op", INPLACE_SAVING_RESULT)
@pytest.mark.parametrize("self_dual", [True, False])
def test_saved_result_of_inplace_op_keeps_tangent(op, self_dual):
    """autograd.grad under a level runs formulas on saved values with their tangents: an
    in-place op's saved result has self's tangent after the write (set in record_inplace
    as propagate does for out-of-place ops), whether self had one before or not."""
    def run(lib):
        fw = lib.autograd.forward_ad
        with fw.dual_level():
            x = lib.tensor([1.5, 0.7], dtype=lib.float64, requires_grad=True)
            e = fw.make_dual(lib.tensor([2.0, 3.0], dtype=lib.float64, requires_grad=True),
                             lib.tensor([1.0, -0.5], dtype=lib.float64))
            y = x * e if self_dual else x.exp()
            args = {"pow_": (e,), "div_": (e,)}.get(op, ())
            getattr(y, op)(*args)
            g = lib.autograd.grad(y.sum(), [x, e], allow_unused=True)
            return [(_arr(t), _arr(fw.unpack_dual(t).tangent) if t is not None else None)
                    for t in g]
    ours, theirs = _both(run)
    assert repr(ours) == repr(theirs) or all(
        (a is None and b is None) or np.allclose(a, b, rtol=1e-12)
        for pa, pb in zip(ours, theirs) for a, b in zip(pa, pb)), (ours, theirs)


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "maximum", "atan2", "hypot",
                                "copysign", "where"])
@pytest.mark.parametrize("other_shape", [(1,), (1, 1)])
def test_broadcast_tangent_is_not_the_inputs(op, other_shape):
    """A 0-d dual combined with a one-element tensor: its tangent reshaped to the result's
    shape is a copy (an output never shares an input's tangent), so writing the input later
    leaves the output's tangent alone."""
    def run(lib):
        fw = lib.autograd.forward_ad
        with fw.dual_level():
            x = fw.make_dual(lib.tensor(1.75), lib.tensor(1.5))
            o = lib.full(other_shape, 0.5)
            r = lib.where(o > 0, x, o) if op == "where" else getattr(lib, op)(x, o)
            x.mul_(3)
            return _arr(fw.unpack_dual(r).tangent)
    ours, theirs = _both(run)
    np.testing.assert_allclose(ours, theirs, rtol=1e-6)


@pytest.mark.parametrize("shape,dims", [((1, 1), (0, 1)), ((2, 3), (0, 1)), ((2, 3), (1, 0)),
                                        ((2, 3, 4), (2, 0)), ((1, 3, 1), (-1, 0))])
def test_rot90_is_a_new_tensor_laid_out_as_torch(shape, dims):
    """aten's rot90 is flip (a copy) then transpose, clone for k = 0 mod 4: never an alias
    of its input (np.rot90 of a 1x1 is one, and ascontiguousarray kept it)."""
    for k in range(-5, 6):
        def run(lib, k=k):
            x = lib.arange(float(np.prod(shape))).reshape(shape)
            r = x.rot90(k, dims)
            x.add_(100)
            return r.tolist(), r.stride()
        ours, theirs = _both(run)
        assert ours == theirs, (k, ours, theirs)


def _chain(t):
    out, fn = [], t.grad_fn
    while fn is not None:
        out.append(fn.name())
        nxt = [f for f, _ in fn.next_functions if f is not None]
        fn = nxt[0] if nxt else None
    return out


@pytest.mark.parametrize("sa,sb,dims", [
    ((1, 3), (1, 3), ([1], [1])), ((1, 3), (3, 1), ([1], [0])), ((2, 3), (3,), ([1], [0])),
    ((3,), (3, 2), ([0], [0])), ((1, 1, 3), (3, 1), ([2], [0])), ((1, 0), (1, 0), ([1], [1])),
    ((0, 3), (0, 3), ([1], [1])), ((1, 3, 1), (3, 1, 1), ([1], [0])),
    ((2, 1, 3), (3, 1), ([0, 2], [1, 0])), ((1, 2), (2, 1), 2), ((3,), (3,), 1),
    ((1,), (1,), 0), ((1, 2), (1, 2), ([0, 1], [0, 1]))])
def test_tensordot_graph_as_torch(sa, sb, dims):
    """PyTorch's tensordot records a dot (not mm) when the result has one element."""
    def run(lib):
        a = lib.ones(sa, requires_grad=True)
        b = lib.ones(sb, requires_grad=True)
        r = lib.tensordot(a, b, dims)
        r.sum().backward()
        return tuple(r.shape), _chain(r), r.tolist(), a.grad.tolist(), b.grad.tolist()
    ours, theirs = _both(run)
    assert ours == theirs


@pytest.mark.parametrize("op", ["detach_", "requires_grad_false"])
@pytest.mark.parametrize("view", ["transpose", "getitem", "view", "unsqueeze"])
def test_view_grad_fn_rebuilt_after_base_loses_grad(op, view):
    """A view that had history is rebuilt (AsStridedBackward0 without an edge) when its base,
    no longer requiring grad, is modified in place; a view without history stays so."""
    def run(lib):
        x = lib.tensor([1.5, 2.5], requires_grad=True) * 1 if op != "detach_" else \
            lib.tensor([1.5, 2.5], requires_grad=True)
        v = {"transpose": lambda: x.transpose(0, 0), "getitem": lambda: x[1:],
             "view": lambda: x.view(2, 1), "unsqueeze": lambda: x.unsqueeze(0)}[view]()
        if op == "detach_":
            x.detach_()
        else:
            x = x.detach()
            v2 = x[:1]
        x.exp_()
        res = [v.requires_grad, v.grad_fn and v.grad_fn.name(),
               v.grad_fn and [f and f.name() for f, _ in v.grad_fn.next_functions]]
        if op != "detach_":
            res.append((v2.requires_grad, v2.grad_fn))
        return res
    ours, theirs = _both(run)
    assert ours == theirs


@pytest.mark.parametrize("other", ["nograd_view", "fn_view", "plain", "leaf"])
def test_not_implemented_node_edges(other):
    """PyTorch's autograd fallback collects the edges of the inputs that require grad: a
    view made under no_grad requires grad and has no edge, so it is (None, 0)."""
    def run(lib):
        class _View(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x.view_as(x)

            @staticmethod
            def backward(ctx, g):
                return g
        x = lib.tensor([1.5, 2.5], requires_grad=True)
        if other in ("nograd_view", "fn_view"):
            with lib.no_grad():
                y = x.unsqueeze(0) if other == "nograd_view" else _View.apply(x)
        else:
            y = lib.tensor([1.0, 2.0], requires_grad=other == "leaf")
        res = []
        for r in (x // y, y // x, y.floor_divide(x)):
            res.append([f and f.name() for f, _ in r.grad_fn.next_functions])
        return res
    ours, theirs = _both(run)
    assert ours == theirs


def _view_cases(lib):
    """Every (source, view maker, mode, write) case: the view's state, or the error."""
    class _View(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.view_as(x)

        @staticmethod
        def backward(ctx, g):
            return g

    class _Id(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    class _Split(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x[:1], x[1:]

        @staticmethod
        def backward(ctx, g, h):
            return lib.cat([g, h])

    def source(kind):
        x = lib.tensor([1.5, 2.5], requires_grad=kind not in ("plain", "det_plain"))
        if kind == "view":
            x = x.view_as(x)
        if kind == "nonleaf":
            x = x * 1
        if kind in ("det_leaf", "det_plain"):
            x = x.detach()
        if kind == "det_nonleaf":
            x = (x * 1).detach()
        return x

    makers = {"view": lambda x: x.view(-1), "split": lambda x: x.split(1)[0],
              "unbind": lambda x: x.unbind()[0][None], "fnview": lambda x: _View.apply(x),
              "fnid": lambda x: _Id.apply(x), "fnsplit": lambda x: _Split.apply(x)[0],
              "viewofsplit": lambda x: x.split(1)[0].view(-1),
              "viewofview": lambda x: x.view(-1).view(-1),
              "detview": lambda x: x.detach().view(-1)}

    def desc(t):
        return (t.requires_grad, t.grad_fn.name() if t.grad_fn is not None else None,
                t._is_view())

    out = []
    for kind in ("plain", "leaf", "view", "nonleaf", "det_leaf", "det_plain", "det_nonleaf"):
        for mk, f in makers.items():
            for mode in ("grad", "nograd", "inference"):
                for write in ("direct_w", "direct_2", "indirect_w", "indirect_2", "none"):
                    try:
                        x = source(kind)
                        w = lib.tensor(2.0, requires_grad=True)
                        if mode == "grad":
                            v = f(x)
                        elif mode == "nograd":
                            with lib.no_grad():
                                v = f(x)
                        else:
                            with lib.inference_mode():
                                v = f(x)
                        r = [desc(v)]
                        if write.startswith("direct"):
                            v.mul_(w if write == "direct_w" else 2)
                        elif write.startswith("indirect"):
                            x.mul_(w if write == "indirect_w" else 2)
                        r.append(desc(v))
                        out.append(f"{kind} {mk} {mode} {write}: {r}")
                    except Exception as e:  # noqa: BLE001
                        out.append(f"{kind} {mk} {mode} {write}: {type(e).__name__}: {e}")
    return out


def test_view_creation_rules_and_messages_as_torch():
    """PyTorch's CreationMeta (by the mode alone; custom Function outputs that are views
    IN_CUSTOM_FUNCTION, recorded or not, MULTI_OUTPUT_NODE with several differentiable
    outputs) and handle_view_on_rebase's message (its prefix by the mode or a missing
    grad_fn, its ending by the CreationMeta), over 945 cases: sources with and without grad
    or history, detached; views, multi-output views, custom Function views, inputs returned
    as is, views of views; made with grad mode on, off, in inference mode; written directly
    or through the base, with or without a value requiring grad."""
    ours, theirs = _view_cases(autotensor), _view_cases(torch)
    diff = [(a, b) for a, b in zip(ours, theirs) if a != b]
    assert not diff, diff[:5]
