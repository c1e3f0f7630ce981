// SPDX-License-Identifier: Apache-2.0
// Fuzz target: applications from [[app]] tables, --app specs and --set app[N].KEY=VALUE together.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/error.h"
#include "tests/fuzz/fuzz_input.h"
#include "top/app_config.h"
#include "top/run_config.h"

// Input lines starting "--app " are --app specs, "--set " overrides (applied in that order,
// as `stacksim run` does); the other lines are a TOML config (its [[app]] tables). Anything but
// an InputError escaping is a finding; so is a run with more applications than were given
// (the phantom applications of issue 24).
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string toml;
    std::vector<std::string> apps, sets;
    std::string line;
    for (size_t i = 0; i <= size; ++i) {
        if (i < size && data[i] != '\n') {
            line += static_cast<char>(data[i]);
            continue;
        }
        if (line.rfind("--app ", 0) == 0)
            apps.push_back(line.substr(6));
        else if (line.rfind("--set ", 0) == 0)
            sets.push_back(line.substr(6));
        else
            toml += line + "\n";
        line.clear();
    }
    if (apps.size() + sets.size() > 256) return 0;
    try {
        stacksim::sim::ConfigDoc doc = stacksim::sim::ConfigDoc::from_string(toml, "fuzz.toml");
        const size_t tables = doc.tables_in("app");
        stacksim::top::add_app_specs(doc, apps);
        for (const auto& s : sets) doc.apply_override(s);
        const stacksim::top::RunConfig cfg = stacksim::top::read_run_config(doc);
        if (cfg.apps.size() != tables + apps.size()) __builtin_trap();  // an application nobody gave
        if (cfg.apps.size() > stacksim::top::kMaxApplications) __builtin_trap();
    } catch (const stacksim::sim::InputError&) {
    }
    return 0;
}
