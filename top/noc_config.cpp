// SPDX-License-Identifier: Apache-2.0
// The configuration of `stacksim noc`, read through each part's declared parameters.
#include "top/noc_config.h"

namespace stacksim::top {

NocRunConfig read_noc_config(sim::ConfigDoc& doc, const std::string& pattern) {
    NocRunConfig c;
    noc::NetworkConfig::params().read_into(doc.section("noc"), c.net);
    auto traffic = doc.section("traffic");
    noc::TrafficConfig::params().read_into(traffic, c.traffic);
    noc::MeasureConfig::params().read_into(traffic, c.measure);
    if (!pattern.empty()) c.traffic.pattern = pattern;
    struct Check {
        const NocRunConfig& c;
        void validate() const { c.traffic.validate(c.net.width, c.net.height, c.net.memory_terminals()); }
    };
    sim::validate_in(traffic, Check{c});
    noc::ReplayConfig::params().read_into(doc.section("trace"), c.replay);
    doc.check_all_used();
    return c;
}

std::vector<sim::SectionDoc> noc_config_docs() {
    const NocRunConfig d;
    std::vector<sim::SectionDoc> out = noc::NetworkConfig::params().document(
        "noc", "the router network (mesh, concentrated mesh or the 2.5D stacked system); cycles are router cycles",
        &d.net);
    auto traffic = noc::TrafficConfig::params().document("traffic", "synthetic traffic and its measurement", &d.traffic);
    auto measure = noc::MeasureConfig::params().document("traffic", "", &d.measure);
    for (auto& p : measure.front().params) traffic.front().params.push_back(std::move(p));
    out.insert(out.end(), traffic.begin(), traffic.end());
    auto trace = noc::ReplayConfig::params().document("trace", "Netrace replay (stacksim noc --trace)", &d.replay);
    out.insert(out.end(), trace.begin(), trace.end());
    return out;
}

}  // namespace stacksim::top
