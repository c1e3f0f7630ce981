// SPDX-License-Identifier: Apache-2.0
// Documentation of declared config parameters: per section, rendered as text or Markdown.
#include "sim/param_doc.h"

#include <fmt/format.h>

namespace stacksim::sim {

namespace {
std::string cell(const std::string& s) {
    std::string out;
    for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}
}  // namespace

std::string to_markdown(const std::vector<SectionDoc>& sections) {
    std::string out;
    for (const auto& s : sections) {
        if (s.params.empty()) continue;
        out += fmt::format("### `[{}]`\n", s.path);
        if (!s.description.empty()) out += "\n" + s.description + "\n";
        out += "\n| key | default | unit | meaning | allowed |\n|---|---|---|---|---|\n";
        for (const auto& p : s.params)
            out += fmt::format("| `{}` | `{}` | {} | {} | {} |\n", p.key, cell(p.default_value), cell(p.unit),
                               cell(p.description), cell(p.allowed));
        out += "\n";
    }
    return out;
}

std::string to_text(const std::vector<SectionDoc>& sections) {
    std::string out;
    for (const auto& s : sections) {
        if (s.params.empty()) continue;
        out += fmt::format("[{}]{}\n", s.path, s.description.empty() ? "" : "  # " + s.description);
        for (const auto& p : s.params) {
            std::string lhs = p.key + " = " + p.default_value;
            std::string rhs = p.description;
            if (!p.unit.empty()) rhs += " [" + p.unit + "]";
            if (!p.allowed.empty()) rhs += " (" + p.allowed + ")";
            out += fmt::format("  {:<38} {}\n", lhs, rhs);
        }
        out += "\n";
    }
    return out;
}

}  // namespace stacksim::sim
