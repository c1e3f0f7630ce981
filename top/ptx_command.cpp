// SPDX-License-Identifier: Apache-2.0
#include "top/ptx_command.h"

#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/occupancy.h"
#include "core/reconvergence.h"
#include "core/register_pressure.h"
#include "sim/error.h"
#include "sim/printable.h"
#include "top/run_command.h"
#include "top/run_config.h"
#include "workloads/ptx_parser.h"
#include "workloads/ptx_support.h"

namespace stacksim::top {

namespace {

const char* const kPtxUsage =
    "usage: stacksim ptx check FILE.ptx... [--config PRESET|FILE] [--threads N] [--dynamic-shared BYTES] "
    "[--json]";

const char* const kPtxHelp = R"(
  check FILE.ptx...      parse and analyse each file: every unsupported construct with
                         file:line, the CUDA feature that usually produces it and the workaround;
                         per kernel the registers per thread (estimated from the most 32-bit
                         values live at once), static shared and local bytes, branches and
                         occupancy (CTAs per SM and what limits them)
  --config PRESET|FILE   the GPU whose SM the occupancy is computed for (default: gtx980)
  --threads N            threads per CTA for kernels without .maxntid/.reqntid (default: 256)
  --dynamic-shared BYTES dynamic shared memory per CTA added to each kernel's static shared
  --json                 the report as JSON (one object: files, kernels, problems, summary)

Exit codes: 0 every file fully supported, 2 anything unsupported or bad input.
See docs/ptx-subset.md for the supported subset.
)";

struct Options {
    std::vector<std::string> files;
    std::string config = "gtx980";
    uint32_t threads = 256;
    uint32_t dynamic_shared = 0;
    bool json = false;
};

uint32_t parse_count(const std::string& opt, const std::string& v, uint64_t max) {
    uint64_t n = 0;
    if (v.empty() || v.size() > 10 || v.find_first_not_of("0123456789") != std::string::npos ||
        (n = std::stoull(v)) > max)
        throw sim::InputError(fmt::format("{} {}: expected a whole number up to {}", opt, v, max));
    return static_cast<uint32_t>(n);
}

Options parse_options(const std::vector<std::string>& args) {
    Options o;
    if (args.size() < 2 || args[1] != "check")
        throw sim::InputError(fmt::format("ptx: expected the subcommand check ({})", kPtxUsage));
    for (size_t i = 2; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> const std::string& {
            if (i + 1 >= args.size()) throw sim::InputError(fmt::format("{} needs a value ({})", a, kPtxUsage));
            return args[++i];
        };
        if (a == "--json") o.json = true;
        else if (a == "--config") o.config = value();
        else if (a == "--threads") o.threads = parse_count(a, value(), 1024);
        else if (a == "--dynamic-shared") o.dynamic_shared = parse_count(a, value(), 1u << 30);
        else if (!a.empty() && a[0] == '-') throw sim::InputError(fmt::format("ptx check: unknown option '{}' ({})", a, kPtxUsage));
        else o.files.push_back(a);
    }
    if (o.threads == 0) throw sim::InputError("--threads 0: expected at least one thread");
    if (o.files.empty()) throw sim::InputError(fmt::format("ptx check: no file ({})", kPtxUsage));
    return o;
}

std::string read_whole(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw sim::InputError(fmt::format("{}: cannot read the file", path));
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}

/// The report of one file.
nlohmann::json check_file(const std::string& path, const Options& o, const core::SmConfig& sm) {
    const std::string text = read_whole(path);
    const std::vector<std::string> lines = split_lines(text);
    nlohmann::json f;
    f["file"] = path;
    f["kernels"] = nlohmann::json::array();
    f["problems"] = nlohmann::json::array();
    workloads::PtxCheck c;
    try {
        c = workloads::check_ptx(text, path);
    } catch (const workloads::PtxError& e) {  // not even tokenizable
        c.problems.push_back(e);
    }
    for (const workloads::PtxError& p : c.problems) {
        const std::string src = p.line() >= 1 && p.line() <= lines.size() ? lines[p.line() - 1] : "";
        const workloads::PtxConstruct k = workloads::classify_ptx_problem(p, src);
        f["problems"].push_back({{"line", p.line()}, {"construct", k.construct}, {"cuda_feature", k.cuda_feature},
                                 {"workaround", k.workaround}, {"message", p.message()}, {"token", p.token()}});
    }
    for (size_t i = 0; i < c.module.kernels.size(); ++i) {
        core::Kernel& k = c.module.kernels[i];
        const bool clean = i < c.kernel_clean.size() && c.kernel_clean[i];
        nlohmann::json kj{{"name", k.name}, {"accepted", clean}, {"instructions", k.code.size()},
                          {"shared_bytes", k.static_shared_bytes + o.dynamic_shared}, {"local_bytes", k.local_bytes}};
        if (clean) {
            core::compute_reconvergence(k);
            uint32_t branches = 0;
            for (const auto& in : k.code) branches += in.control() == core::ControlKind::Branch;
            const uint32_t regs = std::max<uint32_t>(core::max_live_registers(k), 1);
            const uint32_t threads = k.max_threads_per_cta ? k.max_threads_per_cta : o.threads;
            const core::Occupancy occ = core::occupancy(sm, threads, regs, k.static_shared_bytes + o.dynamic_shared);
            kj["branches"] = branches;
            kj["registers"] = regs;
            kj["threads_per_cta"] = threads;
            kj["ctas_per_sm"] = occ.ctas;
            kj["limited_by"] = occ.limited_by;
            kj["occupancy"] = sm.max_threads ? double(occ.ctas * ((threads + 31) / 32 * 32)) / sm.max_threads : 0.0;
        }
        f["kernels"].push_back(kj);
    }
    f["accepted"] = c.problems.empty();
    return f;
}

void print_text(const nlohmann::json& report) {
    for (const auto& f : report["files"]) {
        const std::string file = f["file"];
        fmt::print("{}: {} ({} kernel(s), {} problem(s))\n", sim::printable(file),
                   f["accepted"].get<bool>() ? "supported" : "UNSUPPORTED", f["kernels"].size(), f["problems"].size());
        for (const auto& p : f["problems"])
            fmt::print("  {}:{}: {}: {} '{}' -- CUDA: {}; workaround: {}\n", sim::printable(file),
                       p["line"].get<uint32_t>(), p["construct"].get<std::string>(),
                       sim::printable(p["message"].get<std::string>()), sim::printable(p["token"].get<std::string>()),
                       p["cuda_feature"].get<std::string>(), p["workaround"].get<std::string>());
        for (const auto& k : f["kernels"]) {
            const std::string name = k["name"];
            if (!k["accepted"].get<bool>()) {
                fmt::print("  kernel {}: not accepted (problems above); {} B static shared, {} B local per thread\n",
                           sim::printable(name), k["shared_bytes"].get<uint32_t>(), k["local_bytes"].get<uint32_t>());
                continue;
            }
            fmt::print("  kernel {}: {} instructions, {} branches; ~{} registers/thread, {} B shared/CTA, {} B "
                       "local/thread; {} CTAs/SM of {} threads ({:.0f}% occupancy, limited by {})\n",
                       sim::printable(name), k["instructions"].get<size_t>(), k["branches"].get<uint32_t>(),
                       k["registers"].get<uint32_t>(), k["shared_bytes"].get<uint32_t>(),
                       k["local_bytes"].get<uint32_t>(), k["ctas_per_sm"].get<uint32_t>(),
                       k["threads_per_cta"].get<uint32_t>(), 100 * k["occupancy"].get<double>(),
                       k["limited_by"].get<std::string>());
        }
    }
    const auto& s = report["summary"];
    fmt::print("summary: {}/{} files supported, {}/{} kernels accepted, {} problem(s)\n", s["files_supported"].get<int>(),
               s["files"].get<int>(), s["kernels_accepted"].get<int>(), s["kernels"].get<int>(), s["problems"].get<int>());
    for (const auto& [construct, n] : s["files_by_construct"].items())
        fmt::print("  {:>4} file(s): {}\n", n.get<int>(), construct);
}

}  // namespace

int ptx_command(const std::vector<std::string>& args) {
    if (args.size() >= 2 && (args[1] == "--help" || args[1] == "-h")) {
        fmt::print("{}\n{}", kPtxUsage, kPtxHelp);
        return kExitOk;
    }
    const Options o = parse_options(args);
    sim::ConfigDoc doc = load_config(o.config);
    const RunConfig cfg = read_run_config(doc);
    nlohmann::json report{{"config", o.config}, {"files", nlohmann::json::array()}};
    int supported = 0, kernels = 0, accepted = 0, problems = 0;
    std::map<std::string, int> by_construct;
    for (const std::string& path : o.files) {
        nlohmann::json f = check_file(path, o, cfg.sm);
        supported += f["accepted"].get<bool>();
        problems += static_cast<int>(f["problems"].size());
        for (const auto& k : f["kernels"]) {
            ++kernels;
            accepted += k["accepted"].get<bool>();
        }
        std::map<std::string, int> seen;
        for (const auto& p : f["problems"]) seen[p["construct"].get<std::string>()] = 1;
        for (const auto& [c, one] : seen) by_construct[c] += one;
        report["files"].push_back(std::move(f));
    }
    report["summary"] = {{"files", o.files.size()}, {"files_supported", supported}, {"kernels", kernels},
                         {"kernels_accepted", accepted}, {"problems", problems}, {"files_by_construct", by_construct}};
    if (o.json)
        std::cout << report.dump(1) << "\n";
    else
        print_text(report);
    return supported == static_cast<int>(o.files.size()) ? kExitOk : kExitBadInput;
}

}  // namespace stacksim::top
