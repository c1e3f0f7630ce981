// SPDX-License-Identifier: Apache-2.0
// One DRAM channel controller with bank, rank and bus timing behind a TLM target socket.
#include "memory/dram_channel.h"

#include <algorithm>

#include "sim/mem_extension.h"
#include "sim/payload_pool.h"

namespace stacksim::memory {

namespace {

uint64_t at_least_zero(int64_t v) { return v < 0 ? 0 : static_cast<uint64_t>(v); }

bool is_column(DramCommand c) { return c == DramCommand::Read || c == DramCommand::Write; }

}  // namespace

DramChannel::DramChannel(sc_core::sc_module_name name, const DramChannelConfig& cfg,
                         sim::ClockDomain& dram_clock, sim::StatRegistry& stats)
    : sc_module(name), upstream("upstream"), m_cfg(cfg), m_clock(dram_clock) {
    m_cfg.validate();
    m_sched = dram_schedulers().create(m_cfg.scheduler);
    m_burst = m_cfg.burst_cycles();
    m_closed_page = m_cfg.page_policy == PagePolicy::Closed;
    m_banks.assign(m_cfg.banks, DramBank(m_cfg.timing, m_burst));
    m_streak.assign(m_cfg.banks, 0);
    m_last_act_group.assign(m_cfg.bank_groups, kLongAgo);
    m_last_cas_group.assign(m_cfg.bank_groups, kLongAgo);
    m_last_wr_end_group.assign(m_cfg.bank_groups, kLongAgo);
    m_bank_activates.resize(m_cfg.banks);
    // Without refresh (a microbenchmark knob) the first refresh never falls due.
    m_next_refresh = m_cfg.refresh ? refresh_interval() : ~uint64_t{0};
    upstream.on_request([this](int port, tlm::tlm_generic_payload& p) { return request(port, p); });

    sim::StatGroup g(stats, std::string(this->name()));
    g.add("reads", m_stat_reads, "read requests served", "requests");
    g.add("writes", m_stat_writes, "write requests served", "requests");
    g.add("atomics", m_stat_atomics, "atomic requests served (as reads)", "requests");
    g.add("bytes", m_stat_bytes, "data bytes requested and served", "bytes");
    g.add("row_hits", m_row_hits, "requests whose first command was a column access", "requests");
    g.add("row_misses", m_row_misses, "requests that found their bank closed (ACT)", "requests");
    g.add("row_conflicts", m_row_conflicts, "requests that found another row open (PRE)", "requests");
    g.add("activates", m_activates, "ACT commands", "commands");
    g.add("precharges", m_precharges, "PRE commands (explicit, auto and before refresh)", "commands");
    g.add("refreshes", m_refreshes, "all-bank refreshes", "commands");
    g.add("refresh_cycles", m_refresh_cycles, "cycles the banks were blocked by refresh (tRFC each)", "cycles");
    g.add("bus_busy_cycles", m_bus_busy, "cycles the data bus carried bursts", "cycles");
    g.add("write_drains", m_write_drains, "switches from serving reads to draining writes", "events");
    for (uint32_t b = 0; b < m_cfg.banks; ++b)
        g.add("bank" + std::to_string(b) + ".activates", m_bank_activates[b], "ACT commands to this bank", "commands");
    g.add("read_latency", m_read_latency, "read latency from acceptance to response", "cycles");
    g.add("read_latency_hist", m_read_latency_hist, "read latency from acceptance to response", "cycles");
    const double period_ns = 1e3 / m_cfg.clock_mhz;
    g.add_formula("bandwidth_gbps", [this, period_ns] {
        uint64_t cycles = m_clock.cycle();
        return cycles ? static_cast<double>(m_stat_bytes.value()) / (static_cast<double>(cycles) * period_ns) : 0.0;
    }, "average data bandwidth over the run", "GB/s");
    g.add_formula("bus_utilization", [this] {
        uint64_t cycles = m_clock.cycle();
        return cycles ? static_cast<double>(m_bus_busy.value()) / static_cast<double>(cycles) : 0.0;
    }, "fraction of cycles the data bus was busy", "ratio");
    const double peak = m_cfg.peak_bandwidth_gbps();
    g.add_formula("peak_bandwidth_gbps", [peak] { return peak; }, "peak data bandwidth of the channel", "GB/s");
}

// ---- requests in, responses out ----------------------------------------------------------

bool DramChannel::request(int port, tlm::tlm_generic_payload& p) {
    const bool write = sim::PayloadPool::ext(p).access == sim::MemAccess::Write;
    const bool room = write ? m_writes.size() < m_cfg.write_queue_depth && m_waiting_writes == 0
                            : m_reads.size() < m_cfg.read_queue_depth && m_waiting_reads == 0;
    if (room) {
        accept(port, p, m_clock.cycle());
        m_clock.activate(*this);
        return true;
    }
    ++(write ? m_waiting_writes : m_waiting_reads);
    return false;
}

void DramChannel::accept(int port, tlm::tlm_generic_payload& p, uint64_t now) {
    const bool write = sim::PayloadPool::ext(p).access == sim::MemAccess::Write;
    const uint32_t bb = m_cfg.burst_bytes();
    const uint32_t bursts = std::max(1u, (p.get_data_length() + bb - 1) / bb);
    (write ? m_writes : m_reads).push_back({&p, port, now, m_cfg.decode(p.get_address()), bursts, write, false});
}

void DramChannel::accept_waiting() {
    // In the order they were withheld; a write may pass a read whose queue is still full.
    upstream.admit_withheld([this](int port, tlm::tlm_generic_payload& p) {
        const bool write = sim::PayloadPool::ext(p).access == sim::MemAccess::Write;
        const bool room = write ? m_writes.size() < m_cfg.write_queue_depth
                                : m_reads.size() < m_cfg.read_queue_depth;
        if (!room) return false;
        --(write ? m_waiting_writes : m_waiting_reads);
        accept(port, p, m_clock.cycle());
        return true;
    });
}

void DramChannel::deliver(uint64_t now) {
    while (!m_done.empty() && m_done.front().done <= now) {
        Completion d = m_done.front();
        m_done.pop_front();
        m_stat_bytes += d.payload->get_data_length();
        if (d.write) {
            ++m_stat_writes;
        } else {
            if (sim::PayloadPool::ext(*d.payload).access == sim::MemAccess::Atomic)
                ++m_stat_atomics;
            else
                ++m_stat_reads;
            m_read_latency.sample(static_cast<double>(d.done - d.accepted));
            m_read_latency_hist.sample(d.done - d.accepted);
        }
        upstream.respond(d.port, *d.payload);
    }
}

// ---- refresh -----------------------------------------------------------------------------

void DramChannel::refresh_until(uint64_t now) {
    // Refreshes fall due every tREFI. While requests wait the controller wakes at the due
    // cycle; while it sleeps idle, missed refreshes are applied here at their due cycles
    // (no command was issued since, so the result is the same as ticking then).
    const uint64_t interval = refresh_interval();
    const bool per_bank = m_cfg.refresh_mode == RefreshMode::PerBank;
    const uint64_t round = per_bank ? m_cfg.banks : 1;  // refreshes until every bank had one
    const uint64_t duration = per_bank ? m_cfg.timing.tRFCsb : m_cfg.timing.tRFC;
    uint64_t done = 0;
    while (m_next_refresh <= now) {
        // After a full round in an idle gap every bank is closed and free by its next due
        // cycle, so each further refresh issues exactly at its due cycle and changes nothing but
        // the counts: those are skipped in closed form (a gap of 1000 s is ~10^8 refreshes),
        // leaving the last round to be applied one by one for the banks' exact state.
        if (done == round && duration <= interval * round && banks_free_by(m_next_refresh, per_bank ? interval : 0)) {
            const uint64_t due = (now - m_next_refresh) / interval + 1;  // refreshes due up to now
            if (due > round) {
                const uint64_t skip = due - round;
                m_refreshes += skip;
                m_refresh_cycles += skip * duration;
                m_next_refresh += skip * interval;
                if (per_bank) m_refresh_bank = static_cast<uint32_t>((m_refresh_bank + skip) % m_cfg.banks);
            }
        }
        refresh_at(m_next_refresh);
        m_next_refresh += interval;
        ++done;
    }
}

bool DramChannel::banks_free_by(uint64_t cycle, uint64_t step) const {
    // Per-bank refresh reaches bank m_refresh_bank + j at cycle + j * step.
    for (uint32_t j = 0; j < m_cfg.banks; ++j) {
        const DramBank& bank = m_banks[(m_refresh_bank + j) % m_cfg.banks];
        if (bank.is_open() || bank.earliest_activate() > cycle + j * step) return false;
    }
    return true;
}

uint64_t DramChannel::refresh_interval() const {
    const uint64_t i = m_cfg.refresh_mode == RefreshMode::PerBank ? m_cfg.timing.tREFI / m_cfg.banks : m_cfg.timing.tREFI;
    return i ? i : 1;
}

void DramChannel::refresh_at(uint64_t due) {
    if (m_cfg.refresh_mode == RefreshMode::PerBank) {
        // One bank: close it as soon as it may, refresh it, and it alone waits tRFCsb.
        const uint32_t b = m_refresh_bank;
        m_refresh_bank = (b + 1) % m_cfg.banks;
        DramBank& bank = m_banks[b];
        if (bank.is_open()) {
            bank.precharge(std::max(due, bank.earliest_precharge()));
            ++m_precharges;
        }
        bank.refresh(std::max(due, bank.earliest_activate()), m_cfg.timing.tRFCsb);
        m_streak[b] = 0;
        ++m_refreshes;
        m_refresh_cycles += m_cfg.timing.tRFCsb;
        return;
    }
    // Precharge every open bank as soon as it may close, then REF once all are precharged
    // (tRP) and past tRC; every bank then waits tRFC. The PREs' command-bus slots are ignored.
    uint64_t ref = due;
    for (uint32_t b = 0; b < m_cfg.banks; ++b) {
        DramBank& bank = m_banks[b];
        if (bank.is_open()) {
            bank.precharge(std::max(due, bank.earliest_precharge()));
            ++m_precharges;
        }
        ref = std::max(ref, bank.earliest_activate());
        m_streak[b] = 0;
    }
    for (DramBank& bank : m_banks) bank.refresh(ref, m_cfg.timing.tRFC);
    ++m_refreshes;
    m_refresh_cycles += m_cfg.timing.tRFC;
}

// ---- scheduling --------------------------------------------------------------------------

void DramChannel::update_mode() {
    if (m_writing) {
        if (m_writes.empty() || (m_writes.size() <= m_cfg.write_low_watermark && !m_reads.empty()))
            m_writing = false;
    } else if (!m_writes.empty() &&
               (m_writes.size() >= m_cfg.write_high_watermark || m_reads.empty())) {
        m_writing = true;
        ++m_write_drains;
    }
}

uint64_t DramChannel::activate_ready(uint32_t b) const {
    const DramTiming& t = m_cfg.timing;
    const uint32_t g = b % m_cfg.bank_groups;
    int64_t r = std::max({m_last_act + t.tRRD_S, m_last_act_group[g] + t.tRRD_L,
                          m_faw[m_faw_pos] + t.tFAW});
    return std::max(m_banks[b].earliest_activate(), at_least_zero(r));
}

uint64_t DramChannel::column_ready(bool write, uint32_t b) const {
    const DramTiming& t = m_cfg.timing;
    const uint32_t g = b % m_cfg.bank_groups;
    const int64_t lat = write ? t.tWL : t.tCL;
    int64_t r = std::max({m_last_cas + t.tCCD_S, m_last_cas_group[g] + t.tCCD_L,
                          static_cast<int64_t>(m_bus_free) - lat});
    if (write)
        r = std::max(r, m_last_rd + t.tRTW);
    else
        r = std::max({r, m_last_wr_end + t.tWTR_S, m_last_wr_end_group[g] + t.tWTR_L});
    return std::max(m_banks[b].earliest_column(), at_least_zero(r));
}

const std::vector<DramCandidate>& DramChannel::candidates(uint64_t now, bool row_bus_used,
                                                          bool col_bus_used) const {
    const auto& q = active_queue();
    m_bank_hit.assign(m_cfg.banks, 0);
    m_bank_ready.assign(size_t{m_cfg.banks} * 3, 0);
    for (const Request& r : q)
        if (m_banks[r.addr.bank].hits(r.addr.row)) m_bank_hit[r.addr.bank] = 1;
    // The legal cycle of a command depends on its bank and kind only, not on the request.
    auto ready = [this](uint32_t b, int kind) {
        uint64_t& memo = m_bank_ready[size_t{b} * 3 + static_cast<size_t>(kind)];
        if (memo == 0) memo = (kind == 2 ? activate_ready(b) : column_ready(kind == 1, b)) + 1;
        return memo - 1;
    };
    m_cands.clear();
    for (size_t i = 0; i < q.size(); ++i) {
        const Request& r = q[i];
        const DramBank& bank = m_banks[r.addr.bank];
        DramCandidate c;
        c.request = i;
        c.bank = r.addr.bank;
        c.hit_streak = m_streak[r.addr.bank];
        if (bank.hits(r.addr.row)) {
            c.command = r.write ? DramCommand::Write : DramCommand::Read;
            c.ready = ready(r.addr.bank, r.write ? 1 : 0);
            c.row_hit = true;
        } else if (bank.is_open()) {
            c.command = DramCommand::Precharge;
            c.ready = bank.earliest_precharge();
            c.closes_hit_row = m_bank_hit[r.addr.bank] != 0;
        } else {
            c.command = DramCommand::Activate;
            c.ready = ready(r.addr.bank, 2);
        }
        const bool used = is_column(c.command) ? col_bus_used : row_bus_used;
        c.ready = std::max(c.ready, used ? now + 1 : now);
        m_cands.push_back(c);
    }
    return m_cands;
}

bool DramChannel::row_wanted(uint32_t b) const {
    for (const auto* q : {&m_reads, &m_writes})
        for (const Request& r : *q)
            if (r.addr.bank == b && m_banks[b].hits(r.addr.row)) return true;
    return false;
}

void DramChannel::issue(const DramCandidate& c, uint64_t now) {
    auto& q = active_queue();
    Request& r = q[c.request];
    const uint32_t b = c.bank;
    const uint32_t g = b % m_cfg.bank_groups;
    DramBank& bank = m_banks[b];
    const auto t_now = static_cast<int64_t>(now);
    if (!r.classified) {
        r.classified = true;
        if (c.command == DramCommand::Activate) ++m_row_misses;
        else if (c.command == DramCommand::Precharge) ++m_row_conflicts;
        else ++m_row_hits;
    }
    switch (c.command) {
    case DramCommand::Activate:
        bank.activate(now, r.addr.row);
        ++m_activates;
        ++m_bank_activates[b];
        m_streak[b] = 0;
        m_last_act = m_last_act_group[g] = t_now;
        m_faw[m_faw_pos] = t_now;
        m_faw_pos = (m_faw_pos + 1) % m_faw.size();
        return;
    case DramCommand::Precharge:
        bank.precharge(now);
        ++m_precharges;
        return;
    case DramCommand::Read:
    case DramCommand::Write:
        break;
    }
    const bool write = c.command == DramCommand::Write;
    const uint64_t data_end = now + (write ? m_cfg.timing.tWL : m_cfg.timing.tCL) + m_burst;
    if (write) {
        bank.write(now);
        m_last_wr_end = m_last_wr_end_group[g] = static_cast<int64_t>(data_end);
    } else {
        bank.read(now);
        m_last_rd = t_now;
    }
    m_last_cas = m_last_cas_group[g] = t_now;
    m_bus_free = data_end;
    m_bus_busy += m_burst;
    ++m_streak[b];
    if (--r.bursts_left == 0) {
        const uint64_t done = data_end + m_cfg.latency + (m_extra_latency ? m_extra_latency(*r.payload) : 0);
        Completion d{done, r.port, r.payload, r.accepted, r.write};
        auto pos = std::upper_bound(m_done.begin(), m_done.end(), done,
                                    [](uint64_t v, const Completion& x) { return v < x.done; });
        m_done.insert(pos, d);
        q.erase(q.begin() + static_cast<std::ptrdiff_t>(c.request));
    }
    // Closed page: auto-precharge once no queued request wants this row any more.
    if (m_closed_page && !row_wanted(b)) {
        bank.precharge(std::max(now, bank.earliest_precharge()));
        ++m_precharges;
    }
}

bool DramChannel::tick(uint64_t now) {
    refresh_until(now);
    deliver(now);
    update_mode();
    bool row_used = false, col_used = false;
    for (int n = 0; n < 2; ++n) {
        const std::vector<DramCandidate>& c = candidates(now, row_used, col_used);
        const size_t i = m_sched->choose(c, now);
        if (i == DramScheduler::none) break;
        const DramCandidate chosen = c[i];
        (is_column(chosen.command) ? col_used : row_used) = true;
        issue(chosen, now);
        if (!m_cfg.split_command_bus) break;
    }
    accept_waiting();
    update_mode();
    // Sleep until the next response, the next legal command or the next refresh.
    uint64_t next = m_done.empty() ? DramScheduler::never : m_done.front().done;
    if (!m_reads.empty() || !m_writes.empty()) {
        next = std::min({next, m_next_refresh, m_sched->next_ready(candidates(now + 1, false, false))});
    }
    if (next != DramScheduler::never) m_clock.wake_at(*this, std::max(next, now + 1));
    return false;
}

}  // namespace stacksim::memory
