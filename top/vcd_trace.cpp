// SPDX-License-Identifier: Apache-2.0
// The VCD waveform of a run: warps' issue, PC and SIMT stack depth, sampled rates, routers' buffers.
#include "top/vcd_trace.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>

#include "sim/error.h"
#include "top/gpu_system.h"

namespace stacksim::top {

namespace {

/// "sm3" -> (3, none), "sm3.w7" -> (3, 7); false when `s` is neither.
bool parse_warp(const std::string& s, uint32_t& sm, int64_t& warp) {
    unsigned a = 0, b = 0;
    char tail = 0;
    if (std::sscanf(s.c_str(), "sm%u.w%u%c", &a, &b, &tail) == 2) {
        sm = a;
        warp = b;
        return true;
    }
    if (std::sscanf(s.c_str(), "sm%u%c", &a, &tail) == 1) {
        sm = a;
        warp = -1;
        return true;
    }
    return false;
}

}  // namespace

VcdTrace::VcdTrace(const std::string& path, const std::vector<std::string>& requested, uint32_t warps_per_sm,
                   GpuSystem& gpu, StatSampler& sampler)
    : m_vcd(path,
            fmt::format("times in picoseconds: core cycle N is at N x {} ps (the core clock's period)",
                        gpu.core_clock().period_ps()),
            gpu.core_clock().period_ps()) {
    std::vector<std::string> signals = requested;
    if (signals.empty()) signals = {"sm0", "counters", "routers"};
    const uint32_t sms = static_cast<uint32_t>(gpu.sms().size());
    const noc::Network* net = gpu.memory().network();
    const unsigned routers = net ? net->topology().routers() : 0;
    bool counters = false;
    std::set<unsigned> chosen_routers;
    for (const auto& s : signals) {
        uint32_t sm = 0;
        int64_t warp = -1;
        unsigned r = 0;
        char tail = 0;
        if (s == "counters") {
            counters = true;
        } else if (s == "routers") {
            for (unsigned k = 0; k < routers; ++k) chosen_routers.insert(k);
        } else if (std::sscanf(s.c_str(), "router%u%c", &r, &tail) == 1) {
            if (r >= routers)
                throw sim::InputError(fmt::format("--vcd-signal {}: {}", s,
                                                  routers ? fmt::format("the network has routers 0..{}", routers - 1)
                                                          : std::string("no router network (memory.interconnect is not "
                                                                        "mesh or stacked)")));
            chosen_routers.insert(r);
        } else if (parse_warp(s, sm, warp)) {
            if (sm >= sms || warp >= static_cast<int64_t>(warps_per_sm))
                throw sim::InputError(fmt::format("--vcd-signal {}: the GPU has SMs 0..{} with warp slots 0..{}", s,
                                                  sms - 1, warps_per_sm - 1));
            for (uint32_t w = warp < 0 ? 0 : static_cast<uint32_t>(warp);
                 w < (warp < 0 ? warps_per_sm : static_cast<uint32_t>(warp) + 1); ++w)
                m_warps[{sm, w}] = {};
        } else {
            throw sim::InputError(fmt::format(
                "--vcd-signal {}: expected smN, smN.wM, counters, routers or routerK", s));
        }
    }
    for (auto& [key, sig] : m_warps) {
        const std::string scope = fmt::format("gpu.sm{}.w{}", key.first, key.second);
        sig.issue = m_vcd.add_bits(scope, "issue", 1);
        sig.pc = m_vcd.add_bits(scope, "pc", 32);
        sig.depth = m_vcd.add_bits(scope, "simt_depth", 8);
    }
    // Sampled signals: the sampler's counter series, then each chosen router's buffered flits.
    std::vector<std::pair<size_t, unsigned>> sampled;  // (series index, signal)
    if (counters)
        for (size_t i = 0; i < sampler.series().size(); ++i)
            if (sampler.series()[i].counter_track)
                sampled.push_back({i, m_vcd.add_real("gpu.counters", sampler.series()[i].name)});
    for (unsigned r : chosen_routers) {
        const noc::Router* router = &net->router(r);
        sampler.add_level({fmt::format("router{}_flits", r), "flits", false},
                          [router] { return static_cast<double>(router->buffered()); });
        sampled.push_back({sampler.series().size() - 1, m_vcd.add_bits(fmt::format("gpu.noc.router{}", r), "flits", 16)});
    }
    m_vcd.start();
    sampler.add_sink([this, sampled](uint64_t cycle, const std::vector<double>& values) {
        m_vcd.advance(cycle);
        for (auto [index, signal] : sampled) {
            const double v = values[index];
            if (!std::isfinite(v)) continue;
            if (m_vcd.is_real(signal))
                m_vcd.change_real(signal, cycle, v);
            else
                m_vcd.change(signal, cycle, static_cast<uint64_t>(v));
        }
    });
}

void VcdTrace::on_event(const core::SmEvent& e) {
    auto it = m_warps.find({e.sm, e.warp});
    if (it == m_warps.end()) return;
    m_vcd.advance(e.cycle);
    const WarpSignals& s = it->second;
    switch (e.kind) {
    case core::SmEventKind::Issue:
        m_vcd.change(s.issue, e.cycle, 1);
        m_vcd.change(s.issue, e.cycle + 1, 0);
        m_vcd.change(s.pc, e.cycle, e.pc);
        m_vcd.change(s.depth, e.cycle, e.depth);
        break;
    case core::SmEventKind::Diverge:
    case core::SmEventKind::Reconverge: m_vcd.change(s.depth, e.cycle, e.depth); break;
    case core::SmEventKind::WarpExit: m_vcd.change(s.depth, e.cycle, 0); break;
    default: break;
    }
}

}  // namespace stacksim::top
