// SPDX-License-Identifier: Apache-2.0
// Inter-kernel data sharing from pointer arguments.
#include "memory/sharing_detector.h"

namespace stacksim::memory {

void SharingDetector::note_launch(uint64_t kernel, const std::vector<uint64_t>& pointers) {
    for (uint64_t p : pointers) {
        std::set<uint64_t>& ks = m_kernels[p / m_region];
        ks.insert(kernel);
        if (ks.size() > 1) m_sharing = true;
    }
}

}  // namespace stacksim::memory
