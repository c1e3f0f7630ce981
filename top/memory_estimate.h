// SPDX-License-Identifier: Apache-2.0
// The host memory a run will need, estimated from its configuration before anything is built.
#pragma once
#include <cstdint>
#include <string>

#include "top/run_config.h"

namespace stacksim::top {

/// Bytes of host memory a run needs, by part. Each part counts the simulator's own state per
/// modelled item (measured: a cache line or TLB entry costs about 32 / 24 bytes, a warp slot's
/// bookkeeping about 24 bytes per thread and a resident thread's registers about 256), so the
/// total is close to the peak resident size of a run (within about 2x) without building it.
struct MemoryEstimate {
    uint64_t caches = 0;       ///< L1s, L2 slices, I-caches, constant caches, victim tags
    uint64_t translation = 0;  ///< L1 TLBs, the L2 TLB, the page-walk cache
    uint64_t cores = 0;        ///< per-SM state: warp slots, registers of resident threads
    uint64_t network = 0;      ///< router buffers of the mesh / 2.5D interconnect
    uint64_t workload = 0;     ///< the workload's data on the host and in simulated device memory
    uint64_t base = 0;         ///< the program itself, SystemC and the fixed-size modules

    uint64_t total() const { return caches + translation + cores + network + workload + base; }
    /// "workload data 24.0 GB, caches 1.1 GB, ..." (the parts over 1% of the total, largest first).
    std::string breakdown() const;
};

/// Estimates the memory of a run of `cfg` (the workload of each [[app]] table, or of [run], at
/// its size; 0 = the workload's default). Throws InputError for a size a workload does not accept.
MemoryEstimate estimate_memory(const RunConfig& cfg);

/// The memory limit of a run in bytes: run.max_memory_gb, or half of this machine's physical
/// memory (default_memory_limit_bytes()) when that is 0.
uint64_t memory_limit_bytes(const RunConfig& cfg);
/// Half of this machine's physical memory, bytes.
uint64_t default_memory_limit_bytes();
/// Bytes of the router buffers of network `n` (MemoryEstimate::network).
uint64_t network_memory_bytes(const noc::NetworkConfig& n);
/// "24.0 GB", "16 MB", "2 KB".
std::string human_bytes(uint64_t bytes);

/// Throws ConfigError "run.max_memory_gb: ..." (naming where the limit was set) when the
/// estimate of `cfg` is over its limit; the message gives the estimate, its largest parts and
/// the limit.
void check_memory(const RunConfig& cfg, sim::ConfigDoc& doc);

}  // namespace stacksim::top
