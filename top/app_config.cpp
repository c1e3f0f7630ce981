// SPDX-License-Identifier: Apache-2.0
// One application of a multi-application run ([[app]] tables, or --app on the command line).
#include "top/app_config.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

#include "sim/error.h"
#include "workloads/workload_registry.h"

namespace stacksim::top {

const sim::Params<AppConfig>& AppConfig::params() {
    using C = AppConfig;
    static const auto p = [] {
        sim::Params<C> p;
        p.policy("workload", &C::workload, workloads::workload_registry(),
                 "the application's workload (stacksim list); its parameters are the table named after it",
                 sim::PolicyParamsAt::Root);
        p.add("size", &C::size, "", "problem size; 0 = the workload's default").range(0, kMaxAppSize);
        p.add("seed", &C::seed, "", "seed of its inputs; 0 = run.seed + the application's index");
        p.add("start_us", &C::start_us, "us", "simulated time its host program starts").range(0.0, 1e9);
        p.add("priority", &C::priority, "", "priority of its kernels; a kernel may preempt kernels of lower priority")
            .range(-1000, 1000);
        p.add("launch_latency_us", &C::launch_latency_us, "us",
              "its kernels' launch latency; negative = host.launch_latency_us")
            .check([](double v) { return v < 0.0 || v <= 100000.0; }, "negative or 0..100000");
        p.add("idempotent", &C::idempotent, "",
              "may its kernels' CTAs be flushed on preemption: auto = as the PTX/trace analysis finds, yes, no")
            .names({{"auto", host::Idempotence::Auto}, {"yes", host::Idempotence::Yes}, {"no", host::Idempotence::No}});
        return p;
    }();
    return p;
}

std::vector<AppConfig> read_app_configs(sim::ConfigDoc& doc) {
    const size_t n = doc.tables_in("app");
    if (n > kMaxApplications)
        throw sim::ConfigError(fmt::format("{}: {} [[app]] tables, at most {} applications", doc.source_name(), n,
                                           kMaxApplications));
    std::vector<AppConfig> apps(n);
    for (size_t i = 0; i < apps.size(); ++i)
        AppConfig::params().read_into(doc.section(fmt::format("app[{}]", i)), apps[i]);
    return apps;
}

namespace {

/// "25us" / "3ms" / "500ns" / "25" (us) -> microseconds.
double parse_start(const std::string& spec, const std::string& text) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    const std::string unit(end);
    double scale = 1.0;
    if (unit == "ns") scale = 1e-3;
    else if (unit == "ms") scale = 1e3;
    else if (unit == "s") scale = 1e6;
    else if (!unit.empty() && unit != "us")
        throw sim::InputError(fmt::format("--app {}: start '{}' needs a unit ns, us, ms or s", spec, text));
    if (end == text.c_str() || !std::isfinite(v) || v < 0)
        throw sim::InputError(fmt::format("--app {}: start '{}' is not a time >= 0", spec, text));
    return v * scale;
}

bool all_digits(const std::string& s, bool sign = false) {
    size_t i = sign && !s.empty() && s[0] == '-' ? 1 : 0;
    return s.size() > i && s.size() <= 9 && s.find_first_not_of("0123456789", i) == std::string::npos;
}

}  // namespace

void add_app_specs(sim::ConfigDoc& doc, const std::vector<std::string>& specs) {
    if (doc.tables_in("app") + specs.size() > kMaxApplications)
        throw sim::InputError(fmt::format("--app: {} applications, at most {} ([[app]] tables and --app together)",
                                          doc.tables_in("app") + specs.size(), kMaxApplications));
    for (const std::string& spec : specs) {
        const std::string origin = "--app " + spec;
        std::string rest = spec, priority, start, size;
        bool has_priority = false, has_start = false, has_size = false;
        if (auto c = rest.find('^'); c != std::string::npos)
            priority = rest.substr(c + 1), rest.resize(c), has_priority = true;
        if (auto c = rest.find('@'); c != std::string::npos) start = rest.substr(c + 1), rest.resize(c), has_start = true;
        if (auto c = rest.find(':'); c != std::string::npos) size = rest.substr(c + 1), rest.resize(c), has_size = true;
        if (rest.empty() || !workloads::workload_registry().contains(rest))
            throw sim::InputError(fmt::format("{}: unknown workload '{}' (stacksim list)", origin, rest));
        // "vecadd:" / "vecadd@" / "vecadd^" say something is given: an empty part is an error.
        if (has_size && size.empty()) throw sim::InputError(fmt::format("{}: the size after ':' is empty", origin));
        if (has_start && start.empty()) throw sim::InputError(fmt::format("{}: the start after '@' is empty", origin));
        if (has_priority && priority.empty())
            throw sim::InputError(fmt::format("{}: the priority after '^' is empty", origin));
        if (!size.empty()) {
            if (size.find_first_not_of("0123456789") != std::string::npos || size.size() > 18 || std::stoull(size) == 0)
                throw sim::InputError(fmt::format("{}: size '{}' is not a positive integer", origin, size));
            if (std::stoull(size) > kMaxAppSize)
                throw sim::InputError(fmt::format("{}: size {} is over the limit of {} (app.size)", origin, size,
                                                  kMaxAppSize));
        }
        if (!priority.empty() && !all_digits(priority, true))
            throw sim::InputError(fmt::format("{}: priority '{}' is not an integer", origin, priority));
        const size_t i = doc.append_table("app");
        const std::string at = fmt::format("app[{}].", i);
        doc.apply_override(at + "workload=\"" + rest + "\"", origin);
        if (!size.empty()) doc.apply_override(at + "size=" + size, origin);
        if (!start.empty()) doc.apply_override(at + fmt::format("start_us={}", parse_start(spec, start)), origin);
        if (!priority.empty()) doc.apply_override(at + "priority=" + priority, origin);
    }
}

std::vector<sim::SectionDoc> app_config_docs() {
    const AppConfig defaults;
    auto docs = AppConfig::params().document(
        "[app]",
        "one application of a multi-application run, a table each ([[app]]; or --app NAME[:SIZE][@START][^PRIORITY]); "
        "at most 64 (kMaxApplications); none: one application from [run]",
        &defaults);
    // Workload parameter tables are documented with [run].
    docs.resize(1);
    return docs;
}

}  // namespace stacksim::top
