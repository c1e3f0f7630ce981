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

/// Runs `command` (a HostApi call that queues work: a launch, an asynchronous copy) on stream
/// `so`'s simulated stream (null: the legacy default stream), ordered with the legacy default
/// stream as CUDA orders a blocking stream's work.
template <typename F>
cudaError_t on_stream(Runtime& rt, StreamObject* so, F&& command) {
    const workloads::StreamId sid = so ? so->id : 0;
    const std::vector<workloads::StreamId> blocking = rt.blocking_streams();
    const bool legacy = !so || !(so->flags & kStreamNonBlocking);
    return rt.call([&](workloads::HostApi& h) {
        if (legacy) order_with_legacy_stream(h, sid, blocking);
        h.set_stream(sid);
        command(h);
    });
}

}  // namespace stacksim::cudart
