// SPDX-License-Identifier: Apache-2.0
// kmeans workload (Rodinia KMEANS): n points of kFeatures floats around kClusters seeded
// centres; invert_mapping once, then per iteration kmeansPoint (block 256, grid ceil(n/256))
// and a host-side centroid update, until no membership changes or kMaxIters iterations.
#include <cmath>
#include <cstdint>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;
constexpr uint32_t kFeatures = 8, kClusters = 5, kMaxIters = 5;
constexpr uint32_t kMaxN = (1u << 31) / kFeatures;

/// Rodinia's host update: every centre becomes the mean of its members (unchanged if empty);
/// returns how many memberships differ from `old`.
uint32_t update_centres(const std::vector<float>& points, const std::vector<int32_t>& member,
                        const std::vector<int32_t>& old, std::vector<float>& centres) {
    std::vector<float> sum(centres.size(), 0.0f);
    std::vector<uint32_t> count(kClusters, 0);
    uint32_t changed = 0;
    for (size_t p = 0; p < member.size(); ++p) {
        changed += member[p] != old[p];
        const auto c = static_cast<size_t>(member[p]);
        if (c >= kClusters) continue;  // only a misbehaving device produces these
        ++count[c];
        for (size_t f = 0; f < kFeatures; ++f) sum[c * kFeatures + f] += points[p * kFeatures + f];
    }
    for (size_t c = 0; c < kClusters; ++c)
        if (count[c] > 0)
            for (size_t f = 0; f < kFeatures; ++f)
                centres[c * kFeatures + f] = sum[c * kFeatures + f] / static_cast<float>(count[c]);
    return changed;
}

class Kmeans final : public LibraryWorkload {
public:
    Kmeans(uint32_t n, uint64_t seed) : LibraryWorkload("kmeans.ptx"), m_n(n), m_points(size_t{n} * kFeatures) {
        const std::vector<float> truth = random_f32(kClusters * kFeatures, sub_seed(seed, 0), 0.0f, 10.0f);
        const std::vector<float> noise = random_f32(m_points.size(), sub_seed(seed, 1), -1.0f, 1.0f);
        SplitMix64 pick(sub_seed(seed, 2));
        for (size_t p = 0; p < n; ++p) {
            const size_t c = pick.next_below(kClusters);
            for (size_t f = 0; f < kFeatures; ++f)
                m_points[p * kFeatures + f] = truth[c * kFeatures + f] + noise[p * kFeatures + f];
        }
        // Rodinia starts from the first nclusters points (repeated when there are fewer points).
        for (size_t c = 0; c < kClusters; ++c)
            for (size_t f = 0; f < kFeatures; ++f) m_init.push_back(m_points[(c % n) * kFeatures + f]);
    }

    void execute(Device& dev) override {
        const DevPtr points = dev.upload(m_points), flipped = dev.alloc<float>(m_points.size());
        const DevPtr clusters = dev.alloc<float>(m_init.size()), member = dev.alloc<int32_t>(m_n);
        const Shape shape = linear(m_n, kBlock);
        const auto n = static_cast<int32_t>(m_n);
        dev.launch("invert_mapping", shape,
                   LaunchArgs().ptr(points).ptr(flipped).i32(n).i32(static_cast<int32_t>(kFeatures)));
        m_centres = m_init;
        std::vector<int32_t> old(m_n, -1);
        for (uint32_t it = 0; it < kMaxIters; ++it) {
            dev.copy_in(clusters, m_centres);
            dev.launch("kmeansPoint", shape,
                       LaunchArgs().ptr(flipped).i32(static_cast<int32_t>(kFeatures)).i32(n)
                           .i32(static_cast<int32_t>(kClusters)).ptr(member).ptr(clusters));
            dev.download(m_member, member);
            if (update_centres(m_points, m_member, old, m_centres) == 0) break;
            old = m_member;
        }
    }

    void compare(Checker& check) const override {
        std::vector<float> centres = m_init;
        std::vector<int32_t> member(m_n, -1), old(m_n, -1);
        for (uint32_t it = 0; it < kMaxIters; ++it) {
            for (size_t p = 0; p < m_n; ++p) {  // kmeansPoint: fma.rn.f32 over features, first minimum
                float best = 3.402823466e+38f;
                int32_t index = -1;
                for (size_t c = 0; c < kClusters; ++c) {
                    float ans = 0.0f;
                    for (size_t f = 0; f < kFeatures; ++f) {
                        const float d = m_points[p * kFeatures + f] - centres[c * kFeatures + f];
                        ans = std::fma(d, d, ans);
                    }
                    if (ans < best) best = ans, index = static_cast<int32_t>(c);
                }
                member[p] = index;
            }
            if (update_centres(m_points, member, old, centres) == 0) break;
            old = member;
        }
        check.exact_all("membership", m_member, member);
        check.near_all("centres", m_centres, centres);
    }

private:
    uint32_t m_n;
    std::vector<float> m_points, m_init, m_centres;
    std::vector<int32_t> m_member;
};

const bool registered = workload_registry().add(
    {"kmeans", "Rodinia KMEANS: nearest-centre assignment kernel plus host centroid update",
     WorkloadClass::RegularSharing, {"kmeans.ptx"}, {"points", 2048, kMaxN, 1,
       [](uint64_t n) { return 128 * n; }}},
    construct<Kmeans>);

}  // namespace

}  // namespace stacksim::workloads
