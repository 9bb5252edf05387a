# Trace format: writer/reader round trip, damage, limits (common/trace*.c, mp.c).
tt_add_unit_test(test_trace test_trace.c)
tt_add_unit_test(test_mp test_mp.c)
tt_add_script_test(analyze_dump_check analyze_dump_check.sh)
