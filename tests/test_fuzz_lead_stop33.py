"""Stop 33 (lead): the fuzzer's reproducers of stops 32 and 33 and the classes behind them,
each run on autotensor and PyTorch (tests/fuzz/OPEN_FINDINGS.md, the Stop 33 section)."""
import pathlib

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

_REPRODUCERS = ["pending_stop32/fin_repro_003.py", "pending_stop32/fin_repro_005.py",
                "pending_stop32/fin_repro_007.py", "pending_stop33/s33a_repro_001.py",
                "pending_stop33/s33a_repro_002.py", "pending_stop33/s33b_repro_001.py",
                "pending_stop33/s33c_repro_001.py", "pending_stop33/s33c_repro_002.py",
                "pending_stop33/s33d_repro_001.py", "pending_stop33/s33b_repro_002.py",
                "pending_stop33/s33e_repro_001.py", "pending_stop33/s33e_repro_002.py",
                "pending_stop33/s33f_repro_001.py", "pending_stop33/s33f_repro_002.py",
                "pending_stop33/fin_repro_001.py", "pending_stop33/fin_repro_002.py",
                "pending_stop33/fin_repro_003.py", "pending_stop33/fin2_repro_001.py"]


@pytest.mark.parametrize("path", _REPRODUCERS)
def test_fuzzer_reproducers_of_stop_33(path):
    """The reproducers fixed (or excused by a note) this stop agree with PyTorch."""
    from tests.fuzz.core import run_reproducer
    run_reproducer(pathlib.Path(__file__).parent / "fuzz" / path)


def _both(scenario):
    return scenario(autotensor), scenario(torch)


@pytest.mark.parametrize("op", ["mul_", "div_", "add_", "copy_", "atan2_"])
def test_refused_inplace_leaves_the_tangent_as_it_was(op):
    """An in-place op whose rule reads a no_grad view of the written tensor raises after
    the write (PyTorch computes the tangent after it): the primal and its version change,
    the tangent does not."""
    def scenario(m):
        fw = m.autograd.forward_ad
        with fw.dual_level():
            x = m.tensor([1.764, 0.4], requires_grad=True, dtype=m.float64)
            x = fw.make_dual(x, m.tensor([1.0, -0.5], dtype=m.float64))
            y = x.exp()
            with m.no_grad():
                v = y.view_as(y)
            try:
                getattr(y, op)(v)
                err = None
            except RuntimeError as e:
                err = str(e)[:60]
            return (err, y._version, y.detach().tolist(),
                    fw.unpack_dual(y).tangent.tolist())
    ours, theirs = _both(scenario)
    assert ours == theirs


def test_cumprod_tangent_excuse_is_narrow():
    """Note [cumprod's gradient at zeros]: a final tangent is excused only when PyTorch's
    create_graph=True run gives it; a wrong one still fails."""
    from tests.fuzz.core import TOLERANCES, _cumprod_tangent_at_zeros, run_lines
    lines = [
        ("torch.autograd.forward_ad.enter_dual_level()", None),
        ("v0 = torch.tensor(np.array([1.764, 0.0], dtype='float64'), requires_grad=True)",
         "v0"),
        ("v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor([1.624, -0.612], "
         "dtype=v0.dtype))", "v0"),
        ("v1 = v0.cumprod(0)", "v1"),
        ("v2 = torch.autograd.grad(v1.sum(), [v0], retain_graph=False, create_graph=False, "
         "allow_unused=False)[0]", "v2"),
    ]
    _, ours = run_lines(lines, autotensor)
    _, theirs = run_lines(lines, torch)
    ours_t, theirs_t = ours["v2"]["tangent"], theirs["v2"]["tangent"]
    assert not np.array_equal(ours_t["value"].values, theirs_t["value"].values)
    np.testing.assert_allclose(ours_t["value"].values, [-0.612, 1.624], rtol=1e-15)
    assert _cumprod_tangent_at_zeros(lines, "v2", ours["v2"], theirs["v2"], TOLERANCES, [])
    wrong = dict(ours["v2"], tangent=theirs["v0"]["tangent"])
    assert not _cumprod_tangent_at_zeros(lines, "v2", wrong, theirs["v2"], TOLERANCES, [])
    no_cumprod = [(s.replace("cumprod", "cumsum"), o) for s, o in lines]
    assert not _cumprod_tangent_at_zeros(no_cumprod, "v2", ours["v2"], theirs["v2"],
                                         TOLERANCES, [])
    # (the other entries are PyTorch's own run's: a wrong value is not excused)
    bad_value = dict(ours["v2"], value=theirs["v0"]["value"])
    assert not _cumprod_tangent_at_zeros(lines, "v2", bad_value, theirs["v2"], TOLERANCES, [])


@pytest.mark.parametrize("dtype", ["int64", "int32", "bool", "complex64", "float16"])
@pytest.mark.parametrize("how", ["backward", "grad"])
def test_implicit_gradient_of_a_non_real_output(dtype, how):
    """s33a_001: an integer tensor given history by fill_ (v[...] = x), or a complex one:
    the implicit gradient refuses it ("real scalar outputs but got torch.int64")."""
    def scenario(m):
        x = m.tensor(1.764, requires_grad=True)
        if dtype == "complex64":
            v = (x * 1j).reshape(1)
        else:
            v = m.zeros(1, dtype=getattr(m, dtype))
            v[...] = x
        try:
            if how == "backward":
                v.backward()
            else:
                m.autograd.grad(v, [x])
            return ("ok", v.requires_grad, x.grad is None)
        except RuntimeError as e:
            return ("raised", str(e))
    assert scenario(autotensor) == scenario(torch)


@pytest.mark.parametrize("op", ["igamma", "igammac", "zeta"])
@pytest.mark.parametrize("requires_grad", [True, False])
def test_unsupported_forward_rule_after_the_stale_view_error(op, requires_grad):
    """s33a_002: an op without a forward rule collects its inputs' edges first: a split
    output whose base was written under no_grad raises its view error before the
    forward-AD refusal (requires_grad=False: the same order in PyTorch, the view's error)."""
    def scenario(m):
        fw = m.autograd.forward_ad
        with fw.dual_level():
            x = m.tensor([0.5, 1.5], requires_grad=requires_grad)
            x = fw.make_dual(x, m.tensor([1.0, 2.0]))
            v = x.split(1, 0)[0]
            with m.no_grad():
                x.exp_()
            f = getattr(m.special, op) if op == "zeta" else getattr(x, op)
            try:
                f(x, v) if op == "zeta" else f(v)
                return "ok"
            except (RuntimeError, NotImplementedError) as e:
                return type(e).__name__, str(e)[:80]
    assert scenario(autotensor) == scenario(torch)


@pytest.mark.parametrize("fn", ["var", "std", "var_mean", "std_mean"])
def test_float64_short_variances_are_welfords_bit_for_bit(fn):
    """rev2_repro_001: a float64 variance over up to 8 elements is Welford's, not the
    two-pass sum an ulp away (amplified later by a cancellation)."""
    rng = np.random.default_rng(33)
    for _ in range(60):
        shape = tuple(int(s) for s in rng.integers(1, 6, int(rng.integers(1, 4))))
        a = np.round(rng.standard_normal(shape), 3)
        dim = int(rng.integers(0, len(shape)))
        outs = []
        for m in (autotensor, torch):
            r = getattr(m, fn)(m.tensor(a), dim, keepdim=True)
            outs.append([x.numpy() for x in (r if isinstance(r, tuple) else (r,))])
        for o, t in zip(*outs):
            np.testing.assert_array_equal(o, t)


def test_singular_float32_linear_algebra_excuses_nans():
    """s33b_001: R's tangent of a float32 QR of a rank-1 matrix is NaN in PyTorch (sgeqrf's
    exact zero pivot) and finite here (a residue): for a matrix singular in float32 the
    fuzzer excuses any values, NaNs included; a well-conditioned one's NaNs must match."""
    from tests.fuzz.core import _as_close
    mine, single, double = np.array([1.0, 2.0]), np.array([np.nan, np.nan]), \
        np.array([1.0, 2.0])
    assert _as_close(mine, single, double, kappa=np.inf)
    assert _as_close(mine, single, double, kappa=1e8)
    assert not _as_close(mine, single, double, kappa=10.0)
    assert not _as_close(mine + 1, np.array([1.0, 2.0]), double, kappa=10.0)


@pytest.mark.parametrize("fn", ["sum", "sum_dim", "mean", "mean_dim", "cumsum", "nansum",
                                "nansum_dim"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_reduction_with_dtype_gives_the_tangent_that_dtype(fn, dtype):
    """auto_linear passes dtype= on: a float16 input's float32 tangent is converted, then
    reduced, in dtype (it was reduced in its own dtype); without dtype= it stays float32."""
    def scenario(m):
        fw = m.autograd.forward_ad
        out = []
        with fw.dual_level():
            x = fw.make_dual(m.tensor([[1.0, float("nan"), 2.5], [0.5, 1.5, -2.0]],
                                      dtype=m.float16),
                             m.tensor([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], dtype=m.float32))
            f = {"sum": lambda **k: x.sum(**k), "sum_dim": lambda **k: x.sum(1, **k),
                 "mean": lambda **k: x.mean(**k), "mean_dim": lambda **k: x.mean(1, **k),
                 "cumsum": lambda **k: x.cumsum(1, **k), "nansum": lambda **k: x.nansum(**k),
                 "nansum_dim": lambda **k: x.nansum(0, **k)}[fn]
            for kw in ({}, {"dtype": getattr(m, dtype)}):
                t = fw.unpack_dual(f(**kw)).tangent
                out.append((str(t.dtype), np.array(t.tolist()).tobytes()))
        return out
    assert scenario(autotensor) == scenario(torch)


@pytest.mark.parametrize("op", ["mm", "matmul", "bmm", "mv", "dot", "outer", "addmm"])
def test_mixed_dtype_product_tangents_refuse_as_pytorch(op):
    """A float32 product of a dual with a float64 tangent, by itself: PyTorch's rule
    a_t @ b_p + a_p @ b_t evaluates its right term first (GCC's order for operator+), so
    the error names "float != double"."""
    def scenario(m):
        fw = m.autograd.forward_ad
        with fw.dual_level():
            shape = {"mv": (2, 2), "dot": (2,), "outer": (2,), "bmm": (1, 2, 2)}.get(op, (2, 2))
            a = fw.make_dual(m.ones(shape), m.ones(shape, dtype=m.float64))
            f = {"addmm": lambda: m.addmm(m.ones(2, 2), a, a),
                 "mv": lambda: m.mv(a, a[0])}.get(op, lambda: getattr(m, op)(a, a))
            try:
                return "ok", str(fw.unpack_dual(f()).tangent.dtype)
            except RuntimeError as e:
                return "raised", str(e)
    assert scenario(autotensor) == scenario(torch)


def test_zero_ness_of_a_dft_residue_is_excused_a_wrong_bool_is_not(monkeypatch):
    """s33c_001: bool() of irfft(rfft(x)) holds pocketfft's 1e-17 residue where MKL's round
    trip gives 0: a discontinuous line, excused when PyTorch computes ours from our inputs;
    a bool() that is wrong on those inputs is still a mismatch."""
    from tests.fuzz.core import Mismatch, run_and_compare
    lines = ["v0 = torch.tensor([1.624, -0.612, -0.0], dtype=torch.float64)",
             "v5 = torch.fft.irfft(torch.fft.rfft(v0, dim=0), n=3, dim=0)",
             "v6 = v5.bool()"]
    run_and_compare(lines)
    monkeypatch.setattr(autotensor.Tensor, "bool", lambda self: self == 0)
    with pytest.raises(Mismatch, match="line 2"):
        run_and_compare(lines)


@pytest.mark.parametrize("how", ["copy_", "setitem", "setitem_index", "copy_broadcast"])
@pytest.mark.parametrize("dual", [False, True])
def test_copy_into_an_integer_no_grad_view_is_not_autograds(how, dual):
    """s33c_002: copy_ into an integer (or bool) tensor computes no requires_grad in
    PyTorch, so autograd's in-place checks (a no_grad view modified with grad mode on, a
    leaf) do not run; a float no_grad view still refuses."""
    def scenario(m):
        fw = m.autograd.forward_ad
        out = []
        with fw.dual_level():
            for dtype in (m.int64, m.bool, m.float32):
                v0 = m.tensor([1.764, 2.5], requires_grad=True)
                if dual:
                    v0 = fw.make_dual(v0, m.tensor([1.0, 2.0]))
                with m.no_grad():
                    v = m.tensor([1, 2]).to(dtype).view(-1)
                try:
                    if how == "copy_":
                        v.copy_(v0)
                    elif how == "copy_broadcast":
                        v.copy_(v0[0])
                    elif how == "setitem":
                        v[...] = v0
                    else:
                        v[0] = v0[1]
                    out.append(("ok", v.tolist(), v.requires_grad))
                except RuntimeError as e:
                    out.append(("raised", str(e)[:60]))
        return out
    assert scenario(autotensor) == scenario(torch)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("maxnorm", [1.0, 100.0])
def test_renorm_tangent_of_half_views_follows_the_where_layout(dtype, maxnorm):
    """s33d_001: renorm_jvp's float32 tangent of a half input is copied into the result's
    layout and dtype only where the where() kept a permuted layout (a transposed self); a
    sliced self's where() is contiguous and its tangent stays float32."""
    base = [[[1.763671875, 0.39990234375], [0.97900390625, 2.240234375]]]
    tan = [[[1.624, -0.612], [-0.528, -1.073]]]

    def scenario(m):
        fw = m.autograd.forward_ad
        out = []
        for f in (lambda x: x[..., 0], lambda x: x[0].t(), lambda x: x[0],
                  lambda x: x[0][:, :1], lambda x: x[0].t().contiguous().t()):
            with fw.dual_level():
                x = fw.make_dual(m.tensor(base, dtype=getattr(m, dtype)),
                                 m.tensor(tan, dtype=getattr(m, dtype)))
                t = fw.unpack_dual(f(x).renorm(2, 0, maxnorm)).tangent
                out.append((str(t.dtype), t.stride(), t.float().tolist()))
        return out
    assert scenario(autotensor) == scenario(torch)


def test_make_dual_of_a_detached_expanded_tensor_keeps_its_tangent_layout():
    """A view of a detached expanded tensor reads its source's memory (storage numel 3, not
    6): make_dual's same-layout tangent is kept (has_same_meta), not copied (which refused
    the expanded dual's overlap)."""
    def scenario(m):
        fw = m.autograd.forward_ad
        with fw.dual_level():
            x = m.tensor([[1.0, 2.0, 3.0]], dtype=m.float64).expand(2, 3).detach()
            x.requires_grad_(True)
            t = m.tensor([[0.5, 0.25, 1.0]], dtype=m.float64).expand(2, 3)
            y = fw.make_dual(x, t)
            tt = fw.unpack_dual(y).tangent
            z = fw.unpack_dual(y.sin()).tangent
            return (tt.stride(), tt.tolist(), y.stride(), y.storage_offset(),
                    y.untyped_storage().nbytes(), z.stride(), z.tolist())
    assert scenario(autotensor) == scenario(torch)


@pytest.mark.parametrize("op", ["triu_", "tril_"])
@pytest.mark.parametrize("make", ["dual_then_expand", "expand_then_dual"])
def test_triangular_in_place_on_an_expanded_dual(op, make):
    """tril_/triu_ write an expanded primal in place; their tangent is copied back with
    copy_, whose overlap check refuses the expanded tangent after the write (version 1,
    tangent unchanged)."""
    def scenario(m):
        fw = m.autograd.forward_ad
        with fw.dual_level():
            b = m.tensor([[1.0, 2.0, 3.0]], dtype=m.float64)
            bt = m.tensor([[0.5, 0.25, 1.0]], dtype=m.float64)
            x = fw.make_dual(b, bt).expand(2, 3) if make == "dual_then_expand" else \
                fw.make_dual(b.expand(2, 3), bt.expand(2, 3))
            try:
                getattr(x, op)(1)
                err = None
            except RuntimeError as e:
                err = str(e)
            return err, x.tolist(), fw.unpack_dual(x).tangent.tolist(), x._version
    assert scenario(autotensor) == scenario(torch)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("approximate", ["none", "tanh"])
@pytest.mark.parametrize("n", [1, 7, 65, 1000, 5000])
def test_half_gelu_and_its_backward_bit_for_bit(dtype, approximate, n):
    """Note [Half GELU] (s33b_002: a float16 GELU's tangent, gelu_backward of the
    tangent): computed as the float32 kernels on the half type's SIMD elements, rounded
    once; bfloat16's exact GELU of a contiguous tensor is oneDNN's. Also transposed."""
    rng = np.random.default_rng(n)
    x = rng.uniform(-5, 5, n).astype(np.float32)
    g = rng.uniform(-2, 2, n).astype(np.float32)
    shape = (n // 5, 5) if n % 5 == 0 else (n,)

    def scenario(m):
        out = []
        for transpose in (False, True) if len(shape) == 2 else (False,):
            xt = m.tensor(x).to(getattr(m, dtype)).reshape(shape)
            gt = m.tensor(g).to(getattr(m, dtype)).reshape(shape)
            if transpose:
                xt, gt = xt.t(), gt.t()
            xt.requires_grad_(True)
            y = m.nn.functional.gelu(xt, approximate=approximate)
            dx, = m.autograd.grad(y, xt, gt)
            out.append((y.detach().float().numpy().tobytes(), dx.float().numpy().tobytes()))
        return out
    assert scenario(autotensor) == scenario(torch)


@pytest.mark.parametrize("op", ["addcdiv", "addcmul", "addcdiv_swapped", "lerp", "add"])
@pytest.mark.parametrize("dtypes", [("float64", "float32"), ("float16", "bfloat16"),
                                    ("float32", "float16"), ("float64", "float16")])
def test_missing_tangents_zero_terms_promote_the_sum(op, dtypes):
    """Note [Zero terms' dtypes]: an input without a tangent adds a zero tensor of its
    dtype where its term stands, so a float64 self makes addcdiv's float32 terms sum in
    float64 (they were summed in float32, 1e-9 relative off)."""
    dx, dy = dtypes

    def scenario(m):
        fw = m.autograd.forward_ad
        with fw.dual_level():
            x = m.tensor([[0.5, -1.2, 0.3]], dtype=getattr(m, dx))
            y = fw.make_dual(m.tensor([[0.7, 1.3, -0.4]], dtype=getattr(m, dy)),
                             m.tensor([[0.9, -1.1, 0.35]], dtype=getattr(m, dy)))
            r = {"addcdiv": lambda: x.addcdiv(y, y + 3, value=0.5),
                 "addcmul": lambda: x.addcmul(y, y + 1, value=0.5),
                 "addcdiv_swapped": lambda: m.addcdiv(x, y * 2, (y + 3).to(x.dtype)),
                 "lerp": lambda: x.lerp(y.to(x.dtype) * 2, 0.3),
                 "add": lambda: x.add(y, alpha=2)}[op]()
            t = fw.unpack_dual(r).tangent
            return str(t.dtype), np.array(t.double().tolist()).tobytes()
    assert scenario(autotensor) == scenario(torch)


@pytest.mark.parametrize("f", ["tanhshrink", "sub", "add", "x_plus_x", "mul_add",
                               "view_add", "clone_add", "softshrink_sum"])
@pytest.mark.parametrize("which", ["x", "x_y", "y_x", "y"])
def test_captured_gradients_are_not_summed_into(f, which):
    """s33e_001: autograd.grad(out, [x, y]) with y = x - tanh(x): y's gradient, captured,
    is the very buffer SubBackward0 passes on to x; PyTorch's use_count then forbids the
    in-place sum, so x's gradient has version 0 (1 when y is not an input)."""
    def scenario(m):
        x = m.tensor([1.764, -0.4], requires_grad=True)
        y = {"tanhshrink": lambda: m.nn.functional.tanhshrink(x),
             "sub": lambda: x - x.sin(), "add": lambda: x + x.exp(),
             "x_plus_x": lambda: x + x, "mul_add": lambda: x * 2 + x,
             "view_add": lambda: x.view(2) + x.cos(),
             "clone_add": lambda: x.clone() + x.exp(),
             "softshrink_sum": lambda: m.nn.functional.softshrink(x) + x}[f]()
        out = (y.exp() * m.tensor([0.5, 2.0])).sum()
        ins = {"x": [x], "x_y": [x, y], "y_x": [y, x], "y": [y]}[which]
        gs = m.autograd.grad(out, ins)
        return [(g._version, g.tolist()) for g in gs]
    assert scenario(autotensor) == scenario(torch)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_soft_margin_loss_reads_a_single_target_value_as_float32(dtype):
    """s33e_002: soft_margin_loss is neg_out(input).mul_(target); mul_ of a half tensor by
    a one-element target reads it as a float32 (Note [Half scalars in float32]), so an
    int64 -2**63 times -0.0 is 0 (log 2), not float16's -inf times 0 (NaN); an expanded
    target of three elements is cast to the half type first (NaN)."""
    def scenario(m):
        x = m.tensor([0.0, 0.3, -1.7], dtype=getattr(m, dtype))
        out = []
        for t in (m.tensor(-2 ** 63), m.tensor([-2 ** 63]), m.tensor(-2 ** 63).expand(3),
                  m.tensor(1e30, dtype=m.float64), m.tensor([0.1]), m.tensor(3)):
            out.append(m.nn.functional.soft_margin_loss(x, t, reduction="none").tolist())
        return out
    ours, theirs = scenario(autotensor), scenario(torch)
    assert np.array_equal(np.array(ours), np.array(theirs), equal_nan=True)


def test_amplified_in_place_write_is_excused_a_wrong_earlier_write_is_not(monkeypatch):
    """s33f_001: ``v0.add_(v5)`` of a v5 amplified inside its own func.grad line: the last
    write of v0 is rerun on PyTorch from our inputs, once v0's own state before it agrees
    with PyTorch's; a wrong earlier in-place write to v0 still fails, and ``v0.add_(v5)``
    no longer counts as a write of v5."""
    from tests.fuzz.core import Mismatch, _writers, run_and_compare
    lines = ["v0 = torch.tensor([[0.65, -0.058], [0.255, -2.505]])",
             "v1 = torch.tensor([[0.5, 1.5], [2.5, -1.0]])", "v0.mul_(2)", "v0.add_(v1)"]
    assert _writers([(s, None if "_(" in s else s[:2]) for s in lines], "v0") == [0, 2, 3]
    assert _writers([(s, None if "_(" in s else s[:2]) for s in lines], "v1") == [1]
    run_and_compare(lines)
    real = autotensor.Tensor.mul_
    monkeypatch.setattr(autotensor.Tensor, "mul_", lambda self, o: real(self, o * 1.5))
    with pytest.raises(Mismatch, match="final state of v0"):
        run_and_compare(lines)


@pytest.mark.parametrize("f", ["softsign", "abs_mul", "absdiv", "sq", "sgnmul", "absabs",
                               "abs_plus_x", "relu_mul"])
@pytest.mark.parametrize("level", [False, True])
def test_double_backward_gradient_versions_inside_a_dual_level(f, level):
    """s33f_002: inside a forward-AD level the backward runs on tensors (for tangents); a
    sum into a zero-tensor gradient (sgn's, abs's double backward) is out of place, as
    PyTorch's immutable ZeroTensor makes it: softsign's second gradient has version 1, not
    2."""
    fs = {"softsign": lambda m, x: m.nn.functional.softsign(x),
          "abs_mul": lambda m, x: x.abs() * x, "absdiv": lambda m, x: 1 / (1 + x.abs()),
          "sq": lambda m, x: x / (1 + x * x), "sgnmul": lambda m, x: x.sgn() * x,
          "absabs": lambda m, x: x.abs() + x.abs() * x,
          "abs_plus_x": lambda m, x: (x.abs() + x) * x, "relu_mul": lambda m, x: x.relu() * x}

    def scenario(m):
        fw = m.autograd.forward_ad
        if level:
            fw.enter_dual_level()
        try:
            x = m.tensor([1.764, -0.4], dtype=m.float64, requires_grad=True)
            g, = m.autograd.grad(fs[f](m, x).sum(), [x], create_graph=True)
            gg, = m.autograd.grad(g.sum(), [x])
            try:
                values = np.round(gg.tolist(), 12).tolist()
            except RuntimeError as e:  # (sgn's: a zero tensor, no storage)
                values = str(e)
            return g._version, gg._version, values
        finally:
            if level:
                fw.exit_dual_level()
    assert scenario(autotensor) == scenario(torch)


def test_in_place_indexing_into_an_expanded_tensor_warns_as_pytorch():
    """masked_fill_, index_fill_ and index_put_ of an expanded tensor warn that this is
    deprecated (aten's text, without its "Triggered internally at" source location); a
    dense tensor does not warn."""
    import warnings

    def scenario(m):
        out = []
        for f in (lambda x: x.masked_fill_(m.tensor([True, False, True]), 1.0),
                  lambda x: x.index_fill_(1, m.tensor([0]), 2.0),
                  lambda x: x.index_put_((m.tensor([0]),), m.tensor(3.0)),
                  lambda x: x.clone().masked_fill_(m.tensor([True, False, True]), 1.0)):
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                x = m.zeros(1, 3).expand(2, 3)
                f(x)
                out.append(([str(r.message).split(" (Triggered")[0] for r in w], x.tolist()))
        return out
    assert scenario(autotensor) == scenario(torch)


@pytest.mark.parametrize("grad_mode", [True, False])
@pytest.mark.parametrize("op", ["bitwise_and", "__lshift__", "floor_divide", "heaviside",
                                "bitwise_not", "bitwise_or_"])
def test_autograd_fallback_ops_read_stale_views_first(op, grad_mode):
    """fin_001: ops without a derivatives.yaml entry run PyTorch's autograd fallback, which
    reads every argument's requires_grad() first: a no_grad view whose base was written
    raises its view error (grad mode on) before the kernel's dtype error."""
    def scenario(m):
        v0 = m.tensor(1.764, requires_grad=True)
        with m.no_grad():
            v5 = v0.unsqueeze(0)
            v0.exp_()
        try:
            with m.set_grad_enabled(grad_mode):
                if op == "bitwise_not":
                    v0.bitwise_not()
                elif op == "bitwise_or_":
                    v0.detach().bitwise_or_(v5)
                else:
                    getattr(v0, op)(v5)
            return "ok"
        except (RuntimeError, NotImplementedError) as e:
            return type(e).__name__, str(e)[:60]
    assert scenario(autotensor) == scenario(torch)


@pytest.mark.parametrize("shape,new", [((1, 1), (1, 1, 1)), ((2, 3), (1, 2, 3)),
                                       ((2, 3), (4, 2, 3)), ((1, 3), (2, 1, 3)),
                                       ((3,), (1, 1, 3)), ((2, 1), (2, 2, 5)), ((1,), (1, 1)),
                                       ((), (1, 2)), ((), (3, 1)), ((), (1,))])
def test_expand_strides_of_new_dims_and_matmuls_fold(shape, new):
    """fin_002: expand gives a new dim of size 1 the next dim's size times stride
    (inferExpandGeometry), so matmul's fold sees x.expand(1, *x.shape) as contiguous and
    records MmBackward0 (under UnsafeViewBackward0), not BmmBackward0."""
    def scenario(m):
        x = m.zeros(shape, requires_grad=True)
        e = x.expand(*new)
        out = [e.stride()]
        if len(new) >= 3:
            y = e.matmul(m.ones(new[-1], 2))
            out.append((type(y.grad_fn).__name__,
                        [type(n).__name__ for n, _ in y.grad_fn.next_functions]))
        return out
    assert scenario(autotensor) == scenario(torch)


def _addc_tangent(m, kinds, requires_grad, op):
    fw = m.autograd.forward_ad
    with fw.dual_level():
        args = []
        for kind, v in zip(kinds, (1.5, -0.7, 2.0)):
            p = m.tensor(v, dtype=m.float64, requires_grad=requires_grad)
            if kind == "dual":
                args.append(fw.make_dual(p, m.tensor(-0.417, dtype=m.float64)))
            elif kind == "zero":  # (sgn's tangent of a real input: a zero tensor)
                args.append(fw.make_dual(p, m.tensor(0.3, dtype=m.float64)).sgn())
            else:
                args.append(p * 1)
        r = getattr(args[0], op)(args[1], args[2], value=0.5 if op == "addcdiv" else 0)
        t = fw.unpack_dual(r).tangent
        return None if t is None else (repr(t.item()), t.requires_grad)


@pytest.mark.parametrize("op", ["addcmul", "addcdiv"])
@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("kinds", [k for k in __import__("itertools").product(
    ("dual", "zero", "none"), repeat=3)])
def test_addc_tangents_skip_zero_tensor_terms(kinds, requires_grad, op):
    """fin_003: a zero-tensor tangent's term adds nothing (``zero + x`` is x, -0.0 kept):
    addcmul(sgn(x), x, sgn(x), value=0)'s tangent is -0.0 as PyTorch's; when every tangent
    is zero or missing, the result's tangent is the zero tensor (+0.0 where only tensor2's
    is a zero tensor and tensor1 is negative: stop 34)."""
    assert _addc_tangent(autotensor, kinds, requires_grad, op) == \
        _addc_tangent(torch, kinds, requires_grad, op)


@pytest.mark.parametrize("op", ["index_fill", "masked_fill", "setitem"])
def test_zero_d_index_write_gradient_through_a_negation(op):
    """fin2_001: a wrong gradient. v0 - v0.index_fill(-1, [0], 2.0) of a 0-d v0: SubBackward0
    gives the index_fill node -grad, a NumPy scalar, and zero_at wrote its zero into a
    reshaped copy of it: the gradient came out 0, not 1."""
    def scenario(m):
        v0 = m.tensor(1.764, requires_grad=True)
        if op == "index_fill":
            v1 = v0.index_fill(-1, m.tensor([0]), 2.0)
        elif op == "index_put":
            v1 = v0.index_put((m.tensor([0]),), m.tensor(2.0))
        elif op == "masked_fill":
            v1 = v0.masked_fill(m.tensor(True), 2.0)
        else:
            v1 = v0.clone()
            v1[...] = 2.0
        (v0 - v1).backward()
        return v0.grad.item()
    assert scenario(autotensor) == scenario(torch) == 1.0
