"""Stop 35 (helper fft35): torch.fft on signals holding infs and nans, whose nan patterns are
MKL's order of operations (Note [MKL's DFT on non-finite values] in
autotensor/_ops/fft_mkl.py; tests/fuzz/OPEN_FINDINGS.md, Stop 35 FFT). Each scenario runs on
autotensor and on PyTorch: the nan/inf patterns must be equal, finite values close."""
import numpy as np
import pytest

import autotensor

torch = pytest.importorskip("torch")

_INF, _NAN = np.inf, np.nan


def _signal(n, rows, dtype, seed):
    """``rows`` signals of n points, each with 1 to 3 infs or nans (or up to n/2 infs),
    in real and imaginary parts."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((rows, n))
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal((rows, n))
    x = x.astype(dtype)
    flat = x.view(x.real.dtype).reshape(rows, -1)
    for r in range(rows):
        many = r % 2 and flat.shape[1] > 2
        k = rng.integers(1, (flat.shape[1] // 2 if many else 3) + 1)
        idx = rng.choice(flat.shape[1], size=min(k, flat.shape[1]), replace=False)
        vals = [_INF, -_INF] if many else [_INF, -_INF, _INF, -_INF, _NAN]
        flat[r, idx] = rng.choice(vals, size=len(idx))
    return x


def _pattern(a):
    a = np.asarray(a)
    if a.dtype.kind == "c":
        a = np.stack([a.real, a.imag], -1)
    return np.where(np.isnan(a), 2, np.where(np.isposinf(a), 1, np.where(np.isneginf(a), -1, 0)))


def _both(scenario, x):
    ours = scenario(autotensor, autotensor.tensor(x.copy())).resolve_conj().numpy()
    theirs = scenario(torch, torch.from_numpy(x.copy())).resolve_conj().numpy()
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    bad = (_pattern(ours) != _pattern(theirs)).reshape(len(x), -1).any(-1)
    assert not bad.any(), f"{bad.sum()} of {len(x)} rows differ, first {x[bad][0]}"
    fin = np.isfinite(theirs)
    if not fin.any():
        return
    single = ours.dtype in (np.float32, np.complex64)
    np.testing.assert_allclose(ours[fin], theirs[fin], rtol=2e-5 if single else 1e-12,
                               atol=(2e-5 if single else 1e-12) * np.abs(theirs[fin]).max())


def test_fuzz_repro_cat_ortho():
    """a_repro_001: fft of a float32 6-point real signal (a 3-vector concatenated with
    itself): PyTorch +inf at 2 and 4 (MKL's 6-point prime-factor codelet), pocketfft nan."""
    x = np.array([1.764, 0.4, -_INF], dtype=np.float32)

    def scenario(m, t):
        return m.view_as_real(m.fft.fft(m.cat([t, t]), dim=0, norm="ortho"))
    ours = scenario(autotensor, autotensor.tensor(x)).numpy()
    theirs = scenario(torch, torch.from_numpy(x)).numpy()
    np.testing.assert_array_equal(_pattern(ours), _pattern(theirs))
    assert ours[2, 0] == ours[4, 0] == np.inf


@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
@pytest.mark.parametrize("n", [6, 10, 12, 14, 15, 18, 20, 21, 22, 26, 27, 28, 30])
def test_fft_nonfinite(n, dtype):
    _both(lambda m, t: m.fft.fft(t), _signal(n, 120, dtype, n))


@pytest.mark.parametrize("n", [16, 24, 32])
def test_fft_nonfinite_double_radix4(n):
    _both(lambda m, t: m.fft.fft(t, norm="forward"), _signal(n, 120, "complex128", n))


@pytest.mark.parametrize("dtype,n", [("complex128", 6), ("complex128", 12), ("complex128", 32),
                                     ("complex64", 10), ("complex64", 20), ("complex64", 30)])
def test_fft_nonfinite_ortho(n, dtype):
    _both(lambda m, t: m.fft.fft(t, norm="ortho"), _signal(n, 120, dtype, 600 + n))


@pytest.mark.parametrize("dtype,shape", [("complex128", (2, 6)), ("complex128", (4, 12)),
                                         ("complex128", (2, 14)), ("complex64", (2, 10)),
                                         ("complex64", (3, 12)), ("complex64", (4, 20))])
def test_fft2_nonfinite(shape, dtype):
    x = _signal(shape[0] * shape[1], 80, dtype, 700 + shape[1]).reshape(80, *shape)
    _both(lambda m, t: m.fft.fft2(t), x)


@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
@pytest.mark.parametrize("n", [6, 12, 20, 30])
def test_ifft_nonfinite(n, dtype):
    _both(lambda m, t: m.fft.ifft(t), _signal(n, 120, dtype, 100 + n))


def test_fft_nonfinite_along_dim0():
    x = _signal(12, 40, "complex128", 7).T.copy()  # transformed dim first, batch last
    _both(lambda m, t: m.fft.fft(t, dim=0), x)


@pytest.mark.parametrize("dtype,n", [(d, n) for d in ("float64", "float32")
                                     for n in (6, 10, 12, 14, 18, 20, 22, 24, 28, 30)
                                     if (d, n) != ("float32", 24)])
def test_rfft_nonfinite(n, dtype):
    _both(lambda m, t: m.fft.rfft(t), _signal(n, 120, dtype, 200 + n))


@pytest.mark.parametrize("n", [6, 12, 20])
def test_fft_of_real_nonfinite(n):
    """The two-sided transform of a real signal is the r2c's half mirrored (aten's
    conjugate fill), so MKL's r2c patterns show in both halves."""
    _both(lambda m, t: m.fft.fft(t), _signal(n, 120, "float64", 300 + n))


@pytest.mark.parametrize("dtype,n", [(d, n) for d in ("complex128", "complex64")
                                     for n in (6, 10, 12, 15, 18, 20, 24, 26, 30)
                                     if (d, n) != ("complex64", 24)])
def test_irfft_nonfinite(n, dtype):
    x = _signal(n // 2 + 1, 120, dtype, 400 + n)
    _both(lambda m, t: m.fft.irfft(t, n=n), x)


@pytest.mark.parametrize("n", [6, 12, 22])
def test_hfft_nonfinite(n):
    x = _signal(n // 2 + 1, 120, "complex128", 500 + n)
    _both(lambda m, t: m.fft.hfft(t, n=n, norm="forward"), x)


@pytest.mark.parametrize("fn", ["fft", "ifft"])
def test_fft_nonfinite_single_16(fn):
    """float32's 16-point codelet multiplies w^0 in full in strand 1 and w^4 = -i in
    strand 2, unlike float64's."""
    _both(lambda m, t: getattr(m.fft, fn)(t), _signal(16, 160, "complex64", 16))


@pytest.mark.parametrize("n", [13, 19, 23, 29, 31])
def test_fft_nonfinite_ortho_rader(n):
    """Double precision under 1/sqrt(n) scaling: Rader's algorithm (one inf anywhere but
    x_0 makes every X_k but X_0 nan)."""
    _both(lambda m, t: m.fft.fft(t, norm="ortho"), _signal(n, 120, "complex128", 800 + n))


@pytest.mark.parametrize("shape", [(2, 13), (3, 19)])
def test_fft2_nonfinite_rader(shape):
    x = _signal(shape[0] * shape[1], 80, "complex128", 900 + shape[1]).reshape(80, *shape)
    _both(lambda m, t: m.fft.ifft2(t), x)


@pytest.mark.parametrize("dtype,shape", [("float64", (2, 6)), ("float64", (3, 20)),
                                         ("float32", (4, 10)), ("float32", (2, 28))])
def test_rfft2_nonfinite(shape, dtype):
    x = _signal(shape[0] * shape[1], 80, dtype, 1000 + shape[1]).reshape(80, *shape)
    _both(lambda m, t: m.fft.rfft2(t), x)


@pytest.mark.parametrize("dtype,shape", [("complex128", (2, 6)), ("complex128", (3, 20)),
                                         ("complex64", (4, 10)), ("complex64", (2, 28))])
def test_irfft2_nonfinite(shape, dtype):
    x = _signal(shape[0] * (shape[1] // 2 + 1), 80, dtype, 1100 + shape[1])
    _both(lambda m, t: m.fft.irfft2(t, s=shape), x.reshape(80, shape[0], shape[1] // 2 + 1))


@pytest.mark.parametrize("n", [20, 21, 22, 24, 28, 30])
def test_fft_nonfinite_ortho_prime_factor(n):
    """Double precision under 1/sqrt(n) scaling: prime-factor transforms (20 = 4 x 5)."""
    _both(lambda m, t: m.fft.ifft(t, norm="ortho"), _signal(n, 120, "complex128", 1200 + n))


@pytest.mark.parametrize("n", [10, 18, 20, 26])
def test_rfft_irfft_nonfinite_ortho(n):
    """Real transforms keep their kernels under "ortho"."""
    _both(lambda m, t: m.fft.rfft(t, norm="ortho"), _signal(n, 120, "float64", 1300 + n))
    x = _signal(n // 2 + 1, 120, "complex128", 1400 + n)
    _both(lambda m, t: m.fft.irfft(t, n=n, norm="ortho"), x)


@pytest.mark.parametrize("norm", [None, "ortho"])
@pytest.mark.parametrize("shape", [(13, 6), (20, 6), (13, 3, 4)])
def test_rfftn_irfftn_nonfinite_kernels(shape, norm):
    """The c2c over an r2c's other dims keeps the 1-d kernels; the c2c before a c2r takes
    the multi-dimensional ones under "ortho" or over several dims."""
    size, dims = int(np.prod(shape)), tuple(range(1, len(shape) + 1))
    x = _signal(size, 80, "float64", 1500 + size).reshape(80, *shape)
    _both(lambda m, t: m.fft.rfftn(t, dim=dims, norm=norm), x)
    half = shape[:-1] + (shape[-1] // 2 + 1,)
    y = _signal(int(np.prod(half)), 80, "complex128", 1600 + size).reshape(80, *half)
    _both(lambda m, t: m.fft.irfftn(t, s=shape, dim=dims, norm=norm), y)


@pytest.mark.parametrize("dtype,n", [("complex128", 34), ("complex128", 40), ("complex128", 48),
                                     ("complex128", 63), ("complex128", 64),
                                     ("complex64", 42), ("complex64", 54)])
def test_fft_nonfinite_33_to_64(n, dtype):
    """Sizes 33-64: decimation in time by the largest odd prime in full (even), by the
    smallest prime over a codelet (odd), 64 = 8 x 8."""
    _both(lambda m, t: m.fft.fft(t), _signal(n, 80, dtype, 1700 + n))


@pytest.mark.parametrize("n", [34, 44, 60])
def test_rfft_irfft_nonfinite_33_to_64(n):
    _both(lambda m, t: m.fft.rfft(t), _signal(n, 80, "float64", 1800 + n))
    x = _signal(n // 2 + 1, 80, "complex128", 1900 + n)
    _both(lambda m, t: m.fft.irfft(t, n=n), x)


@pytest.mark.parametrize("n", [34, 41, 44, 48, 56])
def test_fft_nonfinite_ortho_33_to_64(n):
    """Double precision's other kernels from 33: Rader, prime-factor (48 = 3 x 16)."""
    _both(lambda m, t: m.fft.fft(t, norm="ortho"), _signal(n, 80, "complex128", 2000 + n))


def test_fft2_nonfinite_prime_factor_42():
    x = _signal(84, 60, "complex128", 2100).reshape(60, 2, 42)
    _both(lambda m, t: m.fft.fft2(t), x)


