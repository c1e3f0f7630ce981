// SPDX-License-Identifier: Apache-2.0
// Speed benchmark: runs a fixed set of workloads and reports simulation rates.
// Each run is a forked child (SystemC elaborates once per process); median of N runs.
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <systemc>

#include "noc/noc_run.h"
#include "sim/progress_line.h"
#include "top/run_command.h"

namespace {

struct Case {
    std::string preset;
    std::string workload;  ///< NAME[:SIZE], or "trace:LIST" for an Accel-Sim kernelslist.g
    std::vector<std::string> overrides;
};

/// Writes a kernelslist.g whose one kernel repeats every CTA of the shipped vecadd trace
/// (tests/data/accelsim/vecadd-256, written by `stacksim trace export`) `copies` times (the same
/// instruction streams, more CTAs), so trace mode runs long enough to measure. Returns the
/// list's path, or "" when the trace cannot be read.
std::string replicated_trace(const std::string& dir, int copies) {
    std::ifstream in(std::string(STACKSIM_SOURCE_DIR) + "/tests/data/accelsim/vecadd-256/kernel-1.traceg");
    if (!in) return "";
    std::string header, line;
    std::vector<std::string> blocks;  // one per CTA, "thread block = X,0,0" renumbered below
    bool in_block = false;
    int ctas = 0;
    while (std::getline(in, line)) {
        if (line.rfind("#BEGIN_TB", 0) == 0) {
            in_block = true;
            blocks.emplace_back();
        }
        if (in_block)
            blocks.back() += line + "\n";
        else if (line.rfind("-grid dim", 0) == 0) {
            ctas = std::atoi(line.c_str() + line.find('(') + 1);
            header += fmt::format("-grid dim = ({},1,1)\n", copies * ctas);
        } else
            header += line + "\n";
    }
    if (blocks.empty() || ctas != static_cast<int>(blocks.size())) return "";
    std::ofstream out(dir + "/kernel-1.traceg");
    out << header;
    for (int c = 0; c < copies; ++c)
        for (int b = 0; b < ctas; ++b) {
            std::string text = blocks[static_cast<size_t>(b)];
            const std::string id = fmt::format("thread block = {},0,0", b);
            const auto pos = text.find(id);
            if (pos != std::string::npos) text.replace(pos, id.size(), fmt::format("thread block = {},0,0", c * ctas + b));
            out << text;
        }
    std::ofstream list(dir + "/kernelslist.g");
    list << "kernel-1.traceg\n";
    return dir + "/kernelslist.g";
}

/// True if the case's preset, workload or an override contains `filter`.
bool matches(const Case& c, const std::string& filter) {
    std::string all = c.preset + " " + c.workload;
    for (auto& o : c.overrides) all += " " + o;
    return all.find(filter) != std::string::npos;
}

struct Sample {
    double seconds, insts, cycles;
};

bool run_child(const Case& c, const std::string& dir, Sample& out) {
    std::fflush(stdout);
    std::fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
        stacksim::top::RunOptions o;
        o.config = c.preset;
        if (c.workload.rfind("trace:", 0) == 0)
            o.trace_list = c.workload.substr(6);
        else
            o.workload = c.workload;
        o.overrides = c.overrides;
        o.out_dir = dir;
        o.force = true;  // every run of a case writes into the same folder
        o.quiet = true;
        int rc = 1;
        try {
            rc = stacksim::top::run_simulation(o);
        } catch (const std::exception& e) {
            fmt::print(stderr, "bench: {}\n", e.what());
        }
        std::_Exit(rc);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return false;
    std::ifstream in(dir + "/summary.json");
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded()) return false;
    out = {j["host_seconds"].get<double>(), j["warp_instructions"].get<double>(), j["cycles"].get<double>()};
    return true;
}

}  // namespace

const char* const kUsage = R"(usage: stacksim_bench [RUNS [FILTER]]
  RUNS    timed runs per case after one warm-up run; the median is reported (default 5)
  FILTER  only the cases whose preset, workload or overrides contain FILTER ("trace": the
          replicated vecadd trace, "uvm", ...); "noc" runs only the networks
Runs every case and prints warp-instructions and cycles per host second.
)";

extern "C" int sc_main(int argc, char** argv) {
    if (argc > 1 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    if (argc > 1 && std::atoi(argv[1]) < 1) {
        std::fprintf(stderr, "stacksim_bench: RUNS must be a positive number, not '%s'\n%s", argv[1], kUsage);
        return 2;
    }
    int runs = argc > 1 ? std::atoi(argv[1]) : 5;
    if (runs < 1) runs = 1;
    // "stacksim_bench N noc" runs only the network part.
    const bool noc_only = argc > 2 && std::string(argv[2]) == "noc";
    std::vector<Case> cases = {
        {"gtx980", "vecadd:262144", {}},
        {"gtx980", "matmul:256", {}},
        {"gtx980", "vecadd:262144", {"memory.model=simple"}},
        {"gtx980", "matmul:256", {"memory.model=simple"}},
        {"gtx980", "reduction:1048576", {}},
        {"gtx980", "divergence:262144", {"gpu.sm.warp_scheduler=gto"}},
        {"gtx980", "atax:1024", {}},
        {"gtx980", "2dconv:1024", {}},
        {"gtx980", "vecadd:65536", {"gpu.num_sms=1"}},
        {"gtx980", "vecadd:65536", {"gpu.num_sms=80"}},
        // Unified memory: translation cost (off vs ideal), and fault-bound runs at 20 and 200 us
        // fault latency (host time must not follow the simulated wait). "stacksim_bench N uvm"
        // runs only the cases whose preset, workload or overrides contain "uvm".
        {"gtx480", "stream:65536", {"uvm.mode=off"}},
        {"gtx480", "stream:65536", {"uvm.mode=ideal"}},
        {"gtx480", "stream:65536", {"uvm.mode=managed", "uvm.fault_latency_ns=20000"}},
        {"gtx480", "stream:65536", {"uvm.mode=managed", "uvm.fault_latency_ns=200000"}},
        {"gtx480", "bfs:16000", {"uvm.mode=managed", "uvm.page_bytes=2097152", "uvm.mechanism=multi_range",
                                 "uvm.fault_latency_ns=20000"}},
        {"gtx480", "bfs:16000", {"uvm.mode=managed", "uvm.page_bytes=2097152", "uvm.mechanism=multi_range",
                                 "uvm.fault_latency_ns=200000"}},
        // ETC: an oversubscribed (50%) irregular run is fault-bound: host time must not follow
        // the fault latency; SMs stopped by throttling must cost nothing while stopped.
        {"etc", "atax:512", {"uvm.mode=managed", "uvm.capacity_fraction=0.5", "uvm.eviction_granularity_bytes=262144",
                             "uvm.fault_latency_ns=20000"}},
        {"etc", "atax:512", {"uvm.mode=managed", "uvm.capacity_fraction=0.5", "uvm.eviction_granularity_bytes=262144",
                             "uvm.fault_latency_ns=200000"}},
        {"etc", "atax:512", {"uvm.mode=managed", "uvm.capacity_fraction=0.5", "uvm.eviction_granularity_bytes=262144",
                             "uvm.etc.mode=manual", "uvm.etc.throttling=static"}},
        // One CTA: the same work with 0 or 79 idle SMs (idle SMs must cost nothing).
        {"gtx980", "synthetic:256", {"gpu.num_sms=1", "synthetic.iterations=400"}},
        {"gtx980", "synthetic:256", {"gpu.num_sms=80", "synthetic.iterations=400"}},
    };
    char tmpl[] = "/tmp/stacksim-bench-XXXXXX";
    std::string dir = mkdtemp(tmpl);
    if (noc_only) cases.clear();
    // The trace and the results in separate folders: a forced run replaces its whole results
    // folder (one rename publishes a run), which would take the trace with it.
    const std::string trace_dir = dir + "/trace", out_dir = dir + "/out";
    std::string trace;
    if (!noc_only && ::mkdir(trace_dir.c_str(), 0700) == 0) trace = replicated_trace(trace_dir, 2000);
    if (!trace.empty()) {
        cases.insert(cases.begin(), {"gtx1080", "trace:" + trace, {}});
        cases.insert(cases.begin() + 1, {"gtx1080", "trace:" + trace, {"gpu.num_sms=80"}});
    }
    fmt::print("stacksim benchmark: median of {} runs (after one warm-up run) per case\n", runs);
    fmt::print("{:<10} {:<22} {:<42} {:>12} {:>12} {:>9} {:>16} {:>14}\n", "preset", "workload", "overrides",
               "warp-instr", "cycles", "host s", "warp-instr/s", "cycles/s");
    int failures = 0;
    // Progress on a terminal: every run (warm-up included) is one step of a known total.
    constexpr size_t kNetCases = 6;
    size_t steps = kNetCases * static_cast<size_t>(runs), done = 0;
    for (const Case& c : cases)
        if (argc <= 2 || matches(c, argv[2])) steps += static_cast<size_t>(runs) + 1;
    stacksim::sim::ProgressLine progress(stderr, isatty(STDERR_FILENO) != 0, 0.0);
    auto step = [&](const std::string& what) {
        ++done;
        progress.update(fmt::format("bench {} ({} of {} runs)", what, done, steps),
                        static_cast<double>(done) / static_cast<double>(steps));
    };
    for (const Case& c : cases) {
        if (argc > 2 && !matches(c, argv[2])) continue;
        std::vector<Sample> samples;
        Sample s{};
        bool ok = run_child(c, out_dir, s);  // warm-up
        step(c.workload);
        for (int r = 0; ok && r < runs; ++r) {
            ok = run_child(c, out_dir, s);
            step(c.workload);
            samples.push_back(s);
        }
        progress.clear();
        std::string ov;
        for (auto& o : c.overrides) ov += (ov.empty() ? "" : " ") + o;
        std::string shown = c.workload.rfind("trace:", 0) == 0 ? "vecadd trace x2000" : c.workload;
        if (!ok) {
            fmt::print("{:<10} {:<22} {:<42} FAILED\n", c.preset, shown, ov);
            ++failures;
            continue;
        }
        std::sort(samples.begin(), samples.end(), [](auto& a, auto& b) { return a.seconds < b.seconds; });
        const Sample& m = samples[samples.size() / 2];
        fmt::print("{:<10} {:<22} {:<42} {:>12.0f} {:>12.0f} {:>9.3f} {:>16.0f} {:>14.0f}   (min {:.3f} s, max {:.3f} s)\n",
                   c.preset, shown, ov, m.insts, m.cycles, m.seconds, m.insts / m.seconds, m.cycles / m.seconds,
                   samples.front().seconds, samples.back().seconds);
    }
    std::system(("rm -rf " + dir).c_str());

    // Networks, uniform random, 4-flit packets, 4 VCs x 8 flits, 3 stages (BookSim 2 reference:
    // ~13.5 K cycles/s on the 8x8 mesh at 0.1 flits/node/cycle). The 16x16 mesh at a quarter of
    // the rate carries the same flits as the 8x8 mesh at 0.1: cost follows traffic, not size.
    // Median of the same number of runs.
    fmt::print("\nnetworks: uniform random, 4 VCs x 8 flits, 3 stages, 4-flit packets, 100 K measured cycles\n");
    fmt::print("{:<34} {:>6} {:>10} {:>10} {:>9} {:>14} {:>16}\n", "network", "rate", "accepted", "latency", "host s",
               "cycles/s", "flit-hops/s");
    struct NetCase {
        const char* name;
        double rate;
        bool stacked;
        unsigned size;
    };
    const NetCase net_cases[kNetCases] = {{"8x8 mesh", 0.05, false, 8},          {"8x8 mesh", 0.1, false, 8},
                                 {"8x8 mesh", 0.3, false, 8},           {"16x16 mesh", 0.025, false, 16},
                                 {"2.5D 8x8/4x4 DLL, 25% memory", 0.1, true, 8},
                                 {"2.5D 8x8/4x4 DLL, 25% memory", 0.3, true, 8}};
    for (const auto& nc : net_cases) {
        stacksim::noc::NetworkConfig net;
        net.width = net.height = nc.size;
        stacksim::noc::TrafficConfig traffic;
        traffic.rate = nc.rate;
        if (nc.stacked) {
            net.topology = "stacked";
            net.concentration = 2;
            net.memory_controllers = 8;
            net.routing = "yx";
            net.layer_policy = "dll";
            traffic.memory_fraction = 0.25;
        }
        stacksim::noc::MeasureConfig m;
        m.measure = 100000;
        std::vector<stacksim::noc::RunResult> rs;
        for (int r = 0; r < runs; ++r) {
            rs.push_back(stacksim::noc::run_open_loop(net, traffic, m));
            step(nc.name);
        }
        progress.clear();
        std::sort(rs.begin(), rs.end(), [](auto& a, auto& b) { return a.wall_seconds < b.wall_seconds; });
        const auto& x = rs[rs.size() / 2];
        fmt::print("{:<34} {:>6.3f} {:>10.4f} {:>10.2f} {:>9.3f} {:>14.0f} {:>16.0f}\n", nc.name, nc.rate, x.accepted,
                   x.packet_latency, x.wall_seconds, static_cast<double>(x.cycles) / x.wall_seconds,
                   static_cast<double>(x.flit_hops) / x.wall_seconds);
    }
    return failures ? 1 : 0;
}

int main(int argc, char** argv) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
