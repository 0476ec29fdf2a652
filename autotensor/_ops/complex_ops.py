"""Complex views and conjugation: view_as_real / view_as_complex, real / imag, conj,
conj_physical, resolve_conj (what torch.fft composes its functions of, and what a user
reaches for to take a complex result apart).

Note [Conjugate bit]
~~~~~~~~~~~~~~~~~~~~
PyTorch's ``conj()`` is lazy: a view with a conjugate bit, resolved when read. Here
``conj()`` computes the conjugate (its own memory) and marks the result with the bit
(``_meta["conj"]``), so the parts of PyTorch's behaviour a program can observe through
values and graphs hold: ``is_conj()``; ``resolve_conj()`` records a CloneBackward0 and
clears the bit; views of a marked tensor keep the bit (``make_views``), and so do views of
``_neg_view``'s result, marked with the negative bit (``is_neg()``, ``resolve_neg()``:
``x.conj().imag`` is one); ``view_as_real`` of a marked tensor raises PyTorch's error; ``real`` /
``imag`` of a marked tensor go through ``_conj`` (and ``_neg_view``) as aten's do, so the
graph has the same nodes. What differs: the result does not alias its input (an in-place
write to ``x.conj()`` does not reach ``x``), and ops other than these do not propagate
the bit (their results are resolved tensors, as they are in PyTorch after any
arithmetic).

Note [Complex views]
~~~~~~~~~~~~~~~~~~~~
``view_as_real`` / ``view_as_complex`` (and so ``real`` / ``imag``) are autograd views of
their input, as PyTorch's: they share its memory and version counter, and an in-place op
through ``x.real`` rewrites x's history with CopySlices. Their ViewInfo says in which
element type they read the root base (``dtype_view``: "as_real" or "as_complex"), and
their geometry is counted in their own elements; so every replay converts the base first,
as PyTorch's view_fn does: a stale view's history is its chain of views replayed on the
base (``view_as_real`` and as_strided nodes: Note [View replay chains] in
autograd/inplace.py), CopySlices reads the base's gradient through view_as_real and converts the result back, and
``as_strided`` / a view's new tangent read the converted storage.
"""
from .. import _dtypes
from .._backend import np
from .._zero_grad import ZeroGrad
from .._tensor import Tensor, view_source
from ..autograd import inplace
from ._common import _finish
from .dispatch import defop, view_errors_before_checks
from .shape import select

_REAL_OF = {np.dtype(np.complex64): np.float32, np.dtype(np.complex128): np.float64}
_COMPLEX_OF = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128}


def _as_real_array(x):
    """A (..., 2) real view of a complex array's memory (any strides)."""
    rd = _REAL_OF[x.dtype]
    half = np.dtype(rd).itemsize
    parts = x.real  # a view with x's strides
    return np.lib.stride_tricks.as_strided(parts, x.shape + (2,), x.strides + (half,),
                                           subok=True)  # (a zero tensor's view is one)


def _as_complex_array(x):
    """The complex array whose (real, imag) pairs are x's last dimension: a view (NumPy
    needs only the last axis contiguous, as PyTorch does), else a copy."""
    try:
        return x.view(_COMPLEX_OF[x.dtype])[..., 0]
    except ValueError:
        return _raw_view_as_complex(x)


# ---- raw array formulas (Note [One formula, two interpretations] in raw.py) --------------
def _raw_view_as_real(g):
    return np.stack([g.real, g.imag], -1)


def _raw_view_as_complex(g):
    return (g[..., 0] + 1j * g[..., 1]).astype(_COMPLEX_OF[g.dtype])


def _raw_real(g):
    return _contiguous_part(g.real) if g.dtype.kind == "c" else g


def _raw_imag(g):
    return _contiguous_part(g.imag) if g.dtype.kind == "c" else np.zeros_like(g)


def _contiguous_part(part):
    """A complex gradient's real or imaginary part: a view, as PyTorch's at::real /
    at::imag (a leaf's .grad copies it: version 1; a zero tensor's is a zero tensor, Note
    [Zero-tensor gradients] in _zero_grad.py)."""
    return part


def _complex_kernel(real, imag):
    out = np.empty(np.broadcast_shapes(real.shape, imag.shape), _COMPLEX_OF[real.dtype])
    out.real, out.imag = real, imag
    return out


_CX_RAW = None
_CX_TENSOR = None


def cx(F):
    """The complex helpers formulas need, in F's interpretation (arrays or tensors)."""
    return _CX_RAW if F.is_raw else _CX_TENSOR


VIEW_AS_REAL = defop("view_as_real", "ViewAsRealBackward0", None,
                     grads={"self": lambda F, grad: cx(F).view_as_complex(grad)},
                     jvp=lambda F, self_t: view_as_real(self_t), complex_aware=True)
VIEW_AS_COMPLEX = defop("view_as_complex", "ViewAsComplexBackward0", None,
                        grads={"self": lambda F, grad: cx(F).view_as_real(grad)},
                        jvp=lambda F, self_t: view_as_complex(self_t), complex_aware=True)
VIEW_AS_REAL.views = VIEW_AS_COMPLEX.views = True  # (Note [Tangent layout] in forward_ad.py)
CONJ = defop("conj", "ConjBackward0", np.conj,
             grads={"self": lambda F, grad: cx(F).conj(grad)}, jvp="linear", complex_aware=True,
             layout="view")
CONJ_PHYSICAL = defop("conj_physical", "ConjPhysicalBackward0", np.conj,
                      grads={"self": lambda F, grad: cx(F).conj_physical(grad)}, jvp="linear",
                      complex_aware=True, layout="like")
CONJ_PHYSICAL_ = defop("conj_physical_", "ConjPhysicalBackward1", np.conj,
                       grads={"self": lambda F, grad: cx(F).conj_physical(grad)}, jvp="linear",
                       complex_aware=True)
NEG_VIEW = defop("_neg_view", "NegViewBackward0", np.negative,
                 grads={"self": lambda F, grad: -grad}, jvp="linear", layout="view")


def _angle_kernel(a):
    if a.dtype.kind == "c":
        return np.angle(a)
    return np.where(np.isnan(a), a, np.where(a < 0, np.pi, 0)).astype(a.dtype)


def _angle_backward(F, grad, self):
    """FunctionsManual's angle_backward: grad * z / |z|^2 * i (0 at z = 0); zero for real
    tensors (a step function)."""
    if (self if F.is_raw else self._data).dtype.kind != "c":
        return F.zeros_like(self)
    a2 = F.abs(self) ** 2
    zero = (a2 if F.is_raw else a2._data) == 0
    g = grad * self / (a2 + F.constant(zero, a2)) * F.constant(1j, self)
    return g * F.constant(~zero, g)


def _angle_jvp(F, self, self_t):
    if self._data.dtype.kind != "c":  # (angle_backward's zeros_like(self): self's dtype,
        return F.zeros_like(self)       # whatever self_t's)
    c = cx(F)
    return c.real(c.conj(_angle_backward(F, c.conj(self_t), self)))


def _polar_abs_backward(F, grad, result):
    c = cx(F)
    return c.real(c.conj(grad) * F.sgn(result))


def _polar_angle_backward(F, grad, result):
    """FunctionsManual's polar_backward: real(conj(grad) * (result * 1j)), result * 1j
    first (its rounding and signed zeros: the tangent of conj(grad) * result times 1j
    differs)."""
    c = cx(F)
    return c.real(c.conj(grad) * (result * 1j))


def _polar_jvp(F, abs, abs_t, angle, angle_t):
    c, s = F.cos(angle), F.sin(angle)
    re = im = None
    if abs_t is not None:
        re, im = abs_t * c, abs_t * s
    if angle_t is not None:
        dr, di = -(angle_t * abs * s), angle_t * abs * c
        re = dr if re is None else re + dr
        im = di if im is None else im + di
    return complex(re, im)


ANGLE = defop("angle", "AngleBackward0", _angle_kernel, grads={"self": _angle_backward},
              jvp=_angle_jvp, complex_aware=True)
POLAR = defop("polar", "PolarBackward0", lambda a, t: _complex_kernel(a * np.cos(t),
                                                                       a * np.sin(t)),
              inputs=("abs", "angle"),
              grads={"abs": _polar_abs_backward, "angle": _polar_angle_backward},
              jvp=_polar_jvp, complex_aware=True, layout="iter")
COMPLEX = defop("complex", "ComplexBackward0", _complex_kernel, inputs=("real", "imag"),
                grads={"real": lambda F, grad: cx(F).real(grad),
                       "imag": lambda F, grad: cx(F).imag(grad)},
                jvp="linear", complex_aware=True, layout="iter",
                saves={"real": ("real",), "imag": ("imag",)})
# (at::complex of zero-tensor terms materializes them: Note [Zero-tensor tangents])
POLAR.keeps_zero_tangent = COMPLEX.keeps_zero_tangent = "dense"


def _is_conj(t):
    m = t._meta
    return m is not None and m.get("conj", False)


def _mark_conj(t, flag):
    if flag:
        t._meta_dict()["conj"] = True
    elif t._meta is not None:
        t._meta.pop("conj", None)
    return t


# ---- public functions ------------------------------------------------------------------------
def view_as_real(input):
    d = input._data
    if d.dtype.kind != "c":
        raise RuntimeError("view_as_real is only supported for complex tensors")
    if _is_conj(input):
        raise RuntimeError("view_as_real doesn't work on unresolved conjugated tensors.  To "
                           "resolve the conjugate tensor so you can view it as real, use "
                           "self.resolve_conj(); however, be warned that the resulting tensor "
                           "will NOT alias the original.")
    if not d.size:
        d = view_source(input)  # (Note [Empty strides] in layout.py)
    return _dtype_view(VIEW_AS_REAL, input, _as_real_array(d))  # Note [Complex views]


@view_errors_before_checks
def view_as_complex(input):
    d = input._data
    if d.dtype != np.float16 and d.dtype not in _COMPLEX_OF:
        name = _dtypes.scalar_name(_dtypes.from_numpy(d.dtype))
        raise RuntimeError("view_as_complex is only supported for half, float and double "
                           f"tensors, but got a tensor of scalar type: {name}")
    if d.ndim == 0:
        raise RuntimeError("Input tensor must have one or more dimensions")
    if d.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    if d.strides[-1] != d.itemsize and (d.size or input.stride()[-1] != 1):
        # (an empty array's NumPy strides may be 0: PyTorch's strides decide)
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if d.dtype == np.float16:  # (PyTorch's checks pass: its result would be complex32)
        raise RuntimeError(_NO_COMPLEX32.format("view_as_complex"))
    return _dtype_view(VIEW_AS_COMPLEX, input, _as_complex_array(d))


def _dtype_view(op, input, out):
    """A view in another element type: marked so that its replays convert the base
    (Note [Complex views])."""
    r = _finish(op, (input,), (), out)
    if not np.shares_memory(out, input._data):  # (a copy: an unaligned complex pair)
        return r
    inplace.make_views((r,), input, op.node_name)
    if r._view is None:
        return r  # (of an inference tensor: no view)
    view = input._view  # (Note [View replay chains] in autograd/inplace.py)
    steps = () if view is None else view.replay or (inplace.geometry(input),)
    r._view.replay = steps + ("as_real" if op is VIEW_AS_REAL else "as_complex",)
    base = r._view.base
    if r._data.dtype == base._data.dtype:
        r._view.dtype_view = None  # view_as_complex(view_as_real(x)): x's own type again
    else:
        r._view.dtype_view = "as_real" if r._data.dtype.kind == "f" else "as_complex"
    return r


def conj(input):
    """The conjugate, marked with the conjugate bit (Note [Conjugate bit]); a non-complex
    tensor is returned as it is."""
    if input._data.dtype.kind != "c":
        return input
    return _mark_conj(_finish(CONJ, (input,), (), np.conj(input._data)), not _is_conj(input))


def _conj(input):
    return _mark_conj(_finish(CONJ, (input,), (), np.conj(input._data)), not _is_conj(input))


def _conj_resolved(input):
    """conj in a backward formula: the same node, no conjugate bit (formulas read values)."""
    if input._data.dtype.kind != "c":
        return input
    return _finish(CONJ, (input,), (), np.conj(input._data))


def conj_physical(input):
    if input._data.dtype.kind != "c":
        return input
    return _finish(CONJ_PHYSICAL, (input,), (), np.conj(input._data))


def conj_physical_(input):
    """In place, recorded for a real tensor too (a leaf requiring grad is refused)."""
    from ._common import _inplace_unary
    return _inplace_unary(CONJ_PHYSICAL_, input, float_op=False)


def resolve_conj(input):
    if not _is_conj(input):
        return input
    from .pointwise import clone
    return _mark_conj(clone(input), False)


def is_conj(input):
    return _is_conj(input)


def _neg_view(input):
    r = _finish(NEG_VIEW, (input,), (), np.negative(input._data))
    r._meta_dict()["neg"] = True
    return r


def is_neg(input):
    return input._meta is not None and input._meta.get("neg", False)


def resolve_neg(input):
    if not is_neg(input):
        return input
    from .pointwise import clone
    return clone(input)  # (a CloneBackward0; clones carry no bits)


def real(input):
    """A real view of the real parts (the tensor itself when it is not complex)."""
    if input._data.dtype.kind != "c":
        return input
    r = view_as_real(_conj(input) if _is_conj(input) else input)
    return select(r, -1, 0)


def imag(input):
    if input._data.dtype.kind != "c":
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    if _is_conj(input):
        r = _neg_view(view_as_real(_conj(input)))
    else:
        r = view_as_real(input)
    return select(r, -1, 1)


def angle(input):
    d = input._data
    if d.dtype.kind in "biu":
        d = d.astype(_dtypes.default_float.np)
    return _finish(ANGLE, (input,), (), _angle_kernel(d))


_NO_COMPLEX32 = ("{}: complex32 (ComplexHalf) tensors are not supported: NumPy has no "
                 "complex32 type (compute in float32 and use complex64)")


def _check_pair(a, b, name):
    da, db = a._data.dtype, b._data.dtype
    if da == np.float16 and db == np.float16:
        if name == "polar":
            raise NotImplementedError("\"polar_cpu\" not implemented for 'Half'")
        raise RuntimeError(_NO_COMPLEX32.format(name))
    if da not in _COMPLEX_OF or db not in _COMPLEX_OF:
        raise RuntimeError("Expected both inputs to be Half, Float or Double tensors but got "
                           f"{_dtypes.scalar_name(_dtypes.from_numpy(da))} and "
                           f"{_dtypes.scalar_name(_dtypes.from_numpy(db))}")
    if da != db:
        raise RuntimeError(f"Expected object of scalar type "
                           f"{_dtypes.scalar_name(_dtypes.from_numpy(da))} but got scalar type "
                           f"{_dtypes.scalar_name(_dtypes.from_numpy(db))} for second argument")


def _broadcast_check(a, b):
    from ._common import _broadcastable
    from .dispatch import broadcast_error
    if not _broadcastable(a._data.shape, b._data.shape):
        raise broadcast_error(a._data.shape, b._data.shape)


def _finish_pair(op, a, b, out):
    from .dispatch import set_input_metadata
    r = _finish(op, (a, b), (), out)
    if r._grad_fn is not None:  # broadcast inputs: gradients summed back (the engine)
        set_input_metadata(r._grad_fn, (a, b), out.shape, out.dtype)
    return r


@view_errors_before_checks
def complex(real, imag, *, out=None):
    """real + i imag (broadcast), in the complex dtype of the (equal, floating) inputs."""
    _check_pair(real, imag, "complex")
    _broadcast_check(real, imag)
    r = _finish_pair(COMPLEX, real, imag, _complex_kernel(real._data, imag._data))
    if out is not None:
        from ._out import write_out
        return write_out("complex", r, out)
    return r


@view_errors_before_checks
def polar(abs, angle, *, out=None):
    """abs * (cos(angle) + i sin(angle))."""
    _check_pair(abs, angle, "polar")
    _broadcast_check(abs, angle)
    a, t = abs._data, angle._data
    r = _finish_pair(POLAR, abs, angle, _complex_kernel(a * np.cos(t), a * np.sin(t)))
    if out is not None:
        from ._out import write_out
        return write_out("polar", r, out)
    return r


def _adjoint_of(t):
    return conj(t) if t._data.dtype.kind == "c" else t


def _mH(input):
    from .shape import transpose
    nd = input._data.ndim
    if nd == 1:
        raise RuntimeError("tensor.mH is only supported on matrices or batches of matrices. "
                           "Got 1-D tensor.")
    return _adjoint_of(transpose(input, -2, -1) if nd else input)


def _H(input):
    from .shape import transpose
    nd = input._data.ndim
    if nd not in (0, 2):
        more = " For batches of matrices, consider using tensor.mH" if nd > 2 else ""
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got "
                           f"{nd}-D tensor.{more}")
    return _adjoint_of(transpose(input, 0, 1) if nd else input)


class _CX:
    __slots__ = ("view_as_real", "view_as_complex", "conj", "conj_physical", "real", "imag",
                 "complex")

    def __init__(self, **kw):
        for k, v in kw.items():
            setattr(self, k, v)


def _contiguous(t):
    from .pointwise import contiguous
    return contiguous(t)


_CX_RAW = _CX(view_as_real=_raw_view_as_real, view_as_complex=_raw_view_as_complex,
              conj=np.conj, conj_physical=np.conj, real=_raw_real, imag=_raw_imag,
              complex=_complex_kernel)
_CX_TENSOR = _CX(view_as_real=lambda g: view_as_real(_contiguous(resolve_conj(g))),
                 view_as_complex=lambda g: view_as_complex(_contiguous(g)),
                 conj=_conj_resolved, conj_physical=conj_physical, real=real,
                 imag=imag, complex=lambda a, b: complex(a, b))

_ = Tensor
