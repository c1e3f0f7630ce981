// SPDX-License-Identifier: Apache-2.0
// Fuzz target: sweep files (read, counted, planned) and the reports of a corrupted results folder.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/error.h"
#include "sim/staged_directory.h"
#include "tests/fuzz/fuzz_input.h"
#include "top/sweep_file.h"
#include "top/sweep_plan.h"
#include "top/sweep_store.h"

namespace {

namespace fs = std::filesystem;

/// The input's parts, split at lines "%%": the sweep file, then what the results folder's files
/// are overwritten with: plan.json, and the first point's summary.json, stats.json, point.json.
std::vector<std::string> parts(const uint8_t* data, size_t size) {
    std::vector<std::string> out(1);
    const std::string text(reinterpret_cast<const char*>(data), size);
    size_t at = 0;
    while (at <= text.size()) {
        const size_t nl = text.find("\n%%\n", at);
        if (nl == std::string::npos) {
            out.back() += text.substr(at);
            break;
        }
        out.back() += text.substr(at, nl + 1 - at);
        out.emplace_back();
        at = nl + 4;
    }
    out.resize(5);
    return out;
}

void spit(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

/// Every report a results folder gives: each point's state, results.csv and kernels.csv.
void report(const stacksim::top::SweepPlan& plan) {
    stacksim::top::SweepStore store(plan.out());
    for (const auto& p : plan.points()) (void)store.record(p);
    (void)store.results_csv(plan);
    (void)store.kernels_csv(plan);
    (void)store.attempts_in_progress();
}

}  // namespace

// Only input errors are expected: anything else (a crash, a sanitizer report, another exception
// escaping) is a finding. Nothing outside this process's scratch folder is written.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace stacksim;
    const std::vector<std::string> in = parts(data, size);
    const std::string root = fuzz::input_path(".sweep");
    std::error_code ec;
    fs::remove_all(root, ec);
    fs::create_directories(root);
    const std::string file = root + "/s.toml";
    spit(file, in[0]);
    try {
        top::SweepFile f = top::SweepFile::read(file);
        f.set_out(root + "/out");
        // Planning resolves every point's configuration: only small sweeps are planned here
        // (the count itself, and its cap, are checked by read() for any size). Stat names are
        // checked against a dictionary made by elaborating a whole GPU in a child process
        // (seconds): those sweeps are read, not planned.
        if (f.point_count() > 16 || !f.stats().empty()) return 0;
        top::SweepPlan plan = top::SweepPlan::build(f);
        top::SweepStore store(plan.out());
        store.claim("--out");  // plan.save() is left out: its fsync would make each input take ms
        const std::string point = plan.out() + "/points/" + plan.points().front().hash;
        fs::create_directories(point);
        if (!in[2].empty()) spit(point + "/summary.json", in[2]);
        if (!in[3].empty()) spit(point + "/stats.json", in[3]);
        if (!in[4].empty()) spit(point + "/point.json", in[4]);
        report(plan);
        if (!in[1].empty()) {
            spit(plan.out() + "/plan.json", in[1]);
            report(top::SweepPlan::load(plan.out()));
        }
    } catch (const sim::InputError&) {
    }
    return 0;
}
