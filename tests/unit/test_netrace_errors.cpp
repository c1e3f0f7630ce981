// SPDX-License-Identifier: Apache-2.0
// Netrace input that is well-formed bzip2 but wrong inside: one-line input errors naming the file.
#include <catch2/catch.hpp>

#include <bzlib.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "noc/netrace_reader.h"
#include "noc/netrace_replay.h"
#include "sim/error.h"

using namespace stacksim;
using namespace stacksim::noc;
namespace fs = std::filesystem;

namespace {

struct Record {
    Record(uint64_t c, uint32_t i, uint8_t t = 1, uint8_t s = 0, uint8_t d = 1, std::vector<uint32_t> deps = {})
        : cycle(c), id(i), type(t), src(s), dst(d), dependents(std::move(deps)) {}
    uint64_t cycle;
    uint32_t id;
    uint8_t type;  ///< 1: ReadReq
    uint8_t src, dst;
    std::vector<uint32_t> dependents;
};

template <typename T> void put(std::string& s, T v) { s.append(reinterpret_cast<const char*>(&v), sizeof v); }

/// A decompressed trace of `records` whose header counts `header_packets` packets and
/// `header_cycles` cycles on 16 nodes.
std::string trace(const std::vector<Record>& records, uint64_t header_packets, uint64_t header_cycles = 1000) {
    std::string s;
    put<uint32_t>(s, kNetraceMagic);
    put<float>(s, 1.0f);
    s.append(30, '\0');
    s += char(16);  // nodes
    s += '\0';
    put<uint64_t>(s, header_cycles);
    put<uint64_t>(s, header_packets);
    put<uint32_t>(s, 0);  // notes
    put<uint32_t>(s, 0);  // regions
    s.append(8, '\0');
    REQUIRE(s.size() == kNetraceHeaderBytes);
    for (const Record& r : records) {
        put<uint64_t>(s, r.cycle);
        put<uint32_t>(s, r.id);
        put<uint32_t>(s, 0x1000);
        s += char(r.type);
        s += char(r.src);
        s += char(r.dst);
        s += char(0x00);  // both L1 data caches
        s += char(r.dependents.size());
        for (uint32_t d : r.dependents) put<uint32_t>(s, d);
    }
    return s;
}

/// Writes `raw` bzip2-compressed to a file of this test and returns its path.
std::string write_trace(const std::string& name, const std::string& raw) {
    const fs::path dir = fs::temp_directory_path() / ("stacksim_netrace_errors_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::string out(raw.size() + raw.size() / 100 + 1024, '\0');
    unsigned len = static_cast<unsigned>(out.size());
    REQUIRE(BZ2_bzBuffToBuffCompress(out.data(), &len, const_cast<char*>(raw.data()), static_cast<unsigned>(raw.size()),
                                     9, 0, 0) == BZ_OK);
    const std::string path = (dir / name).string();
    std::ofstream(path, std::ios::binary).write(out.data(), len);
    return path;
}

/// The InputError of replaying `path` on an 8x8 mesh; fails the test if there is none.
std::string replay_error(const std::string& path) {
    try {
        NetworkConfig net;
        replay_netrace(path, net, 16, 100000);
    } catch (const sim::InputError& e) {
        return e.what();
    }
    FAIL("no InputError for " << path);
    return {};
}

void check_names_file(const std::string& msg, const std::string& path, const std::string& what) {
    INFO(msg);
    CHECK(msg.rfind(path + ": ", 0) == 0);
    CHECK(msg.find('\n') == std::string::npos);
    CHECK(msg.find(what) != std::string::npos);
}

}  // namespace

TEST_CASE("netrace errors: a header counting more packets than the file holds", "[netrace]") {
    const std::string p = write_trace("count.tra.bz2", trace({{10, 1}, {20, 2}}, 3));
    check_names_file(replay_error(p), p, "header counts 3 packets but the file ends after 2");
}

TEST_CASE("netrace errors: a file cut at a record boundary", "[netrace]") {
    const std::string whole = trace({{10, 1}, {20, 2}, {30, 3}}, 3);
    const std::string p = write_trace("cut.tra.bz2", whole.substr(0, kNetraceHeaderBytes + 2 * kNetraceRecordBytes));
    check_names_file(replay_error(p), p, "ends after 2");
}

TEST_CASE("netrace errors: a record past the header's cycles, or out of cycle order", "[netrace]") {
    const std::string late = write_trace("late.tra.bz2", trace({{10, 1}, {~uint64_t{0}, 2}}, 2));
    check_names_file(replay_error(late), late, "cycle 18446744073709551615 is past the trace's 1000 cycles");
    const std::string order = write_trace("order.tra.bz2", trace({{20, 1}, {10, 2}}, 2));
    check_names_file(replay_error(order), order, "comes before the previous record's 20");
}

TEST_CASE("netrace errors: a trace longer than the replay's cycle limit", "[netrace]") {
    const std::string p = write_trace("long.tra.bz2", trace({{10, 1}, {500000, 2}}, 2, 1000000));
    check_names_file(replay_error(p), p, "past the replay's limit of 100000 cycles");
}

TEST_CASE("netrace errors: packets that can never be released by their dependencies", "[netrace]") {
    // Packet 1 depends on itself; packets 2 and 3 on each other (2 is held by 3's record, 3 by 2's).
    const std::string self = write_trace("self.tra.bz2", trace({{10, 1, 1, 0, 1, {1}}}, 1));
    check_names_file(replay_error(self), self, "can never be delivered");
    const std::string cycle = write_trace(
        "cycle.tra.bz2", trace({{10, 5, 1, 0, 1, {2}}, {10, 2, 1, 0, 1, {3}}, {10, 3, 1, 0, 1, {2}}}, 3));
    check_names_file(replay_error(cycle), cycle, "can never be delivered");
}

TEST_CASE("netrace errors: invalid packet type and node outside the trace", "[netrace]") {
    const std::string type0 = write_trace("type0.tra.bz2", trace({{10, 1, 0}}, 1));
    check_names_file(replay_error(type0), type0, "invalid packet type 0");
    const std::string node = write_trace("node.tra.bz2", trace({{10, 1, 1, 0, 200}}, 1));
    check_names_file(replay_error(node), node, "node 200 is outside the trace's 16 nodes");
}

TEST_CASE("netrace errors: a packet id used twice while the first is in flight", "[netrace]") {
    // Found by fuzz_netrace: this was a SimulationError (exit 3) from the dependency tracker.
    const std::string p = write_trace("twice.tra.bz2", trace({{10, 7}, {10, 7}}, 2));
    check_names_file(replay_error(p), p, "packet record 1: packet id 7 is used again while that packet is still in flight");
    // Once delivered, an id may come again (as after a 32-bit wrap): still a complete replay.
    const std::string again = write_trace("again.tra.bz2", trace({{10, 7}, {90000, 7}}, 2, 100000));
    NetworkConfig net;
    ReplayResult r = replay_netrace(again, net, 16, 100000);
    CHECK(r.complete);
    CHECK(r.delivered == 2);
}

TEST_CASE("netrace errors: a well-formed small trace replays completely", "[netrace]") {
    // The checks above do not reject a valid trace: 2 depends on 1, 3 on nothing.
    const std::string p = write_trace("ok.tra.bz2", trace({{10, 1, 1, 0, 1, {2}}, {10, 2, 2, 1, 0}, {30, 3}}, 3));
    NetworkConfig net;
    ReplayResult r = replay_netrace(p, net, 16, 100000);
    CHECK(r.complete);
    CHECK(r.delivered == 3);
}
