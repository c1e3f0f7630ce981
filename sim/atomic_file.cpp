// SPDX-License-Identifier: Apache-2.0
// Writes a file atomically: to a temporary beside it, then renamed over the target.
#include "sim/atomic_file.h"

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include <unistd.h>

namespace stacksim::sim {

void write_file_atomically(const std::string& path, const std::string& content) {
    std::string tmp = path + ".tmp." + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) throw std::runtime_error(path + ": cannot write");
        out << content;
        out.flush();
        if (!out) throw std::runtime_error(path + ": write failed");
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        throw std::runtime_error(path + ": cannot rename temporary file into place");
    }
}

}  // namespace stacksim::sim
