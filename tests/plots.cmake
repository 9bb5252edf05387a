# plot: charts, their .gp/.dat, gnuplot absent, hostile names, HTML report,
# compare/trend modes and decimation of large traces (analyze/plot_*.c).
set_source_files_properties(${CMAKE_BINARY_DIR}/analyze/plot_templates_gen.c
                            PROPERTIES GENERATED TRUE)
tt_add_unit_test(test_plot_escape test_plot_escape.c
                 ${PROJECT_SOURCE_DIR}/analyze/plot_escape.c
                 ${PROJECT_SOURCE_DIR}/analyze/plot_template.c
                 ${CMAKE_BINARY_DIR}/analyze/plot_templates_gen.c)
target_include_directories(test_plot_escape PRIVATE ${PROJECT_SOURCE_DIR}/analyze)
add_dependencies(test_plot_escape tokentrace-analyze)

# A trace generator with chosen model/class names, concurrency and failures.
add_executable(test_plot_gentrace test_plot_gentrace.c)
target_link_libraries(test_plot_gentrace PRIVATE ttcommon)

foreach(t plot_charts plot_no_gnuplot plot_inject plot_compare_trend plot_big)
  tt_add_script_test(${t} ${t}.sh)
  set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT
               "TT_PLOT_GEN=$<TARGET_FILE:test_plot_gentrace>")
endforeach()
foreach(t plot_charts plot_no_gnuplot plot_inject plot_compare_trend plot_big)
  set_tests_properties(${t} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
