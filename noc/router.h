// SPDX-License-Identifier: Apache-2.0
// Input-queued virtual-channel wormhole router with credit flow control (plain C++).
#pragma once
#include <cstdint>
#include <array>
#include <vector>

#include "noc/allocator.h"
#include "noc/flit.h"
#include "noc/topology.h"

namespace stacksim::noc {

/// Router parameters (validated by NetworkConfig).
struct RouterParams {
    unsigned ports = 5;             ///< input ports = output ports
    uint64_t terminal_ports = 0;    ///< bit per port leading to a terminal (ejection never runs out of credits)
    unsigned vcs = 4;               ///< VCs per input port (split evenly among message classes)
    unsigned buffer_depth = 4;      ///< flits per VC buffer
    unsigned pipeline_stages = 3;   ///< >= 3: [extra stages +] RC+VA, SA, ST
    unsigned allocator_iterations = 1;  ///< 1: separable input-first; more: iSLIP iterations
    /// false: the stages before VC allocation count from a head flit's buffer arrival; true: they
    /// are a per-packet route-computation stage that starts when the head reaches the front of
    /// its VC (BookSim's iq router: a packet queued behind another pays it after that one left),
    /// and body flits, which need neither RC nor VA, bid for the switch from their arrival.
    bool route_at_head = false;
};

/// One router. The owner delivers flits with receive_flit() (at most one per input port and
/// cycle), credits with receive_credit(), and calls step() every cycle while busy().
///
/// Timing: a flit written into an input buffer at cycle t does route computation and VC
/// allocation (head flits) at t + stages - 3 (route_at_head: stages - 3 cycles after it
/// reached the front of its VC, if later), may win switch allocation from t + stages - 2
/// on, and traverses the switch the cycle after winning. Output VCs are held by a packet from
/// its head's VC allocation until its tail wins the switch (wormhole; the next packet may then
/// allocate it while the tail is still downstream). An output VC is only requested by flits of
/// its message class, and a flit wins the switch only when its output VC has a credit.
class Router : public PortCredits {
public:
    /// A flit that won switch allocation this cycle.
    struct Departure {
        unsigned out_port;
        unsigned in_port;  ///< the upstream of this port gets a credit for `in_vc`
        unsigned in_vc;
        Flit flit;         ///< `vc` already set to the output VC
    };

    Router(unsigned id, const RouterParams& params, const Topology& topology);

    /// Writes `f` into input buffer (port, f.vc) at `cycle`. Counts an overflow (a credit
    /// protocol violation) and drops the flit when the buffer is full.
    void receive_flit(unsigned port, const Flit& f, uint64_t cycle);
    /// One credit for output VC (port, vc) came back.
    void receive_credit(unsigned port, unsigned vc);
    /// Sets the credits of every VC of output `port` (the ejection port gets "infinite", or
    /// eject_credits: then its credits are spent per flit and returned by Network::consume()).
    void set_output_credits(unsigned port, unsigned credits);

    /// Does one cycle of allocation; appends the switch winners to `out`.
    void step(uint64_t cycle, std::vector<Departure>& out);

    /// Some flit is buffered (the router has work).
    bool busy() const { return m_buffered != 0; }
    unsigned id() const { return m_id; }
    unsigned buffered() const { return m_buffered; }
    /// Flits that arrived to a full buffer (must stay 0).
    uint64_t overflows() const { return m_overflows; }
    /// Credits returned beyond the buffer depth (must stay 0).
    uint64_t credit_overflows() const { return m_credit_overflows; }
    /// Fullest input port: its buffered flits over the flits its VCs can hold (0..1).
    double max_port_occupancy() const;
    /// Whole router: its buffered flits over the flits all its input VCs can hold (0..1).
    double occupancy() const {
        return static_cast<double>(m_buffered) / (static_cast<double>(m_port_buffered.size()) * m_p.vcs * m_p.buffer_depth);
    }
    /// Buffers in use: its buffered flits over the flits its input VCs that hold flits can hold
    /// (0..1; 0 when none holds any). A free-flowing VC holds a few flits of its packet, a
    /// blocked one fills up, so this rises with blocking long before the whole router fills.
    double active_occupancy() const;
    /// Credits of output `port` over the VCs of message class `c` (adaptive routing's view).
    unsigned free_slots(unsigned port, MessageClass c) const override;
    /// Largest occupancy seen in any one VC buffer, in flits.
    unsigned max_vc_occupancy() const { return m_max_occupancy; }

private:
    enum class VcState : uint8_t { Idle, Routed, Active };
    struct Entry {
        Flit flit;
        uint64_t arrival;
    };
    struct InputVc {
        unsigned head = 0, count = 0;
        VcState state = VcState::Idle;
        unsigned out_port = 0, out_vc = 0;
        uint64_t va_cycle = 0;
        uint64_t front_since = 0;  ///< cycle the current front flit became the front
    };
    unsigned class_first_vc(MessageClass c) const { return static_cast<unsigned>(c) * m_vcs_per_class; }

    unsigned m_id;
    RouterParams m_p;
    const Topology& m_topology;
    unsigned m_vcs_per_class;
    std::vector<Entry> m_buf;          ///< [(port * vcs + vc) * depth + slot]
    std::vector<InputVc> m_in;         ///< [port * vcs + vc]
    std::vector<uint32_t> m_credits;   ///< [port * vcs + vc] of outputs
    std::vector<uint8_t> m_out_busy;   ///< output VC held by a packet
    std::vector<uint64_t> m_sa_cand;   ///< [in_port * ports + out_port]: mask of input VCs
    std::vector<unsigned> m_sa_vc_ptr; ///< per input port: VC round-robin pointer
    std::vector<unsigned> m_port_buffered;  ///< per input port: flits held
    /// The body of step() for a VC allocator of either width.
    template <typename Va> void step_with(Va& va, uint64_t cycle, std::vector<Departure>& out);

    bool m_wide;                       ///< more than 64 input VCs: m_va_wide allocates VCs
    SeparableAllocator m_va;           ///< input VCs x output VCs (up to 64; else 1 x 1, unused)
    WideSeparableAllocator m_va_wide;  ///< input VCs x output VCs (65..128; else 1 x 1, unused)
    SeparableAllocator m_sa;           ///< input ports x output ports
    std::array<uint64_t, 2> m_nonempty{};  ///< bit per input VC holding flits (64 per word)
    unsigned m_sa_used = 0;            ///< bit per m_sa_cand row (input port) set this cycle
    unsigned m_buffered = 0;
    uint64_t m_overflows = 0, m_credit_overflows = 0;
    bool m_terminal_credits = false;  ///< terminal ports have finite credits (eject_credits): spend them
    unsigned m_max_occupancy = 0;
};

}  // namespace stacksim::noc
