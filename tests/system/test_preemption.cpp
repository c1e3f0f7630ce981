// SPDX-License-Identifier: Apache-2.0
// Several applications on one GPU, launch latency, and the preemption controller's techniques.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <set>

#include <nlohmann/json.hpp>

#include "tests/system/cli_runner.h"

using namespace stacksim::test;

namespace {

struct Run {
    nlohmann::json summary, stats, timeline;
    std::string output;
};

Run run(const std::string& args, bool timeline = false) {
    const std::string dir = temp_dir();
    const CliResult r =
        run_cli("run " + args + " --set run.alone_runs=false --out " + dir + (timeline ? " --timeline " + dir + "/t.json" : ""));
    INFO(args << ":\n" << r.output);
    REQUIRE(r.exit_code == 0);
    Run out;
    out.output = r.output;
    out.summary = nlohmann::json::parse(read_file(dir + "/summary.json"));
    out.stats = nlohmann::json::parse(read_file(dir + "/stats.json"));
    if (timeline) out.timeline = nlohmann::json::parse(read_file(dir + "/t.json"));
    for (auto& a : out.summary["applications"]) CHECK(a["verification"]["passed"] == true);
    return out;
}

/// Sum over the SMs of gpu.smN.preemption.NAME.
double sm_total(const Run& r, const std::string& name) {
    const std::string suffix = ".preemption." + name;
    double t = 0;
    for (auto& [k, v] : r.stats.items())
        if (k.rfind("gpu.sm", 0) == 0 && k.size() > suffix.size() &&
            k.compare(k.size() - suffix.size(), suffix.size(), suffix) == 0)
            t += v["value"].get<double>();
    return t;
}

double stat(const Run& r, const std::string& key) { return r.stats[key]["value"].get<double>(); }

/// CTA slices of the timeline: (sm, kernel, start, end).
struct Slice {
    int sm;
    std::string kernel;
    double start, end;
};
std::vector<Slice> cta_slices(const Run& r) {
    std::vector<Slice> out;
    for (auto& e : r.timeline["traceEvents"])
        if (e["ph"] == "X" && e["cat"] == "cta")
            out.push_back({e["pid"].get<int>(), e["args"]["kernel"].get<std::string>(), e["ts"].get<double>(),
                           e["ts"].get<double>() + e["dur"].get<double>()});
    return out;
}

/// Whether some SM holds CTAs of two different kernels at the same time.
bool sm_shared_at_once(const std::vector<Slice>& s) {
    for (size_t i = 0; i < s.size(); ++i)
        for (size_t j = i + 1; j < s.size(); ++j)
            if (s[i].sm == s[j].sm && s[i].kernel != s[j].kernel && s[i].start < s[j].end && s[j].start < s[i].end)
                return true;
    return false;
}

/// Whether CTAs of two different kernels run at the same time anywhere.
bool kernels_overlap(const std::vector<Slice>& s) {
    for (size_t i = 0; i < s.size(); ++i)
        for (size_t j = i + 1; j < s.size(); ++j)
            if (s[i].kernel != s[j].kernel && s[i].start < s[j].end && s[j].start < s[i].end) return true;
    return false;
}

const std::string kTwo = "small --app matmul:128 --app stencil2d:128 --set host.timed_copies=false";
const std::string kSwitchable = "small --app gemm:96 --app vecadd:40000@8us^1 --set host.timed_copies=false";
const std::string kFlushable = "small --app vecadd:400000 --app gemm:64@8us^1 --set host.timed_copies=false";

}  // namespace

TEST_CASE("multi-kernel: two applications share SMs (SMK) or split them (spatial)", "[multikernel]") {
    const Run smk = run(kTwo + " --set gpu.sm_sharing=smk", true);
    const auto a = cta_slices(smk);
    CHECK(kernels_overlap(a));
    CHECK(sm_shared_at_once(a));
    const Run spatial = run(kTwo + " --set gpu.sm_sharing=spatial", true);
    const auto b = cta_slices(spatial);
    CHECK(kernels_overlap(b));
    CHECK_FALSE(sm_shared_at_once(b));
}

TEST_CASE("multi-kernel: the launch latency shows in the timeline and delays the kernel", "[multikernel]") {
    const Run r = run("small --workload vecadd:4096 --set host.timed_copies=false --set host.launch_latency_us=10", true);
    bool found = false;
    for (auto& e : r.timeline["traceEvents"])
        if (e["ph"] == "X" && e["cat"] == "launch") {
            found = true;
            // small runs its core at 1000 MHz: 10 us = 10000 cycles
            CHECK(e["dur"].get<double>() == Approx(10000).margin(2));
        }
    CHECK(found);
    const Run fast = run("small --workload vecadd:4096 --set host.timed_copies=false --set host.launch_latency_us=0");
    CHECK(r.summary["simulated_seconds"].get<double>() > fast.summary["simulated_seconds"].get<double>() + 9e-6);
}

TEST_CASE("preemption: context-switched CTAs save through memory, resume and their kernel verifies", "[preemption]") {
    const Run r = run(kSwitchable + " --set preemption.policy=switch", true);
    CHECK(stat(r, "gpu.preemption.requests") >= 1);
    CHECK(sm_total(r, "ctas_switched") > 0);
    CHECK(sm_total(r, "ctas_restored") == sm_total(r, "ctas_switched"));
    CHECK(sm_total(r, "context_bytes_saved") > 0);
    CHECK(sm_total(r, "context_bytes_restored") == sm_total(r, "context_bytes_saved"));
    // The context went through the memory system: the L1s forwarded it to L2/DRAM.
    double forwarded = 0;
    for (auto& [k, v] : r.stats.items())
        if (k.find("context_forwards") != std::string::npos) forwarded += v["value"].get<double>();
    CHECK(forwarded > 0);
    std::set<std::string> kinds;
    for (auto& e : r.timeline["traceEvents"])
        if (e["ph"] == "X" && e["cat"] == "preemption") kinds.insert(e["name"].get<std::string>().substr(0, 4));
    CHECK(kinds.count("save"));
    CHECK(kinds.count("rest"));
    CHECK(kinds.count("pree"));  // the request row
}

TEST_CASE("preemption: flushed CTAs of an idempotent kernel rerun and it verifies", "[preemption]") {
    const Run r = run(kFlushable + " --set preemption.policy=flush");
    CHECK(sm_total(r, "ctas_flushed") > 0);
    CHECK(sm_total(r, "ctas_switched") == 0);
    // Declared not idempotent: switched instead.
    const Run no = run(kFlushable + " --set preemption.policy=flush --set app[0].idempotent=no");
    CHECK(sm_total(no, "ctas_flushed") == 0);
    CHECK(sm_total(no, "ctas_switched") > 0);
}

TEST_CASE("preemption: a non-idempotent kernel is never flushed", "[preemption]") {
    for (const char* policy : {"flush", "chimera"}) {
        const Run r = run(kSwitchable + " --set preemption.policy=" + policy);
        INFO(policy);
        CHECK(stat(r, "gpu.preemption.requests") >= 1);
        CHECK(sm_total(r, "ctas_flushed") == 0);
        CHECK(stat(r, "gpu.preemption.ctas_flushed") == 0);
    }
}

TEST_CASE("preemption: drain lets the CTAs finish and frees SMs later than switch here", "[preemption]") {
    const Run drain = run(kSwitchable + " --set preemption.policy=drain");
    const Run sw = run(kSwitchable + " --set preemption.policy=switch");
    CHECK(stat(drain, "gpu.preemption.ctas_drained") > 0);
    CHECK(sm_total(drain, "ctas_switched") == 0);
    CHECK(drain.stats["gpu.preemption.latency"]["value"]["mean"].get<double>() >
          sw.stats["gpu.preemption.latency"]["value"]["mean"].get<double>());
}

TEST_CASE("preemption: the latency of a context switch grows with the context size", "[preemption]") {
    // Both register counts leave occupancy limited by threads, so twice the registers per
    // thread is twice the context per SM.
    const Run small_ctx = run(kSwitchable + " --set preemption.policy=switch --set gpu.sm.regs_per_thread=16");
    const Run big_ctx = run(kSwitchable + " --set preemption.policy=switch --set gpu.sm.regs_per_thread=32");
    CHECK(sm_total(big_ctx, "context_bytes_saved") > 1.5 * sm_total(small_ctx, "context_bytes_saved"));
    CHECK(big_ctx.stats["gpu.preemption.latency"]["value"]["mean"].get<double>() >
          small_ctx.stats["gpu.preemption.latency"]["value"]["mean"].get<double>());
}

TEST_CASE("preemption: bad multi-kernel input is a one-line error with exit 2", "[preemption][errors]") {
    for (const char* args : {"run small --app nosuchworkload", "run small --app vecadd@-5us",
                             "run small --set gpu.max_resident_kernels=0", "run small --set preemption.policy=bogus",
                             "run small --set preemption.chimera.latency_target_us=-1"}) {
        const CliResult r = run_cli(args);
        INFO(args << ":\n" << r.output);
        CHECK(r.exit_code == 2);
        CHECK(r.output.find('\n') == r.output.size() - 1);
    }
}

TEST_CASE("preemption: every library kernel verifies when preempted at seeded random times", "[preemption][library]") {
    std::mt19937_64 rng(20261125);
    const char* policies[] = {"switch", "flush", "chimera"};
    size_t i = 0, preempted = 0, total = 0;
    for (const std::string& w : list_section("workloads")) {
        if (w == "pcie_copy") continue;  // no kernel
        const std::string base = "small --set host.timed_copies=false";
        const Run alone = run(base + " --workload " + w);
        // A time while its kernels run (small's core clock is 1000 MHz: cycles / 1000 = us).
        const auto& ks = alone.summary["kernels"];
        const double first_us = ks.front()["start_cycle"].get<double>() / 1000.0;
        const double end_us = (ks.back()["start_cycle"].get<double>() + ks.back()["cycles"].get<double>()) / 1000.0;
        const double start_us = std::uniform_real_distribution<double>(first_us, end_us)(rng);
        const std::string policy = policies[i++ % 3];
        INFO(w << " preempted by vecadd at " << start_us << " us of " << end_us << " with " << policy);
        const Run r = run(base + " --app " + w + " --app vecadd:20000@" + std::to_string(start_us) +
                          "us^1 --set app[1].launch_latency_us=0 --set preemption.policy=" + policy);
        ++total;
        if (stat(r, "gpu.preemption.requests") > 0) ++preempted;
    }
    // The seeded times land inside most kernels; each of those runs took SMs away.
    CHECK(total >= 25);
    CHECK(preempted * 2 >= total);
}
