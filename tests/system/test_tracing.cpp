// SPDX-License-Identifier: Apache-2.0
// End-to-end: the opt-in tracing layer (timeline counters, sampled CSV, VCD) leaves the run unchanged.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "tests/system/cli_runner.h"

using namespace stacksim::test;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    std::istringstream in(s);
    while (std::getline(in, cur, sep)) out.push_back(cur);
    return out;
}

double stat(const std::string& dir, const std::string& name) {
    return nlohmann::json::parse(read_file(dir + "/stats.json"))[name]["value"].get<double>();
}

}  // namespace

TEST_CASE("tracing: a traced run's statistics are byte-identical to the untraced run's", "[tracing][determinism]") {
    // gtx980 with a mesh interconnect: SM events, counters and routers are all traced.
    const std::string dir = temp_dir();
    const std::string run = "run gtx980 --workload atax:128 --set memory.interconnect=mesh --quiet --out ";
    REQUIRE(run_cli(run + dir + "/plain").exit_code == 0);
    CliResult traced = run_cli(run + dir + "/traced --timeline " + dir + "/t.json --samples " + dir + "/s.csv --vcd " +
                               dir + "/w.vcd --sample-every 97 --watch sm0.w0");
    INFO(traced.output);
    REQUIRE(traced.exit_code == 0);
    CHECK(read_file(dir + "/plain/stats.json") == read_file(dir + "/traced/stats.json"));
    for (const char* f : {"/t.json", "/s.csv", "/w.vcd"}) {
        CHECK(std::filesystem::exists(dir + f));
        CHECK_FALSE(std::filesystem::exists(dir + f + std::string(".part")));
    }
}

TEST_CASE("tracing: the timeline has counter tracks and named CTA rows", "[tracing][teaching]") {
    const std::string dir = temp_dir();
    CliResult r = run_cli("run gtx980 --workload atax:256 --quiet --timeline " + dir + "/t.json --sample-every 500");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    auto t = nlohmann::json::parse(read_file(dir + "/t.json"));
    std::map<std::string, int> counters;
    std::set<std::string> thread_names;
    for (auto& e : t["traceEvents"]) {
        if (e["ph"] == "C") {
            ++counters[e["name"].get<std::string>()];
            CHECK(e["args"]["value"].is_number());
        }
        if (e["ph"] == "M" && e["name"] == "thread_name") thread_names.insert(e["args"]["name"].get<std::string>());
    }
    CHECK(counters["ipc (instructions/cycle)"] > 10);
    CHECK(counters["l1_hit_rate (ratio)"] > 0);
    CHECK(counters["l2_hit_rate (ratio)"] > 0);
    CHECK(counters["dram_gbps (GB/s)"] > 10);
    CHECK(thread_names.count("CTA slot 0") == 1);
    CHECK(thread_names.count("warp slot 0") == 1);
    CHECK(thread_names.count("app 0 kernels") == 1);
}

TEST_CASE("tracing: --samples writes one row per interval whose rates add up to the run's totals", "[tracing]") {
    const std::string dir = temp_dir();
    CliResult r = run_cli("run gtx980 --workload atax:256 --quiet --out " + dir + " --samples " + dir +
                          "/s.csv --sample-every 1000 --sample-stat gpu.sm0.warp_instructions");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const auto lines = split(read_file(dir + "/s.csv"), '\n');
    REQUIRE(lines.size() > 10);
    CHECK(lines[0] == "cycle,ipc,l1_hit_rate,l2_hit_rate,dram_gbps,gpu.sm0.warp_instructions");
    const double cycles = stat(dir, "gpu.cycles");
    double instructions = 0, previous = 0, sm0 = 0;
    for (size_t i = 1; i < lines.size(); ++i) {
        const auto cells = split(lines[i], ',');
        REQUIRE(cells.size() == 6);
        const double cycle = std::stod(cells[0]);
        if (i + 1 < lines.size()) CHECK(cycle == 1000.0 * static_cast<double>(i));  // every 1000 cycles
        CHECK(cycle > previous);
        instructions += std::stod(cells[1]) * (cycle - previous);
        for (size_t c : {2, 3})
            if (!cells[c].empty()) CHECK((std::stod(cells[c]) >= 0 && std::stod(cells[c]) <= 1));
        sm0 = std::stod(cells[5]);
        previous = cycle;
    }
    CHECK(previous == cycles);  // the last row is the end of the run
    CHECK(instructions == Approx(stat(dir, "gpu.warp_instructions")).epsilon(1e-9));
    CHECK(sm0 == stat(dir, "gpu.sm0.warp_instructions"));
}

TEST_CASE("tracing: the VCD holds the chosen warps' issue pulses and SIMT stack depth", "[tracing][teaching]") {
    const std::string dir = temp_dir();
    CliResult r = run_cli("run small --workload divergence:64 --watch sm0.w1 --vcd " + dir +
                          "/w.vcd --vcd-signal sm0.w1 --vcd-signal counters");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const std::string vcd = read_file(dir + "/w.vcd");
    REQUIRE(has(vcd, "$enddefinitions $end"));
    // Identifier codes of gpu.sm0.w1's signals, from the declarations.
    std::map<std::string, std::string> code;
    std::string scope;
    for (const auto& l : split(vcd, '\n')) {
        const auto w = split(l, ' ');
        if (w.size() >= 3 && w[0] == "$scope") scope += "." + w[2];
        if (w.size() >= 2 && w[0] == "$upscope") scope = scope.substr(0, scope.rfind('.'));
        if (w.size() >= 5 && w[0] == "$var") code[scope.substr(1) + "." + w[4]] = w[3];
    }
    REQUIRE(code.count("gpu.sm0.w1.issue") == 1);
    REQUIRE(code.count("gpu.sm0.w1.simt_depth") == 1);
    REQUIRE(code.count("gpu.counters.ipc") == 1);
    CHECK(code.count("gpu.sm0.w0.issue") == 0);  // only what was asked for
    int rises = 0;
    unsigned max_depth = 0;
    long last_time = -1;
    bool times_increase = true;
    const std::string depth_code = code["gpu.sm0.w1.simt_depth"];
    for (const auto& l : split(vcd.substr(vcd.find("$enddefinitions")), '\n')) {
        if (l.empty()) continue;
        if (l[0] == '#') {
            const long t = std::stol(l.substr(1));
            times_increase = times_increase && t > last_time;
            last_time = t;
        } else if (l == "1" + code["gpu.sm0.w1.issue"]) {
            ++rises;
        } else if (l[0] == 'b' && l.size() > depth_code.size() + 1 &&
                   l.compare(l.size() - depth_code.size() - 1, std::string::npos, " " + depth_code) == 0) {
            max_depth = std::max(max_depth, static_cast<unsigned>(std::stoul(l.substr(1, l.find(' ') - 1), nullptr, 2)));
        }
    }
    CHECK(times_increase);
    // One pulse per issued instruction of the watched warp (consecutive issues merge into one
    // longer pulse, so at most as many rises as the watch log has issues, and some).
    size_t issues = 0;
    for (size_t at = 0; (at = r.output.find("] issue pc", at)) != std::string::npos; ++at) ++issues;
    CHECK(rises > 0);
    CHECK(static_cast<size_t>(rises) <= issues);
    CHECK(max_depth >= 2);  // the divergent branch pushed an entry
}

TEST_CASE("tracing: bad tracing options exit 2 naming the option", "[tracing][errors]") {
    const std::string dir = temp_dir();
    auto check = [&](const std::string& args, const std::string& message) {
        CliResult r = run_cli("run small --workload vecadd:256 " + args);
        INFO(args << "\n" << r.output);
        CHECK(r.exit_code == 2);
        CHECK(has(r.output, message));
    };
    check("--vcd " + dir + "/w.vcd --vcd-signal sm99", "--vcd-signal sm99: the GPU has SMs 0..");
    check("--vcd " + dir + "/w.vcd --vcd-signal router3", "--vcd-signal router3: no router network");
    check("--vcd " + dir + "/w.vcd --vcd-signal wires", "--vcd-signal wires: expected smN, smN.wM");
    check("--samples " + dir + "/s.csv --sample-stat gpu.nope", "--sample-stat gpu.nope: no such statistic");
    check("--samples " + dir + "/s.csv --sample-every 0", "--sample-every 0");
    CHECK_FALSE(std::filesystem::exists(dir + "/w.vcd.part"));
}
