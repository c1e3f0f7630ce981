// SPDX-License-Identifier: Apache-2.0
// Netrace reader: libbz2 streaming decompression (multi-stream aware) and record decoding.
#include "noc/netrace_reader.h"

#include <algorithm>
#include <array>
#include <bzlib.h>
#include <cerrno>
#include <cstring>

#include "sim/error.h"

namespace stacksim::noc {

namespace {

/// Netrace's nt_packet_sizes table (netrace.c); -1 marks InvalidCmd.
constexpr std::array<int, kNetraceNumPacketTypes> kSizes = {
    -1, 8, 72, 72, 72, 8, 72, -1, -1, -1, -1, -1, -1, 8, 8, 8,
    72, -1, -1, -1, -1, -1, -1, -1, -1, 8, -1, 8, 8, 8, 72};

/// Netrace's nt_packet_types table (netrace.c).
constexpr std::array<const char*, kNetraceNumPacketTypes> kNames = {
    "InvalidCmd", "ReadReq", "ReadResp", "ReadRespWithInvalidate", "WriteReq", "WriteResp",
    "Writeback", "InvalidCmd", "InvalidCmd", "InvalidCmd", "InvalidCmd", "InvalidCmd",
    "InvalidCmd", "UpgradeReq", "UpgradeResp", "ReadExReq", "ReadExResp", "InvalidCmd",
    "InvalidCmd", "InvalidCmd", "InvalidCmd", "InvalidCmd", "InvalidCmd", "InvalidCmd",
    "InvalidCmd", "BadAddressError", "InvalidCmd", "InvalidateReq", "InvalidateResp",
    "DowngradeReq", "DowngradeResp"};

constexpr std::array<const char*, 5> kNodeNames = {
    "L1 Data Cache", "L1 Instruction Cache", "L2 Cache", "Memory Controller", "Invalid Node Type"};

/// Netrace refuses more regions than this ("lots of regions... is this correct?").
constexpr uint32_t kMaxRegions = 100;
/// Netrace only reads notes shorter than this.
constexpr uint32_t kMaxNotes = 8192;

uint32_t le32(const unsigned char* p) {
    return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

uint64_t le64(const unsigned char* p) { return uint64_t{le32(p)} | uint64_t{le32(p + 4)} << 32; }

}  // namespace

uint32_t netrace_packet_bytes(uint8_t type) {
    return netrace_type_valid(type) ? static_cast<uint32_t>(kSizes[type]) : 0;
}

const char* netrace_type_name(uint8_t type) {
    return type < kNetraceNumPacketTypes ? kNames[type] : kNames[0];
}

bool netrace_type_valid(uint8_t type) { return type < kNetraceNumPacketTypes && kSizes[type] > 0; }

const char* netrace_node_type_name(uint8_t type) {
    return type < 4 ? kNodeNames[type] : kNodeNames[4];
}

NetraceReader::NetraceReader(const std::string& path) : m_path(path) {
    m_file = std::fopen(path.c_str(), "rb");
    if (m_file == nullptr) fail(std::string("cannot open trace file: ") + std::strerror(errno));
    try {
        open_stream();
        read_header();
    } catch (...) {
        close_stream();
        std::fclose(m_file);
        m_file = nullptr;
        throw;
    }
}

NetraceReader::~NetraceReader() {
    close_stream();
    if (m_file != nullptr) std::fclose(m_file);
}

void NetraceReader::fail(const std::string& message) const {
    throw sim::InputError(m_path + ": " + message);
}

void NetraceReader::open_stream() {
    // Called at the start and after each stream end: leftover input is handed to the next stream.
    int err = BZ_OK;
    m_bz = BZ2_bzReadOpen(&err, m_file, 0, 0, nullptr, 0);
    if (err != BZ_OK) {
        close_stream();
        fail("cannot start bzip2 decompression (libbz2 error " + std::to_string(err) + ")");
    }
}

void NetraceReader::close_stream() {
    if (m_bz == nullptr) return;
    int err = BZ_OK;
    BZ2_bzReadClose(&err, static_cast<BZFILE*>(m_bz));
    m_bz = nullptr;
}

size_t NetraceReader::read_some(void* buf, size_t n) {
    auto* out = static_cast<char*>(buf);
    size_t got = 0;
    while (got < n && !m_eof) {
        int err = BZ_OK;
        const int want = static_cast<int>(std::min<size_t>(n - got, 1 << 20));
        const int r = BZ2_bzRead(&err, static_cast<BZFILE*>(m_bz), out + got, want);
        if (err == BZ_OK || err == BZ_STREAM_END) {
            got += static_cast<size_t>(r);
            m_offset += static_cast<uint64_t>(r);
        }
        if (err == BZ_OK) continue;
        if (err == BZ_STREAM_END) {
            // pbzip2 writes concatenated streams: continue with any bytes left over.
            void* unused_ptr = nullptr;
            int n_unused = 0;
            BZ2_bzReadGetUnused(&err, static_cast<BZFILE*>(m_bz), &unused_ptr, &n_unused);
            std::array<char, BZ_MAX_UNUSED> unused{};
            if (err == BZ_OK && n_unused > 0) std::memcpy(unused.data(), unused_ptr, n_unused);
            close_stream();
            if (n_unused == 0) {
                const int c = std::fgetc(m_file);
                if (c == EOF) {
                    m_eof = true;
                    break;
                }
                std::ungetc(c, m_file);
            }
            m_bz = BZ2_bzReadOpen(&err, m_file, 0, 0, n_unused > 0 ? unused.data() : nullptr,
                                  n_unused);
            if (err != BZ_OK) {
                close_stream();
                fail("cannot continue bzip2 decompression at decompressed byte offset " +
                     std::to_string(m_offset));
            }
            continue;
        }
        const std::string where = " at decompressed byte offset " + std::to_string(m_offset);
        switch (err) {
        case BZ_DATA_ERROR_MAGIC:
            fail(m_offset == 0 ? std::string("not a bzip2 file (bad bzip2 magic)")
                               : "trailing data is not bzip2" + where);
        case BZ_DATA_ERROR: fail("corrupt bzip2 data" + where);
        case BZ_UNEXPECTED_EOF: fail("truncated bzip2 stream" + where);
        case BZ_IO_ERROR: fail("read error" + where);
        case BZ_MEM_ERROR: fail("out of memory while decompressing" + where);
        default: fail("libbz2 error " + std::to_string(err) + where);
        }
    }
    return got;
}

void NetraceReader::read_exact(void* buf, size_t n, const char* what) {
    const uint64_t start = m_offset;
    const size_t got = read_some(buf, n);
    if (got != n) {
        fail(std::string("truncated ") + what + " at byte offset " + std::to_string(start) +
             " (need " + std::to_string(n) + " bytes, have " + std::to_string(got) + ")");
    }
}

void NetraceReader::read_header() {
    // Layout of netrace's packed nt_header_pack (netrace.c, nt_read_trheader).
    std::array<unsigned char, kNetraceHeaderBytes> h{};
    read_exact(h.data(), h.size(), "header");
    NetraceHeader& hd = m_header;
    hd.magic = le32(&h[0]);
    if (hd.magic != kNetraceMagic) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "0x%08X", hd.magic);
        fail(std::string("not a Netrace trace: bad magic ") + buf + " (expected 0x484A5455)");
    }
    const uint32_t version_bits = le32(&h[4]);
    std::memcpy(&hd.version, &version_bits, sizeof hd.version);
    if (hd.version != 1.0f) {
        fail("unsupported Netrace version " + std::to_string(hd.version) + " (only 1.0)");
    }
    const char* name = reinterpret_cast<const char*>(&h[8]);
    hd.benchmark_name.assign(name, strnlen(name, 30));
    hd.num_nodes = h[38];  // h[39] is padding
    hd.num_cycles = le64(&h[40]);
    hd.num_packets = le64(&h[48]);
    hd.notes_length = le32(&h[56]);
    hd.num_regions = le32(&h[60]);  // h[64..71] is padding
    if (hd.notes_length >= kMaxNotes) {
        fail("notes length " + std::to_string(hd.notes_length) + " at byte offset 56 is too large");
    }
    if (hd.num_regions > kMaxRegions) {
        fail("region count " + std::to_string(hd.num_regions) + " at byte offset 60 exceeds " +
             std::to_string(kMaxRegions));
    }
    if (hd.notes_length > 0) {
        std::vector<char> notes(hd.notes_length);
        read_exact(notes.data(), notes.size(), "header notes");
        hd.notes.assign(notes.data(), strnlen(notes.data(), notes.size()));
    }
    hd.regions.resize(hd.num_regions);
    for (NetraceRegion& r : hd.regions) {
        std::array<unsigned char, kNetraceRegionBytes> b{};
        read_exact(b.data(), b.size(), "header region");
        r.seek_offset = le64(&b[0]);
        r.num_cycles = le64(&b[8]);
        r.num_packets = le64(&b[16]);
    }
}

bool NetraceReader::next(NetracePacket& out) {
    std::array<unsigned char, kNetraceRecordBytes> b{};
    const uint64_t start = m_offset;
    const size_t got = read_some(b.data(), b.size());
    if (got == 0) {
        // A file cut at a record boundary, or a header that miscounts, would otherwise replay
        // silently short.
        if (m_packets_read != m_header.num_packets)
            fail("the header counts " + std::to_string(m_header.num_packets) + " packets but the file ends after " +
                 std::to_string(m_packets_read) + " (truncated or corrupt)");
        return false;
    }
    if (got != b.size()) {
        fail("truncated packet record " + std::to_string(m_packets_read) + " at byte offset " +
             std::to_string(start) + " (need 21 bytes, have " + std::to_string(got) + ")");
    }
    out.cycle = le64(&b[0]);
    out.id = le32(&b[8]);
    out.address = le32(&b[12]);
    out.type = b[16];
    out.src = b[17];
    out.dst = b[18];
    out.src_type = static_cast<uint8_t>(b[19] >> 4);
    out.dst_type = static_cast<uint8_t>(b[19] & 0xF);
    const std::string record = "packet record " + std::to_string(m_packets_read) + " at byte offset " +
                               std::to_string(start) + ": ";
    if (!netrace_type_valid(out.type)) fail(record + "invalid packet type " + std::to_string(out.type));
    if (out.src >= m_header.num_nodes || out.dst >= m_header.num_nodes)
        fail(record + "node " + std::to_string(std::max(out.src, out.dst)) + " is outside the trace's " +
             std::to_string(m_header.num_nodes) + " nodes (header)");
    if (out.src_type > 3 || out.dst_type > 3)
        fail(record + "invalid node type " + std::to_string(std::max(out.src_type, out.dst_type)) + " (0-3)");
    if (out.cycle > m_header.num_cycles)
        fail(record + "cycle " + std::to_string(out.cycle) + " is past the trace's " +
             std::to_string(m_header.num_cycles) + " cycles (header)");
    if (out.cycle < m_last_cycle)
        fail(record + "cycle " + std::to_string(out.cycle) + " comes before the previous record's " +
             std::to_string(m_last_cycle) + " (records are in cycle order)");
    m_last_cycle = out.cycle;
    const uint8_t num_deps = b[20];
    out.dependents.resize(num_deps);
    if (num_deps > 0) {
        std::array<unsigned char, 4 * 255> d{};
        const size_t bytes = 4u * num_deps;
        const uint64_t dep_start = m_offset;
        const size_t dgot = read_some(d.data(), bytes);
        if (dgot != bytes) {
            fail("truncated dependency list of packet " + std::to_string(out.id) +
                 " at byte offset " + std::to_string(dep_start) + " (need " +
                 std::to_string(bytes) + " bytes, have " + std::to_string(dgot) + ")");
        }
        for (size_t i = 0; i < num_deps; ++i) out.dependents[i] = le32(&d[4 * i]);
    }
    ++m_packets_read;
    return true;
}

}  // namespace stacksim::noc
