// SPDX-License-Identifier: Apache-2.0
// Unified memory algorithms without a simulation: valid ranges, migration mechanisms, TLB,
// page table, shared translation timing, eviction order, prefetchers.
#include <catch2/catch.hpp>

#include "tests/unit/policy_spec.h"

#include <optional>

#include <set>

#include "memory/eviction_policy.h"
#include "memory/migration_mechanism.h"
#include "memory/page_table.h"
#include "memory/prefetcher.h"
#include "memory/tlb.h"
#include "memory/translation_service.h"
#include "memory/uvm_config.h"
#include "sim/config.h"

using namespace stacksim;
using namespace stacksim::memory;

namespace {
constexpr uint64_t kPage = 2097152;
constexpr uint64_t KB = 1024;

/// A migration mechanism with multi_range parameters (unit, gap threshold, range limit).
std::unique_ptr<MigrationMechanism> mechanism(const std::string& name, uint64_t unit = 1024, uint64_t gap = 4096,
                                              uint32_t max_ranges = 4) {
    const std::string params = name == "multi_range" ? "migration_unit_bytes = " + std::to_string(unit) +
                                                           "\ngap_threshold_bytes = " + std::to_string(gap) +
                                                           "\nmax_ranges = " + std::to_string(max_ranges)
                                                     : "";
    return migration_mechanisms().create(test::policy_spec(migration_mechanisms(), name, params), kPage);
}

/// Applies `plan` to `present` the way the GMMU does and returns what moved.
uint64_t migrate(ValidRanges& present, const std::vector<ByteRange>& plan) {
    uint64_t bytes = 0;
    for (const ByteRange& r : plan) {
        CHECK_FALSE(present.covers(r.lo, r.hi));
        present.add(r);
        bytes += r.bytes();
    }
    return bytes;
}
}  // namespace

TEST_CASE("valid ranges: add merges touching ranges and remove splits", "[uvm]") {
    ValidRanges v;
    v.add({0, 100});
    v.add({200, 300});
    CHECK(v.count() == 2);
    v.add({100, 200});
    REQUIRE(v.count() == 1);
    CHECK(v.ranges()[0] == ByteRange{0, 300});
    v.remove({50, 60});
    CHECK(v.count() == 2);
    CHECK(v.bytes() == 290);
    CHECK(v.covers(0, 50));
    CHECK_FALSE(v.covers(40, 70));
    auto m = v.missing(0, 400);
    REQUIRE(m.size() == 2);
    CHECK(m[0] == ByteRange{50, 60});
    CHECK(m[1] == ByteRange{300, 400});
}

TEST_CASE("migration registry: every mechanism is registered", "[uvm]") {
    for (const char* n : {"whole_page", "single_range", "multi_range"}) CHECK(migration_mechanisms().contains(n));
    CHECK_THROWS(mechanism("nope"));
}

TEST_CASE("whole-page migration: one access moves the page and makes it GPU-valid", "[uvm]") {
    auto m = mechanism("whole_page");
    PageTable t(kPage, 3);
    t.map(0, kPage);
    PageEntry& e = *t.find(0);
    CHECK(e.state == PageState::CpuValid);
    CHECK(migrate(e.valid, m->plan(e.valid, 4096, 4224)) == kPage);
    t.update_state(e);
    CHECK(e.state == PageState::GpuValid);
    CHECK(m->plan(e.valid, 0, 128).empty());
}

TEST_CASE("single-range migration: a later request migrates the gap too", "[uvm]") {
    auto m = mechanism("single_range");
    PageTable t(kPage, 3);
    t.map(0, kPage);
    PageEntry& e = *t.find(0);
    CHECK(migrate(e.valid, m->plan(e.valid, 1000 * KB, 1000 * KB + 128)) == 128);
    t.update_state(e);
    CHECK(e.state == PageState::PartialValid);
    // A request 100 KB further on: the gap between them migrates with it.
    CHECK(migrate(e.valid, m->plan(e.valid, 1100 * KB, 1100 * KB + 128)) == 100 * KB);
    CHECK(e.valid.count() == 1);
    // Below the range: extends downwards, still one range.
    CHECK(migrate(e.valid, m->plan(e.valid, 0, 64)) == 1000 * KB);
    CHECK(e.valid.count() == 1);
    // Inside the range: nothing moves.
    CHECK(m->plan(e.valid, 500 * KB, 500 * KB + 128).empty());
    // The rest of the page: GPU-valid when complete.
    migrate(e.valid, m->plan(e.valid, kPage - 128, kPage));
    t.update_state(e);
    CHECK(e.state == PageState::GpuValid);
}

TEST_CASE("multi-range migration: units, gap filling, new ranges and the range limit", "[uvm]") {
    auto m = mechanism("multi_range", 1024, 4096, 4);
    ValidRanges v;
    // A 128-byte request moves one 1 KB unit.
    CHECK(migrate(v, m->plan(v, 10 * KB + 100, 10 * KB + 228)) == KB);
    CHECK(v.ranges()[0] == ByteRange{10 * KB, 11 * KB});
    // 2 KB away (< 4 KB threshold): the gap is filled, one range.
    CHECK(migrate(v, m->plan(v, 13 * KB, 13 * KB + 1)) == 3 * KB);
    CHECK(v.count() == 1);
    // 100 KB away: a new range, gap not migrated.
    CHECK(migrate(v, m->plan(v, 114 * KB, 114 * KB + 1)) == KB);
    CHECK(v.count() == 2);
    CHECK(migrate(v, m->plan(v, 300 * KB, 300 * KB + 1)) == KB);
    CHECK(migrate(v, m->plan(v, 600 * KB, 600 * KB + 1)) == KB);
    CHECK(v.count() == 4);
    // A fifth range exceeds the limit: the smallest gap (114 KB .. 300 KB is 185 KB, the new
    // one at 610 KB is 9 KB from 601 KB) is filled instead.
    const uint64_t moved = migrate(v, m->plan(v, 610 * KB, 610 * KB + 1));
    CHECK(v.count() == 4);
    CHECK(moved == 10 * KB);
    CHECK(v.covers(600 * KB, 611 * KB));
}

TEST_CASE("multi-range migration moves fewer bytes than single-range on sparse requests", "[uvm]") {
    auto single = mechanism("single_range");
    auto multi = mechanism("multi_range", 1024, 4096, 8);
    ValidRanges a, b;
    uint64_t sa = 0, sb = 0;
    for (uint64_t off : {5 * KB, 700 * KB, 1400 * KB, 2000 * KB}) {
        sa += migrate(a, single->plan(a, off, off + 128));
        sb += migrate(b, multi->plan(b, off, off + 128));
    }
    CHECK(sb == 4 * KB);
    CHECK(sa > 1900 * KB);
}

TEST_CASE("tlb: set-associative lookups, LRU replacement and invalidation", "[uvm]") {
    Tlb t(4, 2);  // 2 sets of 2 ways; even keys share set 0
    CHECK_FALSE(t.lookup(0));
    t.insert(0);
    t.insert(2);
    CHECK(t.lookup(0));  // 2 is now LRU in set 0
    t.insert(4);         // evicts 2
    CHECK(t.lookup(0));
    CHECK(t.lookup(4));
    CHECK_FALSE(t.lookup(2));
    t.insert(1);  // other set: no effect on set 0
    CHECK(t.lookup(0));
    t.invalidate(0);
    CHECK_FALSE(t.lookup(0));
    CHECK(t.hits() == 4);
    CHECK(t.misses() == 3);
    CHECK_THROWS(Tlb(6, 4));
}

TEST_CASE("page table: levels by page size and walk-cache keys share upper levels", "[uvm]") {
    UvmConfig c;
    c.page_bytes = 4096;
    CHECK(c.levels() == 4);
    c.page_bytes = 65536;
    CHECK(c.levels() == 4);
    c.page_bytes = 2097152;
    CHECK(c.levels() == 3);
    PageTable t(4096, 4);
    CHECK(t.level_key(0x1000, 0) == t.level_key(0x1001, 0));
    CHECK(t.level_key(0x1000, 2) == t.level_key(0x1001, 2));
    CHECK(t.level_key(0x1000, 2) != t.level_key(0x1000 + 512, 2));
    CHECK(t.level_key(5, 1) != t.level_key(5, 2));
}

TEST_CASE("translation service: L2 hit, walk with walk-cache hits, shared walks and walker queueing", "[uvm]") {
    UvmConfig c;
    c.page_bytes = 4096;
    c.l2_tlb_latency = 10;
    c.pwc_latency = 5;
    c.walk_memory_latency = 100;
    c.walkers = 1;
    c.l2_tlb_ports = 4;
    PageTable table(4096, c.levels());
    TranslationService s(c, table);
    // Cold walk: 4 levels from memory.
    CHECK(s.translate(7, 0) == 10 + 400);
    // Same page while walking: shares the walk.
    CHECK(s.translate(7, 20) == 410);
    CHECK(s.merged_walks() == 1);
    // Neighbour page: upper 3 levels hit the walk cache, but the only walker is busy.
    CHECK(s.translate(8, 30) == 410 + 3 * 5 + 100);
    CHECK(s.walker_wait_cycles() == 410 - 40);
    // Later: L2 TLB hit.
    CHECK(s.translate(7, 1000) == 1010);
    CHECK(s.l2_hits() == 1);
    CHECK(s.walks() == 2);
}

TEST_CASE("translation service: memory walks read each level missing the walk cache and wait for it", "[uvm][walks]") {
    UvmConfig c;
    c.page_bytes = 4096;
    c.l2_tlb_latency = 10;
    c.pwc_latency = 5;
    c.walkers = 1;
    c.l2_tlb_ports = 4;
    REQUIRE(c.walk_reads == WalkReads::Memory);
    PageTable table(4096, c.levels());
    TranslationService s(c, table);
    struct Read { uint64_t walk, addr, cycle; };
    std::vector<Read> reads;
    std::vector<std::pair<uint64_t, uint64_t>> done[2];
    for (int i = 0; i < 2; ++i)
        s.attach({[&done, i](uint64_t vpn, uint64_t cycle) { done[i].emplace_back(vpn, cycle); },
                  [&reads](uint64_t w, uint64_t a, uint64_t cycle) { reads.push_back({w, a, cycle}); }});
    // Cold walk by client 0: the root entry is read when the L2 TLB lookup ends.
    CHECK_FALSE(s.request(0, 7, 0));
    REQUIRE(reads.size() == 1);
    CHECK(reads[0].addr == table.pte_address(7, 0));
    CHECK(reads[0].cycle == 10);
    // Client 1 misses the same page meanwhile: it joins the walk; page 8 waits for the walker.
    CHECK_FALSE(s.request(1, 7, 20));
    CHECK_FALSE(s.request(1, 8, 20));
    CHECK(s.merged_walks() == 1);
    CHECK(reads.size() == 1);
    // Each response lets the walk read the next level, at the response's cycle.
    for (uint64_t level = 1, t = 100; level < 4; ++level, t += 100) {
        s.pte_read_done(reads.back().walk, t);
        REQUIRE(reads.size() == level + 1);
        CHECK(reads.back().addr == table.pte_address(7, static_cast<uint32_t>(level)));
        CHECK(reads.back().cycle == t);
    }
    CHECK(done[0].empty());
    s.pte_read_done(reads.back().walk, 400);  // the leaf: both clients are answered
    REQUIRE(done[0].size() == 1);
    REQUIRE(done[1].size() == 1);
    CHECK(done[0][0] == std::pair<uint64_t, uint64_t>{7, 400});
    CHECK(done[1][0] == std::pair<uint64_t, uint64_t>{7, 400});
    // The freed walker takes page 8: upper levels hit the walk cache (3 x 5), the leaf is read
    // by the client whose miss started it, in the same sector as page 7's.
    REQUIRE(reads.size() == 5);
    CHECK(reads[4].addr == table.pte_address(8, 3));
    CHECK(reads[4].addr / 128 == table.pte_address(7, 3) / 128);  // same line
    CHECK(reads[4].cycle == 400 + 3 * 5);
    CHECK(s.walker_wait_cycles() == 400 - 30);
    s.pte_read_done(reads[4].walk, 500);
    REQUIRE(done[1].size() == 2);
    CHECK(done[1][1] == std::pair<uint64_t, uint64_t>{8, 500});
    CHECK(done[0].size() == 1);
    // Now an L2 TLB hit, answered at once.
    CHECK(s.request(0, 7, 600) == std::optional<uint64_t>{610});
    CHECK(s.walks() == 2);
    CHECK(s.pte_reads() == 5);
    CHECK(s.walk_cycles() == (400 - 10) + (500 - 30));
    // A one-entry walk cache holds only the last level read: walking page 7 again reads all four.
    UvmConfig one = c;
    one.pwc_entries = one.pwc_ways = 1;
    one.l2_tlb_entries = one.l2_tlb_ways = 1;
    TranslationService o(one, table);
    std::vector<Read> oreads;
    o.attach({[](uint64_t, uint64_t) {}, [&oreads](uint64_t w, uint64_t a, uint64_t cycle) { oreads.push_back({w, a, cycle}); }});
    uint64_t t = 0;
    for (uint64_t vpn : {uint64_t{0x10005}, uint64_t{0x102BC}, uint64_t{0x10005}}) {
        const size_t before = oreads.size();
        CHECK_FALSE(o.request(0, vpn, t));
        while (o.walks_in_flight()) o.pte_read_done(oreads.back().walk, t += 100);
        CHECK(oreads.size() - before == 4);
    }
    // Modelled walks answer at once and send nothing.
    c.walk_reads = WalkReads::Modelled;
    c.walk_memory_latency = 100;
    TranslationService m(c, table);
    m.attach({[](uint64_t, uint64_t) { FAIL("no callback"); }, [](uint64_t, uint64_t, uint64_t) { FAIL("no read"); }});
    CHECK(m.request(0, 7, 0) == std::optional<uint64_t>{10 + 400});
}

TEST_CASE("page table: entry addresses lie in the reserved region, neighbours share a sector", "[uvm][walks]") {
    PageTable t(4096, 4);
    for (uint32_t l = 0; l < 4; ++l) CHECK(t.pte_address(0x12345, l) >= PageTable::kPageTableBase);
    CHECK(t.pte_address(0x12345, 3) + 8 == t.pte_address(0x12346, 3));
    CHECK(t.pte_address(0x12345, 2) == t.pte_address(0x12346, 2));  // same upper-level entry
    CHECK(t.pte_address(0x12345, 2) != t.pte_address(0x12345, 1));
    PageTable big(2097152, 3);
    CHECK(big.pte_address((uint64_t{1} << 27) - 1, 2) < (uint64_t{1} << 48));
}

TEST_CASE("eviction policies: age-LRU, LRU, FIFO and random pick different victims", "[uvm]") {
    for (const char* n : {"age_lru", "lru", "fifo", "random"}) CHECK(eviction_policies().contains(n));
    std::vector<EvictionCandidate> c = {
        {10, /*resident_since*/ 1, /*last_migration*/ 50, /*last_access*/ 90},
        {11, 5, 20, 95},
        {12, 8, 60, 30},
    };
    CHECK(eviction_policies().create("age_lru", 1)->pick(c) == 1);
    CHECK(eviction_policies().create("lru", 1)->pick(c) == 2);
    CHECK(eviction_policies().create("fifo", 1)->pick(c) == 0);
    auto r1 = eviction_policies().create("random", 7), r2 = eviction_policies().create("random", 7);
    std::set<size_t> seen;
    for (int i = 0; i < 50; ++i) {
        size_t a = r1->pick(c);
        CHECK(a == r2->pick(c));  // seeded: deterministic
        seen.insert(a);
    }
    CHECK(seen.size() == 3);
}

TEST_CASE("prefetchers: sequential-local stays in its region and the tree fills half-full subtrees", "[uvm]") {
    for (const char* n : {"none", "sequential_local", "tree"}) CHECK(prefetchers().contains(n));
    std::set<uint64_t> present;
    PrefetchView v;
    v.region_pages = 8;
    v.allocated = [](uint64_t p) { return p < 20; };
    v.present = [&](uint64_t p) { return present.count(p) != 0; };
    CHECK(prefetchers().create("none")->pages(3, v).empty());
    present = {5};
    auto seq = prefetchers().create(test::policy_spec(prefetchers(), "sequential_local", "prefetch_pages = 4"))->pages(3, v);
    CHECK(seq == std::vector<uint64_t>{4, 6, 7});  // 5 present, 8 is the next region
    auto tree = prefetchers().create("tree");
    present = {};
    CHECK(tree->pages(2, v).empty());  // 1 of 2 present: no node over half
    present = {0, 1};
    // Fault on 2: node [0,4) has 3 of 4 -> prefetch 3; then [0,8) has 4 of 8 -> not over half.
    CHECK(tree->pages(2, v) == std::vector<uint64_t>{3});
    present = {0, 1, 3, 4};
    // Fault on 2: [0,4) full after 2; [0,8) then has 5 of 8 -> the rest of the region.
    CHECK(tree->pages(2, v) == std::vector<uint64_t>{5, 6, 7});
    v.allocated = [](uint64_t p) { return p < 6; };
    CHECK(tree->pages(2, v) == std::vector<uint64_t>{5});  // unallocated pages are never fetched
}

TEST_CASE("uvm config: reading validates every key and names it", "[uvm]") {
    auto error = [](const std::string& toml) {
        sim::ConfigDoc doc = sim::ConfigDoc::from_string(toml, "t.toml");
        UvmConfig c;
        try {
            UvmConfig::params().read_into(doc.section("uvm"), c);
        } catch (const sim::ConfigError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(error("[uvm]\npage_bytes = 65536\n").empty());
    CHECK(error("[uvm]\npage_bytes = 8192\n") == "t.toml:2: uvm.page_bytes: must be 4096, 65536 or 2097152, got 8192");
    CHECK(error("[uvm]\nmechanism = \"half_page\"\n").rfind("t.toml:2: uvm.mechanism: 'half_page' is not one of", 0) == 0);
    CHECK(error("[uvm]\ncapacity_fraction = 1.5\n") == "t.toml:2: uvm.capacity_fraction: must be in (0, 1], got 1.5");
    CHECK(error("[uvm]\nl1_tlb_entries = 100\nl1_tlb_ways = 8\n") ==
          "t.toml:2: uvm.l1_tlb_entries: must be a multiple of l1_tlb_ways");
    CHECK(error("[uvm]\nmechanism = \"multi_range\"\n[uvm.multi_range]\nmax_ranges = 0\n") ==
          "t.toml:4: uvm.multi_range.max_ranges: must be 1..4096, got 0");
    // Another mechanism's parameters are checked, then ignored.
    CHECK(error("[uvm]\nmechanism = \"single_range\"\n[uvm.multi_range]\nmax_ranges = 2\n").empty());
    CHECK(error("[uvm]\nmechanism = \"single_range\"\n[uvm.multi_range]\nmax_ranges = 0\n") ==
          "t.toml:4: uvm.multi_range.max_ranges: must be 1..4096, got 0");
    CHECK(error("[uvm]\nmechanism = \"single_range\"\n[uvm.multi_rang]\nmax_ranges = 2\n").empty());  // the reader's
                                                       // unknown-key check catches this one (test_config)
}
