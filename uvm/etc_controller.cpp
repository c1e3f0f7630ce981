// SPDX-License-Identifier: Apache-2.0
// ETC wired to the GPU: sampling, the policy engine's choice, throttling epochs.
#include "uvm/etc_controller.h"

#include <algorithm>
#include <cstring>

namespace stacksim::uvm {

EtcController::EtcController(sc_core::sc_module_name name, const memory::EtcConfig& cfg,
                             std::vector<const core::SmActivity*> sms, memory::Gmmu& gmmu, sim::ClockDomain& clock,
                             sim::StatRegistry& stats)
    : sc_module(name), m_cfg(cfg), m_sms(std::move(sms)), m_commands(m_sms.size()), m_gmmu(gmmu), m_clock(clock),
      m_classifier(cfg.coalescing_threshold, m_sms.size(), cfg.reclassify), m_insts(m_sms.size()), m_lines(m_sms.size()) {
    m_tech = memory::etc_techniques(m_cfg, memory::AppClass::Unknown);
    // Manual switches hold from the start; auto ones wait for the class.
    const memory::EtcTechniques manual = m_cfg.mode == memory::EtcMode::Manual ? m_tech : memory::EtcTechniques{};
    make_throttle(manual.throttling);
    m_gmmu.on_far_fault = [this](uint32_t sm) { on_fault(sm); };
    if (manual.compression) m_gmmu.activate_compression();

    SC_METHOD(wake);
    sensitive << m_event;
    dont_initialize();
    arm();

    sim::StatGroup g(stats, std::string(this->name()));
    g.add_formula("class", [this] { return static_cast<double>(app_class()); },
                  "application class: 0 undecided, 1 regular without sharing, 2 regular with sharing, 3 irregular", "");
    g.add_formula("coalescing.deciding", [this] { return m_classifier.deciding_factor(); },
                  "coalesced line requests per warp memory instruction in the sample that decided the class",
                  "lines/instruction");
    g.add_formula("coalescing.mean", [this] { return m_classifier.mean_factor(); },
                  "coalesced line requests per warp memory instruction, mean over samples", "lines/instruction");
    g.add_formula("samples", [this] { return static_cast<double>(m_classifier.samples()); },
                  "classifier samples taken", "samples");
    g.add_formula("sharing", [this] { return sharing() ? 1.0 : 0.0; }, "inter-kernel data sharing (1 = yes)", "");
    g.add_formula("oversubscribed", [this] { return m_gmmu.oversubscribed() ? 1.0 : 0.0; },
                  "managed footprint larger than GPU memory (1 = yes)", "");
    g.add_formula("proactive_eviction", [this] { return m_tech.proactive_eviction ? 1.0 : 0.0; },
                  "proactive eviction chosen (1 = yes)", "");
    g.add_formula("throttling", [this] { return static_cast<double>(m_tech.throttling); },
                  "SM throttling chosen: 0 none, 1 dynamic, 2 static", "");
    g.add_formula("compression", [this] { return m_tech.compression ? 1.0 : 0.0; },
                  "capacity compression chosen (1 = yes; [uvm.compression] engine switched on)", "");
    g.add_formula("proactive_groups", [this] { return static_cast<double>(m_gmmu.proactive_groups()); },
                  "eviction groups evicted ahead of need", "groups");
    g.add_formula("throttle.stops", [this] { return static_cast<double>(m_throttle->stops()); },
                  "times an SM's fetch was stopped", "stops");
    g.add_formula("throttle.releases", [this] { return static_cast<double>(m_throttle->releases()); },
                  "times a stopped SM was released", "releases");
    g.add_formula("throttle.max_stopped", [this] { return static_cast<double>(m_throttle->max_stopped()); },
                  "most SMs stopped at once", "SMs");
    g.add_formula("throttle.stopped_at_end", [this] { return static_cast<double>(m_throttle->stopped_count()); },
                  "SMs stopped at the end", "SMs");
    for (uint32_t i = 0; i < m_sms.size(); ++i)
        g.add_formula("throttle.sm" + std::to_string(i) + ".stopped_cycles",
                      [this, i] { return static_cast<double>(m_throttle->stopped_cycles(i, m_clock.cycle())); },
                      "cycles this SM's fetch was stopped", "cycles");
}

void EtcController::stop_fetch(uint32_t sm, bool stop) {
    m_commands[sm].send(core::CtaCommand::set(stop ? core::CtaCommandKind::StopFetch : core::CtaCommandKind::Resume, 0));
}

void EtcController::make_throttle(memory::Throttling mode) {
    m_throttle = std::make_unique<memory::SmThrottle>(static_cast<uint32_t>(m_sms.size()), mode, m_cfg.throttle_step,
                                                      m_cfg.detection_cycles, m_cfg.execution_cycles,
                                                      [this](uint32_t sm, bool stop) { stop_fetch(sm, stop); });
    m_throttle->set_busy([this](uint32_t sm) { return m_sms[sm]->busy(); });
}

memory::AppClass EtcController::app_class() const { return m_classifier.app_class(sharing()); }

bool EtcController::sharing() const {
    switch (m_cfg.sharing) {
    case memory::SharingSource::Yes: return true;
    case memory::SharingSource::No: return false;
    case memory::SharingSource::Pointers: break;
    }
    return m_sharing.sharing();
}

void EtcController::arm() {
    if (m_armed) return;
    m_armed = true;
    const uint64_t now = m_clock.cycle();
    m_next_sample = now + m_cfg.sample_cycles;
    const uint64_t at = std::min(m_next_sample, m_throttle->next_deadline());
    m_event.notify(m_clock.period() * static_cast<double>(at > now ? at - now : 1));
}

void EtcController::on_cta_done(const core::KernelLaunch& launch) {
    if (m_cfg.sharing == memory::SharingSource::Pointers && launch.kernel && m_seen_launches.insert(launch.id).second) {
        // Pointer arguments: 8-byte parameters whose value lies in an allocation of the page table.
        std::vector<uint64_t> pointers;
        for (const core::KernelParam& p : launch.kernel->params) {
            if (p.bytes != 8 || p.offset + 8 > launch.params.size()) continue;
            uint64_t v = 0;
            std::memcpy(&v, launch.params.data() + p.offset, 8);
            if (m_gmmu.page_table().find(m_gmmu.page_table().vpn(v))) pointers.push_back(v);
        }
        m_sharing.note_launch(reinterpret_cast<uint64_t>(launch.kernel), pointers);
        // Sharing found after the class was decided (a later kernel reusing an earlier one's
        // data) changes a regular app's class, so its techniques follow (compression joins
        // proactive eviction).
        if (m_cfg.mode == memory::EtcMode::Auto && m_applied != memory::AppClass::Unknown && app_class() != m_applied)
            apply_techniques(m_clock.cycle());
    }
    arm();
}

void EtcController::on_fault(uint32_t sm) {
    m_throttle->on_fault(sm, m_clock.cycle(), m_gmmu.evicted_pages());
    arm();
}

void EtcController::apply_techniques(uint64_t now) {
    if (m_cfg.mode == memory::EtcMode::Auto) {
        m_applied = app_class();
        m_tech = memory::etc_techniques(m_cfg, m_applied);
    }
    m_gmmu.set_proactive_eviction(m_tech.proactive_eviction ? m_cfg.proactive_free_bytes : 0);
    if (m_tech.compression) m_gmmu.activate_compression();
    if (m_tech.throttling != memory::Throttling::None && m_gmmu.oversubscribed()) {
        if (m_cfg.mode == memory::EtcMode::Auto) make_throttle(m_tech.throttling);
        std::vector<uint32_t> busy;
        for (uint32_t i = 0; i < m_sms.size(); ++i)
            if (m_sms[i]->busy()) busy.push_back(i);
        m_throttle->trigger(now, busy);
    }
}

void EtcController::wake() {
    const uint64_t now = m_clock.cycle();
    uint64_t instructions = 0;
    bool running_idle = true;
    for (size_t i = 0; i < m_sms.size(); ++i) {
        instructions += m_sms[i]->warp_instructions();
        if (!m_sms[i]->fetch_stopped() && m_sms[i]->busy()) running_idle = false;
    }
    if (now >= m_next_sample) {
        for (size_t i = 0; i < m_sms.size(); ++i) {
            m_insts[i] = m_sms[i]->global_memory_instructions();
            m_lines[i] = m_sms[i]->coalesced_requests();
        }
        if (m_classifier.sample(m_insts, m_lines)) apply_techniques(now);
        m_next_sample = now + m_cfg.sample_cycles;
    }
    m_throttle->advance(now, m_gmmu.evicted_pages(), running_idle, m_gmmu.faults_in_flight() > 0);
    const bool moving = instructions != m_last_instructions || m_gmmu.waiting() > 0 || m_throttle->stopped_count() > 0;
    m_last_instructions = instructions;
    m_armed = false;
    if (!moving) return;
    m_armed = true;
    const uint64_t at = std::min(m_next_sample, m_throttle->next_deadline());
    m_event.notify(m_clock.period() * static_cast<double>(at > now ? at - now : 1));
}

}  // namespace stacksim::uvm
