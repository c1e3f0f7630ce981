// SPDX-License-Identifier: Apache-2.0
// The target socket of a module served by many initiators: per-initiator END_REQ back-pressure.
#pragma once
#include <functional>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

namespace stacksim::sim {

/// A multi-passthrough target socket (initiator `port` = bind order) that owns its module's
/// side of the base protocol (docs/protocol.md). The module decides admission; the port keeps
/// the rest:
/// * BEGIN_REQ from `port` goes to the on_request() hook, which takes the request in and
///   returns true (answered TLM_UPDATED/END_REQ) or returns false: the request is withheld
///   (TLM_ACCEPTED) until admit() or admit_withheld() sends its END_REQ. Each initiator has at
///   most one withheld request; the port remembers the order in which they were withheld.
/// * respond() sends BEGIN_RESP. The initiator completes it (TLM_COMPLETED), unless the module
///   opted in to response back-pressure with on_end_resp(): then TLM_ACCEPTED is allowed and
///   the END_RESP that follows on the forward path goes to that hook.
/// * Every call, both ways, carries zero annotated delay.
/// * Any other incoming phase, a non-zero delay, a second BEGIN_REQ from an initiator whose
///   request is withheld, or an unexpected END_RESP is a protocol error (SimulationError).
class MultiTargetPort : public tlm_utils::multi_passthrough_target_socket<MultiTargetPort> {
public:
    /// Decides a BEGIN_REQ from initiator `port`: true to accept it now, false to withhold it.
    using Admit = std::function<bool(int port, tlm::tlm_generic_payload& p)>;
    /// Told of an END_RESP from initiator `port`.
    using EndResp = std::function<void(int port, tlm::tlm_generic_payload& p)>;

    explicit MultiTargetPort(const char* name);

    /// Required before the simulation starts.
    void on_request(Admit hook) { m_admit = std::move(hook); }
    /// Allows initiators to answer BEGIN_RESP with TLM_ACCEPTED and send END_RESP later.
    void on_end_resp(EndResp hook) { m_end_resp = std::move(hook); }

    /// The withheld request of initiator `port`, or null.
    tlm::tlm_generic_payload* withheld(int port) const {
        return static_cast<size_t>(port) < m_withheld.size() ? m_withheld[static_cast<size_t>(port)] : nullptr;
    }
    /// Ends the request phase of `port`'s withheld request (which the module has just taken
    /// in): sends its END_REQ.
    void admit(int port);
    /// Offers the withheld requests, in the order they were withheld, to `try_admit(port, p)`:
    /// true takes the request in (its END_REQ is sent at once), false leaves it withheld in
    /// its place.
    template <typename F> void admit_withheld(F&& try_admit) {
        if (m_order.empty()) return;
        m_retry.clear();
        m_retry.swap(m_order);  // an END_REQ may bring a new refusal re-entrantly
        for (int port : m_retry) {
            tlm::tlm_generic_payload* p = m_withheld[static_cast<size_t>(port)];
            if (!try_admit(port, *p)) {
                m_order.push_back(port);
                continue;
            }
            m_withheld[static_cast<size_t>(port)] = nullptr;
            end_request(port, *p);
        }
    }
    /// Sends BEGIN_RESP for `p` to initiator `port` (status TLM_OK_RESPONSE), zero delay.
    /// Returns true when the response phase ended; false when the initiator will send
    /// END_RESP (only with on_end_resp()).
    bool respond(int port, tlm::tlm_generic_payload& p);

private:
    tlm::tlm_sync_enum nb_transport_fw(int port, tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay);
    void end_request(int port, tlm::tlm_generic_payload& p);
    void fit(int port);

    Admit m_admit;
    EndResp m_end_resp;
    std::vector<tlm::tlm_generic_payload*> m_withheld;  ///< per initiator
    std::vector<tlm::tlm_generic_payload*> m_response;  ///< per initiator: awaiting END_RESP
    std::vector<int> m_order;                           ///< initiators with a withheld request
    std::vector<int> m_retry;                           ///< scratch for admit_withheld()
};

}  // namespace stacksim::sim
