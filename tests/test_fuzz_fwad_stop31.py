"""Stop 31, helper fwad31 (forward AD corners): differential checks of the classes fixed
this stop (one scenario run on autotensor and on torch, compared), and the fixed
reproducers as regression tests (tests/fuzz/OPEN_FINDINGS.md, "Stop 31 (forward AD
corners; helper fwad31)")."""
import math
import pathlib

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")


def _bits(t):
    """A tensor's values exactly (signed zeros and NaNs included), or None."""
    if t is None:
        return None
    a = np.asarray(t.detach().numpy(), dtype=np.float64)
    return [math.copysign(1.0, v) * abs(v) if v == v else "nan" for v in a.reshape(-1)] + \
        [str(np.signbit(a).tolist())]


def _both(scenario):
    """scenario(m) on both modules; each result compared as given (an error as its type
    and message)."""
    def run(m):
        try:
            return scenario(m)
        except Exception as e:  # (the error is what is compared)
            return (type(e).__name__, str(e)[:200])
    return run(autotensor), run(torch)


_REPRODUCERS = ["pending_stop30/fin_repro_004.py", "pending_stop30/fin_repro_005.py",
                "pending_stop30/fin_repro_006.py", "pending_stop31/s31a_repro_002.py",
                "pending_stop31/s31a_repro_003.py"]


@pytest.mark.parametrize("path", _REPRODUCERS)
def test_fuzzer_reproducers_of_stop_31_fwad(path):
    from tests.fuzz.core import run_reproducer
    run_reproducer(pathlib.Path(__file__).parent / "fuzz" / path)


# ---- 1. signed zeros of scalar multipliers in forward-over-reverse ------------------------
def _fwd_over_rev(m, f, dt, value, dual=(1, 1, 1), tangents=(-0.417, 0.5, -0.25)):
    fw = m.autograd.forward_ad
    with fw.dual_level():
        xs = []
        for p, t, d in zip((1.624, -0.75, 2.0), tangents, dual):
            x = m.tensor(p, dtype=dt, requires_grad=True)
            xs.append(fw.make_dual(x, m.tensor(t, dtype=dt)) if d else x)
        y = f(m, xs, value)
        out = [_bits(fw.unpack_dual(y).tangent)]
        for g in m.autograd.grad(y.sum(), xs, allow_unused=True):
            out.append(None if g is None else (_bits(fw.unpack_dual(g).primal),
                                               _bits(fw.unpack_dual(g).tangent)))
        return out


_SCALED = {
    "addcdiv": lambda m, x, v: x[0].addcdiv(x[1], x[2], value=v),
    "addcdiv_same": lambda m, x, v: x[0].addcdiv(x[0], x[0], value=v),
    "addcmul": lambda m, x, v: x[0].addcmul(x[1], x[2], value=v),
    "addcdiv_": lambda m, x, v: x[0].clone().addcdiv_(x[1], x[2], value=v),
    "rdiv": lambda m, x, v: x[0] * (v / x[1]) if v else x[0] / x[1],
    "rsub_formula": lambda m, x, v: m.nn.functional.softplus(x[0] * v),
    "add_alpha": lambda m, x, v: m.add(x[0], x[1], alpha=v),
    "lerp": lambda m, x, v: m.lerp(x[0], x[1], v),
    "addr": lambda m, x, v: m.addr(x[0].reshape(1, 1), x[1].reshape(1), x[2].reshape(1),
                                   beta=v, alpha=v),
    "addmm": lambda m, x, v: m.addmm(x[0].reshape(1, 1), x[1].reshape(1, 1),
                                     x[2].reshape(1, 1), beta=v, alpha=v),
    "polar": lambda m, x, v: m.polar(x[0], x[1] * v).real,
}


@pytest.mark.parametrize("dual", [(1, 1, 1), (1, 0, 0), (0, 1, 0), (0, 0, 1)])
@pytest.mark.parametrize("value", [-0.0, 0.0, 2.0])
@pytest.mark.parametrize("name", sorted(_SCALED))
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_scalar_multipliers_at_signed_zeros(name, value, dual, dt):
    """A formula's ``value / tensor2`` (and ``number - x``) is ATen's
    ``empty_like(x).fill_(number).div_(x)``, whose tangent is the in-place rule's with dense
    zeros (+0.0 where reciprocal-times-value gives -0.0); addr's beta term is summed
    first; polar's angle gradient reads result * 1j first."""
    f = _SCALED[name]
    for tangents in ((-0.417, 0.5, -0.25), (-0.0, 0.0, -0.0), (0.0, -0.0, 0.0)):
        ours, theirs = _both(lambda m, tangents=tangents: _fwd_over_rev(
            m, f, getattr(m, dt), value, dual, tangents))
        assert ours == theirs, (tangents, ours, theirs)


@pytest.mark.parametrize("name", ["addr", "addmm", "baddbmm", "addmv", "addbmm"])
def test_add_family_tangents_sum_the_beta_term_first(name):
    """maybe_multiply(self_t, beta) + term1 + term2, left to right: in float32 the sum
    (term1 + term2) + self_t rounds otherwise (addr bit for bit; the mm/bmm/mv products
    themselves are the BLAS's, whose summation order depends on the CPU: compared to
    float32 rounding)."""
    shapes = {"addmm": ((3, 4), (3, 5), (5, 4)), "addmv": ((3,), (3, 5), (5,)),
              "addr": ((3, 4), (3,), (4,)), "baddbmm": ((2, 3, 4), (2, 3, 5), (2, 5, 4)),
              "addbmm": ((3, 4), (2, 3, 5), (2, 5, 4))}[name]
    rng = np.random.default_rng(31)
    for _ in range(10):
        arrs = [rng.standard_normal(s).astype(np.float32) for s in shapes]
        tans = [rng.standard_normal(s).astype(np.float32) for s in shapes]

        def scenario(m, arrs=arrs, tans=tans):
            fw = m.autograd.forward_ad
            with fw.dual_level():
                xs = [fw.make_dual(m.tensor(a), m.tensor(t)) for a, t in zip(arrs, tans)]
                y = getattr(m, name)(*xs, beta=0.7, alpha=1.3)
                return fw.unpack_dual(y).tangent.numpy().copy()
        ours, theirs = _both(scenario)
        if name == "addr":
            np.testing.assert_array_equal(ours, theirs)
        else:
            np.testing.assert_allclose(ours, theirs, rtol=2e-6, atol=1e-6)


def test_dist_p0_gradient_of_other_is_refused():
    def scenario(m):
        a = m.tensor([1.25, 0.5], requires_grad=True)
        b = m.tensor([0.25, 0.5], requires_grad=True)
        return m.autograd.grad(m.dist(a, b, 0), [a, b])
    ours, theirs = _both(scenario)
    assert ours == theirs
    assert ours[0] == "RuntimeError"


def test_polar_angle_gradient_graph():
    def scenario(m):
        a = m.tensor([1.25, 0.5], requires_grad=True, dtype=m.float64)
        b = m.tensor([0.3, -0.7], requires_grad=True, dtype=m.float64)
        ga, gb = m.autograd.grad(m.polar(a, b).real.sum(), [a, b], create_graph=True)
        node = gb.grad_fn.next_functions[0][0].next_functions[0][0]
        return (type(node).__name__, [type(n).__name__ for n, _ in node.next_functions],
                gb.tolist(), ga.tolist())
    ours, theirs = _both(scenario)
    assert ours[:2] == theirs[:2]
    np.testing.assert_allclose(ours[2:], theirs[2:], rtol=1e-13)


# ---- 2. in-place ops whose input aliases the output through a non-dense view -------------
_ALIASED = {
    "add_select_col": lambda m, b: b.add_(b.select(-1, 0)),
    "add_select_col1": lambda m, b: b.add_(b.select(-1, 1)),
    "add_column_kept": lambda m, b: b.add_(b[:, 1:2]),
    "mul_column_kept": lambda m, b: b.mul_(b[:, 1:2]),
    "sub_alpha": lambda m, b: b.sub_(b.select(-1, -1), alpha=0.5),
    "div_column": lambda m, b: b.div_(b[:, 2:3]),
    "shift_right": lambda m, b: b[:, 1:].add_(b[:, :-1]),
    "shift_left": lambda m, b: b[:, :-1].add_(b[:, 1:]),
    "transposed": lambda m, b: b.t().add_(b.select(-1, 0)),
    "copy_shift": lambda m, b: b[:, 1:].copy_(b[:, :-1]),
    "copy_column": lambda m, b: b.copy_(b.select(-1, 0)),
    "addcmul_shift": lambda m, b: b[:, 1:].addcmul_(b[:, :-1], b[:, :-1], value=0.5),
    "lerp_shift": lambda m, b: b[:, 1:].lerp_(b[:, :-1], 0.25),
    "maximum_out": lambda m, b: m.maximum(b, b.select(-1, 0), out=b),
}


_FLOATING_ONLY = ("div_column", "lerp_shift", "addcmul_shift", "sub_alpha")
_SQUARE_ONLY = ("transposed", "maximum_out", "add_select_col", "add_select_col1",
                "copy_column", "sub_alpha")


@pytest.mark.parametrize("name,shape,dt", [
    (name, shape, dt) for dt in ("float32", "float64", "int64") for name in sorted(_ALIASED)
    for shape in ((2, 2), (3, 3), (4, 20), (7, 33), (64, 64))
    if not (dt == "int64" and name in _FLOATING_ONLY)
    and not (shape[0] != shape[1] and name in _SQUARE_ONLY)])
def test_inplace_ops_read_what_they_wrote(name, shape, dt):
    """TensorIterator lets a non-dense input alias the written tensor ("too hard" to
    check), and aten's loop then reads its own writes: the basic loop element by element,
    the vectorized loop two vectors at a time, a stride-0 input read once per row
    (Note [Aliased inputs]). (Floating-only ops and square-only views are not
    parametrized with an integer dtype or a non-square shape.)"""
    f = _ALIASED[name]

    def scenario(m):
        n = shape[0] * shape[1]
        b = (m.arange(n).reshape(shape) % 7 + 1).to(getattr(m, dt))
        if dt != "int64":
            b = b * 1.1
        f(m, b)
        return b.tolist()
    ours, theirs = _both(scenario)
    assert ours == theirs


def test_inplace_add_through_a_select_view_of_a_dual():
    """fin_repro_005: values and tangents of a float32 dual's x.add_(x.select(-1, 0))."""
    def scenario(m):
        fw = m.autograd.forward_ad
        with fw.dual_level():
            v1 = fw.make_dual(m.tensor([[1.764, 0.4], [0.979, 2.241]]),
                              m.tensor([[1.624, -0.612], [-0.528, -1.073]]))
            v3 = v1.select(-1, 0)
            v1.add_(v3)
            u = fw.unpack_dual(v1)
            return u.primal.tolist(), u.tangent.tolist(), fw.unpack_dual(v3).tangent.tolist()
    ours, theirs = _both(scenario)
    assert ours == theirs


# ---- 3. the values' tangent of max/min/median/kthvalue/mode(dim) ------------------------
_SELECTING = {
    "max": lambda x, k: x.max(0, keepdim=k)[0], "min": lambda x, k: x.min(0, keepdim=k)[0],
    "median": lambda x, k: x.median(0, keepdim=k)[0],
    "nanmedian": lambda x, k: x.nanmedian(0, keepdim=k)[0],
    "kthvalue": lambda x, k: x.kthvalue(1, 0, keepdim=k)[0],
    "mode": lambda x, k: x.mode(0, keepdim=k)[0],
}


@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("name", sorted(_SELECTING))
@pytest.mark.parametrize("other", ["dual_requires_grad", "requires_grad", "dual"])
def test_no_grad_values_tangent_is_a_view(name, keepdim, shape, other):
    """gather_with_keepdimed_indices: without keepdim the tangent is a squeeze view of a
    gather, 0-d inputs included; made under no_grad, an in-place op with grad mode on
    refuses it ("A view was created in no_grad mode...")."""
    f = _SELECTING[name]

    def scenario(m):
        fw = m.autograd.forward_ad
        with fw.dual_level():
            n = int(np.prod(shape))
            x = fw.make_dual(m.arange(1.0, n + 1).reshape(shape), m.ones(shape))
            w0 = m.tensor(1.5, requires_grad=other != "dual")
            w = fw.make_dual(w0, m.tensor(0.5)) if "dual" in other else w0
            with m.no_grad():
                y = f(x, keepdim)
            t = fw.unpack_dual(y).tangent
            is_view = t._base is not None
            y.mul_(w)
            t = fw.unpack_dual(y).tangent
            return is_view, y.tolist(), t.tolist(), t.requires_grad
    ours, theirs = _both(scenario)
    assert ours == theirs


# ---- 4. torch.func's vjp of a dual whose tangent is a ZeroTensor -------------------------
def test_fuzzer_excuses_zero_tensor_writes_of_func_transforms():
    """PyTorch's engine sums (t * t)'s two gradients in place without create_graph (vjp
    under no_grad) into a ZeroTensor tangent (sgn's): its own bug's class, which the
    fuzzer excuses at torch.func's vjp/grad/jacrev lines as at autograd.grad's."""
    from tests.fuzz.core import _torch_bug, normalize  # noqa: F401
    from differential import Raised
    fw = torch.autograd.forward_ad
    with fw.dual_level():
        v5 = fw.make_dual(torch.tensor(1.764), torch.tensor(1.624)).sgn()
        with torch.no_grad():
            with pytest.raises(RuntimeError, match="ZeroTensors are immutable"):
                torch.func.vjp(lambda t: t * t, v5)[1](torch.ones(()))
    raised = {"raised": Raised("RuntimeError", "ZeroTensors are immutable. Please "
                               "materialize the tensor using `.clone()`, if you want a "
                               "mutable zero tensor.")}
    assert _torch_bug(raised, "v6 = torch.func.vjp(_seg, v5)[1](torch.ones_like(v5))[0]")
    assert not _torch_bug(raised, "v6 = v5.mul_(2)")


# ---- 5. empty inputs: gradients without a tangent, and kernels that now run -------------
_EMPTY = {
    "layer_norm": (lambda m, x: m.nn.functional.layer_norm(x, x.shape[-1:]), (0,)),
    "layer_norm_rows": (lambda m, x: m.nn.functional.layer_norm(x, x.shape[-1:]), (0, 3)),
    "layer_norm_cols": (lambda m, x: m.nn.functional.layer_norm(x, x.shape[-1:]), (3, 0)),
    "layer_norm_affine": (lambda m, x: m.nn.functional.layer_norm(
        x, x.shape[-1:], m.ones(x.shape[-1:]), m.zeros(x.shape[-1:])), (2, 0)),
    "det": (lambda m, x: m.linalg.det(x.reshape(0, 0)), (0,)),
    "det_batch": (lambda m, x: m.linalg.det(x), (2, 0, 0)),
    "det_empty_batch": (lambda m, x: m.linalg.det(x), (0, 3, 3)),
    "torch_det": (lambda m, x: m.det(x), (0, 3, 3)),
    "conv1d": (lambda m, x: m.nn.functional.conv1d(x.reshape(0, 1, 3), m.ones(1, 1, 2)),
               (0, 3)),
    "polar": (lambda m, x: m.polar(x, x).real, (0,)),
    "group_norm": (lambda m, x: m.nn.functional.group_norm(x, 1), (0, 2, 3)),
}


@pytest.mark.parametrize("name", sorted(_EMPTY))
def test_empty_inputs_forward_over_reverse(name):
    """PyTorch's layer-norm backward under a forward-AD level is its jvp decomposition,
    new_zeros for an empty input (no tangent); det's gradient of an empty A is a fresh zero
    tensor; empty conv1d / polar gradients compute."""
    f, shape = _EMPTY[name]

    def scenario(m):
        fw = m.autograd.forward_ad
        with fw.dual_level():
            x = m.zeros(shape, requires_grad=True)
            xd = fw.make_dual(x, m.zeros(shape))
            g = m.autograd.grad(f(m, xd).sum(), [xd])[0]
            t = fw.unpack_dual(g).tangent
            return tuple(g.shape), None if t is None else tuple(t.shape), g.grad_fn is None
    ours, theirs = _both(scenario)
    assert ours == theirs


@pytest.mark.parametrize("shape", [(3, 0), (0, 3), (0,)])
def test_empty_layer_norm_statistics(shape, recwarn):
    """aten's mean 0 and rstd NaN for an empty row, without NumPy's warning."""
    def scenario(m):
        out = m.native_layer_norm(m.zeros(shape), shape[-1:], None, None, 1e-5)
        return [tuple(t.shape) for t in out], _bits(out[1]), _bits(out[2])
    ours, theirs = _both(scenario)
    assert ours == theirs
    assert not [w for w in recwarn if "empty slice" in str(w.message)]


def test_empty_group_norm_statistics(recwarn):
    def scenario(m):
        out = m.native_group_norm(m.zeros(2, 2, 0), None, None, 2, 2, 0, 1, 1e-5)
        return [tuple(t.shape) for t in out], _bits(out[1]), _bits(out[2])
    ours, theirs = _both(scenario)
    assert ours == theirs
    assert not [w for w in recwarn if "empty slice" in str(w.message)]
