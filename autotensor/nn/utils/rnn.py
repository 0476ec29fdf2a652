"""pad_sequence (PackedSequence is not implemented yet)."""
from ... import _creation


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stack variable-length sequences (L_i, *) into (B, L_max, *) or (L_max, B, *); one
    differentiable write per sequence."""
    if padding_side not in ("left", "right"):
        raise ValueError(f"Expected padding_side to be one of left or right, but got "
                         f"{padding_side}.")
    from ... import _ops as fn
    max_len = max(s.shape[0] for s in sequences)
    trailing = tuple(sequences[0].shape[1:])
    rows = []
    for s in sequences:
        pad = max_len - s.shape[0]
        if pad:
            filler = _creation.full((pad,) + trailing, padding_value, dtype=s.dtype)
            s = fn.cat([s, filler] if padding_side == "right" else [filler, s], 0)
        rows.append(s)
    return fn.stack(rows, 0 if batch_first else 1)
