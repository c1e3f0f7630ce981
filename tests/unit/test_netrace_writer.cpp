// SPDX-License-Identifier: Apache-2.0
// Netrace writer: what it writes reads back identically, region offsets included; bad traces are refused.
#include <catch2/catch.hpp>

#include <filesystem>
#include <unistd.h>

#include "noc/netrace_reader.h"
#include "noc/netrace_writer.h"
#include "sim/error.h"

using namespace stacksim;
using namespace stacksim::noc;
namespace fs = std::filesystem;

namespace {

NetracePacket packet(uint64_t cycle, uint32_t id, uint8_t type, uint8_t src, uint8_t dst, std::vector<uint32_t> deps) {
    NetracePacket p;
    p.cycle = cycle;
    p.id = id;
    p.address = 0x1000 + 64 * id;
    p.type = type;
    p.src = src;
    p.dst = dst;
    p.src_type = 0;
    p.dst_type = 2;
    p.dependents = std::move(deps);
    return p;
}

NetraceTrace sample() {
    NetraceTrace t;
    t.benchmark_name = "writer test";
    t.num_nodes = 16;
    t.num_cycles = 100;
    t.notes = "two regions";
    t.region_cycles = {40, 60};
    t.packets = {packet(0, 0, 1, 1, 5, {1}), packet(10, 1, 2, 5, 1, {}), packet(39, 2, 4, 2, 7, {3, 4}),
                 packet(40, 3, 5, 7, 2, {}), packet(70, 4, 16, 3, 9, {})};
    return t;
}

std::string temp_file(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("stacksim_netrace_writer_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    return (dir / name).string();
}

}  // namespace

TEST_CASE("netrace writer: a written trace reads back identically, regions at their records", "[netrace]") {
    const NetraceTrace t = sample();
    const std::string path = temp_file("sample.tra.bz2");
    write_netrace(path, t);
    NetraceReader r(path);
    const NetraceHeader& h = r.header();
    CHECK(h.magic == kNetraceMagic);
    CHECK(h.version == 1.0f);
    CHECK(h.benchmark_name == "writer test");
    CHECK(h.num_nodes == 16);
    CHECK(h.num_cycles == 100);
    CHECK(h.num_packets == 5);
    CHECK(h.notes == "two regions");
    CHECK(h.notes_length == 12);
    REQUIRE(h.regions.size() == 2);
    CHECK(h.regions[0].num_packets == 3);  // cycles 0..39
    CHECK(h.regions[1].num_packets == 2);  // cycles 40..99
    CHECK(h.regions[0].num_cycles == 40);
    CHECK(h.regions[0].seek_offset == 0);
    // Three records before the second region: 21 bytes each plus 4 per dependent (1 + 0 + 2).
    CHECK(h.regions[1].seek_offset == 3 * 21 + 4 * 3);
    for (size_t i = 0; i < t.packets.size(); ++i) {
        const NetracePacket& want = t.packets[i];
        if (i == 3) CHECK(r.offset() == h.size_bytes() + h.regions[1].seek_offset);
        NetracePacket got;
        REQUIRE(r.next(got));
        CHECK(got.cycle == want.cycle);
        CHECK(got.id == want.id);
        CHECK(got.address == want.address);
        CHECK(got.type == want.type);
        CHECK(got.src == want.src);
        CHECK(got.dst == want.dst);
        CHECK(got.src_type == want.src_type);
        CHECK(got.dst_type == want.dst_type);
        CHECK(got.dependents == want.dependents);
    }
    NetracePacket end;
    CHECK(!r.next(end));
    fs::remove_all(fs::path(path).parent_path());
}

TEST_CASE("netrace writer: traces the reader would reject are refused with the reason", "[netrace][errors]") {
    auto refused = [](NetraceTrace t, const std::string& words) {
        try {
            netrace_bytes(t);
            FAIL("no error for " << words);
        } catch (const sim::InputError& e) {
            CHECK(std::string(e.what()).find(words) != std::string::npos);
        }
    };
    NetraceTrace t = sample();
    t.packets[1].type = 7;
    refused(t, "invalid packet type 7");
    t = sample();
    t.packets[2].dst = 16;
    refused(t, "node outside num_nodes");
    t = sample();
    t.packets[3].cycle = 5;
    refused(t, "cycle out of order");
    t = sample();
    t.region_cycles = {40, 50};
    refused(t, "region cycles sum to 90");
    t = sample();
    t.benchmark_name = std::string(30, 'x');
    refused(t, "longer than 29");
}
