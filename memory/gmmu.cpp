// SPDX-License-Identifier: Apache-2.0
// The GPU memory management unit: GPU accesses, far faults, migrations, eviction.
#include "memory/gmmu.h"

#include <algorithm>

#include "sim/mem_extension.h"
#include "sim/payload_pool.h"

namespace stacksim::memory {

Gmmu::Gmmu(sc_core::sc_module_name name, const UvmConfig& cfg, const GmmuPlatform& platform, PcieLink* pcie,
           sim::StatRegistry& stats)
    : sc_module(name), m_cfg(cfg), m_platform(platform), m_pcie(pcie), m_table(cfg.page_bytes, cfg.levels()),
      m_translation(cfg, m_table) {
    cfg.validate();
    m_mechanism = migration_mechanisms().create(cfg.mechanism, cfg.page_bytes);
    m_eviction = eviction_policies().create(cfg.eviction, platform.seed);
    m_prefetcher = prefetchers().create(cfg.prefetcher);
    m_compression_active = cfg.compression.enabled;
    if (cfg.compression.enabled || platform.compression_on_demand)
        m_compression = std::make_unique<PageCompression>(cfg.compression, cfg.page_bytes, platform.partitions,
                                                          std::string(this->name()) + ".compression", stats);
    if (m_compression)
        stats.add_formula(std::string(this->name()) + ".compression.pte_bytes",
                          [this] { return static_cast<double>(PageCompression::pte_overhead_bytes(m_managed_pages)); },
                          "page-table growth: 9 extra bits in each managed page's entry (compression information)", "bytes");
    m_partitions.resize(std::max<uint32_t>(platform.partitions, 1));
    m_group_pages = std::max<uint64_t>(cfg.eviction_granularity_bytes / cfg.page_bytes, 1);
    if (cfg.managed() && !pcie) throw std::logic_error("Gmmu: managed mode needs the PCIe link");

    SC_METHOD(run);
    sensitive << m_wake;
    dont_initialize();

    sim::StatGroup g(stats, std::string(this->name()));
    g.add("faults.far", m_far_faults, "far faults: GPU access to a page not resident on the GPU", "faults");
    g.add("faults.write", m_write_faults, "far faults and range requests raised by a store or atomic", "faults");
    g.add("faults.range", m_range_faults, "partial-range requests: access outside a resident page's valid ranges", "requests");
    g.add("faults.host", m_host_faults, "host accesses that migrated a page back to the host", "pages");
    g.add("faults.coalesced", m_coalesced, "requests that joined a fault or migration already under way", "requests");
    g.add("fault_batches", m_batches, "fault batches served by the host", "batches");
    g.add("fault_batch_size", m_batch_size, "far faults (pages) per batch", "pages");
    g.add("fault_service_time", m_fault_service_ns, "far fault raised to its first bytes valid on the GPU", "ns");
    g.add("request_stall_time", m_stall_ns, "time a request was held by the GMMU", "ns");
    g.add("replays", m_replays, "requests replayed after their bytes arrived", "requests");
    g.add("bytes_requested", m_bytes_requested, "bytes of GPU requests that missed (faulted or range-missed)", "bytes");
    g.add("bytes_migrated", m_bytes_migrated, "bytes migrated host-to-device on demand (faults and ranges)", "bytes");
    g.add("bytes_prefetched", m_bytes_prefetched,
          "bytes migrated host-to-device by the prefetcher and host prefetches (cudaMemPrefetchAsync)", "bytes");
    g.add("prefetched_pages", m_prefetched_pages,
          "pages migrated by the prefetcher and host prefetches (cudaMemPrefetchAsync)", "pages");
    g.add("bytes_migrated_back", m_bytes_back, "bytes migrated device-to-host on host accesses", "bytes");
    g.add("migration_buffer_stalls", m_buffer_stalls, "range requests that waited for a migration-buffer entry", "requests");
    g.add("migration_buffer_wait", m_buffer_wait_ns, "wait for a migration-buffer entry", "ns");
    g.add("evictions", m_evicted_pages, "pages evicted from GPU memory", "pages");
    g.add("eviction_groups", m_evicted_groups, "eviction-granularity groups evicted", "groups");
    g.add("writebacks", m_writebacks, "evicted dirty pages written back device-to-host", "pages");
    g.add("bytes_written_back", m_bytes_written_back, "bytes written back on eviction", "bytes");
    g.add("max_valid_ranges", m_max_ranges, "most valid ranges any page had", "ranges");
    g.add("bytes_populated", m_bytes_populated,
          "bytes made valid on the GPU without a transfer: planned ranges the host never wrote (populate_unwritten)", "bytes");
    g.add("populated_ranges", m_populated_ranges, "planned ranges populated without a transfer (populate_unwritten)", "ranges");
    g.add("range_host_wait", m_range_host_wait_ns,
          "range request's wait for the host plus its range_host_ns (0 when range_host_ns is 0)", "ns");
    auto count_state = [this](PageState s) {
        return [this, s] {
            double n = 0;
            for (auto& [v, e] : m_table.entries()) n += e.state == s;
            return n;
        };
    };
    g.add_formula("pages.cpu_valid", count_state(PageState::CpuValid), "managed pages CPU-valid at the end", "pages");
    g.add_formula("pages.partial_valid", count_state(PageState::PartialValid), "pages partial-valid at the end", "pages");
    g.add_formula("pages.gpu_valid", count_state(PageState::GpuValid), "pages GPU-valid at the end", "pages");
    g.add_formula("valid_ranges_per_partial_page", [this] {
        double n = 0, r = 0;
        for (auto& [v, e] : m_table.entries())
            if (e.state == PageState::PartialValid) ++n, r += static_cast<double>(e.valid.count());
        return n ? r / n : 0.0;
    }, "average valid ranges of the partial-valid pages at the end", "ranges");
    g.add_formula("capacity_pages", [this] { return static_cast<double>(capacity_pages()); },
                  "GPU frames available to managed pages", "pages");
    g.add_formula("l2_tlb.hits", [this] { return static_cast<double>(m_translation.l2_hits()); }, "shared L2 TLB hits", "lookups");
    g.add_formula("l2_tlb.misses", [this] { return static_cast<double>(m_translation.l2_misses()); }, "shared L2 TLB misses", "lookups");
    g.add_formula("l2_tlb.miss_rate", [this] {
        double h = static_cast<double>(m_translation.l2_hits()), m = static_cast<double>(m_translation.l2_misses());
        return h + m ? m / (h + m) : 0.0;
    }, "shared L2 TLB miss rate", "ratio");
    g.add_formula("pwc.hits", [this] { return static_cast<double>(m_translation.pwc_hits()); }, "page-walk cache hits", "lookups");
    g.add_formula("pwc.misses", [this] { return static_cast<double>(m_translation.pwc_misses()); }, "page-walk cache misses", "lookups");
    g.add_formula("walks", [this] { return static_cast<double>(m_translation.walks()); }, "page walks", "walks");
    g.add_formula("walk_latency", [this] {
        double w = static_cast<double>(m_translation.walks());
        return w ? static_cast<double>(m_translation.walk_cycles()) / w : 0.0;
    }, "average walk latency from the L2 TLB miss, incl. waiting for a walker", "cycles");
    g.add_formula("merged_walks", [this] { return static_cast<double>(m_translation.merged_walks()); },
                  "L2 TLB misses that joined a walk under way", "lookups");
    g.add_formula("walker_wait", [this] {
        double w = static_cast<double>(m_translation.walks());
        return w ? static_cast<double>(m_translation.walker_wait_cycles()) / w : 0.0;
    }, "average cycles a walk waited for a free walker", "cycles");
    g.add_formula("pte_reads", [this] { return static_cast<double>(m_translation.pte_reads()); },
                  "page-table entry reads sent through the memory system (walk_reads = memory)", "requests");
    g.add_formula("pte_read_latency", [this] {
        double n = static_cast<double>(m_translation.pte_reads());
        return n ? static_cast<double>(m_translation.pte_read_cycles()) / n : 0.0;
    }, "average page-table entry read latency, issue to response (walk_reads = memory)", "cycles");
}

Gmmu::~Gmmu() {
    // The method process may still point at its last event list after the module is gone (the
    // kernel outlives it): leave that small list allocated rather than dangling.
    (void)m_triggers.release();
}

uint32_t Gmmu::attach(std::function<void(tlm::tlm_generic_payload&)> replay, std::function<void(uint64_t)> invalidate) {
    m_replay.push_back(std::move(replay));
    m_invalidate.push_back(std::move(invalidate));
    return static_cast<uint32_t>(m_replay.size() - 1);
}

void Gmmu::allocate(uint64_t addr, uint64_t bytes, bool managed) {
    if (bytes == 0) return;
    if (managed && !m_pcie) throw std::logic_error("Gmmu: managed allocations need the PCIe link");
    m_table.map(addr, bytes);
    for (uint64_t v = m_table.vpn(addr); v <= m_table.vpn(addr + bytes - 1); ++v) {
        PageEntry& e = *m_table.find(v);
        if (managed) {
            if (!e.managed) ++m_managed_pages;
            e.managed = true;
            m_any_managed = true;
            continue;
        }
        e.valid.add({0, m_cfg.page_bytes});
        e.state = PageState::GpuValid;
    }
}

uint64_t Gmmu::capacity_pages() const {
    if (m_cfg.capacity_bytes) return std::max<uint64_t>(m_cfg.capacity_bytes / m_cfg.page_bytes, 1);
    const double pages = m_cfg.capacity_fraction * static_cast<double>(m_managed_pages);
    return std::max<uint64_t>(static_cast<uint64_t>(pages + 1e-9), 1);
}

size_t Gmmu::waiting() const {
    size_t n = 0;
    for (auto& [v, w] : m_waiters) n += w.size();
    return n;
}

int Gmmu::partition_of(uint64_t addr) const {
    return static_cast<int>((addr / m_platform.interleave_bytes) % m_partitions.size());
}

void Gmmu::wake(uint64_t at_ps) {
    const uint64_t now = sc_core::sc_time_stamp().value();
    m_wake.notify(sc_core::sc_time::from_value(at_ps > now ? at_ps - now : 0));
}

bool Gmmu::access(uint32_t unit, tlm::tlm_generic_payload& p) {
    if (!m_any_managed) return true;
    const uint64_t addr = p.get_address();
    const uint64_t vpn = m_table.vpn(addr);
    PageEntry* e = m_table.find(vpn);
    if (!e || !e->managed) return true;  // device memory or a stray address: not paged
    const sim::MemExtension& x = sim::PayloadPool::ext(p);
    const uint32_t mask = x.sector_mask ? x.sector_mask : 1;
    const uint64_t sector = p.get_data_length() / static_cast<uint64_t>(__builtin_popcount(mask));
    const uint64_t off = m_table.offset(addr);
    const uint64_t lo = off + static_cast<uint64_t>(__builtin_ctz(mask)) * sector;
    const uint64_t hi = std::min(off + static_cast<uint64_t>(32 - __builtin_clz(mask)) * sector, m_cfg.page_bytes);
    const bool write = x.access != sim::MemAccess::Read;
    ++m_seq;
    if (e->valid.covers(lo, hi)) {
        if (write) e->dirty = true;
        auto g = m_groups.find(vpn / m_group_pages);
        if (g != m_groups.end()) g->second.times.last_access = m_seq;
        return true;
    }
    if (e->resident && m_cfg.populate_unwritten) {
        // Bytes the host never wrote need no request: populated at once when all planned are such.
        ValidRanges present = e->valid;
        present.add(e->pending);
        const std::vector<ByteRange> plan = m_mechanism->plan(present, lo, hi);
        if (!plan.empty() && std::all_of(plan.begin(), plan.end(), [&](const ByteRange& r) { return unwritten(*e, r); })) {
            populate(vpn, *e, plan, false);
            if (e->valid.covers(lo, hi)) {
                if (write) e->dirty = true;
                auto g = m_groups.find(vpn / m_group_pages);
                if (g != m_groups.end()) g->second.times.last_access = m_seq;
                return true;
            }
        }
    }
    Waiter w{unit, &p, lo, hi, write, sc_core::sc_time_stamp().value()};
    m_bytes_requested += hi - lo;
    m_waiters[vpn].push_back(w);
    need_migration(vpn, *e, w);
    return false;
}

void Gmmu::need_migration(uint64_t vpn, PageEntry& e, const Waiter& w) {
    const uint64_t now = sc_core::sc_time_stamp().value();
    ValidRanges present = e.valid;
    present.add(e.pending);
    // Bytes partly valid and partly on their way need no new request either.
    if (m_in_buffer.count(vpn) || present.covers(w.lo, w.hi) ||
        std::find(m_batch.begin(), m_batch.end(), vpn) != m_batch.end() ||
        std::find(m_frame_wait.begin(), m_frame_wait.end(), vpn) != m_frame_wait.end()) {
        ++m_coalesced;
        return;
    }
    if (e.resident && m_cfg.populate_unwritten) {
        // The unwritten part of the plan is populated now; a request goes only for the rest.
        std::vector<ByteRange> fill, rest;
        for (const ByteRange& r : m_mechanism->plan(present, w.lo, w.hi)) (unwritten(e, r) ? fill : rest).push_back(r);
        if (!fill.empty()) {
            populate(vpn, e, fill, false);
            present = e.valid;
            present.add(e.pending);
            if (present.covers(w.lo, w.hi)) return;  // replayed by run()
        }
    }
    if (w.write) ++m_write_faults;
    if (!e.resident || m_cfg.range_service == RangeService::Host) {
        if (e.resident) {
            ++m_range_faults;  // served by the host's handler, planned when its batch ends
        } else {
            ++m_far_faults;
            if (on_far_fault) on_far_fault(sim::PayloadPool::ext(*w.p).source);
            m_fault_raised[vpn] = now;
        }
        m_in_buffer.insert(vpn);
        m_fault_buffer.push_back(vpn);
        if (m_handler_done == 0) wake(now);
        return;
    }
    // Resident, partially valid: the GMMU asks the host for the missing part directly.
    ++m_range_faults;
    std::vector<ByteRange> ranges = m_mechanism->plan(present, w.lo, w.hi);
    for (const ByteRange& r : ranges) e.pending.add(r);
    RangeRequest req{vpn, e.generation, std::move(ranges), partition_of(vpn * m_cfg.page_bytes + w.lo), now};
    Partition& part = m_partitions[static_cast<size_t>(req.partition)];
    if (part.used < m_cfg.migration_buffer_entries) {
        ++part.used;
        start_range(std::move(req), now);
    } else {
        ++m_buffer_stalls;
        part.blocked.push_back(std::move(req));
    }
}

void Gmmu::start_range(RangeRequest r, uint64_t now) {
    m_buffer_wait_ns.sample(static_cast<double>(now - r.queued_ps) * 1e-3);
    uint64_t ready = now;
    const uint64_t host = static_cast<uint64_t>(m_cfg.range_host_ns * 1000.0 + 0.5);
    if (host) {
        // One request at a time on the host: it waits for the previous ones.
        ready = std::max(now, m_range_host_free) + host;
        m_range_host_free = ready;
        m_range_host_wait_ns.sample(static_cast<double>(ready - now) * 1e-3);
    }
    ready += static_cast<uint64_t>(m_cfg.range_fault_latency_ns * 1000.0 + 0.5);
    if (ready == now) {
        m_range_ready.push_back({r.vpn, r.generation, std::move(r.ranges), r.partition});
        flush_ranges();
        return;
    }
    m_range_timers.emplace(ready, std::move(r));
    wake(ready);
}

void Gmmu::flush_ranges() {
    // One copy per ready request while slots are free; the last free slot takes the rest.
    const uint32_t limit = m_cfg.range_pipelined ? m_cfg.range_outstanding : 1;
    size_t next = 0;
    while (next < m_range_ready.size() && m_range_in_flight < limit) {
        std::vector<CopyItem> items;
        if (m_range_in_flight + 1 == limit) {
            for (; next < m_range_ready.size(); ++next) items.push_back(std::move(m_range_ready[next]));
        } else {
            items.push_back(std::move(m_range_ready[next++]));
        }
        ++m_range_in_flight;
        start_copy(Direction::H2D, std::move(items), CopyKind::Range);
    }
    m_range_ready.erase(m_range_ready.begin(), m_range_ready.begin() + static_cast<std::ptrdiff_t>(next));
}

void Gmmu::start_copy(Direction d, std::vector<CopyItem> items, CopyKind kind) {
    uint64_t bytes = 0;
    for (const CopyItem& it : items)
        for (const ByteRange& r : it.ranges) bytes += r.bytes();
    m_copies.push_back(Copy{std::move(items), kind});
    Copy& c = m_copies.back();
    if (kind == CopyKind::Fault || kind == CopyKind::Range) m_bytes_migrated += bytes;
    if (kind == CopyKind::Prefetch) m_bytes_prefetched += bytes;
    const double setup = kind == CopyKind::Range ? m_cfg.range_copy_setup_ns : -1.0;
    const bool pipelined = kind == CopyKind::Range && m_cfg.range_pipelined;
    c.event = &m_pcie->start_copy(d, std::max<uint64_t>(bytes, 1), &c.done_ps, setup, pipelined);
    if (!sc_core::sc_is_running()) return;
    wake(sc_core::sc_time_stamp().value());
}

void Gmmu::start_batch(uint64_t now) {
    m_batch.clear();
    while (!m_fault_buffer.empty() && m_batch.size() < m_cfg.fault_batch) {
        const uint64_t vpn = m_fault_buffer.front();
        m_fault_buffer.pop_front();
        m_in_buffer.erase(vpn);
        m_batch.push_back(vpn);
    }
    ++m_batches;
    m_batch_size.sample(static_cast<double>(m_batch.size()));
    m_handler_done = now + static_cast<uint64_t>(m_cfg.fault_latency_ns * 1000.0 + 0.5);
    if (m_handler_done == now) ++m_handler_done;
    wake(m_handler_done);
}

void Gmmu::serve_fault(uint64_t vpn) {
    PageEntry& e = *m_table.find(vpn);
    const bool far = !e.resident;  // else a range miss sent to the host (range_service = host)
    auto wit = m_waiters.find(vpn);
    if (wit == m_waiters.end()) return;
    ValidRanges present = e.valid;
    present.add(e.pending);
    bool needed = false;
    for (const Waiter& w : wit->second) needed |= !present.covers(w.lo, w.hi);
    if (!needed) return;
    if (!ensure_frame(vpn)) {
        m_frame_wait.push_back(vpn);
        return;
    }
    ValidRanges plan;
    for (const Waiter& w : wit->second) {
        if (present.covers(w.lo, w.hi)) continue;
        for (const ByteRange& r : m_mechanism->plan(present, w.lo, w.hi)) {
            present.add(r);
            plan.add(r);
        }
    }
    std::vector<ByteRange> copy, fill;
    for (const ByteRange& r : plan.ranges()) (unwritten(e, r) ? fill : copy).push_back(r);
    auto g = m_groups.find(vpn / m_group_pages);
    if (g != m_groups.end()) g->second.times.last_migration = ++m_seq;
    if (!copy.empty()) {
        for (const ByteRange& r : copy) e.pending.add(r);
        start_copy(Direction::H2D, {CopyItem{vpn, e.generation, std::move(copy), -1}}, CopyKind::Fault);
    }
    if (!fill.empty()) populate(vpn, e, fill, true);
    if (far) prefetch_around(vpn);
}

void Gmmu::prefetch_range(uint64_t addr, uint64_t bytes) {
    if (!m_pcie || bytes == 0) return;
    const uint64_t last = (addr + bytes - 1) / m_cfg.page_bytes;
    for (uint64_t v = addr / m_cfg.page_bytes; v <= last; ++v) {
        if (!m_table.find(v) || on_gpu(v)) continue;  // not managed, or on the GPU
        if (!prefetch_page(v)) break;
    }
}

bool Gmmu::on_gpu(uint64_t vpn) const {
    const PageEntry* p = m_table.find(vpn);
    return p && (p->resident || m_in_buffer.count(vpn));
}

bool Gmmu::prefetch_page(uint64_t v) {
    if (!ensure_frame(v)) return false;
    PageEntry& p = *m_table.find(v);
    std::vector<ByteRange> missing, fill;
    for (const ByteRange& r : p.valid.missing(0, m_cfg.page_bytes)) (unwritten(p, r) ? fill : missing).push_back(r);
    ++m_prefetched_pages;
    if (!fill.empty()) populate(v, p, fill, true);
    if (missing.empty()) return true;
    for (const ByteRange& r : missing) p.pending.add(r);
    start_copy(Direction::H2D, {CopyItem{v, p.generation, std::move(missing), -1}}, CopyKind::Prefetch);
    return true;
}

void Gmmu::prefetch_around(uint64_t vpn) {
    PrefetchView view;
    view.region_pages = std::max<uint64_t>(2097152 / m_cfg.page_bytes, 1);
    view.allocated = [this](uint64_t v) { return m_table.find(v) != nullptr; };
    view.present = [this](uint64_t v) { return on_gpu(v); };
    for (uint64_t v : m_prefetcher->pages(vpn, view))
        if (!prefetch_page(v)) break;
}

bool Gmmu::unwritten(const PageEntry& e, const ByteRange& r) const {
    if (!m_cfg.populate_unwritten || r.bytes() == 0) return false;
    const std::vector<ByteRange> m = e.host_data.missing(r.lo, r.hi);
    return m.size() == 1 && m[0] == r;
}

void Gmmu::populate(uint64_t vpn, PageEntry& e, const std::vector<ByteRange>& ranges, bool wake_now) {
    const uint64_t now = sc_core::sc_time_stamp().value();
    for (const ByteRange& r : ranges) {
        e.valid.add(r);
        m_bytes_populated += r.bytes();
        ++m_populated_ranges;
    }
    m_table.update_state(e);
    if (e.valid.count() > m_max_ranges.value()) m_max_ranges += e.valid.count() - m_max_ranges.value();
    auto fr = m_fault_raised.find(vpn);
    if (fr != m_fault_raised.end()) {  // a far fault served without a transfer
        m_fault_service_ns.sample(static_cast<double>(now - fr->second) * 1e-3);
        m_fault_raised.erase(fr);
    }
    if (!m_waiters.count(vpn)) return;
    if (wake_now) {
        wake_waiters(vpn, e, now);
        return;
    }
    m_populated.push_back(vpn);
    wake(now);
}

void Gmmu::run() {
    const uint64_t now = sc_core::sc_time_stamp().value();
    // Requests whose bytes were populated outside run() (a GPU access, a host access).
    std::vector<uint64_t> populated;
    populated.swap(m_populated);
    for (uint64_t vpn : populated) {
        PageEntry* e = m_table.find(vpn);
        if (e) wake_waiters(vpn, *e, now);
    }
    // Finished copies, in the order they were started.
    for (auto it = m_copies.begin(); it != m_copies.end();) {
        if (it->done_ps == ~uint64_t{0}) {
            ++it;
            continue;
        }
        Copy c = std::move(*it);
        it = m_copies.erase(it);
        complete(c, now);
    }
    while (!m_range_timers.empty() && m_range_timers.begin()->first <= now) {
        RangeRequest r = std::move(m_range_timers.begin()->second);
        m_range_timers.erase(m_range_timers.begin());
        m_range_ready.push_back({r.vpn, r.generation, std::move(r.ranges), r.partition});
    }
    flush_ranges();
    if (m_handler_done && m_handler_done <= now) {
        m_handler_done = 0;
        std::vector<uint64_t> batch;
        batch.swap(m_batch);
        for (uint64_t vpn : batch) serve_fault(vpn);
        if (m_proactive_free_pages) evict_proactively();
    }
    // Frames freed by a write-back are taken at once, even while the next batch is handled.
    const bool drained = m_drained;
    m_drained = false;
    if (!m_frame_wait.empty() && (m_handler_done == 0 || drained)) {
        std::deque<uint64_t> retry;
        retry.swap(m_frame_wait);
        for (uint64_t vpn : retry) serve_fault(vpn);
    }
    if (m_handler_done == 0 && !m_fault_buffer.empty()) start_batch(now);
    // Sleep until a copy completes or a timer is due.
    m_triggers = std::make_unique<sc_core::sc_event_or_list>();
    *m_triggers |= m_wake;
    for (Copy& c : m_copies) *m_triggers |= *c.event;
    // One event carries every timer: re-arm the earliest (an immediate wake replaces it).
    uint64_t next = m_handler_done ? m_handler_done : ~uint64_t{0};
    if (!m_range_timers.empty()) next = std::min(next, m_range_timers.begin()->first);
    if (next != ~uint64_t{0}) wake(next);
    next_trigger(*m_triggers);
}

void Gmmu::complete(Copy& c, uint64_t now) {
    if (c.kind == CopyKind::Range) --m_range_in_flight;
    for (CopyItem& it : c.items) {
        if (it.partition >= 0) {
            Partition& part = m_partitions[static_cast<size_t>(it.partition)];
            --part.used;
            if (!part.blocked.empty()) {
                RangeRequest r = std::move(part.blocked.front());
                part.blocked.pop_front();
                ++part.used;
                start_range(std::move(r), now);
            }
        }
        if (c.kind == CopyKind::Writeback) {
            if (m_cfg.writeback_before_reuse) {
                --m_draining;
                m_drained = true;
            }
            continue;
        }
        PageEntry* e = m_table.find(it.vpn);
        if (!e || e->generation != it.generation) continue;  // the page left the GPU meanwhile
        for (const ByteRange& r : it.ranges) {
            e->pending.remove(r);
            e->valid.add(r);
        }
        m_table.update_state(*e);
        if (e->valid.count() > m_max_ranges.value()) m_max_ranges += e->valid.count() - m_max_ranges.value();
        auto fr = m_fault_raised.find(it.vpn);
        if (fr != m_fault_raised.end()) {  // served by its own migration or by a prefetch
            m_fault_service_ns.sample(static_cast<double>(now - fr->second) * 1e-3);
            m_fault_raised.erase(fr);
        }
        wake_waiters(it.vpn, *e, now);
    }
    flush_ranges();
}

void Gmmu::wake_waiters(uint64_t vpn, PageEntry& e, uint64_t now) {
    auto it = m_waiters.find(vpn);
    if (it == m_waiters.end()) return;
    std::vector<Waiter> still;
    std::vector<Waiter> ready;
    for (const Waiter& w : it->second) (e.valid.covers(w.lo, w.hi) ? ready : still).push_back(w);
    if (still.empty()) m_waiters.erase(it);
    else it->second = still;
    auto g = m_groups.find(vpn / m_group_pages);
    for (const Waiter& w : ready) {
        if (w.write) e.dirty = true;
        if (g != m_groups.end()) g->second.times.last_access = ++m_seq;
        m_stall_ns.sample(static_cast<double>(now - w.since_ps) * 1e-3);
        ++m_replays;
        m_replay[w.unit](*w.p);
    }
    for (const Waiter& w : still) {
        ValidRanges present = e.valid;
        present.add(e.pending);
        // Not covered by what is valid or on its way (planned before this request came).
        if (!present.covers(w.lo, w.hi)) need_migration(vpn, e, w);
    }
}

}  // namespace stacksim::memory
