// SPDX-License-Identifier: Apache-2.0
// Every shell block of README.md and docs/*.md runs as written and shows what the text quotes.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <set>

#include "tests/system/cli_runner.h"
#include "tests/system/doc_blocks.h"

using namespace stacksim::test;
namespace fs = std::filesystem;

namespace {

/// The Markdown files whose shell blocks have a test case below.
const std::set<std::string> kTested = {"README.md",         "docs/usage.md",    "docs/teaching.md",
                                       "docs/unified-memory.md", "docs/validation.md", "docs/synthetic.md",
                                       "docs/gpu-interconnect.md", "docs/preemption.md", "docs/experiments.md",
                                       "docs/compression.md", "docs/etc.md", "docs/own-kernel.md",
                                       "docs/accelsim-traces.md"};

/// A scratch checkout: build/, configs/ and scripts/ link to the real ones, ../shared to the
/// shared inputs; docs/ and out/ are its own, so nothing is written into the source tree.
std::string scratch_repo() {
    const fs::path root = temp_dir();
    const fs::path repo = root / "repo";
    const fs::path source = STACKSIM_SOURCE_DIR;
    fs::create_directories(repo / "docs");
    fs::create_directory_symlink(fs::path(STACKSIM_BINARY).parent_path(), repo / "build");
    for (const char* d : {"configs", "scripts", "workloads", "examples"}) fs::create_directory_symlink(source / d, repo / d);
    if (fs::exists(source.parent_path() / "shared"))
        fs::create_directory_symlink(source.parent_path() / "shared", root / "shared");
    return repo.string();
}

// Seconds one block may take: AddressSanitizer builds run the same commands several times slower.
#ifdef STACKSIM_SANITIZER_BUILD
constexpr int k_block_timeout_s = 1800;
#else
constexpr int k_block_timeout_s = 300;
#endif

CliResult run_block(const DocBlock& b, const std::string& repo) {
    write_file(repo + "/doc-block.sh", "set -e\n" + b.script());
    // `stacksim` alone (as some pages write it) is the binary under test.
    return run_shell("cd '" + repo + "' && PATH='" + fs::path(STACKSIM_BINARY).parent_path().string() +
                     "':\"$PATH\" timeout " + std::to_string(k_block_timeout_s) + " bash doc-block.sh");
}

/// Which blocks of a page a test case runs: those on the project's own inputs, or those that
/// read a third-party input (`<!-- doc-test: needs PATH -->`), which report themselves skipped
/// (exit 77) where PATH is absent, as in a user's clone without ../shared.
enum class Blocks { Own, ThirdParty };

/// Runs the blocks of `file` that `which` selects, in order, in one scratch checkout and checks each.
void check_doc(const std::string& file, Blocks which = Blocks::Own) {
    const auto blocks = doc_blocks(read_file(std::string(STACKSIM_SOURCE_DIR) + "/" + file), file);
    REQUIRE(!blocks.empty());
    const std::string repo = scratch_repo();
    if (which == Blocks::ThirdParty)
        for (const DocBlock& b : blocks)
            if (!b.needs.empty() && !fs::exists(fs::path(repo) / b.needs)) {
                std::cout << "SKIPPED: " << file << ":" << b.line << " needs " << b.needs
                          << ", a third-party input that exists only beside the development checkout\n";
                fs::remove_all(fs::path(repo).parent_path());
                std::exit(77);
            }
    int run = 0, skipped = 0;
    for (const DocBlock& b : blocks) {
        if (b.needs.empty() != (which == Blocks::Own)) continue;
        if (b.skip) {
            skipped += b.commands();
            std::cout << file << ":" << b.line << ": " << b.commands() << " command(s) not run: " << b.skip_reason
                      << "\n";
            continue;
        }
        const CliResult r = run_block(b, repo);
        run += b.commands();
        INFO(file << ":" << b.line << ": the block\n" << b.script() << "gave (exit " << r.exit_code << ")\n"
                  << r.output.substr(0, 6000));
        CHECK(r.exit_code == 0);
        CHECK(check_doc_output(b, r.output) == "");
    }
    std::cout << file << ": " << run << " command(s) run, " << skipped << " not run\n";
    fs::remove_all(fs::path(repo).parent_path());
}

}  // namespace

TEST_CASE("docs: the doc-test markers are read and checked", "[docs]") {
    const std::string md =
        "text\n<!-- doc-test: needs ../shared/x -->\n<!-- doc-test: expect PASSED -->\n```sh\n"
        "build/stacksim run --workload vecadd:4096 \\\n  --seed 2   # one command\n# a comment\n"
        "cat > x.toml <<'EOF'\n[gpu]\nEOF\n```\n\n<!-- doc-test: output -->\n```text\nfirst ... line\n...\nlast\n```\n"
        "<!-- doc-test: skip too slow -->\n```bash\nsleep 1000\n```\n```toml\n[gpu]\n```\n";
    const auto b = doc_blocks(md, "t.md");
    REQUIRE(b.size() == 2);
    CHECK(b[0].line == 4);
    CHECK(b[0].commands() == 2);
    CHECK(b[0].script().find("vecadd:4096 ") != std::string::npos);  // as written
    CHECK(b[0].needs == "../shared/x");
    CHECK(b[0].expected_output == std::vector<std::string>{"first ... line", "...", "last"});
    CHECK(b[1].skip);
    CHECK(b[1].skip_reason == "too slow");
    CHECK(check_doc_output(b[0], "x\nfirst 12 line\ny\nz\nlast\nPASSED\n") == "");
    CHECK(check_doc_output(b[0], "first 12 line\nlast\n") != "");     // no PASSED
    DocBlock spaced = b[0];
    spaced.expects = {"faults.far 872 faults"};
    spaced.expected_output.clear();
    CHECK(check_doc_output(spaced, "gpu.gmmu.faults.far     872 faults  # far\n") == "");
    CHECK(check_doc_output(spaced, "gpu.gmmu.faults.far 8720 faults\n") != "");
    CHECK(check_doc_output(b[0], "PASSED\nfirst line 2\nlast\n") != "");  // "first ... line" must end in "line"
    CHECK_THROWS_WITH(doc_blocks("<!-- doc-test: sikp x -->\n```sh\nls\n```\n", "u.md"),
                      Catch::Contains("u.md:1: unknown doc-test marker"));
    CHECK_THROWS_WITH(doc_blocks("<!-- doc-test: expect x -->\n```toml\na = 1\n```\n", "u.md"),
                      Catch::Contains("not a shell block"));
    CHECK_THROWS_WITH(doc_blocks("<!-- doc-test: replace 5 => 1 -->\n```sh\nls 5\n```\n", "u.md"),
                      Catch::Contains("u.md:1: doc-test replace is not supported"));
}

TEST_CASE("docs: every Markdown file with shell blocks has its test case", "[docs]") {
    std::vector<std::string> files = {"README.md"};
    for (const auto& e : fs::directory_iterator(std::string(STACKSIM_SOURCE_DIR) + "/docs"))
        if (e.path().extension() == ".md") files.push_back("docs/" + e.path().filename().string());
    for (const auto& f : files) {
        const auto blocks = doc_blocks(read_file(std::string(STACKSIM_SOURCE_DIR) + "/" + f), f);
        INFO(f << " has " << blocks.size() << " shell block(s)");
        CHECK((blocks.empty() || kTested.count(f) == 1));
    }
}

TEST_CASE("docs: README.md's commands run as written", "[docs]") { check_doc("README.md"); }
TEST_CASE("docs: usage.md's commands run and print the quoted output", "[docs]") { check_doc("docs/usage.md"); }
TEST_CASE("docs: teaching.md's examples run and show their effects", "[docs]") { check_doc("docs/teaching.md"); }
TEST_CASE("docs: unified-memory.md's examples run and show their effects", "[docs]") {
    check_doc("docs/unified-memory.md");
}
TEST_CASE("docs: validation.md's commands run and give the quoted figures", "[docs]") {
    check_doc("docs/validation.md");
}
TEST_CASE("docs: validation.md's commands on the third-party traces (../shared) give the quoted figures", "[docs]") {
    check_doc("docs/validation.md", Blocks::ThirdParty);
}
TEST_CASE("docs: synthetic.md's examples run", "[docs]") { check_doc("docs/synthetic.md"); }
TEST_CASE("docs: gpu-interconnect.md's examples run", "[docs]") { check_doc("docs/gpu-interconnect.md"); }
TEST_CASE("docs: preemption.md's example runs", "[docs]") { check_doc("docs/preemption.md"); }
TEST_CASE("docs: experiments.md's sweep and plots run", "[docs]") { check_doc("docs/experiments.md"); }
TEST_CASE("docs: compression.md's example runs", "[docs]") { check_doc("docs/compression.md"); }
TEST_CASE("docs: etc.md's example runs and shows the class", "[docs]") { check_doc("docs/etc.md"); }
TEST_CASE("docs: accelsim-traces.md's export and replay run", "[docs]") { check_doc("docs/accelsim-traces.md"); }
// Its blocks install and build a second project: tests/system/install_test.sh runs them.
TEST_CASE("docs: own-kernel.md's blocks are the install test's", "[docs]") { check_doc("docs/own-kernel.md"); }
