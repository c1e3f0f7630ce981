// SPDX-License-Identifier: Apache-2.0
// ETC's application classifier: coalesced line requests per warp memory instruction, sampled.
#pragma once
#include <cstdint>
#include <vector>

#include "memory/etc_config.h"

namespace stacksim::memory {

/// Samples each SM's counters of global-memory warp instructions and the line requests they
/// coalesced into (the thesis's per-LD/ST-unit counter). A sample's coalescing factor is the
/// mean over the SMs that issued memory instructions in it of lines / instructions. The first
/// sample with memory instructions decides: factor > threshold = irregular, else regular (the
/// thesis, §3.6.1). With `reclassify`, a later sample above the threshold turns a regular
/// application irregular (never back): an extension, not in the thesis.
class AppClassifier {
public:
    AppClassifier(double threshold, size_t sms, bool reclassify = false);
    /// Ends a sample: `insts[i]` / `lines[i]` are SM i's cumulative counters now.
    /// Returns true if this sample decided or changed the class.
    bool sample(const std::vector<uint64_t>& insts, const std::vector<uint64_t>& lines);
    bool decided() const { return m_decided; }
    bool irregular() const { return m_irregular; }
    /// The class, with inter-kernel sharing as given (Unknown before the first decision).
    AppClass app_class(bool sharing) const;
    /// Factor of the deciding sample; mean over samples with memory instructions; samples taken.
    double deciding_factor() const { return m_deciding; }
    double mean_factor() const { return m_factor_samples ? m_factor_sum / static_cast<double>(m_factor_samples) : 0.0; }
    uint64_t samples() const { return m_samples; }

private:
    double m_threshold;
    bool m_reclassify;
    std::vector<uint64_t> m_last_insts, m_last_lines;
    bool m_decided = false, m_irregular = false;
    double m_deciding = 0.0, m_factor_sum = 0.0;
    uint64_t m_factor_samples = 0, m_samples = 0;
};

}  // namespace stacksim::memory
