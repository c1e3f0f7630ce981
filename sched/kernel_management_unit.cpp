// SPDX-License-Identifier: Apache-2.0
// The kernel management unit: pending-kernel pool and the distributor with its resident-kernel cap.
#include "sched/kernel_management_unit.h"

#include <algorithm>
#include <stdexcept>

namespace stacksim::sched {

KernelManagementUnit::KernelManagementUnit(CtaDispatcher& dispatcher, uint32_t max_resident,
                                           std::unique_ptr<KernelScheduler> policy)
    : m_dispatcher(dispatcher),
      m_max(max_resident),
      m_policy(policy ? std::move(policy) : kernel_schedulers().create("fcfs", SchedulerProbe{})) {}

void KernelManagementUnit::submit(core::KernelLaunch& launch, Started on_start, Done on_done) {
    m_pool.push_back({&launch, std::move(on_start), std::move(on_done), false, m_arrivals++});
    distribute();
}

void KernelManagementUnit::distribute() {
    using Kind = KernelScheduler::Decision::Kind;
    // The policy hears of every change of the running set, even with an empty pool (it measures).
    for (;;) {
        m_view.clear();
        for (const Pending& p : m_pool) m_view.push_back({p.launch, p.preempted, p.arrival});
        const KernelScheduler::Decision d = m_policy->next(m_view, m_running, m_max);
        if (d.kind == Kind::Wait) break;
        if (d.index >= m_pool.size()) throw std::logic_error("kernel scheduler chose a kernel outside the pool");
        Pending p = std::move(m_pool[d.index]);
        m_pool.erase(m_pool.begin() + static_cast<std::ptrdiff_t>(d.index));
        core::KernelLaunch* victim = d.kind == Kind::Preempt ? d.victim : nullptr;
        if (victim) {
            auto it = std::find(m_running.begin(), m_running.end(), victim);
            if (it == m_running.end()) throw std::logic_error("kernel scheduler preempted a kernel that is not running");
            m_running.erase(it);
            m_dispatcher.pause(*victim, true);
            // Back to the pool in its arrival position: its CTAs resume when it is chosen again.
            Pending back{victim, nullptr, nullptr, true, m_arrival[victim]};
            auto pos = std::find_if(m_pool.begin(), m_pool.end(), [&](const Pending& q) { return q.arrival > back.arrival; });
            m_pool.insert(pos, std::move(back));
        }
        core::KernelLaunch& started = *p.launch;
        run(std::move(p));
        if (victim) events.send({KernelEventKind::Preempted, &started, victim});
    }
}

void KernelManagementUnit::run(Pending p) {
    core::KernelLaunch& l = *p.launch;
    m_running.push_back(&l);
    if (p.preempted) {
        m_dispatcher.pause(l, false);
        return;
    }
    m_arrival[&l] = p.arrival;
    ++m_resident;
    if (p.on_start) p.on_start(l);
    m_dispatcher.start(l, [this, done = std::move(p.on_done)](core::KernelLaunch& k) { finished(k, done); });
}

void KernelManagementUnit::finished(core::KernelLaunch& l, const Done& done) {
    --m_resident;
    m_running.erase(std::remove(m_running.begin(), m_running.end(), &l), m_running.end());
    // A preempted kernel whose CTAs all ran to their end finishes from the pool.
    for (auto it = m_pool.begin(); it != m_pool.end(); ++it)
        if (it->launch == &l) {
            m_pool.erase(it);
            break;
        }
    m_arrival.erase(&l);
    done(l);
    distribute();
}

}  // namespace stacksim::sched
