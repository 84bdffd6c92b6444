# precision probes: target_sources(kcs_suites PRIVATE ...) and nothing else
# C-PRC-01, C-PRC-02, C-PRC-03 and C-ORD-01 for matmul, reduce_sum and softmax,
# with the tolerance models they apply (dot_bound, stability_bound,
# exact_when_representable, order_bound).
target_sources(kcs_suites PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/tolerance/model_citation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tolerance/dot_bound.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tolerance/element_judgement.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tolerance/output_underflow.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tolerance/order_bound.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tolerance/stability_bound.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tolerance/exact_when_representable.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/reduction_problems.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/precision_signatures.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/accumulator_preservation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/cancellation_overflow_safety.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/declared_compute_precision.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/order_sweep.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/bounded_path_dependence.cpp
)
