// SPDX-License-Identifier: Apache-2.0
// A result's identity: the simulator's build and the content hashes of its input files.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "sim/error.h"
#include "top/build_identity.h"
#include "top/result_identity.h"

using namespace stacksim;
namespace fs = std::filesystem;

TEST_CASE("result identity: the build, and a hash of each file of the PTX folder and beside a trace", "[identity]") {
    char tmpl[] = "/tmp/stacksim-identity-XXXXXX";
    REQUIRE(::mkdtemp(tmpl) != nullptr);
    const std::string dir = tmpl;
    fs::create_directories(dir + "/ptx/sub");
    std::ofstream(dir + "/ptx/a.ptx") << "kernel a";
    std::ofstream(dir + "/ptx/b.ptx") << "kernel b";
    std::ofstream(dir + "/ptx/sub/ignored.ptx") << "not read by --ptx-dir";
    const nlohmann::json before = top::result_identity(dir + "/ptx", "");
    CHECK(before["build"] == top::build_identity());
    CHECK(std::string(top::build_identity()).rfind("0.", 0) == 0);
    CHECK(before["inputs"].size() == 2);
    CHECK(top::identity_change(before, top::result_identity(dir + "/ptx", "")) == "");
    std::ofstream(dir + "/ptx/b.ptx") << "kernel b, edited";
    const nlohmann::json after = top::result_identity(dir + "/ptx", "");
    CHECK(top::identity_change(before, after) == "input changed: " + dir + "/ptx/b.ptx");
    nlohmann::json other_build = before;
    other_build["build"] = "0.1.0+0000000000000000";
    CHECK(top::identity_change(other_build, before).rfind("made by another simulator build", 0) == 0);
    CHECK(top::identity_change(nlohmann::json(), before).rfind("no result identity recorded", 0) == 0);
    // A trace: its kernelslist and the files beside it.
    fs::create_directories(dir + "/trace");
    std::ofstream(dir + "/trace/kernelslist.g") << "kernel-1.traceg\n";
    std::ofstream(dir + "/trace/kernel-1.traceg") << "-kernel name = k\n";
    const nlohmann::json traced = top::result_identity("", dir + "/trace/kernelslist.g");
    CHECK(traced["inputs"].contains(dir + "/trace/kernel-1.traceg"));
    CHECK(traced["inputs"].contains(dir + "/trace/kernelslist.g"));
    CHECK_THROWS_AS(top::result_identity(dir + "/absent", ""), sim::InputError);
    fs::remove_all(dir);
}
