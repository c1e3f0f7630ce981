# Helper functions shared by the stacksim targets.

function(stacksim_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  if(STACKSIM_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# The Debian packages every part of stacksim may use.
function(stacksim_external_deps target scope)
  target_link_libraries(${target} ${scope} PkgConfig::SYSTEMC fmt::fmt tomlplusplus::tomlplusplus
    nlohmann_json::nlohmann_json Boost::program_options BZip2::BZip2)
endfunction()

# One object library per source folder. Its sources see only the folders it may depend on:
# the include path is a directory of links to exactly those folders, so an include of any
# other folder (core/ -> memory/, say) fails the build with "No such file or directory".
# Usage: stacksim_add_library(FOLDER USES dep... [SOURCES extra.cpp...])
function(stacksim_add_library folder)
  cmake_parse_arguments(ARG "" "" "USES;SOURCES" ${ARGN})
  set(target stacksim_${folder})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/${folder}/*.cpp)
  list(FILTER sources EXCLUDE REGEX ".*/top/main\\.cpp$")
  add_library(${target} OBJECT ${sources} ${ARG_SOURCES})
  set(view ${CMAKE_BINARY_DIR}/include_views/${folder})
  file(REMOVE_RECURSE ${view})
  file(MAKE_DIRECTORY ${view})
  foreach(dir ${folder} ${ARG_USES})
    file(CREATE_LINK ${CMAKE_SOURCE_DIR}/${dir} ${view}/${dir} SYMBOLIC)
  endforeach()
  target_include_directories(${target} PRIVATE ${view})
  # Position-independent, so that the CUDA runtime library (cudart/, a shared library) links these
  # same objects. -fno-semantic-interposition keeps the code the executables get as it was with
  # the compiler's default -fPIE: calls stay direct and inlinable, and the linker relaxes the GOT
  # loads of symbols the executable defines back to direct addresses.
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_compile_options(${target} PRIVATE -fno-semantic-interposition)
  stacksim_external_deps(${target} PUBLIC)
  target_compile_definitions(${target} PUBLIC STACKSIM_VERSION="${PROJECT_VERSION}")
  stacksim_warnings(${target})
  set_property(GLOBAL APPEND PROPERTY STACKSIM_LIBRARIES ${target})
endfunction()

# Links every folder library into an executable (objects, so self-registering policies stay).
function(stacksim_link_all target)
  get_property(libs GLOBAL PROPERTY STACKSIM_LIBRARIES)
  foreach(lib ${libs})
    target_sources(${target} PRIVATE $<TARGET_OBJECTS:${lib}>)
    add_dependencies(${target} ${lib})
  endforeach()
  target_include_directories(${target} PRIVATE ${CMAKE_SOURCE_DIR})
  stacksim_external_deps(${target} PRIVATE)
  target_compile_definitions(${target} PRIVATE STACKSIM_VERSION="${PROJECT_VERSION}")
endfunction()

# One test binary per folder; each Catch2 test case runs in its own process
# because SystemC cannot elaborate twice in one process. A test filter that matches no test
# case (a name ctest split apart) fails instead of passing with "No tests ran". A test that
# cannot run here (no matplotlib, say) exits 77 and ctest reports it skipped.
function(stacksim_add_test name dir)
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/${dir}/*.cpp)
  add_executable(${name} ${CMAKE_SOURCE_DIR}/tests/test_main.cpp ${sources})
  stacksim_link_all(${name})
  target_link_libraries(${name} PRIVATE Catch2::Catch2)
  target_compile_definitions(${name} PRIVATE
    STACKSIM_SOURCE_DIR="${CMAKE_SOURCE_DIR}" STACKSIM_BINARY="$<TARGET_FILE:stacksim>"
    STACKSIM_TEST_TRACE_CACHE="${CMAKE_BINARY_DIR}/test-trace-cache")
  if(STACKSIM_SANITIZE OR STACKSIM_FUZZ)
    # Tests that time whole commands (the doc test) allow for the sanitizers' slowdown.
    target_compile_definitions(${name} PRIVATE STACKSIM_SANITIZER_BUILD=1)
  endif()
  add_dependencies(${name} stacksim)
  stacksim_warnings(${name})
  catch_discover_tests(${name} WORKING_DIRECTORY ${CMAKE_BINARY_DIR} EXTRA_ARGS --warn NoTests
    PROPERTIES ENVIRONMENT "SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1" SKIP_RETURN_CODE 77)
endfunction()

# AddressSanitizer + UndefinedBehaviorSanitizer for every target (STACKSIM_SANITIZE, and the
# fuzz build). Any UB report is fatal, so a sanitizer finding fails the test that hit it.
macro(stacksim_sanitize)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  # Line tables are all a sanitizer report needs (file:line in every frame); full debug
  # information makes this build about 40 % slower to compile.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    add_compile_options(-gline-tables-only)
  else()
    add_compile_options(-g1)
  endif()
  add_link_options(-fsanitize=address,undefined)
  if(STACKSIM_FUZZ)
    add_compile_options(-fsanitize=fuzzer-no-link)
  endif()
endmacro()

# One libFuzzer executable per tests/fuzz/fuzz_<name>.cpp (STACKSIM_FUZZ, clang only), linked
# with every folder library; the seed corpus of each is tests/fuzz/corpus/<name>/.
function(stacksim_add_fuzzers dir)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "STACKSIM_FUZZ needs clang (cmake -DCMAKE_CXX_COMPILER=clang++-14)")
  endif()
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/${dir}/fuzz_*.cpp)
  foreach(src ${sources})
    get_filename_component(name ${src} NAME_WE)
    add_executable(${name} ${src})
    stacksim_link_all(${name})
    target_compile_options(${name} PRIVATE -fsanitize=fuzzer)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    target_compile_definitions(${name} PRIVATE STACKSIM_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
    stacksim_warnings(${name})
  endforeach()
endfunction()

# The CUDA runtime library (cudart/): libcudart.so.13 and libcudart.so.12 in <build>/cudart/,
# each holding every folder's objects (position-independent, see stacksim_add_library) and
# exporting only the CUDA runtime's C entry points, under the version node nvcc's programs
# import (`cudaMalloc@libcudart.so.13`). The objects are linked whole (self-registering
# policies). `stacksim cuda` puts the folder on the program's LD_LIBRARY_PATH.
function(stacksim_add_cudart)
  pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/cudart/*.cpp)
  add_library(stacksim_cudart_objects OBJECT ${sources})
  set(view ${CMAKE_BINARY_DIR}/include_views/cudart)
  file(REMOVE_RECURSE ${view})
  file(MAKE_DIRECTORY ${view})
  foreach(dir cudart sim common core memory noc sched workloads host uvm top)
    file(CREATE_LINK ${CMAKE_SOURCE_DIR}/${dir} ${view}/${dir} SYMBOLIC)
  endforeach()
  target_include_directories(stacksim_cudart_objects PRIVATE ${view})
  set_target_properties(stacksim_cudart_objects PROPERTIES POSITION_INDEPENDENT_CODE ON)
  stacksim_external_deps(stacksim_cudart_objects PUBLIC)
  target_link_libraries(stacksim_cudart_objects PUBLIC PkgConfig::ZSTD)
  target_compile_definitions(stacksim_cudart_objects PUBLIC STACKSIM_VERSION="${PROJECT_VERSION}")
  stacksim_warnings(stacksim_cudart_objects)
  get_property(libs GLOBAL PROPERTY STACKSIM_LIBRARIES)
  set(targets)
  foreach(major 13 12)
    set(map ${CMAKE_BINARY_DIR}/cudart/libcudart.so.${major}.map)
    file(WRITE ${map} "libcudart.so.${major} {\n  global: cuda*; __cuda*; sc_main;\n  local: *;\n};\n")
    set(target stacksim_cudart${major})
    add_library(${target} SHARED $<TARGET_OBJECTS:stacksim_cudart_objects>)
    foreach(lib ${libs})
      target_sources(${target} PRIVATE $<TARGET_OBJECTS:${lib}>)
      add_dependencies(${target} ${lib})
    endforeach()
    stacksim_external_deps(${target} PRIVATE)
    target_link_libraries(${target} PRIVATE PkgConfig::ZSTD)
    set_target_properties(${target} PROPERTIES OUTPUT_NAME cudart PREFIX lib SUFFIX .so.${major}
      LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/cudart LINK_DEPENDS ${map})
    target_link_options(${target} PRIVATE -Wl,-soname,libcudart.so.${major} -Wl,--version-script=${map}
      -Wl,-z,defs)
    list(APPEND targets ${target})
  endforeach()
  add_custom_target(cudart DEPENDS ${targets})
endfunction()
