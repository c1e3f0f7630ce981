// SPDX-License-Identifier: Apache-2.0
// stream workload: b = a over float4 elements with a grid-stride loop (memory bandwidth).
#include <algorithm>
#include <vector>

#include "workloads/library/common.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;

/// `copy`: b = a (read + write traffic); otherwise every thread sums its float4 elements
/// (read traffic only) and writes one partial sum.
class Stream final : public Workload {
public:
    Stream(uint32_t n, uint64_t seed, bool copy)
        : m_n(n), m_copy(copy), m_a(random_f32(uint64_t{n} * 4, sub_seed(seed, 0), -1.0f, 1.0f)) {}

    void run(HostApi& host) override {
        const DevPtr a = host.upload(m_a);
        const uint32_t grid = std::min<uint32_t>(ceil_div(m_n, kBlock), 1024);
        const size_t out_floats = m_copy ? m_a.size() : size_t{grid} * kBlock;
        const DevPtr b = host.malloc(out_floats * sizeof(float));
        host.launch("stream.ptx", m_copy ? "stream_copy" : "stream_read", Dim3{grid, 1, 1}, Dim3{kBlock, 1, 1},
                    LaunchArgs().ptr(a).ptr(b).i32(static_cast<int32_t>(m_n)));
        host.download(m_b, b, out_floats);
        host.free(a);
        host.free(b);
        m_ran = true;
    }

    VerifyResult verify() override {
        if (!m_ran) return not_run_result();
        Checker check;
        if (m_copy) {
            for (size_t i = 0; i < m_a.size(); ++i) check.exact("b", i, m_b[i], m_a[i]);
            return check.result();
        }
        const size_t threads = m_b.size();
        for (size_t t = 0; t < threads; ++t) {
            float s = 0.0f;
            for (size_t i = t; i < m_n; i += threads) s += ((m_a[4 * i] + m_a[4 * i + 1]) + m_a[4 * i + 2]) + m_a[4 * i + 3];
            check.near("sum", t, m_b[t], s);
        }
        return check.result();
    }

private:
    uint32_t m_n;
    bool m_copy;
    std::vector<float> m_a, m_b;
    bool m_ran = false;
};

}  // namespace

std::unique_ptr<Workload> make_stream(uint32_t size, uint64_t seed) {
    require_size("stream", size, 1u << 26);
    return std::make_unique<Stream>(size, seed, true);
}

std::unique_ptr<Workload> make_stream_read(uint32_t size, uint64_t seed) {
    require_size("stream_read", size, 1u << 26);
    return std::make_unique<Stream>(size, seed, false);
}

}  // namespace stacksim::workloads
