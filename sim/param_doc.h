// SPDX-License-Identifier: Apache-2.0
// Documentation of declared config parameters: per section, rendered as text or Markdown.
#pragma once
#include <string>
#include <vector>

namespace stacksim::sim {

/// One parameter as the docs show it.
struct ParamDoc {
    std::string key;            ///< key within its section
    std::string type;           ///< integer, number, boolean, string, choice, policy
    std::string unit;           ///< cycles, bytes, MHz, ... (empty: none)
    std::string description;    ///< one line
    std::string allowed;        ///< "1..1024", "one of: lrr, gto", ... (empty: any value of the type)
    std::string default_value;  ///< TOML text
    std::string registry;       ///< kind of the registry its value names (empty: none)
};

/// One TOML table ([gpu.sm]) and its parameters.
struct SectionDoc {
    std::string path;
    std::string description;
    std::vector<ParamDoc> params;
};

/// Markdown: a heading and a table per section.
std::string to_markdown(const std::vector<SectionDoc>& sections);
/// Plain text: "[section]" lines, then "key = default  unit  description  (allowed)".
std::string to_text(const std::vector<SectionDoc>& sections);

}  // namespace stacksim::sim
