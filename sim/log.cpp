// SPDX-License-Identifier: Apache-2.0
// Leveled logging to stderr through fmt.
#include "sim/log.h"

namespace stacksim::sim {

LogLevel& log_level() {
    static LogLevel level = LogLevel::Warn;
    return level;
}

}  // namespace stacksim::sim
