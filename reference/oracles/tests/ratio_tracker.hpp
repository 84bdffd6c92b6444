// Asserts error <= tolerance for each compared element and reports the
// largest error/tolerance ratio a test met, the figure the acceptance rule
// (error <= 1/1000 of the tightest catalog tolerance) is about.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace kcs::ref::test {

class RatioTracker {
public:
    explicit RatioTracker(std::string name) : name_(std::move(name)) {}
    RatioTracker(const RatioTracker&) = delete;
    RatioTracker& operator=(const RatioTracker&) = delete;
    ~RatioTracker() {
        std::printf("[ ratio    ] %s: %zu elements, worst error/tolerance %.3g\n", name_.c_str(),
                    count_, worst_);
    }

    void expect_within(double error, double tolerance, const std::string& where) {
        ++count_;
        EXPECT_LE(error, tolerance) << name_ << " at " << where;
        if (error > 0) worst_ = std::max(worst_, tolerance > 0 ? error / tolerance : HUGE_VAL);
    }

private:
    std::string name_;
    std::size_t count_ = 0;
    double worst_ = 0.0;
};

}  // namespace kcs::ref::test
