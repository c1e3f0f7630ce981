// SPDX-License-Identifier: Apache-2.0
// Error types that map to the CLI's exit codes.
#pragma once
#include <stdexcept>
#include <string>

namespace stacksim::sim {

/// Bad user input (config, CLI, kernel source, workload name): exit code 2.
/// The message is one line naming the file, line and key where known.
class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A configuration value is missing, mistyped or out of range (an InputError).
class ConfigError : public InputError {
public:
    using InputError::InputError;
};

/// The simulation cannot go on (deadlock watchdog, kernel fault): exit code 3.
class SimulationError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace stacksim::sim
