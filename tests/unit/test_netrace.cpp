// SPDX-License-Identifier: Apache-2.0
// Netrace input: headers and records of the project's and the third-party traces, type table, replay, errors.
#include <catch2/catch.hpp>

#include <bzlib.h>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <queue>
#include <set>
#include <unistd.h>

#include "noc/netrace_dependencies.h"
#include "noc/netrace_reader.h"
#include "sim/error.h"
#include "tests/test_data.h"

using namespace stacksim;
using namespace stacksim::noc;
namespace fs = std::filesystem;

namespace {

/// A trace of tests/data/netrace (written by noc/netrace_writer, scripts/make_test_data.sh).
std::string owned(const std::string& file) { return test::data_path("netrace/" + file); }
/// A third-party trace of ../shared/traces/netrace; the test reports itself skipped without it.
std::string third_party(const std::string& file) { return test::third_party_trace("netrace/" + file); }

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void spit(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string bz_decompress(const std::string& in) {
    std::string out(1 << 16, '\0');
    unsigned int len = static_cast<unsigned int>(out.size());
    REQUIRE(BZ2_bzBuffToBuffDecompress(out.data(), &len, const_cast<char*>(in.data()),
                                       static_cast<unsigned int>(in.size()), 0, 0) == BZ_OK);
    out.resize(len);
    return out;
}

std::string bz_compress(const std::string& in) {
    std::string out(in.size() + in.size() / 100 + 1024, '\0');
    unsigned int len = static_cast<unsigned int>(out.size());
    REQUIRE(BZ2_bzBuffToBuffCompress(out.data(), &len, const_cast<char*>(in.data()),
                                     static_cast<unsigned int>(in.size()), 9, 0, 0) == BZ_OK);
    out.resize(len);
    return out;
}

/// A scratch directory removed at scope exit.
struct TempDir {
    fs::path path = fs::temp_directory_path() / ("stacksim_netrace_" + std::to_string(::getpid()));
    TempDir() { fs::create_directories(path); }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string file(const std::string& name) const { return (path / name).string(); }
};

/// Opens `path` (reading all records) and returns the InputError message; fails if none.
std::string input_error(const std::string& path) {
    try {
        NetraceReader r(path);
        NetracePacket p;
        while (r.next(p)) {
        }
    } catch (const sim::InputError& e) {
        return e.what();
    }
    FAIL("no InputError for " << path);
    return {};
}

void check_one_line(const std::string& msg, const std::string& path) {
    INFO(msg);
    CHECK(msg.rfind(path + ": ", 0) == 0);
    CHECK(msg.find('\n') == std::string::npos);
}

struct Expect {
    const char* file;
    const char* name;
    uint64_t cycles;
    uint64_t packets;
    uint32_t regions;
};

const Expect kTraces[] = {
    {"example.tra.bz2", "read-resp-delay-test", 6820, 175, 1},
    {"shrtex.tra.bz2", "short example trace", 221, 12, 1},
    {"multiregion.tra.bz2", "multiregion-test", 324247, 22968, 5},
    {"lngrex.tra.bz2", "blackscholes-short-test", 2325306, 81749, 1},
};

struct ReplayResult {
    size_t delivered = 0;
    size_t delayed = 0;   ///< Packets injected later than their trace cycle.
    size_t violations = 0;
};

/// Replays a trace through a network with a fixed latency: inject at max(trace cycle, ready),
/// eject `latency` cycles later. Checks every injection against the packets it depends on.
ReplayResult replay(const std::string& path, uint64_t latency, DependencyTracker& deps) {
    NetraceReader reader(path);
    std::vector<NetracePacket> trace;
    for (NetracePacket p; reader.next(p);) trace.push_back(p);
    std::map<uint32_t, std::vector<uint32_t>> parents;
    std::map<uint32_t, const NetracePacket*> by_id;
    for (const auto& p : trace) {
        by_id[p.id] = &p;
        for (uint32_t d : p.dependents) parents[d].push_back(p.id);
    }
    ReplayResult res;
    std::set<uint32_t> ejected_ids;
    using Event = std::pair<uint64_t, uint32_t>;
    std::priority_queue<Event, std::vector<Event>, std::greater<>> in_net;
    uint64_t now = 0;
    std::function<void(uint32_t)> eject;
    auto inject = [&](uint32_t id) {
        for (uint32_t parent : parents[id]) res.violations += ejected_ids.count(parent) == 0;
        if (now > by_id.at(id)->cycle) ++res.delayed;
        if (latency == 0) eject(id);
        else in_net.push({now + latency, id});
    };
    eject = [&](uint32_t id) {
        ejected_ids.insert(id);
        ++res.delivered;
        for (uint32_t next : deps.ejected(id)) inject(next);
    };
    size_t idx = 0;
    while (idx < trace.size() || !in_net.empty()) {
        now = in_net.empty() ? trace[idx].cycle
              : idx < trace.size() ? std::min(trace[idx].cycle, in_net.top().first)
                                   : in_net.top().first;
        while (!in_net.empty() && in_net.top().first <= now) {
            const uint32_t id = in_net.top().second;
            in_net.pop();
            eject(id);
        }
        for (; idx < trace.size() && trace[idx].cycle <= now; ++idx) {
            deps.add(trace[idx]);
            if (deps.ready(trace[idx].id)) inject(trace[idx].id);
        }
    }
    return res;
}

}  // namespace

TEST_CASE("netrace: headers of the third-party traces (../shared)") {
    for (const Expect& e : kTraces) {
        INFO(e.file);
        NetraceReader r(third_party(e.file));
        const NetraceHeader& h = r.header();
        CHECK(h.magic == kNetraceMagic);
        CHECK(h.version == 1.0f);
        CHECK(h.benchmark_name == e.name);
        CHECK(h.num_nodes == 64);
        CHECK(h.num_cycles == e.cycles);
        CHECK(h.num_packets == e.packets);
        CHECK(h.num_regions == e.regions);
        REQUIRE(h.regions.size() == e.regions);
        CHECK(h.notes_length == h.notes.size() + 1);
        CHECK(r.offset() == h.size_bytes());
        uint64_t packets = 0, cycles = 0;
        for (const NetraceRegion& g : h.regions) {
            packets += g.num_packets;
            cycles += g.num_cycles;
        }
        CHECK(packets == h.num_packets);
        CHECK(cycles == h.num_cycles);
    }
    CHECK(NetraceReader(third_party("example.tra.bz2")).header().notes == "some more testing...");
}

namespace {

/// Reads every record of `path`: valid fields, cycle order, unique ids, the header's counts,
/// and each region's seek offset at the record boundary where its packets begin.
void check_records(const std::string& path) {
    INFO(path);
    NetraceReader r(path);
    const NetraceHeader& h = r.header();
    size_t region = 0;
    uint64_t region_start = 0, bad = 0, last_cycle = 0, unordered = 0;
    std::set<uint32_t> ids;
    NetracePacket p;
    while (true) {
        while (region < h.regions.size() && r.packets_read() == region_start) {
            CHECK(r.offset() == h.size_bytes() + h.regions[region].seek_offset);
            region_start += h.regions[region++].num_packets;
        }
        if (!r.next(p)) break;
        bad += !netrace_type_valid(p.type) || p.src >= h.num_nodes || p.dst >= h.num_nodes || p.src_type > 3 ||
               p.dst_type > 3;
        unordered += p.cycle < last_cycle;
        last_cycle = p.cycle;
        ids.insert(p.id);
    }
    CHECK(r.packets_read() == h.num_packets);
    CHECK(ids.size() == h.num_packets);
    CHECK(bad == 0);
    CHECK(unordered == 0);
    CHECK(last_cycle <= h.num_cycles);
    CHECK(!r.next(p));
}

}  // namespace

TEST_CASE("netrace: every record of the project's traces reads and matches the header counts") {
    check_records(owned("small.tra.bz2"));
    check_records(owned("regions.tra.bz2"));
    CHECK(NetraceReader(owned("regions.tra.bz2")).header().num_regions == 3);
}

TEST_CASE("netrace: every record of the third-party traces (../shared) reads and matches the header counts") {
    for (const Expect& e : kTraces) check_records(third_party(e.file));
}

TEST_CASE("netrace: packet type table and sizes") {
    CHECK(netrace_packet_bytes(1) == 8);    // ReadReq
    CHECK(netrace_packet_bytes(2) == 72);   // ReadResp
    CHECK(netrace_packet_bytes(3) == 72);   // ReadRespWithInvalidate
    CHECK(netrace_packet_bytes(4) == 72);   // WriteReq
    CHECK(netrace_packet_bytes(5) == 8);    // WriteResp
    CHECK(netrace_packet_bytes(6) == 72);   // Writeback
    CHECK(netrace_packet_bytes(13) == 8);   // UpgradeReq
    CHECK(netrace_packet_bytes(14) == 8);   // UpgradeResp
    CHECK(netrace_packet_bytes(15) == 8);   // ReadExReq
    CHECK(netrace_packet_bytes(16) == 72);  // ReadExResp
    CHECK(netrace_packet_bytes(25) == 8);   // BadAddressError
    CHECK(netrace_packet_bytes(27) == 8);   // InvalidateReq
    CHECK(netrace_packet_bytes(28) == 8);   // InvalidateResp
    CHECK(netrace_packet_bytes(29) == 8);   // DowngradeReq
    CHECK(netrace_packet_bytes(30) == 72);  // DowngradeResp
    for (uint8_t t : {0, 7, 12, 17, 24, 26, 31, 255}) CHECK(netrace_packet_bytes(t) == 0);
    CHECK(std::string(netrace_type_name(2)) == "ReadResp");
    CHECK(std::string(netrace_type_name(29)) == "DowngradeReq");
    CHECK(std::string(netrace_type_name(200)) == "InvalidCmd");
    CHECK(std::string(netrace_node_type_name(3)) == "Memory Controller");
}

TEST_CASE("netrace: packet classes and the first record of the third-party traces (../shared)") {
    // In example.tra.bz2 every packet has a valid type; count bytes by class.
    NetraceReader r(third_party("example.tra.bz2"));
    std::map<uint32_t, int> by_size;
    for (NetracePacket p; r.next(p);) ++by_size[netrace_packet_bytes(p.type)];
    CHECK(by_size.size() == 2);
    CHECK(by_size[8] == 134);
    CHECK(by_size[72] == 41);
    NetraceReader s(third_party("shrtex.tra.bz2"));
    NetracePacket first;
    REQUIRE(s.next(first));
    // UpgradeReq from an L1 data cache at node 4 to the L2 bank at node 42.
    CHECK(first.cycle == 0);
    CHECK(first.id == 0);
    CHECK(first.address == 0x1d02abc0);
    CHECK(std::string(netrace_type_name(first.type)) == "UpgradeReq");
    CHECK(first.src == 4);
    CHECK(first.dst == 42);
    CHECK(first.src_type == 0);
    CHECK(first.dst_type == 2);
    CHECK(first.dependents == std::vector<uint32_t>{1, 3});
}

TEST_CASE("netrace: zero-latency replay respects dependencies") {
    DependencyTracker deps;
    const ReplayResult res = replay(owned("small.tra.bz2"), 0, deps);
    CHECK(res.delivered == NetraceReader(owned("small.tra.bz2")).header().num_packets);
    CHECK(res.violations == 0);
    CHECK(res.delayed == 0);  // with zero latency every dependency is met by its trace cycle
    CHECK(deps.in_flight() == 0);
    CHECK(deps.pending_entries() == 0);
}

TEST_CASE("netrace: slow-network replay delays dependents but delivers all") {
    for (const char* file : {"small.tra.bz2", "regions.tra.bz2"}) {
        INFO(file);
        DependencyTracker deps;
        const ReplayResult res = replay(owned(file), 500, deps);
        CHECK(res.delivered == NetraceReader(owned(file)).header().num_packets);
        CHECK(res.violations == 0);
        CHECK(res.delayed > 0);
        CHECK(deps.in_flight() == 0);
        CHECK(deps.pending_entries() == 0);
    }
}

TEST_CASE("netrace: dependency tracker rules") {
    DependencyTracker deps;
    NetracePacket a;
    a.id = 1;
    a.dependents = {2, 3, 99};  // 99 never appears in the trace
    NetracePacket b;
    b.id = 2;
    NetracePacket c;
    c.id = 3;
    c.dependents = {2};
    deps.add(a);
    CHECK(deps.in_flight() == 1);
    deps.add(b);
    deps.add(c);
    CHECK(deps.ready(1));
    CHECK(!deps.ready(2));
    CHECK(deps.pending(2) == 2);
    CHECK(!deps.ready(3));
    CHECK(deps.ready(50));  // never listed as a dependent: nothing to wait for
    CHECK(deps.pending_entries() == 3);
    CHECK(deps.ejected(1) == std::vector<uint32_t>{3});  // 2 still waits for 3; 99 is unread
    CHECK(!deps.ready(2));
    CHECK(deps.ejected(3) == std::vector<uint32_t>{2});
    CHECK(deps.ready(2));
    CHECK(deps.ejected(2).empty());
    CHECK(deps.in_flight() == 0);
    CHECK(deps.pending_entries() == 0);  // 99's counter closed when packet 1 was ejected
    NetracePacket late;  // a dependent read after its parent's ejection is ready at once
    late.id = 99;
    deps.add(late);
    CHECK(deps.ready(99));
    NetracePacket orphan;  // a parent never ejected leaves its unread dependent waiting
    orphan.id = 7;
    orphan.dependents = {8};
    deps.add(orphan);
    CHECK(!deps.ready(8));
    CHECK(deps.pending_entries() == 1);
    CHECK_THROWS_AS(deps.add(late), sim::SimulationError);
    CHECK_THROWS_AS(deps.ejected(12345), sim::SimulationError);
}

TEST_CASE("netrace: error cases give one-line input errors") {
    TempDir tmp;
    const std::string missing = tmp.file("missing.tra.bz2");
    std::string msg = input_error(missing);
    check_one_line(msg, missing);
    CHECK(msg.find("cannot open") != std::string::npos);

    const std::string text = tmp.file("text.tra.bz2");
    spit(text, "this is not a bzip2 file\n");
    msg = input_error(text);
    check_one_line(msg, text);
    CHECK(msg.find("not a bzip2 file") != std::string::npos);

    const std::string original = slurp(owned("small.tra.bz2"));
    const std::string cut = tmp.file("cut.tra.bz2");
    spit(cut, original.substr(0, original.size() / 2));
    msg = input_error(cut);
    check_one_line(msg, cut);
    CHECK(msg.find("truncated") != std::string::npos);

    const std::string raw = bz_decompress(original);
    REQUIRE(raw.size() > 1000);
    const std::string short_record = tmp.file("short_record.tra.bz2");
    spit(short_record, bz_compress(raw.substr(0, raw.size() - 10)));
    msg = input_error(short_record);
    check_one_line(msg, short_record);
    CHECK(msg.find("truncated") != std::string::npos);
    CHECK(msg.find("byte offset") != std::string::npos);

    const std::string short_header = tmp.file("short_header.tra.bz2");
    spit(short_header, bz_compress(raw.substr(0, 40)));
    msg = input_error(short_header);
    check_one_line(msg, short_header);
    CHECK(msg.find("truncated header at byte offset 0") != std::string::npos);

    std::string bad = raw;
    bad[0] = 'X';
    const std::string magic = tmp.file("magic.tra.bz2");
    spit(magic, bz_compress(bad));
    msg = input_error(magic);
    check_one_line(msg, magic);
    CHECK(msg.find("bad magic") != std::string::npos);

    bad = raw;
    const float v2 = 2.0f;
    std::memcpy(&bad[4], &v2, sizeof v2);
    const std::string version = tmp.file("version.tra.bz2");
    spit(version, bz_compress(bad));
    msg = input_error(version);
    check_one_line(msg, version);
    CHECK(msg.find("unsupported Netrace version") != std::string::npos);
}

TEST_CASE("netrace: concatenated bzip2 streams read as one trace") {
    // pbzip2 (netrace's preferred compressor) writes several streams back to back.
    TempDir tmp;
    const std::string raw = bz_decompress(slurp(owned("small.tra.bz2")));
    const std::string multi = tmp.file("multi.tra.bz2");
    spit(multi, bz_compress(raw.substr(0, 1000)) + bz_compress(raw.substr(1000)));
    NetraceReader a(owned("small.tra.bz2"));
    NetraceReader b(multi);
    NetracePacket pa, pb;
    size_t same = 0;
    while (a.next(pa)) {
        REQUIRE(b.next(pb));
        same += pa.id == pb.id && pa.cycle == pb.cycle && pa.dependents == pb.dependents;
    }
    CHECK(!b.next(pb));
    CHECK(same == a.header().num_packets);
}
