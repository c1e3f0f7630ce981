// SPDX-License-Identifier: Apache-2.0
// The binary form of a parsed Accel-Sim trace kernel (the trace cache's file content).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/trace_kernel.h"

namespace stacksim::workloads {

/// Version of the binary layout and of what the reader puts into a TraceKernel; bump it when
/// either changes, so that caches of older builds are rebuilt, never misread.
constexpr uint32_t kTraceCacheFormat = 1;

/// 64-bit hash of `size` bytes (four independent multiply-rotate lanes, ~0.8 host instructions
/// per byte); not cryptographic: it detects changed traces and damaged cache files.
uint64_t trace_hash(const void* data, size_t size, uint64_t seed = 0);

/// What a cached kernel was made from: the trace file's size (bytes), modification time and
/// content hash, and the simulator build that parsed it.
struct TraceKey {
    uint64_t size = 0;
    int64_t mtime_s = 0, mtime_ns = 0;
    uint64_t content_hash = 0;   ///< trace_hash of the whole .traceg
    uint64_t build_hash = 0;     ///< trace_hash of the build identity and kTraceCacheFormat
    bool operator==(const TraceKey& o) const {
        return size == o.size && mtime_s == o.mtime_s && mtime_ns == o.mtime_ns &&
               content_hash == o.content_hash && build_hash == o.build_hash;
    }
};

/// The binary form of `kernel` (as read_traceg made it) under `key`: a header with the key, the
/// payload's length and hash, then the payload. `name_is_path`: the trace had no `-kernel name`
/// (the name is the path it is read from). Returns "" when the kernel holds something the
/// format cannot express (it is then simply not cached).
std::string encode_trace_kernel(const core::TraceKernel& kernel, const TraceKey& key, bool name_is_path);

/// The kernel stored in `data` if it is a complete, undamaged file of this format made under
/// `key`, else nullptr (never throws for bad content). `path` becomes TraceKernel::file, every
/// instruction's file, and the name of a kernel whose trace has no `-kernel name`.
std::unique_ptr<core::TraceKernel> decode_trace_kernel(std::string_view data, const TraceKey& key,
                                                       const std::string& path);

}  // namespace stacksim::workloads
