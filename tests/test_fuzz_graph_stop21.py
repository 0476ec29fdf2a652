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


FINDINGS.update({
    "version of grad through a 1x1 matmul under a level (s21 repro_003)":
        [LEVEL, *_dual("v0", [[1.764]], True), "v1 = v0 @ v0",
         "v2 = torch.autograd.grad(v1.sum(), [v0])[0]"],
    "where of an integer tensor given history by fill_ (s21 repro_006)":
        ["v0 = torch.tensor(np.array(1.764, dtype='float32'), requires_grad=True)",
         "v2 = torch.tensor(np.array([], dtype='int64').reshape((0,)))", "v2[...] = v0",
         "v4 = torch.where(v2 > 0, v2, v2)"],
    "logical_or_ into an expanded gradient (s20 repro_002)":
        [LEVEL, *_dual("v0", [1.764, 0.4], True),
         "v2 = torch.autograd.grad(v0.sum(), [v0])[0]", "v2.logical_or_(v0)"],
})


@pytest.mark.parametrize("op", ["mm", "addmm", "addmm_alpha", "linear", "matmul"])
@pytest.mark.parametrize("level", [False, True])
def test_matrix_product_gradient_layout_and_version(op, level):
    """PyTorch's mm_mat1_backward / mm_mat2_backward compute a column-major input's
    gradient transposed (Note [Gradients of matrix products follow the input's layout]):
    its strides, and the _version autograd.grad shows when two such gradients are summed
    (a view is not summed into in place), over row- and column-major inputs and 1x1s."""
    shapes = [((2, 3), (3, 4)), ((1, 1), (1, 1)), ((3, 1), (1, 2)), ((1, 3), (3, 1)),
              ((2, 2), (2, 2))]

    def run(lib):
        fw = lib.autograd.forward_ad
        out = []
        for s1, s2 in shapes:
            for c1 in (False, True):
                for c2 in (False, True):
                    def mk(shape, cm):
                        x = lib.arange(1.0, 1 + shape[0] * shape[1]).double().reshape(shape)
                        if cm:
                            x = x.T.contiguous().T
                        return x.requires_grad_()
                    a, b = mk(s1, c1), mk(s2, c2)
                    if level:
                        fw.enter_dual_level()
                    try:
                        a2 = fw.make_dual(a, lib.ones(a.shape).double()) if level else a
                        f = {"mm": lambda x, y: x.mm(y),
                             "addmm": lambda x, y: lib.addmm(
                                 lib.zeros(x.shape[0], y.shape[1]).double(), x, y),
                             "addmm_alpha": lambda x, y: lib.addmm(
                                 lib.zeros(x.shape[0], y.shape[1]).double(), x, y, alpha=2.0),
                             "linear": lambda x, y: lib.nn.functional.linear(x, y.T),
                             "matmul": lambda x, y: x @ y}[op]
                        r = f(a2, b) + f(a2, b)
                        ga, gb = lib.autograd.grad(r.sum(), [a, b])
                        out.append((s1, s2, c1, c2, ga.stride(), gb.stride(), ga._version,
                                    gb._version, ga.tolist(), gb.tolist()))
                    finally:
                        if level:
                            fw.exit_dual_level()
        return out
    ours, theirs = _both(run)
    assert ours == theirs


def test_integer_tensor_with_history_as_torch():
    """An integer tensor given history (fill_ by a tensor requiring grad: FillBackward3):
    an op giving an integer result raises PyTorch's "Autograd not support dtype" (its
    set_history), the autograd fallback's ops (floor_divide, bitwise) leave their result
    without history, ops with a floating result record, in-place ops record whatever the
    dtype (copy_ aside), and views of it raise."""
    def run(lib):
        def mk():
            i = lib.zeros(2, dtype=lib.int64)
            i[...] = lib.tensor(1.0, requires_grad=True)
            return i
        x = lib.tensor([1.5, -2.5], requires_grad=True)
        cases = {
            "i+i": lambda i: i + i, "i.sum()": lambda i: i.sum(), "i[0]": lambda i: i[0],
            "view": lambda i: i.view(-1), "clone": lambda i: i.clone(), "abs": lambda i: i.abs(),
            "cat": lambda i: lib.cat([i, i]), "max(0)": lambda i: i.max(0),
            "sort": lambda i: i.sort(), "cumsum": lambda i: i.cumsum(0),
            "where": lambda i: lib.where(i > 0, i, i), "floordiv": lambda i: i // 2,
            "bitwise": lambda i: i & 1, "float": lambda i: i.float(), "i*x": lambda i: i * x,
            "where(x)": lambda i: lib.where(i > 0, i, x), "sum(dtype)": lambda i:
            i.sum(dtype=lib.float32), "argmax": lambda i: i.argmax(), "lt": lambda i: i.lt(1),
            "mul_": lambda i: i.mul_(2), "add_": lambda i: i.add_(1), "zero_": lambda i: i.zero_(),
            "fill_": lambda i: i.fill_(3), "neg_": lambda i: i.neg_(),
            "masked_fill_": lambda i: i.masked_fill_(i > 0, 3),
            "copy_": lambda i: i.copy_(lib.ones(2, dtype=lib.int64)),
            "copy_x": lambda i: i.copy_(x), "setitem": lambda i: i.__setitem__(0, 5),
            "masked_fill_t": lambda i: lib.zeros(2, dtype=lib.int64).masked_fill_(
                lib.tensor([True, False]), lib.tensor(2.0, requires_grad=True)),
            "index_fill_t": lambda i: lib.zeros(2, dtype=lib.int64).index_fill_(
                0, lib.tensor([0]), lib.tensor(2.0, requires_grad=True)),
        }

        def d(r):
            if isinstance(r, (tuple, list)):
                return [d(t) for t in r]
            return (str(r.dtype), r.requires_grad, r.grad_fn.name() if r.grad_fn else None)
        out = []
        for k, f in cases.items():
            i = mk()
            try:
                out.append((k, d(f(i)), d(i)))
            except Exception as e:  # noqa: BLE001
                out.append((k, f"{type(e).__name__}: {e}", d(i)))
        return [(k, str(r).replace("autotensor", "torch"), s) for k, r, s in out]
    ours, theirs = _both(run)
    assert ours == theirs


@pytest.mark.parametrize("dtype", ["float32", "int64", "bool"])
def test_inplace_ops_on_an_expanded_self(dtype):
    """In-place ops writing into an expanded (self-overlapping) tensor: PyTorch's
    internal-overlap error, after autograd's checks and before the kernel's dtype errors
    (logical_*_ through their out= kernel, bitwise_not_, floor_/ceil_/round_/trunc_/abs_/
    frac_ of bool); clamp_() without bounds refuses first; nan_to_num_ of an integral
    tensor writes nothing."""
    unary = ["abs_", "absolute_", "ceil_", "floor_", "round_", "trunc_", "fix_", "frac_",
             "neg_", "sign_", "exp_", "sqrt_", "logical_not_", "bitwise_not_", "zero_",
             "clamp_", "nan_to_num_", "relu_", "sigmoid_", "square_", "sgn_"]
    binary = ["logical_and_", "logical_or_", "logical_xor_", "add_", "mul_", "sub_", "div_",
              "bitwise_and_", "bitwise_or_", "maximum", "copysign_", "fmod_", "remainder_",
              "pow_", "atan2_", "lerp_", "eq_", "lt_", "ne_"]

    def run(lib):
        dt = getattr(lib, dtype)
        out = []
        for name in unary + binary:
            for other in ("self", "tensor", "scalar"):
                if name in unary and other != "self":
                    continue
                x = lib.tensor([True] if dtype == "bool" else [1.5], dtype=dt).expand(3)
                o = lib.tensor([True, False, True] if dtype == "bool" else [0.5, 2.0, 3.0],
                               dtype=dt)
                fn = getattr(x, name) if hasattr(x, name) else None
                if fn is None:
                    continue
                args = () if name in unary else {"self": (x,), "tensor": (o,),
                                                  "scalar": (2,)}[other]
                if name == "lerp_":
                    args += (0.5,)
                try:
                    fn(*args)
                    out.append((name, other, "ok", x._version))
                except Exception as e:  # noqa: BLE001
                    out.append((name, other, f"{type(e).__name__}: {e}"))
        return out
    ours, theirs = _both(run)
    diff = [(a, b) for a, b in zip(ours, theirs) if a != b]
    assert not diff and len(ours) == len(theirs), diff[:5]


@pytest.mark.parametrize("mode", ["dual", "grad", "plain"])
@pytest.mark.parametrize("op", ["zero_", "fill_", "masked_fill_", "masked_fill_t", "index_fill_",
                                "index_fill_t", "index_put_", "setitem_mask", "setitem_index"])
def test_writes_into_an_expanded_view(op, mode):
    """The ops PyTorch lets write into an expanded tensor write only the elements they
    index, so the shared memory takes the written value (index_fill_, index_put_ wrote the
    old one back); under a forward-AD level the tangent, an expanded view of the base's, is
    written the same way (the tangent's copy_ refused the overlap)."""
    import warnings

    def run(lib):
        fw = lib.autograd.forward_ad
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with fw.dual_level():
                b = lib.tensor([1.5, -0.5])
                if mode == "dual":
                    b = fw.make_dual(b, lib.tensor([2.0, 4.0]))
                elif mode == "grad":
                    b = lib.tensor([1.5, -0.5], requires_grad=True) * 1
                x = b[:, None].expand(2, 3)
                val = fw.make_dual(lib.tensor(3.0), lib.tensor(5.0)) if mode == "dual" else \
                    lib.tensor(3.0, requires_grad=mode == "grad")
                m = lib.tensor([[True, False, True], [False, False, True]])
                i = lib.tensor([1])
                {"zero_": lambda: x.zero_(), "fill_": lambda: x.fill_(2.0),
                 "masked_fill_": lambda: x.masked_fill_(m, 2.0),
                 "masked_fill_t": lambda: x.masked_fill_(m, val),
                 "index_fill_": lambda: x.index_fill_(1, i, 2.0),
                 "index_fill_t": lambda: x.index_fill_(1, i, val),
                 "index_put_": lambda: x.index_put_((i,), lib.tensor(2.0)),
                 "setitem_mask": lambda: x.__setitem__(m, 2.0),
                 "setitem_index": lambda: x.__setitem__((slice(None), i), 2.0)}[op]()
                return (x.tolist(), b.tolist(), _arr(fw.unpack_dual(x).tangent),
                        _arr(fw.unpack_dual(b).tangent),
                        x.grad_fn and x.grad_fn.name(), b.grad_fn and b.grad_fn.name())
    ours, theirs = _both(run)
    assert repr(ours) == repr(theirs)


def test_index_ops_refuse_self_as_source():
    """aten's assert_no_overlap: index_put_ / index_copy_ / scatter_ / index_add_ / put_ /
    scatter_add_ refuse a source (or index) that is self, not only a partial overlap."""
    def run(lib):
        cases = {
            "index": lambda x: x.__setitem__(lib.tensor([0, 1, 2]), x),
            "mask": lambda x: x.__setitem__(lib.tensor([True, True, True]), x),
            "index_put_": lambda x: x.index_put_((lib.tensor([2, 1, 0]),), x),
            "accumulate": lambda x: x.index_put_((lib.tensor([0, 1, 2]),), x, accumulate=True),
            "index_copy_": lambda x: x.index_copy_(0, lib.tensor([0, 1, 2]), x),
            "scatter_": lambda x: x.scatter_(0, lib.tensor([0, 1, 2]), x),
            "scatter_add_": lambda x: x.scatter_add_(0, lib.tensor([0, 1, 2]), x),
            "index_add_": lambda x: x.index_add_(0, lib.tensor([0, 1, 2]), x),
            "put_": lambda x: x.put_(lib.tensor([0, 1, 2]), x),
            "masked_scatter_": lambda x: x.masked_scatter_(lib.tensor([True, False, True]), x),
            "copy_": lambda x: x.copy_(x), "ellipsis": lambda x: x.__setitem__(Ellipsis, x),
            "shifted": lambda x: x.__setitem__(slice(1, None), x[:2]),
            "index_is_self": lambda x: (lambda i: i.__setitem__(i, 2))(lib.tensor([0, 1, 2])),
            "expanded_mask": lambda x: (lambda e: e.__setitem__(
                lib.tensor([True, False, True]), e))(lib.tensor([1.5]).expand(3)),
        }
        out = []
        for k, f in cases.items():
            x = lib.tensor([1.0, 2.0, 3.0])
            try:
                f(x)
                out.append((k, x.tolist()))
            except Exception as e:  # noqa: BLE001
                out.append((k, f"{type(e).__name__}: {e}"))
        return out
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = _both(run)
    assert ours == theirs


FINDINGS["xlogy of a bool by a dual: +0.0 tangent (s21 repro_020)"] = [
    LEVEL, *_dual("v0", 1.624), "v4 = v0.eq(1)", "v5 = v4.xlogy(v0)"]


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "atan2", "hypot", "xlogy",
                                "special.xlog1py", "special.xlogy", "copysign", "maximum",
                                "fmax", "logaddexp", "lerp", "lerp_tensor", "float_power",
                                "dot", "inner", "outer", "mv", "addcmul", "addcdiv", "where"])
def test_signed_zero_tangents_with_one_dual_input(op):
    """A -0.0 tangent on one input, none on the other: the tangent's sign as PyTorch's,
    whose rules sum a materialized zero term for the missing tangent where its formula makes
    one (xlogy's xlogy(self_t, other), lerp's lerp(self_t, end_t, weight): Note [Dense zero
    terms]) and whose dot starts its sum at +0.0 (BLAS). NaN signs are not compared."""
    import math

    def run(lib):
        fw = lib.autograd.forward_ad
        fn = lib
        for part in op.replace("lerp_tensor", "lerp").split("."):
            fn = getattr(fn, part)
        out = []
        for side in (0, 1):
            for xv, yv in ((1.5, 0.7), (0.0, 0.7), (-1.5, 0.7), (1.5, -0.7)):
                with fw.dual_level():
                    x = lib.tensor([xv], dtype=lib.float64)
                    y = lib.tensor([yv], dtype=lib.float64)
                    z = lib.tensor([-0.0], dtype=lib.float64)
                    if side == 0:
                        x = fw.make_dual(x, z)
                    else:
                        y = fw.make_dual(y, z)
                    if op == "lerp":
                        r = fn(x, y, 0.3)
                    elif op == "lerp_tensor":
                        r = fn(x, y, lib.tensor([0.3], dtype=lib.float64))
                    elif op == "where":
                        r = fn(lib.tensor([True]), x, y)
                    elif op in ("addcmul", "addcdiv"):
                        r = fn(x, y, y)
                    elif op == "mv":
                        r = fn(x[None], y)
                    else:
                        r = fn(x, y)
                    t = fw.unpack_dual(r).tangent
                    out.append(None if t is None else [
                        (v, None if math.isnan(v) else math.copysign(1, v))
                        for v in t.reshape(-1).tolist()])
        return out
    ours, theirs = _both(run)
    assert repr(ours) == repr(theirs)
