// SPDX-License-Identifier: Apache-2.0
// Declared parameters of the address map.
#include "common/address_map.h"

namespace stacksim::common {

const sim::Params<AddressMap>& AddressMap::params() {
    using C = AddressMap;
    static const auto p = [] {
        sim::Params<C> p;
        p.add("partitions", &C::partitions, "partitions", "memory partitions (an L2 slice and a DRAM channel each)")
            .range(1, 256);
        p.add("interleave_bytes", &C::interleave_bytes, "bytes", "consecutive bytes mapped to one partition")
            .range(32, 1u << 30)
            .power_of_two();
        p.add("xor_hash", &C::xor_hash, "", "XOR the partition index with higher address bits");
        return p;
    }();
    return p;
}

}  // namespace stacksim::common
