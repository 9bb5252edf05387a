# Analyzer: the summary contract and the requests, info, compare and trend
# commands over traces written by gen_trace; calendar and escaping units.
tt_add_unit_test(test_analyze_week test_analyze_week.c LIBS tt_trend)
tt_add_unit_test(test_analyze_text test_analyze_text.c LIBS tt_output)

tt_add_script_test(analyze_summary analyze_summary.sh)
tt_add_script_test(analyze_requests analyze_requests.sh)
tt_add_script_test(analyze_compare analyze_compare.sh)
tt_add_script_test(analyze_trend analyze_trend.sh)
tt_add_script_test(analyze_info analyze_info.sh)
tt_add_script_test(analyze_damage analyze_damage.sh)
tt_add_script_test(analyze_determinism analyze_determinism.sh)
tt_add_script_test(analyze_e2e analyze_e2e.sh)
# Canonical class order everywhere groups are listed (several classes in
# one trace come from the plot tests' generator).
tt_add_script_test(analyze_class_order analyze_class_order.sh)
set_property(TEST analyze_class_order APPEND PROPERTY ENVIRONMENT
             "TT_PLOT_GEN=$<TARGET_FILE:test_plot_gentrace>")
