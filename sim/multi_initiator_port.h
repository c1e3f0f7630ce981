// SPDX-License-Identifier: Apache-2.0
// The initiator socket of a module that sends to many targets: per-target send, can_send, responses.
#pragma once
#include <functional>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>

#include "sim/initiator_link.h"

namespace stacksim::sim {

/// A multi-passthrough initiator socket (target `port` = bind order) with InitiatorPort's
/// protocol for each target separately: a target that withholds END_REQ blocks only its own
/// port (docs/protocol.md).
class MultiInitiatorPort : public tlm_utils::multi_passthrough_initiator_socket<MultiInitiatorPort> {
public:
    using Hook = std::function<void(int port, tlm::tlm_generic_payload& p)>;

    explicit MultiInitiatorPort(const char* name);

    /// Called when the END_REQ of a request withheld by target `port` arrives (also when its
    /// BEGIN_RESP comes first).
    void on_end_req(Hook hook) { m_end_req = std::move(hook); }
    /// Called with each response from target `port`; the module owns the payload again (required).
    void on_response(Hook hook) { m_response = std::move(hook); }

    /// No request to target `port` waits for its END_REQ.
    bool can_send(int port) const {
        return static_cast<size_t>(port) >= m_links.size() || m_links[static_cast<size_t>(port)].can_send();
    }
    /// Sends `p` to target `port` (requires can_send(port)). True when its request phase ended
    /// at once; false when END_REQ comes later (on_end_req()).
    bool send(int port, tlm::tlm_generic_payload& p);

private:
    tlm::tlm_sync_enum nb_transport_bw(int port, tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay);
    InitiatorLink& link(int port);

    std::vector<InitiatorLink> m_links;  ///< per target, sized on first use
    Hook m_end_req;
    Hook m_response;
};

}  // namespace stacksim::sim
