#include "kcs/reference/number_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace kcs::ref {

namespace {

// "%.*g", then the exponent tidied: "2.127e+37" -> "2.127e37", "1e-05" -> "1e-5".
std::string general(double value, int digits) {
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    std::string text(buffer);
    const auto e = text.find('e');
    if (e == std::string::npos) return text;
    std::string exponent = text.substr(e + 1);
    const bool negative = exponent[0] == '-';
    exponent.erase(0, exponent.find_first_not_of("+-0"));
    return text.substr(0, e + 1) + (negative ? "-" : "") + (exponent.empty() ? "0" : exponent);
}

}  // namespace

std::string number_text(double value, int significant_digits) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    if (value == std::trunc(value) && std::fabs(value) < 1e15) return general(value, 17);
    return general(value, significant_digits < 1 ? 1 : significant_digits);
}

std::string number_text_apart(double value, double other, int significant_digits) {
    std::string text = number_text(value, significant_digits);
    if (other == value || std::isnan(value) || std::isinf(value)) return text;
    for (int digits = significant_digits; digits <= 17; ++digits) {
        text = number_text(value, digits);
        if (text != number_text(other, digits)) return text;
    }
    return text;
}

std::string round_trip_text(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char buffer[40];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    return std::string(buffer, end);
}

}  // namespace kcs::ref
