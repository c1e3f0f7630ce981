// SPDX-License-Identifier: Apache-2.0
// Carries an exception out of a SystemC process to the code that called sc_start().
#include "sim/failure.h"

#include <systemc>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STACKSIM_ASAN 1
#endif
#elif defined(__SANITIZE_ADDRESS__)
#define STACKSIM_ASAN 1
#endif
#ifdef STACKSIM_ASAN
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace stacksim::sim {

namespace {
std::exception_ptr& slot() {
    static std::exception_ptr e;
    return e;
}

/// Tells AddressSanitizer that this thread runs on its own stack again. SystemC's coroutine
/// switches announce each switch to ASan, but leave it believing the last process's stack is
/// current after sc_start() returns; the next throw would then print "ASan is ignoring
/// requested __asan_handle_no_return" (and may be followed by false reports). No-op otherwise.
void back_on_thread_stack() {
#ifdef STACKSIM_ASAN
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
    void* bottom = nullptr;
    size_t size = 0;
    pthread_attr_getstack(&attr, &bottom, &size);
    pthread_attr_destroy(&attr);
    void* fake_stack = nullptr;
    __sanitizer_start_switch_fiber(&fake_stack, bottom, size);
    __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
}
}  // namespace

void record_failure(std::exception_ptr e) {
    if (!slot()) slot() = e;
    sc_core::sc_stop();
}

void rethrow_failure() {
    back_on_thread_stack();
    if (std::exception_ptr e = slot()) {
        slot() = nullptr;
        std::rethrow_exception(e);
    }
}

}  // namespace stacksim::sim
