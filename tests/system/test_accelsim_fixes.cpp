// SPDX-License-Identifier: Apache-2.0
// Issue 28's three model errors against Accel-Sim, each with the test that would have caught it.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <vector>

#include "tests/system/cli_runner.h"

using namespace stacksim::test;

namespace {
// The project's own trace (tests/data: vecadd:256 exported by `stacksim trace export`).
const std::string kTrace = std::string(STACKSIM_SOURCE_DIR) + "/tests/data/accelsim/vecadd-256/kernelslist.g";

struct Run {
    nlohmann::json stats, summary;
    double cycles() const { return summary["kernels"][0]["cycles"].get<double>(); }
};

Run run(const std::string& args) {
    const std::string dir = temp_dir();
    CliResult r = run_cli(args + " --quiet --out " + dir);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    return {nlohmann::json::parse(read_file(dir + "/stats.json")),
            nlohmann::json::parse(read_file(dir + "/summary.json"))};
}

/// Sum of every statistic whose name starts with `head` and ends with `tail` (one level between).
double sum(const nlohmann::json& stats, const std::string& head, const std::string& tail) {
    double s = 0;
    for (auto it = stats.begin(); it != stats.end(); ++it) {
        const std::string& k = it.key();
        if (k.rfind(head, 0) == 0 && k.size() > head.size() + tail.size() &&
            k.compare(k.size() - tail.size(), tail.size(), tail) == 0 &&
            k.find('.', head.size()) == k.size() - tail.size())
            s += it.value()["value"].get<double>();
    }
    return s;
}

/// `stacksim config PRESET`'s effective values by full key (quotes removed).
std::map<std::string, std::string> effective(const std::string& preset) {
    const CliResult r = run_cli("config " + preset);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    std::map<std::string, std::string> values;
    std::istringstream in(r.output);
    std::string line, section;
    while (std::getline(in, line)) {
        line.erase(0, line.find_first_not_of(' '));
        if (!line.empty() && line[0] == '[') {
            section = line.substr(1, line.find(']') - 1);
            continue;
        }
        const size_t eq = line.find(" = ");
        if (eq == std::string::npos) continue;
        std::string v = line.substr(eq + 3);
        if (v.size() >= 2 && (v[0] == '\'' || v[0] == '"')) v = v.substr(1, v.size() - 2);
        values[(section.empty() ? "" : section + ".") + line.substr(0, eq)] = v;
    }
    return values;
}

/// The rows of configs/accelsim/PRESET.tsv (header skipped), each split at tabs.
std::vector<std::vector<std::string>> option_rows(const std::string& preset) {
    std::istringstream in(read_file(std::string(STACKSIM_SOURCE_DIR) + "/configs/accelsim/" + preset + ".tsv"));
    std::vector<std::vector<std::string>> rows;
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::string cell;
        std::istringstream fields(line);
        while (std::getline(fields, cell, '\t')) cells.push_back(cell);
        if (line.back() == '\t') cells.emplace_back();
        rows.push_back(cells);
    }
    return rows;
}

bool same_value(const std::string& a, const std::string& b) {
    char* end_a = nullptr;
    char* end_b = nullptr;
    const double x = std::strtod(a.c_str(), &end_a), y = std::strtod(b.c_str(), &end_b);
    if (!a.empty() && !b.empty() && *end_a == 0 && *end_b == 0) return x == Approx(y).epsilon(1e-9);
    return a == b;
}
}  // namespace

TEST_CASE("icache: perfect_inst_const_cache hits every fetch at the hit latency and reads no memory", "[fidelity][memory]") {
    const std::string trace = "run gtx1080 --trace " + kTrace;
    const Run fill = run(trace);  // the preset: lines filled through L2 and DRAM
    const Run perfect = run(trace + " --set gpu.sm.perfect_inst_const_cache=true");
    const Run free_fill = run(trace + " --set gpu.sm.icache_fill=latency --set gpu.sm.icache_miss_latency=0");
    INFO("fill through memory " << fill.cycles() << ", perfect " << perfect.cycles() << ", zero-latency fill "
                                << free_fill.cycles());
    // No miss, no instruction read below the SM, no extra DRAM read.
    CHECK(sum(perfect.stats, "gpu.sm", ".icache.misses") == 0);
    CHECK(sum(perfect.stats, "gpu.sm", ".const_cache.misses") == 0);
    const double code_lines = sum(fill.stats, "gpu.mem.l2_", ".instruction_reads");
    CHECK(code_lines > 0);
    CHECK(sum(perfect.stats, "gpu.mem.l2_", ".instruction_reads") == 0);
    CHECK(sum(perfect.stats, "gpu.mem.l2_", ".reads") == sum(fill.stats, "gpu.mem.l2_", ".reads") - code_lines);
    CHECK(sum(perfect.stats, "gpu.mem.dram_", ".reads") == sum(fill.stats, "gpu.mem.dram_", ".reads") - code_lines);
    // Every fetch costs what a hit costs: the same cycles as a fill that takes no time, and the
    // cold launch loses at least its first line fill (> 120 ROP + 100 DRAM pipeline cycles).
    CHECK(perfect.cycles() == free_fill.cycles());
    CHECK(fill.cycles() - perfect.cycles() > 220);
    // The Accel-Sim presets that copy -gpgpu_perfect_inst_const_cache 1 set it.
    for (const char* preset : {"rtx3070", "qv100"}) {
        INFO(preset);
        const Run r = run(std::string("run ") + preset + " --trace " + kTrace);
        CHECK(sum(r.stats, "gpu.sm", ".icache.misses") == 0);
        CHECK(sum(r.stats, "gpu.mem.l2_", ".instruction_reads") == 0);
    }
}

TEST_CASE("l2: an unsectored L2 sends each line to DRAM as line_bytes, not one sector size per 32-byte sector", "[fidelity][memory]") {
    // gtx1080: L1 bypassed, a 128-byte-sector (unsectored) L2; a streaming read of 64 K float4s
    // reads 1 MB = 8192 lines once each (it was 4 x 128 bytes a line before).
    const Run r = run("run gtx1080 --workload stream_read:65536");
    const double reads = sum(r.stats, "gpu.mem.dram_", ".reads");
    const double writes = sum(r.stats, "gpu.mem.dram_", ".writes");
    const double bytes = sum(r.stats, "gpu.mem.dram_", ".bytes");
    const double misses = sum(r.stats, "gpu.mem.l2_", ".read_misses");
    const double code = sum(r.stats, "gpu.mem.l2_", ".instruction_reads");
    INFO("DRAM reads " << reads << ", writes " << writes << ", bytes " << bytes);
    // Every DRAM request is one 128-byte line (the partial sums are written a whole line a warp).
    CHECK(bytes == (reads + writes) * 128);
    // Each data line misses once; a miss is one DRAM read unless it merged into an MSHR, and
    // the partial sums' write misses fetch their lines (write_miss = forward_and_fetch).
    CHECK(misses - code == 8192);
    CHECK(reads == misses - sum(r.stats, "gpu.mem.l2_", ".mshr_merges") +
                       sum(r.stats, "gpu.mem.l2_", ".write_miss_fetches"));
}

TEST_CASE("presets: each Accel-Sim option table matches its preset and is the one in docs/validation.md", "[fidelity]") {
    const std::string doc = read_file(std::string(STACKSIM_SOURCE_DIR) + "/docs/validation.md");
    const std::string reference_dir =
        std::string(STACKSIM_SOURCE_DIR) + "/../shared/traces/accelsim/vectoradd-100-32/reference-gtx1080-config/";
    const bool have_reference = std::ifstream(reference_dir + "gpgpusim.config").good();
    const std::string reference = have_reference ? "\n" + read_file(reference_dir + "gpgpusim.config") + "\n" +
                                                       read_file(reference_dir + "gpgpusim.trace.config")
                                                 : "";
    for (const char* preset : {"gtx1080", "qv100", "rtx3070"}) {
        const auto values = effective(preset);
        const auto rows = option_rows(preset);
        CHECK(rows.size() > 40);
        for (const auto& r : rows) {
            INFO(preset << ": " << r[0]);
            REQUIRE(r.size() == 5);
            const bool modelled = r[2] != "\u2014";
            if (modelled) {
                REQUIRE(values.count(r[2]) == 1);
                INFO("preset " << values.at(r[2]) << ", table " << r[3]);
                CHECK(same_value(values.at(r[2]), r[3]));
            } else {
                CHECK(!r[4].empty());  // what is not modelled says what it costs
            }
            // The rendering of scripts/accelsim_options.py.
            const std::string key = modelled ? "`" + r[2] + "`" : r[2];
            const std::string line = "| `" + r[0] + "` | " + r[1] + " | " + key + " | " + r[3] + " | " + r[4] + " |";
            INFO(line);
            CHECK(doc.find(line + "\n") != std::string::npos);
            // Plain options of the GTX 1080 reference config (and its trace config) carry the value
            // written there (absent from a clone without ../shared).
            if (std::string(preset) == "gtx1080" && have_reference &&
                std::regex_match(r[0], std::regex("[A-Za-z_0-9:]+")) && std::regex_match(r[1], std::regex("[A-Za-z0-9:.,]+"))) {
                const std::regex option("\\n-" + r[0] + "\\s+" + std::regex_replace(r[1], std::regex("\\."), "\\.") + "[\\s#,]");
                CHECK(std::regex_search(reference, option));
            }
        }
    }
}
