// Writes the made-up report the renderer tests use (render_test_support.hpp),
// hostile strings included, to the file named by argv[1]: the input of the
// browser test.
#include <iostream>

#include "kcs/reports/report_file.hpp"
#include "render_test_support.hpp"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: kcs_write_render_fixture REPORT.json\n";
        return 2;
    }
    try {
        const auto statement = kcs::reports::testing::render_statement({.finished = true, .hostile = true});
        kcs::reports::write_file_atomically(argv[1], statement.dump(2) + "\n");
    } catch (const std::exception& e) {
        std::cerr << "kcs_write_render_fixture: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
