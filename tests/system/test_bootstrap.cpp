// SPDX-License-Identifier: Apache-2.0
// scripts/bootstrap.sh builds what each README command needs, and CI runs the README's test command.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <string>

#include "tests/system/cli_runner.h"

using namespace stacksim::test;

namespace {

/// A folder of stand-ins for the tools bootstrap.sh calls: every package reads as installed,
/// and cmake only appends its arguments to `calls` (nothing is configured or built).
std::string fake_tools(bool with_ccache) {
    const std::string dir = temp_dir();
    auto tool = [&](const std::string& name, const std::string& body) {
        write_file(dir + "/" + name, "#!/bin/sh\n" + body + "\n");
        ::chmod((dir + "/" + name).c_str(), 0755);
    };
    tool("dpkg-query", "printf 'install ok installed'");
    tool("cmake", "echo \"cmake $*\" >> '" + dir + "/calls'");
    tool("nproc", "echo 2");
    if (with_ccache) tool("ccache", "exit 0");
    for (const char* real : {"dirname", "grep", "id"})
        tool(real, std::string("exec /usr/bin/env PATH=/usr/bin:/bin ") + real + " \"$@\"");
    return dir;
}

std::string bootstrap(const std::string& tools, const std::string& args) {
    // Only the stand-ins are on PATH, so an installed ccache is not seen.
    const CliResult r = run_shell("CI= PATH='" + tools + "' /bin/bash " STACKSIM_SOURCE_DIR "/scripts/bootstrap.sh " + args);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    return read_file(tools + "/calls");
}

}  // namespace

TEST_CASE("bootstrap: the run command builds the simulator and its library, the test command everything", "[bootstrap]") {
    const std::string tools = fake_tools(false);
    const std::string simulator = bootstrap(tools, "");
    CHECK(simulator.find("-DCMAKE_BUILD_TYPE=Release -DSTACKSIM_WERROR=OFF -DSTACKSIM_TESTS=OFF") != std::string::npos);
    // The default target: stacksim and libstacksim.a, so `cmake --install build` works after it.
    CHECK(simulator.find("--build build -j 2\n") != std::string::npos);
    CHECK(simulator.find("--target") == std::string::npos);
    CHECK(simulator.find("ccache") == std::string::npos);

    const std::string tools2 = fake_tools(false);
    const std::string everything = bootstrap(tools2, "--tests");
    CHECK(everything.find("-DSTACKSIM_TESTS=ON") != std::string::npos);
    CHECK(everything.find("--build build -j 2\n") != std::string::npos);
    CHECK(everything.find("--target") == std::string::npos);

    const std::string tools3 = fake_tools(false);
    CHECK(bootstrap(tools3, "--tests other-build").find("--build other-build -j 2\n") != std::string::npos);
}

TEST_CASE("bootstrap: the README's build needs no Catch2 and its default target makes libstacksim.a", "[bootstrap][install]") {
    // Configured as scripts/bootstrap.sh does without --tests, on a machine without Catch2
    // (find_package(Catch2) disabled): the default target ("all", what bootstrap builds) holds
    // the archive that `cmake --install` copies, and no test binary (install_test.sh installs
    // and uses a built tree).
    const std::string dir = temp_dir();
    const CliResult configure =
        run_shell("cmake -G 'Unix Makefiles' -S " STACKSIM_SOURCE_DIR " -B '" + dir +
                  "' -DCMAKE_BUILD_TYPE=Release -DSTACKSIM_TESTS=OFF -DCMAKE_DISABLE_FIND_PACKAGE_Catch2=ON 2>&1");
    INFO(configure.output);
    REQUIRE(configure.exit_code == 0);
    const std::string all = read_file(dir + "/CMakeFiles/Makefile2");
    CHECK(all.find("\nall: CMakeFiles/stacksim.dir/all\n") != std::string::npos);
    CHECK(all.find("\nall: CMakeFiles/stacksim_archive.dir/all\n") != std::string::npos);
    CHECK(all.find("unit_tests") == std::string::npos);
    CHECK(read_file(dir + "/CMakeFiles/stacksim_archive.dir/link.txt").find("libstacksim.a") != std::string::npos);
    const CliResult install = run_shell("cmake -L -N '" + dir + "' 2>&1");
    CHECK(install.output.find("STACKSIM_TESTS:BOOL=OFF") != std::string::npos);
}

TEST_CASE("bootstrap: ccache is used when it is installed", "[bootstrap]") {
    const std::string tools = fake_tools(true);
    CHECK(bootstrap(tools, "").find("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache") != std::string::npos);
}

TEST_CASE("bootstrap: CI's entry point runs the README's test command verbatim", "[bootstrap][docs]") {
    const std::string readme = read_file(STACKSIM_SOURCE_DIR "/README.md");
    const std::string ci = read_file(STACKSIM_SOURCE_DIR "/.ci/run");
    const std::string command = "scripts/bootstrap.sh --tests && ctest --test-dir build --output-on-failure -j 2";
    CHECK(readme.find("\n" + command + "\n") != std::string::npos);
    CHECK(ci.find("\n" + command + "\n") != std::string::npos);
    CHECK(readme.find("\nscripts/bootstrap.sh && build/stacksim run\n") != std::string::npos);
}
