// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the files that implement the CUDA runtime's entry points.
#pragma once
#include <vector>

#include "cudart/cuda_abi.h"
#include "cudart/runtime.h"
#include "workloads/host_api.h"

extern "C" cudaError_t cudaDeviceSynchronize();
extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t stream);

namespace stacksim::cudart {

/// Device memory the runtime reports (cudaMemGetInfo, totalGlobalMem): the simulator's device
/// memory is sparse and has no configured size.
inline constexpr uint64_t kDeviceMemoryBytes = uint64_t{4} << 30;

/// The legacy default stream's rule for work about to go to `target`: work on the default
/// stream (0) waits for every blocking stream's earlier work, and work on a blocking stream
/// waits for the default stream's earlier work. `blocking`: the blocking streams.
inline void order_with_legacy_stream(workloads::HostApi& h, workloads::StreamId target,
                                     const std::vector<workloads::StreamId>& blocking) {
    if (blocking.empty()) return;
    if (target == 0) {
        for (workloads::StreamId s : blocking) h.stream_wait_event(0, h.event_record(s));
    } else {
        h.stream_wait_event(target, h.event_record(0));
    }
}

}  // namespace stacksim::cudart
