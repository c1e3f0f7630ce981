// SPDX-License-Identifier: Apache-2.0
// Leveled logging to stderr through fmt.
#pragma once
#include <cstdio>
#include <string>

#include <fmt/format.h>

namespace stacksim::sim {

enum class LogLevel { Error = 0, Warn = 1, Info = 2, Debug = 3 };

/// Messages above this level are dropped (default Warn; `--verbose` raises it).
LogLevel& log_level();

template <typename... A> void log(LogLevel level, fmt::format_string<A...> f, A&&... args) {
    if (level > log_level()) return;
    static const char* const tags[] = {"error", "warning", "info", "debug"};
    std::string line = fmt::format(f, std::forward<A>(args)...);
    std::fprintf(stderr, "stacksim: %s: %s\n", tags[static_cast<int>(level)], line.c_str());
}

}  // namespace stacksim::sim
