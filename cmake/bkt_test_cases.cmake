# bkt_add_test_cases(TARGET NAME [LABEL label]): registers each GoogleTest case of TARGET with
# CTest as NAME.Suite.case, so that `ctest -N` lists the cases, `ctest -R` picks them and a failure
# names its case. The names are GoogleTest's own, except that a typed suite's index moves to the
# end (compact_test/3.matches_reference becomes compact_test.matches_reference<3>); no pretty type
# or value names, which would be long and full of spaces. ctest runs each with its exact filter.
# Discovery runs when ctest starts (PRE_TEST), on the machine that runs the tests, and again only
# when the binary changed; a binary not built shows as TARGET_NOT_BUILT. GPU binaries list their
# cases without a GPU, where the cases skip and ctest reports them as skipped. A case that hangs
# fails after 5 minutes rather than holding up CI.
include_guard(DIRECTORY)  # GoogleTest sets a variable its functions need in each directory
include(GoogleTest)

function(bkt_add_test_cases target name)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "LABEL" "")
  set(properties TIMEOUT 300)
  if(arg_LABEL)
    list(APPEND properties LABELS ${arg_LABEL})
  endif()
  gtest_discover_tests(${target}
    TEST_PREFIX "${name}."
    NO_PRETTY_TYPES NO_PRETTY_VALUES
    DISCOVERY_MODE PRE_TEST
    DISCOVERY_TIMEOUT 60
    PROPERTIES ${properties})
endfunction()
