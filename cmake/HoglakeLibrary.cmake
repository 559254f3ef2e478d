# hoglake_library(NAME [DEPS lib...] [SOURCES file...])
# One folder under src/ is one static library named hoglake_<NAME>. Sources
# default to every *.cc in the folder; headers are included as
# "<folder>/<file>.h" relative to src/.
function(hoglake_library name)
  cmake_parse_arguments(ARG "" "" "DEPS;SOURCES" ${ARGN})
  if(NOT ARG_SOURCES)
    file(GLOB ARG_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cc)
  endif()
  add_library(hoglake_${name} STATIC ${ARG_SOURCES})
  target_include_directories(hoglake_${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(hoglake_${name} PUBLIC ${ARG_DEPS})
endfunction()

# hoglake_unit_test(NAME DEPS lib... SOURCES file...)
# A GoogleTest binary whose cases are registered with CTest, labelled `unit`.
function(hoglake_unit_test name)
  cmake_parse_arguments(ARG "" "" "DEPS;SOURCES" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main)
  gtest_discover_tests(${name} PROPERTIES LABELS unit DISCOVERY_MODE PRE_TEST)
endfunction()
