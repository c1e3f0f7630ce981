// SPDX-License-Identifier: Apache-2.0
// The one helper through which strings reach generated (Slurm) scripts.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <string>

#include "sim/error.h"
#include "top/script_text.h"

using namespace stacksim;

namespace {

/// What bash prints for `printf %s WORD`: the word as bash reads it back.
std::string bash_reads(const std::string& word) {
    const std::string script = "/tmp/stacksim-script-text-" + std::to_string(::getpid()) + ".sh";
    std::FILE* f = std::fopen(script.c_str(), "wb");
    REQUIRE(f);
    const std::string text = "printf %s " + word + "\n";
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
    std::FILE* p = ::popen(("bash " + script).c_str(), "r");
    REQUIRE(p);
    std::string out;
    char buf[4096];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    ::pclose(p);
    std::remove(script.c_str());
    return out;
}

}  // namespace

TEST_CASE("script text: shell_word is read back by bash as exactly the one word given", "[slurm][script]") {
    const std::string hostile[] = {"plain",
                                   "",
                                   "two words",
                                   "new\nline\ntouch /tmp/PWNED-stacksim\n#",
                                   "it's",
                                   "'",
                                   "''\\'",
                                   "$(touch /tmp/PWNED-stacksim)",
                                   "`touch /tmp/PWNED-stacksim`",
                                   "${HOME}$HOME",
                                   "\"double\" \\ back",
                                   "a;b|c&d>e<f",
                                   "*?[a-z]~",
                                   "tab\there\rcr",
                                   "-n"};
    for (const std::string& s : hostile) {
        INFO(s);
        const std::string word = top::shell_word(s, "test");
        CHECK(word.front() == '\'');
        CHECK(word.back() == '\'');
        CHECK(bash_reads(word) == s);
    }
    CHECK_THROWS_AS(top::shell_word(std::string("a\0b", 3), "test"), sim::InputError);
}

TEST_CASE("script text: Slurm file name patterns name the path literally and control characters are refused",
          "[slurm][script]") {
    CHECK(top::slurm_literal_path("/r/%A_%a/x", "p") == "/r/%%A_%%a/x");
    CHECK(top::slurm_literal_path("/with space/$(x)", "p") == "/with space/$(x)");
    for (const char* bad : {"a\nb", "a\rb", "a\x1b[2Jb", "a\x7f"}) {
        INFO(bad);
        CHECK_THROWS_AS(top::slurm_literal_path(bad, "p"), sim::InputError);
        CHECK_THROWS_AS(top::one_script_line(bad, "p"), sim::InputError);
    }
    try {
        top::one_script_line("res\ntouch PWNED", "sweep --slurm: the results folder's path");
        FAIL("no error");
    } catch (const sim::InputError& e) {
        CHECK(std::string(e.what()) == "sweep --slurm: the results folder's path: holds a control character "
                                       "(\\u000a at character 4); it cannot be passed to a job script");
    }
    CHECK(top::one_script_line("fine $(x) 'y'", "p") == "fine $(x) 'y'");
}
