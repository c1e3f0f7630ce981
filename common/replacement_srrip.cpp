// SPDX-License-Identifier: Apache-2.0
// SRRIP replacement (Jaleel et al., ISCA 2010): re-reference prediction values per line.
#include <vector>

#include "common/replacement_policy.h"

namespace stacksim::common {

namespace {

/// Parameters of SRRIP ([gpu.l1.srrip], [memory.l2.srrip]).
struct SrripParams {
    uint32_t rrpv_bits = 2;  ///< width of each line's re-reference prediction value
    static const sim::Params<SrripParams>& params() {
        static const auto p = [] {
            sim::Params<SrripParams> p;
            p.add("rrpv_bits", &SrripParams::rrpv_bits, "bits", "re-reference prediction value width (M)")
                .range(1, 8);
            return p;
        }();
        return p;
    }
};

/// Static RRIP with hit promotion: a filled line is predicted a long re-reference interval
/// (2^M - 2), a hit predicts a near one (0); the victim is the first line at the distant value
/// 2^M - 1, ageing every line of the set until one is. Scan-resistant where LRU is not.
class Srrip final : public ReplacementPolicy {
public:
    explicit Srrip(const SrripParams& p) : m_max(static_cast<uint8_t>((1u << p.rrpv_bits) - 1)) {}
    void reset(uint32_t sets, uint32_t ways) override {
        m_ways = ways;
        m_rrpv.assign(size_t{sets} * ways, m_max);
    }
    void touch(uint32_t set, uint32_t way) override { m_rrpv[size_t{set} * m_ways + way] = 0; }
    void insert(uint32_t set, uint32_t way) override {
        m_rrpv[size_t{set} * m_ways + way] = static_cast<uint8_t>(m_max > 1 ? m_max - 1 : 0);
    }
    void invalidate(uint32_t set, uint32_t way) override { m_rrpv[size_t{set} * m_ways + way] = m_max; }
    uint32_t victim(uint32_t set) override {
        uint8_t* r = &m_rrpv[size_t{set} * m_ways];
        for (;;) {
            for (uint32_t w = 0; w < m_ways; ++w)
                if (r[w] >= m_max) return w;
            for (uint32_t w = 0; w < m_ways; ++w) ++r[w];
        }
    }

private:
    uint8_t m_max;
    uint32_t m_ways = 0;
    std::vector<uint8_t> m_rrpv;
};

const bool registered = replacement_policies().add_with<SrripParams>(
    "srrip", "static re-reference interval prediction: fills predicted distant, hits near (scan resistant)",
    [](const SrripParams& p) { return std::make_unique<Srrip>(p); });

}  // namespace

}  // namespace stacksim::common
