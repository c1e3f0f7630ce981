// SPDX-License-Identifier: Apache-2.0
// backprop workload (Rodinia BACKPROP): one training step of an n-16-1 network; the forward
// kernel (grid (1, n/16), block (16,16)) makes per-block partial sums, the host finishes the
// layers and errors as Rodinia does, the adjust kernel (same grid) updates the input weights.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kHid = 16;  // hidden units = BP_WIDTH = BP_HEIGHT in backprop.cu
constexpr uint32_t kMaxN = (1u << 31) / (kHid + 1) - kHid;
constexpr float kEta = 0.3f, kMomentum = 0.3f, kTarget = 0.1f;

float squash(float x) { return static_cast<float>(1.0 / (1.0 + std::exp(-double{x}))); }

/// Rodinia's host part between the two kernels: hidden activations from the partial sums,
/// the output layer and its error, and the hidden deltas (index 0 unused).
std::vector<float> hidden_delta(const std::vector<float>& partial, const std::vector<float>& w_in,
                                const std::vector<float>& w_hid, size_t blocks) {
    std::vector<float> hidden(kHid + 1, 1.0f), delta(kHid + 1, 0.0f);
    for (size_t j = 1; j <= kHid; ++j) {
        float sum = 0.0f;
        for (size_t k = 0; k < blocks; ++k) sum += partial[k * kHid + j - 1];
        hidden[j] = squash(sum + w_in[j]);  // + input_weights[0][j]
    }
    float out_sum = 0.0f;
    for (size_t k = 0; k <= kHid; ++k) out_sum += w_hid[k] * hidden[k];
    const float out = squash(out_sum);
    const float out_delta = out * (1.0f - out) * (kTarget - out);
    for (size_t j = 1; j <= kHid; ++j) delta[j] = hidden[j] * (1.0f - hidden[j]) * (out_delta * w_hid[j]);
    return delta;
}

class Backprop final : public LibraryWorkload {
public:
    Backprop(uint32_t n, uint64_t seed)
        : LibraryWorkload("backprop.ptx"),
          m_in(n),
          m_input(random_f32(n + 1, sub_seed(seed, 0), 0.0f, 1.0f)),
          m_w(random_f32(size_t{n + 1} * (kHid + 1), sub_seed(seed, 1), 0.0f, 1.0f)),
          m_w_hid(random_f32(kHid + 1, sub_seed(seed, 2), 0.0f, 1.0f)) {}

    void execute(Device& dev) override {
        const uint32_t blocks = m_in / kHid;
        const DevPtr input = dev.upload(m_input), w = dev.upload(m_w);
        const DevPtr partial = dev.alloc<float>(uint64_t{blocks} * kHid);
        const Shape shape{Dim3{1, blocks, 1}, Dim3{kHid, kHid, 1}};  // one 16 x 16 block per 16 inputs
        const auto in = static_cast<int32_t>(m_in), hid = static_cast<int32_t>(kHid);
        dev.launch("bpnn_layerforward", shape, LaunchArgs().ptr(input).ptr(w).ptr(partial).i32(in).i32(hid));
        dev.download(m_partial, partial);
        const DevPtr delta = dev.upload(hidden_delta(m_partial, m_w, m_w_hid, blocks));
        const DevPtr oldw = dev.zeros<float>(m_w.size());  // Rodinia zeroes the previous weights
        dev.copy_in(w, m_w);                                // ... and re-uploads the weights
        dev.launch("bpnn_adjust_weights", shape, LaunchArgs().ptr(delta).i32(hid).ptr(input).i32(in).ptr(w).ptr(oldw));
        dev.download(m_w_out, w);
        dev.download(m_oldw_out, oldw);
    }

    void compare(Checker& check) const override {
        const size_t blocks = m_in / kHid, cols = kHid + 1;
        std::vector<float> partial(blocks * kHid), wm(kHid * kHid);
        for (size_t by = 0; by < blocks; ++by) {  // the forward kernel's tree, level by level
            for (size_t ty = 0; ty < kHid; ++ty)
                for (size_t tx = 0; tx < kHid; ++tx)
                    wm[ty * kHid + tx] = m_w[(by * kHid + ty + 1) * cols + tx + 1] * m_input[by * kHid + ty + 1];
            for (size_t p = 2; p <= kHid; p *= 2)
                for (size_t ty = 0; ty < kHid; ty += p)
                    for (size_t tx = 0; tx < kHid; ++tx) wm[ty * kHid + tx] += wm[(ty + p / 2) * kHid + tx];
            for (size_t j = 0; j < kHid; ++j) partial[by * kHid + j] = wm[j];
        }
        const std::vector<float> delta = hidden_delta(partial, m_w, m_w_hid, blocks);
        std::vector<float> w = m_w, oldw(w.size(), 0.0f);
        for (size_t r = 1; r <= m_in; ++r)  // x = fma(ETA*delta, ly, MOMENTUM*oldw), as nvcc emits it
            for (size_t c = 1; c <= kHid; ++c) {
                const float x = std::fma(kEta * delta[c], m_input[r], kMomentum * oldw[r * cols + c]);
                w[r * cols + c] += x;
                oldw[r * cols + c] = x;
            }
        for (size_t c = 1; c <= kHid; ++c) {
            const float x = std::fma(delta[c], kEta, kMomentum * oldw[c]);
            w[c] += x;
            oldw[c] = x;
        }
        check.near_all("partial_sum", m_partial, partial);
        check.near_all("w", m_w_out, w);
        check.near_all("oldw", m_oldw_out, oldw);
    }

private:
    uint32_t m_in;
    std::vector<float> m_input, m_w, m_w_hid, m_partial, m_w_out, m_oldw_out;
};

const bool registered = workload_registry().add(
    {"backprop", "Rodinia BACKPROP: forward partial sums and weight adjust of an N-16-1 network",
     WorkloadClass::RegularSharing, {"backprop.ptx"}, {"input units N (multiple of 16)", 1024, kMaxN, kHid,
       [](uint64_t n) { return 160 * n; }}},
    construct<Backprop>);

}  // namespace

}  // namespace stacksim::workloads
