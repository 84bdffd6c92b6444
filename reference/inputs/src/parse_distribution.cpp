// Numbers are read with std::from_chars, which rounds to nearest as IEEE
// requires, so a catalog string means the same f64 on every platform.
#include "kcs/reference/parse_distribution.hpp"

#include <charconv>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "validation.hpp"

namespace kcs::ref {

namespace {

constexpr const char* kExpected =
    "expected normal(MEAN,STD), uniform(LO,HI), integers(LO,HI), constant(V) or ones";

std::string_view trim(std::string_view s) {
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!s.empty() && blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && blank(s.back())) s.remove_suffix(1);
    return s;
}

class Reader {
public:
    explicit Reader(std::string_view text) : text_(text) {}

    [[noreturn]] void fail(const std::string& what) const {
        throw std::invalid_argument("distribution '" + std::string(text_) + "': " + what);
    }

    // An optional sign, then a decimal or 0x-prefixed hexadecimal float that
    // must reach the end of `arg`.
    double real(std::string_view arg, int position) const {
        bool negative = false;
        std::string_view digits = strip_sign(arg, negative);
        std::chars_format format = std::chars_format::general;
        if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
            digits.remove_prefix(2);
            format = std::chars_format::hex;
        }
        double value = 0.0;
        const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value, format);
        check(arg, position, error, end == digits.data() + digits.size() && !digits.empty(), "f64");
        return negative ? -value : value;
    }

    std::int64_t integer(std::string_view arg, int position) const {
        bool negative = false;
        const std::string_view digits = strip_sign(arg, negative);
        std::uint64_t magnitude = 0;
        const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude);
        check(arg, position, error, end == digits.data() + digits.size() && !digits.empty(), "int64");
        const std::uint64_t limit = negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
        if (magnitude > limit) fail(parameter(arg, position) + " is outside the int64 range");
        return negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
    }

private:
    static std::string parameter(std::string_view arg, int position) {
        return "parameter " + std::to_string(position) + " '" + std::string(arg) + "'";
    }

    std::string_view strip_sign(std::string_view arg, bool& negative) const {
        std::string_view s = arg;
        if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
            negative = s.front() == '-';
            s.remove_prefix(1);
        }
        const bool second_sign = !s.empty() && (s.front() == '-' || s.front() == '+');
        return second_sign ? std::string_view{} : s;  // "--1" is not a number
    }

    void check(std::string_view arg, int position, std::errc error, bool consumed, const char* type) const {
        if (error == std::errc::result_out_of_range)
            fail(parameter(arg, position) + " is outside the " + type + " range");
        if (error != std::errc{} || !consumed) fail(parameter(arg, position) + " is not a number");
    }

    std::string_view text_;
};

std::vector<std::string_view> split_parameters(std::string_view inside) {
    std::vector<std::string_view> parts;
    for (;;) {
        const std::size_t comma = inside.find(',');
        parts.push_back(trim(inside.substr(0, comma)));
        if (comma == std::string_view::npos) return parts;
        inside.remove_prefix(comma + 1);
    }
}

}  // namespace

Distribution parse_distribution(std::string_view text) {
    const Reader reader(text);
    const std::string_view s = trim(text);
    const std::size_t open = s.find('(');
    const std::string_view name = trim(s.substr(0, open));
    if (name.empty()) reader.fail(kExpected);
    const bool known = name == "normal" || name == "uniform" || name == "integers" || name == "constant" ||
                       name == "ones";
    if (!known) reader.fail("unknown distribution '" + std::string(name) + "': " + kExpected);

    std::vector<std::string_view> args;
    if (open != std::string_view::npos) {
        if (s.back() != ')') reader.fail("missing ')' at the end");
        const std::string_view inside = s.substr(open + 1, s.size() - open - 2);
        if (inside.find_first_of("()") != std::string_view::npos) reader.fail("unbalanced parentheses");
        if (!trim(inside).empty()) args = split_parameters(inside);
    }

    const std::size_t wanted = name == "ones" ? 0 : name == "constant" ? 1 : 2;
    if (args.size() != wanted) {
        const char* spelling = name == "normal"     ? "normal(MEAN,STD)"
                               : name == "uniform"  ? "uniform(LO,HI)"
                               : name == "integers" ? "integers(LO,HI)"
                               : name == "constant" ? "constant(V)"
                                                    : "ones";
        reader.fail(std::string(spelling) + " takes " + std::to_string(wanted) + " parameter" +
                    (wanted == 1 ? "" : "s") + ", got " + std::to_string(args.size()));
    }

    Distribution d = kOnes;
    if (name == "normal") d = Normal{reader.real(args[0], 1), reader.real(args[1], 2)};
    if (name == "uniform") d = Uniform{reader.real(args[0], 1), reader.real(args[1], 2)};
    if (name == "integers") d = Integers{reader.integer(args[0], 1), reader.integer(args[1], 2)};
    if (name == "constant") d = Constant{reader.real(args[0], 1)};

    const std::string problem = inputs_detail::distribution_problem(d);
    if (!problem.empty()) reader.fail(problem);
    return d;
}

}  // namespace kcs::ref
