// SPDX-License-Identifier: Apache-2.0
// stream workload: b = a over float4 elements with a grid-stride loop (memory bandwidth).
#include <algorithm>
#include <vector>

#include "workloads/library/common.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;

class Stream final : public Workload {
public:
    Stream(uint32_t n, uint64_t seed) : m_n(n), m_a(random_f32(uint64_t{n} * 4, sub_seed(seed, 0), -1.0f, 1.0f)) {}

    void run(HostApi& host) override {
        const DevPtr a = host.upload(m_a);
        const DevPtr b = host.malloc(m_a.size() * sizeof(float));
        const uint32_t grid = std::min<uint32_t>(ceil_div(m_n, kBlock), 1024);
        host.launch("stream.ptx", "stream_copy", Dim3{grid, 1, 1}, Dim3{kBlock, 1, 1},
                    LaunchArgs().ptr(a).ptr(b).i32(static_cast<int32_t>(m_n)));
        m_b.assign(m_a.size(), 0.0f);
        host.download(m_b, b);
        host.free(a);
        host.free(b);
        m_ran = true;
    }

    VerifyResult verify() override {
        if (!m_ran) return not_run_result();
        Checker check;
        for (size_t i = 0; i < m_a.size(); ++i) check.exact("b", i, m_b[i], m_a[i]);
        return check.result();
    }

private:
    uint32_t m_n;
    std::vector<float> m_a, m_b;
    bool m_ran = false;
};

}  // namespace

std::unique_ptr<Workload> make_stream(uint32_t size, uint64_t seed) {
    require_size("stream", size, 1u << 26);
    return std::make_unique<Stream>(size, seed);
}

}  // namespace stacksim::workloads
