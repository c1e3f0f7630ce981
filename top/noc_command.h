// SPDX-License-Identifier: Apache-2.0
// `stacksim noc`: open-loop synthetic-traffic runs of the VC router mesh.
#pragma once
#include <string>
#include <vector>

namespace stacksim::top {

/// `stacksim noc [CONFIG.toml] [--rate R | --rates a:b:step] [--pattern NAME] [--set k=v]...
/// [--out DIR]`; `args[0]` is "noc". Prints a table of rate, accepted throughput, latency and
/// hops; with --out writes DIR/curve.csv. Throws sim::InputError on bad input; returns 0.
int noc_command(const std::vector<std::string>& args);

}  // namespace stacksim::top
