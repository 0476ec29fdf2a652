"""Print autotensor/_argparse.py's SIGNATURES table from PyTorch's own PythonArgParser
signature strings (literals in libtorch_python.so), each variant's non-hidden list checked
against (and ordered as) the list torch's own "invalid combination" error prints. Run once
with torch installed; paste the output into the table and review it; a line on stderr is a
name it could not settle.

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
            sigs = EXTRA[key]
        else:
            sigs = variant(name, kind == "T", cands.get(C_NAMES.get(key, name), []), kind)
        print(entry(key, sigs))


def entry(key, sigs, width=100):
    """One table entry as the table spells it: on one line if it fits, else one string a
    line, split after ", " to stay within ``width``."""
    one = f"    {key!r}: {sigs!r},"
    if len(one) <= width:
        return one
    lines = [f"    {key!r}: ["]
    for s in sigs:
        while len(repr(s)) + 9 > width:
            cut = max(i + 2 for i in range(len(s)) if s.startswith(", ", i) and
                      len(repr(s[:i + 2])) + 8 <= width)
            lines.append(f"        {s[:cut]!r}")
            s = s[cut:]
        lines.append(f"        {s!r},")
    return "\n".join(lines + ["    ],"])


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
    tzeros_like tones_like tfull_like tempty_like trand_like trandn_like trandint tlinspace
    teye tpow trsqrt tlog1p texpm1 tfloor tceil tround tsign tclamp_min tclamp_max tall tany
    teq tne tlt tgt tle tge tisnan tisinf tisfinite tlogical_not tlogical_and tlogical_or
    tlerp targsort tcumprod tnonzero tmasked_select tflip troll ttril ttriu tdiag touter
    tdot tmv taddmm tbaddbmm tchunk tunbind tvar_mean tstd_mean tallclose tisclose tequal
    tconv1d tconv2d tconv3d tconv_transpose1d tconv_transpose2d tembedding tlayer_norm
    tdropout tbatch_norm tgroup_norm tdiagonal tmovedim ttile trepeat_interleave tindex_add
    tcount_nonzero tsquare terf tlog2 tlog10 tatan2 tfmod tremainder tfloor_divide
    tbernoulli tmultinomial tclone tdetach tbroadcast_to ttake_along_dim tbucketize
    tsearchsorted tkron ttrace tcross tcummax tcummin tkthvalue tmedian tmode tlogcumsumexp
    tnansum tnanmean tsinh tcosh ttan tasin tacos tatan terfinv treciprocal ttrunc tfrac
    thardshrink tpixel_shuffle tpixel_unshuffle tavg_pool1d tadaptive_avg_pool1d tmax_pool1d
    tmax_pool2d tas_strided tindex_fill tindex_copy tscatter_reduce tunflatten tswapaxes
    Tview_as Treshape_as Texpand_as Tclone Tdetach_ Tunbind Tchunk Tflip Troll Tpow Tpow_
    Trsqrt Tfloor Tceil Tround Tsign Teq Tne Tlt Tgt Tle Tge Tall Tany Targsort Tcumprod
    Tnonzero Tmasked_select Tmasked_fill_ Ttril Ttriu Tdiag Touter Tdot Tmv Taddmm Tuniform_
    Tnormal_ Tnew_zeros Tnew_ones Tnew_full Tnew_empty Tnew_tensor Tmovedim Tlog1p Texpm1
    Tlerp Tindex_add_ Tindex_fill_ Tscatter_ Tunfold Tdiagonal Tclamp_min Tclamp_max Tsquare
    Texp_ Tlog_ Tabs_ Tneg_ Tsqrt_ Trelu_ Tsigmoid_ Ttanh_ Trepeat_interleave Ttile
    Tunsqueeze_ Tsqueeze_ Tt_ Ttranspose_ Tbernoulli_ Texponential_ Trandom_ Tfill_diagonal_
    Tindex_add Tindex_fill Tindex_copy Tscatter_reduce Tas_strided Tcumsum_ Tlog2 Terf Tsinh
    Tcosh Treciprocal Ttrunc Tfrac Tlogical_not Tlogical_and Tcount_nonzero Tkthvalue
    Tmedian Tmode Tcummax Tcummin Tnansum Tnanmean Tclamp_max_ Tclamp_min_ Tmasked_scatter
    Ttake_along_dim Tswapaxes Tbroadcast_to Tallclose Tisclose Tequal Fgelu Fsoftplus
    Fsoftshrink Flogsigmoid Fscaled_dot_product_attention Favg_pool2d Favg_pool3d
    Fchannel_shuffle
    """.split()
# (left out: the Tensor methods under a microsecond, where the guard's frame would cost
# 10-300%: size dim numel item stride is_contiguous element_size nelement ndimension detach
# contiguous tolist numpy cpu float double long int bool half type_as requires_grad_ isnan,
# and torch.numel)

if __name__ == "__main__":
    main(NAMES)
