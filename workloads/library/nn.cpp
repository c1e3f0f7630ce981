// SPDX-License-Identifier: Apache-2.0
// nn workload (GPGPU-Sim ISPASS-2009 suite NN): a 4-layer convolutional network classifying n
// 29x29 images in parallel, one launch per layer; random images and weights stand in for the
// MNIST images and trained weights of the original.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kImage = 29 * 29, kMaps1 = 6, kSide1 = 13, kMaps2 = 50, kSide2 = 5;
constexpr uint32_t kL2 = kMaps1 * kSide1 * kSide1, kL3 = kMaps2 * kSide2 * kSide2;  // 1014, 1250
constexpr uint32_t kL4 = 100, kL5 = 10;
constexpr uint32_t kW1 = kMaps1 * 26, kW2 = kMaps2 * 26 * kMaps1, kW3 = kL4 * (kL3 + 1), kW4 = kL5 * (kL4 + 1);
constexpr uint32_t kMaxN = 65535;  // images are blockIdx.y

/// The float with IEEE bits `b` (the constants below are the PTX's literals).
float f32(uint32_t b) {
    float f;
    std::memcpy(&f, &b, sizeof f);
    return f;
}

/// nvcc 13's tanhf for sm_75 (exp2-based for |x| >= 0.6, an odd polynomial below), rounding
/// as its PTX does; ex2.approx and rcp.approx are exact-function values in the simulator.
float nvcc_tanhf(float x) {
    const float ax = std::fabs(x);
    const float r = 1.0f / (std::exp2(ax * f32(0x4038AA3B)) + 1.0f);
    const float big = std::copysign(ax >= f32(0x41102CB4) ? 1.0f : std::fma(r, -2.0f, 1.0f), x);
    const float x2 = x * x;
    float p = std::fma(f32(0x3C80F082), x2, f32(0xBD563CAE));
    p = std::fma(p, x2, f32(0x3E085941));
    p = std::fma(p, x2, f32(0xBEAAA9ED));
    p = std::fma(p, x2, 0.0f);
    p = std::fma(p, x, x);
    return ax >= f32(0x3F19999A) ? big : p;
}

/// 1.7159 tanh(2/3 x), the neurons' activation.
float activate(float x) { return nvcc_tanhf(x * f32(0x3F2AAAAB)) * f32(0x3FDBA29C); }

class Nn final : public LibraryWorkload {
public:
    Nn(uint32_t n, uint64_t seed)
        : LibraryWorkload("nn.ptx"), m_n(n), m_images(random_f32(size_t{kImage} * n, sub_seed(seed, 0), 0.0f, 1.0f)),
          m_w1(random_f32(kW1, sub_seed(seed, 1), -0.2f, 0.2f)), m_w2(random_f32(kW2, sub_seed(seed, 2), -0.1f, 0.1f)),
          m_w3(random_f32(kW3, sub_seed(seed, 3), -0.05f, 0.05f)), m_w4(random_f32(kW4, sub_seed(seed, 4), -0.2f, 0.2f)) {}

    void execute(Device& dev) override {
        const DevPtr l1 = dev.upload(m_images), w1 = dev.upload(m_w1), l2 = dev.alloc<float>(size_t{kL2} * m_n);
        const DevPtr w2 = dev.upload(m_w2), l3 = dev.alloc<float>(size_t{kL3} * m_n);
        const DevPtr w3 = dev.upload(m_w3), l4 = dev.alloc<float>(size_t{kL4} * m_n);
        const DevPtr w4 = dev.upload(m_w4), l5 = dev.alloc<float>(size_t{kL5} * m_n);
        dev.launch("executeFirstLayer", {Dim3{kMaps1, m_n, 1}, Dim3{kSide1, kSide1, 1}}, LaunchArgs().ptr(l1).ptr(w1).ptr(l2));
        dev.launch("executeSecondLayer", {Dim3{kMaps2, m_n, 1}, Dim3{kSide2, kSide2, 1}}, LaunchArgs().ptr(l2).ptr(w2).ptr(l3));
        dev.launch("executeThirdLayer", {Dim3{kL4, m_n, 1}, Dim3{1, 1, 1}}, LaunchArgs().ptr(l3).ptr(w3).ptr(l4));
        dev.launch("executeFourthLayer", {Dim3{kL5, m_n, 1}, Dim3{1, 1, 1}}, LaunchArgs().ptr(l4).ptr(w4).ptr(l5));
        dev.download(m_out, l5);
    }

    void compare(Checker& check) const override {
        std::vector<float> l2(size_t{kL2} * m_n), l3(size_t{kL3} * m_n), l4(size_t{kL4} * m_n), l5(size_t{kL5} * m_n);
        for (size_t img = 0; img < m_n; ++img) {
            const float* in1 = &m_images[img * kImage];
            for (uint32_t m = 0; m < kMaps1; ++m)
                for (uint32_t y = 0; y < kSide1; ++y)
                    for (uint32_t x = 0; x < kSide1; ++x) {
                        float acc = m_w1[m * 26];
                        for (uint32_t i = 0; i < 25; ++i)
                            acc = std::fma(in1[2 * y * 29 + 2 * x + i / 5 * 29 + i % 5], m_w1[m * 26 + 1 + i], acc);
                        l2[img * kL2 + m * 169 + y * 13 + x] = activate(acc);
                    }
            const float* in2 = &l2[img * kL2];
            for (uint32_t m = 0; m < kMaps2; ++m)
                for (uint32_t y = 0; y < kSide2; ++y)
                    for (uint32_t x = 0; x < kSide2; ++x) {
                        const size_t wb = size_t{m} * 156;
                        float acc = m_w2[wb];
                        for (uint32_t i = 0; i < 25; ++i)
                            for (uint32_t map = 0; map < kMaps1; ++map)
                                acc = std::fma(in2[169 * map + 2 * x + 13 * 2 * y + i / 5 * 13 + i % 5],
                                               m_w2[wb + 1 + i * 6 + map], acc);
                        l3[img * kL3 + m * 25 + y * 5 + x] = activate(acc);
                    }
            for (uint32_t o = 0; o < kL4; ++o) {
                float acc = m_w3[o * (kL3 + 1)];
                for (uint32_t i = 0; i < kL3; ++i) acc = std::fma(l3[img * kL3 + i], m_w3[o * (kL3 + 1) + 1 + i], acc);
                l4[img * kL4 + o] = activate(acc);
            }
            for (uint32_t o = 0; o < kL5; ++o) {
                float acc = m_w4[o * (kL4 + 1)];
                for (uint32_t i = 0; i < kL4; ++i) acc = std::fma(l4[img * kL4 + i], m_w4[o * (kL4 + 1) + 1 + i], acc);
                l5[img * kL5 + o] = activate(acc);
            }
        }
        check.near_all("layer5", m_out, l5);
    }

private:
    uint32_t m_n;
    std::vector<float> m_images, m_w1, m_w2, m_w3, m_w4, m_out;
};

const bool registered = workload_registry().add(
    {"nn", "NN (GPGPU-Sim suite): 4-layer convolutional network for 29x29 digit images, n images at once",
     WorkloadClass::Regular, {"nn.ptx"}, {"images", 28, kMaxN, 1,
       [](uint64_t n) { return 3 * 4 * (kImage + kL2 + kL3 + kL4 + kL5) * n + 8 * (kW1 + kW2 + kW3 + kW4); }}},
    construct<Nn>);

}  // namespace

}  // namespace stacksim::workloads
