// SPDX-License-Identifier: Apache-2.0
// Streaming reader for Netrace (.tra.bz2) network traces: header, packet records, type table.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace stacksim::noc {

/// Netrace's magic number ("UTJH" little-endian).
inline constexpr uint32_t kNetraceMagic = 0x484A5455;
/// Bytes of the fixed header (netrace's packed nt_header_pack).
inline constexpr size_t kNetraceHeaderBytes = 72;
/// Bytes of one region descriptor (three u64).
inline constexpr size_t kNetraceRegionBytes = 24;
/// Bytes of one fixed packet record, before its dependent ids.
inline constexpr size_t kNetraceRecordBytes = 21;
/// Number of entries in netrace's packet type table (codes 0..30).
inline constexpr uint8_t kNetraceNumPacketTypes = 31;

/// One program region (netrace nt_regionhead): where it starts and how big it is.
struct NetraceRegion {
    uint64_t seek_offset = 0;  ///< Byte offset of the region's first record, after the header.
    uint64_t num_cycles = 0;   ///< Cycles covered by the region.
    uint64_t num_packets = 0;  ///< Packets in the region.
};

/// The trace header, as stored in the file.
struct NetraceHeader {
    uint32_t magic = 0;
    float version = 0.0f;           ///< Only 1.0 is supported (as in netrace).
    std::string benchmark_name;     ///< NUL-terminated in a 30-byte field.
    uint8_t num_nodes = 0;
    uint64_t num_cycles = 0;
    uint64_t num_packets = 0;
    uint32_t notes_length = 0;      ///< Bytes of notes in the file, including the NUL.
    uint32_t num_regions = 0;
    std::string notes;              ///< Notes without the terminating NUL.
    std::vector<NetraceRegion> regions;
    /// Bytes from the start of the decompressed file to the first packet record.
    uint64_t size_bytes() const {
        return kNetraceHeaderBytes + notes_length + uint64_t{num_regions} * kNetraceRegionBytes;
    }
};

/// One packet record. `dependents` lists the ids of packets that depend on this one.
struct NetracePacket {
    uint64_t cycle = 0;
    uint32_t id = 0;
    uint32_t address = 0;
    uint8_t type = 0;
    uint8_t src = 0, dst = 0;
    uint8_t src_type = 0, dst_type = 0;  ///< Node types (high and low nibble of one byte).
    std::vector<uint32_t> dependents;
};

/// Size in bytes of a packet of this type: 8 (control) or 72 (data); 0 for invalid types.
uint32_t netrace_packet_bytes(uint8_t type);
/// Netrace's name of a packet type ("ReadReq", ...); "InvalidCmd" for unknown codes.
const char* netrace_type_name(uint8_t type);
/// True when netrace's table defines this type (a size of 8 or 72).
bool netrace_type_valid(uint8_t type);
/// Netrace's name of a node type (0 L1D, 1 L1I, 2 L2, 3 MC); "Invalid Node Type" otherwise.
const char* netrace_node_type_name(uint8_t type);

/// Opens a .tra.bz2 file, reads its header, then streams packet records in file order.
/// Errors are sim::InputError with one line "FILE: message" (with byte offsets into the
/// decompressed stream where relevant).
class NetraceReader {
public:
    /// Opens `path` and reads the header; throws sim::InputError on failure.
    explicit NetraceReader(const std::string& path);
    ~NetraceReader();
    NetraceReader(const NetraceReader&) = delete;
    NetraceReader& operator=(const NetraceReader&) = delete;

    /// The header read at open.
    const NetraceHeader& header() const { return m_header; }
    /// Reads the next record into `out`; false at a clean end of file. Throws sim::InputError
    /// for a record with an invalid packet type, a node outside the header's node count or a
    /// node type above 3, a cycle past the header's cycle count or before the previous
    /// record's, and at the end of the file when the records are fewer than the header counts.
    bool next(NetracePacket& out);
    /// Records read so far.
    uint64_t packets_read() const { return m_packets_read; }
    /// Decompressed bytes consumed so far.
    uint64_t offset() const { return m_offset; }
    /// The file path as given.
    const std::string& path() const { return m_path; }

private:
    /// Reads up to `n` bytes; returns the count (< n only at end of data).
    size_t read_some(void* buf, size_t n);
    /// Reads exactly `n` bytes or throws naming `what` and the offset.
    void read_exact(void* buf, size_t n, const char* what);
    void read_header();
    void open_stream();
    void close_stream();
    [[noreturn]] void fail(const std::string& message) const;

    std::string m_path;
    std::FILE* m_file = nullptr;
    void* m_bz = nullptr;  ///< BZFILE*
    bool m_eof = false;
    uint64_t m_offset = 0;
    uint64_t m_packets_read = 0;
    uint64_t m_last_cycle = 0;
    NetraceHeader m_header;
};

}  // namespace stacksim::noc
