// SPDX-License-Identifier: Apache-2.0
// Trace replay against Accel-Sim, synthetic kernels, timeline and watch output, stall reasons.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tests/system/cli_runner.h"
#include "tests/test_data.h"

using namespace stacksim::test;

namespace {
std::string trace_list() {
    return third_party_trace("accelsim/vectoradd-100-32/kernelslist.g");
}
std::string last_out_dir;
nlohmann::json run_json(const std::string& args, const std::string& file, std::string* output = nullptr) {
    std::string dir = temp_dir();
    last_out_dir = dir;
    CliResult r = run_cli(args + " --out " + dir);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    if (output) *output = r.output;
    return nlohmann::json::parse(read_file(dir + "/" + file));
}
}  // namespace

TEST_CASE("trace: the Accel-Sim vectoradd trace replays every instruction near Accel-Sim's cycles", "[trace]") {
    std::string out;
    auto stats = run_json("run gtx1080 --trace " + trace_list(), "stats.json", &out);
    CHECK(out.find("not applicable (timing-only trace") != std::string::npos);
    CHECK(stats["gpu.warp_instructions"]["value"].get<double>() == 344);
    double threads = 0;  // over the SMs (gpu.smN.thread_instructions)
    for (auto it = stats.begin(); it != stats.end(); ++it)
        if (it.key().rfind("gpu.sm", 0) == 0 && it.key().find(".thread_instructions") != std::string::npos)
            threads += it.value()["value"].get<double>();
    CHECK(threads == 10516);  // Accel-Sim's gpu_sim_insn for this trace
    CHECK(stats["gpu.thread_instructions"]["value"].get<double>() == 10516);  // the GPU-wide total
    // Accel-Sim's gpu_sim_cycle counts the kernel, not the launch latency before it.
    const auto summary = nlohmann::json::parse(read_file(last_out_dir + "/summary.json"));
    const double cycles = summary["kernels"][0]["cycles"].get<double>();
    INFO("stacksim " << cycles << " cycles, Accel-Sim 1282");
    CHECK(cycles > 1282 * 0.75);
    CHECK(cycles < 1282 * 1.25);
}

TEST_CASE("trace: a missing trace list exits 2 naming the file", "[trace]") {
    CliResult r = run_cli("run --trace /nonexistent/kernelslist.g");
    CHECK(r.exit_code == 2);
    CHECK(r.output.find("/nonexistent/kernelslist.g") != std::string::npos);
}

TEST_CASE("synthetic: the same seed gives identical stats and a different seed does not", "[synthetic]") {
    std::string args = "run small --workload synthetic:2048 --set synthetic.pattern=random --quiet --seed ";
    std::string a = temp_dir(), b = temp_dir(), c = temp_dir();
    REQUIRE(run_cli(args + "5 --out " + a).exit_code == 0);
    REQUIRE(run_cli(args + "5 --out " + b).exit_code == 0);
    REQUIRE(run_cli(args + "6 --out " + c).exit_code == 0);
    CHECK(read_file(a + "/stats.json") == read_file(b + "/stats.json"));
    CHECK(read_file(a + "/stats.json") != read_file(c + "/stats.json"));
}

TEST_CASE("synthetic: divergence probability lowers SIMT efficiency", "[synthetic][simt]") {
    auto efficiency = [](const std::string& p) {
        auto s = run_json("run small --workload synthetic:2048 --set synthetic.divergence_depth=2 "
                          "--set synthetic.divergence_probability=" + p + " --quiet", "stats.json");
        return s["gpu.sm0.simt_efficiency"]["value"].get<double>();
    };
    double none = efficiency("0.0"), half = efficiency("0.5"), all = efficiency("1.0");
    INFO("efficiency at p=0: " << none << ", p=0.5: " << half << ", p=1: " << all);
    CHECK(half < none - 0.1);
    CHECK(half < all - 0.1);
}

TEST_CASE("teaching: the timeline is valid Chrome trace JSON with kernels, CTAs, issues and stalls", "[teaching]") {
    std::string dir = temp_dir();
    CliResult r = run_cli("run small --workload reduction:4096 --timeline " + dir + "/t.json --timeline-sms 0,1");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    auto t = nlohmann::json::parse(read_file(dir + "/t.json"));
    REQUIRE(t["traceEvents"].is_array());
    std::map<std::string, int> cats;
    for (auto& e : t["traceEvents"]) {
        REQUIRE(e.contains("ph"));
        REQUIRE(e.contains("pid"));
        REQUIRE(e.contains("tid"));
        if (e["ph"] == "X") {
            REQUIRE(e["ts"].is_number());
            REQUIRE(e["dur"].get<double>() >= 1);
            ++cats[e["cat"].get<std::string>()];
        }
    }
    CHECK(cats["kernel"] == 1);
    CHECK(cats["cta"] == 8);
    CHECK(cats["issue"] > 100);
    CHECK(cats["stall"] > 10);
}

TEST_CASE("teaching: the watch log shows a divergence and its reconvergence", "[teaching][simt]") {
    CliResult r = run_cli("run small --workload divergence:256 --watch sm0.w1");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    auto diverge = r.output.find("[sm0.w1");
    CHECK(diverge != std::string::npos);
    auto d = r.output.find("diverge at pc");
    REQUIRE(d != std::string::npos);
    CHECK(r.output.find("reconverge at pc", d) != std::string::npos);
    CHECK(r.output.find("exit: every thread finished") != std::string::npos);
    CHECK(r.output.find("stall: ") != std::string::npos);
}

TEST_CASE("teaching: the stall reasons of a barrier kernel include synchronization and memory", "[teaching]") {
    auto s = run_json("run small --workload reduction:16384 --quiet", "summary.json");
    auto slots = s["kernels"][0]["issue_slots"];
    CHECK(slots["issued"].get<double>() == s["kernels"][0]["warp_instructions"].get<double>());
    CHECK(slots["synchronization"].get<double>() > 0);
    CHECK(slots["memory_dependency"].get<double>() > 0);
    CHECK(slots["execution_dependency"].get<double>() > 0);
}
