"""Stop 32 (lead): the fuzzer's reproducers of stops 31 and 32 and the classes behind them,
each run on autotensor and PyTorch (tests/fuzz/OPEN_FINDINGS.md, the Stop 32 section)."""
import pathlib

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

_REPRODUCERS = ["pending_stop31/fin_repro_005.py", "pending_stop31/fin_repro_007.py",
                "pending_stop32/s32a_repro_001.py", "pending_stop32/s32a_repro_002.py",
                "pending_stop32/s32a_repro_003.py", "pending_stop32/s32a_repro_004.py",
                "pending_stop32/s32a_repro_005.py", "pending_stop32/s32a_repro_006.py",
                "pending_stop32/s32b_repro_001.py", "pending_stop32/s32b_repro_002.py",
                "pending_stop32/s32b_repro_003.py",
                "pending_stop32/s32c_repro_001.py", "pending_stop32/s32d_repro_001.py",
                "pending_stop32/s32e_repro_001.py", "pending_stop32/s32f_repro_001.py",
                "pending_stop32/s32f_repro_002.py", "pending_stop32/s32f_repro_003.py",
                "pending_stop32/s32g_repro_001.py", "pending_stop32/s32g_repro_002.py",
                "pending_stop32/fin_repro_001.py", "pending_stop32/fin_repro_004.py",
                "pending_stop32/fin_repro_006.py", "pending_stop32/rev_repro_001.py"]


@pytest.mark.parametrize("path", _REPRODUCERS)
def test_fuzzer_reproducers_of_stop_32(path):
    """The reproducers fixed this stop agree with PyTorch."""
    from tests.fuzz.core import run_reproducer
    run_reproducer(pathlib.Path(__file__).parent / "fuzz" / path)


def _view_cases(n=600, seed=32):
    """Random non-contiguous strided tensors (sliced with steps, permuted) and shapes to
    view them as, with size-1 dims inserted or dropped."""
    rng = np.random.default_rng(seed)
    for _ in range(n):
        nd = int(rng.integers(1, 4))
        shape = tuple(int(x) for x in rng.integers(1, 4, nd))
        step = tuple(int(rng.integers(1, 3)) for _ in shape)
        perm = tuple(int(i) for i in rng.permutation(nd))
        new = [shape[i] for i in perm]
        for _ in range(int(rng.integers(0, 3))):
            new.insert(int(rng.integers(0, len(new) + 1)), 1)
        if rng.random() < 0.3:
            new = [x for x in new if x != 1] or [1]
        yield shape, step, perm, tuple(new)


def _view_strides(m, shape, step, perm, new):
    base = m.arange(float(np.prod([2 * s for s in shape]))).reshape(*[2 * s for s in shape])
    a = base[tuple(slice(0, s * st, st) for s, st in zip(shape, step))].permute(*perm)
    out = []
    for f in (lambda: a.view(*new), lambda: a.reshape(*new), lambda: a.view_as(
            m.empty(new)), lambda: a.reshape(*new).view(*new)):
        try:
            v = f()
            out.append((v.stride(), v.storage_offset(), v._base is base or v._base is a))
        except RuntimeError as e:
            out.append(str(e))
    return out


def test_view_strides_of_size_one_dims_are_pytorchs():
    """Note [View strides]: view/reshape/view_as give a size-1 dim computeStride's stride
    (NumPy's reshape gave another for about a third of these), so stride() and the overlap
    checks of in-place ops (fin_repro_005) agree with PyTorch."""
    diffs = [case for case in _view_cases()
             if _view_strides(autotensor, *case) != _view_strides(torch, *case)]
    assert not diffs, diffs[:5]


def test_inplace_overlap_of_a_same_shape_view_with_other_strides():
    """x.add_(v) where v views x's memory with other strides for a size-1 dim: PyTorch's
    partial-overlap error (its view gives the (1, 2) view strides (2, 1))."""
    def scenario(m):
        x = m.tensor([[1.0], [2.0]]).t()
        out = []
        for v in (x.view(1, 2), x.view_as(x), x.reshape(1, 2)):
            try:
                x.clone().add_(v)
                x.add_(v)
                out.append(("ok", x.tolist(), v.stride()))
            except RuntimeError as e:
                out.append(("raised", str(e), v.stride()))
        return out
    assert scenario(autotensor) == scenario(torch)


def _signs(m, A, f, zero, dtype, contiguous):
    a = m.tensor(A if contiguous else np.swapaxes(A, -1, -2).copy(), dtype=dtype)
    if not contiguous:
        a = a.mT
    a.requires_grad_(True)
    y = {"det": lambda: m.linalg.det(a), "slogdet": lambda: m.linalg.slogdet(a)[1],
         "logdet": lambda: m.logdet(a)}[f]()
    g, = m.autograd.grad(y, a, m.full(y.shape, zero, dtype=y.dtype))
    return np.signbit(np.array(g.tolist())).tolist()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("f", ["det", "slogdet", "logdet"])
def test_zero_gradients_of_det_family_carry_getrs_signs(f, dtype):
    """Note [Zero gradients of det and slogdet]: a zero incoming gradient (or logdet's
    masked negative determinant, fuzz s32a_003) gives zeros signed as PyTorch's lu_solve
    with the forward's LU does, for matrices up to 3 x 3 (2 x 2 where MKL takes its
    non-Intel path), batched or not, both layouts."""
    from autotensor._ops.linalg import _zero_signs_max
    rng = np.random.default_rng(7)
    diffs = []
    for _ in range(40):
        n, b = int(rng.integers(1, _zero_signs_max() + 1)), int(rng.integers(0, 3))
        A = rng.standard_normal(((b,) if b else ()) + (n, n))
        for zero in (0.0, -0.0):
            for contiguous in (True, False):
                args = (A, f, zero, None, contiguous)
                ours = _signs(autotensor, *args[:3], getattr(autotensor, dtype), contiguous)
                theirs = _signs(torch, *args[:3], getattr(torch, dtype), contiguous)
                if ours != theirs:
                    diffs.append((A.shape, zero, contiguous, ours, theirs))
    assert not diffs, diffs[:3]


def _renorm(m, dtype, p, dim, create_graph):
    rng = np.random.default_rng(3)
    A, G = rng.standard_normal((3, 4, 2)) * 2, rng.standard_normal((3, 4, 2))
    if "complex" in dtype:
        A, G = A + 1j * rng.standard_normal(A.shape), G + 1j * rng.standard_normal(G.shape)
    x = m.tensor(A, dtype=getattr(m, dtype), requires_grad=True)
    g, = m.autograd.grad(x.renorm(p, dim, 1.5), x, m.tensor(G, dtype=getattr(m, dtype)),
                         create_graph=create_graph)
    names = []

    def walk(node, depth=0):
        if node is not None and depth < 6:
            names.append((depth, type(node).__name__))
            for child, _ in node.next_functions:
                walk(child, depth + 1)
    walk(g.grad_fn)
    wide = m.complex128 if "complex" in dtype else m.float64
    return np.array(g.detach().to(wide).tolist()), names


@pytest.mark.parametrize("p", [1, 2, 3, 0.5, float("inf")])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "complex64",
                                   "complex128"])
def test_renorm_backward_is_pytorchs(dtype, p):
    """renorm_backward on the CPU: the norm and sum in the accumulate type (float64 for
    float32: our float32 gradient differed from PyTorch's in 61% of its entries), the
    result cast back (ToCopyBackward0, fuzz s32a_002), reciprocal's node; a complex
    gradient is not conjugated twice (complex_aware), and the inf-norm's mask compares
    abs's own values (NaNs before)."""
    if dtype == "bfloat16":
        pytest.importorskip("ml_dtypes", reason="bfloat16 needs the ml_dtypes extra")
    for dim in (0, 1, -1):
        ours, our_graph = _renorm(autotensor, dtype, p, dim, True)
        theirs, their_graph = _renorm(torch, dtype, p, dim, True)
        assert our_graph == their_graph
        if dtype in ("float64", "complex128"):
            np.testing.assert_allclose(ours, theirs, rtol=1e-13, atol=1e-15)
        elif dtype == "float16" and p == 0.5:  # (a float16 pow ulp: the norm's own kernel)
            np.testing.assert_allclose(ours, theirs, rtol=1e-3)
        else:
            np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("fn", ["fft", "rfft_irfft", "ifft", "hfft"])
def test_single_precision_dft_near_the_largest_float(fn):
    """Note [Overflow in single-precision DFTs]: pocketfft's float32 transform of finite
    values near float32's maximum overflowed to inf/NaN where MKL's stays finite (fuzz
    s32a_001); ours is then computed in double and rounded."""
    big = float(np.finfo(np.float32).max)

    def run(m):
        x = m.tensor([1.764, big, 0.979], dtype=m.float32)
        if fn == "rfft_irfft":
            return m.fft.irfft(m.fft.rfft(x), n=3)
        if fn == "hfft":
            return m.fft.hfft(x.to(m.complex64) / 2, n=4)
        return getattr(m.fft, fn)(x.to(m.complex64) / 2).abs()
    ours, theirs = run(autotensor), run(torch)
    assert ours.dtype == autotensor.float32
    np.testing.assert_allclose(np.array(ours.tolist()), theirs.numpy(), rtol=1e-6,
                               atol=1e-6 * big)
    assert np.isfinite(np.array(ours.tolist())).all() == bool(theirs.isfinite().all())


def test_an_excused_svd_line_that_pytorch_refuses_ends_the_comparison(monkeypatch):
    """fin_repro_007: pinverse of an all-infinite 3 x 3 matrix, which MKL's gesdd refuses
    ("failed to converge", by where the infinities are: not emulated) while ours is NaN,
    is excused, and the program is not compared past it (v2 exists on one side only). A
    pinverse raising another error is still a mismatch."""
    from tests.fuzz.core import Mismatch, run_and_compare
    lines = ["v0 = torch.full((3, 3), float('inf'))", "v2 = v0.pinverse()", "v3 = v2 + 1"]
    run_and_compare(lines)

    def refuse(self, *args, **kwargs):
        raise RuntimeError("pinverse: something else")
    monkeypatch.setattr(autotensor.Tensor, "pinverse", refuse)
    with pytest.raises(Mismatch, match="line 1"):
        run_and_compare(lines)


def test_signed_zeros_of_singular_values_are_the_librarys(monkeypatch):
    """s32a_004: the second singular value of [[0, -0.977], [0, 0]] is +0.0 in PyTorch's
    MKL and -0.0 in our OpenBLAS (each library gives -0.0 for some matrices of zeros):
    values made from an SVD are compared without the sign of zero; other ops' are."""
    from tests.fuzz.core import Mismatch, run_and_compare
    run_and_compare(["v0 = torch.tensor([[0.0, -0.977], [0.0, 0.0]], dtype=torch.float64)",
                     "v1 = torch.linalg.svdvals(v0)"])
    zeros = ["v0 = torch.zeros(2, 2, dtype=torch.float64)"]
    for name in ("svdvals", "sin"):
        monkeypatch.setattr(autotensor.linalg if name == "svdvals" else autotensor.Tensor,
                            name, lambda x, f=getattr(
                                autotensor.linalg if name == "svdvals" else autotensor.Tensor,
                                name): f(x).neg())
    run_and_compare(zeros + ["v1 = torch.linalg.svdvals(v0)"])
    with pytest.raises(Mismatch, match="signed zero"):
        run_and_compare(zeros + ["v1 = v0.sin()"])


def test_make_dual_unpack_dual_and_as_subclass_keep_strides():
    """_make_dual and _unpack_dual are views with the input's own strides (not view's
    computeStride: stop 22's start_repro_007, where a (1, 2, 1) transposed tensor's strides
    decide matmul's fold), as_subclass an alias (AliasBackward0)."""
    def scenario(m):
        fw = m.autograd.forward_ad
        out = []
        with fw.dual_level():
            x = m.tensor([[[1.0]], [[2.0]]]).transpose(0, 1).requires_grad_()
            d = fw.make_dual(x, m.ones(1, 2, 1))
            p = fw.unpack_dual(d).primal
            s = x.as_subclass(m.Tensor)
            out += [d.stride(), type(d.grad_fn).__name__, p.stride(), s.stride(),
                    type(s.grad_fn).__name__]
            try:
                d.detach().eq(1).matmul(m.ones(1, 1))
            except (RuntimeError, NotImplementedError) as e:
                out.append((type(e).__name__, str(e)))
        return out
    assert scenario(autotensor) == scenario(torch)


def test_det_tangent_of_an_empty_half_matrix_is_refused():
    """s32b_001: det of an empty float16/bfloat16 matrix is 1, but its tangent reaches
    lu_solve's kernel, which refuses the dtype."""
    def scenario(m, dtype):
        fw = m.autograd.forward_ad
        out = []
        for shape in ((0, 0), (2, 0, 0)):
            with fw.dual_level():
                x = fw.make_dual(m.zeros(shape, dtype=dtype), m.zeros(shape, dtype=dtype))
                try:
                    out.append(x.det().tolist())
                except RuntimeError as e:
                    out.append(str(e))
            out.append(m.zeros(shape, dtype=dtype).det().tolist())
        return out
    for name in ("float16", "bfloat16"):
        assert scenario(autotensor, getattr(autotensor, name)) == \
            scenario(torch, getattr(torch, name))


@pytest.mark.parametrize("shape", [(0, 1), (0, 3), (2, 3), (2, 5), (2, 2, 4)])
def test_wide_qr_backward_is_pytorchs(shape):
    """s32c_001: linalg_qr_backward for m < n as PyTorch writes it, [Q trilImInvAdjSkew(
    Q^H gQ - gR R^H) R_1^-H | 0] + Q gR (AddBackward0 of CatBackward0 and MmBackward0
    under create_graph, not our former split into X and Y); values and second
    derivatives agree to 1e-15 (2e-13 before)."""
    rng = np.random.default_rng(11)
    A, GR = rng.standard_normal(shape), rng.standard_normal(shape)
    GQ = rng.standard_normal(shape[:-1] + (shape[-2],))

    def run(m, which):
        a = m.tensor(A, requires_grad=True)
        q, r = m.linalg.qr(a)
        loss = (q * m.tensor(GQ)).sum() * ("Q" in which) + (r * m.tensor(GR)).sum() * (
            "R" in which)
        g, = m.autograd.grad(loss, a, create_graph=True)
        node = g.grad_fn
        g2, = m.autograd.grad((g * g).sum(), a, allow_unused=True)
        return (type(node).__name__, [type(n).__name__ if n else None
                                      for n, _ in node.next_functions],
                np.array(g.detach().tolist()), None if g2 is None else np.array(g2.tolist()))
    for which in ("Q", "R", "QR"):
        ours, theirs = run(autotensor, which), run(torch, which)
        assert ours[:2] == theirs[:2]
        for x, y in zip(ours[2:], theirs[2:]):
            if y is not None:
                np.testing.assert_allclose(x, y, rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_layer_norm_is_atens_mixed_type_kernel(dtype):
    """s32b_003: aten's float16/bfloat16 layer_norm normalizes as fma(x, rstd, -rstd *
    mean) in float32 (then fma(y, gamma, beta)), so a row of one element gives ulps of
    x * rstd, signs included, not the zeros of (x - mean) * rstd."""
    if dtype == "bfloat16":
        pytest.importorskip("ml_dtypes", reason="bfloat16 needs the ml_dtypes extra")
    rng = np.random.default_rng(4)
    for n in (1, 2, 3, 7, 16, 17, 33):
        X, W, B = rng.standard_normal((5, n)), rng.standard_normal(n), rng.standard_normal(n)
        for affine in ("", "w", "b", "wb"):
            for pdt in (dtype, "float32"):
                outs = []
                for m in (autotensor, torch):
                    w = m.tensor(W, dtype=getattr(m, pdt)) if "w" in affine else None
                    b = m.tensor(B, dtype=getattr(m, pdt)) if "b" in affine else None
                    y = m.nn.functional.layer_norm(m.tensor(X, dtype=getattr(m, dtype)), (n,),
                                                   w, b)
                    outs.append(np.array(y.float().tolist()))
                np.testing.assert_array_equal(outs[0], outs[1])
                np.testing.assert_array_equal(np.signbit(outs[0]), np.signbit(outs[1]))
    for row in ([-0.0], [-0.0, -0.0], [-0.0, 0.0], [0.0, -0.0]):  # (the final run's 004)
        outs = [np.array(m.nn.functional.layer_norm(m.tensor(row, dtype=getattr(m, dtype)),
                                                    (len(row),)).float().tolist())
                for m in (autotensor, torch)]
        np.testing.assert_array_equal(np.signbit(outs[0]), np.signbit(outs[1]))


def test_half_batch_norm_normalizes_with_its_stored_statistics():
    """aten's float16 batch_norm stores mean and invstd in float16 and normalizes with
    them as stored: given those, every output agrees (from float32 statistics 20-50% of
    the outputs were an ulp off). float16 in training now agrees entirely on these
    shapes; bfloat16's invstd is still an ulp off for some channels (OPEN_FINDINGS)."""
    rng = np.random.default_rng(5)
    for shape in ((2, 3, 1), (2, 4, 5), (3, 2, 1, 1), (2, 6, 17), (4, 3)):
        X = rng.standard_normal(shape) * 2 + 0.5
        outs = []
        for m in (autotensor, torch):
            x = m.tensor(X, dtype=m.float16)
            y = m.nn.functional.batch_norm(x, None, None, training=True)
            outs.append(np.array(y.float().tolist()))
        np.testing.assert_array_equal(outs[0], outs[1])


def _double_backward_graph(m, sample):
    """Node names along next_functions (three levels) of each create_graph gradient."""
    from tests.test_ops import _diff_inputs, _diff_outputs, _flat_outputs, _weights
    inputs = sample.make_inputs(m, np.float64)
    outs = _diff_outputs(_flat_outputs(sample(m, *inputs)))
    diff_in = _diff_inputs(inputs)
    if not outs or not diff_in:
        return None
    ws = [m.tensor(w) for w in _weights(sample, outs)]
    grads = m.autograd.grad(outs, diff_in, ws, create_graph=True, allow_unused=True)
    result = []
    for g in grads:
        order, queue, seen = [], [(None if g is None else g.grad_fn, 0)], set()
        while queue:
            node, depth = queue.pop(0)
            if node is None or id(node) in seen or depth > 2:
                continue
            seen.add(id(node))
            children = [fn for fn, _ in node.next_functions]
            order.append((type(node).__name__,
                          [None if fn is None else type(fn).__name__ for fn in children]))
            queue.extend((c, depth + 1) for c in children)
        result.append(order)
    return result


_DOUBLE_BACKWARD_OPEN = {}  # (tests/fuzz/OPEN_FINDINGS.md: none open since stop 33)


def _samples():
    import sys
    sys.path.insert(0, str(pathlib.Path(__file__).parent))
    from tests.op_db import SAMPLES
    return [pytest.param(s, marks=pytest.mark.xfail(strict=True, reason=_DOUBLE_BACKWARD_OPEN[
        s.name])) if s.name in _DOUBLE_BACKWARD_OPEN else s for s in SAMPLES]


@pytest.mark.parametrize("sample", _samples(), ids=repr)
def test_double_backward_graph_is_pytorchs(sample):
    """Every op_db sample's create_graph gradients have PyTorch's nodes three levels down:
    an in-place op that saves self saves self.clone() (CloneBackward0 in that graph, not
    self's own history: log1p_, polygamma_, hardtanh_, hardswish_, threshold_, cumprod_);
    the known differences are strict xfails."""
    assert _double_backward_graph(autotensor, sample) == _double_backward_graph(torch, sample)


def test_add_family_checks_shapes_before_alpha():
    """s32d_001: add/sub (and in place, rsub) build their TensorIterator before aten's
    alpha_check, so a shape mismatch is reported before a float alpha for integer
    tensors; rsub is sub(other, input): other's shape first in the message."""
    def scenario(m):
        out = []
        for dt, odt in (("int64", "int64"), ("int64", "float32"), ("bool", "bool"),
                        ("float32", "int64")):
            for sa, sb in (((2,), (0,)), ((2,), (3,)), ((1,), (3,)), ((3,), (1,)), ((2,), (2,))):
                for alpha in (2.0, True, 1j, 2):
                    for op in ("add", "sub", "add_", "sub_", "rsub"):
                        a = m.ones(sa, dtype=getattr(m, dt))
                        b = m.ones(sb, dtype=getattr(m, odt))
                        try:
                            r = m.rsub(a, b, alpha=alpha) if op == "rsub" else \
                                getattr(a, op)(b, alpha=alpha)
                            out.append(str(r.dtype).rsplit(".", 1)[-1])
                        except RuntimeError as e:
                            out.append(str(e))
        return out
    assert scenario(autotensor) == scenario(torch)


def test_mse_loss_mean_forward_over_reverse_refuses_a_missing_tangent():
    """PyTorch's mse_loss_double_backward divides 2 * grad in place for a mean, which a
    ZeroTensor (self's or target's missing tangent) refuses: every combination of
    tangents but both present raises "ZeroTensors are immutable" there; sum and none
    compute. Other losses (l1, smooth_l1, huber, bce, kl, ...) agree as they were."""
    def scenario(m):
        fw = m.autograd.forward_ad
        out = []
        for xd, td, gd in ((1, 0, 0), (0, 1, 0), (1, 1, 0), (1, 0, 1), (0, 0, 1), (0, 1, 1),
                           (1, 1, 1)):
            for red in ("mean", "sum", "none"):
                for cg in (False, True):
                    with fw.dual_level():
                        x, y = m.ones(4, requires_grad=True), m.zeros(4)
                        d = fw.make_dual(x, m.ones(4)) if xd else x
                        yy = fw.make_dual(y, m.ones(4)) if td else y
                        try:
                            loss = m.nn.functional.mse_loss(d, yy, reduction=red)
                            go = m.ones(loss.shape)
                            if gd:
                                go = fw.make_dual(go, m.ones(loss.shape))
                            g, = m.autograd.grad(loss, d, go, create_graph=cg)
                            t = fw.unpack_dual(g).tangent
                            out.append(None if t is None else t.tolist())
                        except RuntimeError as e:
                            out.append(str(e))
        return out
    assert scenario(autotensor) == scenario(torch)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_elu_family_is_atens_float32_kernel(dtype):
    """s32e_001 (a float16 elu tangent an ulp off): aten computes elu_backward (and elu)
    in float32 with float32 coefficients, products rounded one by one, SLEEF's expf
    (expm1f) in its SIMD loop and glibc's in its scalar loop; ours rounded every step in
    float16 and took NumPy's exp. Gradients of elu, celu and selu now agree bit for bit
    (215-681 of 3,006 differed); values within SLEEF's expm1f ulp (1 of 3,006 at most)."""
    if dtype == "bfloat16":
        pytest.importorskip("ml_dtypes", reason="bfloat16 needs the ml_dtypes extra")
    x = np.concatenate([np.linspace(-9, 1, 3001), [np.nan, -0.0, 0.0, np.inf, -np.inf]])
    g = np.linspace(0.1, 2, x.size)

    def run(m, f, n):
        t = m.tensor(x[:n], dtype=getattr(m, dtype), requires_grad=True)
        y = f(m.nn.functional, t)
        gi, = m.autograd.grad(y, t, m.tensor(g[:n], dtype=getattr(m, dtype)))
        return np.array(y.detach().double().tolist()), np.array(gi.double().tolist())
    for f in (lambda F, t: F.elu(t), lambda F, t: F.elu(t, alpha=0.7),
              lambda F, t: F.celu(t, alpha=1.3), lambda F, t: F.selu(t)):
        for n in (3006, 7):
            (ya, ga), (yt, gt) = run(autotensor, f, n), run(torch, f, n)
            np.testing.assert_array_equal(ga, gt)
            np.testing.assert_array_equal(np.signbit(ga), np.signbit(gt))
            same = ((ya == yt) & (np.signbit(ya) == np.signbit(yt))) | (np.isnan(ya) &
                                                                        np.isnan(yt))
            assert int((~same).sum()) <= 1  # (s32f_001: elu(-0.0) is expm1's -0.0)


def test_grad_of_a_view_made_to_require_grad_by_its_base():
    """s32f_002: autograd.grad(v, [v]) of a view whose base an in-place op made require
    grad, the op's operand a dual view (make_dual): the output's edge comes from the lazy
    rebase (it raised "does not require grad")."""
    def scenario(m):
        fw = m.autograd.forward_ad
        out = []
        for dual in (False, True):
            for op in ("unfold", "view", "select", "diag", "t"):
                for how in ("grad", "grad_sum", "backward"):
                    with fw.dual_level():
                        v0 = m.tensor(1.764, requires_grad=True)
                        if dual:
                            v0 = fw.make_dual(v0, m.tensor(1.6))
                        v2 = m.ones(2, 2) * 1.5
                        v4 = {"unfold": lambda b: b.unfold(-1, 1, 1), "view": lambda b: b.view(4),
                              "select": lambda b: b[0], "diag": lambda b: b.diagonal(),
                              "t": lambda b: b.t()}[op](v2)
                        v2[...] = v0
                        try:
                            if how == "grad":
                                r = m.autograd.grad(v4, [v4], m.ones(v4.shape) * 2)[0].tolist()
                            elif how == "grad_sum":
                                r = m.autograd.grad(v4, [v0], m.ones(v4.shape))[0].tolist()
                            else:
                                v4.backward(m.ones(v4.shape))
                                r = None
                        except RuntimeError as e:
                            r = str(e)
                        out.append(r)
        return out
    assert scenario(autotensor) == scenario(torch)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_logcumsumexp_tangent_keeps_the_primal_dtype(dtype):
    """s32f_003: logcumsumexp_jvp multiplies ``self_p_exp *= self_t`` in place, so the
    float32 tangent renorm gives a half tensor becomes a half one."""
    if dtype == "bfloat16":
        pytest.importorskip("ml_dtypes", reason="bfloat16 needs the ml_dtypes extra")

    def run(m):
        fw = m.autograd.forward_ad
        out = []
        for shape in ((0, 1), (2, 3)):
            with fw.dual_level():
                x = fw.make_dual(m.tensor(np.linspace(-1, 2, int(np.prod(shape))).reshape(shape),
                                          dtype=getattr(m, dtype)),
                                 m.ones(shape, dtype=getattr(m, dtype)))
                t = fw.unpack_dual(x.renorm(2, 0, 1.0).logcumsumexp(-1)).tangent
                # (bfloat16's values: an ulp off in one entry, open in OPEN_FINDINGS)
                out.append((str(t.dtype), np.array(t.float().tolist()).tolist()
                            if dtype == "float16" else None))
        return out
    assert run(autotensor) == run(torch)


def test_bfloat16_into_integers_by_copy_and_setitem():
    """s32g_001: copy_/setitem of bfloat16 into integer tensors convert as float32 does
    (x86's cvtt: inf and NaN give the integer minimum), as .to() already did."""
    pytest.importorskip("ml_dtypes", reason="bfloat16 needs the ml_dtypes extra")

    def scenario(m):
        out = []
        for name in ("int64", "int32", "int16", "int8", "uint8"):
            a = m.zeros(3, dtype=getattr(m, name))
            b = m.tensor([float("inf"), float("nan"), -3e9], dtype=m.bfloat16)
            c, d, f = a.clone(), a.clone(), a.clone()
            c[...] = b
            d.copy_(b)
            f[0:2] = b[:2]
            out.append((c.tolist(), d.tolist(), b.to(getattr(m, name)).tolist(), f.tolist()))
        return out
    assert scenario(autotensor) == scenario(torch)


def test_cumprod_tangent_is_rounded_to_the_result_dtype():
    """s32g_002: PyTorch's cumprod forward rule is ``cumprod_jvp(...).to(dtype or self's
    dtype)``: a float32 tangent (renorm's) of a float16 input becomes float16."""
    def scenario(m):
        fw = m.autograd.forward_ad
        out = []
        for shape in ((1, 1), (2, 3), (3, 1)):
            for zero in (False, True):
                x = np.linspace(0.5, 2, int(np.prod(shape))).reshape(shape)
                if zero:
                    x.flat[0] = 0
                with fw.dual_level():
                    v = fw.make_dual(m.tensor(x, dtype=m.float16), m.ones(shape, dtype=m.float16))
                    r = v.renorm(2, 0, 1.0)
                    for d in (0, 1):
                        t = fw.unpack_dual(r.cumprod(d)).tangent
                        # (after a zero: an entry a float16 ulp off, open in OPEN_FINDINGS)
                        out.append((str(t.dtype), None if zero else t.float().tolist()))
        return out
    assert scenario(autotensor) == scenario(torch)


def test_layer_norm_result_is_contiguous():
    """The final run's fin_repro_001: aten's layer_norm normalizes X.contiguous(), so its
    result (and mean/rstd) are contiguous whatever the input's layout; ours followed a
    transposed input, and view(-1) refused it."""
    def scenario(m):
        out = []
        for shape, perm in (((2, 3, 4), (2, 1, 0)), ((3, 4), (1, 0)), ((2, 3, 4), (0, 2, 1))):
            x = m.arange(24.0, dtype=m.float64)[:int(np.prod(shape))].reshape(shape).permute(
                *perm)
            for dt in (m.float64, m.float32, m.float16):
                for affine in (False, True):
                    w = m.ones(x.shape[-1:], dtype=dt) if affine else None
                    y, mean, rstd = m.native_layer_norm(x.to(dt), list(x.shape[-1:]), w, w,
                                                        1e-5)
                    out.append((y.stride(), mean.stride(), rstd.stride(),
                                tuple(y.reshape(-1).shape)))
        return out
    assert scenario(autotensor) == scenario(torch)


def test_addcdiv_backward_refuses_an_integral_divisor():
    """The final run's fin_repro_006: addcdiv's gradient for tensor1 computes ``value /
    tensor2`` as ``empty_like(tensor2).fill_(value).div_(tensor2)``, which a bool or
    integer tensor2 refuses ("result type Float can't be cast to the desired output type
    Bool")."""
    def scenario(m):
        out = []
        for t2 in ("bool", "int64", "float32"):
            for cg in (False, True):
                v0 = m.tensor(1.764, requires_grad=True)
                v1 = m.tensor(True).to(getattr(m, t2))
                try:
                    v4 = m.tensor(1.0).addcdiv(v0, v1, value=0.5)
                    out.append(m.autograd.grad(v4, v0, create_graph=cg)[0].item())
                except RuntimeError as e:
                    out.append(str(e))
        return out
    assert scenario(autotensor) == scenario(torch)


def test_trace_gradient_of_a_tall_matrix():
    """The review run's rev_repro_001: trace's backward on tensors (autograd.grad, a
    forward-AD level, create_graph) index_filled arange(0, n * m, m + 1), which runs past
    the diagonal of a tall matrix: **a wrong gradient** ([[2], [0], [2]] for a (3, 1)
    matrix); now the diagonal's min(n, m) entries, as PyTorch."""
    def scenario(m):
        fw = m.autograd.forward_ad
        out = []
        for shape in ((3, 1), (1, 3), (4, 2), (2, 4), (3, 3), (5, 2), (0, 3), (3, 0)):
            for dual in (False, True):
                for cg in (False, True):
                    with fw.dual_level():
                        x = m.ones(shape, requires_grad=True)
                        xx = fw.make_dual(x, m.ones(shape)) if dual else x
                        g, = m.autograd.grad(xx.trace() * 2, x, create_graph=cg)
                        out.append((g.tolist(), g._version))
        return out
    assert scenario(autotensor) == scenario(torch)
