"""Anomaly detection: the forward traceback of a node whose backward failed, NaN checks.

Note [Anomaly mode]
~~~~~~~~~~~~~~~~~~~
While it is on (a process-wide switch, as in PyTorch), every node made records the stack
of the forward call that made it in ``node.metadata["traceback_"]`` (dispatch reads one
flag per op, ``state.extras``: Note [Saved-tensor hooks] in saved.py), and every in-place
op records on the version counter it bumps which op did it and where. In backward, an
error raised by a node is preceded by PyTorch's warning carrying that traceback; with
``check_nan`` a node returning NaN raises. Beyond PyTorch, the "modified by an inplace
operation" error then also names the op and file:line that bumped the version.
"""
import os
import sys
import traceback
import warnings

from . import grad_mode

_enabled = False
_check_nan = True
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def is_anomaly_enabled():
    return _enabled


def is_anomaly_check_nan_enabled():
    return _check_nan


def set_anomaly_enabled(enabled, check_nan=True):
    global _enabled, _check_nan
    _enabled = bool(enabled)
    _check_nan = bool(check_nan)
    # threads without saved-tensor hooks read the class default
    grad_mode._State.extras = _enabled


class detect_anomaly:
    """Context manager that turns anomaly detection on (see Note [Anomaly mode])."""

    def __init__(self, check_nan=True):
        self.prev = is_anomaly_enabled()
        self.check_nan = check_nan
        self.prev_check_nan = is_anomaly_check_nan_enabled()
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime "
                      "and should only be enabled for debugging.", stacklevel=2)

    def __enter__(self):
        set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *args):
        set_anomaly_enabled(self.prev, self.prev_check_nan)


class set_detect_anomaly:
    """Turns anomaly detection on or off at once; as a context manager, restores it."""

    def __init__(self, mode, check_nan=True):
        self.prev = is_anomaly_enabled()
        self.prev_check_nan = is_anomaly_check_nan_enabled()
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *args):
        set_anomaly_enabled(self.prev, self.prev_check_nan)


def _user_stack():
    """The current stack as ``traceback.format_stack`` entries, without our own frames."""
    frames = [f for f in traceback.extract_stack(sys._getframe(2))
              if not f.filename.startswith(_PACKAGE)]
    return traceback.format_list(frames)


def record_traceback(node):
    """Called for each new node while ``state.extras`` is set: remember where the forward
    call was (anomaly mode only; hooks alone also set the flag)."""
    if _enabled:
        meta = node._extra()["metadata"]
        meta["traceback_"] = _user_stack()
        parent = grad_mode.state.current_node
        if parent is not None:  # made by a backward (create_graph): PyTorch links it
            meta["parent_"] = parent


def record_inplace(vc, op_name):
    """Remember on a version counter which in-place op bumped it last, and where (the
    innermost frame outside autotensor: file:line and the source line)."""
    frames = [f for f in traceback.extract_stack(sys._getframe(1))
              if not f.filename.startswith(_PACKAGE)]
    if frames:
        f = frames[-1]
        where = f"{f.filename}:{f.lineno}" + (f" ({f.line.strip()})" if f.line else "")
    else:
        where = "<unknown>"
    name = op_name if op_name.endswith("_") else op_name + "_"
    vc[1:] = [(vc[0], name, where)]


_HINT = ("Hint: enable anomaly detection to find the operation that failed to compute its "
         "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")
_ANOMALY_HINT = ("Hint: the backtrace further above shows the operation that failed to "
                 "compute its gradient. The variable in question was changed in there or "
                 "anywhere later. Good luck!")


def modified_message(msg, vc):
    """The modified-by-inplace error: PyTorch's message (with its anomaly-mode hint), then,
    in anomaly mode, our addition naming the in-place op and where it ran."""
    if not _enabled:
        return msg
    msg = msg.replace(_HINT, _ANOMALY_HINT)
    if len(vc) > 1:
        version, op_name, where = vc[1]
        msg += (f" [autotensor] The version went to {version} by {op_name} at {where}.")
    return msg


def traceback_message(node):
    """PyTorch's warning before an error in backward: the forward call's traceback."""
    meta = node._hooks["metadata"] if node._hooks is not None else {}
    stack = meta.get("traceback_")
    if stack is None:
        return (f"Error detected in {node.name()}. No forward pass information available. "
                f"Enable detect anomaly during forward pass for more information.")
    msg = (f"Error detected in {node.name()}. Traceback of forward call that caused the "
           f"error:\n" + "".join(stack))
    parent = meta.get("parent_")
    while parent is not None:
        pmeta = parent._hooks["metadata"] if parent._hooks is not None else {}
        pstack = pmeta.get("traceback_")
        if pstack is None:
            msg += ("\n\nPrevious calculation was induced by " + parent.name() +
                    ". No forward pass information available. Enable detect anomaly during "
                    "forward pass for more information.")
            break
        msg += ("\n\nPrevious calculation was induced by " + parent.name() + ". Traceback of "
                "forward call that induced the previous calculation:\n" + "".join(pstack))
        parent = pmeta.get("parent_")
    return msg


def warn_node_error(node):
    warnings.warn(traceback_message(node) + " (Triggered internally at "
                  "/__w/pytorch/pytorch/torch/csrc/autograd/python_anomaly_mode.cpp:122.)",
                  UserWarning, stacklevel=4)


def check_nan(node, outs):
    """With check_nan, a node's gradient containing NaN raises PyTorch's error."""
    from .._backend import np
    for i, g in enumerate(outs):
        if g is None:
            continue
        data = g._data if hasattr(g, "_data") else g
        if data.dtype.kind in "fc" and np.isnan(data).any():
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th "
                               f"output.")
