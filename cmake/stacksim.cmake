# Helper functions shared by the stacksim targets.

function(stacksim_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  if(STACKSIM_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# One test binary per folder; each Catch2 test case runs in its own process
# because SystemC cannot elaborate twice in one process.
function(stacksim_add_test name dir)
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/${dir}/*.cpp)
  add_executable(${name} ${CMAKE_SOURCE_DIR}/tests/test_main.cpp ${sources})
  target_link_libraries(${name} PRIVATE stacksim_lib Catch2::Catch2)
  target_compile_definitions(${name} PRIVATE
    STACKSIM_SOURCE_DIR="${CMAKE_SOURCE_DIR}" STACKSIM_BINARY="$<TARGET_FILE:stacksim>")
  add_dependencies(${name} stacksim)
  stacksim_warnings(${name})
  catch_discover_tests(${name} WORKING_DIRECTORY ${CMAKE_BINARY_DIR}
    PROPERTIES ENVIRONMENT "SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1")
endfunction()
