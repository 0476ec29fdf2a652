"""PyTorch's argument errors: what its PythonArgParser says when a public function or
Tensor method gets an argument of the wrong type, too many or too few.

Note [Argument errors on the exception path]: PyTorch parses every call against the
overloads of its signature strings before it runs anything; we do not (a parse per call
would cost more than a small op). Our functions take their arguments as Python does and
fail however they fail (a ValueError from int('a'), an AttributeError from 'int' object has
no attribute '_data', Python's own "missing 1 required positional argument"); ``guard``
catches those failures and only then parses the call against PyTorch's signatures
(``SIGNATURES``, the strings of PyTorch's parser, tools/gen_argparse_table.py): a call no
overload takes raises the parser's TypeError, worded as PyTorch's; a call one takes
re-raises the original error, which was then a genuine one. The success path pays nothing
but the guard's own frame (about 75 ns: 1-2% of sum, view, matmul); the elementwise ops
(``_unary_fn``, ``_binary_fn``: a microsecond a call) take no guard: their entry points
take ``*args`` and a missing-argument default (a few ns) and call ``refuse_*`` on their own
slow path. The calls PyTorch refuses and we would silently compute (``cat(x)`` of a
Tensor, a list as ``index_select``'s index, a float keepdim, a float or bool as an int, an
explicit None where the parser wants an int) have a cheap test at the op, which raises for
the guard to word: ``wrong_type``, or ``ints`` / ``bools`` / ``floats`` / ``int_list`` /
``index`` (an ``is`` test for a well-typed argument), or a sentinel default where our
default was None. An op with several overloads that reads its arguments on a slow path
binds them with ``bind`` (Tensor.to). Left unguarded: the Tensor methods under a
microsecond (size, dim, numel, item, detach, contiguous, float...: the guard's frame would
cost 10-300% of them; tools/gen_argparse_table.py lists them).
"""
from operator import index as _index

from . import _warn
from ._backend import np as _np

from ._tensor import Tensor, Size, device as _device
from ._dtypes import dtype as _dtype

# Note [Argument errors on the exception path]: PyTorch's parser signature strings,
# by 't' (torch.<name>), 'T' (Tensor.<name>), 'F' (torch._C._nn.<name>, behind
# nn.functional) and name. Overloads in PyTorch's order; '|hidden' / '|deprecated' ones
# parse but are never listed in an error.
SIGNATURES = {
    'tadd': [
        'add(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)',
        'add(Tensor input, Scalar alpha, Tensor other, *, Tensor out=None)|deprecated',
    ],
    'tsub': [
        'sub(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)',
        'sub(Tensor input, Scalar alpha, Tensor other, *, Tensor out=None)|deprecated',
    ],
    'tmul': ['mul(Tensor input, Tensor other, *, Tensor out=None)'],
    'tdiv': [
        'div(Tensor input, Tensor other, *, Tensor out=None)',
        'div(Tensor input, Tensor other, *, c10::string_view? rounding_mode, Tensor out=None)',
        'div(Tensor input, Scalar other, *, c10::string_view? rounding_mode)',
    ],
    'texp': ['exp(Tensor input, *, Tensor out=None)'],
    'tlog': ['log(Tensor input, *, Tensor out=None)'],
    'tsqrt': ['sqrt(Tensor input, *, Tensor out=None)'],
    'tsin': ['sin(Tensor input, *, Tensor out=None)'],
    'tcos': ['cos(Tensor input, *, Tensor out=None)'],
    'ttanh': ['tanh(Tensor input, *, Tensor out=None)'],
    'tsigmoid': ['sigmoid(Tensor input, *, Tensor out=None)'],
    'tabs': ['abs(Tensor input, *, Tensor out=None)'],
    'tneg': ['neg(Tensor input, *, Tensor out=None)'],
    'trelu': ['relu(Tensor input)'],
    'tsum': [
        'sum(Tensor input, *, ScalarType? dtype=None)',
        'sum(Tensor input, IntArrayRef[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, '
        'Tensor out=None)',
    ],
    'tmean': [
        'mean(Tensor input, *, ScalarType? dtype=None, Tensor out=None)',
        'mean(Tensor input, IntArrayRef[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, '
        'Tensor out=None)',
    ],
    'tmax': [
        'max(Tensor input, *, Tensor out=None)',
        'max(Tensor input, Tensor other, *, Tensor out=None)',
        'max(Tensor input, int64_t dim, bool keepdim=False, *, TensorList[2] out=None)',
    ],
    'tmin': [
        'min(Tensor input, *, Tensor out=None)',
        'min(Tensor input, Tensor other, *, Tensor out=None)',
        'min(Tensor input, int64_t dim, bool keepdim=False, *, TensorList[2] out=None)',
    ],
    'tstd': [
        'std(Tensor input, IntArrayRef[1]? dim, bool unbiased=True, bool keepdim=False, *, '
        'Tensor out=None)',
        'std(Tensor input, IntArrayRef[1]? dim=None, *, Scalar? correction=None, '
        'bool keepdim=False, Tensor out=None)',
        'std(Tensor input, bool unbiased=True)',
    ],
    'tvar': [
        'var(Tensor input, IntArrayRef[1]? dim, bool unbiased=True, bool keepdim=False, *, '
        'Tensor out=None)',
        'var(Tensor input, IntArrayRef[1]? dim=None, *, Scalar? correction=None, '
        'bool keepdim=False, Tensor out=None)',
        'var(Tensor input, bool unbiased=True)',
    ],
    'tprod': [
        'prod(Tensor input, *, ScalarType? dtype=None)',
        'prod(Tensor input, int64_t dim, bool keepdim=False, *, ScalarType? dtype=None, '
        'Tensor out=None)',
    ],
    'targmax': ['argmax(Tensor input, int64_t? dim=None, bool keepdim=False, *, Tensor out=None)'],
    'targmin': ['argmin(Tensor input, int64_t? dim=None, bool keepdim=False, *, Tensor out=None)'],
    'tamax': [
        'amax(Tensor input, IntArrayRef[1] dim=None, bool keepdim=False, *, Tensor out=None)',
    ],
    'tamin': [
        'amin(Tensor input, IntArrayRef[1] dim=None, bool keepdim=False, *, Tensor out=None)',
    ],
    'tsoftmax': ['softmax(Tensor input, int64_t dim, ScalarType? dtype=None, *, Tensor out=None)'],
    'tlog_softmax': [
        'log_softmax(Tensor input, int64_t dim, ScalarType? dtype=None, *, Tensor out=None)',
    ],
    'treshape': ['reshape(Tensor input, SymIntArrayRef shape)'],
    'tpermute': ['permute(Tensor input, IntArrayRef dims)'],
    'ttranspose': ['transpose(Tensor input, int64_t dim0, int64_t dim1)'],
    'tsqueeze': [
        'squeeze(Tensor input)',
        'squeeze(Tensor input, int64_t dim)',
        'squeeze(Tensor input, IntArrayRef dim)',
    ],
    'tunsqueeze': ['unsqueeze(Tensor input, int64_t dim)'],
    'tflatten': ['flatten(Tensor input, int64_t start_dim=0, int64_t end_dim=-1)'],
    'tcat': ['cat(TensorList tensors, int64_t dim=0, *, Tensor out=None)'],
    'tstack': ['stack(TensorList tensors, int64_t dim=0, *, Tensor out=None)'],
    'tindex_select': ['index_select(Tensor input, int64_t dim, Tensor index, *, Tensor out=None)'],
    'tgather': [
        'gather(Tensor input, int64_t dim, Tensor index, *, bool sparse_grad=False, '
        'Tensor out=None)',
    ],
    'tscatter': [
        'scatter(Tensor input, int64_t dim, Tensor index, Tensor src, *, Tensor out=None)',
        'scatter(Tensor input, int64_t dim, Tensor index, Tensor src, *, c10::string_view reduce, '
        'Tensor out=None)',
        'scatter(Tensor input, int64_t dim, Tensor index, Scalar value, *, Tensor out=None)',
        'scatter(Tensor input, int64_t dim, Tensor index, Scalar value, *, '
        'c10::string_view reduce, Tensor out=None)',
    ],
    'tscatter_add': [
        'scatter_add(Tensor input, int64_t dim, Tensor index, Tensor src, *, Tensor out=None)',
    ],
    'tmatmul': ['matmul(Tensor input, Tensor other, *, Tensor out=None)'],
    'tmm': [
        'mm(Tensor input, Tensor mat2, *, Tensor out=None)',
        'mm(Tensor input, Tensor mat2, ScalarType out_dtype, *, Tensor out=None)',
    ],
    'tbmm': [
        'bmm(Tensor input, Tensor mat2, *, Tensor out=None)',
        'bmm(Tensor input, Tensor mat2, ScalarType out_dtype, *, Tensor out=None)',
    ],
    'tzeros': [
        'zeros(SymIntArrayRef size, *, Tensor out=None, ScalarType? dtype=None, '
        'Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
    ],
    'tones': [
        'ones(SymIntArrayRef size, *, Tensor out=None, ScalarType? dtype=None, '
        'Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
    ],
    'tempty': [
        'empty(SymIntArrayRef size, *, MemoryFormat? memory_format=None, Tensor out=None, '
        'ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
    ],
    'tfull': [
        'full(SymIntArrayRef size, Scalar fill_value, *, Tensor out=None, ScalarType? dtype=None, '
        'Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
    ],
    'trand': [
        'rand(SymIntArrayRef size, *, Generator? generator, Tensor out=None, '
        'ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
        'rand(SymIntArrayRef size, *, Tensor out=None, ScalarType? dtype=None, '
        'Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
    ],
    'trandn': [
        'randn(SymIntArrayRef size, *, Generator? generator, Tensor out=None, '
        'ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
        'randn(SymIntArrayRef size, *, Tensor out=None, ScalarType? dtype=None, '
        'Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
    ],
    'tarange': [
        'arange(Scalar end, *, Tensor out=None, ScalarType? dtype=None, Layout? layout=None, '
        'Device? device=None, bool? pin_memory=False, bool? requires_grad=False)',
        'arange(Scalar start, Scalar end, *, ScalarType? dtype=None, Layout? layout=None, '
        'Device? device=None, bool? pin_memory=False, bool? requires_grad=False)',
        'arange(Scalar start, Scalar end, Scalar step=1, *, Tensor out=None, '
        'ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
    ],
    'ttensor': [
        'tensor(PyObject* data, *, ScalarType dtype=None, Device? device=None, '
        'bool pin_memory=False, bool requires_grad=False)',
    ],
    'tclamp': [
        'clamp(Tensor input, Tensor? min=None, Tensor? max=None, *, Tensor out=None)',
        'clamp(Tensor input, Scalar? min=None, Scalar? max=None, *, Tensor out=None)',
    ],
    'twhere': [
        'where(Tensor condition)',
        'where(Tensor condition, Tensor input, Tensor other, *, Tensor out=None)',
        'where(Tensor condition, Scalar self, Tensor other)',
        'where(Tensor condition, Tensor input, Scalar other)',
        'where(Tensor condition, Scalar self, Scalar other)',
    ],
    'tcumsum': ['cumsum(Tensor input, int64_t dim, *, ScalarType? dtype=None, Tensor out=None)'],
    'tlogsumexp': [
        'logsumexp(Tensor input, IntArrayRef[1] dim, bool keepdim=False, *, Tensor out=None)',
    ],
    'tmaximum': ['maximum(Tensor input, Tensor other, *, Tensor out=None)'],
    'tminimum': ['minimum(Tensor input, Tensor other, *, Tensor out=None)'],
    'tmasked_fill': [
        'masked_fill(Tensor input, Tensor mask, Tensor value)',
        'masked_fill(Tensor input, Tensor mask, Scalar value)',
    ],
    'tnarrow': [
        'narrow(Tensor input, int64_t dim, Tensor start, SymInt length)',
        'narrow(Tensor input, int64_t dim, SymInt start, SymInt length)',
    ],
    'tselect': ['select(Tensor input, int64_t dim, SymInt index)'],
    'tt': ['t(Tensor input)'],
    'ttopk': [
        'topk(Tensor input, SymInt k, int64_t dim=-1, bool largest=True, bool sorted=True, *, '
        'TensorList[2] out=None)',
    ],
    'tsort': [
        'sort(Tensor input, *, bool? stable, int64_t dim=-1, bool descending=False, '
        'TensorList[2] out=None)',
        'sort(Tensor input, int64_t dim=-1, bool descending=False, *, TensorList[2] out=None)',
    ],
    'tbilinear': ['bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None)'],
    'tprelu': ['prelu(Tensor input, Tensor weight)'],
    'tcosine_similarity': [
        'cosine_similarity(Tensor x1, Tensor x2, int64_t dim=1, double eps=1e-08)',
    ],
    'tpairwise_distance': [
        'pairwise_distance(Tensor x1, Tensor x2, double p=2, double eps=1e-06, bool keepdim=False)',
    ],
    'tpdist': ['pdist(Tensor input, double p=2)'],
    'Tadd': ['add(Tensor other, *, Scalar alpha=1)', 'add(Scalar alpha, Tensor other)|deprecated'],
    'Tsub': ['sub(Tensor other, *, Scalar alpha=1)', 'sub(Scalar alpha, Tensor other)|deprecated'],
    'Tmul': ['mul(Tensor other)'],
    'Tdiv': [
        'div(Tensor other)',
        'div(Tensor other, *, c10::string_view? rounding_mode)',
        'div(Scalar other, *, c10::string_view? rounding_mode)',
    ],
    'Texp': ['exp()|noargs'],
    'Tlog': ['log()|noargs'],
    'Tsqrt': ['sqrt()|noargs'],
    'Tsin': ['sin()|noargs'],
    'Tcos': ['cos()|noargs'],
    'Ttanh': ['tanh()|noargs'],
    'Tsigmoid': ['sigmoid()|noargs'],
    'Tabs': ['abs()|noargs'],
    'Tneg': ['neg()|noargs'],
    'Trelu': ['relu()|noargs'],
    'Tsum': [
        'sum(*, ScalarType? dtype=None)',
        'sum(IntArrayRef[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)',
    ],
    'Tmean': [
        'mean(*, ScalarType? dtype=None)',
        'mean(IntArrayRef[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)',
    ],
    'Tmax': ['max()', 'max(Tensor other)', 'max(int64_t dim, bool keepdim=False)'],
    'Tmin': ['min()', 'min(Tensor other)', 'min(int64_t dim, bool keepdim=False)'],
    'Tstd': [
        'std(IntArrayRef[1]? dim, bool unbiased=True, bool keepdim=False)',
        'std(IntArrayRef[1]? dim=None, *, Scalar? correction=None, bool keepdim=False)',
        'std(bool unbiased=True)',
    ],
    'Tvar': [
        'var(IntArrayRef[1]? dim, bool unbiased=True, bool keepdim=False)',
        'var(IntArrayRef[1]? dim=None, *, Scalar? correction=None, bool keepdim=False)',
        'var(bool unbiased=True)',
    ],
    'Tprod': [
        'prod(*, ScalarType? dtype=None)',
        'prod(int64_t dim, bool keepdim=False, *, ScalarType? dtype=None)',
    ],
    'Targmax': ['argmax(int64_t? dim=None, bool keepdim=False)'],
    'Targmin': ['argmin(int64_t? dim=None, bool keepdim=False)'],
    'Tamax': ['amax(IntArrayRef[1] dim=None, bool keepdim=False)'],
    'Tamin': ['amin(IntArrayRef[1] dim=None, bool keepdim=False)'],
    'Tsoftmax': ['softmax(int64_t dim, ScalarType? dtype=None)'],
    'Tlog_softmax': ['log_softmax(int64_t dim, ScalarType? dtype=None)'],
    'Tview': ['view(ScalarType dtype)', 'view(SymIntArrayRef size)'],
    'Treshape': ['reshape(SymIntArrayRef shape)'],
    'Tpermute': ['permute(IntArrayRef dims)'],
    'Ttranspose': ['transpose(int64_t dim0, int64_t dim1)'],
    'Tsqueeze': ['squeeze()', 'squeeze(int64_t dim)', 'squeeze(IntArrayRef dim)'],
    'Tunsqueeze': ['unsqueeze(int64_t dim)'],
    'Tflatten': ['flatten(int64_t start_dim=0, int64_t end_dim=-1)'],
    'Texpand': ['expand(SymIntArrayRef size, *, bool implicit=False)'],
    'Trepeat': ['repeat(SymIntArrayRef repeats)'],
    'Tindex_select': ['index_select(int64_t dim, Tensor index)'],
    'Tgather': ['gather(int64_t dim, Tensor index, *, bool sparse_grad=False)'],
    'Tscatter': [
        'scatter(int64_t dim, Tensor index, Tensor src)',
        'scatter(int64_t dim, Tensor index, Tensor src, *, c10::string_view reduce)',
        'scatter(int64_t dim, Tensor index, Scalar value)',
        'scatter(int64_t dim, Tensor index, Scalar value, *, c10::string_view reduce)',
    ],
    'Tscatter_add': ['scatter_add(int64_t dim, Tensor index, Tensor src)'],
    'Tmatmul': ['matmul(Tensor other)'],
    'Tmm': ['mm(Tensor mat2)'],
    'Tbmm': ['bmm(Tensor mat2)'],
    'Tto': [
        'to(Device device=None, ScalarType dtype=None, bool non_blocking=False, bool copy=False, '
        '*, MemoryFormat? memory_format=None)',
        'to(ScalarType dtype, bool non_blocking=False, bool copy=False, *, '
        'MemoryFormat? memory_format=None)',
        'to(Tensor tensor, bool non_blocking=False, bool copy=False, *, '
        'MemoryFormat? memory_format=None)',
    ],
    'Ttype': [
        'type(PyObject* dtype=None, bool non_blocking=False, *, MemoryFormat? memory_format=None)',
        'type(PyObject* dtype=None, bool async=False, *, '
        'MemoryFormat? memory_format=None)|deprecated',
    ],
    'Tclamp': [
        'clamp(Tensor? min=None, Tensor? max=None)',
        'clamp(Scalar? min=None, Scalar? max=None)',
    ],
    'Twhere': ['where(Tensor condition, Tensor other)', 'where(Tensor condition, Scalar other)'],
    'Tcumsum': ['cumsum(int64_t dim, *, ScalarType? dtype=None)'],
    'Tlogsumexp': ['logsumexp(IntArrayRef[1] dim, bool keepdim=False)'],
    'Tmaximum': ['maximum(Tensor other)'],
    'Tminimum': ['minimum(Tensor other)'],
    'Tmasked_fill': [
        'masked_fill(Tensor mask, Tensor value)',
        'masked_fill(Tensor mask, Scalar value)',
    ],
    'Tnarrow': [
        'narrow(int64_t dim, Tensor start, SymInt length)',
        'narrow(int64_t dim, SymInt start, SymInt length)',
    ],
    'Tselect': ['select(int64_t dim, SymInt index)'],
    'Tt': ['t()|noargs'],
    'Ttopk': ['topk(SymInt k, int64_t dim=-1, bool largest=True, bool sorted=True)'],
    'Tsort': [
        'sort(*, bool? stable, int64_t dim=-1, bool descending=False)',
        'sort(int64_t dim=-1, bool descending=False)',
    ],
    'Tadd_': [
        'add_(Tensor other, *, Scalar alpha=1)',
        'add_(Scalar alpha, Tensor other)|deprecated',
    ],
    'Tmul_': ['mul_(Tensor other)'],
    'Tsub_': [
        'sub_(Tensor other, *, Scalar alpha=1)',
        'sub_(Scalar alpha, Tensor other)|deprecated',
    ],
    'Tdiv_': [
        'div_(Tensor other)',
        'div_(Tensor other, *, c10::string_view? rounding_mode)',
        'div_(Scalar other, *, c10::string_view? rounding_mode)',
    ],
    'Tclamp_': [
        'clamp_(Tensor? min=None, Tensor? max=None)',
        'clamp_(Scalar? min=None, Scalar? max=None)',
    ],
    'Tfill_': ['fill_(Tensor value)', 'fill_(Scalar value)'],
    'Tcopy_': [
        'copy_(Tensor other, bool non_blocking=False)',
        'copy_(Storage src, bool? non_blocking=None)|hidden',
    ],
    'Tzero_': ['zero_()|noargs'],
    'Flinear': ['linear(Tensor input, Tensor weight, Tensor? bias=None, *, Tensor out=None)'],
    'Fone_hot': ['one_hot(Tensor input, int64_t num_classes=-1)'],
    'tzeros_like': [
        'zeros_like(Tensor input, *, MemoryFormat? memory_format=None, ScalarType? dtype=None, '
        'Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
    ],
    'tones_like': [
        'ones_like(Tensor input, *, MemoryFormat? memory_format=None, ScalarType? dtype=None, '
        'Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
    ],
    'tfull_like': [
        'full_like(Tensor input, Scalar fill_value, *, MemoryFormat? memory_format=None, '
        'ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
    ],
    'tempty_like': [
        'empty_like(Tensor input, *, MemoryFormat? memory_format=None, ScalarType? dtype=None, '
        'Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
    ],
    'trand_like': [
        'rand_like(Tensor input, *, Generator? generator, MemoryFormat? memory_format=None, '
        'ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
        'rand_like(Tensor input, *, MemoryFormat? memory_format=None, ScalarType? dtype=None, '
        'Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
    ],
    'trandn_like': [
        'randn_like(Tensor input, *, Generator? generator, MemoryFormat? memory_format=None, '
        'ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
        'randn_like(Tensor input, *, MemoryFormat? memory_format=None, ScalarType? dtype=None, '
        'Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
    ],
    'trandint': [
        'randint(SymInt high, SymIntArrayRef size, *, Generator? generator, Tensor out=None, '
        'ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
        'randint(SymInt high, SymIntArrayRef size, *, Tensor out=None, ScalarType? dtype=None, '
        'Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
        'randint(SymInt low, SymInt high, SymIntArrayRef size, *, Generator? generator, '
        'Tensor out=None, ScalarType? dtype=None, Layout? layout=None, Device? device=None, '
        'bool? pin_memory=False, bool? requires_grad=False)',
        'randint(SymInt low, SymInt high, SymIntArrayRef size, *, Tensor out=None, '
        'ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
    ],
    'tlinspace': [
        'linspace(Tensor start, Tensor end, int64_t steps, *, Tensor out=None, '
        'ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
        'linspace(Scalar start, Tensor end, int64_t steps, *, Tensor out=None, '
        'ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
        'linspace(Tensor start, Scalar end, int64_t steps, *, Tensor out=None, '
        'ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
        'linspace(Scalar start, Scalar end, int64_t steps, *, Tensor out=None, '
        'ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
    ],
    'teye': [
        'eye(SymInt n, *, Tensor out=None, ScalarType? dtype=None, Layout? layout=None, '
        'Device? device=None, bool? pin_memory=False, bool? requires_grad=False)',
        'eye(SymInt n, SymInt m, *, Tensor out=None, ScalarType? dtype=None, Layout? layout=None, '
        'Device? device=None, bool? pin_memory=False, bool? requires_grad=False)',
    ],
    'tpow': [
        'pow(Tensor input, Tensor exponent, *, Tensor out=None)',
        'pow(Scalar self, Tensor exponent, *, Tensor out=None)',
        'pow(Tensor input, Scalar exponent, *, Tensor out=None)',
    ],
    'trsqrt': ['rsqrt(Tensor input, *, Tensor out=None)'],
    'tlog1p': ['log1p(Tensor input, *, Tensor out=None)'],
    'texpm1': ['expm1(Tensor input, *, Tensor out=None)'],
    'tfloor': ['floor(Tensor input, *, Tensor out=None)'],
    'tceil': ['ceil(Tensor input, *, Tensor out=None)'],
    'tround': [
        'round(Tensor input, *, Tensor out=None)',
        'round(Tensor input, *, int64_t decimals, Tensor out=None)',
    ],
    'tsign': ['sign(Tensor input, *, Tensor out=None)'],
    'tclamp_min': [
        'clamp_min(Tensor input, Tensor min, *, Tensor out=None)',
        'clamp_min(Tensor input, Scalar min, *, Tensor out=None)',
    ],
    'tclamp_max': [
        'clamp_max(Tensor input, Tensor max, *, Tensor out=None)',
        'clamp_max(Tensor input, Scalar max, *, Tensor out=None)',
    ],
    'tall': [
        'all(Tensor input, *, Tensor out=None)',
        'all(Tensor input, IntArrayRef? dim=None, bool keepdim=False, *, Tensor out=None)',
        'all(Tensor input, int64_t dim, bool keepdim=False, *, Tensor out=None)',
    ],
    'tany': [
        'any(Tensor input, *, Tensor out=None)',
        'any(Tensor input, IntArrayRef? dim=None, bool keepdim=False, *, Tensor out=None)',
        'any(Tensor input, int64_t dim, bool keepdim=False, *, Tensor out=None)',
    ],
    'teq': [
        'eq(Tensor input, Tensor other, *, Tensor out=None)',
        'eq(Tensor input, Scalar other, *, Tensor out=None)',
    ],
    'tne': [
        'ne(Tensor input, Tensor other, *, Tensor out=None)',
        'ne(Tensor input, Scalar other, *, Tensor out=None)',
    ],
    'tlt': [
        'lt(Tensor input, Tensor other, *, Tensor out=None)',
        'lt(Tensor input, Scalar other, *, Tensor out=None)',
    ],
    'tgt': [
        'gt(Tensor input, Tensor other, *, Tensor out=None)',
        'gt(Tensor input, Scalar other, *, Tensor out=None)',
    ],
    'tle': [
        'le(Tensor input, Tensor other, *, Tensor out=None)',
        'le(Tensor input, Scalar other, *, Tensor out=None)',
    ],
    'tge': [
        'ge(Tensor input, Tensor other, *, Tensor out=None)',
        'ge(Tensor input, Scalar other, *, Tensor out=None)',
    ],
    'tisnan': ['isnan(Tensor input)'],
    'tisinf': ['isinf(Tensor input)'],
    'tisfinite': ['isfinite(Tensor input)'],
    'tlogical_not': ['logical_not(Tensor input, *, Tensor out=None)'],
    'tlogical_and': ['logical_and(Tensor input, Tensor other, *, Tensor out=None)'],
    'tlogical_or': ['logical_or(Tensor input, Tensor other, *, Tensor out=None)'],
    'tlerp': [
        'lerp(Tensor input, Tensor end, Tensor weight, *, Tensor out=None)',
        'lerp(Tensor input, Tensor end, Scalar weight, *, Tensor out=None)',
    ],
    'targsort': [
        'argsort(Tensor input, *, bool stable, int64_t dim=-1, bool descending=False, '
        'Tensor out=None)',
        'argsort(Tensor input, int64_t dim=-1, bool descending=False)',
    ],
    'tcumprod': ['cumprod(Tensor input, int64_t dim, *, ScalarType? dtype=None, Tensor out=None)'],
    'tnonzero': ['nonzero(Tensor input, *, bool as_tuple=False, Tensor out=None)'],
    'tmasked_select': ['masked_select(Tensor input, Tensor mask, *, Tensor out=None)'],
    'tflip': ['flip(Tensor input, IntArrayRef dims)'],
    'troll': ['roll(Tensor input, SymIntArrayRef[1] shifts, IntArrayRef[1] dims=None)'],
    'ttril': ['tril(Tensor input, SymInt diagonal=0, *, Tensor out=None)'],
    'ttriu': ['triu(Tensor input, SymInt diagonal=0, *, Tensor out=None)'],
    'tdiag': ['diag(Tensor input, int64_t diagonal=0, *, Tensor out=None)'],
    'touter': ['outer(Tensor input, Tensor vec2, *, Tensor out=None)'],
    'tdot': ['dot(Tensor input, Tensor tensor, *, Tensor out=None)'],
    'tmv': ['mv(Tensor input, Tensor vec, *, Tensor out=None)'],
    'taddmm': [
        'addmm(Tensor input, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, '
        'Tensor out=None)',
        'addmm(Tensor input, Tensor mat1, Tensor mat2, ScalarType out_dtype, *, Scalar beta=1, '
        'Scalar alpha=1, Tensor out=None)',
        'addmm(Scalar beta, Tensor input, Scalar alpha, Tensor mat1, Tensor mat2, *, '
        'Tensor out=None)|deprecated',
        'addmm(Scalar beta, Tensor input, Tensor mat1, Tensor mat2, *, Tensor out=None)|deprecated',
    ],
    'tbaddbmm': [
        'baddbmm(Tensor input, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, '
        'Tensor out=None)',
        'baddbmm(Tensor input, Tensor batch1, Tensor batch2, ScalarType out_dtype, *, '
        'Scalar beta=1, Scalar alpha=1, Tensor out=None)',
        'baddbmm(Scalar beta, Tensor input, Scalar alpha, Tensor batch1, Tensor batch2, *, '
        'Tensor out=None)|deprecated',
        'baddbmm(Scalar beta, Tensor input, Tensor batch1, Tensor batch2, *, '
        'Tensor out=None)|deprecated',
    ],
    'tchunk': ['chunk(Tensor input, int64_t chunks, int64_t dim=0)'],
    'tunbind': ['unbind(Tensor input, int64_t dim=0)'],
    'tvar_mean': [
        'var_mean(Tensor input, IntArrayRef[1]? dim, bool unbiased=True, bool keepdim=False)',
        'var_mean(Tensor input, IntArrayRef[1]? dim=None, *, Scalar? correction=None, '
        'bool keepdim=False)',
        'var_mean(Tensor input, bool unbiased=True)',
    ],
    'tstd_mean': [
        'std_mean(Tensor input, IntArrayRef[1]? dim, bool unbiased=True, bool keepdim=False)',
        'std_mean(Tensor input, IntArrayRef[1]? dim=None, *, Scalar? correction=None, '
        'bool keepdim=False)',
        'std_mean(Tensor input, bool unbiased=True)',
    ],
    'tallclose': [
        'allclose(Tensor input, Tensor other, double rtol=1e-05, double atol=1e-08, '
        'bool equal_nan=False)',
    ],
    'tisclose': [
        'isclose(Tensor input, Tensor other, double rtol=1e-05, double atol=1e-08, '
        'bool equal_nan=False)',
    ],
    'tequal': ['equal(Tensor input, Tensor other)'],
    'tconv1d': [
        'conv1d(Tensor input, Tensor weight, Tensor? bias=None, SymIntArrayRef[1] stride=1, '
        'SymIntArrayRef[1] padding=0, SymIntArrayRef[1] dilation=1, SymInt groups=1)',
        'conv1d(Tensor input, Tensor weight, Tensor? bias=None, SymIntArrayRef[1] stride=1, '
        'c10::string_view padding="valid", SymIntArrayRef[1] dilation=1, SymInt groups=1)',
    ],
    'tconv2d': [
        'conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymIntArrayRef[2] stride=1, '
        'SymIntArrayRef[2] padding=0, SymIntArrayRef[2] dilation=1, SymInt groups=1)',
        'conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymIntArrayRef[2] stride=1, '
        'c10::string_view padding="valid", SymIntArrayRef[2] dilation=1, SymInt groups=1)',
    ],
    'tconv3d': [
        'conv3d(Tensor input, Tensor weight, Tensor? bias=None, SymIntArrayRef[3] stride=1, '
        'SymIntArrayRef[3] padding=0, SymIntArrayRef[3] dilation=1, SymInt groups=1)',
        'conv3d(Tensor input, Tensor weight, Tensor? bias=None, SymIntArrayRef[3] stride=1, '
        'c10::string_view padding="valid", SymIntArrayRef[3] dilation=1, SymInt groups=1)',
    ],
    'tconv_transpose1d': [
        'conv_transpose1d(Tensor input, Tensor weight, Tensor? bias=None, '
        'SymIntArrayRef[1] stride=1, SymIntArrayRef[1] padding=0, '
        'SymIntArrayRef[1] output_padding=0, SymInt groups=1, SymIntArrayRef[1] dilation=1)',
    ],
    'tconv_transpose2d': [
        'conv_transpose2d(Tensor input, Tensor weight, Tensor? bias=None, '
        'SymIntArrayRef[2] stride=1, SymIntArrayRef[2] padding=0, '
        'SymIntArrayRef[2] output_padding=0, SymInt groups=1, SymIntArrayRef[2] dilation=1)',
    ],
    'tembedding': [
        'embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, '
        'bool scale_grad_by_freq=False, bool sparse=False)',
    ],
    'tlayer_norm': [
        'layer_norm(Tensor input, SymIntArrayRef normalized_shape, Tensor? weight=None, '
        'Tensor? bias=None, double eps=1e-05, bool cudnn_enable=True)',
    ],
    'tdropout': ['dropout(Tensor input, double p, bool train)'],
    'tbatch_norm': [
        'batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, '
        'Tensor? running_var, bool training, double momentum, double eps, bool cudnn_enabled)',
    ],
    'tgroup_norm': [
        'group_norm(Tensor input, int64_t num_groups, Tensor? weight=None, Tensor? bias=None, '
        'double eps=1e-05, bool cudnn_enabled=True)',
    ],
    'tdiagonal': ['diagonal(Tensor input, int64_t offset=0, int64_t dim1=0, int64_t dim2=1)'],
    'tmovedim': [
        'movedim(Tensor input, int64_t source, int64_t destination)',
        'movedim(Tensor input, IntArrayRef source, IntArrayRef destination)',
    ],
    'ttile': ['tile(Tensor input, SymIntArrayRef dims)'],
    'trepeat_interleave': [
        'repeat_interleave(Tensor input, Tensor repeats, int64_t? dim=None, *, '
        'SymInt? output_size=None)',
        'repeat_interleave(Tensor repeats, *, SymInt? output_size=None)',
        'repeat_interleave(Tensor input, SymInt repeats, int64_t? dim=None, *, '
        'SymInt? output_size=None)',
    ],
    'tindex_add': [
        'index_add(Tensor input, int64_t dim, Tensor index, Tensor source, *, Scalar alpha=1, '
        'Tensor out=None)',
    ],
    'tcount_nonzero': [
        'count_nonzero(Tensor input, int64_t? dim=None)',
        'count_nonzero(Tensor input, IntArrayRef dim)',
    ],
    'tsquare': ['square(Tensor input, *, Tensor out=None)'],
    'terf': ['erf(Tensor input, *, Tensor out=None)'],
    'tlog2': ['log2(Tensor input, *, Tensor out=None)'],
    'tlog10': ['log10(Tensor input, *, Tensor out=None)'],
    'tatan2': ['atan2(Tensor input, Tensor other, *, Tensor out=None)'],
    'tfmod': [
        'fmod(Tensor input, Tensor other, *, Tensor out=None)',
        'fmod(Tensor input, Scalar other, *, Tensor out=None)',
    ],
    'tremainder': [
        'remainder(Tensor input, Tensor other, *, Tensor out=None)',
        'remainder(Scalar self, Tensor other)',
        'remainder(Tensor input, Scalar other, *, Tensor out=None)',
    ],
    'tfloor_divide': [
        'floor_divide(Tensor input, Tensor other, *, Tensor out=None)',
        'floor_divide(Tensor input, Scalar other)',
    ],
    'tbernoulli': [
        'bernoulli(Tensor input, *, Generator? generator=None, Tensor out=None)',
        'bernoulli(Tensor input, double p, *, Generator? generator=None)',
    ],
    'tmultinomial': [
        'multinomial(Tensor input, SymInt num_samples, bool replacement=False, *, '
        'Generator? generator=None, Tensor out=None)',
    ],
    'tclone': ['clone(Tensor input, *, MemoryFormat? memory_format=None)'],
    'tdetach': ['detach(Tensor input)'],
    'tbroadcast_to': ['broadcast_to(Tensor input, SymIntArrayRef size)'],
    'ttake_along_dim': [
        'take_along_dim(Tensor input, Tensor indices, int64_t? dim=None, *, Tensor out=None)',
    ],
    'tbucketize': [
        'bucketize(Tensor input, Tensor boundaries, *, bool out_int32=False, bool right=False, '
        'Tensor out=None)',
        'bucketize(Scalar self, Tensor boundaries, *, bool out_int32=False, bool right=False)',
    ],
    'tsearchsorted': [
        'searchsorted(Tensor sorted_sequence, Tensor input, *, bool out_int32=False, '
        'bool right=False, c10::string_view? side=None, Tensor? sorter=None, Tensor out=None)',
        'searchsorted(Tensor sorted_sequence, Scalar self, *, bool out_int32=False, '
        'bool right=False, c10::string_view? side=None, Tensor? sorter=None, Tensor out=None)',
    ],
    'tkron': ['kron(Tensor input, Tensor other, *, Tensor out=None)'],
    'ttrace': ['trace(Tensor input)'],
    'tcross': ['cross(Tensor input, Tensor other, int64_t? dim=None, *, Tensor out=None)'],
    'tcummax': ['cummax(Tensor input, int64_t dim, *, TensorList[2] out=None)'],
    'tcummin': ['cummin(Tensor input, int64_t dim, *, TensorList[2] out=None)'],
    'tkthvalue': [
        'kthvalue(Tensor input, SymInt k, int64_t dim=-1, bool keepdim=False, *, '
        'TensorList[2] out=None)',
    ],
    'tmedian': [
        'median(Tensor input)',
        'median(Tensor input, int64_t dim, bool keepdim=False, *, TensorList[2] out=None)',
    ],
    'tmode': ['mode(Tensor input, int64_t dim=-1, bool keepdim=False, *, TensorList[2] out=None)'],
    'tlogcumsumexp': ['logcumsumexp(Tensor input, int64_t dim, *, Tensor out=None)'],
    'tnansum': [
        'nansum(Tensor input, IntArrayRef[1]? dim=None, bool keepdim=False, *, '
        'ScalarType? dtype=None, Tensor out=None)',
    ],
    'tnanmean': [
        'nanmean(Tensor input, IntArrayRef[1]? dim=None, bool keepdim=False, *, '
        'ScalarType? dtype=None, Tensor out=None)',
    ],
    'tsinh': ['sinh(Tensor input, *, Tensor out=None)'],
    'tcosh': ['cosh(Tensor input, *, Tensor out=None)'],
    'ttan': ['tan(Tensor input, *, Tensor out=None)'],
    'tasin': ['asin(Tensor input, *, Tensor out=None)'],
    'tacos': ['acos(Tensor input, *, Tensor out=None)'],
    'tatan': ['atan(Tensor input, *, Tensor out=None)'],
    'terfinv': ['erfinv(Tensor input, *, Tensor out=None)'],
    'treciprocal': ['reciprocal(Tensor input, *, Tensor out=None)'],
    'ttrunc': ['trunc(Tensor input, *, Tensor out=None)'],
    'tfrac': ['frac(Tensor input, *, Tensor out=None)'],
    'thardshrink': ['hardshrink(Tensor input, Scalar lambd=0.5, *, Tensor out=None)'],
    'tpixel_shuffle': ['pixel_shuffle(Tensor input, int64_t upscale_factor)'],
    'tpixel_unshuffle': ['pixel_unshuffle(Tensor input, int64_t downscale_factor)'],
    'tavg_pool1d': [
        'avg_pool1d(Tensor input, IntArrayRef[1] kernel_size, IntArrayRef[1] stride=None, '
        'IntArrayRef[1] padding=0, bool ceil_mode=False, bool count_include_pad=True)',
    ],
    'tadaptive_avg_pool1d': ['adaptive_avg_pool1d(Tensor input, IntArrayRef[1] output_size)'],
    'tmax_pool1d': [
        'max_pool1d(Tensor input, IntArrayRef[1] kernel_size, IntArrayRef[1] stride=None, '
        'IntArrayRef[1] padding=0, IntArrayRef[1] dilation=1, bool ceil_mode=False)',
    ],
    'tmax_pool2d': [
        'max_pool2d(Tensor input, IntArrayRef[2] kernel_size, IntArrayRef[2] stride=None, '
        'IntArrayRef[2] padding=0, IntArrayRef[2] dilation=1, bool ceil_mode=False)',
    ],
    'tas_strided': [
        'as_strided(Tensor input, SymIntArrayRef size, SymIntArrayRef stride, '
        'SymInt? storage_offset=None)',
    ],
    'tindex_fill': [
        'index_fill(Tensor input, int64_t dim, Tensor index, Tensor value)',
        'index_fill(Tensor input, int64_t dim, Tensor index, Scalar value)',
    ],
    'tindex_copy': [
        'index_copy(Tensor input, int64_t dim, Tensor index, Tensor source, *, Tensor out=None)',
    ],
    'tscatter_reduce': [
        'scatter_reduce(Tensor input, int64_t dim, Tensor index, Tensor src, '
        'c10::string_view reduce, *, bool include_self=True, Tensor out=None)',
    ],
    'tunflatten': ['unflatten(Tensor input, int64_t dim, SymIntArrayRef sizes)'],
    'tswapaxes': ['swapaxes(Tensor input, int64_t axis0, int64_t axis1)'],
    'Tview_as': ['view_as(Tensor other)'],
    'Treshape_as': ['reshape_as(Tensor other)'],
    'Texpand_as': ['expand_as(Tensor other)'],
    'Tclone': ['clone(*, MemoryFormat? memory_format=None)'],
    'Tdetach_': ['detach_()|noargs'],
    'Tunbind': ['unbind(int64_t dim=0)'],
    'Tchunk': ['chunk(int64_t chunks, int64_t dim=0)'],
    'Tflip': ['flip(IntArrayRef dims)'],
    'Troll': ['roll(SymIntArrayRef[1] shifts, IntArrayRef[1] dims=None)'],
    'Tpow': ['pow(Tensor exponent)', 'pow(Scalar exponent)'],
    'Tpow_': ['pow_(Tensor exponent)', 'pow_(Scalar exponent)'],
    'Trsqrt': ['rsqrt()|noargs'],
    'Tfloor': ['floor()|noargs'],
    'Tceil': ['ceil()|noargs'],
    'Tround': ['round()', 'round(*, int64_t decimals)'],
    'Tsign': ['sign()|noargs'],
    'Teq': ['eq(Tensor other)', 'eq(Scalar other)'],
    'Tne': ['ne(Tensor other)', 'ne(Scalar other)'],
    'Tlt': ['lt(Tensor other)', 'lt(Scalar other)'],
    'Tgt': ['gt(Tensor other)', 'gt(Scalar other)'],
    'Tle': ['le(Tensor other)', 'le(Scalar other)'],
    'Tge': ['ge(Tensor other)', 'ge(Scalar other)'],
    'Tall': [
        'all()',
        'all(IntArrayRef? dim=None, bool keepdim=False)',
        'all(int64_t dim, bool keepdim=False)',
    ],
    'Tany': [
        'any()',
        'any(IntArrayRef? dim=None, bool keepdim=False)',
        'any(int64_t dim, bool keepdim=False)',
    ],
    'Targsort': [
        'argsort(*, bool stable, int64_t dim=-1, bool descending=False)',
        'argsort(int64_t dim=-1, bool descending=False)',
    ],
    'Tcumprod': ['cumprod(int64_t dim, *, ScalarType? dtype=None)'],
    'Tnonzero': ['nonzero()', 'nonzero(*, bool as_tuple)'],
    'Tmasked_select': ['masked_select(Tensor mask)'],
    'Tmasked_fill_': [
        'masked_fill_(Tensor mask, Tensor value)',
        'masked_fill_(Tensor mask, Scalar value)',
    ],
    'Ttril': ['tril(SymInt diagonal=0)'],
    'Ttriu': ['triu(SymInt diagonal=0)'],
    'Tdiag': ['diag(int64_t diagonal=0)'],
    'Touter': ['outer(Tensor vec2)'],
    'Tdot': ['dot(Tensor tensor)'],
    'Tmv': ['mv(Tensor vec)'],
    'Taddmm': [
        'addmm(Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1)',
        'addmm(Scalar beta, Scalar alpha, Tensor mat1, Tensor mat2)|deprecated',
        'addmm(Scalar beta, Tensor mat1, Tensor mat2)|deprecated',
    ],
    'Tuniform_': ['uniform_(double from=0, double to=1, *, Generator? generator=None)'],
    'Tnormal_': ['normal_(double mean=0, double std=1, *, Generator? generator=None)'],
    'Tnew_zeros': [
        'new_zeros(SymIntArrayRef size, *, ScalarType? dtype=None, Layout? layout=None, '
        'Device? device=None, bool? pin_memory=False, bool? requires_grad=False)',
    ],
    'Tnew_ones': [
        'new_ones(SymIntArrayRef size, *, ScalarType? dtype=None, Layout? layout=None, '
        'Device? device=None, bool? pin_memory=False, bool? requires_grad=False)',
    ],
    'Tnew_full': [
        'new_full(SymIntArrayRef size, Scalar fill_value, *, ScalarType? dtype=None, '
        'Layout? layout=None, Device? device=None, bool? pin_memory=False, '
        'bool? requires_grad=False)',
    ],
    'Tnew_empty': [
        'new_empty(SymIntArrayRef size, *, ScalarType? dtype=None, Layout? layout=None, '
        'Device? device=None, bool? pin_memory=False, bool? requires_grad=False)',
    ],
    'Tnew_tensor': [
        'new_tensor(PyObject* data, *, ScalarType dtype=None, Device? device=None, '
        'bool requires_grad=False)',
    ],
    'Tmovedim': [
        'movedim(int64_t source, int64_t destination)',
        'movedim(IntArrayRef source, IntArrayRef destination)',
    ],
    'Tlog1p': ['log1p()|noargs'],
    'Texpm1': ['expm1()|noargs'],
    'Tlerp': ['lerp(Tensor end, Tensor weight)', 'lerp(Tensor end, Scalar weight)'],
    'Tindex_add_': ['index_add_(int64_t dim, Tensor index, Tensor source, *, Scalar alpha=1)'],
    'Tindex_fill_': [
        'index_fill_(int64_t dim, Tensor index, Tensor value)',
        'index_fill_(int64_t dim, Tensor index, Scalar value)',
    ],
    'Tscatter_': [
        'scatter_(int64_t dim, Tensor index, Tensor src)',
        'scatter_(int64_t dim, Tensor index, Tensor src, *, c10::string_view reduce)',
        'scatter_(int64_t dim, Tensor index, Scalar value)',
        'scatter_(int64_t dim, Tensor index, Scalar value, *, c10::string_view reduce)',
    ],
    'Tunfold': ['unfold(int64_t dimension, int64_t size, int64_t step)'],
    'Tdiagonal': ['diagonal(int64_t offset=0, int64_t dim1=0, int64_t dim2=1)'],
    'Tclamp_min': ['clamp_min(Tensor min)', 'clamp_min(Scalar min)'],
    'Tclamp_max': ['clamp_max(Tensor max)', 'clamp_max(Scalar max)'],
    'Tsquare': ['square()|noargs'],
    'Texp_': ['exp_()|noargs'],
    'Tlog_': ['log_()|noargs'],
    'Tabs_': ['abs_()|noargs'],
    'Tneg_': ['neg_()|noargs'],
    'Tsqrt_': ['sqrt_()|noargs'],
    'Trelu_': ['relu_()|noargs'],
    'Tsigmoid_': ['sigmoid_()|noargs'],
    'Ttanh_': ['tanh_()|noargs'],
    'Trepeat_interleave': [
        'repeat_interleave(Tensor repeats, int64_t? dim=None, *, SymInt? output_size=None)',
        'repeat_interleave(SymInt repeats, int64_t? dim=None, *, SymInt? output_size=None)',
    ],
    'Ttile': ['tile(SymIntArrayRef dims)'],
    'Tunsqueeze_': ['unsqueeze_(int64_t dim)'],
    'Tsqueeze_': ['squeeze_()', 'squeeze_(int64_t dim)', 'squeeze_(IntArrayRef dim)'],
    'Tt_': ['t_()|noargs'],
    'Ttranspose_': ['transpose_(int64_t dim0, int64_t dim1)'],
    'Tbernoulli_': [
        'bernoulli_(Tensor p, *, Generator? generator=None)',
        'bernoulli_(double p=0.5, *, Generator? generator=None)',
    ],
    'Texponential_': ['exponential_(double lambd=1, *, Generator? generator=None)'],
    'Trandom_': [
        'random_(*, Generator? generator=None)',
        'random_(int64_t from, int64_t? to, *, Generator? generator=None)',
        'random_(int64_t to, *, Generator? generator=None)',
    ],
    'Tfill_diagonal_': ['fill_diagonal_(Scalar fill_value, bool wrap=False)'],
    'Tindex_add': ['index_add(int64_t dim, Tensor index, Tensor source, *, Scalar alpha=1)'],
    'Tindex_fill': [
        'index_fill(int64_t dim, Tensor index, Tensor value)',
        'index_fill(int64_t dim, Tensor index, Scalar value)',
    ],
    'Tindex_copy': ['index_copy(int64_t dim, Tensor index, Tensor source)'],
    'Tscatter_reduce': [
        'scatter_reduce(int64_t dim, Tensor index, Tensor src, c10::string_view reduce, *, '
        'bool include_self=True)',
    ],
    'Tas_strided': [
        'as_strided(SymIntArrayRef size, SymIntArrayRef stride, SymInt? storage_offset=None)',
    ],
    'Tcumsum_': ['cumsum_(int64_t dim, *, ScalarType? dtype=None)'],
    'Tlog2': ['log2()|noargs'],
    'Terf': ['erf()|noargs'],
    'Tsinh': ['sinh()|noargs'],
    'Tcosh': ['cosh()|noargs'],
    'Treciprocal': ['reciprocal()|noargs'],
    'Ttrunc': ['trunc()|noargs'],
    'Tfrac': ['frac()|noargs'],
    'Tlogical_not': ['logical_not()|noargs'],
    'Tlogical_and': ['logical_and(Tensor other)'],
    'Tcount_nonzero': ['count_nonzero(int64_t? dim=None)', 'count_nonzero(IntArrayRef dim)'],
    'Tkthvalue': ['kthvalue(SymInt k, int64_t dim=-1, bool keepdim=False)'],
    'Tmedian': ['median()', 'median(int64_t dim, bool keepdim=False)'],
    'Tmode': ['mode(int64_t dim=-1, bool keepdim=False)'],
    'Tcummax': ['cummax(int64_t dim)'],
    'Tcummin': ['cummin(int64_t dim)'],
    'Tnansum': ['nansum(IntArrayRef[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None)'],
    'Tnanmean': [
        'nanmean(IntArrayRef[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None)',
    ],
    'Tclamp_max_': ['clamp_max_(Tensor max)', 'clamp_max_(Scalar max)'],
    'Tclamp_min_': ['clamp_min_(Tensor min)', 'clamp_min_(Scalar min)'],
    'Tmasked_scatter': ['masked_scatter(Tensor mask, Tensor source)'],
    'Ttake_along_dim': ['take_along_dim(Tensor indices, int64_t? dim=None)'],
    'Tswapaxes': ['swapaxes(int64_t axis0, int64_t axis1)'],
    'Tbroadcast_to': ['broadcast_to(SymIntArrayRef size)'],
    'Tallclose': [
        'allclose(Tensor other, double rtol=1e-05, double atol=1e-08, bool equal_nan=False)',
    ],
    'Tisclose': [
        'isclose(Tensor other, double rtol=1e-05, double atol=1e-08, bool equal_nan=False)',
    ],
    'Tequal': ['equal(Tensor other)'],
    'Fgelu': ['gelu(Tensor input, *, c10::string_view approximate="none", Tensor out=None)'],
    'Fsoftplus': ['softplus(Tensor input, Scalar beta=1, Scalar threshold=20, *, Tensor out=None)'],
    'Fsoftshrink': ['softshrink(Tensor input, Scalar lambd=0.5, *, Tensor out=None)'],
    'Flogsigmoid': ['log_sigmoid(Tensor input, *, Tensor out=None)'],
    'Fscaled_dot_product_attention': [
        'scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, '
        'Tensor? attn_mask=None, double dropout_p=0.0, bool is_causal=False, *, '
        'double? scale=None, bool enable_gqa=False)',
    ],
    'Favg_pool2d': [
        'avg_pool2d(Tensor input, IntArrayRef[2] kernel_size, IntArrayRef[2] stride=None, '
        'IntArrayRef[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, '
        'int64_t? divisor_override=None, *, Tensor out=None)',
    ],
    'Favg_pool3d': [
        'avg_pool3d(Tensor input, IntArrayRef[3] kernel_size, IntArrayRef[3] stride=None, '
        'IntArrayRef[3] padding=0, bool ceil_mode=False, bool count_include_pad=True, '
        'int64_t? divisor_override=None, *, Tensor out=None)',
    ],
    'Fchannel_shuffle': ['channel_shuffle(Tensor input, SymInt groups)'],
}

# should_allow_numbers_as_tensors (python_arg_parser.cpp): a Number where a Tensor is asked
# (checked against 2.13: torch.add(1.5, 2), mul, div, sub, floor_divide take a number as a
# Tensor; torch.pow(1.5, 2), remainder, xlogy, fmod, eq / lt..., bitwise_and, copysign and
# ldexp refuse it: their names are left out)
_NUMBERS_AS_TENSORS = frozenset("""
    add add_ __radd__ sub sub_ __rsub__ mul mul_ __rmul__ div div_ __rdiv__ __truediv__
    __floordiv__ floor_divide floor_divide_ true_divide true_divide_ fmod_ remainder_
    __mod__ eq_ ne_ lt_ le_ gt_ ge_ __eq__ __ne__ __lt__ __le__ __gt__ __ge__ bitwise_and_
    bitwise_or_ bitwise_xor_ __and__ __or__ __xor__ __lshift__ __rshift__ xlogy_
    special_xlogy special_xlog1py special_zeta copysign_ pow_ __pow__ __rpow__
    divide divide_ multiply multiply_ subtract subtract_ to _to_copy copy_ copy _conj
    """.split())

# the display name of each parser type (FunctionParameter::type_name)
_DISPLAY = {
    "Tensor": "Tensor", "Scalar": "Number", "int64_t": "int", "SymInt": "int",
    "double": "float", "complex": "complex", "TensorList": "tuple of Tensors",
    "IntArrayRef": "tuple of ints", "SymIntArrayRef": "tuple of ints",
    "ArrayRef<double>": "tuple of floats", "Generator": "torch.Generator", "bool": "bool",
    "Storage": "torch.Storage", "PyObject*": "object", "ScalarType": "torch.dtype",
    "Layout": "torch.layout", "MemoryFormat": "torch.memory_format", "Device": "torch.device",
    "std::string": "str", "std::string_view": "str", "c10::string_view": "str",
    "Dimname": "name", "DimnameList": "tuple of names", "ScalarList": "tuple of Scalars",
    "Stream": "torch.Stream", "DeviceIndex": "int", "QScheme": "torch.qscheme",
    "DispatchKeySet": "DispatchKeySet", "Dimname?": "name"}

# Py_TYPE(obj)->tp_name of our objects where PyTorch's differ from ours
_TP_NAMES = {_dtype: "torch.dtype", Size: "torch.Size", _device: "torch.device"}


def tp_name(obj):
    """The type name PyTorch's messages print: CPython's tp_name ('numpy.ndarray' for an
    extension type), with torch's names for our dtype, Size, device."""
    t = type(obj)
    name = _TP_NAMES.get(t)
    if name is not None:
        return name
    if t.__module__ == "builtins" or t.__flags__ & (1 << 9):  # (Py_TPFLAGS_HEAPTYPE)
        return t.__qualname__ if t.__module__ == "builtins" else t.__name__
    return f"{t.__module__.lstrip('_')}.{t.__qualname__}"


class Param:
    __slots__ = ("type", "name", "default", "optional", "allow_none", "kwonly", "size")

    def __init__(self, text, kwonly):
        decl, eq, default = text.partition("=")
        typ, _, name = decl.strip().rpartition(" ")
        self.allow_none = typ.endswith("?")
        typ = typ.rstrip("?")
        self.size = 0
        if typ.endswith("]"):
            typ, _, n = typ[:-1].partition("[")
            self.size = int(n)
        self.type, self.name, self.kwonly = typ, name, kwonly
        self.optional = bool(eq)
        self.default = default.strip() if eq else None
        if self.default == "None" and not self.allow_none:
            self.allow_none = True  # (a None default takes None: Tensor out=None)

    def display(self):
        s = f"{_DISPLAY.get(self.type, self.type)} {self.name}"
        return s + f" = {self.default}" if self.optional else s


class Signature:
    def __init__(self, text):
        self.text = text
        text, _, flag = text.partition("|")
        self.hidden = bool(flag)
        self.noargs = flag == "noargs"  # (a METH_NOARGS method: CPython's own messages)
        self.name, _, rest = text.partition("(")
        rest = rest[:-1]
        self.params, kwonly = [], False
        for part in (p.strip() for p in rest.split(",")) if rest else ():
            if part == "*":
                kwonly = True
                continue
            self.params.append(Param(part, kwonly))
        self.max_pos = sum(not p.kwonly for p in self.params)
        self.min_args = sum(not p.optional for p in self.params)
        self.max_args = len(self.params)
        self.varargs = self.max_pos == 1 and self.params[0].type in (
            "IntArrayRef", "SymIntArrayRef")

    def display(self):
        out, kwonly = [], False
        for p in self.params:
            if p.kwonly and not kwonly:
                out.append("*")
                kwonly = True
            out.append(p.display())
        return "(" + ", ".join(out) + ")"


_DOUBLE = Param("double x", False)


class _Refused(TypeError):
    """The parser's error for one overload (raised only when it is the one to report)."""


def _is_int(obj):
    c = obj.__class__
    if c is int:
        return True
    if c is bool:
        return False
    if isinstance(obj, (int, _np.integer)):
        return not isinstance(obj, (bool, _np.bool_))
    if isinstance(obj, Tensor):
        return obj._data.ndim == 0 and obj._data.dtype.kind in "iu"
    return False


def _is_scalar(obj):
    if isinstance(obj, (int, float, complex, _np.number, _np.bool_)):
        return True
    return isinstance(obj, Tensor) and obj.dim() == 0 and not obj.requires_grad


def _is_int_list(obj, size):
    """is_int_or_symint_list: a tuple or list whose first element is an int (the rest are
    checked when it is unpacked), or a single int for a sized list (IntArrayRef[2])."""
    if isinstance(obj, (tuple, list)):
        return not obj or _is_int(obj[0])
    return size > 0 and _is_int(obj)


def _check(p, obj, fname):
    t = p.type
    if t == "Tensor":
        return isinstance(obj, Tensor) or (fname in _NUMBERS_AS_TENSORS and _is_scalar(obj))
    if t == "Scalar":
        return _is_scalar(obj)
    if t in ("int64_t", "SymInt", "DeviceIndex"):
        return _is_int(obj)
    if t in ("IntArrayRef", "SymIntArrayRef"):
        return _is_int_list(obj, p.size)
    if t == "double":
        return isinstance(obj, (int, float, _np.floating, _np.integer, _np.bool_)) or (
            isinstance(obj, Tensor) and obj.dim() == 0 and not obj.requires_grad)
    if t == "bool":
        return obj is True or obj is False  # (not numpy.bool)
    if t == "TensorList":
        return isinstance(obj, (tuple, list))
    if t == "ScalarType":
        return isinstance(obj, _dtype) or obj in (float, int, bool, complex)
    if t == "Device":
        return isinstance(obj, (_device, str)) or obj.__class__ is not bool and isinstance(
            obj, (int, _np.integer))
    if t in ("std::string", "std::string_view", "c10::string_view"):
        return isinstance(obj, str)
    if t == "PyObject*":
        return True
    if t == "ScalarList":
        return isinstance(obj, (tuple, list))
    if t == "ArrayRef<double>":
        return isinstance(obj, (tuple, list, float, int))
    # Layout, MemoryFormat, Generator, Dimname, ...: by the class's own name
    name = type(obj).__name__.lower()
    return name.replace("_", "") == t.lower() or name == t.lower() or t in (
        "Dimname", "DimnameList") and isinstance(obj, (str, tuple, list))


def _parse(sig, args, kwargs, raise_exception):
    """FunctionSignature::parse: True if the call fits ``sig``; with ``raise_exception`` the
    parser's error for the first argument that does not."""
    nargs = len(args)
    name = sig.name
    # (a lone int list takes varargs, expand(5, 3), when the first one is an int)
    varargs = sig.varargs and nargs > 0 and _is_int(args[0])
    if nargs > sig.max_pos and not varargs:
        if raise_exception:
            _extra_args(sig, nargs)
        return False
    remaining = len(kwargs)
    arg_pos = 0
    for i, p in enumerate(sig.params):
        is_kwd = False
        obj = missing = _MISSING
        if arg_pos < nargs:
            if p.kwonly:
                if raise_exception:
                    _extra_args(sig, nargs)
                return False
            obj = args[arg_pos]
        else:
            obj = kwargs.get(p.name, missing)
            is_kwd = True
        varargs_eligible = varargs and arg_pos == 0 and not is_kwd
        if (obj is _MISSING and p.optional) or (obj is None and p.allow_none):
            pass
        elif obj is _MISSING:
            if raise_exception:
                _missing_args(sig, i)
            return False
        elif _check(p, obj, name):
            pass
        elif varargs_eligible and _is_int_list(tuple(args), p.size):
            arg_pos = nargs
            continue
        elif raise_exception:
            tn = _DISPLAY.get(p.type, p.type)
            if is_kwd:
                raise _Refused(f"{name}(): argument '{p.name}' must be {tn}, not {tp_name(obj)}")
            if isinstance(obj, (tuple, list)) and p.type in ("IntArrayRef", "SymIntArrayRef"):
                raise _Refused(f"{name}(): argument '{p.name}' (position {arg_pos + 1}) must be "
                               f"{tn}, but found element of type {tp_name(obj[0])} at pos 0")
            raise _Refused(f"{name}(): argument '{p.name}' (position {arg_pos + 1}) must be "
                           f"{tn}, not {tp_name(obj)}")
        else:
            return False
        if not is_kwd:
            arg_pos += 1
        elif obj is not _MISSING:
            remaining -= 1
    if remaining > 0:
        if raise_exception:
            _extra_kwargs(sig, kwargs, nargs)
        return False
    return True


MISSING = _MISSING = object()  # (an argument not given)


def _extra_args(sig, nargs):
    if sig.min_args != sig.max_pos:
        raise _Refused(f"{sig.name}() takes from {sig.min_args} to {sig.max_pos} positional "
                       f"arguments but {nargs} were given")
    raise _Refused(f"{sig.name}() takes {sig.max_pos} positional argument"
                   f"{'' if sig.max_pos == 1 else 's'} but {nargs} "
                   f"{'was' if nargs == 1 else 'were'} given")


def _missing_args(sig, idx):
    names = [f'"{p.name}"' for p in sig.params[idx:] if not p.optional]
    # (PyTorch's plural is inverted: "1 required positional arguments")
    raise _Refused(f"{sig.name}() missing {len(names)} required positional argument"
                   f"{'s' if len(names) == 1 else ''}: {', '.join(names)}")


def _extra_kwargs(sig, kwargs, nargs):
    for key in kwargs:
        idx = next((i for i, p in enumerate(sig.params) if p.name == key), -1)
        if idx < 0:
            raise _Refused(f"{sig.name}() got an unexpected keyword argument '{key}'")
        if idx < nargs:
            raise _Refused(f"{sig.name}() got multiple values for argument '{key}'")
    raise _Refused("invalid keyword arguments")


# ---- format_invalid_args (torch/csrc/utils/invalid_arguments.cpp) ------------------------
# It re-parses each displayed signature crudely (split on ", ", the type is all before the
# last space), and matches an argument by its type's name; its quirks are PyTorch's
# messages: "()" counts one argument, "bool keepdim = False" is a type "bool keepdim ="
# named "False", a legitimate int is "!int!" against "Number".
def _crude_option(display):
    inner = display[1:-1]
    args = []
    for arg in inner.split(", "):
        cut = arg.rfind(" ")
        args.append((arg[:cut] if cut >= 0 else arg, arg[cut + 1:]))
    return args


def _crude_match(typ, obj):
    name = tp_name(obj)
    if typ == "float":
        return name in ("float", "int")
    if typ == "int":
        return name == "int"
    if typ.startswith("tuple of "):
        inner = typ[9:-1]
        return isinstance(obj, tuple) and all(_crude_match(inner, o) for o in obj)
    return name == typ


def _kwarg_order(kwargs):
    """The keywords in the order PyTorch's std::unordered_map gives them back (reversed,
    for the few a call has)."""
    return list(kwargs.items())[::-1]


def _type_desc(obj):
    """A list or tuple argument described with its elements' types ('list of [int,
    float]', 'tuple of (int,)'), as an overload's "didn't match" line prints it."""
    if obj.__class__ is list:
        return f"list of [{', '.join(tp_name(o) for o in obj)}]"
    if obj.__class__ is tuple:
        inner = ", ".join(tp_name(o) for o in obj)
        return f"tuple of ({inner}{',' if len(obj) == 1 else ''})"
    return tp_name(obj)


def _arg_desc(args, kwargs, option=None, elements=True):
    parts = []
    for i, a in enumerate(args):
        if option is None:
            parts.append(tp_name(a))
            continue
        s = _type_desc(a) if elements else tp_name(a)
        if not (i < len(option) and _crude_match(option[i][0], a)):
            s = f"!{s}!"
        parts.append(s)
    out = ", ".join(parts)
    if kwargs:
        names = dict((n, t) for t, n in option) if option is not None else {}
        kw = ""
        for k, v in _kwarg_order(kwargs):
            s = f"{k}={_type_desc(v) if option is not None and elements else tp_name(v)}"
            if option is not None and not (k in names and _crude_match(names[k], v)):
                s = f"!{s}!"
            kw += s + ", "
        out = out + ", " + kw[:-2] if args else kw
    return f"({out})"


def _invalid_combination(name, shown, args, kwargs):
    msg = f"{name}() received an invalid combination of arguments - got " \
          f"{_arg_desc(args, kwargs)}, but expected "
    if len(shown) == 1:  # (one overload: "got" marked against it)
        return f"{name}() received an invalid combination of arguments - got " \
               f"{_arg_desc(args, kwargs, _crude_option(shown[0]), False)}, but expected " \
               f"{shown[0]}"
    msg += "one of:\n"
    for display in shown:
        msg += f" * {display}\n"
        option = _crude_option(display)
        if len(option) == len(args) + len(kwargs):
            # (_tryMatchKwargs: a keyword must name one of the last len(kwargs) arguments)
            names = {n for _, n in option[len(option) - len(kwargs):]}
            wrong = [k for k, _ in _kwarg_order(kwargs) if k not in names]
            if wrong:
                msg += ("      didn't match because some of the keywords were incorrect: "
                        f"{', '.join(wrong)}\n")
                continue
            desc = _arg_desc(args, kwargs, option)
            if "!" in desc:
                msg += ("      didn't match because some of the arguments have invalid "
                        f"types: {desc}\n")
    return msg


# ---- the entry points --------------------------------------------------------------------
_PARSED = {}


def _signatures(key):
    sigs = _PARSED.get(key)
    if sigs is None:
        sigs = _PARSED[key] = [Signature(s) for s in SIGNATURES[key]]
    return sigs


def error(key, args, kwargs):
    """PyTorch's TypeError for a call of ``key`` ('tsum', 'Tview', ...; args without self
    for a method), or None when one of its overloads takes it (PythonArgParser::raw_parse
    and print_error, then the unpacking of int lists and tensor lists)."""
    return _error(_signatures(key), args, kwargs)


def _error(sigs, args, kwargs):
    if sigs[0].noargs:
        if kwargs:
            return TypeError(f"TensorBase.{sigs[0].name}() takes no keyword arguments")
        if args:
            return TypeError(f"TensorBase.{sigs[0].name}() takes no arguments ({len(args)} "
                             "given)")
        return None
    try:
        if len(sigs) == 1:
            _parse(sigs[0], args, kwargs, True)
            fit = sigs[0]
        else:
            fit = next((s for s in sigs if _parse(s, args, kwargs, False)), None)
            if fit is None:
                n = len(args) + len(kwargs)
                plausible = [s for s in sigs if s.min_args <= n <= s.max_args and not s.hidden]
                if len(plausible) == 1:
                    _parse(plausible[0], args, kwargs, True)
                return TypeError(_invalid_combination(
                    sigs[0].name, [s.display() for s in sigs if not s.hidden], args, kwargs))
        _unpack(fit, args, kwargs)
    except _Refused as e:
        return TypeError(str(e))
    return None


def bind(key, args, kwargs):
    """The arguments of a call by the names of the overload of ``key`` that takes them
    (an op with several overloads that reads its arguments on a slow path: Tensor.to), or
    the parser's TypeError when none does."""
    sigs = _signatures(key)
    err = _error(sigs, args, kwargs)
    if err is not None:
        raise err
    fit = next(s for s in sigs if _parse(s, args, kwargs, False))
    values = dict(zip((p.name for p in fit.params if not p.kwonly), args))
    values.update(kwargs)
    return values


def _unpack(sig, args, kwargs):
    """The conversions after a parse: each element of an int list (``reshape(2, 'a')``) or
    of a tensor list (``stack([x, 1])``)."""
    for i, p in enumerate(sig.params):
        if p.type == "TensorList":
            obj = args[i] if i < len(args) else kwargs.get(p.name)
            for j, v in enumerate(obj or ()):
                if not isinstance(v, Tensor):
                    raise _Refused(f"expected Tensor as element {j} in argument {i}, but got "
                                   f"{tp_name(v)}")
    if sig.varargs and args and _is_int(args[0]):
        values = args
    else:
        values = None
    for i, p in enumerate(sig.params):
        if p.type not in ("IntArrayRef", "SymIntArrayRef"):
            continue
        if values is None or i:
            obj = args[i] if i < len(args) and not p.kwonly else kwargs.get(p.name)
            values = obj if isinstance(obj, (tuple, list)) else None
        if values is not None:
            for j, v in enumerate(values):
                if not _is_int(v) and v.__class__ is not bool:  # (a bool is an int here:
                    # THPUtils_unpackIndex, not the first element's checkIndex)
                    raise _Refused(f"{sig.name}(): argument '{p.name}' failed to unpack the "
                                   f"object at pos {j + 1} with error \"type must be tuple "
                                   f"of ints,but got {tp_name(v)}\"")
        values = None


def index(obj):
    """operator.index, but a bool refused (THPUtils_checkIndex: PyTorch's int arguments take
    no bool); an op's int argument read on its slow path."""
    if obj.__class__ is bool or obj.__class__ is _np.bool_:
        raise TypeError(f"'{tp_name(obj)}' object cannot be interpreted as an int argument")
    return _index(obj)


def int_list(values):
    """An int list argument's elements as ints (IntArrayRef's unpacking): the first a strict
    int, the others may be bools (THPUtils_unpackIndex); a float refused."""
    return [v if v.__class__ is int else int(v) if i and v.__class__ is bool else index(v)
            for i, v in enumerate(values)]


def ints(*values):
    """An op's int arguments (an int64_t / SymInt of PyTorch's signature) checked on its
    success path: a float, bool or other refused, for the guard to word (Note [Argument
    errors on the exception path]); an int costs an ``is`` test."""
    for v in values:
        if v.__class__ is not int:
            index(v)


def bools(*values):
    """An op's bool arguments: a Python bool only (not an int, not numpy.bool)."""
    for v in values:
        if v is not True and v is not False:
            raise TypeError("a bool argument must be a bool")


def floats(*values):
    """An op's double arguments: a real number or a 0-d tensor without grad."""
    for v in values:
        if v.__class__ is not float and not _check(_DOUBLE, v, ""):
            raise TypeError("a float argument must be a number")


def wrong_type(name, arg):
    """An op's refusal of an argument PyTorch's parser refuses and the op would take (a
    Tensor as cat's sequence, a list as an index): the guard turns it into the parser's
    error, with the position of the variant called."""
    return TypeError(f"{name}(): argument '{arg}' has a type PyTorch refuses")


def refuse_unary(name, input, args):
    """An elementwise unary op's refusal: its METH_NOARGS method given arguments, or its
    function a non-Tensor input ('exp(Tensor input, *, Tensor out=None)')."""
    if args:
        raise TypeError(f"TensorBase.{name}() takes no arguments ({len(args)} given)")
    raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                    f"{tp_name(input)}")


def refuse_function(name, args, out):
    """An elementwise unary function's refusal of extra arguments or a missing input
    (its signature 'exp(Tensor input, *, Tensor out=None)')."""
    args = tuple(a for a in args if a is not _MISSING)
    err = _error([Signature(f"{name}(Tensor input, *, Tensor out=None)")], args,
                 {} if out is None else {"out": out})
    if err is not None:
        raise err


def refuse_binary(name, position, input, other, args, alpha):
    """add / sub / mul's refusal of extra arguments, a missing other, or mul's alpha
    (``position`` 1: the Tensor method, 2: the function)."""
    given = (other,) + args if other is not _MISSING else ()
    kwargs = {} if alpha == 1 else {"alpha": alpha}
    if position == 1:
        refuse("T" + name, given, kwargs)
    else:
        refuse("t" + name, ((input,) if input is not _MISSING else ()) + given, kwargs)
    # taken: by the deprecated add(Scalar alpha, Tensor other) (the only hidden overload
    # of these): other is the second argument, scaled by the first
    return _deprecated_alpha(name, args[0], other)


_DEPRECATED_WARNED = []


def _deprecated_alpha(name, other, alpha):
    """add / sub's deprecated (Scalar alpha, Tensor other) overload: PyTorch's warning
    (the parser's TORCH_WARN_ONCE: once per process, whichever op), then (other, alpha)."""
    if not _DEPRECATED_WARNED:
        _DEPRECATED_WARNED.append(True)
        _warn.cpp(f"This overload of {name} is deprecated:\n\t{name}(Number alpha, Tensor "
                  f"other)\nConsider using one of the following signatures instead:\n\t"
                  f"{name}(Tensor other, *, Number alpha = 1)")
    return other, alpha


def refuse(key, args, kwargs=None):
    """Raise PyTorch's TypeError for a call no overload of ``key`` takes (an op's own slow
    path, Note [Argument errors on the exception path]); return if one takes it."""
    if key not in SIGNATURES:
        return
    err = error(key, args, kwargs or {})
    if err is not None:
        raise err


_CAUGHT = Exception  # (a genuine error re-raises: its arguments parse)


def _safe_error(key, args, kwargs):
    """``error``, or None should the parse itself fail on an odd argument (the op's own
    error is then the better one)."""
    try:
        return error(key, args, kwargs)
    except Exception:  # noqa: BLE001
        return None


def guard(f, key, method=False):
    """``f`` behind PyTorch's argument errors (Note [Argument errors on the exception
    path]): any failure of the call is checked against ``key``'s signatures, and becomes
    the parser's TypeError when none takes the arguments."""
    if method:
        deprecated_alpha = key[1:] in ("add", "sub", "add_", "sub_")

        def guarded(*args, **kwargs):
            try:
                return f(*args, **kwargs)
            except _CAUGHT:
                err = _safe_error(key, args[1:], kwargs) if args and isinstance(
                    args[0], Tensor) else None
                if err is None:
                    if deprecated_alpha and len(args) == 3 and not kwargs:
                        # the deprecated add_(Scalar alpha, Tensor other) took it
                        other, alpha = _deprecated_alpha(key[1:], args[2], args[1])
                        return f(args[0], other, alpha=alpha)
                    raise
                raise err from None
    else:
        def guarded(*args, **kwargs):
            try:
                return f(*args, **kwargs)
            except _CAUGHT:
                err = _safe_error(key, args, kwargs)
                if err is None:
                    raise
                raise err from None
    # (a code object of its own, named as the op: compile's tracer tells ops apart by their
    # code, _compile/trace.py's _names)
    guarded.__code__ = guarded.__code__.replace(co_name=key[1:])
    _warn.wrapper(guarded)  # (Note [Warning locations])
    for attr in ("__name__", "__qualname__", "__doc__", "__module__"):
        try:
            setattr(guarded, attr, getattr(f, attr))
        except AttributeError:
            pass
    guarded.__wrapped__ = f
    guarded.argparse_key = key
    return guarded


# nn.functional's functions that are torch.<name> in PyTorch (C-bound, the same parser)
_F_IS_TORCH = ("prelu", "bilinear", "cosine_similarity", "pairwise_distance", "pdist",
               "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
               "hardshrink", "pixel_shuffle", "pixel_unshuffle", "avg_pool1d",
               "adaptive_avg_pool1d")


def install(torch):
    """Guard the public functions and Tensor methods ``SIGNATURES`` covers (called once, at
    the end of the package's import). The elementwise ops whose function has a ``method``
    twin (``_unary_fn``, ``_binary_fn``) refuse on their own slow path instead."""
    functional = torch.nn.functional
    for key in SIGNATURES:
        kind, name = key[0], key[1:]
        if kind == "T":
            f = Tensor.__dict__.get(name)
            twin = getattr(getattr(torch, name, None), "method", None)
            if f is None or f is twin or not callable(f):
                continue
            setattr(Tensor, name, guard(f, key, method=True))
            continue
        where = (torch,) if kind == "t" else (functional,)
        if kind == "t" and name in _F_IS_TORCH:
            where = (torch, functional)
        for module in where:
            f = getattr(module, name, None)
            if f is None or getattr(f, "method", None) is not None or \
                    getattr(f, "argparse_key", None) is not None:
                continue
            g = guard(f, key)
            for other in (module, functional, torch.nn._aten):  # (the same function's
                if getattr(other, name, None) is f:  # other names stay one object)
                    setattr(other, name, g)
