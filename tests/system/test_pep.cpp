// SPDX-License-Identifier: Apache-2.0
// PEP: launch-triggered first checkpoints, dirty-only saves, in-place saves, and verification.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "tests/system/cli_runner.h"
#include "tests/system/verified_run.h"

using namespace stacksim::test;

namespace {

using Run = VerifiedRun;
Run run(const std::string& args) { return run_verified(args); }
double stat(const Run& r, const std::string& key) { return stat_value(r, key); }
double pep(const Run& r, const std::string& name) { return stat(r, "gpu.preemption.pep." + name); }
double latency(const Run& r) { return r.stats["gpu.preemption.latency"]["value"]["mean"].get<double>(); }

// Long CTAs (gemm: one thread per element, the whole dot product in a CTA; on small they start
// at 5 us and last 55 us) preempted by a small high-priority kernel whose launch call comes half
// way through them (33 us) with 15 us of launch latency (the thesis's method). The call's
// signal (1.3 us) triggers first checkpoints of the CTAs expected to outlast the predicted
// request (20 us after the call).
const std::string kLong = "small --app gemm:128 --app vecadd:8192@33us^1 --set host.timed_copies=false "
                          "--set app[1].launch_latency_us=15";
// Short CTAs (vecadd) preempted by gemm.
const std::string kShort = "small --app vecadd:400000 --app gemm:64@10us^1 --set host.timed_copies=false "
                           "--set app[1].launch_latency_us=5";

}  // namespace

TEST_CASE("pep: dirty bits make the second checkpoint smaller than the first", "[pep]") {
    const Run r = run(kLong + " --set preemption.policy=pep");
    REQUIRE(pep(r, "first_checkpoints") > 0);
    REQUIRE(pep(r, "second_checkpoints") > 0);
    CHECK(pep(r, "case_a") > 0);
    const double first = pep(r, "first_bytes") / pep(r, "first_checkpoints");
    const double second = pep(r, "request_bytes") / (pep(r, "second_checkpoints") + pep(r, "single_checkpoints"));
    CHECK(second < first);
    // And dirty tracking saves less than a full switch would.
    CHECK(pep(r, "request_bytes") < pep(r, "request_full_bytes"));
}

TEST_CASE("pep: in-place saves write no context bytes to DRAM when the SM has room", "[pep]") {
    // Prediction after the request, and first checkpoints only at the prediction: the only
    // checkpoint is the one the CTAs leave with. A one-CTA preempting kernel leaves most of the
    // SM unused.
    const std::string base = "small --app gemm:128 --app vecadd:256@10us^1 --set host.timed_copies=false "
                             "--set app[1].launch_latency_us=30 --set preemption.prediction_us=100 "
                             "--set preemption.first_checkpoint=prediction";
    const Run inplace = run(base + " --set preemption.policy=pep_inplace");
    REQUIRE(pep(inplace, "single_checkpoints") > 0);
    CHECK(pep(inplace, "inplace_bytes") > 0);
    CHECK(pep(inplace, "dram_bytes") == 0);
    const Run out = run(base + " --set preemption.policy=pep");
    CHECK(pep(out, "inplace_bytes") == 0);
    CHECK(pep(out, "dram_bytes") > 0);
}

TEST_CASE("pep: short CTAs drain (case c)", "[pep]") {
    const Run r = run(kShort + " --set preemption.policy=pep");
    CHECK(stat(r, "gpu.preemption.requests") >= 1);
    CHECK(pep(r, "case_c") > 0);
    CHECK(pep(r, "case_a") + pep(r, "case_b") == 0);
}

TEST_CASE("pep: PEP+in-place beats Chimera on a long-CTA kernel with the thesis's arrival method", "[pep]") {
    // The thesis's method (§4.5.4): the preempting kernel is called half-way through the victim's
    // CTAs (gemm:128 on small: start 5 us, CTAs of 55 us), its request comes 15 us after the call,
    // and PEP predicts it 20 us after the call. The first checkpoints are triggered by the call's
    // signal (1.3 us), so they happen although the request comes before the prediction.
    const std::string& base = kLong;
    const Run chimera = run(base + " --set preemption.policy=chimera");
    const Run in = run(base + " --set preemption.policy=pep_inplace");
    const Run p = run(base + " --set preemption.policy=pep");
    REQUIRE(stat(chimera, "gpu.preemption.requests") == 1);
    REQUIRE(stat(in, "gpu.preemption.requests") == 1);
    CHECK(pep(in, "first_checkpoints") > 0);
    CHECK(pep(in, "case_a") > 0);
    CHECK(latency(in) < latency(chimera));
    CHECK(latency(p) < latency(chimera));
    CHECK(latency(in) <= latency(p));
    // Waiting for the predicted request instead (preemption.first_checkpoint = prediction), the
    // request comes first: no first checkpoint, and a longer latency.
    const Run late = run(base + " --set preemption.policy=pep --set preemption.first_checkpoint=prediction");
    CHECK(pep(late, "first_checkpoints") == 0);
    CHECK(latency(p) < latency(late));
}

TEST_CASE("pep: every library kernel verifies under PEP at seeded random request times", "[pep][library]") {
    std::mt19937_64 rng(20261126);
    const char* policies[] = {"pep", "pep_inplace", "chimera_dirty"};
    size_t i = 0, preempted = 0, total = 0, checkpointed = 0;
    for (const std::string& w : list_section("workloads")) {
        if (w == "pcie_copy") continue;  // no kernel
        const std::string base = "small --set host.timed_copies=false";
        const Run alone = run(base + " --workload " + w);
        const auto& ks = alone.summary["kernels"];
        const double first_us = ks.front()["start_cycle"].get<double>() / 1000.0;
        const double end_us = (ks.back()["start_cycle"].get<double>() + ks.back()["cycles"].get<double>()) / 1000.0;
        // The request at a random time while the kernels run, its launch call 0-30 us before it
        // (the prediction falls 20 us after the call: before the request or after it).
        const double request_us = std::uniform_real_distribution<double>(first_us, end_us)(rng);
        const double latency_us = std::min(request_us, std::uniform_real_distribution<double>(0.0, 30.0)(rng));
        const double call_us = request_us - latency_us;
        const std::string policy = policies[i++ % 3];
        INFO(w << " preempted by vecadd called at " << call_us << " us (+" << latency_us << ") with " << policy);
        const Run r = run(base + " --app " + w + " --app vecadd:20000@" + std::to_string(call_us) +
                          "us^1 --set app[1].launch_latency_us=" + std::to_string(latency_us) +
                          " --set preemption.policy=" + policy);
        ++total;
        if (stat(r, "gpu.preemption.requests") > 0) ++preempted;
        if (policy != std::string("chimera_dirty") && pep(r, "first_checkpoints") > 0) ++checkpointed;
    }
    CHECK(total >= 25);
    CHECK(preempted * 2 >= total);
    CHECK(checkpointed > 0);  // some runs resumed from two checkpoints
}
