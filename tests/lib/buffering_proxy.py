#!/usr/bin/env python3
"""buffering_proxy: a TCP relay that holds what the upstream sends and
releases it in one write every HOLD_MS, as a buffering gateway does (the
test of tokentrace's buffering detector). Client bytes go through at once.

usage: buffering_proxy.py PORT_FILE UPSTREAM_HOST:PORT HOLD_MS
Listens on 127.0.0.1 (a free port, written to PORT_FILE)."""
import socket
import sys
import threading
import time


def pipe_through(src, dst):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    try:
        dst.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def pipe_held(src, dst, hold_s):
    held = bytearray()
    lock = threading.Lock()
    done = threading.Event()

    def release():
        while not done.wait(hold_s):
            with lock:
                if held:
                    try:
                        dst.sendall(bytes(held))
                    except OSError:
                        return
                    held.clear()

    t = threading.Thread(target=release, daemon=True)
    t.start()
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            with lock:
                held.extend(data)
    except OSError:
        pass
    done.set()
    t.join()
    with lock:
        try:
            if held:
                dst.sendall(bytes(held))
            dst.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def serve(client, upstream, hold_s):
    try:
        up = socket.create_connection(upstream)
    except OSError:
        client.close()
        return
    a = threading.Thread(target=pipe_through, args=(client, up), daemon=True)
    b = threading.Thread(target=pipe_held, args=(up, client, hold_s),
                         daemon=True)
    a.start()
    b.start()
    b.join()
    a.join(1)
    client.close()
    up.close()


def main():
    port_file, upstream, hold_ms = sys.argv[1], sys.argv[2], float(sys.argv[3])
    host, port = upstream.rsplit(":", 1)
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", 0))
    ls.listen(64)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(ls.getsockname()[1]))
    import os
    os.rename(port_file + ".tmp", port_file)
    while True:
        c, _ = ls.accept()
        threading.Thread(target=serve, args=(c, (host, int(port)), hold_ms / 1000),
                         daemon=True).start()


if __name__ == "__main__":
    main()
