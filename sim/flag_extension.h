// SPDX-License-Identifier: Apache-2.0
// A TLM extension whose presence on a payload states one fact (a page-table read, lost locality).
#pragma once
#include <tlm>

namespace stacksim::sim {

/// A field-less extension: a payload carries it or not. `Tag` makes each use its own
/// extension type (declare `struct XTag; using X = sim::FlagExtension<XTag>;` in the folder
/// that owns the fact). set() attaches it with set_auto_extension, so it lives until the
/// payload's last release (the payload must come from a memory manager such as PayloadPool,
/// whose free() drops it); a payload from the pool never carries it.
template <typename Tag>
class FlagExtension : public tlm::tlm_extension<FlagExtension<Tag>> {
public:
    /// Marks `p` (idempotent).
    static void set(tlm::tlm_generic_payload& p) {
        if (!is_set(p)) p.set_auto_extension(new FlagExtension);
    }
    static bool is_set(const tlm::tlm_generic_payload& p) { return p.get_extension<FlagExtension>() != nullptr; }

    tlm::tlm_extension_base* clone() const override { return new FlagExtension; }
    void copy_from(const tlm::tlm_extension_base&) override {}
};

}  // namespace stacksim::sim
