// SPDX-License-Identifier: Apache-2.0
// Test bench initiator: sends scripted memory requests and records when each is answered.
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "common/lost_locality_extension.h"
#include "sim/clock_domain.h"
#include "sim/payload_pool.h"

namespace stacksim::test {

/// One scripted request: sent at `cycle` (or as soon as back-pressure allows).
struct ScriptedRequest {
    uint64_t cycle;
    uint64_t addr;
    uint32_t bytes;
    sim::MemAccess access;
    uint32_t sectors = 0;  ///< MemExtension sector mask (caches)
    uint32_t warp = 0;
};

/// Sends its script through `socket` in its own clock domain, honouring END_REQ back-pressure,
/// and records the response cycle (and the lost-locality flag) of each request by script index.
struct ScriptedRequester : sc_core::sc_module, sim::Clocked {
    tlm_utils::simple_initiator_socket<ScriptedRequester> socket{"socket"};
    sim::ClockDomain& clock;
    sim::PayloadPool pool;
    std::vector<ScriptedRequest> script;
    size_t next = 0;
    tlm::tlm_generic_payload* blocked = nullptr;
    int times_blocked = 0;
    std::map<uint32_t, uint64_t> response;  ///< request index -> cycle answered
    std::map<uint32_t, bool> lost_locality;

    ScriptedRequester(sc_core::sc_module_name n, sim::ClockDomain& c) : sc_module(n), clock(c) {
        socket.register_nb_transport_bw(this, &ScriptedRequester::bw);
    }
    /// Starts sending `s`.
    void start(std::vector<ScriptedRequest> s) {
        script = std::move(s);
        clock.activate(*this);
    }
    tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
        if (&p == blocked) blocked = nullptr;
        if (ph == tlm::BEGIN_RESP) {
            const auto& e = sim::PayloadPool::ext(p);
            response[e.tag] = clock.cycle();
            lost_locality[e.tag] = common::LostLocalityExtension::is_set(p);
            p.release();
        }
        clock.activate(*this);
        return tlm::TLM_COMPLETED;
    }
    bool tick(uint64_t cycle) override {
        while (next < script.size() && script[next].cycle <= cycle && !blocked) {
            const ScriptedRequest& r = script[next];
            auto& p = pool.acquire();
            p.set_address(r.addr);
            p.set_data_length(r.bytes);
            auto& e = sim::PayloadPool::ext(p);
            e.tag = static_cast<uint32_t>(next);
            e.access = r.access;
            e.sector_mask = r.sectors;
            e.warp = r.warp;
            ++next;
            tlm::tlm_phase ph = tlm::BEGIN_REQ;
            sc_core::sc_time d = sc_core::SC_ZERO_TIME;
            if (socket->nb_transport_fw(p, ph, d) == tlm::TLM_ACCEPTED) {
                blocked = &p;
                ++times_blocked;
            }
        }
        if (next < script.size() && !blocked) clock.wake_at(*this, std::max(script[next].cycle, cycle + 1));
        return false;
    }
};

}  // namespace stacksim::test
