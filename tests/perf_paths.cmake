# Hot paths rewritten for speed, each checked byte for byte against the
# generic code it replaced (docs/performance.md).
tt_add_unit_test(replay_format_test replay_format_test.c replay_format_ref.c
                 LIBS tt_replay)

# common/buf.c (buf_printf formats once when it fits, buf_extend) and
# common/decimal.c (printf-free integers).
tt_add_unit_test(test_buf test_buf.c)

# common/trace_writer.c trace_write_chunk: the chunk record written directly,
# compared with msgpack-c's packer.
tt_add_unit_test(trace_chunk_test trace_chunk_test.c LIBS tt_trace_writer)
