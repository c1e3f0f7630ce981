// SPDX-License-Identifier: Apache-2.0
// Writer of Netrace (.tra.bz2) network traces: the format NetraceReader reads.
#include "noc/netrace_writer.h"

#include <bzlib.h>

#include <cstring>
#include <stdexcept>

#include "sim/atomic_file.h"
#include "sim/error.h"

namespace stacksim::noc {

namespace {

void put(std::string& out, uint64_t v, unsigned bytes) {
    for (unsigned i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

[[noreturn]] void bad(const NetraceTrace& t, const std::string& what) {
    throw sim::InputError("netrace writer (" + t.benchmark_name + "): " + what);
}

}  // namespace

std::string netrace_bytes(const NetraceTrace& t) {
    if (t.benchmark_name.size() > 29) bad(t, "benchmark name longer than 29 characters");
    uint64_t region_sum = 0;
    for (uint64_t c : t.region_cycles) region_sum += c;
    if (!t.region_cycles.empty() && region_sum != t.num_cycles)
        bad(t, "region cycles sum to " + std::to_string(region_sum) + ", not num_cycles " + std::to_string(t.num_cycles));
    std::string records;
    std::vector<uint64_t> region_offset(t.region_cycles.size(), 0), region_packets(t.region_cycles.size(), 0);
    size_t region = 0;
    uint64_t region_end = t.region_cycles.empty() ? 0 : t.region_cycles[0];
    uint64_t last = 0;
    for (size_t i = 0; i < t.packets.size(); ++i) {
        const NetracePacket& p = t.packets[i];
        const std::string at = "packet " + std::to_string(i) + ": ";
        if (!netrace_type_valid(p.type)) bad(t, at + "invalid packet type " + std::to_string(p.type));
        if (p.src >= t.num_nodes || p.dst >= t.num_nodes) bad(t, at + "node outside num_nodes");
        if (p.src_type > 3 || p.dst_type > 3) bad(t, at + "node type above 3");
        if (p.cycle < last || p.cycle > t.num_cycles) bad(t, at + "cycle out of order or past num_cycles");
        if (p.dependents.size() > 255) bad(t, at + "more than 255 dependents");
        last = p.cycle;
        if (!t.region_cycles.empty()) {
            while (p.cycle >= region_end && region + 1 < t.region_cycles.size()) {
                region_end += t.region_cycles[++region];
                region_offset[region] = records.size();
            }
            ++region_packets[region];
        }
        put(records, p.cycle, 8);
        put(records, p.id, 4);
        put(records, p.address, 4);
        put(records, p.type, 1);
        put(records, p.src, 1);
        put(records, p.dst, 1);
        put(records, static_cast<uint8_t>(p.src_type << 4 | p.dst_type), 1);
        put(records, p.dependents.size(), 1);
        for (uint32_t d : p.dependents) put(records, d, 4);
    }
    // Regions after the last packet start at the end of the records.
    for (size_t r = region + 1; r < region_offset.size(); ++r) region_offset[r] = records.size();
    std::string out;
    put(out, kNetraceMagic, 4);
    const float version = 1.0f;
    uint32_t version_bits = 0;
    std::memcpy(&version_bits, &version, sizeof version_bits);
    put(out, version_bits, 4);
    std::string name = t.benchmark_name;
    name.resize(30, '\0');
    out += name;
    put(out, t.num_nodes, 1);
    put(out, 0, 1);  // padding
    put(out, t.num_cycles, 8);
    put(out, t.packets.size(), 8);
    const uint32_t notes_length = t.notes.empty() ? 0 : static_cast<uint32_t>(t.notes.size() + 1);
    put(out, notes_length, 4);
    put(out, t.region_cycles.size(), 4);
    put(out, 0, 8);  // padding
    if (notes_length) out.append(t.notes.c_str(), notes_length);
    for (size_t r = 0; r < t.region_cycles.size(); ++r) {
        put(out, region_offset[r], 8);
        put(out, t.region_cycles[r], 8);
        put(out, region_packets[r], 8);
    }
    return out + records;
}

void write_netrace(const std::string& path, const NetraceTrace& trace) {
    std::string raw = netrace_bytes(trace);
    // bzip2's bound: the input plus 1% plus 600 bytes.
    std::string packed(raw.size() + raw.size() / 100 + 601, '\0');
    unsigned int len = static_cast<unsigned int>(packed.size());
    const int rc = BZ2_bzBuffToBuffCompress(packed.data(), &len, raw.data(), static_cast<unsigned int>(raw.size()), 9,
                                            0, 0);
    if (rc != BZ_OK) throw sim::InputError(path + ": bzip2 compression failed (libbz2 error " + std::to_string(rc) + ")");
    packed.resize(len);
    try {
        sim::write_file_atomically(path, packed);
    } catch (const std::runtime_error& e) {
        throw sim::InputError(e.what());
    }
}

}  // namespace stacksim::noc
