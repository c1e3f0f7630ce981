// SPDX-License-Identifier: Apache-2.0
// A workload replaying an Accel-Sim trace directory (kernelslist.g + kernel-N.traceg files).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "workloads/trace_cache.h"
#include "workloads/workload.h"

namespace stacksim::workloads {

/// One command of a kernelslist.g file.
struct TraceCommand {
    enum class Kind : uint8_t { MemcpyHtoD, MemcpyDtoH, Kernel };
    Kind kind = Kind::Kernel;
    std::string path;      ///< Kernel: trace file, resolved against the list's directory
    uint64_t address = 0;  ///< Memcpy: device address
    uint64_t bytes = 0;    ///< Memcpy: size in bytes
    uint32_t line = 0;     ///< line in the list file
};

/// Parses a kernelslist.g file: `MemcpyHtoD,0xADDR,BYTES`, `MemcpyDtoH,0xADDR,BYTES` and
/// `kernel-N.traceg` lines (relative to the list's directory). Throws sim::InputError.
std::vector<TraceCommand> read_kernelslist(const std::string& path);

/// Runs the kernels of a kernelslist.g in order, timing only. Memory copies are recorded and
/// skipped: HostApi::memcpy_h2d needs an allocation, and the traced addresses are the
/// tracing machine's (PCIe/copy timing arrives with the memory-system work).
class TraceWorkload : public Workload {
public:
    /// Parses the list now (errors surface before simulation); kernel files are read in run().
    explicit TraceWorkload(std::string kernelslist_path);

    /// Reads each kernel file in list order, launches it with HostApi::launch_trace and frees
    /// it before reading the next.
    void run(HostApi& host) override;
    /// Always ok with checked = 0: a timing-only trace has no outputs.
    VerifyResult verify() override;

    /// Reads the kernel files through this trace cache (default: none, every file is parsed).
    void set_trace_cache(TraceCacheSettings settings) { m_cache = std::move(settings); }
    /// How each kernel file of the last run() was read, in list order.
    const std::vector<TraceCacheUse>& cache_uses() const { return m_cache_uses; }

    /// Kernel names in launch order (filled by run()).
    std::vector<std::string> kernel_names() const { return m_kernel_names; }
    const std::vector<TraceCommand>& commands() const { return m_commands; }
    uint64_t skipped_copies() const { return m_copies; }       ///< MemcpyHtoD commands skipped
    uint64_t skipped_copy_bytes() const { return m_copy_bytes; }
    uint64_t warp_instructions() const { return m_warp_insts; } ///< traced, over all kernels

private:
    std::string m_list_path;
    std::vector<TraceCommand> m_commands;
    std::vector<std::string> m_kernel_names;
    TraceCacheSettings m_cache;
    std::vector<TraceCacheUse> m_cache_uses;
    uint64_t m_copies = 0, m_copy_bytes = 0, m_warp_insts = 0;
};

}  // namespace stacksim::workloads
