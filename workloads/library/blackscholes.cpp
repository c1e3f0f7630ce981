// SPDX-License-Identifier: Apache-2.0
// blackscholes workload (CUDA SDK BlackScholes): call and put prices of n options, two per
// thread (float2); block 128, grid ceil(ceil(n/2)/128). Odd n is padded with one option.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 128;  // the SDK's launch
constexpr uint32_t kMaxN = std::numeric_limits<int32_t>::max() - 1;
constexpr float kRiskFree = 0.02f, kVolatility = 0.30f;

/// The SFU instructions as the simulator computes them (correctly rounded libm values).
float rsqrt_approx(float x) { return static_cast<float>(1.0 / std::sqrt(double{x})); }

/// cndGPU in the PTX's operation order (__expf is ex2.approx of x * log2(e)).
float cnd(float d) {
    const float k = 1.0f / std::fma(std::fabs(d), 0.2316419f, 1.0f);
    const float e = std::exp2((d * (d * -0.5f)) * 1.44269502f) * 0.398942292f;
    float poly = std::fma(k, 1.330274429f, -1.821255978f);
    poly = std::fma(k, poly, 1.781477937f);
    poly = std::fma(k, poly, -0.356563782f);
    poly = std::fma(k, poly, 0.31938153f);
    const float c = e * (k * poly);
    return d > 0.0f ? 1.0f - c : c;
}

void body(float s, float x, float t, float& call, float& put) {
    const float sqrt_t = 1.0f / rsqrt_approx(t);
    const float log_sx = std::log2(s / x) * 0.693147182f;
    const float v_sqrt_t = sqrt_t * kVolatility;
    const float d1 = std::fma(std::fma(kVolatility * 0.5f, kVolatility, kRiskFree), t, log_sx) / v_sqrt_t;
    const float d2 = d1 - v_sqrt_t;
    const float cnd1 = cnd(d1), cnd2 = cnd(d2);
    const float x_exp = x * std::exp2((t * kRiskFree) * -1.44269502f);
    call = s * cnd1 - x_exp * cnd2;
    put = x_exp * (1.0f - cnd2) - s * (1.0f - cnd1);
}

class BlackScholes final : public LibraryWorkload {
public:
    BlackScholes(uint32_t n, uint64_t seed)
        : LibraryWorkload("blackscholes.ptx"),
          m_n(n),
          m_padded(n + (n & 1)),
          m_s(random_f32(m_padded, sub_seed(seed, 0), 5.0f, 30.0f)),  // the SDK's input ranges
          m_x(random_f32(m_padded, sub_seed(seed, 1), 1.0f, 100.0f)),
          m_t(random_f32(m_padded, sub_seed(seed, 2), 0.25f, 10.0f)) {}

    void execute(Device& dev) override {
        const DevPtr s = dev.upload(m_s), x = dev.upload(m_x), t = dev.upload(m_t);
        const DevPtr call = dev.alloc<float>(m_padded), put = dev.alloc<float>(m_padded);
        dev.launch("BlackScholesGPU", linear(m_padded / 2, kBlock),  // two options per thread
                   LaunchArgs().ptr(call).ptr(put).ptr(s).ptr(x).ptr(t).f32(kRiskFree).f32(kVolatility)
                       .i32(static_cast<int32_t>(m_padded)));
        dev.download(m_call, call);
        dev.download(m_put, put);
    }

    void compare(Checker& check) const override {
        for (size_t i = 0; i < m_n; ++i) {
            float call = 0.0f, put = 0.0f;
            body(m_s[i], m_x[i], m_t[i], call, put);
            check.near("call", i, m_call[i], call);
            check.near("put", i, m_put[i], put);
        }
    }

private:
    uint32_t m_n, m_padded;
    std::vector<float> m_s, m_x, m_t, m_call, m_put;
};

const bool registered = workload_registry().add(
    {"blackscholes", "CUDA SDK BlackScholes: call and put prices, two options per thread (SFU math)",
     WorkloadClass::Regular, {"blackscholes.ptx"}, {"options", 8192, kMaxN, 1,
       [](uint64_t n) { return 40 * n; }}},
    construct<BlackScholes>);

}  // namespace

}  // namespace stacksim::workloads
