// SPDX-License-Identifier: Apache-2.0
// The trace cache: parsed .traceg kernels kept in binary form, reused while the trace is unchanged.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "core/trace_kernel.h"

namespace stacksim::workloads {

/// Where parsed traces are cached (docs/accelsim-traces.md#the-trace-cache).
struct TraceCacheSettings {
    std::string dir;       ///< folder of the cache files (created, mode 0700); empty: no caching
    std::string build_id;  ///< the simulator build; a file written by another build is rebuilt
    /// Bytes of cache files kept in `dir`: after a file is written, the least recently used
    /// others are removed until the folder is under this (the new file always stays).
    uint64_t max_bytes = uint64_t{1} << 30;
    bool enabled() const { return !dir.empty(); }
};

/// The settings for `option` (a `--trace-cache` value; "" = not given), else the environment:
/// $STACKSIM_TRACE_CACHE, else $XDG_CACHE_HOME/stacksim/traces (absolute only, as the XDG rules
/// say), else $HOME/.cache/stacksim/traces. "off" (also "0", "no", "none", "false") disables;
/// so does a missing HOME with nothing else set. `build_id` identifies this build.
/// $STACKSIM_TRACE_CACHE_MAX_MB (a whole number of MiB) sets max_bytes.
TraceCacheSettings trace_cache_settings(const std::string& option, const std::string& build_id);

/// What load_traceg did.
enum class TraceCacheUse : uint8_t {
    Off,       ///< parsed: caching disabled, or the trace is not a regular file (a FIFO)
    Hit,       ///< read from a valid cache file
    Stored,    ///< parsed; the cache file was (re)written
    Unstored,  ///< parsed; no cache file could be written (folder not writable, disk full, ...)
};

/// Reads a .traceg file as read_traceg does, through the cache of `settings`: a cache file made
/// by this build from a trace of the same size, modification time and content hash is used
/// after checking its length and checksum; otherwise the trace is parsed and the file (re)written
/// to a fresh temporary, synced and renamed over it (readers and concurrent writers see a whole
/// file or none). The cache never changes the result, and no damaged or unwritable cache file
/// makes a run fail; a bad trace throws the same sim::InputError ("FILE:LINE: ...") as read_traceg.
std::unique_ptr<core::TraceKernel> load_traceg(const std::string& path, const TraceCacheSettings& settings,
                                               TraceCacheUse* use = nullptr);

/// The cache file of the trace at `path`: the trace's name and a hash of its absolute path,
/// in `settings.dir`.
std::string trace_cache_file(const std::string& path, const TraceCacheSettings& settings);

}  // namespace stacksim::workloads
