"""MultiheadAttention (``torch.nn.MultiheadAttention``), composed from linear, bmm and
softmax along PyTorch's ``multi_head_attention_forward`` (need_weights path: the query
scaled first, masks added, softmax, dropout, bmm, output projection)."""
import math

from ... import _creation
from ... import _ops as fn
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .linear import Linear
from .module import Module

__all__ = ["MultiheadAttention"]


class NonDynamicallyQuantizableLinear(Linear):
    pass


def _float_mask(mask, dtype, name):
    """A bool mask (True: not allowed) as -inf/0 floats; a float mask as is."""
    if mask is None:
        return None
    if mask.dtype.is_floating_point:
        return mask
    if str(mask.dtype) != "torch.bool":
        raise AssertionError(f"only bool and floating types of {name} are supported")
    zeros = _creation.zeros(mask.shape, dtype=dtype)
    return fn.masked_fill(zeros, mask, float("-inf"))


def _static(name, t, rows, head_dim):
    """A given static key/value, checked with PyTorch's messages (None if not given)."""
    if t is not None and t.shape[0] != rows:
        raise AssertionError(f"expecting static_{name}.size(0) of {rows}, but got {t.shape[0]}")
    if t is not None and t.shape[2] != head_dim:
        raise AssertionError(f"expecting static_{name}.size(2) of {head_dim}, but got "
                             f"{t.shape[2]}")
    return t


class MultiheadAttention(Module):
    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False, device=None,
                 dtype=None):
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got "
                             f"embed_dim={embed_dim} and num_heads={num_heads} instead")
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(_creation.empty(embed_dim, embed_dim, dtype=dtype))
            self.k_proj_weight = Parameter(_creation.empty(embed_dim, self.kdim, dtype=dtype))
            self.v_proj_weight = Parameter(_creation.empty(embed_dim, self.vdim, dtype=dtype))
            self.register_parameter("in_proj_weight", None)
        else:
            self.in_proj_weight = Parameter(_creation.empty(3 * embed_dim, embed_dim,
                                                            dtype=dtype))
            self.register_parameter("q_proj_weight", None)
            self.register_parameter("k_proj_weight", None)
            self.register_parameter("v_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(_creation.empty(3 * embed_dim, dtype=dtype))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        dtype=dtype)
        if add_bias_kv:
            self.bias_k = Parameter(_creation.empty(1, 1, embed_dim, dtype=dtype))
            self.bias_v = Parameter(_creation.empty(1, 1, embed_dim, dtype=dtype))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self):
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            init.xavier_uniform_(self.q_proj_weight)
            init.xavier_uniform_(self.k_proj_weight)
            init.xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            init.xavier_normal_(self.bias_v)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True,
                attn_mask=None, average_attn_weights=True, is_causal=False):
        batched = query.dim() == 3
        if self.batch_first and batched:
            query, key, value = (fn.transpose(t, 0, 1) for t in (query, key, value))
        if not batched:
            query, key, value = (fn.unsqueeze(t, 1) for t in (query, key, value))
            if key_padding_mask is not None:
                key_padding_mask = fn.unsqueeze(key_padding_mask, 0)
        tgt_len, bsz, e = query.shape
        src_len = key.shape[0]
        h, d = self.num_heads, self.head_dim
        w, b = self.in_proj_weight, self.in_proj_bias
        if self._qkv_same_embed_dim:
            ws = fn.chunk(w, 3, 0)
        else:
            ws = (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight)
        bs = fn.chunk(b, 3, 0) if b is not None else (None, None, None)
        if query is key and key is value and self._qkv_same_embed_dim:
            proj = F.linear(query, w, b)
            proj = fn.squeeze(fn.transpose(fn.unsqueeze(fn.unflatten(proj, -1, (3, e)), 0),
                                           0, -2), -2).contiguous()
            q, k, v = proj[0], proj[1], proj[2]
        else:
            q = F.linear(query, ws[0], bs[0])
            k = F.linear(key, ws[1], bs[1])
            v = F.linear(value, ws[2], bs[2])
        mask = _float_mask(attn_mask, q.dtype, "attn_mask")
        if mask is not None and mask.dim() == 2:
            mask = fn.unsqueeze(mask, 0)
        kpm_raw = key_padding_mask
        if self.bias_k is not None:   # one learned key/value appended to the sequence
            for name in ("key", "value"):
                if getattr(self, "static_" + name[0], None) is not None:
                    raise AssertionError(f"bias cannot be added to static {name}.")
            k = fn.cat([k, self.bias_k.expand(1, bsz, e)])
            v = fn.cat([v, self.bias_v.expand(1, bsz, e)])
            mask = None if mask is None else F.pad(mask, (0, 1))
            kpm_raw = None if kpm_raw is None else F.pad(kpm_raw, (0, 1))
        q = fn.transpose(q.reshape(tgt_len, bsz * h, d), 0, 1)
        # F.multi_head_attention_forward's static_k / static_v ((bsz * heads, S, head_dim))
        # replace the projected keys / values (PyTorch still projects them first)
        static_k = _static("k", getattr(self, "static_k", None), bsz * h, d)
        static_v = _static("v", getattr(self, "static_v", None), bsz * h, d)
        k = fn.transpose(k.reshape(k.shape[0], bsz * h, d), 0, 1) if static_k is None \
            else static_k
        v = fn.transpose(v.reshape(v.shape[0], bsz * h, d), 0, 1) if static_v is None \
            else static_v
        if self.add_zero_attn:        # and a zero key/value per head
            zeros = _creation.zeros(bsz * h, 1, d, dtype=k.dtype)
            k, v = fn.cat([k, zeros], 1), fn.cat([v, zeros], 1)
            mask = None if mask is None else F.pad(mask, (0, 1))
            kpm_raw = None if kpm_raw is None else F.pad(kpm_raw, (0, 1))
        src_len = k.shape[1]
        key_padding_mask = kpm_raw
        if key_padding_mask is not None:
            kpm = _float_mask(key_padding_mask, q.dtype, "key_padding_mask")
            kpm = kpm.reshape(bsz, 1, 1, src_len).expand(bsz, h, 1, src_len)
            kpm = kpm.reshape(bsz * h, 1, src_len)
            mask = kpm if mask is None else mask + kpm
        q_scaled = fn.mul(q, math.sqrt(1.0 / float(d)))
        weights = fn.bmm(q_scaled, fn.transpose(k, -2, -1))
        if mask is not None:
            weights = weights + mask
        weights = fn.softmax(weights, -1)
        if self.dropout > 0.0 and self.training:
            weights = F.dropout(weights, self.dropout, True)
        out = fn.bmm(weights, v)
        out = fn.transpose(out, 0, 1).contiguous().reshape(tgt_len * bsz, e)
        out = F.linear(out, self.out_proj.weight, self.out_proj.bias)
        out = out.reshape(tgt_len, bsz, e)
        weights = weights.reshape(bsz, h, tgt_len, src_len)
        if average_attn_weights:
            weights = fn.mean(weights, 1)
        if not batched:
            out = fn.squeeze(out, 1)
            weights = fn.squeeze(weights, 0)
        elif self.batch_first:
            out = fn.transpose(out, 0, 1)
        return out, (weights if need_weights else None)
