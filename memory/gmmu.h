// SPDX-License-Identifier: Apache-2.0
// The GPU memory management unit: page states, far faults, partial-page migration, eviction.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include <systemc>
#include <tlm>

#include "memory/eviction_policy.h"
#include "memory/migration_mechanism.h"
#include "memory/page_compression.h"
#include "memory/page_table.h"
#include "memory/pcie_link.h"
#include "memory/prefetcher.h"
#include "memory/translation_service.h"
#include "memory/uvm_config.h"
#include "sim/stats.h"

namespace stacksim::memory {

/// What the GMMU needs to know about the rest of the GPU.
struct GmmuPlatform {
    uint32_t partitions = 1;          ///< memory partitions (one migration buffer each)
    uint64_t interleave_bytes = 256;  ///< partition interleave
    uint64_t seed = 1;                ///< for the random eviction policy
    /// Capacity compression may be switched on during the run (ETC's policy engine), so its
    /// engine is built even when [uvm.compression] enabled is false.
    bool compression_on_demand = false;
};

/// One GMMU for the GPU, shared by all SMs' translation units. After an L1-TLB lookup a unit
/// calls access(): a request whose bytes are valid on the GPU goes on at once; otherwise the
/// GMMU keeps it and calls the unit's replay function when its bytes have arrived.
///   - Page not resident (CPU-valid): a far fault enters the fault buffer. The host serves
///     faults in batches of up to fault_batch pages: fault_latency_ns per batch, then one
///     host-to-device PCIe copy per page of the bytes the migration mechanism chose, plus
///     prefetched pages. A page needs a GPU frame; when none is free a group of pages
///     (eviction_granularity_bytes) is evicted, dirty ones written back device-to-host on the
///     second DMA engine while faults keep being served.
///   - Page partially valid and the request outside its valid ranges: a migration-buffer entry
///     of the request's memory partition is taken (requests wait while all are taken) and the
///     chosen ranges are copied (after range_fault_latency_ns).
/// Everything is driven by timed events; nothing runs while transfers are in flight.
class Gmmu : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(Gmmu);
    /// `pcie`: the host link (required in managed mode).
    Gmmu(sc_core::sc_module_name name, const UvmConfig& cfg, const GmmuPlatform& platform, PcieLink* pcie,
         sim::StatRegistry& stats);
    ~Gmmu() override;

    /// Registers a translation unit; returns its id for access().
    uint32_t attach(std::function<void(tlm::tlm_generic_payload&)> replay,
                    std::function<void(uint64_t vpn)> invalidate);
    /// A translated GPU request. True: the bytes are on the GPU, go on. False: the GMMU holds
    /// `p` and calls unit `unit`'s replay function once they are.
    bool access(uint32_t unit, tlm::tlm_generic_payload& p);

    /// Host allocation of [addr, addr + bytes): `managed` pages start CPU-valid and are demand
    /// paged; the others (device memory, or any page in ideal mode) are GPU-valid for good.
    /// A page must not hold both kinds (the host program page-aligns managed allocations).
    void allocate(uint64_t addr, uint64_t bytes, bool managed);
    /// Managed allocations need the PCIe link to migrate over.
    bool can_page() const { return m_pcie != nullptr; }
    /// The host is about to touch [addr, addr + bytes): every page of it not CPU-valid leaves
    /// the GPU. Returns the bytes of each page to copy device-to-host (empty if none).
    /// `writes`: the host writes the bytes, which then hold host data (populate_unwritten).
    std::vector<uint64_t> host_access(uint64_t addr, uint64_t bytes, bool writes = true);

    /// cudaMemPrefetchAsync to the GPU: every managed page of [addr, addr + bytes) not on the
    /// GPU gets a frame (evicting as a fault would) and its missing bytes start migrating
    /// host-to-device as prefetches, in address order; a later GPU access to a page still in
    /// flight waits for it. Stops at the first page that cannot get a frame now (all frames
    /// draining). Counted as prefetched pages and bytes.
    void prefetch_range(uint64_t addr, uint64_t bytes);

    const UvmConfig& config() const { return m_cfg; }
    PageTable& page_table() { return m_table; }
    TranslationService& translation() { return m_translation; }
    /// GPU memory available to managed pages, in pages.
    uint64_t capacity_pages() const;
    uint64_t resident_pages() const { return m_resident; }
    /// Capacity compression ([uvm.compression] enabled), else null.
    PageCompression* compression() { return m_compression.get(); }
    /// Switches capacity compression on (ETC): the resident pages are measured and counted at
    /// their compressed size from now on. No effect without an engine or when already on.
    void activate_compression();
    bool compression_active() const { return m_compression_active; }
    /// The functional memory holding the pages' data (what compression measures).
    void set_data(const sim::SparseMemory* data) {
        if (m_compression) m_compression->set_data(data);
    }
    uint64_t far_faults() const { return m_far_faults.value(); }
    uint64_t bytes_migrated() const { return m_bytes_migrated.value(); }
    uint64_t evicted_pages() const { return m_evicted_pages.value(); }
    /// Requests the GMMU is holding.
    size_t waiting() const;
    /// Far faults raised and not yet served (pages on their way to the GPU).
    size_t faults_in_flight() const { return m_fault_raised.size(); }
    /// The managed footprint exceeds GPU memory (known from the allocations).
    bool oversubscribed() const { return m_managed_pages > capacity_pages(); }
    /// Proactive eviction (ETC): while oversubscribed, after each fault batch, evicts groups
    /// until at least `free_bytes` of GPU memory are free or on their way to be (with
    /// compression active: `free_bytes` of the capacity in stored bytes). 0 = off.
    void set_proactive_eviction(uint64_t free_bytes) { m_proactive_free_pages = (free_bytes + m_cfg.page_bytes - 1) / m_cfg.page_bytes; }
    /// Eviction groups evicted by proactive eviction.
    uint64_t proactive_groups() const { return m_proactive_groups; }
    /// Frames whose evicted page is still being written back (writeback_before_reuse).
    uint64_t draining_frames() const { return m_draining; }
    /// Called when a far fault is raised, with the SM (MemExtension source) whose request raised it.
    std::function<void(uint32_t sm)> on_far_fault;

private:
    struct Waiter {
        uint32_t unit;
        tlm::tlm_generic_payload* p;
        uint64_t lo, hi;  ///< page offsets
        bool write;
        uint64_t since_ps;
    };
    enum class CopyKind { Fault, Range, Prefetch, Writeback };
    struct CopyItem {
        uint64_t vpn;
        uint32_t generation;
        std::vector<ByteRange> ranges;
        int partition;  ///< migration-buffer entry held, or -1
    };
    /// One DMA: a fault's or prefetch's page, a write-back, or a chain of range requests.
    struct Copy {
        std::vector<CopyItem> items;
        CopyKind kind;
        uint64_t done_ps = ~uint64_t{0};
        sc_core::sc_event* event = nullptr;
    };
    struct RangeRequest {
        uint64_t vpn;
        uint32_t generation;
        std::vector<ByteRange> ranges;
        int partition;
        uint64_t queued_ps;
    };
    struct Partition {
        uint32_t used = 0;
        std::deque<RangeRequest> blocked;
    };
    struct Group {
        EvictionCandidate times;
        uint64_t resident = 0;
    };

    void run();
    void need_migration(uint64_t vpn, PageEntry& e, const Waiter& w);
    void start_batch(uint64_t now);
    void serve_fault(uint64_t vpn);
    void prefetch_around(uint64_t vpn);
    /// Gives page `vpn` a frame and starts migrating its missing bytes; false when no frame
    /// can be had now.
    bool prefetch_page(uint64_t vpn);
    /// Page `vpn` is managed and has a GPU frame (its bytes there or on their way).
    bool on_gpu(uint64_t vpn) const;
    void start_range(RangeRequest r, uint64_t now);
    void start_copy(Direction d, std::vector<CopyItem> items, CopyKind kind);
    /// Starts one chained copy of every range request ready to go, if none is in flight.
    void flush_ranges();
    void complete(Copy& c, uint64_t now);
    void wake_waiters(uint64_t vpn, PageEntry& e, uint64_t now);
    /// populate_unwritten: `r` holds no byte the host wrote, so it needs no transfer.
    bool unwritten(const PageEntry& e, const ByteRange& r) const;
    /// Makes `ranges` valid without a transfer (unwritten bytes); their waiters are replayed
    /// by run() (`wake_now` true: at once, from run()'s own context).
    void populate(uint64_t vpn, PageEntry& e, const std::vector<ByteRange>& ranges, bool wake_now);
    bool ensure_frame(uint64_t vpn);
    /// Compression on: evicts until page `vpn`'s compressed size fits, then takes it in.
    bool make_room_compressed(uint64_t vpn);
    bool evict_one();
    void evict_proactively();
    /// Evicts one page; with writeback_before_reuse its write-back joins `group_writeback` (one
    /// DMA for the group), else it starts at once.
    void evict_page(uint64_t vpn, PageEntry& e, std::vector<CopyItem>& group_writeback);
    void leave_gpu(uint64_t vpn, PageEntry& e);
    int partition_of(uint64_t addr) const;
    void wake(uint64_t at_ps);

    UvmConfig m_cfg;
    GmmuPlatform m_platform;
    PcieLink* m_pcie;
    bool m_any_managed = false;   ///< some allocation is demand paged
    uint64_t m_managed_pages = 0; ///< pages of managed allocations (the footprint for capacity_fraction)
    PageTable m_table;
    TranslationService m_translation;
    std::unique_ptr<MigrationMechanism> m_mechanism;
    std::unique_ptr<EvictionPolicy> m_eviction;
    std::unique_ptr<Prefetcher> m_prefetcher;
    std::unique_ptr<PageCompression> m_compression;
    bool m_compression_active = false;  ///< pages arriving are stored compressed
    std::vector<std::function<void(tlm::tlm_generic_payload&)>> m_replay;
    std::vector<std::function<void(uint64_t)>> m_invalidate;

    std::map<uint64_t, std::vector<Waiter>> m_waiters;  ///< by vpn
    std::deque<uint64_t> m_fault_buffer;
    std::set<uint64_t> m_in_buffer;
    std::map<uint64_t, uint64_t> m_fault_raised;  ///< vpn -> ps the far fault was raised
    std::vector<uint64_t> m_batch;                ///< pages whose batch is in the handler
    uint64_t m_handler_done = 0;                  ///< ps; 0 = handler idle
    std::multimap<uint64_t, RangeRequest> m_range_timers;  ///< ready ps -> request holding an entry
    std::vector<Partition> m_partitions;
    std::list<Copy> m_copies;
    std::vector<CopyItem> m_range_ready;  ///< range requests waiting for the chain in flight
    uint32_t m_range_in_flight = 0;  ///< range copies started and not complete
    uint64_t m_range_host_free = 0;  ///< ps the host is free for the next range request (range_host_ns)
    std::vector<uint64_t> m_populated;  ///< pages with bytes populated whose waiters run() replays
    std::deque<uint64_t> m_frame_wait;
    std::map<uint64_t, Group> m_groups;
    uint64_t m_resident = 0;
    uint64_t m_seq = 0;
    uint64_t m_group_pages = 1;
    uint64_t m_draining = 0;              ///< frames waiting for their write-back (writeback_before_reuse)
    bool m_drained = false;               ///< a write-back freed frames since run() last retried
    uint64_t m_proactive_free_pages = 0;  ///< 0 = proactive eviction off
    uint64_t m_proactive_groups = 0;
    sc_core::sc_event m_wake;
    std::unique_ptr<sc_core::sc_event_or_list> m_triggers;  ///< rebuilt each time run() sleeps

    sim::Counter m_far_faults, m_write_faults, m_range_faults, m_host_faults, m_coalesced, m_batches, m_bytes_requested,
        m_bytes_migrated, m_bytes_prefetched, m_prefetched_pages, m_bytes_back, m_buffer_stalls, m_evicted_pages,
        m_evicted_groups, m_writebacks, m_bytes_written_back, m_replays, m_max_ranges, m_bytes_populated,
        m_populated_ranges;
    sim::Average m_fault_service_ns, m_stall_ns, m_batch_size, m_buffer_wait_ns, m_range_host_wait_ns;
};

}  // namespace stacksim::memory
