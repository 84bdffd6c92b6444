// kcs diff, run as a user runs it, on reports kcs certify writes: the
// calibration adapter's reduce_max at smoke, as built (its kernels are
// reference-cpu's) and then with violation=nan-dropping-max switched on,
// as a library update that breaks NaN propagation would. Figure moves,
// lost instances and lost verdicts are planted in copies of a report.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "run_kcs.hpp"

namespace {

namespace fs = std::filesystem;
using kcs::testing::run_kcs;
using kcs::testing::slurp;
using Json = nlohmann::json;

class DiffCli : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        dir_ = fs::path(::testing::TempDir()) / ("kcs-diff-cli-" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        // Exit 1 both: C-ORD-03 is INCONCLUSIVE on reduce_max at smoke, and
        // the violation makes the second NON-CONFORMANT.
        ready_ = run_kcs("certify --adapter calibration --depth smoke --op reduce_max --out " +
                         (dir_ / "before").string())
                         .exit_code == 1 &&
                 run_kcs("certify --adapter calibration --option violation=nan-dropping-max --depth smoke --op "
                         "reduce_max --out " +
                         (dir_ / "after").string())
                         .exit_code == 1;
    }
    static void TearDownTestSuite() { fs::remove_all(dir_); }
    void SetUp() override { ASSERT_TRUE(ready_) << "kcs certify did not write its reports in " << dir_; }

    static std::string before() { return (dir_ / "before" / "report.json").string(); }
    static std::string after() { return (dir_ / "after" / "report.json").string(); }

    // A copy of the `before` report, changed by `edit`.
    static std::string planted(const std::string& name, void (*edit)(Json& predicate)) {
        Json statement = Json::parse(slurp(before()));
        edit(statement["predicate"]);
        const std::string file = (dir_ / (name + ".json")).string();
        std::ofstream(file) << statement.dump(1);
        return file;
    }

private:
    static inline fs::path dir_;
    static inline bool ready_ = false;
};

// The first instance of class `id_part` with a PASS whose worst case has a figure.
Json& passing_instance(Json& predicate, const std::string& id_part) {
    for (Json& instance : predicate["instances"])
        if (instance["id"].get<std::string>().find(id_part) != std::string::npos && instance["verdict"] == "PASS" &&
            instance["worst_case"].is_number())
            return instance;
    throw std::runtime_error("no passing instance of " + id_part);
}

TEST_F(DiffCli, ABrokenUpdateExitsOneAndNamesTheRegressedInstances) {
    const auto r = run_kcs("diff " + before() + " " + after());
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.out.find("**REGRESSED:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("`v1/C-EXC-01/reduce_max/f32-f32/"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("| PASS | FAIL | **regressed** |"), std::string::npos) << r.out;
    // What the runs saw differently: the option that broke it.
    EXPECT_NE(r.out.find("`adapter.options`"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("violation=nan-dropping-max"), std::string::npos) << r.out;
    // info()'s notes differ by one line of many: that line is what is shown.
    EXPECT_NE(r.out.find("`adapter.info.notes (the lines that differ)` | violation: none;"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("conforming=unordered-reduce"), std::string::npos) << r.out;
}

TEST_F(DiffCli, TheWayBackIsNoRegressionAndTheSameReportNoChange) {
    const auto back = run_kcs("diff " + after() + " " + before());
    EXPECT_EQ(back.exit_code, 0) << back.err;
    EXPECT_NE(back.out.find("No verdict got worse."), std::string::npos) << back.out;
    EXPECT_NE(back.out.find("| FAIL | PASS |"), std::string::npos) << back.out;
    const auto itself = run_kcs("diff " + before() + " " + before());
    EXPECT_EQ(itself.exit_code, 0) << itself.err;
    EXPECT_NE(itself.out.find("## Verdicts that changed (0)"), std::string::npos) << itself.out;
    EXPECT_NE(itself.out.find("## Environment differences (0)"), std::string::npos) << itself.out;
}

TEST_F(DiffCli, JsonSaysTheSame) {
    const auto r = run_kcs("diff --format json " + before() + " " + after());
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const Json diff = Json::parse(r.out);
    EXPECT_EQ(diff["adapter"], "calibration");
    EXPECT_TRUE(diff["regressed"].get<bool>());
    ASSERT_FALSE(diff["verdicts"].empty());
    EXPECT_EQ(diff["verdicts"][0]["before"], "PASS");
    EXPECT_EQ(diff["verdicts"][0]["after"], "FAIL");
    EXPECT_TRUE(diff["verdicts"][0]["regressed"].get<bool>());
    EXPECT_GT(diff["compared"].get<int>(), 0);
}

TEST_F(DiffCli, AFigureBeyondItsSpreadALostInstanceAndALostVerdictAreListed) {
    const std::string moved = planted("moved", [](Json& p) {
        Json& instance = passing_instance(p, "/C-ORD-02/");
        for (Json& c : instance["cases"]) c["evidence"]["figure"] = c["evidence"]["figure"].get<double>() + 1000.0;
    });
    const auto figure = run_kcs("diff " + before() + " " + moved);
    EXPECT_EQ(figure.exit_code, 0) << figure.err;  // the verdict held
    EXPECT_NE(figure.out.find("## Figures that moved beyond their spread (1)"), std::string::npos) << figure.out;

    const std::string lost = planted("lost", [](Json& p) { p["instances"].erase(p["instances"].begin()); });
    const auto removed = run_kcs("diff " + before() + " " + lost);
    EXPECT_EQ(removed.exit_code, 0) << removed.err;
    EXPECT_NE(removed.out.find("## Instances only before (1)"), std::string::npos) << removed.out;

    const std::string unjudged = planted("unjudged", [](Json& p) { passing_instance(p, "/C-ORD-02/")["verdict"] = nullptr; });
    const auto missing = run_kcs("diff " + before() + " " + unjudged);
    EXPECT_EQ(missing.exit_code, 1) << missing.out;
    EXPECT_NE(missing.out.find("| PASS | none | **regressed** |"), std::string::npos) << missing.out;
}

TEST_F(DiffCli, RefusesReportsOfTwoAdaptersAndWhatIsNoReport) {
    const std::string other = planted("other", [](Json& p) { p["adapter"]["info"]["adapter_name"] = "opencl"; });
    const auto adapters = run_kcs("diff " + before() + " " + other);
    EXPECT_EQ(adapters.exit_code, 2);
    EXPECT_NE(adapters.err.find("different adapters (calibration and opencl)"), std::string::npos) << adapters.err;
    const auto missing = run_kcs("diff " + before() + " /nonexistent/report.json");
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("/nonexistent/report.json"), std::string::npos) << missing.err;
    const std::string not_report = planted("not-report", [](Json& p) { p.erase("instances"); });
    const auto shape = run_kcs("diff " + not_report + " " + before());
    EXPECT_EQ(shape.exit_code, 2);
    EXPECT_NE(shape.err.find("not a KCS report"), std::string::npos) << shape.err;
}

}  // namespace
