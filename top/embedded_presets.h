// SPDX-License-Identifier: Apache-2.0
// Configuration presets (configs/*.toml), embedded at build time.
#pragma once
#include <string_view>
#include <vector>

namespace stacksim::top {

/// One embedded preset file: its file name (e.g. "gtx980.toml") and text.
struct EmbeddedFile {
    std::string_view file_name;
    std::string_view text;
};

/// Every configs/*.toml, sorted by file name.
const std::vector<EmbeddedFile>& embedded_presets();

}  // namespace stacksim::top
