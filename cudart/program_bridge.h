// SPDX-License-Identifier: Apache-2.0
// The native program's CUDA calls, carried to the simulated host thread one at a time.
#pragma once
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <string>

#include "workloads/host_api.h"
#include "workloads/workload.h"

namespace stacksim::cudart {

/// The workload the simulator runs for a native CUDA program. Its run() serves calls that the
/// program's thread posts with call(): each runs on the simulated host thread (so it takes
/// simulated time) while the program's thread waits, so the program's own code takes no
/// simulated time and the simulation stands still while it runs (deterministic).
class ProgramBridge : public workloads::Workload {
public:
    /// Runs `fn` on the simulated host thread and waits for it. Rethrows what `fn` threw. Throws
    /// sim::SimulationError when the simulation has ended (failed) instead.
    void call(const std::function<void(workloads::HostApi&)>& fn);
    /// Ends run(): the host program is over (called once, from the program's thread).
    void finish();
    /// The simulation ended (normally or by a failure, `why`): wakes a waiting call.
    void simulation_ended(const std::string& why);
    bool ended() const;

    void run(workloads::HostApi& host) override;
    /// The program checks its own results: nothing for the simulator to compare.
    workloads::VerifyResult verify() override { return {true, 0, 0, ""}; }

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    const std::function<void(workloads::HostApi&)>* m_pending = nullptr;
    bool m_done = false;       ///< the pending call has run
    bool m_finish = false;     ///< finish() was called
    bool m_ended = false;      ///< the simulation is over
    std::string m_end_reason;
    std::exception_ptr m_error;
};

}  // namespace stacksim::cudart
