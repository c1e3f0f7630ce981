// SPDX-License-Identifier: Apache-2.0
// The few lines a CUDA program's run prints at its end, from the run's summary.json.
#include "cudart/summary_text.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace stacksim::cudart {

std::string summary_text(const std::string& summary_json, const std::string& results_dir) {
    const nlohmann::json s = nlohmann::json::parse(summary_json, nullptr, false);
    if (s.is_discarded() || !s.is_object()) return "";
    std::string out = fmt::format("stacksim: {} on {}: {} kernels, {} cycles ({} in kernels), {} warp instructions\n",
                                  s.value("workload", nlohmann::json::object()).value("name", "?"),
                                  s.value("config", "?"), s.value("kernels", nlohmann::json::array()).size(),
                                  s.value("cycles", uint64_t{0}), s.value("kernel_cycles", uint64_t{0}),
                                  s.value("warp_instructions", uint64_t{0}));
    size_t shown = 0;
    for (const auto& k : s.value("kernels", nlohmann::json::array())) {
        if (++shown > 20) {
            out += "  ...\n";
            break;
        }
        out += fmt::format("  {:<32} {:>8} CTAs {:>12} cycles  IPC {:.3f}\n", k.value("name", "?"),
                           k.value("ctas", uint64_t{0}), k.value("cycles", uint64_t{0}), k.value("ipc", 0.0));
    }
    out += fmt::format("  {:.2f} us simulated, of which {:.2f} us PCIe copies\n",
                       s.value("simulated_seconds", 0.0) * 1e6, s.value("copy_seconds", 0.0) * 1e6);
    if (!results_dir.empty()) out += fmt::format("  results written to {}/\n", results_dir);
    return out;
}

}  // namespace stacksim::cudart
