"""op_db samples for torch.fft and the complex views (view_as_real / view_as_complex, real,
imag, conj).

Imported by op_db.py at its end; ``add`` appends to the shared ``SAMPLES`` list, so every
sample here gets the generated tests (values, gradcheck, gradgradcheck, forward AD, node
names vs torch). The table's inputs and outputs are real: a complex input is built with
``view_as_complex`` from a (..., 2) array and a complex output is taken apart with
``view_as_real`` (``real`` / ``imag`` for the conjugate-bit results of ifft / ihfft of a real
input, which torch's ``view_as_real`` refuses), so gradcheck checks the real and imaginary
parts of every derivative.
"""
import numpy as np

from op_db import add


def _c(g, *shape):
    """A complex input as its (..., 2) real pairs."""
    return g.u(*shape, 2)


def _r2(m, y):
    return m.view_as_real(y)


def _parts(y):
    """The real and imaginary parts (``* 1``: torch's imag of a conjugate is a negative
    view, which its numpy() refuses)."""
    return y.real, y.imag * 1


# ---- complex views and conjugation -----------------------------------------------------------
add("cx_view_as_real", lambda m, a: m.view_as_real(m.view_as_complex(a) * 2),
    lambda g: [_c(g, 2, 3)])
add("cx_view_as_complex", lambda m, a: m.view_as_real(m.view_as_complex(a).conj_physical()),
    lambda g: [_c(g, 3)])
add("cx_real_imag", lambda m, a: (m.view_as_complex(a).real, m.view_as_complex(a).imag),
    lambda g: [_c(g, 2, 3)])
add("cx_conj_parts", lambda m, a: _parts(m.view_as_complex(a).conj()), lambda g: [_c(g, 4)])
add("cx_conj_resolved", lambda m, a: m.view_as_real(m.view_as_complex(a).conj().resolve_conj()),
    lambda g: [_c(g, 4)])
add("cx_torch_real_imag", lambda m, a: (m.real(m.view_as_complex(a)), m.imag(m.view_as_complex(a))),
    lambda g: [_c(g, 3)])

# ---- complex arithmetic (Note [Complex gradients]: the conjugate Wirtinger convention) ------
def _z(m, a):
    return m.view_as_complex(a)


add("cx_mul", lambda m, a, b: _r2(m, _z(m, a) * _z(m, b)), lambda g: [_c(g, 2, 3), _c(g, 3)])
add("cx_mul_real", lambda m, a, x: _r2(m, _z(m, a) * x), lambda g: [_c(g, 3), g.u(2, 3)])
add("cx_mul_scalar", lambda m, a: _r2(m, _z(m, a) * (2 - 1j)), lambda g: [_c(g, 4)])
add("cx_div", lambda m, a, b: _r2(m, _z(m, a) / _z(m, b)),
    lambda g: [_c(g, 3), _c(g, 3) + np.array([1.5, 0.0])])
add("cx_exp_log", lambda m, a: _r2(m, m.log(m.exp(_z(m, a)) + 3)), lambda g: [_c(g, 4)])
add("cx_sin_tanh", lambda m, a: _r2(m, m.sin(_z(m, a)) * m.tanh(_z(m, a))),
    lambda g: [_c(g, 3)])
add("cx_pow_sqrt", lambda m, a: _r2(m, _z(m, a) ** 3 + m.sqrt(_z(m, a) + 4)),
    lambda g: [_c(g, 3)])
add("cx_reciprocal_sum", lambda m, a: _r2(m, (1 / (_z(m, a) + 3)).sum(0)),
    lambda g: [_c(g, 2, 3)])
add("cx_abs_of_product", lambda m, a, b: (_z(m, a) * _z(m, b)).abs(),
    lambda g: [_c(g, 4), _c(g, 4)])
add("cx_sgn", lambda m, a: _r2(m, m.sgn(_z(m, a))), lambda g: [_c(g, 2, 3)])
add("cx_sgn_zero", lambda m, a: _r2(m, _z(m, a).sgn() * 2), lambda g: [np.array([[0.0, 0.0],
                                                                                   [1.0, -2.0]])],
    kink=True)  # (not differentiable at 0: PyTorch's zero there is compared)
add("cx_angle", lambda m, a: m.angle(_z(m, a) * 2), lambda g: [_c(g, 2, 3)])
add("cx_angle_real", lambda m, x: x.angle() + x, lambda g: [g.away(5)])
add("cx_polar", lambda m, r, t: _r2(m, m.polar(r, t)), lambda g: [g.pos(2, 3), g.u(3)])
add("cx_complex", lambda m, x, y: _r2(m, m.complex(x, y) ** 2), lambda g: [g.u(2, 3), g.u(3)])
add("cx_adjoint", lambda m, a: _r2(m, _z(m, a).adjoint().resolve_conj()),
    lambda g: [_c(g, 2, 2, 3)])
add("cx_mH_H", lambda m, a: _r2(m, _z(m, a).mH.resolve_conj() * 2 + _z(m, a).H * 1),
    lambda g: [_c(g, 3, 3)])
add("cx_spectral_filter", lambda m, x, h: m.fft.irfft(m.fft.rfft(x) * _z(m, h), n=6),
    lambda g: [g.u(2, 6), _c(g, 4)])
add("cx_fft_power", lambda m, x: (m.fft.fft(x, norm="ortho").abs() ** 2).sum(-1),
    lambda g: [g.u(2, 5)])

# ---- one-dimensional transforms --------------------------------------------------------------
add("fft_fft_real", lambda m, x: _r2(m, m.fft.fft(x)), lambda g: [g.u(3, 5)],
    ref=lambda x: np.stack([np.fft.fft(x).real, np.fft.fft(x).imag], -1))
add("fft_fft_complex", lambda m, a: _r2(m, m.fft.fft(m.view_as_complex(a))),
    lambda g: [_c(g, 2, 4)])
add("fft_fft_n_pad_dim0", lambda m, x: _r2(m, m.fft.fft(x, n=6, dim=0)), lambda g: [g.u(4, 3)])
add("fft_fft_n_trim_ortho", lambda m, a: _r2(m, m.fft.fft(m.view_as_complex(a), 3, norm="ortho")),
    lambda g: [_c(g, 2, 5)])
add("fft_fft_forward_norm", lambda m, x: _r2(m, m.fft.fft(x, norm="forward")), lambda g: [g.u(6)])
add("fft_ifft_complex", lambda m, a: _r2(m, m.fft.ifft(m.view_as_complex(a), n=7)),
    lambda g: [_c(g, 2, 5)])
add("fft_ifft_real", lambda m, x: _parts(m.fft.ifft(x, norm="ortho")), lambda g: [g.u(2, 5)])
add("fft_rfft", lambda m, x: _r2(m, m.fft.rfft(x)), lambda g: [g.u(3, 6)],
    ref=lambda x: np.stack([np.fft.rfft(x).real, np.fft.rfft(x).imag], -1))
add("fft_rfft_odd_n", lambda m, x: _r2(m, m.fft.rfft(x, n=7, dim=0)), lambda g: [g.u(5, 2)])
add("fft_rfft_forward", lambda m, x: _r2(m, m.fft.rfft(x, norm="forward")), lambda g: [g.u(8)])
add("fft_irfft", lambda m, a: m.fft.irfft(m.view_as_complex(a)), lambda g: [_c(g, 2, 4)])
add("fft_irfft_odd_n_ortho", lambda m, a: m.fft.irfft(m.view_as_complex(a), n=7, norm="ortho"),
    lambda g: [_c(g, 3, 4)])
add("fft_irfft_trim", lambda m, a: m.fft.irfft(m.view_as_complex(a), n=4, dim=0),
    lambda g: [_c(g, 5, 2)])
add("fft_irfft_real_input", lambda m, x: m.fft.irfft(x, norm="forward"), lambda g: [g.u(5)])
add("fft_hfft", lambda m, a: m.fft.hfft(m.view_as_complex(a)), lambda g: [_c(g, 2, 4)])
add("fft_hfft_n_ortho", lambda m, a: m.fft.hfft(m.view_as_complex(a), n=5, norm="ortho"),
    lambda g: [_c(g, 4)])
add("fft_ihfft", lambda m, x: _parts(m.fft.ihfft(x)), lambda g: [g.u(2, 6)])
add("fft_ihfft_n", lambda m, x: _parts(m.fft.ihfft(x, n=5, dim=0, norm="forward")),
    lambda g: [g.u(4, 2)])

# ---- n-dimensional transforms ----------------------------------------------------------------
add("fft_fft2_real", lambda m, x: _r2(m, m.fft.fft2(x)), lambda g: [g.u(3, 4)],
    ref=lambda x: np.stack([np.fft.fft2(x).real, np.fft.fft2(x).imag], -1))
add("fft_fft2_complex_s", lambda m, a: _r2(m, m.fft.fft2(m.view_as_complex(a), s=(2, 5))),
    lambda g: [_c(g, 3, 4)])
add("fft_ifft2_ortho", lambda m, a: _r2(m, m.fft.ifft2(m.view_as_complex(a), norm="ortho")),
    lambda g: [_c(g, 2, 3, 2)])
add("fft_fftn_dims", lambda m, a: _r2(m, m.fft.fftn(m.view_as_complex(a), dim=(0, 2))),
    lambda g: [_c(g, 2, 3, 3)])
add("fft_fftn_all_real", lambda m, x: _r2(m, m.fft.fftn(x, norm="forward")),
    lambda g: [g.u(2, 3, 2)])
add("fft_ifftn_s_default", lambda m, a: _r2(m, m.fft.ifftn(m.view_as_complex(a), s=(-1, 4))),
    lambda g: [_c(g, 3, 3)])
add("fft_rfft2", lambda m, x: _r2(m, m.fft.rfft2(x)), lambda g: [g.u(3, 4)])
add("fft_rfftn_s", lambda m, x: _r2(m, m.fft.rfftn(x, s=(4, 5), norm="ortho")),
    lambda g: [g.u(2, 3, 4)])
add("fft_rfftn_dims_order", lambda m, x: _r2(m, m.fft.rfftn(x, dim=(1, 0))),
    lambda g: [g.u(3, 4)])
add("fft_irfft2", lambda m, a: m.fft.irfft2(m.view_as_complex(a)), lambda g: [_c(g, 3, 3)])
add("fft_irfftn_s", lambda m, a: m.fft.irfftn(m.view_as_complex(a), s=(4, 5), norm="forward"),
    lambda g: [_c(g, 2, 3, 4)])
add("fft_hfft2", lambda m, a: m.fft.hfft2(m.view_as_complex(a)), lambda g: [_c(g, 2, 3)])
add("fft_hfftn_s_ortho", lambda m, a: m.fft.hfftn(m.view_as_complex(a), s=(3, 5), norm="ortho"),
    lambda g: [_c(g, 2, 3)])
add("fft_ihfft2", lambda m, x: _r2(m, m.fft.ihfft2(x)), lambda g: [g.u(3, 4)])
add("fft_ihfftn_s", lambda m, x: _r2(m, m.fft.ihfftn(x, s=(2, 5), dim=(0, 2))),
    lambda g: [g.u(3, 2, 4)])

# ---- shifts ---------------------------------------------------------------------------------
add("fft_fftshift", lambda m, x: m.fft.fftshift(x), lambda g: [g.u(3, 5)],
    ref=lambda x: np.fft.fftshift(x))
add("fft_ifftshift_dim", lambda m, x: m.fft.ifftshift(x, dim=1), lambda g: [g.u(2, 5)],
    ref=lambda x: np.fft.ifftshift(x, axes=1))

# ---- short-time Fourier transform ---------------------------------------------------------
add("fft_stft", lambda m, x, w: _r2(m, m.stft(x, 8, window=w, return_complex=True)),
    lambda g: [g.u(20), g.pos(8)])
add("fft_stft_short_window", lambda m, x, w: _r2(m, x.stft(
    8, hop_length=3, win_length=5, window=w, return_complex=True, normalized=True)),
    lambda g: [g.u(2, 17), g.pos(5)])
add("fft_stft_two_sided_constant", lambda m, x, w: _r2(m, m.stft(
    x, 6, window=w, return_complex=True, onesided=False, pad_mode="constant")),
    lambda g: [g.u(15), g.pos(6)])
add("fft_stft_complex_input", lambda m, a, w: _r2(m, m.stft(
    _z(m, a), 4, hop_length=2, window=w, return_complex=True, center=False)),
    lambda g: [_c(g, 11), g.pos(4)])
add("fft_istft", lambda m, a, w: m.istft(_z(m, a), 8, window=w), lambda g: [_c(g, 5, 9), g.pos(8)])
add("fft_istft_short_window_batch", lambda m, a, w: m.istft(
    _z(m, a), 8, hop_length=3, win_length=6, window=w, length=20, normalized=True),
    lambda g: [_c(g, 2, 5, 7), g.pos(6)])
add("fft_istft_two_sided_complex", lambda m, a, w: _r2(m, m.istft(
    _z(m, a), 6, window=w, onesided=False, return_complex=True, center=False, hop_length=2)),
    lambda g: [_c(g, 6, 5), g.pos(6)])
