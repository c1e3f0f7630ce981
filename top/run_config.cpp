// SPDX-License-Identifier: Apache-2.0
// Reads the TOML configuration into the per-module config structs.
#include "top/run_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "noc/network.h"
#include "sched/cta_dispatcher.h"
#include "sched/warp_schedulers.h"
#include "sim/param.h"
#include "top/embedded_presets.h"
#include "top/uvm_config_reader.h"
#include "workloads/workload_registry.h"

namespace stacksim::top {

memory::SectorCacheConfig RunConfig::default_l2() {
    memory::SectorCacheConfig c;
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

void read_pipe(sim::ConfigSection s, core::PipeConfig& p) {
    s.read("units", p.units);
    s.read("initiation_interval", p.initiation_interval);
    s.read("latency", p.latency);
}

/// Resolves the network of memory.interconnect into `out`, reporting its configuration errors.
struct NocNetworkCheck {
    const RunConfig& c;
    unsigned max_data;
    noc::NetworkConfig& out;
    void validate() const { out = c.noc.network(c.interconnect, c.gpu.num_sms, c.address_map.partitions, max_data); }
};

}  // namespace

RunConfig read_run_config(sim::ConfigDoc& doc) {
    RunConfig c;
    {
        auto s = doc.section("gpu");
        s.read("num_sms", c.gpu.num_sms);
        s.read("core_clock_mhz", c.gpu.core_clock_mhz);
        s.read("watchdog_cycles", c.gpu.watchdog_cycles);
        s.read_choice("cta_scheduler", c.gpu.cta_scheduler, sched::cta_scheduler_registry().names());
        sim::validate_in(s, c.gpu);
    }
    {
        auto s = doc.section("gpu.sm");
        core::SmConfig& m = c.sm;
        s.read("max_threads", m.max_threads);
        s.read("max_ctas", m.max_ctas);
        s.read("registers", m.registers);
        s.read("shared_memory_bytes", m.shared_memory_bytes);
        s.read("regs_per_thread", m.regs_per_thread);
        s.read("schedulers", m.schedulers);
        s.read_choice("warp_scheduler", m.warp_scheduler, sched::warp_scheduler_registry().names());
        s.read("ibuffer_entries", m.ibuffer_entries);
        s.read("fetch_width", m.fetch_width);
        s.read("fetch_latency", m.fetch_latency);
        read_pipe(doc.section("gpu.sm.alu"), m.alu);
        read_pipe(doc.section("gpu.sm.fp64"), m.fp64);
        read_pipe(doc.section("gpu.sm.sfu"), m.sfu);
        read_pipe(doc.section("gpu.sm.ldst"), m.ldst);
        s.read("branch_latency", m.branch_latency);
        s.read("shared_memory_latency", m.shared_memory_latency);
        s.read("shared_memory_banks", m.shared_memory_banks);
        s.read("regfile_banks", m.regfile_banks);
        s.read("collector_units", m.collector_units);
        s.read("icache_bytes", m.icache_bytes);
        s.read("icache_ways", m.icache_ways);
        s.read("icache_line_bytes", m.icache_line_bytes);
        s.read("icache_miss_latency", m.icache_miss_latency);
        s.read("instruction_bytes", m.instruction_bytes);
        s.read("const_cache_bytes", m.const_cache_bytes);
        s.read("const_cache_latency", m.const_cache_latency);
        s.read("const_miss_latency", m.const_miss_latency);
        s.read("line_bytes", m.line_bytes);
        s.read("sector_bytes", m.sector_bytes);
        s.read("max_pending_requests", m.max_pending_requests);
        s.read("requests_per_cycle", m.requests_per_cycle);
        sim::validate_in(s, m);
    }
    {
        memory::SectorCacheConfig::params().read_into(doc.section("gpu.l1"), c.l1, {"atomics", "atomic_latency"});
    }
    {
        auto s = doc.section("memory");
        s.read("clock_mhz", c.memory.clock_mhz);
        s.read("latency", c.memory.latency);
        s.read("bandwidth_gbps", c.memory.bandwidth_gbps);
        s.read("queue_depth", c.memory.queue_depth);
        s.read_choice("model", c.memory_model, {"simple", "hierarchy"});
        s.read_choice("interconnect", c.interconnect, {"crossbar", "mesh", "stacked"});
        if (c.interconnect != "crossbar" && c.memory_model != "hierarchy")
            s.fail("interconnect", fmt::format("'{}' needs memory.model = \"hierarchy\" (the simple memory has no "
                                               "partitions)",
                                               c.interconnect));
        sim::validate_in(s, c.memory);
    }
    {
        auto s = doc.section("memory.map");
        s.read("partitions", c.address_map.partitions);
        s.read("interleave_bytes", c.address_map.interleave_bytes);
        s.read("xor_hash", c.address_map.xor_hash);
        if (c.address_map.partitions == 0 || c.address_map.partitions > 256) s.fail("partitions", "must be in 1..256");
        if (c.address_map.interleave_bytes < 32 || (c.address_map.interleave_bytes & (c.address_map.interleave_bytes - 1)))
            s.fail("interleave_bytes", "must be a power of two >= 32");
    }
    {
        auto s = doc.section("memory.crossbar");
        s.read("clock_mhz", c.crossbar.clock_mhz);
        s.read("latency", c.crossbar.latency);
        s.read("width_bytes", c.crossbar.width_bytes);
        s.read("header_bytes", c.crossbar.header_bytes);
        s.read("queue_depth", c.crossbar.queue_depth);
        sim::validate_in(s, c.crossbar);
    }
    {
        auto s = doc.section("memory.noc");
        noc::NocInterconnectConfig& n = c.noc;
        s.read("clock_mhz", n.clock_mhz);
        s.read("width", n.width);
        s.read("height", n.height);
        s.read("concentration", n.concentration);
        s.read("vcs", n.vcs);
        s.read("buffer_depth", n.buffer_depth);
        s.read("pipeline_stages", n.pipeline_stages);
        s.read("link_latency", n.link_latency);
        s.read_choice("routing", n.routing, {"xy", "yx"});
        s.read("flit_bytes", n.flit_bytes);
        s.read("header_bytes", n.header_bytes);
        s.read("queue_depth", n.queue_depth);
        sim::validate_in(s, n);
    }
    {
        memory::SectorCacheConfig::params().read_into(doc.section("memory.l2"), c.l2, {"enabled", "atomics", "victim_tags"});
    }
    {
        auto s = doc.section("run");
        sim::PolicyParam<RunSettings>("workload", &RunSettings::workload, workloads::workload_registry(),
                                      "workload to run; its parameters are the table named after it",
                                      sim::PolicyParamsAt::Root)
            .read(s, &c.run);
        s.read("size", c.run.size);
        s.read("seed", c.run.seed);
    }
    {
        auto s = doc.section("memory.dram");
        s.read_choice("preset", c.dram_preset, {"fixed", "gddr5", "gddr6", "hbm2", "hbm3"});
        if (c.dram_preset != "fixed") c.dram = memory::DramChannelConfig::preset(c.dram_preset);
        s.read_choice("scheduler", c.dram.scheduler, {"fcfs", "frfcfs"});
        s.read_choice("page_policy", c.dram.page_policy, {"open", "closed"});
        s.read("read_queue_depth", c.dram.read_queue_depth);
        s.read("write_queue_depth", c.dram.write_queue_depth);
        s.read("write_high_watermark", c.dram.write_high_watermark);
        s.read("write_low_watermark", c.dram.write_low_watermark);
        s.read("max_row_hits", c.dram.max_row_hits);
        s.read("xor_bank_hash", c.dram.xor_bank_hash);
        s.read("refresh", c.dram.refresh);
        s.read_choice("refresh_mode", c.dram.refresh_mode, {"all_bank", "per_bank"});
        c.dram.channels = c.address_map.partitions;
        c.dram.interleave_bytes = c.address_map.interleave_bytes;
        if (c.dram_preset != "fixed") sim::validate_in(s, c.dram);
    }
    {
        auto s = doc.section("pcie");
        s.read("generation", c.pcie.generation);
        s.read("lanes", c.pcie.lanes);
        s.read("h2d_gbps", c.pcie.h2d_gbps);
        s.read("d2h_gbps", c.pcie.d2h_gbps);
        s.read("latency_ns", c.pcie.latency_ns);
        s.read("per_transfer_overhead_ns", c.pcie.per_transfer_overhead_ns);
        s.read("dma_engines", c.pcie.dma_engines);
        s.read("max_payload_bytes", c.pcie.max_payload_bytes);
        sim::validate_in(s, c.pcie);
    }
    {
        auto s = doc.section("host");
        s.read("timed_copies", c.timed_copies);
        auto m = doc.section("host.memory");
        m.read("bandwidth_gbps", c.host_memory.bandwidth_gbps);
        sim::validate_in(m, c.host_memory);
    }
    read_uvm_config(doc.section("uvm"), c.uvm);
    if (c.interconnect != "crossbar") {
        // Resolve the network now so that a grid too small for the SMs, or routers with too many
        // ports for the VCs, is a configuration error naming the key.
        auto s = doc.section("memory.noc");
        const unsigned max_data = std::max({c.sm.line_bytes, c.l1.line_bytes, c.l2.line_bytes});
        sim::validate_in(s, NocNetworkCheck{c, max_data, c.noc_network});
    }
    doc.check_all_used();
    return c;
}

sim::ConfigDoc load_config(const std::string& name_or_path) {
    for (const auto& f : embedded_presets()) {
        std::string stem(f.file_name.substr(0, f.file_name.size() - 5));
        if (name_or_path == stem)
            return sim::ConfigDoc::from_string(std::string(f.text), "preset " + std::string(f.file_name));
    }
    if (!std::filesystem::exists(name_or_path)) {
        std::string names;
        for (const auto& f : embedded_presets())
            names += (names.empty() ? "" : ", ") + std::string(f.file_name.substr(0, f.file_name.size() - 5));
        throw sim::InputError(fmt::format("{}: no such config file or preset (presets: {})", name_or_path, names));
    }
    return sim::ConfigDoc::from_file(name_or_path);
}

}  // namespace stacksim::top
