"""op_db samples for the special functions and the pointwise names the catalogue audit
(tests/test_catalogue_audit.py) found missing.

Imported by op_db.py at its end; ``add`` appends to the shared ``SAMPLES`` list.
"""
import numpy as np  # noqa: F401

from op_db import add

# ---- clamp_min / clamp_max (their own nodes), in-place variants --------------------------------
add("clamp_min_fn", lambda m, x: m.clamp_min(x, 0.1), lambda g: [g.away(2, 3)])
add("clamp_max_method", lambda m, x: x.clamp_max(-0.1), lambda g: [g.away(2, 3)])
add("clamp_min_tensor", lambda m, x, lo: m.clamp_min(x, lo), lambda g: [g.u(2, 3), g.u(3)])
add("clamp_max_tensor", lambda m, x, hi: x.clamp_max(hi), lambda g: [g.u(2, 3), g.u(2, 1)])
add("clamp_min_", lambda m, x: (x * 1).clamp_min_(0.2), lambda g: [g.away(4)])
add("clamp_max__fn", lambda m, x: m.clamp_max_(x * 1, 0.2), lambda g: [g.away(4)])
add("clamp_min__tensor", lambda m, x, lo: (x * 1).clamp_min_(lo), lambda g: [g.u(2, 3), g.u(3)])
add("rsqrt_", lambda m, x: (x * 1).rsqrt_(), lambda g: [g.pos(3)])
add("rsqrt__fn", lambda m, x: m.rsqrt_(x * 1), lambda g: [g.pos(3)])
add("reciprocal__fn", lambda m, x: m.reciprocal_(x * 1), lambda g: [g.away(3)])
add("round_", lambda m, x: (x * 1).round_(), lambda g: [g.u(3)])
add("round__decimals", lambda m, x: (x * 1).round_(decimals=1), lambda g: [g.u(3)])
add("cumsum_", lambda m, x: (x * 1).cumsum_(1), lambda g: [g.u(2, 3)])

# ---- incomplete gamma: differentiable in x only (PyTorch's 'igamma: input' error for a) ------
add("igamma", lambda m, a, x: m.igamma(a, x), lambda g: [g.pos(2, 3), g.pos(2, 3)],
    grad=(False, True))
add("igammac_method", lambda m, a, x: a.igammac(x), lambda g: [g.pos(3), g.pos(2, 3, hi=4)],
    grad=(False, True))
add("special_gammainc", lambda m, a, x: m.special.gammainc(a, x),
    lambda g: [g.pos(4, lo=1, hi=3), g.pos(4)], grad=(False, True))
add("special_gammaincc", lambda m, a, x: m.special.gammaincc(a, x),
    lambda g: [g.pos(4, lo=1, hi=3), g.pos(4, hi=5)], grad=(False, True))
add("igamma_", lambda m, a, x: (a * 1).igamma_(x), lambda g: [g.pos(3), g.pos(3)],
    grad=(False, True))
add("igammac_", lambda m, a, x: (a * 1).igammac_(x), lambda g: [g.pos(3), g.pos(3)],
    grad=(False, True))
add("sort_stable", lambda m, x: m.sort(x, stable=True, dim=0)[0], lambda g: [g.u(3, 2)])
