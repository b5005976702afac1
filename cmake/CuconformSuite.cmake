# cuconform_add_suite(<area> SOURCES <files...> [LIBRARIES <targets...>])
#
# One GoogleTest binary per area of the guide: build/<preset>/bin/cuconform-<area>. The .cu sources are compiled
# by nvcc or, with CUCONFORM_CUDA_COMPILER=clang, by clang++ in CUDA mode.

if(CUCONFORM_CUDA_COMPILER STREQUAL "clang")
  set(CUCONFORM_CLANG_CUDA_ARCH "sm_90" CACHE STRING "--cuda-gpu-arch for the clang build")
  # Options for the host side of the .cu sources only (-Xarch_host): the clang-check preset of scripts/test gives -O0,
  # which takes about a third off the clang build (the host side of a test file, GoogleTest and the host models, is
  # most of its compile time) and leaves the device code exactly as the clang preset compiles it.
  set(CUCONFORM_CLANG_HOST_FLAGS "" CACHE STRING "Extra options for the host compilation of .cu sources (clang)")
  get_filename_component(CUCONFORM_CUDA_ROOT "${CUDAToolkit_BIN_DIR}" DIRECTORY)
  # CMake cannot yet identify clang as a CUDA compiler against CUDA 13, so the sources are C++ in CUDA mode.
  set(CUCONFORM_CLANG_CUDA_FLAGS
      -x cuda
      --cuda-gpu-arch=${CUCONFORM_CLANG_CUDA_ARCH}
      --cuda-path=${CUCONFORM_CUDA_ROOT}
      -Wno-unknown-cuda-version)
  foreach(flag IN LISTS CUCONFORM_CLANG_HOST_FLAGS)
    list(APPEND CUCONFORM_CLANG_CUDA_FLAGS -Xarch_host ${flag})
  endforeach()
endif()

# Compile the given .cu sources with the chosen device compiler.
function(cuconform_cuda_sources target)
  target_link_libraries(${target} PRIVATE CUDA::cudart_static)
  if(CUCONFORM_CUDA_COMPILER STREQUAL "clang")
    foreach(source IN LISTS ARGN)
      if(source MATCHES "\\.cu$")
        set_source_files_properties(${source} TARGET_DIRECTORY ${target} PROPERTIES
          LANGUAGE CXX COMPILE_OPTIONS "${CUCONFORM_CLANG_CUDA_FLAGS}")
      endif()
    endforeach()
    target_include_directories(${target} SYSTEM PRIVATE ${CUDAToolkit_INCLUDE_DIRS}/cccl)
  endif()
endfunction()

function(cuconform_add_suite area)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;LIBRARIES")
  set(target cuconform-${area})
  add_executable(${target} ${arg_SOURCES})
  cuconform_cuda_sources(${target} ${arg_SOURCES})
  if(CUCONFORM_MODULES)
    # Position-independent host code, so that the same objects also make the area's module (cuconform_add_modules):
    # compiled once, linked twice. The device code is the same either way.
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-fPIC> $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fPIC>)
  endif()
  target_link_libraries(${target} PRIVATE cuconform_common ${arg_LIBRARIES})
  # After the toolkit's own folder: <build>/lib, where a packed build carries the libraries of a toolkit that the GPU
  # machine lacks (libnvrtc.so.12 of build/clang-cuda12.9; scripts/toolkit pack, harness/cuconform/toolkit.py).
  set_property(TARGET ${target} APPEND PROPERTY BUILD_RPATH "\$ORIGIN/../lib")
  set_property(GLOBAL APPEND PROPERTY CUCONFORM_SUITES ${target})
endfunction()

# cuconform_add_modules()
#
# After every area: build/<preset>/modules/cuconform-<area>.so for each suite binary that may share a process with
# other areas, from the objects of bin/cuconform-<area> (not compiled again) and what it links, and
# build/<preset>/modules/cuconform-multi, which runs several areas' modules in one process and one CUDA context
# (docs/design/processes.md). The harness uses a module only while it is not older than its area's executable.
# Suites that keep processes of their own (no module):
# - CUCONFORM_OWN_PROCESS_AREAS: their rules check or change what belongs to the whole process or context;
# - a suite built outside bin/ (the harness's own fault fixtures, suites/selftest);
# - a suite with relocatable device code (CUDA_SEPARABLE_COMPILATION, the clang build's -fgpu-rdc): its device link
#   object is not among its objects.
set(CUCONFORM_OWN_PROCESS_AREAS
  runtime              # the runtime's initialization, lazy loading, environment variables, error state of a process
  streams              # device flags, the persisting L2 set-aside and its limit: the whole context's
  streams-per-thread   # the same rules, the per-thread default stream of the whole process
  memory_management    # the default memory pool's attributes, graph memory attributes, IPC, virtual memory
  litmus               # exclusive: runs alone in any case
  CACHE STRING "Areas whose tests never share a process with another area's")
function(cuconform_add_modules)
  if(NOT CUCONFORM_MODULES)
    return()
  endif()
  get_property(suites GLOBAL PROPERTY CUCONFORM_SUITES)
  foreach(target IN LISTS suites)
    if(NOT TARGET ${target})
      continue()
    endif()
    get_target_property(type ${target} TYPE)
    string(REGEX REPLACE "^cuconform-" "" area "${target}")
    get_target_property(separable ${target} CUDA_SEPARABLE_COMPILATION)
    get_target_property(link_options ${target} LINK_OPTIONS)
    get_target_property(folder ${target} RUNTIME_OUTPUT_DIRECTORY)  # outside bin/: not run as a suite (selftest)
    if(NOT type STREQUAL "EXECUTABLE" OR area IN_LIST CUCONFORM_OWN_PROCESS_AREAS OR separable
       OR "--offload-link" IN_LIST link_options OR NOT folder STREQUAL "${CMAKE_BINARY_DIR}/bin")
      continue()
    endif()
    add_library(${target}-module MODULE $<TARGET_OBJECTS:${target}>)
    target_link_libraries(${target}-module PRIVATE $<TARGET_PROPERTY:${target},LINK_LIBRARIES>)
    # The entry (suites/common/src/main.cpp) is in cuconform_common, which nothing in the module refers to; it is
    # all the module exports (module-exports.map says why).
    set(exports ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/module-exports.map)
    target_link_options(${target}-module PRIVATE -Wl,--undefined=cuconform_module_main -Wl,--version-script=${exports})
    set_target_properties(${target}-module PROPERTIES
      OUTPUT_NAME ${target} PREFIX "" SUFFIX ".so" LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/modules
      LINK_DEPENDS ${exports})
    add_dependencies(${target}-module cuconform-multi)
  endforeach()
endfunction()

# cuconform_add_selftest(<area> SOURCES <files...> [LIBRARIES <targets...>])
#
# The self-test of an area: GoogleTest checks of its host side (models, engines, the reference) that need no GPU
# and check no rule. Sources in suites/<area>/selftest/, named for what they test (model_test.cpp, engine_test.cu);
# the binary is build/<preset>/selftest/cuconform-<area>-selftest, outside bin/, so that a run never collects it as
# a suite (harness/cuconform/catalog.py reads bin/). It sees the area's folder and suites/common/include.
function(cuconform_add_selftest area)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;LIBRARIES")
  set(target cuconform-${area}-selftest)
  add_executable(${target} ${arg_SOURCES})
  list(FILTER arg_SOURCES INCLUDE REGEX "\\.cu$")
  if(arg_SOURCES)
    cuconform_cuda_sources(${target} ${arg_SOURCES})
  endif()
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_SOURCE_DIR}/suites/common/include)
  target_link_libraries(${target} PRIVATE ${arg_LIBRARIES})
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/selftest)
endfunction()

# Relocatable device code and the device runtime library (PG12.9 13.3.3.2), for a suite whose kernels launch work
# from the device (dynamic parallelism, device graph launch). Call after cuconform_add_suite.
# - nvcc: CUDA_SEPARABLE_COMPILATION (CMake's device link) and libcudadevrt.a.
# - clang: -fgpu-rdc, and the link through --offload-link, whose clang-linker-wrapper device-links with nvlink. It does
#   not read the device code of nvcc's libcudadevrt.a from a host-side -lcudadevrt: the library goes to nvlink itself
#   (-Xoffload-linker), or __cudaCDP2LaunchDevice and __cudaCDP2GetParameterBuffer stay undefined.
function(cuconform_use_device_runtime target)
  if(CUCONFORM_CUDA_COMPILER STREQUAL "clang")
    get_target_property(sources ${target} SOURCES)
    list(FILTER sources INCLUDE REGEX "\\.cu$")
    set_property(SOURCE ${sources} TARGET_DIRECTORY ${target} APPEND PROPERTY COMPILE_OPTIONS -fgpu-rdc)
    target_link_options(${target} PRIVATE
      --offload-link
      --cuda-path=${CUCONFORM_CUDA_ROOT}
      "SHELL:-Xoffload-linker -L${CUDAToolkit_LIBRARY_DIR}"
      "SHELL:-Xoffload-linker -lcudadevrt")
  else()
    set_target_properties(${target} PROPERTIES CUDA_SEPARABLE_COMPILATION ON)
    # CMake 3.25 has no CUDA::cudadevrt target.
    find_library(CUCONFORM_CUDADEVRT cudadevrt HINTS ${CUDAToolkit_LIBRARY_DIR} REQUIRED)
    target_link_libraries(${target} PRIVATE ${CUCONFORM_CUDADEVRT})
  endif()
endfunction()

# Defines CUCONFORM_DEVICE_TARGETS for <target>: the targets its device code is built for, e.g. "90" or "90a,100f"
# (CUCONFORM_TARGETS, see the top CMakeLists.txt, or the clang build's --cuda-gpu-arch), read by
# suites/common/include/cuconform/build_targets.h.
function(cuconform_define_device_targets target)
  if(CUCONFORM_CUDA_COMPILER STREQUAL "clang")
    string(REGEX REPLACE "^sm_" "" targets "${CUCONFORM_CLANG_CUDA_ARCH}")
  else()
    set(targets "${CUCONFORM_TARGETS}")  # CMAKE_CUDA_ARCHITECTURES resolved, or CUCONFORM_CUDA_ARCHITECTURES
  endif()
  string(REPLACE ";" "," targets "${targets}")
  target_compile_definitions(${target} PRIVATE CUCONFORM_DEVICE_TARGETS="${targets}")
endfunction()

# The executables that the targets of <directory> and its subdirectories write to build/<preset>/selftest/ (the areas'
# self-tests, cuconform_add_selftest; suites/selftest; suites/common/interpose), as file names, into <out>.
function(cuconform_selftest_binaries directory out)
  get_property(targets DIRECTORY ${directory} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirectories DIRECTORY ${directory} PROPERTY SUBDIRECTORIES)
  set(found)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    get_target_property(folder ${target} RUNTIME_OUTPUT_DIRECTORY)
    if(type STREQUAL "EXECUTABLE" AND folder STREQUAL "${CMAKE_BINARY_DIR}/selftest")
      list(APPEND found "$<TARGET_FILE_NAME:${target}>")
    endif()
  endforeach()
  foreach(subdirectory IN LISTS subdirectories)
    cuconform_selftest_binaries(${subdirectory} more)
    list(APPEND found ${more})
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

# build/<preset>/cuconform-build.json: which compiler built the suites, with which flags, for which targets; the suites
# and the executables of selftest/ that a whole build makes (harness/tests/conftest.py tells a build of a few targets
# by them).
function(cuconform_write_build_info)
  get_property(suites GLOBAL PROPERTY CUCONFORM_SUITES)
  cuconform_selftest_binaries(${CMAKE_SOURCE_DIR} selftests)
  list(SORT selftests)
  list(JOIN selftests "\", \"" selftest_list)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type)
  list(JOIN suites "\", \"" suite_list)
  if(CUCONFORM_CUDA_COMPILER STREQUAL "clang")
    set(device_compiler_path "${CMAKE_CXX_COMPILER}")
    set(device_compiler_version "${CMAKE_CXX_COMPILER_VERSION}")
    list(JOIN CUCONFORM_CLANG_CUDA_FLAGS " " device_flags)
    set(device_flags "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${build_type}} ${device_flags}")
    set(device_archs "${CUCONFORM_CLANG_CUDA_ARCH}")
  else()
    set(device_compiler_path "${CMAKE_CUDA_COMPILER}")
    set(device_compiler_version "${CMAKE_CUDA_COMPILER_VERSION}")
    set(device_flags "${CMAKE_CUDA_FLAGS} ${CMAKE_CUDA_FLAGS_${build_type}}")
    set(device_archs "${CUCONFORM_TARGETS}")
  endif()
  string(STRIP "${device_flags}" device_flags)
  string(REPLACE "\\" "\\\\" device_flags "${device_flags}")
  string(REPLACE "\"" "\\\"" device_flags "${device_flags}")
  file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/cuconform-build.json CONTENT "{
  \"compiler\": \"${CUCONFORM_CUDA_COMPILER}\",
  \"compiler_path\": \"${device_compiler_path}\",
  \"compiler_version\": \"${device_compiler_version}\",
  \"host_compiler\": \"${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}\",
  \"flags\": \"${device_flags}\",
  \"architectures\": \"${device_archs}\",
  \"build_type\": \"${CMAKE_BUILD_TYPE}\",
  \"cuda_toolkit\": \"${CUDAToolkit_VERSION}\",
  \"suites\": [\"${suite_list}\"],
  \"selftests\": [\"${selftest_list}\"]
}
")
endfunction()
