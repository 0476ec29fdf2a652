"""Transformer, TransformerEncoder(Layer), TransformerDecoder(Layer): PyTorch's modules
(same submodules, registration order and initialisation; the layers of an encoder or
decoder are deep copies of the one given, as PyTorch's ``_get_clones``). Composed of
MultiheadAttention, Linear, Dropout and LayerNorm, so the graph is theirs."""
import copy
import warnings

from ... import _creation, _dtypes
from ... import _ops as fn
from .. import functional as F
from .. import init
from .activation_mha import MultiheadAttention
from .container import ModuleList
from .dropout import Dropout
from .linear import Linear
from .module import Module
from .normalization import LayerNorm

__all__ = ["Transformer", "TransformerEncoder", "TransformerDecoder",
           "TransformerEncoderLayer", "TransformerDecoderLayer"]


def _get_clones(module, n):
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


def _get_activation_fn(activation):
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


def _why_not_nested(layer):
    """Why PyTorch's encoder cannot use nested tensors with this layer ('' if it can)."""
    enc = "encoder_layer"
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{enc} was not TransformerEncoderLayer"
    if layer.norm_first:
        return f"{enc}.norm_first was True"
    if not layer.self_attn.batch_first:
        return (f"{enc}.self_attn.batch_first was not True"
                "(use batch_first for better inference performance)")
    if not layer.self_attn._qkv_same_embed_dim:
        return f"{enc}.self_attn._qkv_same_embed_dim was not True"
    if layer.self_attn.in_proj_bias is None:
        return f"{enc}.self_attn was passed bias=False"
    if not layer.activation_relu_or_gelu:
        return f"{enc}.activation_relu_or_gelu was not True"
    if not layer.norm1.eps == layer.norm2.eps:
        return f"{enc}.norm1.eps was not equal to {enc}.norm2.eps"
    if layer.self_attn.num_heads % 2 == 1:
        return f"{enc}.self_attn.num_heads is odd"
    return ""


def _generate_square_subsequent_mask(sz, device=None, dtype=None):
    return fn.triu(_creation.full((sz, sz), float("-inf"), dtype=dtype), diagonal=1)


class TransformerEncoderLayer(Module):
    __constants__ = ["norm_first"]

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu,
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, bias=True,
                 device=None, dtype=None):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                            batch_first=batch_first, dtype=dtype)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        if isinstance(activation, str):
            activation = _get_activation_fn(activation)
        from .activation import GELU, ReLU
        if activation is F.relu or isinstance(activation, ReLU):
            self.activation_relu_or_gelu = 1
        elif activation is F.gelu or isinstance(activation, GELU):
            self.activation_relu_or_gelu = 2
        else:
            self.activation_relu_or_gelu = 0
        self.activation = activation

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask))
            x = self.norm2(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False)[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout2(x)


class TransformerDecoderLayer(Module):
    __constants__ = ["norm_first"]

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu,
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, bias=True,
                 device=None, dtype=None):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                            batch_first=batch_first, bias=bias, dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                                 batch_first=batch_first, bias=bias,
                                                 dtype=dtype)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)
        if isinstance(activation, str):
            activation = _get_activation_fn(activation)
        self.activation = activation

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=False, memory_is_causal=False):
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask,
                                    memory_key_padding_mask)
            x = x + self._ff_block(self.norm3(x))
        else:
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask))
            x = self.norm2(x + self._mha_block(x, memory, memory_mask,
                                               memory_key_padding_mask))
            x = self.norm3(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask,
                                key_padding_mask=key_padding_mask, need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout3(x)


class TransformerEncoder(Module):
    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True,
                 mask_check=True):
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why = _why_not_nested(encoder_layer)
        if enable_nested_tensor and why:
            warnings.warn(f"enable_nested_tensor is True, but self.use_nested_tensor is False "
                          f"because {why}", stacklevel=2)
            self.use_nested_tensor = False

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
        output = src
        for mod in self.layers:
            output = mod(output, src_mask=mask, src_key_padding_mask=src_key_padding_mask)
        if self._nested_fast_path(src, mask, src_key_padding_mask):
            # Note [Encoder padding in inference]: PyTorch's inference fast path runs the
            # layers on a nested tensor of the unpadded tokens and pads the result with
            # zeros, so padded positions come out 0 (before the final norm)
            keep = fn.logical_not(src_key_padding_mask).unsqueeze(-1)
            output = fn.mul(output, keep.to(output.dtype))
        if self.norm is not None:
            output = self.norm(output)
        return output

    def _nested_fast_path(self, src, mask, kpm):
        from ... import is_grad_enabled
        first = self.layers[0]
        if not self.use_nested_tensor or first.training or src.dim() != 3 or kpm is None \
                or mask is not None or kpm.dtype != _dtypes.bool:
            return False
        keep = ~kpm._data
        if self.mask_check and (keep[:, 1:] & ~keep[:, :-1]).any():   # not left-aligned
            return False
        if is_grad_enabled() and (src.requires_grad or any(
                p.requires_grad for p in first.parameters())):
            return False
        return True


class TransformerDecoder(Module):
    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=None, memory_is_causal=False):
        output = tgt
        for mod in self.layers:
            output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                         tgt_key_padding_mask=tgt_key_padding_mask,
                         memory_key_padding_mask=memory_key_padding_mask)
        if self.norm is not None:
            output = self.norm(output)
        return output


class Transformer(Module):
    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                 dim_feedforward=2048, dropout=0.1, activation=F.relu, custom_encoder=None,
                 custom_decoder=None, layer_norm_eps=1e-5, batch_first=False, norm_first=False,
                 bias=True, device=None, dtype=None):
        super().__init__()
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout,
                                            activation, layer_norm_eps, batch_first,
                                            norm_first, bias, dtype=dtype)
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout,
                                            activation, layer_norm_eps, batch_first,
                                            norm_first, bias, dtype=dtype)
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, norm)
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
                src_key_padding_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, src_is_causal=None, tgt_is_causal=None,
                memory_is_causal=False):
        is_batched = src.dim() == 3
        if not self.batch_first and src.size(1) != tgt.size(1) and is_batched:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if self.batch_first and src.size(0) != tgt.size(0) and is_batched:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.size(-1) != self.d_model or tgt.size(-1) != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask)

    @staticmethod
    def generate_square_subsequent_mask(sz, device=None, dtype=None):
        return _generate_square_subsequent_mask(sz, device, dtype)

    def _reset_parameters(self):
        for p in self.parameters():
            if p.dim() > 1:
                init.xavier_uniform_(p)
