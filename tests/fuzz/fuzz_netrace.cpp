// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the Netrace reader and replay (bzip2 stream, header, records, dependencies).
#include <bzlib.h>

#include <cstdint>
#include <string>
#include <vector>

#include "noc/netrace_reader.h"
#include "noc/netrace_replay.h"
#include "sim/error.h"
#include "tests/fuzz/fuzz_input.h"

using namespace stacksim;

// The first byte chooses what the rest is: even, the decompressed trace (compressed here, so
// mutations reach the header and records); odd, the file's bytes as they are (the bzip2 layer).
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    std::vector<char> file;
    if (data[0] % 2 == 0) {
        std::vector<char> in(data + 1, data + size);
        file.resize(in.size() + in.size() / 100 + 1024);
        unsigned len = static_cast<unsigned>(file.size());
        if (BZ2_bzBuffToBuffCompress(file.data(), &len, in.data(), static_cast<unsigned>(in.size()), 1, 0, 0) != BZ_OK)
            return 0;
        file.resize(len);
    } else {
        file.assign(data + 1, data + size);
    }
    const std::string& path =
        fuzz::write_input(reinterpret_cast<const uint8_t*>(file.data()), file.size(), ".tra.bz2");
    try {
        noc::NetworkConfig net;  // the default 8x8 mesh
        noc::replay_netrace(path, net, 16, 200000);
    } catch (const sim::InputError&) {
    }
    return 0;
}
