// The text of a number wherever KCS shows one to a person: case messages,
// the terminal summary, reports, tables. One home, so that a figure reads
// the same everywhere (JSON keeps every value exactly; this is for reading).
#pragma once

#include <optional>
#include <string>

namespace kcs::ref {

// An integer below 1e15 in full ("7123644", "0"); any other value with at
// most `significant_digits` significant digits, in the shorter of fixed and
// exponent form, the exponent without '+' or leading zeros ("2.5",
// "2.127e37", "1.5e-10"); "nan", "inf", "-inf". Never "0" for a value that
// is not zero, as %f gives 1e-10.
std::string number_text(double value, int significant_digits = 4);

// number_text with as many digits as it takes (up to 17) for the text to
// differ from `other`'s, so that two different values never read the same
// (a table cell beside its bound); `other` equal to `value` changes nothing.
std::string number_text_apart(double value, double other, int significant_digits = 4);

// The shortest text that reads back as the same double ("0.1", "1e-10"):
// for replay lines and values a person may copy back into a command.
std::string round_trip_text(double value);

}  // namespace kcs::ref
