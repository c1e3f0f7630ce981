// SPDX-License-Identifier: Apache-2.0
// The native program's CUDA calls, carried to the simulated host thread one at a time.
#include "cudart/program_bridge.h"

#include "sim/error.h"

namespace stacksim::cudart {

void ProgramBridge::call(const std::function<void(workloads::HostApi&)>& fn) {
    std::unique_lock<std::mutex> lock(m_mutex);
    if (m_ended) throw sim::SimulationError(m_end_reason);
    m_pending = &fn;
    m_done = false;
    m_error = nullptr;
    m_cv.notify_all();
    m_cv.wait(lock, [&] { return m_done || m_ended; });
    m_pending = nullptr;
    if (!m_done) throw sim::SimulationError(m_end_reason);
    if (m_error) std::rethrow_exception(m_error);
}

void ProgramBridge::finish() {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_finish = true;
    m_cv.notify_all();
}

void ProgramBridge::simulation_ended(const std::string& why) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_ended = true;
    m_end_reason = why.empty() ? "the simulation has ended" : why;
    m_cv.notify_all();
}

bool ProgramBridge::ended() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_ended;
}

void ProgramBridge::run(workloads::HostApi& host) {
    std::unique_lock<std::mutex> lock(m_mutex);
    for (;;) {
        m_cv.wait(lock, [&] { return (m_pending && !m_done) || m_finish; });
        if (m_pending && !m_done) {
            const auto* fn = m_pending;
            lock.unlock();
            std::exception_ptr error;
            try {
                (*fn)(host);
            } catch (...) {
                error = std::current_exception();
            }
            lock.lock();
            m_error = error;
            m_done = true;
            m_cv.notify_all();
            continue;
        }
        return;
    }
}

}  // namespace stacksim::cudart
