// SPDX-License-Identifier: Apache-2.0
// The sampled series of a run over time, as CSV (one row per sample).
#pragma once
#include <string>

#include "sim/streamed_file.h"
#include "top/stat_sampler.h"

namespace stacksim::top {

/// Streams `sampler`'s counter series to `path` (as FILE.part, renamed by finish()): a header
/// `cycle,<series>...` and one row per sample; a value without data in its interval is empty.
class SampleCsv {
public:
    /// Throws InputError naming `path` when it cannot be written.
    SampleCsv(const std::string& path, StatSampler& sampler);
    void finish() { m_file.commit(); }

private:
    sim::StreamedFile m_file;
};

}  // namespace stacksim::top
