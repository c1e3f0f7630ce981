// SPDX-License-Identifier: Apache-2.0
#include "core/register_pressure.h"

#include <algorithm>
#include <vector>

#include "core/reconvergence.h"

namespace stacksim::core {

namespace {

using Bits = std::vector<uint64_t>;

bool test(const Bits& b, uint16_t r) { return (b[r >> 6] >> (r & 63)) & 1; }
void set(Bits& b, uint16_t r) { b[r >> 6] |= uint64_t{1} << (r & 63); }
void clear(Bits& b, uint16_t r) { b[r >> 6] &= ~(uint64_t{1} << (r & 63)); }

uint32_t slots(DataType t) {
    if (t == DataType::Pred) return 0;
    return type_bytes(t) > 4 ? 2 : 1;
}

// Backward transfer over one instruction: writes die (unless guarded: the old value may
// survive), reads become live.
void step(const Instruction& in, Bits& live) {
    if (in.guard == kNoReg)
        for (unsigned i = 0; i < in.num_writes; ++i) clear(live, in.writes[i]);
    for (unsigned i = 0; i < in.num_reads; ++i) set(live, in.reads[i]);
}

}  // namespace

uint32_t max_live_registers(const Kernel& k) {
    if (k.code.empty() || k.num_regs == 0) return 0;
    const ControlFlowGraph cfg = build_cfg(k);
    const size_t nb = cfg.start.size(), words = (k.num_regs + 63) / 64;
    auto block_end = [&](size_t b) { return b + 1 < nb ? cfg.start[b + 1] : static_cast<uint32_t>(k.code.size()); };
    std::vector<Bits> live_in(nb, Bits(words, 0));
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t b = nb; b-- > 0;) {
            Bits live(words, 0);
            for (uint32_t s : cfg.succ[b])
                for (size_t w = 0; w < words; ++w) live[w] |= live_in[s][w];
            for (uint32_t i = block_end(b); i-- > cfg.start[b];) step(k.code[i], live);
            if (live != live_in[b]) {
                live_in[b] = std::move(live);
                changed = true;
            }
        }
    }
    auto width = [&](const Bits& live) {
        uint32_t n = 0;
        for (uint32_t r = 0; r < k.num_regs; ++r)
            if (test(live, static_cast<uint16_t>(r)))
                n += r < k.reg_types.size() ? slots(k.reg_types[r]) : 1;
        return n;
    };
    uint32_t best = 0;
    for (size_t b = 0; b < nb; ++b) {
        Bits live(words, 0);
        for (uint32_t s : cfg.succ[b])
            for (size_t w = 0; w < words; ++w) live[w] |= live_in[s][w];
        best = std::max(best, width(live));
        for (uint32_t i = block_end(b); i-- > cfg.start[b];) {
            // Live across the instruction: its results and everything live after it.
            Bits across = live;
            for (unsigned w = 0; w < k.code[i].num_writes; ++w) set(across, k.code[i].writes[w]);
            best = std::max(best, width(across));
            step(k.code[i], live);
        }
    }
    return best;
}

}  // namespace stacksim::core
