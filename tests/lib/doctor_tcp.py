#!/usr/bin/env python3
"""TCP endpoints that misbehave below HTTP, for the --check tests.

  doctor_tcp.py backlog   listen with a backlog of 0 and fill it with
                          connections nobody accepts: further SYNs are
                          dropped, so a connect times out (Linux)
  doctor_tcp.py silent    accept every connection and never send a byte
                          (a TLS handshake or an HTTP request hangs)
  doctor_tcp.py closed    print a port nothing listens on, then exit

Prints the port on the first line once ready; runs until killed."""
import socket
import sys
import time


def main():
    mode = sys.argv[1]
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    port = srv.getsockname()[1]
    if mode == "closed":
        srv.close()
        print(port, flush=True)
        return
    held = []
    if mode == "backlog":
        srv.listen(0)
        for _ in range(4):
            c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            c.setblocking(False)
            try:
                c.connect(("127.0.0.1", port))
            except BlockingIOError:
                pass
            held.append(c)
        time.sleep(0.3)  # let the fillers reach the accept queue
        print(port, flush=True)
        while True:
            time.sleep(60)
    srv.listen(64)
    print(port, flush=True)
    while True:
        conn, _ = srv.accept()
        held.append(conn)


if __name__ == "__main__":
    main()
