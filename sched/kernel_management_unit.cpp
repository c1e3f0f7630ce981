// SPDX-License-Identifier: Apache-2.0
// The kernel management unit: pending-kernel pool and the distributor with its resident-kernel cap.
#include "sched/kernel_management_unit.h"

namespace stacksim::sched {

void KernelManagementUnit::submit(core::KernelLaunch& launch, Started on_start, Done on_done) {
    m_pool.push_back({&launch, std::move(on_start), std::move(on_done)});
    distribute();
}

void KernelManagementUnit::distribute() {
    while (m_resident < m_max && !m_pool.empty()) {
        auto best = m_pool.begin();
        for (auto it = m_pool.begin(); it != m_pool.end(); ++it)
            if (it->launch->priority > best->launch->priority) best = it;
        Pending p = std::move(*best);
        m_pool.erase(best);
        ++m_resident;
        if (p.on_start) p.on_start(*p.launch);
        m_dispatcher.start(*p.launch, [this, done = std::move(p.on_done)](core::KernelLaunch& l) {
            --m_resident;
            done(l);
            distribute();
        });
    }
}

}  // namespace stacksim::sched
