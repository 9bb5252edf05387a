# Trace format: writer/reader round trip, damage, limits (common/trace*.c, mp.c).
tt_add_unit_test(test_trace test_trace.c)
tt_add_unit_test(test_mp test_mp.c)
tt_add_script_test(analyze_dump_check analyze_dump_check.sh)
tt_add_unit_test(test_id_map test_id_map.c ${PROJECT_SOURCE_DIR}/analyze/id_map.c)
target_include_directories(test_id_map PRIVATE ${PROJECT_SOURCE_DIR}/analyze)
