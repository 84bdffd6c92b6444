// Problems found while reading a catalog, each with the place it was found.
#pragma once

#include <string>
#include <vector>

namespace kcs::spec {

// Where in which file. Line and column are 1-based; 0 means "the whole file".
struct SourceLocation {
    std::string file;
    int line = 0;
    int column = 0;

    std::string str() const;  // "file:line:column", or "file" when unknown
};

// input: the catalog could not be read as data (missing file, not UTF-8,
//   YAML syntax, empty, too large). The CLI exits 2.
// finding: the data was read but breaks the schema or a cross-reference.
//   `kcs spec lint` exits 1.
enum class Severity { input, finding };

struct Diagnostic {
    Severity severity;
    SourceLocation where;
    std::string message;  // what is wrong
    std::string hint;     // how to fix it; may be empty

    std::string str() const;  // "file:line:col: error: message\n  hint: ..."
};

class Diagnostics {
public:
    void input(SourceLocation where, std::string message, std::string hint = {});
    void finding(SourceLocation where, std::string message, std::string hint = {});

    const std::vector<Diagnostic>& all() const { return items_; }
    bool empty() const { return items_.empty(); }
    bool has_input_errors() const;

    // 0 when clean, 2 when any input error, else 1.
    int exit_code() const;

    // Input errors (the root causes: files that cannot be read or parsed)
    // first, then by file, line and column, keeping the order of equal places.
    void sort_by_location();

private:
    std::vector<Diagnostic> items_;
};

}  // namespace kcs::spec
