// SPDX-License-Identifier: Apache-2.0
// stream workload: b = a over float4 elements with a grid-stride loop (memory bandwidth).
#include <algorithm>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;

/// `copy`: b = a (read + write traffic); otherwise every thread sums its float4 elements
/// (read traffic only) and writes one partial sum.
class Stream final : public LibraryWorkload {
public:
    Stream(uint32_t n, uint64_t seed, bool copy)
        : LibraryWorkload("stream.ptx"),
          m_n(n),
          m_copy(copy),
          m_a(random_f32(uint64_t{n} * 4, sub_seed(seed, 0), -1.0f, 1.0f)) {}

    void execute(Device& dev) override {
        const DevPtr a = dev.upload(m_a);
        const Shape shape{Dim3{std::min<uint32_t>(ceil_div(m_n, kBlock), 1024), 1, 1}, Dim3{kBlock, 1, 1}};
        const DevPtr b = dev.alloc<float>(m_copy ? m_a.size() : shape.grid.count() * kBlock);
        dev.launch(m_copy ? "stream_copy" : "stream_read", shape,
                   LaunchArgs().ptr(a).ptr(b).i32(static_cast<int32_t>(m_n)));
        dev.download(m_b, b);
    }

    void compare(Checker& check) const override {
        if (m_copy) {
            check.exact_all("b", m_b, m_a);
            return;
        }
        const size_t threads = m_b.size();
        for (size_t t = 0; t < threads; ++t) {
            float s = 0.0f;
            for (size_t i = t; i < m_n; i += threads) s += ((m_a[4 * i] + m_a[4 * i + 1]) + m_a[4 * i + 2]) + m_a[4 * i + 3];
            check.near("sum", t, m_b[t], s);
        }
    }

private:
    uint32_t m_n;
    bool m_copy;
    std::vector<float> m_a, m_b;
};

const bool registered_copy = workload_registry().add(
    {"stream", "memory bandwidth microbenchmark: grid-stride float4 copy b = a", WorkloadClass::Regular,
     {"stream.ptx"},
     {"float4 elements", 262144, 1u << 26, 1,
       [](uint64_t n) { return 64 * n; }}},
    [](const WorkloadArgs& a) { return std::make_unique<Stream>(a.size, a.seed, true); });

const bool registered_read = workload_registry().add(
    {"stream_read", "memory bandwidth microbenchmark: grid-stride float4 reads, one sum per thread",
     WorkloadClass::Regular, {"stream.ptx"}, {"float4 elements", 262144, 1u << 26, 1,
       [](uint64_t n) { return 64 * n; }}},
    [](const WorkloadArgs& a) { return std::make_unique<Stream>(a.size, a.seed, false); });

}  // namespace

}  // namespace stacksim::workloads
