// SPDX-License-Identifier: Apache-2.0
// The run configuration: its sections, read from TOML through each module's declared parameters.
#include "top/run_config.h"

#include "sched/preemption_policy.h"

#include "memory/dram_model.h"

#include <sys/stat.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>

#include "sched/cta_placement.h"
#include "sim/printable.h"
#include "sched/warp_scheduler_registry.h"
#include "top/embedded_presets.h"
#include "top/memory_estimate.h"
#include "workloads/workload_registry.h"

namespace stacksim::top {

memory::SectorCacheConfig RunConfig::default_l2() {
    memory::SectorCacheConfig c;
    c.role = memory::CacheRole::L2;
    c.size_bytes = 262144;
    c.ways = 16;
    c.hit_latency = 100;
    c.mshrs = 64;
    c.mshr_merge = 16;
    c.queue_depth = 16;
    c.write_policy = memory::WritePolicy::WriteBack;
    c.atomics = memory::AtomicPolicy::Execute;
    c.victim_tags = 0;
    c.hashed_sets = true;
    return c;
}

namespace {

/// One table of the run configuration and the struct it fills.
struct Section {
    std::string path;
    std::string description;
    std::function<void(sim::ConfigSection, RunConfig&)> read;
    std::function<std::vector<sim::SectionDoc>(const RunConfig&)> document;
};

template <typename Cfg>
Section section(std::string path, std::string description, Cfg RunConfig::*member, std::vector<std::string> skip = {}) {
    Section s;
    s.path = path;
    s.description = description;
    s.read = [member, skip](sim::ConfigSection cs, RunConfig& c) { Cfg::params().read_into(cs, c.*member, skip); };
    s.document = [member, skip, path, description](const RunConfig& c) {
        return Cfg::params().document(path, description, &(c.*member), skip);
    };
    return s;
}

/// The sections in reading order: a section's cross-key checks may rely on those before it.
const std::vector<Section>& sections() {
    static const std::vector<Section> all = {
        section("gpu", "the GPU", &RunConfig::gpu),
        section("gpu.sm", "each streaming multiprocessor (SM); cycles are core cycles", &RunConfig::sm),
        section("gpu.sm", "", &RunConfig::sm_policies),
        section("gpu.l1", "the per-SM L1 data cache (core cycles)", &RunConfig::l1, {"atomics", "atomic_latency"}),
        section("memory", "the memory system; the other keys configure the simple model", &RunConfig::mem),
        section("memory", "", &RunConfig::memory),
        section("memory.map", "how addresses spread over the memory partitions (hierarchy)", &RunConfig::address_map),
        section("memory.crossbar", "the SM-to-partition crossbar (memory.interconnect = \"crossbar\")",
                &RunConfig::crossbar),
        section("memory.noc",
                "the router network as the interconnect (memory.interconnect = \"mesh\" or \"stacked\"); the "
                "router keys are those of stacksim noc's [noc]",
                &RunConfig::noc),
        section("memory.l2", "each L2 slice, one per partition (core cycles)", &RunConfig::l2,
                {"enabled", "atomics", "victim_tags"}),
        section("memory.dram", "the DRAM channel of each partition (cycles of the DRAM command clock)",
                &RunConfig::dram),
        section("pcie", "the host-GPU PCIe link and its DMA engines", &RunConfig::pcie),
        section("host", "the host", &RunConfig::host),
        section("host.memory", "host DRAM as the DMA engines see it", &RunConfig::host_memory),
        section("uvm", "unified memory: translation, GMMU, demand paging (core cycles unless ns)", &RunConfig::uvm),
        section("uvm.etc", "ETC oversubscription management: classifier, policy engine, techniques (docs/etc.md)",
                &RunConfig::etc),
        section("run", "what to run", &RunConfig::run),
        section("preemption", "the preemption controller: SMs taken for higher-priority kernels (docs/preemption.md)",
                &RunConfig::preemption),
        section("kernel_scheduler",
                "which pending kernel launches next, and preemption of running kernels (docs/preemption.md)",
                &RunConfig::kernel_scheduler),
    };
    return all;
}

}  // namespace

const sim::Params<GpuConfig>& GpuConfig::params() {
    using C = GpuConfig;
    static const auto p = [] {
        sim::Params<C> p;
        p.add("num_sms", &C::num_sms, "SMs", "streaming multiprocessors").range(1, 1024);
        p.add("core_clock_mhz", &C::core_clock_mhz, "MHz", "core clock (SM cycles)").range(1.0, 100000.0);
        p.add("watchdog_cycles", &C::watchdog_cycles, "cycles",
              "no CTA finishing (and no demand-paging progress) for this many cycles is a deadlock (exit 3)")
            .range(1, uint64_t{1} << 50);
        p.policy("cta_scheduler", &C::cta_scheduler, sched::cta_placements(), "CTA placement policy");
        p.add("max_resident_kernels", &C::max_resident_kernels, "kernels",
              "kernels the distributor lets run at once (Hyper-Q-like hardware queues); more wait in the pool")
            .range(1, 1024);
        p.add("sm_sharing", &C::sm_sharing, "",
              "smk: any SM takes CTAs of any running kernel its resources allow; spatial: disjoint SM sets, one per "
              "kernel with CTAs waiting")
            .names({{"smk", sched::SmSharing::Smk}, {"spatial", sched::SmSharing::Spatial}});
        return p;
    }();
    return p;
}

const sim::Params<SmPolicies>& SmPolicies::params() {
    static const auto p = [] {
        sim::Params<SmPolicies> p;
        p.policy("warp_scheduler", &SmPolicies::warp_scheduler, sched::warp_schedulers(),
                 "warp-scheduling policy of every scheduler (docs/architecture.md)");
        return p;
    }();
    return p;
}

const sim::Params<MemoryChoice>& MemoryChoice::params() {
    using C = MemoryChoice;
    static const auto p = [] {
        sim::Params<C> p;
        p.add("model", &C::model, "",
              "simple: one fixed-latency, bandwidth-limited memory; hierarchy: interconnect, L2 slices, DRAM channels")
            .names({{"simple", MemoryModel::Simple}, {"hierarchy", MemoryModel::Hierarchy}});
        p.add("interconnect", &C::interconnect, "",
              "the hierarchy's SM-to-partition interconnect: crossbar, or a router mesh / 2.5D network ([memory.noc])")
            .names({{"crossbar", Interconnect::Crossbar}, {"mesh", Interconnect::Mesh}, {"stacked", Interconnect::Stacked}});
        return p;
    }();
    return p;
}

const sim::Params<HostConfig>& HostConfig::params() {
    static const auto p = [] {
        sim::Params<HostConfig> p;
        p.add("timed_copies", &HostConfig::timed_copies, "", "memcpy crosses the PCIe link (false: copies take no time)");
        p.add("launch_latency_us", &HostConfig::launch_latency_us, "us",
              "kernel launch call to the GPU's kernel pool (thesis ch.4 measures 3-33 us)")
            .range(0.0, 100000.0);
        return p;
    }();
    return p;
}

const sim::Params<RunSettings>& RunSettings::params() {
    using C = RunSettings;
    static const auto p = [] {
        sim::Params<C> p;
        p.policy("workload", &C::workload, workloads::workload_registry(),
                 "workload to run (stacksim list); its parameters are the table named after it",
                 sim::PolicyParamsAt::Root);
        p.add("size", &C::size, "", "problem size; 0 = the workload's default").range(0, 1u << 30);
        p.add("seed", &C::seed, "", "seed of the random inputs and of every seeded policy");
        p.add("alone_runs", &C::alone_runs, "",
              "with several applications, also run each alone on the same GPU (child processes) for STP and ANTT");
        p.add("alone_jobs", &C::alone_jobs, "processes",
              "alone runs at once (each a child process with the memory of one run); 0 = the machine's cores")
            .range(0, 1024);
        p.add("max_memory_gb", &C::max_memory_gb, "GB",
              "refuse a run whose estimated memory (caches, TLBs, SM state, network, workload data) exceeds this; "
              "0 = half of the machine's physical memory")
            .range(0.0, 1e6);
        return p;
    }();
    return p;
}

double RunConfig::memory_peak_gbps() const {
    if (mem.model == MemoryModel::Simple) return memory.bandwidth_gbps;
    return memory::dram_models().create(dram.model)->peak_gbps(dram, memory, address_map.partitions);
}

RunConfig read_run_config(sim::ConfigDoc& doc) {
    RunConfig c;
    for (const Section& s : sections()) s.read(doc.section(s.path), c);
    // Cross-section rules.
    if (c.mem.interconnect != Interconnect::Crossbar && c.mem.model != MemoryModel::Hierarchy)
        doc.section("memory").fail("interconnect", "a router network needs memory.model = \"hierarchy\" (the simple "
                                                   "memory has no partitions)");
    if (c.etc.enabled() && !c.uvm.managed())
        doc.section("uvm.etc").fail("mode", "ETC manages demand paging: it needs uvm.mode = \"managed\"");
    c.apps = read_app_configs(doc);
    if (!c.apps.empty())
        for (const char* key : {"workload", "size"})
            if (doc.section("run").has(key))
                doc.section("run").fail(key, "give the workload either in [run] (one application) or in [[app]] tables");
    // The traffic classes that can reach the caches in this run (their per-class counters).
    uint32_t classes = memory::traffic_bit(sim::TrafficClass::Demand);
    if (c.sm.icache_fill == core::IcacheFill::Memory) classes |= memory::traffic_bit(sim::TrafficClass::Instruction);
    if (c.uvm.mode != memory::UvmMode::Off) classes |= memory::traffic_bit(sim::TrafficClass::PageWalk);
    if (sched::preemption_policies().create(c.preemption.policy)->moves_context())
        classes |= memory::traffic_bit(sim::TrafficClass::Context);
    c.l1.classes = c.l2.classes = classes;
    c.dram.channels = c.address_map.partitions;
    c.sm.context_stagger_bytes = c.address_map.interleave_bytes;
    c.sm.context_stagger_steps = c.address_map.partitions;
    c.dram.interleave_bytes = c.address_map.interleave_bytes;
    if (c.mem.interconnect != Interconnect::Crossbar) {
        // Resolve the network now so that a grid too small for the SMs, or routers with too many
        // ports for the VCs, is a configuration error naming the key.
        const unsigned max_data = std::max({c.sm.line_bytes, c.l1.line_bytes, c.l2.line_bytes});
        struct Resolve {
            RunConfig& c;
            unsigned max_data;
            void validate() const {
                c.noc_network = c.noc.network_for(c.mem.interconnect == Interconnect::Stacked ? "stacked" : "mesh",
                                                  c.gpu.num_sms, c.address_map.partitions, max_data);
            }
        };
        auto s = doc.section("memory.noc");
        sim::validate_in(s, Resolve{c, max_data});
    }
    doc.check_all_used();
    check_memory(c, doc);
    return c;
}

std::vector<sim::SectionDoc> run_config_docs() {
    const RunConfig defaults;
    std::vector<sim::SectionDoc> out;
    for (const Section& s : sections())
        for (auto& d : s.document(defaults)) {
            auto same = std::find_if(out.begin(), out.end(), [&](const sim::SectionDoc& o) { return o.path == d.path; });
            if (same == out.end()) {
                out.push_back(std::move(d));
            } else {
                for (auto& p : d.params) same->params.push_back(std::move(p));
                if (same->description.empty()) same->description = d.description;
            }
        }
    for (auto& d : app_config_docs()) out.push_back(std::move(d));
    return out;
}

namespace {

/// A name the system may refuse (too long, say) is quoted short in messages, not echoed whole;
/// control characters and a NUL are escaped (a NUL would end the message).
std::string shortened(const std::string& name) {
    return sim::printable(name.size() <= 200 ? name
                                             : fmt::format("{}... ({} characters)", name.substr(0, 60), name.size()));
}

std::string preset_names() {
    std::string names;
    for (const auto& f : embedded_presets())
        names += (names.empty() ? "" : ", ") + std::string(f.file_name.substr(0, f.file_name.size() - 5));
    return names;
}

/// Why `p` is not a config file to read: "does not exist", "is a folder", "is a FIFO"...
std::string not_a_file(const std::filesystem::path& p) {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) return errno == ENOENT ? "does not exist" : std::strerror(errno);
    if (S_ISDIR(st.st_mode)) return "is a folder";
    if (S_ISFIFO(st.st_mode)) return "is a FIFO";
    if (S_ISCHR(st.st_mode)) return "is a character device";
    if (S_ISBLK(st.st_mode)) return "is a block device";
    if (S_ISSOCK(st.st_mode)) return "is a socket";
    return "is not a regular file";
}

/// The preset or file `name` (a relative path taken from `dir`) with its bases under it;
/// `chain` holds the identities of the documents that lead here, to refuse cycles and chains
/// longer than kMaxBaseDepth (checked before the next file is read).
sim::ConfigDoc load_chain(const std::string& name, const std::string& dir, std::vector<std::string>& chain,
                          const std::string& where) {
    const std::string at = where.empty() ? shortened(name) : where + ": base";
    if (name.find('\0') != std::string::npos)
        throw sim::InputError(fmt::format("{}: '{}' contains a NUL character", at, shortened(name)));
    if (chain.size() >= kMaxBaseDepth)
        throw sim::InputError(fmt::format("{}: a chain of more than {} configs (each naming the next by base) "
                                          "is refused", at, kMaxBaseDepth));
    std::optional<sim::ConfigDoc> doc;
    std::string identity, next_dir;
    for (const auto& f : embedded_presets()) {
        std::string stem(f.file_name.substr(0, f.file_name.size() - 5));
        if (name == stem) {
            doc = sim::ConfigDoc::from_string(std::string(f.text), "preset " + std::string(f.file_name));
            identity = "preset " + stem;
        }
    }
    if (!doc) {
        std::filesystem::path p(name);
        if (p.is_relative() && !dir.empty()) p = std::filesystem::path(dir) / p;
        std::error_code ec;
        if (!std::filesystem::is_regular_file(p, ec)) {
            const std::string why = not_a_file(p);
            if (where.empty())
                throw sim::InputError(fmt::format("{}: no such config file or preset ({}; presets: {})",
                                                  shortened(name), why, preset_names()));
            throw sim::InputError(fmt::format("{}: base: '{}' is neither a preset nor a file ({} {}; "
                                              "presets: {})", where, shortened(name), shortened(p.string()), why,
                                              preset_names()));
        }
        doc = sim::ConfigDoc::from_file(p.string());
        identity = std::filesystem::weakly_canonical(p).string();
        next_dir = p.parent_path().string();
    }
    if (std::find(chain.begin(), chain.end(), identity) != chain.end()) {
        std::string loop;
        for (const auto& c : chain) loop += c + " -> ";
        throw sim::InputError(fmt::format("{}: base: '{}' makes a cycle ({}{})", where, name, loop, identity));
    }
    chain.push_back(identity);
    if (auto base = doc->take_base()) {
        // Presets name presets; a file's relative base is taken from the file's folder.
        doc->inherit(load_chain(base->name, next_dir, chain, base->where));
    }
    chain.pop_back();
    return std::move(*doc);
}

}  // namespace

sim::ConfigDoc load_config(const std::string& name_or_path) {
    std::vector<std::string> chain;
    return load_chain(name_or_path, "", chain, "");
}

std::string config_origin(const sim::ConfigDoc& doc) {
    std::string s = doc.source_name();
    if (s.rfind("preset ", 0) == 0 && doc.bases().empty()) return s;
    if (doc.bases().empty()) return s + " (no base: built-in defaults)";
    std::string chain;
    for (const auto& b : doc.bases()) chain += (chain.empty() ? "" : ", ") + b;
    return s + " (base: " + chain + ")";
}

}  // namespace stacksim::top
