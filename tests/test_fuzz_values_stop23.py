"""Fuzz stop 23 (helper fz8b): value classes, each as its reproducer (tests/fuzz/pending_stop2*)
and a differential sweep of its neighbours against PyTorch. Every test compares with torch,
so the file needs it."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

LEVEL = "torch.autograd.forward_ad.enter_dual_level()"

FINDINGS = {
    # nanmedian of an all-NaN row: the index libstdc++'s nth_element leaves first
    "nanmedian tangent of an all-NaN row (s23 start_repro_006)":
        [LEVEL,
         "v0 = torch.tensor(np.array([[0.882, 1.754, 0.094, 1.779], [1.091, 0.036, -0.792, "
         "-0.392], [-0.347, -0.372, -0.354, -0.108]], dtype='float32'))",
         "v0 = torch.autograd.forward_ad.make_dual(v0, torch.tensor(np.array([[2.08, -0.712, "
         "0.892, -1.211], [0.591, 0.38, 0.517, 1.564], [0.312, 0.58, 0.292, 0.085]]), "
         "dtype=v0.dtype))",
         "v2 = v0.log()", "v3 = v2.nanmedian(-1, keepdim=False)[0]"],
    # float16's pow(0.5) is std::pow in float32 (+0.0 at -0.0), not sqrt
    "float16 pow(0.5) of -0.0 (s23 start_repro_007)":
        [LEVEL, "v1 = torch.tensor(np.array(-0.224, dtype='float16'))", "v4 = v1.ceil()",
         "v6 = v4.pow(0.5)"],
    # an empty tensor never overlaps itself (c10: numel 0 is contiguous), so CopySlices'
    # backward of an in-place op on an empty view (make_dual's) goes through
    "add_ into an empty dual view, then backward (s23 start_repro_004)":
        [LEVEL, "v0 = torch.tensor(np.array(1.764, dtype='float32'), requires_grad=True)",
         "v1 = torch.tensor(np.zeros((2, 0), dtype='float32'))",
         "v1 = torch.autograd.forward_ad.make_dual(v1, torch.zeros((2, 0), dtype=v1.dtype))",
         "v1.add_(v0)", "v1.sum().backward()"],
    "atan2_(self) of an empty dual view: the saved-tensor version error "
    "(s23 start_repro_009)":
        [LEVEL, "v0 = torch.tensor(np.zeros((0, 2), dtype='float32'), requires_grad=True) * 1",
         "v0 = torch.autograd.forward_ad.make_dual(v0, torch.zeros((0, 2), dtype=v0.dtype))",
         "v0.atan2_(v0)", "v0.sum().backward()"],
    # softmax's float32 backward kernel has no rows to run on in an empty tensor
    "softmax backward of an empty tensor (s23 start_repro_010)":
        [LEVEL, "v0 = torch.tensor(np.zeros((0,), dtype='float32'), requires_grad=True)",
         "v1 = v0.softmax(0)", "v1.backward(torch.ones((0,), dtype=v1.dtype) * 0.5)"],
    # matmul squeezes a 3-D operand's broadcast batch of one when it requires grad: mm
    "matmul of (0, 0, 0) by (1, 0, 0) requiring grad (s23 start_repro_008)":
        [LEVEL, "v0 = torch.tensor(np.zeros((0, 0, 0), dtype='float32'))",
         "v2 = torch.tensor(np.zeros((1, 0, 0), dtype='float32'), requires_grad=True)",
         "v4 = v0.matmul(v2)"],
    "matmul of (0, 1, 0) by its transpose (s22 end_repro_002)":
        [LEVEL, "v0 = torch.tensor(np.zeros((0, 1, 0), dtype='float32'), requires_grad=True)",
         "v0 = torch.autograd.forward_ad.make_dual(v0, torch.zeros((0, 1, 0)))",
         "v1 = v0.transpose(0, 1)", "v2 = v0 @ v1"],
}


@pytest.mark.parametrize("name", sorted(FINDINGS))
def test_fuzz_finding(name):
    from tests.fuzz.core import run_and_compare
    try:
        run_and_compare(FINDINGS[name])
    finally:
        if autotensor.autograd.forward_ad._current[0] >= 0:
            autotensor.autograd.forward_ad.exit_dual_level()


def _selection_cases():
    rng = np.random.default_rng(23)
    for trial in range(60):
        shape = tuple(int(s) for s in rng.integers(1, 9, size=rng.integers(1, 4)))
        x = rng.integers(-2, 3, size=shape).astype(np.float64)  # many ties
        if trial % 3 == 1:
            x[rng.random(shape) < 0.3] = np.nan
        elif trial % 3 == 2:
            x[..., 0] = np.nan
            x = np.where(rng.random(shape[:-1] + (1,)) < 0.5, np.nan, x)  # all-NaN rows
        dim = int(rng.integers(-len(shape), len(shape)))
        yield trial, x, dim, int(rng.integers(1, shape[dim] + 1))


@pytest.mark.parametrize("trial,x,dim,k", list(_selection_cases()))
@pytest.mark.parametrize("op", ["median", "nanmedian", "kthvalue", "mode", "max", "min"])
def test_selection_index_and_tangent_as_torch(op, trial, x, dim, k):
    """The index a selection over a dim picks among ties and NaNs (median: stable; nanmedian's
    all-NaN rows: nth_element's; kthvalue: quick_select's partitions), and so its tangent."""
    t = np.random.default_rng(trial).standard_normal(x.shape)
    args = (k, dim) if op == "kthvalue" else (dim,)

    def run(lib):
        fwad = lib.autograd.forward_ad
        with fwad.dual_level():
            d = fwad.make_dual(lib.tensor(x), lib.tensor(t))
            v, i = getattr(lib, op)(d, *args)
            return v.detach().numpy(), i.numpy(), fwad.unpack_dual(v).tangent.numpy()

    ours, theirs = run(autotensor), run(torch)
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a, b)


_POW_BASES = np.concatenate([np.random.default_rng(7).standard_normal(200) * 10,
                             np.random.default_rng(8).standard_normal(56) * 1e-3,
                             [0.0, -0.0, np.inf, -np.inf, np.nan, 1e30, -1e30, 1e-30]])


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
@pytest.mark.parametrize("exponent", [0.5, -0.5, 2, 3, -1, -2, 2.0, -1.0, 1, 0, -3, 0.3, 1.5])
@pytest.mark.parametrize("part", [slice(0, 1), slice(0, 7), slice(0, 64), slice(0, 100),
                                  slice(250, 264), slice(None, None, 2)])
def test_pow_scalar_as_torch(dtype, exponent, part):
    """pow(Tensor, Scalar) bit for bit with signed zeros: float16 is std::pow in float32 with
    the exponent read as half; bfloat16 takes sqrt / rsqrt (its scalar loop rounding sqrt
    first, its SIMD loop not) / reciprocal / x*x*x (rounded per product) / 1/(x*x). (float32
    and float64 only on their fast paths' ±0, ±inf, NaN, where the results are exact.)"""
    x = _POW_BASES
    if dtype in ("float32", "float64") and exponent not in (2, 3, -1, -2, 1, 0):
        x = x[-8:-3]
    ours = autotensor.tensor(x, dtype=getattr(autotensor, dtype))[part].pow(exponent)
    theirs = torch.tensor(x, dtype=getattr(torch, dtype))[part].pow(exponent)
    a, b = ours.double().numpy(), theirs.double().numpy()
    nan = np.isnan(b)
    np.testing.assert_array_equal(np.isnan(a), nan)
    np.testing.assert_array_equal(a[~nan], b[~nan])
    np.testing.assert_array_equal(np.signbit(a[~nan]), np.signbit(b[~nan]))


_EMPTY_VIEWS = {
    "expand (1, 0) to (2, 0)": lambda L, x: x.reshape(1, 0).expand(2, 0),
    "expand (0, 1) to (0, 3)": lambda L, x: x.reshape(0, 1).expand(0, 3),
    "slice of (2, 0)": lambda L, x: x.reshape(2, 0)[:, :],
    "transpose of (2, 0)": lambda L, x: x.reshape(2, 0).t(),
    "make_dual of (2, 0)": lambda L, x: L.autograd.forward_ad.make_dual(
        x.reshape(2, 0), L.zeros((2, 0))),
    "select of (3, 0, 2)": lambda L, x: x.reshape(3, 0, 2)[1],
    "expand (1, 3) to (2, 3)": lambda L, x: x.reshape(1, 3).expand(2, 3),
    "expand (1,) to (1,)": lambda L, x: x.reshape(1).expand(1),
}
_INPLACE = {
    "add_": lambda L, x: x.add_(L.ones(())), "mul_": lambda L, x: x.mul_(L.ones(()) * 2),
    "atan2_(self)": lambda L, x: x.atan2_(x), "copy_": lambda L, x: x.copy_(L.ones(x.shape)),
    "exp_": lambda L, x: x.exp_(), "pow_": lambda L, x: x.pow_(2),
    "clamp_": lambda L, x: x.clamp_(0, 1), "zero_": lambda L, x: x.zero_(),
    "fill_": lambda L, x: x.fill_(1.0), "addcmul_": lambda L, x: x.addcmul_(x, x),
    "lerp_": lambda L, x: x.lerp_(L.ones(x.shape), 0.5), "neg_": lambda L, x: x.neg_(),
    "masked_fill_": lambda L, x: x.masked_fill_(L.ones(x.shape, dtype=L.bool), 1.0),
}


@pytest.mark.filterwarnings("ignore:Use of masked_fill_ on expanded")
@pytest.mark.parametrize("view", sorted(_EMPTY_VIEWS))
@pytest.mark.parametrize("op", sorted(_INPLACE))
def test_inplace_on_empty_or_expanded_views_as_torch(view, op):
    """aten's internal-overlap check (the op's, and CopySlices' backward): an expanded view
    of more than one element is refused, an empty or one-element one is not."""
    def run(lib):
        leaf = lib.zeros((1,), requires_grad=True)
        n = 3 if "(1, 3)" in view else 1 if "(1,)" in view else 0
        with lib.autograd.forward_ad.dual_level():
            x = _EMPTY_VIEWS[view](lib, lib.zeros((n,)) * leaf.sum())
            try:
                _INPLACE[op](lib, x)
                x.sum().backward()
            except RuntimeError as e:
                return str(e)
        return list(leaf.grad.shape)

    assert run(autotensor) == run(torch)


@pytest.mark.parametrize("fn", ["softmax", "log_softmax", "softmin"])
@pytest.mark.parametrize("shape,dim", [((0,), 0), ((0,), -1), ((2, 0), 1), ((2, 0), 0),
                                       ((0, 3), 0), ((0, 3), -1), ((2, 0, 3), 1),
                                       ((2, 0, 3), 2), ((0, 0), 0)])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_softmax_family_on_empty_tensors_as_torch(fn, shape, dim, dtype):
    """Forward, backward, double backward and forward-mode tangent of an empty input."""
    def run(lib):
        F, dt = lib.nn.functional, getattr(lib, dtype)
        x = lib.zeros(shape, dtype=dt, requires_grad=True)
        y = getattr(F, fn)(x, dim)
        g, = lib.autograd.grad(y, x, lib.ones(shape, dtype=dt), create_graph=True)
        out = [tuple(y.shape), y.dtype == dt, type(y.grad_fn).__name__, tuple(g.shape)]
        if dtype in ("float32", "float64"):
            gg, = lib.autograd.grad(g.sum(), x, allow_unused=True)
            out.append(None if gg is None else tuple(gg.shape))
        fw = lib.autograd.forward_ad
        with fw.dual_level():
            yd = getattr(F, fn)(fw.make_dual(x.detach(), lib.ones(shape, dtype=dt)), dim)
            out.append(tuple(fw.unpack_dual(yd).tangent.shape))
        return out

    assert run(autotensor) == run(torch)


def _graph_names(y):
    out, stack = [], [y.grad_fn]
    while stack:
        n = stack.pop()
        if n is not None:
            out.append(n.name())
            stack += [f for f, _ in n.next_functions]
    return out


def _matmul_operand(lib, shape, layout, requires_grad):
    if layout == "transposed" and len(shape) >= 2:
        x = lib.zeros(shape[:-2] + (shape[-1], shape[-2])).transpose(-1, -2)
    elif layout == "sliced":
        x = lib.zeros(shape[:-1] + (shape[-1] + 2,))[..., :shape[-1]]
    elif layout == "batch-transposed" and len(shape) >= 3:
        x = lib.zeros((shape[1], shape[0]) + shape[2:]).transpose(0, 1)
    else:
        x = lib.zeros(shape)
    return x.detach().requires_grad_(requires_grad)


def _matmul_cases():
    rng = np.random.default_rng(2023)
    layouts = ["contiguous", "transposed", "sliced", "batch-transposed"]
    cases = []
    while len(cases) < 150:
        na, nb = (int(v) for v in rng.integers(1, 5, size=2))
        if na < 3 and nb < 3:
            continue
        sa = tuple(int(v) for v in rng.choice([0, 1, 2], size=na))
        sb = tuple(int(v) for v in rng.choice([0, 1, 2], size=nb))
        if na >= 2 and nb >= 2:
            sb = sb[:-2] + (sa[-1],) + sb[-1:]
        elif nb == 1:
            sb = (sa[-1],)
        else:
            sa = (sb[-2],)
        cases.append((sa, sb, str(rng.choice(layouts)), str(rng.choice(layouts)),
                      bool(rng.integers(0, 2)), bool(rng.integers(0, 2))))
    return cases


@pytest.mark.parametrize("sa,sb,la,lb,ra,rb", _matmul_cases())
def test_matmul_decomposition_as_torch(sa, sb, la, lb, ra, rb):
    """aten's matmul: its fold rule (should_fold) and the squeeze of a 3-D operand's batch of
    one that requires grad, over shapes of sizes 0, 1, 2 and several layouts: the same graph
    node names, and the same result shape and strides (a GEMM's result is row-major even
    where an inner dim of 1 makes it a broadcast product) or error."""
    def run(lib):
        try:
            y = _matmul_operand(lib, sa, la, ra) @ _matmul_operand(lib, sb, lb, rb)
        except RuntimeError as e:
            return str(e)
        return (tuple(y.shape), y.stride() if y.numel() else None,
                _graph_names(y) if ra or rb else None)

    assert run(autotensor) == run(torch)
