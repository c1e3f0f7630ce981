// SPDX-License-Identifier: Apache-2.0
// Runs the stacksim executable as a user would and captures its output and exit code.
#pragma once
#include <string>
#include <vector>

namespace stacksim::test {

struct CliResult {
    int exit_code = -1;
    std::string output;  ///< stdout and stderr together
};

/// Runs `stacksim ARGS` (ARGS is shell-quoted by the caller).
CliResult run_cli(const std::string& args);
/// Runs a shell command line (sh -c) and captures its stdout and stderr and exit code.
CliResult run_shell(const std::string& command);
/// A fresh empty directory under the system temp directory.
std::string temp_dir();
std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& text);
/// First words of the indented lines under the heading that starts with `heading` in
/// `stacksim list` (e.g. "workloads", "warp schedulers").
std::vector<std::string> list_section(const std::string& heading);
/// Names listed under "warp schedulers" by `stacksim list`.
inline std::vector<std::string> warp_schedulers() { return list_section("warp schedulers"); }
/// Reads a JSON number at `key` of the summary text (crude, enough for tests).
double summary_number(const std::string& json_text, const std::string& key);

}  // namespace stacksim::test
