// SPDX-License-Identifier: Apache-2.0
// The whole simulation's configuration: GPU, memory, host and run settings.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/address_map.h"
#include "core/sm_config.h"
#include "memory/dram_timing.h"
#include "memory/host_memory.h"
#include "memory/pcie_config.h"
#include "memory/sector_cache_config.h"
#include "memory/simple_memory_config.h"
#include "memory/etc_config.h"
#include "memory/uvm_config.h"
#include "noc/crossbar_config.h"
#include "noc/interconnect_config.h"
#include "sched/cta_dispatcher.h"
#include "sched/kernel_scheduler_config.h"
#include "sched/preemption_config.h"
#include "top/app_config.h"
#include "sim/config.h"
#include "sim/param.h"

namespace stacksim::top {

/// GPU-level settings ([gpu]); the SM is [gpu.sm], memory [memory].
struct GpuConfig {
    uint32_t num_sms = 16;
    double core_clock_mhz = 1216.0;
    uint64_t watchdog_cycles = 100'000'000;  ///< no CTA finishing for this long = deadlock
    sim::PolicySpec cta_scheduler{"round_robin"};
    uint32_t max_resident_kernels = 32;      ///< kernels running at once (Hyper-Q-like)
    sched::SmSharing sm_sharing = sched::SmSharing::Smk;
    static const sim::Params<GpuConfig>& params();
};

/// The choices of [gpu.sm] that name policies of sched/ (core::SmConfig cannot see sched/).
struct SmPolicies {
    sim::PolicySpec warp_scheduler{"lrr"};
    static const sim::Params<SmPolicies>& params();
};

/// Which memory system sits behind the SMs.
enum class MemoryModel : uint8_t { Simple, Hierarchy };
/// The hierarchy's SM-to-partition interconnect.
enum class Interconnect : uint8_t { Crossbar, Mesh, Stacked };

/// The choices of [memory] (its other keys configure the simple model).
struct MemoryChoice {
    MemoryModel model = MemoryModel::Simple;
    Interconnect interconnect = Interconnect::Crossbar;
    static const sim::Params<MemoryChoice>& params();
};

/// [host]: the host side of copies.
struct HostConfig {
    bool timed_copies = true;  ///< memcpy crosses the PCIe link (false: copies are free)
    double launch_latency_us = 5.0;  ///< kernel launch call -> the GPU's kernel pool (thesis: 3-33 us)
    static const sim::Params<HostConfig>& params();
};

/// What to run ([run]).
struct RunSettings {
    sim::PolicySpec workload{"vecadd"};  ///< with its parameters ([synthetic], [pchase])
    uint32_t size = 0;   ///< 0: the workload's default size
    uint64_t seed = 1;
    bool alone_runs = true;  ///< several applications: also run each alone (STP, ANTT)
    uint32_t alone_jobs = 0;  ///< alone runs at once; 0 = the machine's cores
    double max_memory_gb = 0;  ///< refuse runs estimated to need more; 0: half of the machine's memory
    static const sim::Params<RunSettings>& params();
};

/// Every module's configuration, read from one TOML document.
struct RunConfig {
    GpuConfig gpu;
    core::SmConfig sm;
    SmPolicies sm_policies;
    memory::SectorCacheConfig l1;
    MemoryChoice mem;
    memory::SimpleMemoryConfig memory;       ///< [memory]: the simple model, and the "fixed" channels
    common::AddressMap address_map{4, 256, false};  ///< [memory.map]
    noc::CrossbarConfig crossbar;            ///< [memory.crossbar]
    noc::NocInterconnectConfig noc;          ///< [memory.noc]
    noc::NetworkConfig noc_network;          ///< the network resolved from [memory.noc] (mesh / stacked only)
    memory::SectorCacheConfig l2 = default_l2();  ///< [memory.l2], one slice per partition
    /// [memory.dram]: the channel behind each L2 slice (name "fixed": the simple memory with
    /// [memory]'s latency and bandwidth / partitions).
    memory::DramChannelConfig dram = memory::DramChannelConfig::preset("gddr5");
    RunSettings run;
    memory::PcieConfig pcie;               ///< [pcie]
    HostConfig host;                       ///< [host]
    memory::HostMemoryConfig host_memory;  ///< [host.memory]
    memory::UvmConfig uvm;                 ///< [uvm]: unified memory, translation, paging
    memory::EtcConfig etc;                 ///< [uvm.etc]: oversubscription management (ETC)
    std::vector<AppConfig> apps;           ///< [[app]]; empty: one application from [run]
    sched::PreemptionConfig preemption;    ///< [preemption]
    sched::KernelSchedulerConfig kernel_scheduler;  ///< [kernel_scheduler]

    /// Peak bandwidth of the GPU's memory (all partitions), GB/s.
    double memory_peak_gbps() const;

    /// L2 slice defaults: 256 KB, 16 ways, write-back, atomics executed, 64 MSHRs.
    static memory::SectorCacheConfig default_l2();
};

/// Reads every section of `doc` into a RunConfig, validates each and rejects unknown keys.
/// Throws ConfigError naming file, line and key.
RunConfig read_run_config(sim::ConfigDoc& doc);

/// Every section `stacksim run` reads, with each key's default, unit, meaning and allowed values.
std::vector<sim::SectionDoc> run_config_docs();

/// The preset named `name` ("gtx980") or the TOML file at that path, standing on the preset or
/// file its root key `base` names (recursively; a relative file is taken from the including
/// file's folder). Throws InputError for a missing preset or file (saying what is there instead:
/// a folder, a FIFO, a device), a cycle of bases, a name with a NUL and a chain of more than
/// kMaxBaseDepth documents (refused before the next one is read).
constexpr size_t kMaxBaseDepth = 16;
sim::ConfigDoc load_config(const std::string& name_or_path);

/// Where a configuration comes from, for headers: "preset gtx980.toml", "my.toml (base: preset
/// gtx980.toml)", "a.toml (base: b.toml, preset gtx980.toml)" or "my.toml (no base: built-in defaults)".
std::string config_origin(const sim::ConfigDoc& doc);

}  // namespace stacksim::top
