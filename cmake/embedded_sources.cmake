# kcs_embed_sources(HEADER NAMESPACE SOURCES...): a build step that writes
# HEADER from the kernel sources (cmake/embed_sources.cmake), so that they
# travel inside an adapter library as text (vendors/opencl, vendors/cuda).
# Each file NAME.EXT becomes `std::string_view NAME` in NAMESPACE, and
# `named("NAME")` finds it. List HEADER among a target's sources.
function(kcs_embed_sources header namespace)
  add_custom_command(
    OUTPUT ${header}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${header} -DNAMESPACE=${namespace} "-DSOURCES=${ARGN}"
            -P ${PROJECT_SOURCE_DIR}/cmake/embed_sources.cmake
    DEPENDS ${ARGN} ${PROJECT_SOURCE_DIR}/cmake/embed_sources.cmake
    COMMENT "Embedding ${namespace}"
    VERBATIM)
endfunction()
