"""Print autotensor/_argparse.py's SIGNATURES table from PyTorch's own PythonArgParser
signature strings (literals in libtorch_python.so), each variant's non-hidden list checked
against (and ordered as) the list torch's own "invalid combination" error prints. Run once
with torch installed; paste the output into the table (wrapped at 100 columns) and review
it; a line on stderr is a name it could not settle.

    python tools/gen_argparse_table.py > /tmp/table.py
"""
import os
import re
import sys

import torch

import autotensor._argparse as ap

LIB = os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_python.so")
SIG = re.compile(rb"^([a-z_0-9]+)\((.*)\)(\|(?:hidden|deprecated))?$")


def strings(path):
    """Printable runs of the shared library, in file order (as `strings` prints them)."""
    data = open(path, "rb").read()
    for m in re.finditer(rb"[\x20-\x7e]{4,}", data):
        if SIG.match(m.group()):
            yield m.group().decode()


def candidates():
    out = {}
    for s in strings(LIB):
        name = s[:s.index("(")]
        out.setdefault(name, [])
        if s not in out[name]:
            out[name].append(s)
    return out


def is_function_sig(s):
    return ("Tensor input" in s or "out=None" in s or "Scalar self" in s
            or s.startswith(("where(Tensor condition)", "tensor(")))


def torch_listing(call):
    """The displayed signatures torch's parser prints for a call no overload takes, or
    None for a single-signature parser."""
    try:
        call()
    except TypeError as e:
        msg = str(e)
        if "expected one of:" not in msg:
            return None
        return [ln[3:] for ln in msg.split("\n") if ln.startswith(" * ")]
    return None


def variant(name, method, cands, kind):
    if not hasattr(torch.Tensor, name) or not hasattr(torch, name) and kind != "F":
        sigs = cands
    else:
        sigs = [s for s in cands if is_function_sig(s) != method]
    if kind == "F":
        f = getattr(torch.nn.functional, name)
    elif method:
        f = getattr(torch.ones(1), name)
    else:
        f = getattr(torch, name)
    shown = torch_listing(lambda: f(**{f"zzz{i}": object() for i in range(12)}))
    visible = [s for s in sigs if "|" not in s]
    if shown is not None:
        picked = []
        for line in shown:
            hits = [s for s in visible if ap.Signature(s).display() == line] or [
                s for s in cands if "|" not in s and ap.Signature(s).display() == line]
            if not hits:
                print(f"# {kind}{name}: no string renders as {line!r}", file=sys.stderr)
                continue
            picked.append(hits[0])
        return picked + [s for s in sigs if "|" in s]  # (hidden ones parse, never listed)
    if method and not visible:
        try:
            f(1)
        except TypeError as e:
            if "takes no arguments" in str(e):
                return [f"{name}()|noargs"]
    if len(visible) != 1:
        print(f"# {kind}{name}: {len(visible)} candidates {visible}", file=sys.stderr)
    return visible[:1] + [s for s in sigs if "|" in s]


# reviewed by hand: a hidden overload torch's listing cannot show, a string the binary keeps
# elsewhere (torch.norm and Tensor.norm are Python functions: no parser, left out)
EXTRA = {
    "Tcopy_": ["copy_(Tensor other, bool non_blocking=False)",
               "copy_(Storage src, bool? non_blocking=None)|hidden"],
    "Fone_hot": ["one_hot(Tensor input, int64_t num_classes=-1)"],
}


# nn.functional's C-bound functions under another name in the binary
C_NAMES = {"Flogsigmoid": "log_sigmoid"}


def main(names):
    cands = candidates()
    for key in names:
        kind, name = key[0], key[1:]
        if key in EXTRA:
            print(f"    {key!r}: {EXTRA[key]!r},")
            continue
        c_name = C_NAMES.get(key, name)
        sigs = variant(name, kind == "T", cands.get(c_name, []), kind)
        print(f"    {key!r}: {sigs!r},")


NAMES = """
    tadd tsub tmul tdiv texp tlog tsqrt tsin tcos ttanh tsigmoid tabs tneg trelu
    tsum tmean tmax tmin tstd tvar tprod targmax targmin tamax tamin tsoftmax
    tlog_softmax treshape tpermute ttranspose tsqueeze tunsqueeze tflatten tcat tstack
    tindex_select tgather tscatter tscatter_add tmatmul tmm tbmm tzeros tones tempty tfull
    trand trandn tarange ttensor tclamp twhere tcumsum tlogsumexp tmaximum tminimum
    tmasked_fill tnarrow tselect tt ttopk tsort tbilinear tprelu tcosine_similarity
    tpairwise_distance tpdist
    Tadd Tsub Tmul Tdiv Texp Tlog Tsqrt Tsin Tcos Ttanh Tsigmoid Tabs Tneg Trelu
    Tsum Tmean Tmax Tmin Tstd Tvar Tprod Targmax Targmin Tamax Tamin Tsoftmax
    Tlog_softmax Tview Treshape Tpermute Ttranspose Tsqueeze Tunsqueeze Tflatten Texpand
    Trepeat Tindex_select Tgather Tscatter Tscatter_add Tmatmul Tmm Tbmm Tto Ttype Tclamp
    Twhere Tcumsum Tlogsumexp Tmaximum Tminimum Tmasked_fill Tnarrow Tselect Tt Ttopk Tsort
    Tadd_ Tmul_ Tsub_ Tdiv_ Tclamp_ Tfill_ Tcopy_ Tzero_
    Flinear Fone_hot
    """.split()

if __name__ == "__main__":
    main(NAMES)
