# pointwise probes: target_sources(kcs_suites PRIVATE ...) and nothing else
# C-EXC-01, C-CMP-02 and C-CMP-03 for unary, elementwise and cast (C-CMP-03:
# elementwise and unary), with the calls and oracles they share. The
# tolerance models (ieee_special, subnormal_policy) and subnormal_batches
# come from the exactness probes.
target_sources(kcs_suites PRIVATE
  classes/pointwise_calls.cpp
  classes/pointwise_special.cpp
  classes/pointwise_subnormals.cpp
  classes/pointwise_contraction.cpp
  classes/contraction_signature.cpp
)
