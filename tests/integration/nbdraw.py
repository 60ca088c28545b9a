"""Raw NBD for the serve tests.

The few protocol pieces a test needs when it must say exactly what goes
on the wire (a malformed option, simple replies, a client that connects
and then does nothing), where a real client library would do it right.
The integration tests' lib.sh puts this folder on PYTHONPATH.
"""
import socket
import struct
import sys

IHAVEOPT = 0x49484156454F5054
OPT_REPLY_MAGIC = 0x3E889045565A9
REQUEST_MAGIC = 0x25609513
SIMPLE_REPLY_MAGIC = 0x67446698


def recvn(s, n):
    """n bytes from socket s, or None when the peer closes first."""
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            return None
        b += c
    return b


def need(s, n):
    """n bytes from socket s; the test ends with a message if the peer closes first."""
    b = recvn(s, n)
    if b is None:
        sys.exit("server closed the connection")
    return b


def hello(path, flags=1):
    """Connect to the unix socket at path, check the newstyle greeting and
    send the client flags (1: fixed newstyle).  Returns the socket."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    g = need(s, 18)
    assert g[:8] == b"NBDMAGIC" and g[8:16] == b"IHAVEOPT", g
    s.sendall(struct.pack(">I", flags))
    return s


def opt(s, o, data=b""):
    """Send option o with its data."""
    s.sendall(struct.pack(">QII", IHAVEOPT, o, len(data)) + data)


def request(s, typ, cookie, off, ln, payload=b"", flags=0):
    """Send a transmission-phase request."""
    s.sendall(struct.pack(">IHHQQI", REQUEST_MAGIC, flags, typ, cookie, off, ln) + payload)
