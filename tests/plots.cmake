# plot: charts, their .gp/.dat, gnuplot absent, hostile names, HTML report,
# compare/trend modes and decimation of large traces (analyze/plot_*.c).
tt_add_unit_test(test_plot_escape test_plot_escape.c LIBS tt_plot)

# A trace generator with chosen model/class names, concurrency and failures.
add_executable(test_plot_gentrace test_plot_gentrace.c)
target_link_libraries(test_plot_gentrace PRIVATE tt_trace_writer tt_common)

foreach(t plot_charts plot_no_gnuplot plot_inject plot_compare_trend plot_big)
  tt_add_script_test(${t} ${t}.sh)
  set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT
               "TT_PLOT_GEN=$<TARGET_FILE:test_plot_gentrace>")
endforeach()
foreach(t plot_charts plot_no_gnuplot plot_inject plot_compare_trend plot_big)
  set_tests_properties(${t} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
