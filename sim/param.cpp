// SPDX-License-Identifier: Apache-2.0
// Config parameters declared once: reading a section and documenting it.
#include "sim/param.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace stacksim::sim {

void ParamSet::read(ConfigSection& s, void* cfg, const std::vector<std::string>& skip) const {
    for (auto& p : m_params)
        if (std::find(skip.begin(), skip.end(), p->key()) == skip.end()) p->read(s, cfg);
}

std::vector<SectionDoc> ParamSet::document(const std::string& path, const std::string& description, const void* cfg,
                                           const std::vector<std::string>& skip) const {
    std::vector<SectionDoc> out{SectionDoc{path, description, {}}};
    // Tables below this one are documented after it, whatever the declaration order.
    std::vector<SectionDoc> below;
    for (auto& p : m_params) {
        if (std::find(skip.begin(), skip.end(), p->key()) != skip.end()) continue;
        std::vector<SectionDoc> mine{SectionDoc{path, description, {}}};
        p->document(path, cfg, mine);
        for (auto& d : mine.front().params) out.front().params.push_back(std::move(d));
        for (size_t i = 1; i < mine.size(); ++i) below.push_back(std::move(mine[i]));
    }
    for (auto& b : below) out.push_back(std::move(b));
    return out;
}

std::string toml_text(bool v) { return v ? "true" : "false"; }
std::string toml_text(uint64_t v) { return std::to_string(v); }
std::string toml_text(int64_t v) { return std::to_string(v); }
std::string toml_text(double v) {
    std::string s = fmt::format("{}", v);
    if (std::isfinite(v) && s.find_first_of(".eEn") == std::string::npos) s += ".0";
    return s;
}
std::string toml_text(const std::string& v) { return "\"" + v + "\""; }

}  // namespace stacksim::sim
