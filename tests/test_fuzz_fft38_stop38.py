"""Stop 38 (helper fft38): single-precision DFTs of finite values near float32's largest
(3.4e38, an inf that nan_to_num replaced) that overflow, on autotensor and PyTorch's CPU
build (MKL): which outputs come out inf or nan follows MKL's steps (Note [MKL's
single-precision DFT near overflow]; tests/fuzz/OPEN_FINDINGS.md, Stop 38)."""
import pathlib

import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

_F = np.float32(3.4028235e38)


def test_fuzzer_reproducer_of_stop_38():
    """irfft(rfft(x), n=2) of [1.764, 3.4028235e38]: [0, inf], X_0 - X_1 overflows before
    the 1/2."""
    from tests.fuzz.core import run_reproducer
    run_reproducer(pathlib.Path(__file__).parent / "fuzz" / "pending_stop38" /
                   "fft38_repro_001.py")


def _signals(n, rows, seed):
    """Rows of standard normals with one or two entries +-(1, 0.9, 0.6) x 3.4e38."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((rows, n)).astype(np.float32)
    for r in range(rows):
        k = rng.integers(1, 3)
        idx = rng.choice(n, k, replace=False)
        x[r, idx] = _F * rng.choice([-1, 1], k) * rng.choice([1, 0.9, 0.6], k).astype(np.float32)
    return x


def _scenario(mod, op, n, norm, batched, seed=38, rows=48):
    """``op`` over the last dim (2-d ops over the last two) of near-overflow signals, in
    one call or one signal a call (MKL's c2r of a batch is another kernel): complex ones
    x + i reversed(x), one-sided inputs the first n // 2 + 1 of those, and irfft_rfft
    PyTorch's rfft of x (inf where it overflowed) into ``mod``'s irfft."""
    if not batched:
        return np.stack([_scenario(mod, op, n, norm, True, seed + r, 1)[0]
                         for r in range(rows)])
    x = _signals(n, rows, seed)
    c = (x + 1j * x[:, ::-1]).astype(np.complex64)
    if op == "irfft_rfft":
        half = torch.fft.rfft(torch.tensor(x), norm=norm).numpy()
        return mod.fft.irfft(mod.tensor(half), n=n, norm=norm).numpy()
    if op in ("irfft", "hfft"):
        return getattr(mod.fft, op)(mod.tensor(c[:, :n // 2 + 1]), n=n, norm=norm).numpy()
    if op == "rfft":
        return mod.fft.rfft(mod.tensor(x), norm=norm).numpy()
    if op == "fft2":
        return mod.fft.fft2(mod.tensor(c.reshape(-1, 1, n)[:, [0, 0]]), norm=norm).numpy()
    return getattr(mod.fft, op)(mod.tensor(c), norm=norm).numpy()


def _pattern(a):
    a = np.stack([a.real, a.imag]) if a.dtype.kind == "c" else a
    return np.where(np.isnan(a), 2, np.where(np.isposinf(a), 1, np.where(np.isneginf(a), -1, 0)))


def _assert_agrees(got, want):
    """The same inf/nan pattern, the finite values to float32's rounding of the row's
    largest (the libraries sum in other orders)."""
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(_pattern(got), _pattern(want))
    flat_g, flat_w = got.reshape(len(got), -1), want.reshape(len(want), -1)
    for g, w in zip(flat_g, flat_w):
        fin = np.isfinite(w)
        big = np.abs(w[fin]).max(initial=1.0).astype(np.float64)
        np.testing.assert_allclose(g[fin].astype(np.complex128), w[fin].astype(np.complex128),
                                   rtol=2e-6, atol=1e-6 * big)


# (op, n, norm, batched): the fitted sizes and modes (all rows agree) whose result differed
# before this stop
_CASES = [('fft', 2, 'forward', True), ('fft', 2, 'forward', False), ('fft', 3, None, True),
          ('fft', 3, None, False), ('fft', 3, 'forward', True), ('fft', 3, 'forward', False),
          ('fft', 3, 'ortho', True), ('fft', 3, 'ortho', False), ('fft', 4, None, True),
          ('fft', 4, None, False), ('fft', 4, 'forward', True), ('fft', 4, 'forward', False),
          ('fft', 8, None, False), ('fft', 8, 'forward', False), ('fft', 8, 'ortho', False),
          ('fft', 9, None, True), ('fft', 9, None, False), ('fft', 9, 'forward', True),
          ('fft', 9, 'forward', False), ('fft', 9, 'ortho', True), ('fft', 9, 'ortho', False),
          ('fft', 12, None, True), ('fft', 12, None, False), ('fft', 12, 'forward', True),
          ('fft', 12, 'forward', False), ('fft', 12, 'ortho', True),
          ('fft', 12, 'ortho', False), ('fft', 13, None, True), ('fft', 13, 'forward', True),
          ('fft', 13, 'ortho', True), ('fft', 16, None, True), ('fft', 16, None, False),
          ('ifft', 2, None, True), ('ifft', 2, None, False), ('ifft', 3, None, True),
          ('ifft', 3, None, False), ('ifft', 3, 'forward', True), ('ifft', 3, 'forward', False),
          ('ifft', 3, 'ortho', True), ('ifft', 3, 'ortho', False), ('ifft', 4, None, True),
          ('ifft', 4, None, False), ('ifft', 4, 'forward', True), ('ifft', 4, 'forward', False),
          ('ifft', 8, None, False), ('ifft', 8, 'forward', False), ('ifft', 8, 'ortho', False),
          ('ifft', 9, None, True), ('ifft', 9, None, False), ('ifft', 9, 'forward', True),
          ('ifft', 9, 'forward', False), ('ifft', 9, 'ortho', True),
          ('ifft', 9, 'ortho', False), ('ifft', 12, None, True), ('ifft', 12, None, False),
          ('ifft', 12, 'forward', True), ('ifft', 12, 'forward', False),
          ('ifft', 12, 'ortho', True), ('ifft', 12, 'ortho', False), ('ifft', 13, None, True),
          ('ifft', 13, 'forward', True), ('ifft', 13, 'ortho', True),
          ('ifft', 16, 'forward', True), ('ifft', 16, 'forward', False),
          ('rfft', 2, 'ortho', False), ('rfft', 3, None, True), ('rfft', 3, None, False),
          ('rfft', 3, 'ortho', True), ('rfft', 3, 'ortho', False), ('rfft', 4, 'ortho', True),
          ('rfft', 4, 'ortho', False), ('rfft', 5, None, True), ('rfft', 5, None, False),
          ('rfft', 5, 'ortho', True), ('rfft', 5, 'ortho', False), ('rfft', 7, None, True),
          ('rfft', 7, None, False), ('rfft', 7, 'ortho', True), ('rfft', 7, 'ortho', False),
          ('rfft', 8, 'ortho', True), ('rfft', 8, 'ortho', False), ('rfft', 11, None, True),
          ('rfft', 11, None, False), ('rfft', 11, 'ortho', True), ('rfft', 11, 'ortho', False),
          ('rfft', 12, 'ortho', True), ('rfft', 12, 'ortho', False), ('rfft', 13, None, False),
          ('rfft', 13, 'ortho', True), ('rfft', 13, 'ortho', False), ('rfft', 16, None, True),
          ('rfft', 16, 'ortho', True), ('rfft', 16, 'ortho', False),
          ('irfft_rfft', 2, None, False), ('irfft_rfft', 3, None, False),
          ('irfft_rfft', 4, None, False), ('irfft_rfft', 6, None, False),
          ('irfft_rfft', 8, None, False), ('irfft', 2, None, True), ('irfft', 2, None, False),
          ('irfft', 3, None, True), ('irfft', 3, 'forward', True),
          ('irfft', 3, 'forward', False), ('irfft', 4, None, True), ('irfft', 4, None, False),
          ('irfft', 4, 'forward', True), ('irfft', 4, 'forward', False),
          ('irfft', 8, None, True), ('irfft', 8, None, False), ('irfft', 8, 'forward', True),
          ('irfft', 8, 'forward', False), ('irfft', 16, None, True),
          ('irfft', 16, 'forward', True), ('irfft', 16, 'forward', False),
          ('hfft', 2, 'forward', True), ('hfft', 2, 'forward', False), ('hfft', 3, None, True),
          ('hfft', 3, None, False), ('hfft', 3, 'forward', True), ('hfft', 4, None, True),
          ('hfft', 4, None, False), ('hfft', 4, 'forward', True), ('hfft', 4, 'forward', False),
          ('hfft', 8, None, True), ('hfft', 8, None, False), ('hfft', 8, 'forward', True),
          ('hfft', 8, 'forward', False), ('hfft', 16, None, True), ('hfft', 16, None, False),
          ('hfft', 16, 'forward', True), ('fft2', 2, None, True), ('fft2', 2, None, False),
          ('fft2', 3, None, True), ('fft2', 3, None, False), ('fft2', 4, None, True),
          ('fft2', 4, None, False), ('fft2', 8, None, False), ('fft2', 9, None, True),
          ('fft2', 9, None, False), ('fft2', 12, None, True), ('fft2', 12, None, False),
          ('fft2', 16, None, True), ('fft2', 16, None, False)]


@pytest.mark.parametrize("op,n,norm,batched", _CASES)
def test_near_overflow_dft_follows_mkl(op, n, norm, batched):
    _assert_agrees(_scenario(autotensor, op, n, norm, batched),
                   _scenario(torch, op, n, norm, batched))
