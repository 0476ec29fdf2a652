"""Anomaly mode vs PyTorch: switches, the NaN check, the forward-traceback warning before an
error in backward, and our addition to the modified-by-inplace message."""
import re
import warnings

import numpy as np

import autotensor
from differential import catch, compare

X = np.array([1.0, 0.0, 4.0])


def _warnings_of(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        result = catch(fn)
    return result, [str(m.message) for m in w]


def test_switches():
    def scenario(torch):
        r = [torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()]
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            with torch.autograd.detect_anomaly(check_nan=False):
                r += [torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()]
        r += [str(m.message) for m in w]
        r += [torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()]
        with torch.autograd.set_detect_anomaly(True, check_nan=False):
            r += [torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()]
        r.append(torch.is_anomaly_enabled())
        torch.autograd.set_detect_anomaly(True)
        r.append(torch.is_anomaly_enabled())
        torch.autograd.set_detect_anomaly(False)
        r.append(torch.is_anomaly_enabled())
        r.append(catch(lambda: torch.autograd.detect_anomaly()(lambda: 1)))
        return r

    compare(scenario)


def _first_line_of_warning(messages):
    """The warning names the node and the forward line; compare it up to the file name."""
    out = []
    for m in messages:
        m = re.sub(r'File "[^"]*", line \d+, in \S+', "File", m)
        out.append(m.split("\n")[0] + " | " + m.split("\n")[2].strip()
                   if "\n" in m else m)
    return out


def test_nan_check_and_traceback_warning():
    def scenario(torch):
        x = torch.tensor(X, requires_grad=True)
        with torch.autograd.detect_anomaly():
            y = x.sqrt()
            z = (y * 0).sum()
            err, msgs = _warnings_of(lambda: torch.autograd.grad(z, x))
        tb = y.grad_fn.metadata["traceback_"]
        with torch.autograd.detect_anomaly(check_nan=False):
            y = x.sqrt()
            ok = torch.autograd.grad((y * 0).sum(), x)
        return (err, _first_line_of_warning(msgs[1:] if len(msgs) > 1 else msgs),
                "y = x.sqrt()" in tb[-1], ok)

    compare(scenario)


def test_error_in_custom_backward_is_preceded_by_the_forward_traceback():
    def scenario(torch):
        class Bad(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                raise RuntimeError("Some error in backward")

        x = torch.tensor(X, requires_grad=True)
        plain, plain_warn = _warnings_of(lambda: Bad.apply(x).sum().backward())
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with torch.autograd.detect_anomaly():
                out = Bad.apply(x).sum()
                err, msgs = _warnings_of(out.backward)
        return plain, plain_warn, err, _first_line_of_warning(msgs)

    compare(scenario)


def test_modified_by_inplace_message_in_anomaly_mode():
    def scenario(torch):
        x = torch.tensor(X + 1, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with torch.autograd.set_detect_anomaly(True):
                b = x.sin()
                c = b.cos()
                b.mul_(2)
                err = catch(c.sum().backward)
        # PyTorch's message comes first, unchanged; ours may only add after it
        torch_part = err.message.split(" [autotensor]")[0] if hasattr(err, "message") else err
        return type(err).__name__, torch_part

    compare(scenario)


def test_modified_by_inplace_names_the_op_and_line():
    torch = autotensor
    x = torch.tensor(X + 1, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.set_detect_anomaly(True):
            b = x.sin()
            c = b.cos()
            b.mul_(2)  # the line the message must name
            err = catch(c.sum().backward)
            leaf_err = catch(lambda: (lambda a: (a.sin(), a.add_(1)))(x * 1)[0]
                             .sum().backward())
    assert err.message.startswith("one of the variables needed for gradient computation")
    assert "Good luck!" in err.message
    assert "mul" in err.message.split("[autotensor]")[1]
    assert "test_anomaly.py" in err.message and "b.mul_(2)" in err.message
    assert "add" in leaf_err.message.split("[autotensor]")[1]
    # outside anomaly mode the message is PyTorch's alone
    b = x.sin()
    c = b.cos()
    b.mul_(2)
    plain = catch(c.sum().backward)
    assert "[autotensor]" not in plain.message and "set_detect_anomaly" in plain.message


def test_nodes_made_in_anomaly_mode_carry_tracebacks_and_parents():
    torch = autotensor
    x = torch.tensor(X + 1, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.detect_anomaly():
            y = (x ** 3).sum()
            (g,) = torch.autograd.grad(y, x, create_graph=True)
    assert "y = (x ** 3).sum()" in y.grad_fn.metadata["traceback_"][-1]
    assert g.grad_fn.metadata["parent_"] is not None
    z = x.exp()
    assert "traceback_" not in z.grad_fn.metadata
