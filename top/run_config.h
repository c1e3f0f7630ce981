// SPDX-License-Identifier: Apache-2.0
// The whole simulation's configuration: GPU, memory, host and run settings.
#pragma once
#include <cstdint>
#include <string>

#include "core/sm_config.h"
#include "memory/l1_cache_config.h"
#include "memory/simple_memory_config.h"
#include "sim/config.h"
#include "workloads/synthetic/synthetic_config.h"

namespace stacksim::top {

/// GPU-level settings (section [gpu]); the SM is [gpu.sm], memory [memory].
struct GpuConfig {
    uint32_t num_sms = 16;
    double core_clock_mhz = 1216.0;
    uint64_t watchdog_cycles = 20'000'000;  ///< no CTA finishing for this long = deadlock
    std::string cta_scheduler = "round_robin";
    void validate() const;
};

/// What to run (section [run]).
struct RunSettings {
    std::string workload = "vecadd";
    uint32_t size = 0;   ///< 0: the workload's default size
    uint64_t seed = 1;
    void validate() const {}
};

/// Every module's configuration, read from one TOML document.
struct RunConfig {
    GpuConfig gpu;
    core::SmConfig sm;
    memory::L1CacheConfig l1;
    memory::SimpleMemoryConfig memory;
    RunSettings run;
    workloads::SyntheticConfig synthetic;  ///< [synthetic], used by the "synthetic" workload
};

/// Reads every section of `doc` into a RunConfig, validates each and rejects unknown keys.
/// Throws ConfigError naming file, line and key.
RunConfig read_run_config(sim::ConfigDoc& doc);

/// The preset named `name` ("gtx980") or the TOML file at that path. Throws InputError.
sim::ConfigDoc load_config(const std::string& name_or_path);

}  // namespace stacksim::top
