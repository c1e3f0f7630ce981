// SPDX-License-Identifier: Apache-2.0
// Writes the Netrace files of tests/data/netrace/ with the project's writer (noc/netrace_writer).
// Usage: stacksim_test_data DIR  (scripts/make_test_data.sh runs it; a test checks the files).
#include <algorithm>
#include <cstdio>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include "noc/netrace_writer.h"

using stacksim::noc::NetracePacket;
using stacksim::noc::NetraceTrace;

namespace {

/// Coherence-like traffic between 64 nodes: an L1D (node type 0) sends a read or write to an
/// L2 slice (type 2), which answers; one access in four misses and asks a memory controller
/// (type 3) first. Each packet of a transaction lists the next one as its dependent, so a slow
/// network delays the rest of the chain. Packets start before `cycles`; the last region's
/// length is what the others leave. mt19937 output is the same on every platform.
NetraceTrace coherence_traffic(const std::string& name, const std::string& notes, uint64_t cycles,
                               std::vector<uint64_t> regions, unsigned transactions, uint32_t seed) {
    std::mt19937 rng(seed);
    struct Pending {
        NetracePacket p;
        int next = -1;  // index of the dependent packet
    };
    std::vector<Pending> all;
    for (unsigned t = 0; t < transactions; ++t) {
        const uint64_t start = rng() % (cycles - 200);
        const uint8_t core = static_cast<uint8_t>(rng() % 64), l2 = static_cast<uint8_t>(rng() % 64);
        const uint8_t mc = static_cast<uint8_t>(rng() % 64);
        const bool write = rng() % 3 == 0, miss = rng() % 4 == 0;
        const uint32_t address = static_cast<uint32_t>(rng() & ~63u);
        auto add = [&](uint64_t cycle, uint8_t type, uint8_t src, uint8_t st, uint8_t dst, uint8_t dt) {
            NetracePacket p;
            p.cycle = cycle;
            p.address = address;
            p.type = type;
            p.src = src;
            p.dst = dst;
            p.src_type = st;
            p.dst_type = dt;
            if (!all.empty() && all.back().next == -2) all.back().next = static_cast<int>(all.size());
            all.push_back({p, -2});
        };
        uint64_t c = start;
        add(c, write ? 4 : 1, core, 0, l2, 2);  // WriteReq (72 B) or ReadReq (8 B)
        if (miss) {
            add(c += 12, 1, l2, 2, mc, 3);       // ReadReq to memory
            add(c += 60, 2, mc, 3, l2, 2);       // ReadResp from memory
        }
        add(c + 20, write ? 5 : 2, l2, 2, core, 0);  // WriteResp (8 B) or ReadResp (72 B)
        all.back().next = -1;
    }
    std::vector<size_t> order(all.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return all[a].p.cycle < all[b].p.cycle; });
    std::vector<uint32_t> id_of(all.size());
    for (size_t i = 0; i < order.size(); ++i) id_of[order[i]] = static_cast<uint32_t>(i);
    NetraceTrace trace;
    trace.benchmark_name = name;
    trace.notes = notes;
    // As in Netrace's own files, the trace ends with its last packet; the last region takes
    // the cycles the others leave.
    trace.num_cycles = all[order.back()].p.cycle + 1;
    if (!regions.empty()) {
        uint64_t before = 0;
        for (size_t r = 0; r + 1 < regions.size(); ++r) before += regions[r];
        regions.back() = trace.num_cycles - before;
    }
    trace.region_cycles = std::move(regions);
    for (size_t i : order) {
        NetracePacket p = all[i].p;
        p.id = id_of[i];
        if (all[i].next >= 0) p.dependents.push_back(id_of[static_cast<size_t>(all[i].next)]);
        trace.packets.push_back(p);
    }
    return trace;
}

}  // namespace

// Linked with SystemC (through the noc library), which wants an sc_main; this tool simulates nothing.
extern "C" int sc_main(int, char**) { return 0; }

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: stacksim_test_data DIR\n");
        return 2;
    }
    const std::string dir = argv[1];
    try {
        stacksim::noc::write_netrace(dir + "/small.tra.bz2",
                                     coherence_traffic("stacksim_small", "stacksim test data: 60 transactions",
                                                       2000, {}, 60, 1));
        stacksim::noc::write_netrace(dir + "/regions.tra.bz2",
                                     coherence_traffic("stacksim_regions", "stacksim test data: three regions",
                                                       30000, {5000, 15000, 0}, 1500, 2));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "stacksim_test_data: %s\n", e.what());
        return 1;
    }
    return 0;
}
