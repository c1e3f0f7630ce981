// SPDX-License-Identifier: Apache-2.0
// Workloads through crossbar + L2 slices + DRAM channels, and the memory microbenchmarks.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/system/cli_runner.h"

using namespace stacksim::test;

namespace {
std::vector<std::string> workload_names() {
    std::istringstream in(run_cli("list").output);
    std::vector<std::string> names;
    std::string line;
    bool inside = false;
    while (std::getline(in, line)) {
        if (line.rfind("workloads", 0) == 0) {
            inside = true;
        } else if (inside && line.rfind("  ", 0) == 0) {
            std::istringstream words(line);
            std::string name;
            words >> name;
            names.push_back(name);
        } else if (inside) {
            break;
        }
    }
    return names;
}

nlohmann::json summary(const std::string& args) {
    std::string dir = temp_dir();
    CliResult r = run_cli(args + " --quiet --out " + dir);
    INFO(args << "\n" << r.output);
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(read_file(dir + "/summary.json"));
}

/// Cycles of the pointer chase's 2S-step launch minus its S-step launch (S extra steps).
double pchase_step(const std::string& args) {
    auto s = summary("run small --workload " + args);
    const auto& k = s["kernels"];
    REQUIRE(k.size() == 3);
    return static_cast<double>(k[2]["cycles"].get<uint64_t>() - k[1]["cycles"].get<uint64_t>());
}
}  // namespace

TEST_CASE("hierarchy: every library workload verifies through crossbar, L2 and DRAM", "[memory]") {
    auto names = workload_names();
    REQUIRE(names.size() >= 25);
    for (const auto& name : names) {
        if (name == "synthetic" || name == "pchase") continue;  // covered below
        auto s = summary("run small --workload " + name + " --set memory.model=hierarchy");
        INFO(name);
        CHECK(s["verification"]["passed"] == true);
    }
    auto syn = summary("run small --workload synthetic:2048 --set synthetic.pattern=random "
                       "--set synthetic.store_fraction=0.2 --set synthetic.alu_fraction=0.45 --set memory.model=hierarchy");
    CHECK(syn["verification"]["passed"] == true);
}

TEST_CASE("hierarchy: pointer-chase latency grows L1 < L2 < DRAM", "[memory][pchase]") {
    const std::string h = " --set memory.model=hierarchy";
    double l1 = pchase_step("pchase:8" + h);
    double l2 = pchase_step("pchase:512" + h);
    double dram = pchase_step("pchase:16384" + h);
    INFO("cycles for 4096 extra steps: L1 " << l1 << ", L2 " << l2 << ", DRAM " << dram);
    CHECK(l1 < l2);
    CHECK(l2 < dram);
}

TEST_CASE("hierarchy: DRAM row conflicts cost more than streaming through open rows", "[memory][dram]") {
    const std::string h = " --set memory.model=hierarchy --set memory.l2.size_bytes=4096";
    auto per_step = [&](uint32_t stride) {
        auto s = summary("run small --workload pchase:65536" + h + " --set pchase.stride_bytes=" + std::to_string(stride));
        const auto& k = s["kernels"];
        double steps = std::min(4096.0, 65536.0 * 1024 / stride);
        return static_cast<double>(k[2]["cycles"].get<uint64_t>() - k[1]["cycles"].get<uint64_t>()) / steps;
    };
    double open_rows = per_step(128);
    double conflicts = per_step(131072);  // same bank of the same channel, another row each step
    INFO("per step: open rows " << open_rows << ", row conflicts " << conflicts);
    CHECK(conflicts > open_rows + 10);
}
