# The recorder measures its own event-loop lateness; the analyzer reports it.
tt_add_script_test(record_self_lag record_self_lag.sh)
