// SPDX-License-Identifier: Apache-2.0
// The whole simulation's configuration: GPU, memory, host and run settings.
#pragma once
#include <cstdint>
#include <string>

#include "core/sm_config.h"
#include "common/address_map.h"
#include "memory/dram_timing.h"
#include "memory/host_memory.h"
#include "memory/pcie_config.h"
#include "memory/sector_cache_config.h"
#include "memory/uvm_config.h"
#include "noc/crossbar_config.h"
#include "noc/interconnect_config.h"
#include "memory/simple_memory_config.h"
#include "sim/config.h"
#include "sim/policy_catalog.h"

namespace stacksim::top {

/// GPU-level settings (section [gpu]); the SM is [gpu.sm], memory [memory].
struct GpuConfig {
    uint32_t num_sms = 16;
    double core_clock_mhz = 1216.0;
    uint64_t watchdog_cycles = 100'000'000;  ///< no CTA finishing for this long = deadlock
    std::string cta_scheduler = "round_robin";
    void validate() const;
};

/// What to run (section [run]).
struct RunSettings {
    sim::PolicySpec workload = "vecadd";  ///< with its parameters ([synthetic], [pchase])
    uint32_t size = 0;   ///< 0: the workload's default size
    uint64_t seed = 1;
    void validate() const {}
};

/// Every module's configuration, read from one TOML document.
struct RunConfig {
    GpuConfig gpu;
    core::SmConfig sm;
    memory::SectorCacheConfig l1;
    memory::SimpleMemoryConfig memory;     ///< [memory]: the simple model, and the channels' stand-in
    std::string memory_model = "simple";  ///< memory.model: "simple" or "hierarchy"
    common::AddressMap address_map{4, 256, false};  ///< [memory.map]
    noc::CrossbarConfig crossbar;          ///< [memory.crossbar]
    /// memory.interconnect: "crossbar" ([memory.crossbar]), "mesh" or "stacked" ([memory.noc]).
    std::string interconnect = "crossbar";
    noc::NocInterconnectConfig noc;        ///< [memory.noc]
    noc::NetworkConfig noc_network;        ///< the network resolved from [memory.noc] (mesh / stacked only)
    memory::SectorCacheConfig l2 = default_l2();  ///< [memory.l2], one slice per partition
    /// [memory.dram]: channel behind each L2 slice; preset "fixed" = the simple memory with
    /// [memory]'s latency and bandwidth / partitions.
    std::string dram_preset = "gddr5";
    memory::DramChannelConfig dram = memory::DramChannelConfig::preset("gddr5");

    /// L2 slice defaults: 256 KB, 16 ways, write-back, atomics executed, 64 MSHRs.
    static memory::SectorCacheConfig default_l2();
    RunSettings run;
    memory::PcieConfig pcie;               ///< [pcie]
    memory::HostMemoryConfig host_memory;  ///< [host.memory]
    bool timed_copies = true;              ///< host.timed_copies: memcpy crosses the PCIe link
    memory::UvmConfig uvm;                 ///< [uvm]: unified memory, translation, paging
};

/// Reads every section of `doc` into a RunConfig, validates each and rejects unknown keys.
/// Throws ConfigError naming file, line and key.
RunConfig read_run_config(sim::ConfigDoc& doc);

/// The preset named `name` ("gtx980") or the TOML file at that path. Throws InputError.
sim::ConfigDoc load_config(const std::string& name_or_path);

}  // namespace stacksim::top
