// SPDX-License-Identifier: Apache-2.0
// The registry of plane routing functions.
#include "noc/routing.h"

namespace stacksim::noc {

RoutingRegistry& routing_functions() {
    static RoutingRegistry r("routing function");
    return r;
}

}  // namespace stacksim::noc
