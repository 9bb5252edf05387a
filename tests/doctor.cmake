# Channel doctor (--check), Cline settings, and real-world stream shapes:
# unit tests of the pure modules, and end-to-end runs against
# tokentrace-replay over loopback HTTP through real libcurl.

tt_add_unit_test(record_jsonc_test record_jsonc_test.c LIBS tt_config)
tt_add_unit_test(record_check_verdict_test record_check_verdict_test.c
                 LIBS tt_check)
tt_add_unit_test(record_cline_settings_test record_cline_settings_test.c
                 LIBS tt_config)

tt_add_script_test(record_check_ok record_check_ok.sh)
tt_add_script_test(record_check_http record_check_http.sh)
tt_add_script_test(record_check_net record_check_net.sh)
tt_add_script_test(record_cline_settings record_cline_settings.sh)
tt_add_script_test(record_cline_print record_cline_print.sh)
tt_add_script_test(record_shapes record_shapes.sh)
