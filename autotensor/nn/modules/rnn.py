"""RNN, LSTM, GRU and their cells, composed from linear/sigmoid/tanh (values and gradients
are PyTorch's; the graph shows those primitive nodes where PyTorch's CPU build shows one
fused ``MkldnnRnnLayerBackward0``). Parameters are registered and drawn in PyTorch's order
(layer, direction, then w_ih, w_hh, b_ih, b_hh, w_hr), so the same seed gives the same
weights bit for bit. Each layer multiplies the whole input sequence by W_ih at once and
loops over time steps only for the recurrence."""
import math

from ... import _creation, _dtypes
from ... import _ops as fn
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _rnn_step(mode, gi, h, w_hh, b_hh):
    """One step of an RNN/GRU cell from the precomputed input part ``gi``."""
    gh = F.linear(h, w_hh, b_hh)
    if mode == "GRU":
        i_r, i_z, i_n = fn.chunk(gi, 3, -1)
        h_r, h_z, h_n = fn.chunk(gh, 3, -1)
        r = fn.sigmoid(i_r + h_r)
        z = fn.sigmoid(i_z + h_z)
        n = fn.tanh(i_n + fn.mul(r, h_n))
        return n + fn.mul(z, h - n)
    pre = gi + gh
    return fn.tanh(pre) if mode == "RNN_TANH" else fn.relu(pre)


def _lstm_step(gi, h, c, w_hh, b_hh, w_hr):
    gates = gi + F.linear(h, w_hh, b_hh)
    i, f, g, o = fn.chunk(gates, 4, -1)
    c = fn.mul(fn.sigmoid(f), c) + fn.mul(fn.sigmoid(i), fn.tanh(g))
    h = fn.mul(fn.sigmoid(o), fn.tanh(c))
    if w_hr is not None:
        h = F.linear(h, w_hr)
    return h, c


# ---- PyTorch's CPU cells and packed layers (aten/src/ATen/native/RNN.cpp) ------------------
def _aten_cell(mode, gi, hidden, weights):
    """One step from the precomputed input part ``gi``, with aten's ops (linear_hh, add,
    unsafe_chunk, activations), so a packed sequence's graph is PyTorch's."""
    _, w_hh, _, b_hh, w_hr = weights
    if mode == "LSTM":
        hx, cx = hidden
        gates = F.linear(hx, w_hh, b_hh) + gi
        i, f, g, o = fn.unsafe_chunk(gates, 4, 1)
        cy = fn.mul(fn.sigmoid(f), cx) + fn.mul(fn.sigmoid(i), fn.tanh(g))
        hy = fn.mul(fn.sigmoid(o), fn.tanh(cy))
        return (fn.matmul(hy, w_hr.t()) if w_hr is not None else hy), cy
    if mode == "GRU":
        i_r, i_z, i_n = fn.unsafe_chunk(gi, 3, 1)
        h_r, h_z, h_n = fn.unsafe_chunk(F.linear(hidden, w_hh, b_hh), 3, 1)
        r = fn.sigmoid(h_r + i_r)
        z = fn.sigmoid(h_z + i_z)
        n = fn.tanh(i_n + fn.mul(h_n, r))
        return fn.mul(hidden - n, z) + n
    pre = F.linear(hidden, w_hh, b_hh) + gi
    return fn.tanh(pre) if mode == "RNN_TANH" else fn.relu(pre)


# ---- the functional cells (torch.lstm_cell, gru_cell, rnn_tanh_cell, rnn_relu_cell) ------
def _check_cell(input, hidden, w_ih, w_hh):
    """aten's check_rnn_cell_forward_input / _hidden, in its order and words."""
    if input.shape[1] != w_ih.shape[1]:
        raise RuntimeError(f"input has inconsistent input_size: got {input.shape[1]} expected "
                           f"{w_ih.shape[1]}")
    for i, h in enumerate(hidden):
        if input.shape[0] != h.shape[0]:
            raise RuntimeError(f"Input batch size {input.shape[0]} doesn't match hidden{i} batch "
                               f"size {h.shape[0]}")
        if h.shape[1] != w_hh.shape[1]:
            raise RuntimeError(f"hidden{i} has inconsistent hidden_size: got {h.shape[1]}, "
                               f"expected {w_hh.shape[1]}")


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One LSTM step: (h', c') (aten's LSTMCell: linear_hh + linear_ih, unsafe_chunk, ...)."""
    if not isinstance(hx, (tuple, list)):
        raise TypeError(f"lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, "
                        f"not {type(hx).__name__}")
    _check_cell(input, hx, w_ih, w_hh)
    return _aten_cell("LSTM", F.linear(input, w_ih, b_ih), tuple(hx),
                      (w_ih, w_hh, b_ih, b_hh, None))


def _simple_cell(mode):
    def cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
        _check_cell(input, (hx,), w_ih, w_hh)
        return _aten_cell(mode, F.linear(input, w_ih, b_ih), hx, (w_ih, w_hh, b_ih, b_hh, None))
    cell.__name__ = {"GRU": "gru_cell", "RNN_TANH": "rnn_tanh_cell",
                     "RNN_RELU": "rnn_relu_cell"}[mode]
    cell.__doc__ = f"One {mode} step: h' (aten's cell: the same ops in its order)."
    return cell


gru_cell = _simple_cell("GRU")
rnn_tanh_cell = _simple_cell("RNN_TANH")
rnn_relu_cell = _simple_cell("RNN_RELU")


def _hidden_slice(hidden, start, end):
    if isinstance(hidden, tuple):
        return tuple(h.narrow(0, start, end - start) for h in hidden)
    return hidden.narrow(0, start, end - start)


def _hidden_concat(hiddens):
    if isinstance(hiddens[0], tuple):
        return tuple(fn.cat(list(hs), 0) for hs in zip(*hiddens))
    return fn.cat(hiddens, 0)


def _step_output(hidden):
    return hidden[0] if isinstance(hidden, tuple) else hidden


def _packed_layer(mode, data, sizes, hidden, weights):
    """aten's PackedLayer: returns (packed output data, final hidden)."""
    w_ih, _, b_ih, _, _ = weights
    gi = F.linear(data, w_ih, b_ih)
    outputs, done = [], []
    offset, last = 0, sizes[0]
    for bs in sizes:
        step = gi.narrow(0, offset, bs)
        offset += bs
        if last > bs:                        # sequences that ended: keep their state
            done.append(_hidden_slice(hidden, bs, last))
            hidden = _hidden_slice(hidden, 0, bs)
        last = bs
        hidden = _aten_cell(mode, step, hidden, weights)
        outputs.append(_step_output(hidden))
    done.append(hidden)
    return fn.cat(outputs, 0), _hidden_concat(done[::-1])


def _packed_layer_reverse(mode, data, sizes, input_hidden, weights):
    """aten's ReversedPackedLayer: from the last step back, rows joining as they start."""
    w_ih, _, b_ih, _, _ = weights
    gi = F.linear(data, w_ih, b_ih)
    outputs = []
    offset, last = data.shape[0], sizes[-1]
    hidden = _hidden_slice(input_hidden, 0, sizes[-1])
    for bs in reversed(sizes):
        if bs > last:
            hidden = _hidden_concat([hidden, _hidden_slice(input_hidden, last, bs)])
        step = gi.narrow(0, offset - bs, bs)
        offset -= bs
        last = bs
        hidden = _aten_cell(mode, step, hidden, weights)
        outputs.append(_step_output(hidden))
    return fn.cat(outputs[::-1], 0), hidden


class RNNBase(Module):
    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True,
                 batch_first=False, dropout=0.0, bidirectional=False, proj_size=0,
                 device=None, dtype=None):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        if not isinstance(dropout, (int, float)) or isinstance(dropout, bool) or \
                not 0 <= dropout <= 1:
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: "
                            f"{type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable "
                             "projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = _GATES[mode] * hidden_size
        self._flat_weights_names = []
        self._all_weights = []
        real_hidden = proj_size if proj_size > 0 else hidden_size
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input = input_size if layer == 0 else real_hidden * num_directions
                params = [Parameter(_creation.empty(gate_size, layer_input, dtype=dtype)),
                          Parameter(_creation.empty(gate_size, real_hidden, dtype=dtype))]
                names = ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                b_ih = Parameter(_creation.empty(gate_size, dtype=dtype))
                b_hh = Parameter(_creation.empty(gate_size, dtype=dtype))
                if bias:
                    params += [b_ih, b_hh]
                    names += ["bias_ih_l{}{}", "bias_hh_l{}{}"]
                if proj_size > 0:
                    params.append(Parameter(_creation.empty(proj_size, hidden_size,
                                                            dtype=dtype)))
                    names.append("weight_hr_l{}{}")
                suffix = "_reverse" if direction == 1 else ""
                names = [n.format(layer, suffix) for n in names]
                for name, p in zip(names, params):
                    setattr(self, name, p)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    @property
    def all_weights(self):
        return [[getattr(self, w) for w in weights] for weights in self._all_weights]

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    def _weights(self, layer, direction):
        names = self._all_weights[layer * (2 if self.bidirectional else 1) + direction]
        get = {n.split("_l")[0]: getattr(self, n) for n in names}
        return (get["weight_ih"], get["weight_hh"], get.get("bias_ih"), get.get("bias_hh"),
                get.get("weight_hr"))

    def forward(self, input, hx=None):
        from ..utils.rnn import PackedSequence
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        return self._forward(input, hx)

    def _forward_packed(self, packed, hx):
        """A PackedSequence runs as aten's PackedLayer / ReversedPackedLayer: W_ih applied to
        the packed data at once, then one cell step per time step on the first
        batch_sizes[t] rows (narrowed hidden; finished rows set aside and concatenated back
        at the end), step outputs concatenated; dropout between layers on the packed data,
        so the graph and the random draws are PyTorch's."""
        from ..utils.rnn import PackedSequence
        lstm = self.mode == "LSTM"
        data = packed.data
        sizes = [int(v) for v in packed.batch_sizes._data]
        dirs = 2 if self.bidirectional else 1
        real_hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        if data.shape[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {data.shape[-1]}")
        if hx is None:
            hx = _creation.zeros(self.num_layers * dirs, sizes[0], real_hidden,
                                 dtype=data.dtype)
            if lstm:
                hx = (hx, _creation.zeros(self.num_layers * dirs, sizes[0], self.hidden_size,
                                          dtype=data.dtype))
        elif packed.sorted_indices is not None:
            idx = packed.sorted_indices
            hx = tuple(fn.index_select(h, 1, idx) for h in hx) if lstm \
                else fn.index_select(hx, 1, idx)
        hiddens = list(zip(fn.unbind(hx[0], 0), fn.unbind(hx[1], 0))) if lstm \
            else list(fn.unbind(hx, 0))
        finals = []
        layer_input = data
        for layer in range(self.num_layers):
            outs = []
            for d in range(dirs):
                weights = self._weights(layer, d)
                run = _packed_layer_reverse if d == 1 else _packed_layer
                out, final = run(self.mode, layer_input, sizes, hiddens[layer * dirs + d],
                                 weights)
                outs.append(out)
                finals.append(final)
            layer_input = outs[0] if dirs == 1 else fn.cat(outs, -1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_input = F.dropout(layer_input, self.dropout, True)
        if lstm:
            hidden = (fn.stack([h for h, _ in finals], 0), fn.stack([c for _, c in finals], 0))
        else:
            hidden = fn.stack(finals, 0)
        if packed.unsorted_indices is not None:
            idx = packed.unsorted_indices
            hidden = tuple(fn.index_select(h, 1, idx) for h in hidden) if lstm \
                else fn.index_select(hidden, 1, idx)
        return PackedSequence(layer_input, packed.batch_sizes, packed.sorted_indices,
                              packed.unsorted_indices), hidden

    def _forward(self, input, hx=None, batch_sizes=None):
        lstm = self.mode == "LSTM"
        batched = input.dim() == 3
        if batch_sizes is not None:
            batched = True
        if input.dim() not in (2, 3):
            raise ValueError(f"{type(self).__name__}: Expected input to be 2D or 3D, got "
                             f"{input.dim()}D instead")
        if not batched:
            input = fn.unsqueeze(input, 1)
            if hx is not None:
                hx = tuple(fn.unsqueeze(h, 1) for h in hx) if lstm else fn.unsqueeze(hx, 1)
        elif self.batch_first and batch_sizes is None:
            input = fn.transpose(input, 0, 1)
        if input.shape[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.shape[-1]}")
        seq, batch = input.shape[0], input.shape[1]
        dirs = 2 if self.bidirectional else 1
        real_hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        if hx is None:
            h0 = _creation.zeros(self.num_layers * dirs, batch, real_hidden,
                                 dtype=input.dtype)
            c0 = _creation.zeros(self.num_layers * dirs, batch, self.hidden_size,
                                 dtype=input.dtype) if lstm else None
        else:
            h0, c0 = hx if lstm else (hx, None)
        h_n, c_n = [], []
        layer_input = input
        fused = lstm and self.proj_size == 0 and batch_sizes is None and \
            input.dtype == _dtypes.float32
        if fused and self.batch_first and batched:
            layer_input = layer_input.contiguous()   # PyTorch copies it (CloneBackward0)
        for layer in range(self.num_layers):
            outs = []
            for d in range(dirs):
                w_ih, w_hh, b_ih, b_hh, w_hr = self._weights(layer, d)
                h = h0[layer * dirs + d]
                c = c0[layer * dirs + d] if lstm else None
                if fused:   # Note [LSTM layer entry] in _ops/nn_ops.py
                    from ..._ops.nn_ops import lstm_layer
                    out, h, c = lstm_layer(layer_input, w_ih, w_hh, b_ih, b_hh, h, c, d == 1)
                    outs.append(out)
                    h_n.append(h)
                    c_n.append(c)
                    continue
                gi = F.linear(layer_input, w_ih, b_ih)          # every step at once
                steps = range(seq - 1, -1, -1) if d == 1 else range(seq)
                hs = [None] * seq
                for t in steps:
                    h_old, c_old = h, c
                    if lstm:
                        h, c = _lstm_step(gi[t], h, c, w_hh, b_hh, w_hr)
                    else:
                        h = _rnn_step(self.mode, gi[t], h, w_hh, b_hh)
                    hs[t] = h
                    if batch_sizes is not None and batch_sizes[t] < batch:
                        n = batch_sizes[t]   # rows past n are not running at step t
                        h = fn.cat([h[:n], h_old[n:]], 0)
                        if lstm:
                            c = fn.cat([c[:n], c_old[n:]], 0)
                outs.append(fn.stack(hs, 0))
                h_n.append(h)
                if lstm:
                    c_n.append(c)
            layer_input = outs[0] if dirs == 1 else fn.cat(outs, 2)
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_input = F.dropout(layer_input, self.dropout, True)
        output = layer_input
        h_n = fn.stack(h_n, 0)
        c_n = fn.stack(c_n, 0) if lstm else None
        if not batched:
            output = fn.squeeze(output, 1)
            h_n = fn.squeeze(h_n, 1)
            c_n = fn.squeeze(c_n, 1) if lstm else None
        elif self.batch_first and batch_sizes is None:
            output = fn.transpose(output, 0, 1)
        return (output, (h_n, c_n)) if lstm else (output, h_n)


class RNN(RNNBase):
    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        nonlinearity = kwargs.pop("nonlinearity", args[3] if len(args) > 3 else "tanh")
        if len(args) > 3:
            args = args[:3] + args[4:]
        if nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or "
                             "'relu'.")
        self.nonlinearity = nonlinearity
        super().__init__(mode, *args, **kwargs)
        self.nonlinearity = nonlinearity


class LSTM(RNNBase):
    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)


class GRU(RNNBase):
    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)


class RNNCellBase(Module):
    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(_creation.empty(num_chunks * hidden_size, input_size,
                                                   dtype=dtype))
        self.weight_hh = Parameter(_creation.empty(num_chunks * hidden_size, hidden_size,
                                                   dtype=dtype))
        if bias:
            self.bias_ih = Parameter(_creation.empty(num_chunks * hidden_size, dtype=dtype))
            self.bias_hh = Parameter(_creation.empty(num_chunks * hidden_size, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _prepare(self, input, hx, n_state):
        if input.dim() not in (1, 2):
            raise ValueError(f"{type(self).__name__}: Expected input to be 1D or 2D, got "
                             f"{input.dim()}D instead")
        batched = input.dim() == 2
        if not batched:
            input = fn.unsqueeze(input, 0)
        if hx is None:
            zeros = _creation.zeros(input.shape[0], self.hidden_size, dtype=input.dtype)
            hx = zeros if n_state == 1 else (zeros, zeros)
        elif not batched:
            hx = fn.unsqueeze(hx, 0) if n_state == 1 else tuple(fn.unsqueeze(h, 0)
                                                                  for h in hx)
        return input, hx, batched


class RNNCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None,
                 dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device,
                         dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        input, hx, batched = self._prepare(input, hx, 1)
        mode = {"tanh": "RNN_TANH", "relu": "RNN_RELU"}.get(self.nonlinearity)
        if mode is None:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        h = _rnn_step(mode, F.linear(input, self.weight_ih, self.bias_ih), hx,
                      self.weight_hh, self.bias_hh)
        return h if batched else fn.squeeze(h, 0)


class LSTMCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device,
                         dtype=dtype)

    def forward(self, input, hx=None):
        input, (h, c), batched = self._prepare(input, hx, 2)
        h, c = _lstm_step(F.linear(input, self.weight_ih, self.bias_ih), h, c,
                          self.weight_hh, self.bias_hh, None)
        return (h, c) if batched else (fn.squeeze(h, 0), fn.squeeze(c, 0))


class GRUCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device,
                         dtype=dtype)

    def forward(self, input, hx=None):
        input, hx, batched = self._prepare(input, hx, 1)
        h = _rnn_step("GRU", F.linear(input, self.weight_ih, self.bias_ih), hx,
                      self.weight_hh, self.bias_hh)
        return h if batched else fn.squeeze(h, 0)
