// SPDX-License-Identifier: Apache-2.0
// mum workload (GPGPU-Sim ISPASS-2009 suite MUM, MUMmerGPU): n 25-base reads matched against
// the suffix tree of a 20 kbase reference (the suite's input sizes); the reference and the
// reads (reference substrings with 2 % of the bases changed) are seeded random. The tree is
// built on the host (Ukkonen's algorithm, with suffix links) and walked by the kernel.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;
constexpr uint32_t kRefLength = 20000, kReadLength = 25, kMinMatch = 20;
constexpr uint32_t kMutatePerMille = 20;
constexpr uint32_t kMaxN = 1u << 22;
constexpr char kBases[4] = {'A', 'C', 'G', 'T'};

int base_index(char c) { return c == 'A' ? 0 : c == 'C' ? 1 : c == 'G' ? 2 : c == 'T' ? 3 : 4; }

/// A suffix tree of text (ending in '$') by Ukkonen's algorithm. Node 0 is null, 1 the root;
/// an edge is text[start, end] (inclusive); leaves end at the '$'.
class SuffixTree {
public:
    explicit SuffixTree(const std::string& text) {
        new_node(0, 0, 0);    // null
        new_node(-1, -1, 0);  // root: no suffix link
        const int n = static_cast<int>(text.size());
        int active_node = 1, active_edge = 0, active_length = 0, remaining = 0;
        for (int i = 0; i < n; ++i) {
            m_leaf_end = i;
            ++remaining;
            int last_new = 0;  // internal node created in this phase, waiting for its link
            while (remaining > 0) {
                if (active_length == 0) active_edge = i;
                const int c = base_index(text[active_edge]);
                const int next = child(active_node, c);
                if (next == 0) {
                    m_child[active_node][c] = new_node(i, -1, 0);
                    if (last_new) m_link[last_new] = active_node, last_new = 0;
                } else {
                    const int len = edge_length(next);
                    if (active_length >= len) {  // walk down
                        active_edge += len;
                        active_length -= len;
                        active_node = next;
                        continue;
                    }
                    if (text[m_start[next] + active_length] == text[i]) {  // already there
                        if (last_new && active_node != 1) m_link[last_new] = active_node, last_new = 0;
                        ++active_length;
                        break;
                    }
                    const int split = new_node(m_start[next], m_start[next] + active_length - 1, 1);
                    m_child[active_node][c] = split;
                    m_child[split][base_index(text[i])] = new_node(i, -1, 0);
                    m_start[next] += active_length;
                    m_child[split][base_index(text[m_start[next]])] = next;
                    if (last_new) m_link[last_new] = split;
                    last_new = split;
                }
                --remaining;
                if (active_node == 1 && active_length > 0) {
                    --active_length;
                    active_edge = i - remaining + 1;
                } else if (active_node != 1) {
                    active_node = m_link[active_node];
                }
            }
        }
        for (size_t v = 2; v < m_end.size(); ++v)
            if (m_end[v] < 0) m_end[v] = n - 1;
    }

    int size() const { return static_cast<int>(m_start.size()); }
    int start(int v) const { return m_start[v]; }
    int end(int v) const { return m_end[v]; }
    int link(int v) const { return m_link[v]; }
    /// Child of v whose edge starts with base c (0..3; 4 = '$'), 0 if none.
    int child(int v, int c) const { return m_child[v][c]; }

private:
    /// `link`: 1 (the root) for an internal node until its link is set, 0 for leaves.
    int new_node(int start, int end, int link) {
        m_start.push_back(start);
        m_end.push_back(end);
        m_link.push_back(link);
        m_child.push_back({});
        return size() - 1;
    }
    int edge_length(int v) const { return (m_end[v] < 0 ? m_leaf_end : m_end[v]) - m_start[v] + 1; }

    int m_leaf_end = 0;
    std::vector<int> m_start, m_end, m_link;
    std::vector<std::array<int, 5>> m_child;
};

class Mum final : public LibraryWorkload {
public:
    Mum(uint32_t n, uint64_t seed) : LibraryWorkload("mum.ptx"), m_n(n) {
        SplitMix64 rng(sub_seed(seed, 0));
        for (uint32_t i = 0; i < kRefLength; ++i) m_ref.push_back(kBases[rng.next_below(4)]);
        m_ref.push_back('$');
        SplitMix64 reads(sub_seed(seed, 1));
        for (uint32_t q = 0; q < n; ++q) {
            m_addrs.push_back(static_cast<int32_t>(m_queries.size()));
            m_lengths.push_back(static_cast<int32_t>(kReadLength));
            const uint32_t at = reads.next_below(kRefLength - kReadLength + 1);
            m_queries.push_back('q');
            for (uint32_t k = 0; k < kReadLength; ++k) {
                char b = m_ref[at + k];
                if (reads.next_below(1000) < kMutatePerMille) b = kBases[(base_index(b) + 1 + reads.next_below(3)) % 4];
                m_queries.push_back(b);
            }
            m_queries.push_back('\0');
        }
    }

    void execute(Device& dev) override {
        const SuffixTree tree(m_ref);
        std::vector<int32_t> nodes, children;
        for (int v = 0; v < tree.size(); ++v) {
            nodes.insert(nodes.end(), {v > 1 ? tree.start(v) : 0, v > 1 ? tree.end(v) : 0, tree.link(v), 0});
            for (int c = 0; c < 4; ++c) children.push_back(tree.child(v, c));
        }
        const DevPtr d_nodes = dev.upload(nodes), d_children = dev.upload(children);
        const DevPtr d_ref = dev.upload(std::vector<char>(m_ref.begin(), m_ref.end()));
        const DevPtr d_queries = dev.upload(m_queries), d_addrs = dev.upload(m_addrs), d_lengths = dev.upload(m_lengths);
        const DevPtr d_results = dev.zeros<int32_t>(size_t{2} * m_n * (kReadLength - kMinMatch + 1));
        dev.launch("mummergpuKernel", linear(m_n, kBlock),
                   LaunchArgs().ptr(d_results).ptr(d_queries).ptr(d_addrs).ptr(d_lengths).i32(static_cast<int32_t>(m_n))
                       .i32(static_cast<int32_t>(kMinMatch)).ptr(d_nodes).ptr(d_children).ptr(d_ref));
        dev.download(m_results, d_results);
    }

    /// Independent of the kernel's suffix links: each position's longest match is found by
    /// walking down from the root; its end is (node, characters down the node's edge), or
    /// (node, 0) when it ends at a node none of whose edges continues the read.
    void compare(Checker& check) const override {
        const SuffixTree tree(m_ref);
        std::vector<int32_t> want;
        for (uint32_t q = 0; q < m_n; ++q) {
            const char* read = &m_queries[static_cast<size_t>(m_addrs[q]) + 1];
            for (uint32_t s = 0; s + kMinMatch <= kReadLength; ++s) {
                const uint32_t left = kReadLength - s;
                int node = 1, on_edge = 0;
                uint32_t k = 0;
                for (;;) {
                    if (k == left) break;  // read ended at a node: (node, its whole edge)
                    const int next = tree.child(node, base_index(read[s + k]));
                    if (next == 0) {
                        on_edge = 0;
                        break;
                    }
                    node = next;
                    on_edge = 0;
                    int pos = tree.start(node);
                    while (pos <= tree.end(node) && k < left && m_ref[pos] == read[s + k]) ++pos, ++k, ++on_edge;
                    if (pos <= tree.end(node)) break;  // mismatch or read end inside the edge
                }
                const bool found = k >= kMinMatch;
                want.push_back(found ? node : 0);
                want.push_back(found ? on_edge : 0);
            }
        }
        check.exact_all("match_coords", m_results, want);
    }

private:
    uint32_t m_n;
    std::string m_ref;
    std::vector<char> m_queries;
    std::vector<int32_t> m_addrs, m_lengths, m_results;
};

const bool registered = workload_registry().add(
    {"mum", "MUM (GPGPU-Sim suite, MUMmerGPU): 25-base reads matched on the suffix tree of a 20 kbase reference",
     WorkloadClass::Irregular, {"mum.ptx"}, {"reads", 50000, kMaxN, 1,
       [](uint64_t n) { return 3 * (27 + 8 + 48) * n + 64 * kRefLength; }}},
    construct<Mum>);

}  // namespace

}  // namespace stacksim::workloads
