// SPDX-License-Identifier: Apache-2.0
// The stats dictionary: every statistic name pattern of `stacksim run` with its unit and meaning.
#include "top/stats_dictionary.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

#include "sim/child_process.h"
#include "sim/error.h"
#include "sim/stats.h"
#include "top/applications.h"
#include "top/gpu_system.h"
#include "top/run_config.h"

namespace stacksim::top {

namespace {

/// A representative system: its short name, its preset and overrides, and what it shows.
struct System {
    const char* name;
    const char* preset;
    std::vector<std::string> sets;
    const char* meaning;
};

const std::vector<System>& systems() {
    static const std::vector<System> all = {
        {"default", "gtx980", {}, "gtx980: memory hierarchy (crossbar, L2 slices, GDDR5 channels), PCIe"},
        {"simple", "small", {}, "small: memory.model = \"simple\""},
        {"uvm", "gtx980", {"uvm.mode=managed"}, "gtx980 with uvm.mode = \"managed\" (TLBs, GMMU, demand paging)"},
        {"compressed", "gtx980", {"uvm.mode=managed", "uvm.compression.enabled=true"},
         "uvm with uvm.compression.enabled = true (LCP/BDI capacity compression)"},
        {"mesh", "gtx980", {"memory.interconnect=mesh"}, "gtx980 with memory.interconnect = \"mesh\""},
        {"stacked", "gtx980", {"memory.interconnect=stacked"}, "gtx980 with memory.interconnect = \"stacked\" (2.5D)"},
        {"hbm", "stacked", {}, "stacked: four HBM2 stacks with per-bank refresh"},
        {"patent", "gtx980", {"kernel_scheduler.policy=patent"}, "gtx980 with kernel_scheduler.policy = \"patent\""},
        {"classes", "gtx980", {"preemption.policy=switch", "gpu.sm.icache_fill=memory"},
         "gtx980 with preemption.policy = \"switch\" and gpu.sm.icache_fill = \"memory\" (context and instruction "
         "traffic classes)"},
    };
    return all;
}

/// The stats one system registers at elaboration. The system is built, never run, in a child
/// process: SystemC elaborates once per process, so several systems named "gpu" cannot be
/// built in one.
std::vector<sim::StatRegistry::Info> registered(const System& s) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(sim::run_in_child_text([&] {
            sim::ConfigDoc doc = load_config(s.preset);
            for (const auto& set : s.sets) doc.apply_override(set);
            doc.apply_override("run.size=256");  // built, never run: a small data set
            RunConfig cfg = read_run_config(doc);
            Applications apps(cfg, "");
            sim::StatRegistry stats;
            GpuSystem gpu("gpu", cfg, apps.system_apps(), "", stats, false);
            nlohmann::json out = nlohmann::json::array();
            for (auto& i : stats.describe()) out.push_back({i.name, i.kind, i.unit, i.desc});
            return out.dump();
        }));
    } catch (const std::exception& e) {
        throw std::runtime_error(fmt::format("stats dictionary: building system '{}' failed: {}", s.name, e.what()));
    }
    std::vector<sim::StatRegistry::Info> infos;
    for (auto& e : j) infos.push_back({e[0], e[1], e[2], e[3]});
    return infos;
}

/// `name` split into runs of digits and of other characters.
std::vector<std::string> runs(const std::string& name) {
    std::vector<std::string> out;
    for (char c : name) {
        const bool digit = std::isdigit(static_cast<unsigned char>(c)) != 0;
        if (out.empty() || (std::isdigit(static_cast<unsigned char>(out.back()[0])) != 0) != digit) out.emplace_back();
        out.back() += c;
    }
    return out;
}

bool is_number(const std::string& run) { return !run.empty() && std::isdigit(static_cast<unsigned char>(run[0])); }

std::vector<StatPattern> build() {
    struct Seen {
        sim::StatRegistry::Info info;
        std::set<std::string> systems;
    };
    std::map<std::string, Seen> names;
    for (const System& s : systems())
        for (auto& info : registered(s)) {
            auto& seen = names[info.name];
            if (seen.systems.empty()) seen.info = info;
            seen.systems.insert(s.name);
        }
    // Names of one shape (digits aside) form a family; a digit run whose value varies within
    // the family is an instance number (sm0..sm15), one that does not is part of the name (l2, h2d).
    std::map<std::string, std::vector<std::string>> shapes;
    for (auto& [name, seen] : names) {
        std::string shape;
        for (auto& r : runs(name)) shape += is_number(r) ? "#" : r;
        shapes[shape].push_back(name);
    }
    std::map<std::string, StatPattern> patterns;
    for (auto& [shape, family] : shapes) {
        std::vector<std::set<std::string>> values;
        for (auto& name : family) {
            size_t k = 0;
            for (auto& r : runs(name))
                if (is_number(r)) {
                    if (values.size() <= k) values.resize(k + 1);
                    values[k++].insert(r);
                }
        }
        for (auto& name : family) {
            std::string pattern;
            size_t k = 0;
            for (auto& r : runs(name)) pattern += is_number(r) ? (values[k++].size() > 1 ? "N" : r) : r;
            const Seen& seen = names[name];
            auto [it, fresh] = patterns.emplace(pattern, StatPattern{pattern, seen.info.kind, seen.info.unit,
                                                                      seen.info.desc, {}});
            for (auto& sys : seen.systems)
                if (std::find(it->second.systems.begin(), it->second.systems.end(), sys) == it->second.systems.end())
                    it->second.systems.push_back(sys);
            (void)fresh;
        }
    }
    std::vector<StatPattern> out;
    for (auto& [p, sp] : patterns) {
        if (sp.systems.size() == systems().size()) {
            sp.systems.clear();
        } else {
            std::vector<std::string> ordered;  // in the order of systems()
            for (const System& s : systems())
                if (std::find(sp.systems.begin(), sp.systems.end(), s.name) != sp.systems.end())
                    ordered.push_back(s.name);
            sp.systems = ordered;
        }
        out.push_back(std::move(sp));
    }
    return out;
}

/// `name` matches `pattern`, each N of the pattern matching one or more digits.
bool matches(const char* p, const char* n) {
    if (!*p) return !*n;
    if (*p == 'N') {
        for (const char* m = n; std::isdigit(static_cast<unsigned char>(*m));)
            if (matches(p + 1, ++m)) return true;
        return false;
    }
    return *p == *n && matches(p + 1, n + 1);
}

std::string escape_cell(const std::string& s) {
    std::string out;
    for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

}  // namespace

const std::vector<StatPattern>& stats_dictionary() {
    static const std::vector<StatPattern> dictionary = build();
    return dictionary;
}

std::vector<std::pair<std::string, std::string>> stats_dictionary_systems() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const System& s : systems()) out.emplace_back(s.name, s.meaning);
    return out;
}

bool stat_is_known(const std::string& name) {
    for (const auto& p : stats_dictionary())
        if (matches(p.pattern.c_str(), name.c_str())) return true;
    return false;
}

std::string stats_markdown() {
    std::string out =
        "# Statistics\n\n"
        "Generated by `stacksim stats --markdown` from the stats registry of representative systems (each "
        "statistic is registered with its name, unit and description by the module that owns it); a test "
        "fails when this file differs from what the code generates, or when a statistic lacks a unit or "
        "a description, so do not edit it by hand.\n\n"
        "A run writes every statistic to `stats.json` (`{\"name\": {\"value\": ..., \"unit\": ..., \"desc\": "
        "...}}`), `stats.csv` and `stats.txt` ([usage.md](usage.md#outputs)). N stands for an instance "
        "number: `gpu.smN.warp_instructions` is `gpu.sm0.warp_instructions`, `gpu.sm1.warp_instructions`, "
        "and so on. Kinds: a *counter* is an integer; an *average* is written as `{mean, count, min, max}` "
        "and a *histogram* as `{bucket_width, counts, mean, count, max}` (the CSV and text files show "
        "their mean); a *formula* is computed when the stats are written (rates, ratios, bandwidths).\n\n"
        "**Regions of interest.** `sim::StatRegistry::reset()` (`sim/stats.h`) starts a region: from then on "
        "every counter, average (mean, count) and histogram (counts, mean, count) reports what it gathered "
        "since the reset; the modules' own values are untouched, so a reset never changes the simulation. "
        "Averages' and histograms' min and max still cover the whole run; a formula follows the region only "
        "if its module registers a `StatRegistry::on_reset()` hook. A run without a reset reports the whole "
        "run, exactly as before.\n\n"
        "**Names.** A statistic's path is its module's object name: the per-SM L1 configured by `[gpu.l1]` "
        "is `gpu.smN_l1`, an L2 slice of `[memory.l2]` is `gpu.mem.l2_N`, a DRAM channel of `[memory.dram]` "
        "`gpu.mem.dram_N` (config paths and object names were not aligned: not cheap while others edit top/). The per-class cache counters exist only where their traffic class can reach "
        "the cache (docs/protocol.md, `traffic`): an L1 has `walk_forwards` (with uvm), `context_forwards` "
        "(with a preemption policy that moves contexts) and `instruction_forwards` (with "
        "`gpu.sm.icache_fill = \"memory\"`); an L2 slice has `walk_reads` and `walk_read_hits` (with uvm) "
        "and `instruction_reads` (with memory I-cache fills). Until this change every cache registered all "
        "six, zero where the class could not occur (an L1's walk and instruction reads, an L2's forwards "
        "were always zero).\n\n"
        "Which statistics a run has depends on its configuration. The last column names the "
        "representative systems that have the statistic (empty: every system):\n\n"
        "| system | configuration |\n|---|---|\n";
    for (auto& [name, meaning] : stats_dictionary_systems())
        out += fmt::format("| `{}` | {} |\n", name, escape_cell(meaning));
    out += "\n| statistic | kind | unit | meaning | systems |\n|---|---|---|---|---|\n";
    for (const auto& p : stats_dictionary()) {
        std::string sys;
        for (const auto& s : p.systems) sys += (sys.empty() ? "" : ", ") + s;
        out += fmt::format("| `{}` | {} | {} | {} | {} |\n", p.pattern, p.kind, escape_cell(p.unit),
                           escape_cell(p.description), sys);
    }
    return out;
}

std::string stats_text(const std::string& prefix) {
    size_t width = 0;
    for (const auto& p : stats_dictionary())
        if (p.pattern.rfind(prefix, 0) == 0) width = std::max(width, p.pattern.size());
    std::string out;
    for (const auto& p : stats_dictionary()) {
        if (p.pattern.rfind(prefix, 0) != 0) continue;
        std::string sys;
        for (const auto& s : p.systems) sys += (sys.empty() ? " (" : ", ") + s;
        if (!sys.empty()) sys += ")";
        out += fmt::format("{:<{}}  [{}] {}{}\n", p.pattern, width, p.unit, p.description, sys);
    }
    return out;
}

int stats_command(const std::vector<std::string>& args) {
    const char* usage = "usage: stacksim stats --list [PREFIX] | --markdown";
    if (args.size() == 2 && args[1] == "--markdown") {
        fmt::print("{}", stats_markdown());
        return 0;
    }
    if ((args.size() == 2 || args.size() == 3) && args[1] == "--list") {
        const std::string prefix = args.size() == 3 ? args[2] : "";
        std::string text = stats_text(prefix);
        if (text.empty()) throw sim::InputError(fmt::format("stats --list {}: no statistic starts with that", prefix));
        fmt::print("{}", text);
        return 0;
    }
    if (args.size() == 2 && (args[1] == "--help" || args[1] == "-h")) {
        fmt::print("{}\n", usage);
        return 0;
    }
    throw sim::InputError(usage);
}

}  // namespace stacksim::top
