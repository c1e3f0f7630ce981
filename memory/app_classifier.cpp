// SPDX-License-Identifier: Apache-2.0
// ETC's application classifier.
#include "memory/app_classifier.h"

namespace stacksim::memory {

AppClassifier::AppClassifier(double threshold, size_t sms, bool reclassify)
    : m_threshold(threshold), m_reclassify(reclassify), m_last_insts(sms, 0), m_last_lines(sms, 0) {}

bool AppClassifier::sample(const std::vector<uint64_t>& insts, const std::vector<uint64_t>& lines) {
    ++m_samples;
    double sum = 0.0;
    uint64_t sms = 0;
    for (size_t i = 0; i < m_last_insts.size() && i < insts.size(); ++i) {
        const uint64_t di = insts[i] - m_last_insts[i], dl = lines[i] - m_last_lines[i];
        m_last_insts[i] = insts[i];
        m_last_lines[i] = lines[i];
        if (di == 0) continue;
        sum += static_cast<double>(dl) / static_cast<double>(di);
        ++sms;
    }
    if (sms == 0) return false;
    const double factor = sum / static_cast<double>(sms);
    m_factor_sum += factor;
    ++m_factor_samples;
    if (m_decided && (!m_reclassify || m_irregular || factor <= m_threshold)) return false;
    // Undecided, or (reclassify) regular so far and this sample is not: an application's
    // kernels can differ (BICG's first kernel walks columns, coalesced; its second rows), and
    // the irregular one is the one that thrashes. The class never goes back to regular.
    m_decided = true;
    m_deciding = factor;
    m_irregular = factor > m_threshold;
    return true;
}

AppClass AppClassifier::app_class(bool sharing) const {
    if (!m_decided) return AppClass::Unknown;
    if (m_irregular) return AppClass::Irregular;
    return sharing ? AppClass::RegularSharing : AppClass::RegularNoSharing;
}

}  // namespace stacksim::memory
