// SPDX-License-Identifier: Apache-2.0
// kernelslist.g parsing and the trace-replay workload.
#include "workloads/trace_workload.h"

#include <charconv>
#include <fstream>

#include "core/trace_kernel.h"
#include "sim/error.h"
#include "workloads/accelsim_trace.h"

namespace stacksim::workloads {
namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool ends_with(std::string_view s, std::string_view p) {
    return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

template <typename T> bool parse_num(std::string_view s, T& v, int base) {
    if (base == 16 && s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
    if (s.empty() || s[0] == '-' || s[0] == '+') return false;
    auto r = std::from_chars(s.data(), s.data() + s.size(), v, base);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

}  // namespace

std::vector<TraceCommand> read_kernelslist(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw sim::InputError(path + ":0: cannot open kernelslist");
    const size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
    std::vector<TraceCommand> out;
    std::string raw;
    uint32_t line_no = 0;
    auto fail = [&](const std::string& msg, std::string_view token) {
        throw sim::InputError(path + ":" + std::to_string(line_no) + ": " + msg + " '" +
                              std::string(token.substr(0, 80)) + "'");
    };
    while (std::getline(in, raw)) {
        ++line_no;
        std::string_view line = raw;
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
            line.remove_suffix(1);
        while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
        if (line.empty()) continue;
        TraceCommand c;
        c.line = line_no;
        if (starts_with(line, "Memcpy")) {
            const size_t c1 = line.find(','), c2 = line.find(',', c1 == line.npos ? c1 : c1 + 1);
            if (c1 == line.npos || c2 == line.npos || line.find(',', c2 + 1) != line.npos)
                fail("malformed copy (want MemcpyHtoD,0xADDRESS,BYTES)", line);
            const std::string_view kind = line.substr(0, c1);
            if (kind == "MemcpyHtoD") c.kind = TraceCommand::Kind::MemcpyHtoD;
            else if (kind == "MemcpyDtoH") c.kind = TraceCommand::Kind::MemcpyDtoH;
            else fail("unknown copy command", kind);
            const std::string_view addr = line.substr(c1 + 1, c2 - c1 - 1), bytes = line.substr(c2 + 1);
            if (!parse_num(addr, c.address, 16)) fail("bad copy address", addr);
            if (!parse_num(bytes, c.bytes, 10)) fail("bad copy size", bytes);
        } else if (starts_with(line, "kernel")) {
            if (ends_with(line, ".xz"))
                fail("compressed traces are not supported; decompress with 'xz -d'", line);
            c.kind = TraceCommand::Kind::Kernel;
            c.path = dir + "/" + std::string(line);
        } else {
            fail("unknown command (want MemcpyHtoD,... or kernel-N.traceg)", line);
        }
        out.push_back(std::move(c));
    }
    return out;
}

TraceWorkload::TraceWorkload(std::string kernelslist_path)
    : m_list_path(std::move(kernelslist_path)), m_commands(read_kernelslist(m_list_path)) {}

void TraceWorkload::run(HostApi& host) {
    m_kernel_names.clear();
    m_cache_uses.clear();
    m_copies = m_copy_bytes = m_warp_insts = 0;
    for (const TraceCommand& c : m_commands) {
        switch (c.kind) {
        case TraceCommand::Kind::MemcpyHtoD:
            // Recorded, not performed: the destination is a device address of the traced run,
            // not an allocation of this HostApi.
            ++m_copies;
            m_copy_bytes += c.bytes;
            break;
        case TraceCommand::Kind::MemcpyDtoH:
            break;  // ignored, as in Accel-Sim
        case TraceCommand::Kind::Kernel: {
            TraceCacheUse use = TraceCacheUse::Off;
            std::unique_ptr<core::TraceKernel> kernel = load_traceg(c.path, m_cache, &use);
            m_cache_uses.push_back(use);
            for (const core::CtaTrace& cta : kernel->ctas)
                for (const core::WarpTrace& w : cta.warps) m_warp_insts += w.insts.size();
            m_kernel_names.push_back(kernel->name);
            host.launch_trace(*kernel);
            host.device_synchronize();  // the kernel is freed here, before the next one is read
            break;
        }
        }
    }
}

VerifyResult TraceWorkload::verify() {
    VerifyResult r;
    r.ok = true;
    r.checked = 0;
    r.detail = "timing-only trace: no outputs to check";
    return r;
}

}  // namespace stacksim::workloads
