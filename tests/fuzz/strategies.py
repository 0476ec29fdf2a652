"""Hypothesis strategies for fuzz programs (see ``core.py`` for what a program is)."""
from __future__ import annotations

from hypothesis import strategies as st

from .core import (BINARY, CATALOGUE_BINARY, CATALOGUE_DIM_OPS, CATALOGUE_EXTRA_OPS,
                   CATALOGUE_UNARY, DIM_OPS, EXTRA_OPS, UNARY, VIEW_OPS)

ref = st.integers(0, 15)
no_grad = st.sampled_from([False, False, False, False, True])

shapes = st.one_of(
    st.just(()),
    st.lists(st.integers(0, 4), min_size=1, max_size=3).map(tuple),
    st.lists(st.integers(1, 3), min_size=1, max_size=3).map(tuple),
)
float_dtypes = st.sampled_from(["float32", "float64"])
dtypes = st.sampled_from(["float32", "float32", "float64", "float64", "int64", "int64", "bool",
                          "int32", "uint8", "float16", "float16", "bfloat16"])


@st.composite
def leaf(draw, float_only=False):
    dtype = draw(float_dtypes if float_only else dtypes)
    floating = dtype.startswith("float") or dtype == "bfloat16"
    # requires_grad mostly on floats; now and then on an int/bool (PyTorch's error)
    rg = draw(st.booleans()) if floating else draw(st.sampled_from([False] * 9 + [True]))
    return ("leaf", draw(shapes), dtype, draw(st.integers(0, 2**16)),
            draw(st.sampled_from([0] * 6 + [1, 2, 3, 4, 5])), rg,
            draw(st.sampled_from([0, 0, 1, 2, 3, 3])), False)


unary = st.tuples(st.just("unary"), ref, st.sampled_from(UNARY), no_grad)
binary = st.tuples(st.just("binary"), ref, ref, st.sampled_from(BINARY), st.integers(0, 40),
                   st.booleans(), no_grad)
dim_step = st.tuples(st.just("dim"), ref, st.sampled_from(DIM_OPS), st.integers(0, 45),
                     st.integers(0, 45), st.booleans(), no_grad)
view = st.tuples(st.just("view"), ref, ref, st.sampled_from(VIEW_OPS), st.integers(0, 20),
                 st.integers(0, 2**16), no_grad)
backward = st.tuples(st.just("backward"), ref, st.sampled_from([0, 0, 1, 2]), st.booleans(),
                     st.sampled_from([False, False, True]),
                     st.lists(ref, max_size=2).map(tuple), st.just(False))
grad = st.tuples(st.just("grad"), ref, st.lists(ref, max_size=2).map(tuple), st.booleans(),
                 st.sampled_from([False, True]), st.booleans(), st.sampled_from([0, 0, 1]),
                 st.just(False))

extra = st.tuples(st.just("extra"), ref, st.sampled_from(EXTRA_OPS), no_grad)

step = st.one_of(unary, binary, dim_step, view, backward, grad, extra)

# with the op catalogue (issue 11) as well
catalogue_step = st.one_of(
    step,
    st.tuples(st.just("unary"), ref, st.sampled_from(CATALOGUE_UNARY), no_grad),
    st.tuples(st.just("binary"), ref, ref, st.sampled_from(CATALOGUE_BINARY),
              st.integers(0, 40), st.booleans(), no_grad),
    st.tuples(st.just("dim"), ref, st.sampled_from(CATALOGUE_DIM_OPS), st.integers(0, 45),
              st.integers(0, 45), st.booleans(), no_grad),
    st.tuples(st.just("extra"), ref, st.sampled_from(CATALOGUE_EXTRA_OPS), no_grad))


@st.composite
def programs(draw, max_steps=12, catalogue=False):
    inputs = [draw(leaf(float_only=True))]
    inputs += draw(st.lists(leaf(), min_size=0, max_size=2))
    steps = draw(st.lists(catalogue_step if catalogue else step, min_size=1,
                          max_size=max_steps))
    return inputs, steps
