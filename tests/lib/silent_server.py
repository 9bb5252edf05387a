#!/usr/bin/env python3
"""silent_server.py: a TCP server on loopback that accepts every
connection, reads what it is sent and never answers (a /metrics endpoint
that hangs).

usage: silent_server.py PORT_FILE

The port it bound is written to PORT_FILE (atomically, once listening).
"""
import os
import socket
import sys
import threading

PORT_FILE = sys.argv[1]
srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", 0))
srv.listen(64)
with open(PORT_FILE + ".tmp", "w") as f:
    f.write("%d\n" % srv.getsockname()[1])
os.rename(PORT_FILE + ".tmp", PORT_FILE)


def hold(conn):
    try:
        while conn.recv(4096):
            pass  # read it all, answer nothing
    except OSError:
        pass
    conn.close()


while True:
    c, _ = srv.accept()
    threading.Thread(target=hold, args=(c,), daemon=True).start()
