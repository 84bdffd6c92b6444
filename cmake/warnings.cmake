# Our own code builds warning-free; dependencies' headers are SYSTEM and exempt.
add_library(kcs_warnings INTERFACE)
target_compile_options(kcs_warnings INTERFACE -Wall -Wextra -Werror)
