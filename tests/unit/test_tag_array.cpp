// SPDX-License-Identifier: Apache-2.0
// Sectored tag array: sector bits, evictions, set hashing, and each replacement policy's victims.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "common/tag_array.h"
#include "sim/config.h"
#include "sim/error.h"

using namespace stacksim;
using common::Eviction;
using common::TagArray;
using common::TagArrayGeometry;

namespace {

constexpr uint32_t kLine = 128;

/// One set of `ways` 128-byte lines with four 32-byte sectors.
TagArrayGeometry one_set(const sim::PolicySpec& policy, uint32_t ways = 4) {
    TagArrayGeometry g;
    g.size_bytes = uint64_t{ways} * kLine;
    g.ways = ways;
    g.line_bytes = kLine;
    g.sector_bytes = 32;
    g.replacement = policy;
    return g;
}

/// Line `i` of a one-set array (every line maps to its only set).
constexpr uint64_t line(uint64_t i) { return 0x10000 + i * kLine; }

/// SRRIP with `bits`-wide RRPVs, its parameters read through the registry as a config would.
sim::PolicySpec srrip(uint32_t bits) {
    sim::ConfigDoc doc = sim::ConfigDoc::from_string(fmt::format("[l1.srrip]\nrrpv_bits = {}\n", bits), "test.toml");
    sim::ConfigSection s = doc.section("l1.srrip");
    sim::PolicySpec spec = common::replacement_policies().defaults("srrip");
    spec.params = common::replacement_policies().read_params("srrip", s, spec.params.get());
    return spec;
}

/// Fills line `i`, returning the index of the evicted line (or -1).
int64_t fill(TagArray& t, uint64_t i) {
    std::optional<Eviction> e = t.fill(line(i), 0xF);
    return e ? static_cast<int64_t>((e->line_addr - line(0)) / kLine) : -1;
}

/// Lines A..D (0..3) fill the four ways, A is hit, then E..H (4..7) are filled: the lines
/// they evict, in order.
std::vector<int64_t> victims_after_hit_on_first(const sim::PolicySpec& policy) {
    TagArray t(one_set(policy));
    for (uint64_t i = 0; i < 4; ++i) REQUIRE(fill(t, i) == -1);
    REQUIRE(t.lookup(line(0)) == 0xF);
    std::vector<int64_t> out;
    for (uint64_t i = 4; i < 8; ++i) out.push_back(fill(t, i));
    return out;
}

enum Name : int64_t { A, B, C, D, E };

}  // namespace

TEST_CASE("tag array: partial fills add sectors and a lookup anywhere in the line returns them", "[tag_array]") {
    TagArray t(one_set("lru"));
    CHECK(t.lookup(line(0)) == 0);
    CHECK_FALSE(t.fill(line(0) + 40, 0b0010).has_value());
    CHECK(t.lookup(line(0)) == 0b0010);
    CHECK(t.lookup(line(0) + 127) == 0b0010);
    CHECK_FALSE(t.fill(line(0), 0b1000).has_value());  // same line: no second way, no eviction
    CHECK(t.lookup(line(0) + 8) == 0b1010);
    CHECK(t.lookup(line(1)) == 0);
    CHECK(t.line_of(line(0) + 77) == line(0));
}

TEST_CASE("tag array: mark_dirty marks only valid sectors and ignores absent lines", "[tag_array]") {
    TagArray t(one_set("lru", 1));
    t.fill(line(0), 0b0011, 5);
    t.mark_dirty(line(0), 0b0110);  // sector 2 is not valid: stays clean
    t.mark_dirty(line(1), 0b1111);  // absent: no effect, nothing allocated
    CHECK(t.lookup(line(1)) == 0);
    std::optional<Eviction> e = t.fill(line(2), 0b0001);
    REQUIRE(e.has_value());
    CHECK(e->line_addr == line(0));
    CHECK(e->valid_sectors == 0b0011);
    CHECK(e->dirty_sectors == 0b0010);
    CHECK(e->owner == 5);
}

TEST_CASE("tag array: invalidating some sectors keeps the line, all of them frees the way", "[tag_array]") {
    TagArray t(one_set("lru", 2));
    t.fill(line(0), 0b1111, 1);
    t.mark_dirty(line(0), 0b1001);
    t.invalidate(line(0), 0b0001);
    CHECK(t.lookup(line(0)) == 0b1110);
    t.fill(line(1), 0b1111, 2);
    // line 0 (least recently used) is evicted with what is left of it.
    std::optional<Eviction> e = t.fill(line(2), 0b0001, 3);
    REQUIRE(e.has_value());
    CHECK(e->line_addr == line(0));
    CHECK(e->valid_sectors == 0b1110);
    CHECK(e->dirty_sectors == 0b1000);
    CHECK(e->owner == 1);

    t.invalidate(line(1), 0b1111);
    CHECK(t.lookup(line(1)) == 0);
    CHECK_FALSE(t.fill(line(3), 0b0001).has_value());  // the freed way takes it: no eviction
    CHECK(t.lookup(line(2)) == 0b0001);
    CHECK(t.lookup(line(3)) == 0b0001);
    t.invalidate(line(9), 0b1111);  // absent: no effect
    CHECK(t.lookup(line(2)) == 0b0001);
}

TEST_CASE("tag array: an eviction reports the line address, valid and dirty sectors and owner", "[tag_array]") {
    TagArray t(one_set("fifo", 2));
    t.fill(line(0) + 100, 0b0100, 7);
    t.mark_dirty(line(0) + 64, 0b0100);
    t.fill(line(1), 0b1111, 8);
    std::optional<Eviction> e = t.fill(line(2), 0b0001, 9);
    REQUIRE(e.has_value());
    CHECK(e->line_addr == line(0));  // the line, not the address it was filled with
    CHECK(e->valid_sectors == 0b0100);
    CHECK(e->dirty_sectors == 0b0100);
    CHECK(e->owner == 7);
    e = t.fill(line(3), 0b0001, 9);
    REQUIRE(e.has_value());
    CHECK(e->line_addr == line(1));
    CHECK(e->dirty_sectors == 0);
    CHECK(e->owner == 8);
}

TEST_CASE("tag array: every invalid way is filled before the policy chooses a victim", "[tag_array]") {
    for (const std::string& policy : common::replacement_policies().names()) {
        INFO(policy);
        TagArray t(one_set(policy));
        for (uint64_t i = 0; i < 4; ++i) CHECK(fill(t, i) == -1);
        t.lookup(line(A));
        t.lookup(line(C));
        t.lookup(line(D));
        t.invalidate(line(C), 0xF);  // a way that no policy would pick as its victim
        CHECK(fill(t, E) == -1);
        CHECK(t.lookup(line(A), false) == 0xF);
        CHECK(t.lookup(line(B), false) == 0xF);
        CHECK(t.lookup(line(C), false) == 0);
        CHECK(t.lookup(line(D), false) == 0xF);
        CHECK(t.lookup(line(E), false) == 0xF);
        CHECK(fill(t, 5) != -1);  // now full
    }
}

TEST_CASE("tag array: hashed_sets spreads a stride that the plain set index maps to one set", "[tag_array]") {
    // 64 sets of 4 ways: lines 64 x 128 bytes apart share set 0 under the plain index.
    TagArrayGeometry g = one_set("lru");
    g.size_bytes = 64 * 4 * kLine;
    const uint64_t stride = 64 * kLine;
    auto evictions = [&](bool hashed) {
        g.hashed_sets = hashed;
        TagArray t(g);
        int n = 0;
        for (uint64_t i = 0; i < 16; ++i) n += t.fill(i * stride, 0xF).has_value();
        int resident = 0;
        for (uint64_t i = 0; i < 16; ++i) resident += t.lookup(i * stride) != 0;
        CHECK(resident == 16 - n);
        return n;
    };
    CHECK(evictions(false) == 12);  // one set of 4 ways holds 4 of the 16 lines
    CHECK(evictions(true) == 0);
}

TEST_CASE("tag array: a lookup without touch leaves the LRU order, a re-fill counts as a use", "[tag_array]") {
    TagArray t(one_set("lru"));
    for (uint64_t i = 0; i < 4; ++i) fill(t, i);
    CHECK(t.lookup(line(A), false) == 0xF);
    CHECK(fill(t, E) == A);
    CHECK_FALSE(t.fill(line(B), 0x1).has_value());  // B is used again
    CHECK(fill(t, 5) == C);
}

TEST_CASE("replacement lru: after fills A-D and a hit on A, E-H evict B C D A", "[replacement]") {
    CHECK(victims_after_hit_on_first("lru") == std::vector<int64_t>{B, C, D, A});
}

TEST_CASE("replacement fifo: fill order decides, the hit on A does not save it", "[replacement]") {
    CHECK(victims_after_hit_on_first("fifo") == std::vector<int64_t>{A, B, C, D});
}

TEST_CASE("replacement plru: the 4-way tree evicts C B D A after the hit on A", "[replacement]") {
    // Bits (root, left pair, right pair), 0 = victim on the left; a use points them away.
    // Fills A0 B1 C2 D3 leave (0, 0, 0); the hit on A: (1, 1, 0) -> victim C (way 2).
    // E in way 2: (0, 1, 1) -> B (way 1). F in way 1: (1, 0, 1) -> D (way 3).
    // G in way 3: (0, 0, 0) -> A (way 0). LRU would evict B first.
    CHECK(victims_after_hit_on_first("plru") == std::vector<int64_t>{C, B, D, A});
}

TEST_CASE("replacement plru: with three ways the missing fourth leaf is never chosen", "[replacement]") {
    TagArray t(one_set("plru", 3));
    for (uint64_t i = 0; i < 3; ++i) REQUIRE(fill(t, i) == -1);
    std::vector<uint64_t> resident = {0, 1, 2};
    for (uint64_t i = 3; i < 40; ++i) {
        t.lookup(line(resident[i % 3]));  // vary the use pattern
        const int64_t v = fill(t, i);
        INFO("fill " << i);
        REQUIRE(v >= 0);
        auto it = std::find(resident.begin(), resident.end(), static_cast<uint64_t>(v));
        REQUIRE(it != resident.end());  // the victim was a resident line of a real way
        *it = i;
        for (uint64_t r : resident) CHECK(t.lookup(line(r), false) == 0xF);
    }
}

TEST_CASE("replacement srrip: fills are predicted distant, the hit line A outlives E-G", "[replacement]") {
    // rrpv_bits = 2: fills get 2, the hit sets A to 0. E: nothing at 3, everyone ages
    // (A 1, B C D 3) -> B. F -> C, G -> D. H: E F G at 2, A at 1 -> age to (A 2, 3 3 3) -> E.
    CHECK(victims_after_hit_on_first("srrip") == std::vector<int64_t>{B, C, D, E});
    CHECK(victims_after_hit_on_first(srrip(2)) == std::vector<int64_t>{B, C, D, E});
}

TEST_CASE("replacement srrip: a re-used line survives a scan that LRU evicts it in", "[replacement]") {
    auto survives_scan = [](const sim::PolicySpec& policy, uint64_t scan) {
        TagArray t(one_set(policy));
        const uint64_t hot = 100;
        t.fill(line(hot), 0xF);
        t.lookup(line(hot));  // re-used once
        for (uint64_t i = 0; i < scan; ++i) t.fill(line(i), 0xF);  // lines used once each
        return t.lookup(line(hot), false) != 0;
    };
    CHECK_FALSE(survives_scan("lru", 6));
    CHECK(survives_scan(srrip(2), 6));
    // With 2-bit RRPVs the hot line ages once per three scan lines and leaves at the 10th;
    // with 3 bits it lasts until the 22nd.
    CHECK(survives_scan(srrip(2), 9));
    CHECK_FALSE(survives_scan(srrip(2), 10));
    CHECK(survives_scan(srrip(3), 12));
    CHECK(survives_scan(srrip(3), 21));
    CHECK_FALSE(survives_scan(srrip(3), 22));
}

TEST_CASE("replacement srrip: rrpv_bits outside 1..8 is a config error naming the key", "[replacement]") {
    for (uint32_t bits : {0u, 9u}) {
        INFO("rrpv_bits = " << bits);
        try {
            srrip(bits);
            FAIL("accepted");
        } catch (const sim::ConfigError& e) {
            CHECK(std::string(e.what()).find("rrpv_bits") != std::string::npos);
        }
    }
}

TEST_CASE("replacement: each policy keeps its state per set", "[replacement]") {
    for (const std::string& policy : common::replacement_policies().names()) {
        INFO(policy);
        const std::vector<int64_t> alone = victims_after_hit_on_first(policy);
        // Two sets; line(i) with i even is in set 0, i odd in set 1 (lines alternate sets).
        TagArrayGeometry g = one_set(policy);
        g.size_bytes *= 2;
        TagArray t(g);
        auto set0 = [](uint64_t i) { return line(0) + 2 * i * kLine; };
        auto set1 = [](uint64_t i) { return line(0) + (2 * i + 1) * kLine; };
        for (uint64_t i = 0; i < 4; ++i) t.fill(set0(i), 0xF);
        t.lookup(set0(A));
        for (uint64_t i = 0; i < 12; ++i) {  // busy traffic in set 1
            t.fill(set1(i), 0xF);
            t.lookup(set1(i / 2));
        }
        std::optional<Eviction> e = t.fill(set0(E), 0xF);
        REQUIRE(e.has_value());
        CHECK(static_cast<int64_t>((e->line_addr - set0(0)) / (2 * kLine)) == alone[0]);
    }
}
