// SPDX-License-Identifier: Apache-2.0
// Per-warp SIMT reconvergence stack (immediate post-dominator reconvergence).
#pragma once
#include <cstdint>
#include <vector>

#include "core/instruction.h"

namespace stacksim::core {

/// rpc of the entry that runs a device function (pushed by `call`): it never reconverges by
/// pc and leaves the stack when its lanes have all returned (ret) or exited.
constexpr uint32_t kCallReturn = 0xFFFFFFFEu;

/// One stack entry: the warp executes `pc` with `mask` until `pc` reaches `rpc`.
struct SimtEntry {
    uint32_t pc;
    uint32_t rpc;   ///< reconvergence PC (kNoTarget: reconverge only at exit)
    uint32_t mask;  ///< active lanes
};

/// The textbook SIMT stack (SPEC §1, 003 §3.3.2). On a divergent branch the top entry becomes
/// the reconvergence entry (pc = reconvergence PC) and the two sides are pushed, the taken side
/// first so that the fall-through side runs first; a side with an empty mask, or one that starts
/// at the reconvergence PC, is not pushed. An entry is popped when its pc reaches its rpc.
class SimtStack {
public:
    /// Starts a warp at `pc` with lanes `mask`.
    void reset(uint32_t pc, uint32_t mask);
    bool empty() const { return m_entries.empty(); }
    uint32_t pc() const { return m_entries.back().pc; }
    uint32_t mask() const { return m_entries.back().mask; }
    size_t depth() const { return m_entries.size(); }
    const std::vector<SimtEntry>& entries() const { return m_entries; }

    /// The top entry executed a non-control instruction: continue at `next_pc`.
    void advance(uint32_t next_pc);
    /// The top entry executed a branch at `pc` to `target` with reconvergence `rpc`;
    /// `taken` are the active lanes that take it. Returns true if the warp diverged.
    bool branch(uint32_t pc, uint32_t target, uint32_t rpc, uint32_t taken);
    /// Lanes `exited` finished: removed from every entry; emptied entries are popped.
    void exit(uint32_t exited);
    /// `call` at `pc`: the current entry continues at pc + 1 once the call returns; `redo`
    /// lanes (an indirect call's lanes with another target) execute the call again first;
    /// `callee` lanes run from `target` in a new call entry.
    void call(uint32_t pc, uint32_t target, uint32_t redo, uint32_t callee);
    /// `ret` by `lanes`: removed from the entries of the innermost call (its call entry
    /// included); emptied entries are popped.
    void ret(uint32_t lanes);
    /// Call entries on the stack (calls in progress).
    size_t call_depth() const;

private:
    void pop_reconverged();
    std::vector<SimtEntry> m_entries;
};

}  // namespace stacksim::core
