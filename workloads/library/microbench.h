// SPDX-License-Identifier: Apache-2.0
// Memory microbenchmarks: pointer chase (latency per level) and stream (bandwidth).
#pragma once
#include <cstdint>
#include <memory>

#include "workloads/workload.h"

namespace stacksim::workloads {

/// [pchase] configuration: the distance between consecutive elements of the chain.
struct PchaseConfig {
    uint32_t stride_bytes = 128;  ///< multiple of 4; 128 = one new line per step
    void validate() const;
};

/// Pointer chase over `size` KB (a single cyclic chain, `stride_bytes` apart). Launches the
/// same one-thread kernel three times: a warm-up pass over the whole chain, then S steps from
/// element 0 and 2 x S steps from element S (from 0 if the chain is shorter than 3 x S),
/// S = min(chain length, 4096). Per-step latency in cycles =
/// (cycles of launch 3 - cycles of launch 2) / S. Every final index is checked.
std::unique_ptr<Workload> make_pchase(const PchaseConfig& cfg, uint32_t size_kb, uint64_t seed);

}  // namespace stacksim::workloads
