# Unit tests of the offline stream foundation: SSE parsing, stream events,
# statistics.
tt_add_unit_test(test_sse test_sse.c)
tt_add_unit_test(test_stream_events test_stream_events.c)
tt_add_unit_test(test_stats test_stats.c ${PROJECT_SOURCE_DIR}/analyze/stats.c)
target_include_directories(test_stats PRIVATE ${PROJECT_SOURCE_DIR}/analyze)
