// SPDX-License-Identifier: Apache-2.0
// `stacksim noc`: reads [noc] and [traffic], runs one rate or a sweep, prints and writes the curve.
#include "top/noc_command.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "noc/netrace_replay.h"
#include "noc/noc_run.h"
#include "sim/config.h"
#include "sim/error.h"
#include "sim/progress_line.h"
#include "sim/staged_directory.h"
#include "top/memory_estimate.h"
#include "top/noc_config.h"

namespace stacksim::top {

namespace {

const char* const kNocUsage =
    "usage: stacksim noc [CONFIG.toml] [--rate R | --rates A:B:STEP | --saturation | --trace FILE.tra.bz2] "
    "[--pattern NAME] [--set KEY=VALUE]... [--out DIR [--force]]";

const char* const kNocHelp = R"(
Runs the network-on-chip alone: the mesh, concentrated mesh or 2.5D stacked system of CONFIG.toml
([noc], [traffic], [trace]; configs/noc/mesh.toml, configs/noc/stacked.toml; built-in defaults: an
8x8 mesh) under open-loop synthetic traffic, and prints one row per offered rate: accepted
throughput, packet and network latency, hops (stacked: layer use and the layer policy's counts).

options:
  --rate R              one offered rate, flits/node/cycle (default: [traffic] rate)
  --rates A:B:STEP      a sweep from A to B; stops after the first saturated rate
  --saturation          search the saturation throughput (bisection of the offered rate)
  --trace FILE.tra.bz2  replay a Netrace trace instead of synthetic traffic (docs/netrace.md)
  --pattern NAME        traffic pattern (uniform, transpose, bitcomp, hotspot, ...; [traffic] pattern)
  --set KEY=VALUE       override a config key (repeatable), e.g. --set noc.layer_policy=dll
  --out DIR             write curve.csv (or replay.json) and the effective config.toml into DIR
                        (absent or empty; published whole at the end)
  --force               with --out: replace DIR when it holds an earlier stacksim noc's results
  -h, --help            print this help

Keys: `stacksim config --list noc`, docs/config.md; the model and its measurements: docs/noc.md.
)";

double parse_number(const std::string& text, const std::string& what) {
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0') throw sim::InputError(fmt::format("{}: '{}' is not a number", what, text));
    return v;
}

std::vector<double> parse_rates(const std::string& spec) {
    auto a = spec.find(':'), b = spec.rfind(':');
    if (a == std::string::npos || a == b) throw sim::InputError("--rates: expected A:B:STEP, got '" + spec + "'");
    double lo = parse_number(spec.substr(0, a), "--rates");
    double hi = parse_number(spec.substr(a + 1, b - a - 1), "--rates");
    double step = parse_number(spec.substr(b + 1), "--rates");
    if (!(step > 0) || hi < lo) throw sim::InputError("--rates: need A <= B and STEP > 0, got '" + spec + "'");
    std::vector<double> rates;
    for (unsigned i = 0;; ++i) {
        // Rounded to 12 digits so that 0.05 + 3 x 0.1 is 0.35, not 0.35000000000000003.
        double r = std::stod(fmt::format("{:.12g}", lo + step * i));
        if (r > hi + step * 1e-9) break;
        rates.push_back(r);
        if (rates.size() > 10000) throw sim::InputError("--rates: more than 10000 points");
    }
    return rates;
}

/// Publishes `out_dir` whole: the effective configuration of `doc` and `name` holding `content`,
/// in a results folder of kind "noc" (a non-empty one is replaced only with --force, and only when
/// it holds an earlier `stacksim noc`'s results).
void write_out(const std::string& out_dir, bool force, const sim::ConfigDoc& doc, const std::string& name,
               const std::string& content) {
    const std::filesystem::path parent = std::filesystem::path(out_dir).parent_path();
    std::error_code ec;
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    if (ec) throw sim::InputError(fmt::format("--out {}: cannot create {}: {}", out_dir, parent.string(), ec.message()));
    sim::StagedDirectory out(out_dir, "noc");
    std::ostringstream toml;
    toml << doc.effective() << "\n";
    out.write("config.toml", toml.str());
    out.write(name, content);
    out.publish(force);
}

/// A latency column: "-" when nothing was measured (rate 0).
std::string latency_cell(double v, uint64_t measured) { return measured ? fmt::format("{:.2f}", v) : "-"; }

}  // namespace

/// `stacksim noc --trace FILE`: replay a Netrace trace and report its runtime and latency.
int replay_command(const std::string& trace, const noc::NetworkConfig& net, const noc::ReplayConfig& replay,
                   const std::string& out_dir, bool force, const sim::ConfigDoc& doc) {
    const uint32_t flit_bytes = replay.flit_bytes;
    const double speedup = replay.speedup;
    noc::ReplayResult r = noc::replay_netrace(trace, net, flit_bytes, 100'000'000, speedup);
    fmt::print("noc: {}; {} VCs x {} flits, {} stages{}; Netrace {} ({}-byte flits)\n",
               noc::Topology::create(net)->describe(), net.vcs, net.buffer_depth, net.pipeline_stages,
               net.topology == "stacked" ? ", layer policy " + net.layer_policy.name : std::string(), trace, flit_bytes);
    fmt::print("  packets {} delivered {} ({}), runtime {} cycles (trace: {}), {} packets waited for dependencies\n",
               r.packets, r.delivered, r.complete ? "complete" : "INCOMPLETE", r.cycles, r.trace_cycles, r.delayed);
    fmt::print("  packet latency {:.2f} cycles, {:.2f} hops, {} flit-hops, {} memory packets, {} diverted, host {:.3f} s\n",
               r.packet_latency, r.hops, r.flit_hops, r.memory_packets, r.diverted_packets, r.wall_seconds);
    if (!out_dir.empty()) {
        nlohmann::json j = {{"trace", trace},         {"packets", r.packets},       {"delivered", r.delivered},
                            {"complete", r.complete}, {"runtime_cycles", r.cycles}, {"trace_cycles", r.trace_cycles},
                            {"delayed_packets", r.delayed}, {"packet_latency", r.packet_latency}, {"hops", r.hops},
                            {"flit_hops", r.flit_hops}, {"memory_packets", r.memory_packets},
                            {"diverted_packets", r.diverted_packets}, {"layer_policy", net.layer_policy.name},
                            {"topology", net.topology}, {"routing", net.routing}, {"speedup", speedup}};
        write_out(out_dir, force, doc, "replay.json", j.dump(2) + "\n");
    }
    if (!r.complete)
        throw sim::SimulationError(fmt::format("{}: replay stopped after {} cycles with {} of {} packets delivered "
                                               "(the network did not drain)",
                                               trace, r.cycles, r.delivered, r.packets));
    return 0;
}

int noc_command(const std::vector<std::string>& args) {
    std::string config, out_dir, pattern, trace;
    bool force = false;
    std::vector<std::string> sets;
    std::vector<double> rates;
    bool have_rate = false, saturation = false;
    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> const std::string& {
            if (i + 1 >= args.size()) throw sim::InputError(a + " needs a value (" + kNocUsage + ")");
            return args[++i];
        };
        if (a == "--help" || a == "-h") {
            fmt::print("{}\n{}", kNocUsage, kNocHelp);
            return 0;
        } else if (a == "--rate") {
            if (have_rate) throw sim::InputError("give one of --rate, --rates and --saturation, once");
            rates = {parse_number(value(), "--rate")};
            have_rate = true;
        } else if (a == "--rates") {
            if (have_rate) throw sim::InputError("give one of --rate, --rates and --saturation, once");
            rates = parse_rates(value());
            have_rate = true;
        } else if (a == "--saturation") {
            if (have_rate) throw sim::InputError("give one of --rate, --rates and --saturation, once");
            saturation = have_rate = true;
        } else if (a == "--trace") {
            trace = value();
        } else if (a == "--pattern") {
            pattern = value();
        } else if (a == "--set") {
            sets.push_back(value());
        } else if (a == "--out") {
            out_dir = value();
            if (out_dir.empty()) throw sim::InputError("--out \"\": an empty path names no folder");
        } else if (a == "--force") {
            force = true;
        } else if (!a.empty() && a[0] != '-' && config.empty()) {
            config = a;
        } else {
            throw sim::InputError(fmt::format("noc: unexpected argument '{}' ({})", a, kNocUsage));
        }
    }
    if (force && out_dir.empty()) throw sim::InputError("noc: --force goes with --out");
    // Before any simulation: a folder that cannot take the results is refused now.
    if (!out_dir.empty()) sim::check_results_target(out_dir, force, "noc");
    sim::ConfigDoc doc = config.empty() ? sim::ConfigDoc() : sim::ConfigDoc::from_file(config);
    for (const auto& s : sets) doc.apply_override(s);
    // Through the document, so that the config.toml of --out holds the pattern used.
    if (!pattern.empty()) doc.apply_override("traffic.pattern=\"" + pattern + "\"");

    const NocRunConfig cfg = read_noc_config(doc, "");
    const noc::NetworkConfig& net = cfg.net;
    // The router buffers grow with width x height x VCs x depth, each within its range.
    if (const uint64_t bytes = network_memory_bytes(net); bytes > default_memory_limit_bytes())
        throw sim::InputError(fmt::format("noc: a {}x{} network of {} VCs x {} flits would need about {} for its "
                                          "buffers, more than half of this machine's memory; lower noc.width, "
                                          "noc.height, noc.vcs or noc.buffer_depth",
                                          net.width, net.height, net.vcs, net.buffer_depth, human_bytes(bytes)));
    const noc::TrafficConfig& traffic = cfg.traffic;
    const noc::MeasureConfig& measure = cfg.measure;
    if (!trace.empty()) return replay_command(trace, net, cfg.replay, out_dir, force, doc);
    if (rates.empty()) rates = {traffic.rate};
    for (double r : rates) {
        noc::TrafficConfig t = traffic;
        t.rate = r;
        try {
            t.validate(net.width, net.height, net.memory_terminals());
        } catch (const sim::ConfigError& e) {
            throw sim::InputError(fmt::format("--rate {}: {}", r, e.what()));
        }
    }

    const bool layered = net.topology == "stacked";
    fmt::print("noc: {}; {} VCs x {} flits, {} stages, link {}{}; {} traffic, {:.0f}% to memory, {}-flit packets\n",
               noc::Topology::create(net)->describe(), net.vcs, net.buffer_depth, net.pipeline_stages, net.link_latency,
               layered ? ", layer policy " + net.layer_policy.name : std::string(), traffic.pattern,
               traffic.memory_fraction * 100.0, traffic.packet_flits);
    auto header = [&] {
        fmt::print("{:>8} {:>9} {:>9} {:>10} {:>10} {:>6} {:>9}", "rate", "offered", "accepted", "latency", "net_lat",
                   "hops", "status");
        if (layered)
            fmt::print(" {:>7} {:>7} {:>7} {:>9} {:>9} {:>9}", "upper%", "lower%", "vert%", "diverted", "ring_sent",
                       "ring_drop");
        fmt::print("\n");
    };
    auto row = [&](const noc::RunResult& x) {
        fmt::print("{:>8.4f} {:>9.4f} {:>9.4f} {:>10} {:>10} {:>6} {:>9}", x.rate, x.offered, x.accepted,
                   latency_cell(x.packet_latency, x.measured_packets), latency_cell(x.network_latency, x.measured_packets),
                   latency_cell(x.hops, x.measured_packets), x.saturated ? "saturated" : "ok");
        if (layered)
            fmt::print(" {:>7.2f} {:>7.2f} {:>7.2f} {:>9} {:>9} {:>9}", 100 * x.upper_utilisation,
                       100 * x.lower_utilisation, 100 * x.vertical_utilisation, x.diverted_packets, x.ring_sent,
                       x.ring_dropped);
        fmt::print("\n");
    };
    std::vector<noc::RunResult> rows;
    sim::ProgressLine progress(stderr, ::isatty(STDERR_FILENO) != 0);
    if (saturation) {
        noc::RunResult above;
        noc::RunResult x = noc::saturation_throughput(
            net, traffic, measure, 0.01, traffic.mean_flits() * 0.999, 0.005,
            [&](double f) { progress.update("noc saturation search", f); }, &above);
        progress.clear();
        fmt::print("saturation throughput {:.4f} flits/node/cycle (offered {:.4f})\n", x.accepted, x.rate);
        fmt::print("criterion: saturated when the mean packet latency exceeds {:g} cycles (traffic.latency_bound), "
                   "accepted falls below 97% of offered, or measured packets are not ejected within {} cycles; "
                   "the row below is the highest rate that met none of them",
                   measure.latency_bound, measure.drain_cap);
        if (above.rate > 0)
            fmt::print(", the second the lowest that saturated ({})", noc::saturation_reason(above, measure));
        fmt::print("\n");
        header();
        row(x);
        rows.push_back(x);
        if (above.rate > 0) {
            row(above);
            rows.push_back(above);
        }
    } else {
        header();
        for (size_t i = 0; i < rates.size(); ++i) {
            noc::TrafficConfig t = traffic;
            t.rate = rates[i];
            rows.push_back(noc::run_open_loop(net, t, measure, nullptr, [&](double f) {
                progress.update(fmt::format("noc rate {} ({} of {})", rates[i], i + 1, rates.size()),
                                (static_cast<double>(i) + f) / static_cast<double>(rates.size()));
            }));
            progress.clear();
            row(rows.back());
            if (rows.back().saturated) break;
        }
    }
    if (!out_dir.empty()) {
        write_out(out_dir, force, doc, "curve.csv", noc::curve_csv(rows));
    }
    return 0;
}

}  // namespace stacksim::top
