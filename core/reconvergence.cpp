// SPDX-License-Identifier: Apache-2.0
// Immediate post-dominator analysis: the reconvergence PC of every branch.
#include "core/reconvergence.h"

#include <algorithm>

namespace stacksim::core {

ControlFlowGraph build_cfg(const Kernel& k) {
    ControlFlowGraph g;
    const uint32_t n = static_cast<uint32_t>(k.code.size());
    std::vector<bool> leader(n + 1, false);
    if (n) leader[0] = true;
    for (uint32_t i = 0; i < n; ++i) {
        const Instruction& in = k.code[i];
        ControlKind c = in.control();
        if (c == ControlKind::Branch || c == ControlKind::Exit || c == ControlKind::Return) {
            leader[i + 1] = true;
            if (c == ControlKind::Branch && in.target < n) leader[in.target] = true;
        }
    }
    g.block_of.assign(n, 0);
    for (uint32_t i = 0; i < n; ++i) {
        if (leader[i]) g.start.push_back(i);
        g.block_of[i] = static_cast<uint32_t>(g.start.size() - 1);
    }
    const uint32_t nb = static_cast<uint32_t>(g.start.size());
    g.succ.assign(nb, {});
    for (uint32_t b = 0; b < nb; ++b) {
        uint32_t end = b + 1 < nb ? g.start[b + 1] : n;
        const Instruction& last = k.code[end - 1];
        ControlKind c = last.control();
        bool unconditional = last.guard == kNoReg;
        if ((c == ControlKind::Exit || c == ControlKind::Return) && unconditional) continue;
        if (c == ControlKind::Branch && last.target < n) g.succ[b].push_back(g.block_of[last.target]);
        bool falls = !(c == ControlKind::Branch && unconditional);
        if (falls && end < n && std::find(g.succ[b].begin(), g.succ[b].end(), g.block_of[end]) == g.succ[b].end())
            g.succ[b].push_back(g.block_of[end]);
    }
    return g;
}

std::vector<int32_t> immediate_post_dominators(const ControlFlowGraph& g) {
    // Iterative data-flow on post-dominator sets over the reverse graph, with a virtual exit
    // node (id nb) that every block without successors (or falling off the end) reaches.
    const size_t nb = g.succ.size();
    const size_t exit = nb;
    const size_t words = (nb + 1 + 63) / 64;
    using Set = std::vector<uint64_t>;
    auto set_bit = [](Set& s, size_t i) { s[i / 64] |= uint64_t{1} << (i % 64); };
    auto has = [](const Set& s, size_t i) { return (s[i / 64] >> (i % 64)) & 1; };
    std::vector<std::vector<size_t>> succ(nb);
    for (size_t b = 0; b < nb; ++b) {
        for (uint32_t s : g.succ[b]) succ[b].push_back(s);
        if (succ[b].empty()) succ[b].push_back(exit);
    }
    std::vector<Set> pdom(nb + 1, Set(words, ~uint64_t{0}));
    pdom[exit].assign(words, 0);
    set_bit(pdom[exit], exit);
    bool changed = true;
    while (changed) {
        changed = false;
        for (size_t bi = nb; bi-- > 0;) {
            Set meet(words, ~uint64_t{0});
            for (size_t s : succ[bi])
                for (size_t w = 0; w < words; ++w) meet[w] &= pdom[s][w];
            set_bit(meet, bi);
            if (meet != pdom[bi]) {
                pdom[bi] = std::move(meet);
                changed = true;
            }
        }
    }
    // The immediate post-dominator of b is the strict post-dominator d that every other
    // strict post-dominator of b also post-dominates; i.e. the one with the largest set.
    std::vector<int32_t> ipdom(nb, -1);
    for (size_t b = 0; b < nb; ++b) {
        size_t best = exit;
        size_t best_size = 0;
        for (size_t d = 0; d < nb; ++d) {
            if (d == b || !has(pdom[b], d)) continue;
            size_t size = 0;
            for (size_t w = 0; w < words; ++w) size += static_cast<size_t>(__builtin_popcountll(pdom[d][w]));
            if (size > best_size) {
                best_size = size;
                best = d;
            }
        }
        ipdom[b] = best == exit ? -1 : static_cast<int32_t>(best);
    }
    return ipdom;
}

void compute_reconvergence(Kernel& k) {
    if (k.code.empty()) return;
    ControlFlowGraph g = build_cfg(k);
    std::vector<int32_t> ipdom = immediate_post_dominators(g);
    for (uint32_t i = 0; i < k.code.size(); ++i) {
        Instruction& in = k.code[i];
        if (in.control() != ControlKind::Branch) continue;
        int32_t d = ipdom[g.block_of[i]];
        in.reconv_pc = d < 0 ? kNoTarget : g.start[static_cast<size_t>(d)];
    }
}

}  // namespace stacksim::core
