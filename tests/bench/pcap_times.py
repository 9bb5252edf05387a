#!/usr/bin/env python3
"""pcap_times: when each HTTP response body byte crossed the loopback
interface, from a tcpdump capture (a second truth beside the replay
server's --log-sends, docs/performance.md).

Reads a pcap file (tcpdump -w, nanosecond or microsecond stamps, Ethernet
or Linux cooked link type, IPv4/TCP), follows every connection to the
server port in both directions, takes the X-Request-Id of each request the
client sent and de-chunks the server's reply, so that per request id it
returns [(t_ns, cum_body_end)]: the capture time of every packet that
carried body bytes and the body bytes delivered up to its end (the same
count the send log and the recorder's chunks use). Capture times are
CLOCK_REALTIME (the kernel stamps the packet as it is handed to the
interface); the caller adds the REALTIME-MONOTONIC offset.

  pcap_times.py FILE PORT     prints {"requests": N, "packets": N, ...}
"""
import json
import re
import struct
import sys
from collections import defaultdict

RID = re.compile(rb"\r\nX-Request-Id: *([^\r\n]*)\r\n", re.IGNORECASE)


def packets(path):
    """Yields (t_ns, src_port, dst_port, seq, flags, payload)."""
    with open(path, "rb") as f:
        head = f.read(24)
        if len(head) < 24:
            return
        magic = struct.unpack("<I", head[:4])[0]
        if magic in (0xA1B2C3D4, 0xA1B23C4D):
            end = "<"
        else:
            end = ">"
            magic = struct.unpack(">I", head[:4])[0]
        nano = magic == 0xA1B23C4D
        linktype = struct.unpack(end + "I", head[20:24])[0]
        l2 = {1: 14, 113: 16, 0: 4}.get(linktype)
        if l2 is None:
            raise ValueError("%s: link type %d not handled" % (path, linktype))
        rec = struct.Struct(end + "IIII")
        while True:
            h = f.read(16)
            if len(h) < 16:
                return
            sec, frac, incl, _ = rec.unpack(h)
            data = f.read(incl)
            if len(data) < incl:
                return  # the capture was cut mid-record
            t = sec * 1000000000 + (frac if nano else frac * 1000)
            ip = data[l2:]
            if len(ip) < 20 or ip[0] >> 4 != 4 or ip[9] != 6:
                continue
            ihl = (ip[0] & 15) * 4
            tot = struct.unpack(">H", ip[2:4])[0]
            tcp = ip[ihl:tot]
            if len(tcp) < 20:
                continue
            sport, dport, seq = struct.unpack(">HHI", tcp[:8])
            off = (tcp[12] >> 4) * 4
            yield t, sport, dport, seq, tcp[13], tcp[off:]


class Stream:
    """One direction of a connection, bytes in sequence order."""

    def __init__(self):
        self.next = None

    def feed(self, seq, flags, payload):
        """The new in-order bytes of this packet (retransmits dropped)."""
        if flags & 0x02:  # SYN takes one sequence number
            self.next = (seq + 1) & 0xFFFFFFFF
            return b""
        if self.next is None or not payload:
            return b""
        skip = (self.next - seq) & 0xFFFFFFFF
        if skip >= 0x80000000:
            return b""  # a gap (a lost capture packet): not handled
        if skip >= len(payload):
            return b""
        self.next = (seq + len(payload)) & 0xFFFFFFFF
        return payload[skip:]


class Reply:
    """De-chunks one connection's replies; counts body bytes per reply."""

    def __init__(self):
        self.buf = b""
        self.state = "head"  # head, size, data, crlf
        self.left = 0
        self.body = 0
        self.index = 0  # which reply of the connection

    def feed(self, data):
        """Returns (reply index, body bytes so far) after data, or None
        when data carried no body byte of a reply."""
        self.buf += data
        got = None
        while self.buf:
            if self.state == "head":
                i = self.buf.find(b"\r\n\r\n")
                if i < 0:
                    break
                self.buf = self.buf[i + 4:]
                self.state, self.body = "size", 0
            elif self.state == "size":
                i = self.buf.find(b"\r\n")
                if i < 0:
                    break
                size = int(self.buf[:i].split(b";")[0] or b"0", 16)
                self.buf = self.buf[i + 2:]
                if size == 0:
                    # the last chunk (no trailers here): the next reply
                    i = self.buf.find(b"\r\n")
                    self.buf = self.buf[i + 2:] if i >= 0 else b""
                    self.state = "head"
                    self.index += 1
                else:
                    self.state, self.left = "data", size
            elif self.state == "data":
                n = min(self.left, len(self.buf))
                self.buf = self.buf[n:]
                self.left -= n
                self.body += n
                got = (self.index, self.body)
                if self.left == 0:
                    self.state = "crlf"
            else:  # crlf
                if len(self.buf) < 2:
                    break
                self.buf = self.buf[2:]
                self.state = "size"
        return got


def body_times(path, port):
    """rid -> [(t_realtime_ns, cum_body_end)] and capture counts."""
    up, down = defaultdict(Stream), defaultdict(Stream)
    reqs = defaultdict(bytes)  # client port -> request bytes so far
    rids = defaultdict(list)  # client port -> request ids in order
    replies = defaultdict(Reply)
    out = defaultdict(list)
    n = 0
    for t, sport, dport, seq, flags, payload in packets(path):
        n += 1
        if dport == port:
            data = up[sport].feed(seq, flags, payload)
            if data:
                buf = reqs[sport] + data
                cut = max(0, len(buf) - 4096)  # a header split by packets
                for m in RID.finditer(buf):
                    rids[sport].append(m.group(1).decode("utf-8", "replace"))
                    cut = max(cut, m.end() - 2)
                reqs[sport] = buf[cut:]
        elif sport == port:
            data = down[dport].feed(seq, flags, payload)
            got = replies[dport].feed(data) if data else None
            if got is not None and got[0] < len(rids[dport]):
                out[rids[dport][got[0]]].append((t, got[1]))
    return out, {"packets": n, "requests": len(out)}


def main():
    times, counts = body_times(sys.argv[1], int(sys.argv[2]))
    counts["body_packets"] = sum(len(v) for v in times.values())
    json.dump(counts, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
