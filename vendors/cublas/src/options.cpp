#include "options.hpp"

#include <limits>
#include <string>
#include <string_view>

#include "adapter_failure.hpp"
#include "option_list.hpp"

namespace kcs::cublas_adapter {

namespace {

constexpr const char* kName = "cublas";
constexpr const char* kAccepted =
    "device=N, math=default|tf32|pedantic, reduced_precision_reduction=true|false, atomics=allowed|not_allowed, "
    "workspace=BYTES, api=cublas|cublaslt, algorithm=N, split_k=N";

}  // namespace

const char* name_of(Math math) {
    switch (math) {
        case Math::tf32: return "tf32";
        case Math::pedantic: return "pedantic";
        default: return "default";
    }
}

const char* name_of(Api api) { return api == Api::cublaslt ? "cublaslt" : "cublas"; }

Options parse_options(const char* const* options, std::uint32_t option_count) {
    Options parsed;
    bool handle_modes = false, lt_choices = false;  // given: what only one api takes
    device::for_each_option(options, option_count, kName, kAccepted, [&](std::string_view key, const std::string& value) {
        if (key == "device") {
            parsed.device = static_cast<int>(device::parse_whole_number(key, value, std::numeric_limits<int>::max(),
                                                                        "a device index from 0"));
        } else if (key == "math") {
            parsed.math = static_cast<Math>(device::parse_choice(key, value, {"default", "tf32", "pedantic"}));
        } else if (key == "reduced_precision_reduction") {
            parsed.reduced_precision_reduction = device::parse_choice(key, value, {"false", "true"}) == 1;
            handle_modes = true;
        } else if (key == "atomics") {
            parsed.atomics = device::parse_choice(key, value, {"not_allowed", "allowed"}) == 1;
            handle_modes = true;
        } else if (key == "api") {
            parsed.api = static_cast<Api>(device::parse_choice(key, value, {"cublas", "cublaslt"}));
        } else if (key == "algorithm") {
            parsed.algorithm = static_cast<int>(device::parse_whole_number(key, value, 63, "a heuristic result from 0 to 63"));
            lt_choices = true;
        } else if (key == "split_k") {
            constexpr const char* parts = "a number of parts from 1 to 1024";
            parsed.split_k = static_cast<int>(device::parse_whole_number(key, value, kMaxSplitK, parts));
            if (*parsed.split_k == 0) device::invalid("split_k=0: expected " + std::string(parts));
            lt_choices = true;
        } else if (key == "workspace") {
            parsed.workspace =
                device::parse_whole_number(key, value, std::numeric_limits<std::uint64_t>::max(), "a number of bytes");
        } else {
            device::unknown_option(key, kName, kAccepted);
        }
    });
    if (parsed.api == Api::cublaslt && handle_modes)
        device::invalid("reduced_precision_reduction= and atomics= are modes of a cuBLAS handle; api=cublaslt "
                        "has none (its split-K parts are summed in the compute type)");
    if (parsed.api == Api::cublas && lt_choices)
        device::invalid("algorithm= and split_k= choose cuBLASLt's algorithm: they need api=cublaslt");
    return parsed;
}

}  // namespace kcs::cublas_adapter
