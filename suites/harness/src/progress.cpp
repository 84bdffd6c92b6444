#include "kcs/harness/progress.hpp"

namespace kcs::harness {

namespace {
thread_local ProgressSink* current = nullptr;
}  // namespace

ProgressScope::ProgressScope(ProgressSink* sink) : previous_(current) { current = sink; }
ProgressScope::~ProgressScope() { current = previous_; }

ProgressSink* thread_progress_sink() { return current; }

}  // namespace kcs::harness
