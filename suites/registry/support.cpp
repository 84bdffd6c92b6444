#include "support.hpp"

#include <optional>

#include "../ordering/gather_problems.hpp"
#include "../ordering/row_problems.hpp"
#include "kcs/harness/guarded_device.hpp"

namespace kcs::suites {

std::vector<harness::Invocation> declare_instance_form(const harness::Instance& instance) {
    if (instance.op->id == "gather") return {declared_gather(instance, {4, 3, 2})};
    const RowOperator op(instance);
    const auto dims = op.id() == "matmul" || op.id() == "attention" ? std::vector<std::int64_t>{2, 3, 4}
                      : op.id() == "unary" || op.id() == "elementwise" || op.id() == "cast"
                          ? std::vector<std::int64_t>{5}
                          : std::vector<std::int64_t>{2, 5};
    return {op.declared(op.shape(dims))};
}

namespace {

bool declines(harness::GuardedDevice& device, const harness::Instance& instance) {
    const host::CallResult answer = device.supports(declare_instance_form(instance).front());
    return answer.outcome == host::CallOutcome::adapter_status && answer.status == KCS_UNSUPPORTED;
}

}  // namespace

std::vector<std::string> declined_operators(const spec::Catalog& catalog, host::IsolatedAdapter& adapter) {
    harness::GuardedDevice device(adapter, 1);
    std::vector<std::string> declined;
    for (const auto& op : catalog.operators) {
        std::vector<std::optional<std::string>> functions;
        for (const auto& f : op.functions) functions.emplace_back(f.name);
        if (functions.empty()) functions.emplace_back(std::nullopt);
        bool all = true;
        for (const auto& function : functions)
            for (const auto& config : op.configs) {
                if (!all) break;
                harness::Instance instance;
                instance.op = &op;
                instance.config = config;
                instance.function = function;
                all = declines(device, instance);
            }
        if (all) declined.push_back(op.id);
    }
    return declined;
}

}  // namespace kcs::suites
