// SPDX-License-Identifier: Apache-2.0
// Accel-Sim .traceg reader: the `-key = value` header (split from accelsim_trace.cpp).
#include "workloads/accelsim_trace.h"

#include "workloads/trace_text.h"

namespace stacksim::workloads {
namespace {

using trace_text::parse_dec;
using trace_text::parse_hex;
using trace_text::trim;

bool parse_dim(std::string_view v, std::array<uint32_t, 3>& d) {
    if (v.size() < 7 || v.front() != '(' || v.back() != ')') return false;
    v = v.substr(1, v.size() - 2);
    for (unsigned k = 0; k < 3; ++k) {
        size_t comma = v.find(',');
        if ((comma == std::string_view::npos) != (k == 2)) return false;
        uint64_t x = 0;
        if (!parse_dec(trim(v.substr(0, comma)), x, UINT32_MAX) || x == 0) return false;
        d[k] = static_cast<uint32_t>(x);
        if (comma != std::string_view::npos) v.remove_prefix(comma + 1);
    }
    return true;
}

}  // namespace

void TracegReader::read_header() {
    bool grid = false, block = false;
    while (read_line()) {
        const std::string_view line = trim(m_line);
        if (line.empty()) continue;
        if (line[0] == '#') {  // "#traces format = ..." or #BEGIN_TB: the header is over
            m_pending = true;
            break;
        }
        if (line[0] != '-') fail("expected a '-key = value' header line", line);
        const size_t eq = line.find('=');
        if (eq == std::string_view::npos) fail("header line without '='", line);
        const std::string_view key = trim(line.substr(1, eq - 1));
        parse_header_line(key, trim(line.substr(eq + 1)));
        grid = grid || key == "grid dim";
        block = block || key == "block dim";
    }
    if (!m_pending) fail("truncated file: no instruction traces after the header");
    if (!grid) fail("missing header '-grid dim'");
    if (!block) fail("missing header '-block dim'");
    if (m_header.binary_version == 0) fail("missing header '-binary version'");
    if (m_header.tracer_version == 0) fail("missing header '-accelsim tracer version'");
    const uint64_t threads = uint64_t{m_header.block[0]} * m_header.block[1] * m_header.block[2];
    m_header.warps_per_cta = static_cast<uint32_t>((threads + 31) / 32);
    if (m_header.kernel_name.empty()) {
        m_header.kernel_name = m_path;
        m_header.name_is_path = true;
    }

    m_kernel.name = m_header.kernel_name;
    m_kernel.file = m_path;
    m_kernel.grid = m_header.grid;
    m_kernel.block = m_header.block;
    m_kernel.shared_bytes = m_header.shmem_bytes;
    m_kernel.regs_per_thread = m_header.nregs;
    m_kernel.binary_version = m_header.binary_version;
    m_kernel.num_regs = kSassGprCount;
}

void TracegReader::parse_header_line(std::string_view key, std::string_view value) {
    TraceHeader& h = m_header;
    uint64_t v = 0;
    auto dec = [&](uint64_t max) {
        if (!parse_dec(value, v, max)) fail("bad value of header '-" + std::string(key) + "'", value);
        return v;
    };
    auto hex = [&] {
        if (!parse_hex(value, v)) fail("bad value of header '-" + std::string(key) + "'", value);
        return v;
    };
    if (key == "kernel name") {
        h.kernel_name = std::string(value);
    } else if (key == "kernel id") {
        h.kernel_id = static_cast<uint32_t>(dec(UINT32_MAX));
    } else if (key == "grid dim" || key == "block dim") {
        std::array<uint32_t, 3>& d = key == "grid dim" ? h.grid : h.block;
        if (!parse_dim(value, d))
            fail("bad value of header '-" + std::string(key) + "' (want (x,y,z), each >= 1)", value);
        if (key == "block dim" && uint64_t{d[0]} * d[1] * d[2] > 1024)
            fail("block dim exceeds 1024 threads", value);
        if (key == "grid dim" && (d[1] > 65535 || d[2] > 65535 || d[0] > 0x7FFFFFFFu))
            fail("grid dim exceeds CUDA limits", value);
    } else if (key == "shmem") {
        h.shmem_bytes = static_cast<uint32_t>(dec(UINT32_MAX));
    } else if (key == "nregs") {
        h.nregs = static_cast<uint32_t>(dec(255));
    } else if (key == "binary version") {
        h.binary_version = static_cast<uint32_t>(dec(UINT32_MAX));
        if (!sass_family_of(h.binary_version, h.family))
            fail("unsupported binary version (supported: 60, 61, 70, 75, 80, 86, 90)", value);
    } else if (key == "cuda stream id") {
        h.cuda_stream_id = dec(UINT64_MAX);
    } else if (key == "shmem base_addr") {
        h.shmem_base_addr = hex();
    } else if (key == "local mem base_addr") {
        h.local_base_addr = hex();
    } else if (key == "nvbit version") {
        h.nvbit_version = std::string(value);
    } else if (key == "accelsim tracer version") {
        h.tracer_version = static_cast<uint32_t>(dec(UINT32_MAX));
        if (h.tracer_version < 3 || h.tracer_version > 5)
            fail("unsupported accelsim tracer version (supported: 3, 4, 5)", value);
    } else if (key == "enable lineinfo") {
        h.lineinfo = dec(1) == 1;
    }
    // Any other "-key = value" line is skipped, as Accel-Sim's parse_kernel_info does.
}

}  // namespace stacksim::workloads
