// SPDX-License-Identifier: Apache-2.0
// A pool of generic payloads, each carrying a MemExtension; recycled when released.
#pragma once
#include <memory>
#include <vector>

#include <tlm>

#include "sim/mem_extension.h"

namespace stacksim::sim {

/// Memory manager for tlm_generic_payload. acquire() returns a payload with reference count 1,
/// a cleared MemExtension and no other extension; the last release() returns it to the pool
/// and deletes the extensions attached on the way with set_auto_extension.
/// Payloads carry timing only: functional data is applied when the instruction executes,
/// so the data pointer is left null and data_length holds the access size.
class PayloadPool : public tlm::tlm_mm_interface {
public:
    PayloadPool() = default;
    PayloadPool(const PayloadPool&) = delete;
    PayloadPool& operator=(const PayloadPool&) = delete;
    ~PayloadPool() override;

    tlm::tlm_generic_payload& acquire();
    void free(tlm::tlm_generic_payload* p) override;
    /// The extension attached to a pooled payload.
    static MemExtension& ext(tlm::tlm_generic_payload& p) {
        MemExtension* e = nullptr;
        p.get_extension(e);
        return *e;
    }
    size_t allocated() const { return m_all.size(); }
    size_t in_use() const { return m_all.size() - m_free.size(); }

private:
    std::vector<tlm::tlm_generic_payload*> m_all;
    std::vector<tlm::tlm_generic_payload*> m_free;
};

}  // namespace stacksim::sim
