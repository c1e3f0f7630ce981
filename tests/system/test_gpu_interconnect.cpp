// SPDX-License-Identifier: Apache-2.0
// Library kernels through the mesh and 2.5D (stacked) router networks between SMs and partitions.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tests/system/cli_runner.h"

using namespace stacksim::test;

namespace {

struct Run {
    nlohmann::json summary, stats;
    double stat(const std::string& name) const {
        INFO(name);
        REQUIRE(stats.contains(name));
        return stats[name]["value"].get<double>();
    }
};

Run run(const std::string& args) {
    std::string dir = temp_dir();
    CliResult r = run_cli(args + " --quiet --out " + dir);
    INFO(args << "\n" << r.output);
    REQUIRE(r.exit_code == 0);
    return {nlohmann::json::parse(read_file(dir + "/summary.json")), nlohmann::json::parse(read_file(dir + "/stats.json"))};
}

/// A spread of library kernels, small sizes: streaming, shared-memory tiles, atomics,
/// irregular walks, graph traversal, scans, random writes and atomics.
const char* const kKernels[] = {"vecadd:8192", "matmul:64",  "reduction:16384", "atax:64",
                                "bfs:1000",    "scan:8192",  "kmeans:1024",     "random_traffic:128",
                                "hotspot:32",  "backprop:512"};

void kernels_verify(const std::string& interconnect) {
    for (const char* k : kKernels) {
        Run r = run(std::string("run gtx980 --workload ") + k + " --set memory.interconnect=" + interconnect);
        INFO(k << " on the " << interconnect);
        CHECK(r.summary["verification"]["passed"] == true);
        const double requests = r.stat("gpu.mem.interconnect.requests");
        CHECK(requests > 0);
        CHECK(r.stat("gpu.mem.interconnect.responses") == requests);
        CHECK(r.stat("gpu.mem.interconnect.net.packets_ejected") == 2 * requests);
    }
}

}  // namespace

TEST_CASE("gpu interconnect: library kernels verify on gtx980 with the mesh", "[noc_gpu]") {
    kernels_verify("mesh");
}

TEST_CASE("gpu interconnect: library kernels verify on gtx980 with the 2.5D stacked network", "[noc_gpu]") {
    kernels_verify("stacked");
}

TEST_CASE("gpu interconnect: every library workload verifies through the stacked network on small", "[noc_gpu]") {
    auto names = list_section("workloads");
    REQUIRE(names.size() >= 25);
    for (const auto& name : names) {
        if (name == "synthetic" || name == "pchase") continue;
        // The three longest runs at a smaller size (the same code paths, a quarter of the time).
        std::string w = name;
        if (name == "random_traffic") w += ":512";
        if (name == "stream" || name == "stream_read") w += ":32768";
        Run r = run("run small --workload " + w + " --set memory.model=hierarchy --set memory.interconnect=stacked");
        INFO(name);
        CHECK(r.summary["verification"]["passed"] == true);
    }
}

TEST_CASE("gpu interconnect: the networks change the timing and the stacked one crosses the interposer", "[noc_gpu]") {
    const std::string args = "run gtx980 --workload atax:64 --set memory.interconnect=";
    Run xbar = run(args + "crossbar"), mesh = run(args + "mesh"), stacked = run(args + "stacked");
    const auto cycles = [](const Run& r) { return r.summary["kernel_cycles"].get<uint64_t>(); };
    INFO("kernel cycles: crossbar " << cycles(xbar) << ", mesh " << cycles(mesh) << ", stacked " << cycles(stacked));
    CHECK(cycles(mesh) != cycles(xbar));
    CHECK(cycles(stacked) != cycles(xbar));
    CHECK(cycles(stacked) != cycles(mesh));
    CHECK(xbar.stats.contains("gpu.mem.crossbar.requests"));
    CHECK_FALSE(xbar.stats.contains("gpu.mem.interconnect.requests"));
    // Mesh: everything on the one layer.
    CHECK(mesh.stat("gpu.mem.interconnect.net.upper_flit_hops") > 0);
    CHECK(mesh.stat("gpu.mem.interconnect.net.lower_flit_hops") == 0);
    CHECK(mesh.stat("gpu.mem.interconnect.net.vertical_flit_hops") == 0);
    // Stacked: SM traffic goes down at once, crosses the interposer to the edge controllers and back.
    const double flits = stacked.stat("gpu.mem.interconnect.net.flits_injected");
    CHECK(stacked.stat("gpu.mem.interconnect.net.upper_flit_hops") == 0);
    CHECK(stacked.stat("gpu.mem.interconnect.net.vertical_flit_hops") == flits);  // one vertical hop per flit
    CHECK(stacked.stat("gpu.mem.interconnect.net.lower_flit_hops") > 0);
    CHECK(stacked.stat("gpu.mem.interconnect.net.memory_packets") == stacked.stat("gpu.mem.interconnect.net.packets_created"));
    CHECK(stacked.stats["gpu.mem.interconnect.request_network_latency"]["value"]["mean"].get<double>() > 0);
}

TEST_CASE("gpu interconnect: two identical stacked runs write byte-identical stats.json", "[noc_gpu][determinism]") {
    std::string a = temp_dir(), b = temp_dir();
    const std::string args = "run gtx980 --workload bfs:2000 --seed 9 --set memory.interconnect=stacked --quiet --out ";
    REQUIRE(run_cli(args + a).exit_code == 0);
    REQUIRE(run_cli(args + b).exit_code == 0);
    const std::string sa = read_file(a + "/stats.json");
    CHECK(sa.find("gpu.mem.interconnect.net.lower_flit_hops") != std::string::npos);
    CHECK(sa == read_file(b + "/stats.json"));
}

TEST_CASE("gpu interconnect: configuration errors name the key", "[noc_gpu][config]") {
    CliResult r = run_cli("run gtx980 --set memory.interconnect=mesh --set memory.noc.width=3 --set memory.noc.height=3");
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(r.output.find("memory.noc.width: a 3x3 grid has 9 cores for 16 SMs") != std::string::npos);
    r = run_cli("run gtx980 --set memory.interconnect=torus");
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(r.output.find("memory.interconnect") != std::string::npos);
    r = run_cli("run small --set memory.interconnect=stacked");
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(r.output.find("needs memory.model = \"hierarchy\"") != std::string::npos);
    r = run_cli("run gtx980 --set memory.interconnect=mesh --set memory.noc.buffer_size=4");
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(r.output.find("unknown key 'memory.noc.buffer_size'") != std::string::npos);
}
