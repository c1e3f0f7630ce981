// SPDX-License-Identifier: Apache-2.0
// A pool of generic payloads, each carrying a MemExtension; recycled when released.
#include "sim/payload_pool.h"

namespace stacksim::sim {

PayloadPool::~PayloadPool() {
    for (auto* p : m_all) delete p;  // the payload's destructor deletes its extensions
}

tlm::tlm_generic_payload& PayloadPool::acquire() {
    tlm::tlm_generic_payload* p;
    if (m_free.empty()) {
        p = new tlm::tlm_generic_payload(this);
        p->set_extension(new MemExtension);
        m_all.push_back(p);
    } else {
        p = m_free.back();
        m_free.pop_back();
        ext(*p) = MemExtension{};
    }
    p->set_data_ptr(nullptr);
    p->set_byte_enable_ptr(nullptr);
    p->set_byte_enable_length(0);
    p->set_streaming_width(0);
    p->set_dmi_allowed(false);
    p->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    p->acquire();
    return *p;
}

void PayloadPool::free(tlm::tlm_generic_payload* p) {
    p->reset();  // deletes the auto extensions (LostLocalityExtension, ...); MemExtension stays
    m_free.push_back(p);
}

}  // namespace stacksim::sim
