// SPDX-License-Identifier: Apache-2.0
// The registry of plane routing functions.
#include "noc/routing.h"

namespace stacksim::noc {

RoutingRegistry& routing_functions() {
    static RoutingRegistry r("routing function", "network routing functions: the output port of a head flit at each router");
    return r;
}

}  // namespace stacksim::noc
