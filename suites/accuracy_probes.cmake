# accuracy probes: target_sources(kcs_suites PRIVATE ...) and nothing else
# C-CMP-01 for unary and C-PRC-04 for cast, unary and elementwise, on the
# chunked sweep (every f16 and bf16 pattern; every f32 pattern at depth full),
# and the store judging that C-PRC-04 shares with conversion_rounding.cpp.
target_sources(kcs_suites PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/classes/exhaustive_sweep.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/store_judging.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/unary_accuracy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/cast_rounding.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/pointwise_rounding.cpp
)
# The per-element judging loops of the sweeps: without FP trap semantics (no
# flag is read) so that selects replace branches and the loops vectorise.
set_source_files_properties(
  ${CMAKE_CURRENT_LIST_DIR}/classes/exhaustive_sweep.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/unary_accuracy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/cast_rounding.cpp
  TARGET_DIRECTORY kcs_suites PROPERTIES COMPILE_OPTIONS "-fno-trapping-math")
