// SPDX-License-Identifier: Apache-2.0
// `stacksim trace export`: the replay issues the PTX run's instructions; the files follow the
// Accel-Sim grammar (the reader and the documented line format); refusals; the shipped copy.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "core/trace_kernel.h"
#include "tests/system/cli_runner.h"
#include "tests/test_data.h"
#include "workloads/accelsim_trace.h"
#include "workloads/sass_opcodes.h"

using namespace stacksim;
using namespace stacksim::test;
namespace fs = std::filesystem;

namespace {

std::string exported(const std::string& args) {
    const std::string dir = temp_dir() + "/trace";
    const CliResult r = run_cli("trace export " + args + " --quiet --out " + dir);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    return dir;
}

nlohmann::json stats_of(const std::string& args) {
    const std::string dir = temp_dir() + "/out";
    const CliResult r = run_cli(args + " --quiet --out " + dir);
    INFO(args << "\n" << r.output);
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(read_file(dir + "/stats.json"));
}

double stat(const nlohmann::json& s, const std::string& key) { return s.at(key).at("value").get<double>(); }

std::vector<std::string> split(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> t;
    for (std::string w; in >> w;) t.push_back(w);
    return t;
}

/// Checks one .traceg against the documented grammar (docs/accelsim-traces.md, after
/// Accel-Sim's trace_parser.cc): the header keys, then thread blocks of warps whose `insts = N`
/// lines each hold `PC mask dest_num R.. OPCODE src_num R.. mem_width [mode addresses]`, the
/// counts agreeing with the tokens. Returns the instruction lines seen.
uint64_t check_grammar(const std::string& path) {
    INFO(path);
    std::istringstream in(read_file(path));
    std::string line;
    const std::regex header_re(R"(^-([a-z_ ]+) = (\S.*)$)");
    std::set<std::string> keys;
    while (std::getline(in, line) && line.rfind('#', 0) != 0) {
        if (line.empty()) continue;
        std::smatch m;
        REQUIRE(std::regex_match(line, m, header_re));
        keys.insert(m[1]);
    }
    for (const char* k : {"kernel name", "kernel id", "grid dim", "block dim", "shmem", "nregs", "binary version",
                          "cuda stream id", "shmem base_addr", "local mem base_addr", "nvbit version",
                          "accelsim tracer version", "enable lineinfo"})
        CHECK(keys.count(k) == 1);
    const std::regex hex_re("^[0-9a-f]+$"), reg_re("^R([0-9]+)$"), dec_re("^[0-9]+$"), addr_re("^0x[0-9a-f]+$");
    uint64_t lines = 0;
    unsigned blocks = 0;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        if (line == "#BEGIN_TB") {
            ++blocks;
            continue;
        }
        if (line == "#END_TB" || line.rfind("thread block = ", 0) == 0 || line.rfind("warp = ", 0) == 0) continue;
        REQUIRE(line.rfind("insts = ", 0) == 0);
        const unsigned n = static_cast<unsigned>(std::stoul(line.substr(8)));
        for (unsigned i = 0; i < n; ++i) {
            REQUIRE(std::getline(in, line));
            INFO(line);
            const auto t = split(line);
            size_t k = 0;
            REQUIRE(t.size() >= 6);
            CHECK(std::regex_match(t[k++], hex_re));  // PC
            REQUIRE(t[k].size() == 8);
            const uint32_t mask = static_cast<uint32_t>(std::stoul(t[k++], nullptr, 16));
            const unsigned dests = static_cast<unsigned>(std::stoul(t[k++]));
            CHECK(dests <= 4);
            for (unsigned d = 0; d < dests; ++d) CHECK(std::regex_match(t.at(k++), reg_re));
            const std::string opcode = t.at(k++);
            CHECK(workloads::find_sass_opcode(workloads::SassFamily::Volta, opcode.substr(0, opcode.find('.'))));
            const unsigned srcs = static_cast<unsigned>(std::stoul(t.at(k++)));
            CHECK(srcs <= 8);
            for (unsigned s = 0; s < srcs; ++s) CHECK(std::regex_match(t.at(k++), reg_re));
            REQUIRE(std::regex_match(t.at(k), dec_re));
            const unsigned width = static_cast<unsigned>(std::stoul(t.at(k++)));
            if (width > 0) {
                const std::string mode = t.at(k++);
                const unsigned lanes = static_cast<unsigned>(__builtin_popcount(mask));
                if (mode == "0") {
                    for (unsigned a = 0; a < lanes; ++a) CHECK(std::regex_match(t.at(k++), addr_re));
                } else {
                    REQUIRE(mode == "1");
                    CHECK(std::regex_match(t.at(k++), addr_re));
                    CHECK(std::regex_match(t.at(k++), std::regex("^-?[0-9]+$")));
                }
            }
            CHECK(k == t.size());  // tracer version 4: nothing else follows
            ++lines;
        }
    }
    CHECK(blocks > 0);
    return lines;
}

}  // namespace

TEST_CASE("trace export: the replay issues the PTX run's warp and thread instructions", "[trace][export]") {
    // One kernel; shared memory, barriers and divergence (reduction); several kernels (bfs).
    for (const std::string w : {"vecadd:256", "reduction:4096", "matmul:64", "bfs:2000", "divergence:256"}) {
        INFO(w);
        const std::string dir = exported("small --workload " + w);
        const auto ptx = stats_of("run small --workload " + w);
        const auto replay = stats_of("run small --trace " + dir + "/kernelslist.g");
        CHECK(stat(replay, "gpu.warp_instructions") == stat(ptx, "gpu.warp_instructions"));
        CHECK(stat(replay, "gpu.thread_instructions") == stat(ptx, "gpu.thread_instructions"));
    }
}

TEST_CASE("trace export: the files follow the Accel-Sim trace grammar and the reader accepts them", "[trace][export]") {
    const std::string dir = exported("small --workload bfs:2000");
    const std::string list = read_file(dir + "/kernelslist.g");
    std::istringstream in(list);
    unsigned kernels = 0;
    for (std::string line; std::getline(in, line);) {
        INFO(line);
        CHECK(std::regex_match(line, std::regex(R"(^kernel-[0-9]+\.traceg$)")));
        CHECK(line == "kernel-" + std::to_string(++kernels) + ".traceg");
        const uint64_t lines = check_grammar(dir + "/" + line);
        core::TraceKernel k;
        workloads::TracegReader r(dir + "/" + line, k);
        auto whole = workloads::read_traceg(dir + "/" + line);
        uint64_t insts = 0;
        for (const auto& c : whole->ctas)
            for (const auto& wt : c.warps) insts += wt.insts.size();
        CHECK(insts == lines);
        CHECK(r.header().tracer_version == 4);
        CHECK(r.header().binary_version == 70);
    }
    CHECK(kernels > 1);  // bfs launches its kernel once per level
}

TEST_CASE("trace export: refusals exit 2 and leave nothing behind", "[trace][export][errors]") {
    const std::string dir = temp_dir();
    auto refused = [&](const std::string& args, const std::string& words) {
        const CliResult r = run_cli(args);
        INFO(args << "\n" << r.output);
        CHECK(r.exit_code == 2);
        CHECK(r.output.find(words) != std::string::npos);
    };
    refused("trace export small --workload vecadd:256", "--out DIR is required");
    refused("trace export small --trace x/kernelslist.g --out " + dir + "/t", "--trace is not accepted");
    refused("trace frobnicate", "unknown subcommand");
    fs::create_directories(dir + "/full");
    write_file(dir + "/full/file", "x");
    refused("trace export small --workload vecadd:256 --out " + dir + "/full", "the folder is not");
    CHECK(read_file(dir + "/full/file") == "x");
    // Only what was made above: no staging folder left beside the refused target.
    CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
    const CliResult help = run_cli("trace --help");
    CHECK(help.exit_code == 0);
    CHECK(help.output.find("usage: stacksim trace export") != std::string::npos);
}

TEST_CASE("trace export: tests/data/accelsim/vecadd-256 is what the exporter writes", "[trace][export][data]") {
    // scripts/make_test_data.sh wrote it; a change of the exporter must come with new data.
    const std::string dir = exported("small --workload vecadd:256");
    const std::string shipped = data_path("accelsim/vecadd-256");
    std::set<std::string> a, b;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().filename() != ".stacksim-results") a.insert(e.path().filename().string());  // the results marker
    for (const auto& e : fs::directory_iterator(shipped)) b.insert(e.path().filename().string());
    CHECK(a == b);
    for (const std::string& f : a) {
        INFO(f);
        CHECK(read_file(dir + "/" + f) == read_file(shipped + "/" + f));
    }
}

TEST_CASE("test data: tests/data/netrace is what the project's Netrace writer writes", "[netrace][data]") {
    const std::string dir = temp_dir();
    const std::string tool = (fs::path(STACKSIM_BINARY).parent_path() / "stacksim_test_data").string();
    const CliResult r = run_shell("'" + tool + "' '" + dir + "'");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    for (const char* f : {"small.tra.bz2", "regions.tra.bz2"}) {
        INFO(f);
        CHECK(read_file(dir + "/" + f) == read_file(data_path(std::string("netrace/") + f)));
    }
}
