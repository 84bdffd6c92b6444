// kcs render, run as a user runs it: bare Statements and envelopes, each
// format, --out, and the messages and exit codes for what it cannot render.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "kcs/reports/dsse.hpp"
#include "kcs/reports/keys.hpp"
#include "render_test_support.hpp"

namespace fs = std::filesystem;

namespace kcs::reports {
namespace {

struct Outcome {
    int exit_code = -1;
    std::string out, err;
};

std::string read_file(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void write_file(const fs::path& file, const std::string& text) { std::ofstream(file, std::ios::binary) << text; }

class RenderCli : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("kcs-render-cli-" + std::to_string(::getpid()) + "-" +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        report_ = dir_ / "report.json";
        write_file(report_, testing::render_statement().dump(2));
    }
    void TearDown() override { fs::remove_all(dir_); }

    // `arguments` as a shell reads them; paths here hold no quotes.
    Outcome kcs(const std::string& arguments) const {
        const fs::path out = dir_ / "stdout", err = dir_ / "stderr";
        const std::string command =
            std::string(KCS_BINARY) + " " + arguments + " >" + out.string() + " 2>" + err.string();
        const int status = std::system(command.c_str());
        return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(out), read_file(err)};
    }

    fs::path dir_, report_;
};

TEST_F(RenderCli, RendersABareStatementAsHtmlOnStandardOutput) {
    const auto r = kcs("render " + report_.string() + " --format html");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_NE(r.out.find("<p class=\"signature unsigned\">UNSIGNED"), std::string::npos);
    EXPECT_NE(r.out.find("from " + report_.string()), std::string::npos);
}

TEST_F(RenderCli, WritesEachFormatToOut) {
    for (const std::string format : {"md", "csv", "junit", "html"}) {
        const fs::path out = dir_ / ("rendered." + format);
        const auto r = kcs("render " + report_.string() + " --format " + format + " --out " + out.string());
        EXPECT_EQ(r.exit_code, 0) << format << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << format;
        EXPECT_NE(r.err.find("wrote " + out.string()), std::string::npos) << r.err;
        const std::string text = read_file(out);
        const std::string expected_start = format == "md"      ? "# KCS conformance report"
                                           : format == "csv"   ? "id,class,operator,config,variant,verdict,"
                                           : format == "junit" ? "<?xml version=\"1.0\""
                                                               : "<!DOCTYPE html>";
        EXPECT_EQ(text.rfind(expected_start, 0), 0u) << format;
    }
}

TEST_F(RenderCli, AnEnvelopeIsRenderedFromItsPayloadMarkedNotChecked) {
    const std::string payload = read_file(report_);
    const fs::path envelope = dir_ / "report.dsse.json";
    write_file(envelope, sign_envelope(payload, kInTotoPayloadType, generate_key("render test key", true)));
    for (const std::string format : {"html", "md", "junit"}) {
        const auto r = kcs("render " + envelope.string() + " --format " + format);
        EXPECT_EQ(r.exit_code, 0) << r.err;
        EXPECT_NE(r.out.find("UNVERIFIED: an envelope whose signature was not checked"), std::string::npos) << format;
        EXPECT_EQ(r.out.find("SIGNED"), std::string::npos) << format;
        EXPECT_EQ(r.out.find("UNSIGNED (a bare"), std::string::npos) << format;
        EXPECT_NE(r.out.find("NON-CONFORMANT"), std::string::npos) << format;
    }
}

TEST_F(RenderCli, AnUnreadableFileIsAnInputError) {
    const auto r = kcs("render " + (dir_ / "absent.json").string() + " --format html");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find((dir_ / "absent.json").string() + ": cannot read"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
}

TEST_F(RenderCli, ADocumentThatIsNotJsonIsAnInputError) {
    write_file(report_, "{\"_type\": ");
    const auto r = kcs("render " + report_.string() + " --format csv");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(report_.string() + ": not JSON"), std::string::npos) << r.err;
}

TEST_F(RenderCli, AnotherStatementIsNotAKcsReport) {
    auto statement = testing::render_statement();
    statement["predicateType"] = "https://slsa.dev/provenance/v1";
    write_file(report_, statement.dump());
    const auto r = kcs("render " + report_.string() + " --format junit");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(report_.string() + ": not a KCS report: predicateType is \"https://slsa.dev/provenance/v1\""),
              std::string::npos)
        << r.err;
    EXPECT_TRUE(r.out.empty());
}

TEST_F(RenderCli, ABrokenEnvelopeIsAnInputError) {
    write_file(report_,
               R"({"payload": "not base64!", "payloadType": "application/vnd.in-toto+json", "signatures": []})");
    const auto r = kcs("render " + report_.string() + " --format html");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(report_.string() + ": not a DSSE envelope"), std::string::npos) << r.err;
}

TEST_F(RenderCli, AnUnknownFormatIsAUsageError) {
    const auto r = kcs("render " + report_.string() + " --format pdf");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty());
}

TEST_F(RenderCli, WithPubkeyAReportThatDoesNotVerifyIsNotRendered) {
    const SecretKey key = generate_key("render test key", true);
    write_key_pair(key, dir_ / "trusted");
    const fs::path out = dir_ / "page.html";
    const auto r = kcs("render " + report_.string() + " --format html --pubkey " + (dir_ / "trusted.pub").string() +
                       " --out " + out.string());
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("does not verify, so it is not rendered"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("signature: "), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out));
}

// A real signed run (reduce_max at smoke depth on reference-cpu), verified
// before it is rendered; a changed byte of its payload is refused.
TEST_F(RenderCli, WithPubkeyAVerifiedReportNamesItsSigner) {
    const fs::path key = dir_ / "lab", run = dir_ / "run", page = dir_ / "page.html";
    ASSERT_EQ(kcs("keygen --out " + key.string() + " --label render-test-lab --development").exit_code, 0);
    const auto certified = kcs("certify --adapter reference-cpu --depth smoke --op reduce_max --key " + key.string() +
                               ".key --out " + run.string());
    ASSERT_EQ(certified.exit_code, 1) << certified.err;  // INCOMPLETE: C-ORD-03 INCONCLUSIVE at smoke
    const fs::path envelope = run / "report.dsse.json";
    const auto r =
        kcs("render " + envelope.string() + " --format html --pubkey " + key.string() + ".pub --out " + page.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string html = read_file(page);
    EXPECT_NE(html.find("<p class=\"signature verified\">SIGNED and verified: render-test-lab (keyid "),
              std::string::npos);
    EXPECT_EQ(html.find("UNVERIFIED"), std::string::npos);

    std::string text = read_file(envelope);
    const auto at = text.find("\"payload\":\"") + 20;
    text[at] = text[at] == 'A' ? 'B' : 'A';
    write_file(envelope, text);
    const auto tampered = kcs("render " + envelope.string() + " --format html --pubkey " + key.string() + ".pub");
    EXPECT_EQ(tampered.exit_code, 1) << tampered.err;
    EXPECT_NE(tampered.err.find("does not verify"), std::string::npos) << tampered.err;
    EXPECT_TRUE(tampered.out.empty());
}

TEST_F(RenderCli, WithAMissingPubkeyFileItIsAnInputError) {
    const auto r = kcs("render " + report_.string() + " --format html --pubkey " + (dir_ / "none.pub").string());
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("none.pub"), std::string::npos) << r.err;
}

TEST_F(RenderCli, HelpNamesTheFormatsAndExitCodes) {
    const auto r = kcs("render --help");
    EXPECT_EQ(r.exit_code, 0);
    for (const char* word : {"html", "md", "csv", "junit", "--out", "--pubkey", "UNVERIFIED", "Exit 0"})
        EXPECT_NE(r.out.find(word), std::string::npos) << word;
}

}  // namespace
}  // namespace kcs::reports
