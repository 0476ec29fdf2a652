"""Variable-length sequences: pad_sequence, PackedSequence, pack_padded_sequence,
pad_packed_sequence, pack_sequence, unpad_sequence, unpack_sequence (PyTorch's layout:
the packed ``data`` holds time step 0 of every sequence, then step 1 of those still
running, ...; ``batch_sizes[t]`` says how many; sequences sorted by decreasing length,
``sorted_indices`` / ``unsorted_indices`` record the permutation)."""
from collections import namedtuple

from ... import _creation

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence",
           "pad_packed_sequence", "pad_sequence", "unpad_sequence", "pack_sequence",
           "unpack_sequence"]


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Variable-length sequences (L_i, *) into (B, L_max, *) or (L_max, B, *): aten's
    pad_sequence, one slice copy per sequence into a filled tensor (CopySlices nodes)."""
    if padding_side not in ("left", "right"):
        raise ValueError(f"Expected padding_side to be one of left or right, but got "
                         f"{padding_side}.")
    max_len = max(s.shape[0] for s in sequences)
    trailing = tuple(sequences[0].shape[1:])
    n = len(sequences)
    dims = (n, max_len) + trailing if batch_first else (max_len, n) + trailing
    out = _creation.full(dims, padding_value, dtype=sequences[0].dtype)
    for i, seq in enumerate(sequences):
        length = seq.shape[0]
        start = 0 if padding_side == "right" else max_len - length
        if batch_first:
            out.select(0, i).narrow(0, start, length).copy_(seq)
        else:
            out.narrow(0, start, length).select(1, i).copy_(seq)
    return out


_PackedSequenceBase = namedtuple("PackedSequence",
                                 ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])


class PackedSequence(_PackedSequenceBase):
    """Holds the data and list of batch_sizes of a packed sequence (made by
    pack_padded_sequence / pack_sequence, consumed by RNN, LSTM and GRU)."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        data = self.data.to(*args, **kwargs)
        return self if data is self.data else type(self)(data, self.batch_sizes,
                                                          self.sorted_indices,
                                                          self.unsorted_indices)

    def cpu(self):
        return self

    def double(self):
        return self.to(dtype=_dtype("float64"))

    def float(self):
        return self.to(dtype=_dtype("float32"))

    @property
    def is_cuda(self):
        return False

    def is_pinned(self):
        return False


def _dtype(name):
    from ... import _dtypes
    return getattr(_dtypes, name)


def invert_permutation(permutation):
    if permutation is None:
        return None
    from ... import _ops as fn
    from ..._backend import np
    from ..._tensor import _make
    p = permutation._data
    out = np.empty_like(p)
    out[p] = np.arange(p.size, dtype=p.dtype)
    _ = fn
    return _make(out)


def _lengths_array(lengths):
    from ..._backend import np
    if hasattr(lengths, "_data"):
        if lengths._data.ndim != 1:
            raise RuntimeError(f"'lengths' argument should be a 1D CPU int64 tensor, but got "
                               f"{lengths._data.ndim}D {lengths.dtype} tensor")
        return lengths._data.astype(np.int64)
    return np.asarray(lengths, dtype=np.int64).reshape(-1)


def _packed_positions(lengths):
    """Flat positions t * B + b (in a (T, B) layout) of the packed elements, and
    batch_sizes; lengths sorted in decreasing order."""
    from ..._backend import np
    t_max, b = int(lengths[0]), lengths.size
    batch_sizes = np.array([(lengths > t).sum() for t in range(t_max)], dtype=np.int64)
    pos = np.concatenate([t * b + np.arange(n) for t, n in enumerate(batch_sizes)])
    return pos, batch_sizes


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """(T, B, *) (or (B, T, *)) padded sequences and their lengths -> a PackedSequence."""
    from ... import _ops as fn
    from ..._backend import np
    from ..._tensor import _make
    lens = _lengths_array(lengths)
    if enforce_sorted:
        sorted_indices = None
    else:
        order = np.argsort(-lens, kind="stable")
        lens = lens[order]
        sorted_indices = _make(order.astype(np.int64))
        input = fn.index_select(input, 0 if batch_first else 1, sorted_indices)
    from ..._ops import nn_ops as N
    from ..functional import _refuse_tangents
    _refuse_tangents(N.PACK_PADDED_SEQUENCE, input)  # (then the kernel's checks, in its order)
    if lens.size and lens[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an "
                           "element in 'lengths' that is <= 0")
    if (np.diff(lens) > 0).any():
        raise RuntimeError("`lengths` array must be sorted in decreasing order when "
                           "`enforce_sorted` is True. You can pass `enforce_sorted=False` "
                           "to pack_padded_sequence and/or pack_sequence to sidestep "
                           "this requirement if you do not need ONNX exportability.")
    t_max = int(lens[0])
    t_in = input.shape[1 if batch_first else 0]
    if t_in < t_max:
        raise RuntimeError(f"Expected sequence length to be larger than or equal to "
                           f"{t_max}, but got {t_in}")
    from ..._ops._common import _finish
    out = N.pack_padded_sequence_kernel(input._data, lens, batch_first)
    data, batch_sizes = _finish(N.PACK_PADDED_SEQUENCE, (input,), (lens, batch_first), out)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """The inverse of pack_padded_sequence: (padded, lengths) in the original order; built
    as aten's _pad_packed_sequence (a filled tensor, one slice copy per run of equal batch
    sizes: CopySlices nodes)."""
    from ..._backend import np
    from ..._tensor import _make
    data, batch_sizes = sequence.data, sequence.batch_sizes._data
    t_max, b = batch_sizes.size, int(batch_sizes[0])
    if total_length is not None:
        if total_length < t_max:
            raise ValueError(f"Expected total_length to be at least the length of the "
                             f"longest sequence in input, but got total_length="
                             f"{total_length} and max sequence length being {t_max}")
    else:
        total_length = t_max
    trailing = tuple(data.shape[1:])
    output = _creation.full((total_length, b) + trailing, padding_value, dtype=data.dtype)
    lengths = np.empty(b, dtype=np.int64)
    offset, prev_bs, prev_i = 0, b, 0
    for i in range(t_max + 1):
        bs = int(batch_sizes[i]) if i != t_max else 0
        if bs != prev_bs:
            n = prev_bs * (i - prev_i)
            block = data[offset:offset + n].view((i - prev_i, prev_bs) + trailing)
            output[prev_i:i][:, :prev_bs].copy_(block)
            offset += n
            prev_i = i
        if prev_bs > bs:
            lengths[bs:prev_bs] = i
        prev_bs = bs
    if batch_first:
        output = output.transpose(0, 1)
    if sequence.unsorted_indices is not None:
        output = output.index_select(0 if batch_first else 1, sequence.unsorted_indices)
        lengths = lengths[sequence.unsorted_indices._data]
    return output, _make(lengths)


def pack_sequence(sequences, enforce_sorted=True):
    lengths = [s.shape[0] for s in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths,
                                enforce_sorted=enforce_sorted)


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    from ... import _ops as fn
    if not batch_first:
        padded_sequences = fn.transpose(padded_sequences, 0, 1)
    return [padded_sequences[i][:int(n)] for i, n in enumerate(_lengths_array(lengths))]


def unpack_sequence(packed_sequences):
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
