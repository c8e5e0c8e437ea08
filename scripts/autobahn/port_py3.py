#!/usr/bin/env python3
"""Makes the PyPI package autobahntestsuite 25.10.1 run its fuzzing client on Python 3.

autobahntestsuite is Python 2 code (implicit relative imports, print
statements, str as bytes) pinned to autobahn 0.10.9, and this machine (Debian
bookworm) has no Python 2. autobahn 0.10.9 itself imports on Python 3, so
this script converts the installed suite in place:

1. CRLF line ends to LF, then lib2to3 (Python 3.11's standard library) for the
   syntax (imports, print, dict methods, unicode);
2. a few edits by hand, each checked to apply exactly once, for what 2to3
   cannot know: test payloads written as Python 2 byte strings go on the wire
   as latin-1 bytes (three UTF-8 text literals as UTF-8), expected and received
   events are compared as bytes, report writing takes str, one integer division.

Only the fuzzing client path (cases 1-7, 9, 10 and the reports) is fixed;
the WAMP and serializer modes are left out. Usage: port_py3.py SITE_PACKAGES_DIR
"""
import os
import re
import subprocess
import sys

VERSION = "25.10.1"

HELPER = '''"""Python 3 port helper: the suite was written for Python 2, where str was bytes."""


def tobytes(x):
   """A Python 2 byte string written as a Python 3 str (ASCII and \\\\x escapes) -> bytes."""
   if isinstance(x, str):
      return x.encode('latin-1')
   return x


def norm(obj):
   """Recursively turns str into bytes so expected and received events compare."""
   if isinstance(obj, str):
      return obj.encode('latin-1') if all(ord(c) < 256 for c in obj) else obj.encode('utf-8')
   if isinstance(obj, (bytes, bytearray)):
      return bytes(obj)
   if isinstance(obj, tuple):
      return tuple(norm(o) for o in obj)
   if isinstance(obj, list):
      return [norm(o) for o in obj]
   return obj


def jsondefault(o):
   """json.dumps fallback: bytes in results and wire logs are shown as text."""
   if isinstance(o, (bytes, bytearray)):
      return bytes(o).decode('utf-8', errors='replace')
   raise TypeError("not JSON serializable: %r" % (o,))


class binascii:
   """binascii.b2a_hex as the Python 2 cases call it (on str, printed into descriptions)."""

   @staticmethod
   def b2a_hex(x):
      import binascii as _binascii
      return _binascii.b2a_hex(tobytes(x)).decode('ascii')
'''

# FuzzingProtocol sits before autobahn's protocol class in the MRO, so these
# convert the cases' str payloads before autobahn 0.10.9 sees them.
PROTOCOL_OVERRIDES = '''   MAX_WIRE_LOG_DATA = 256

   # Python 3 port: the cases pass Python 2 byte strings written as str.
   def sendFrame(self, opcode, payload=b"", *args, **kwargs):
      payload = tobytes(payload)
      payload_len = kwargs.pop("payload_len", None)
      if payload_len is not None and len(payload) > 0:
         # autobahn 0.10.9 repeats the payload with "/" (a float on Python 3)
         payload = payload * (payload_len // len(payload)) + payload[:payload_len % len(payload)]
      return super().sendFrame(opcode, payload, *args, **kwargs)

   def sendPing(self, payload=None):
      return super().sendPing(tobytes(payload))

   def sendPong(self, payload=None):
      return super().sendPong(tobytes(payload))

   def sendMessage(self, payload, *args, **kwargs):
      return super().sendMessage(tobytes(payload), *args, **kwargs)

   def sendMessageFrameData(self, payload, *args, **kwargs):
      return super().sendMessageFrameData(tobytes(payload), *args, **kwargs)

   def sendMessageFrame(self, payload, *args, **kwargs):
      return super().sendMessageFrame(tobytes(payload), *args, **kwargs)

   def sendCloseFrame(self, code=None, reasonUtf8=None, isReply=False):
      return super().sendCloseFrame(code, tobytes(reasonUtf8), isReply)

   def sendData(self, data, *args, **kwargs):
      return super().sendData(tobytes(data), *args, **kwargs)
'''


def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def write(path, text):
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def edit(pkg, name, old, new, count=1):
    """Replaces `old` by `new` in pkg/name; `old` must occur exactly `count` times."""
    path = os.path.join(pkg, name)
    text = read(path)
    found = text.count(old)
    if found != count:
        sys.exit(f"port_py3: {name}: expected {count} of {old!r}, found {found}")
    write(path, text.replace(old, new))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: port_py3.py SITE_PACKAGES_DIR")
    pkg = os.path.join(sys.argv[1], "autobahntestsuite")
    marker = os.path.join(pkg, "py3bytes.py")
    if os.path.exists(marker):
        print("port_py3: already ported")
        return
    version = read(os.path.join(pkg, "_version.py"))
    if VERSION not in version:
        sys.exit(f"port_py3: this port is for autobahntestsuite {VERSION}")

    for root, _, files in os.walk(pkg):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(root, name)
                write(path, read(path).replace("\r\n", "\n"))
    subprocess.run([sys.executable, "-W", "ignore", "-m", "lib2to3", "-w", "-n", pkg],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    write(marker, HELPER)

    # Expected and received events compare as bytes.
    edit(pkg, "case/case.py", "import pickle\n", "import pickle\nfrom ..py3bytes import norm\n")
    edit(pkg, "case/case.py", "return pickle.dumps(obj1) == pickle.dumps(obj2)",
         "return pickle.dumps(norm(obj1)) == pickle.dumps(norm(obj2))")
    # The three cases whose source holds UTF-8 text (not \x escapes).
    for name in ("case6_2_1", "case6_2_2", "case6_2_3"):
        path = os.path.join(pkg, "case", name + ".py")
        text, n = re.subn(r'^(   PAYLOAD\d? = "[^"]*")$', r'\1.encode("utf-8")', read(path), flags=re.M)
        if n == 0:
            sys.exit(f"port_py3: {name}: no PAYLOAD literal")
        write(path, text)
    for name in sorted(os.listdir(os.path.join(pkg, "case"))):
        path = os.path.join(pkg, "case", name)
        if name.endswith(".py"):
            text = read(path)
            text = re.sub(r"^import binascii$", "from ..py3bytes import binascii", text, flags=re.M)
            text = text.replace("(object, Case, )", "(Case, )")  # no consistent MRO on Python 3
            write(path, text)
    edit(pkg, "case/case6_x_x.py", "res = v.validate(vss[:i])", "res = v.validate(vss[:i].encode('latin-1'))")
    edit(pkg, "case/case6_x_x.py", ".tostring()", ".tobytes()", count=6)
    edit(pkg, "case/case9_9_1.py", "from zope.interface import implements",
         "from zope.interface import implementer")
    edit(pkg, "case/case9_9_1.py", "class FrameProducer:\n\n   implements(interfaces.IPushProducer)\n",
         "@implementer(interfaces.IPushProducer)\nclass FrameProducer:\n")
    edit(pkg, "case/case10_1_1.py", "len(self.payload) / self.p.autoFragmentSize",
         "len(self.payload) // self.p.autoFragmentSize")
    # The WAMP serializer mode needs autobahn's test modules (unittest2).
    edit(pkg, "wstest.py", "\nfrom . import serializer\n", "\n#from . import serializer\n")

    fz = "fuzzing.py"
    edit(pkg, fz, "from twisted.internet import reactor, ssl\n",
         "from twisted.internet import reactor, ssl\nfrom .py3bytes import tobytes, jsondefault\n")
    edit(pkg, fz, "   MAX_WIRE_LOG_DATA = 256\n", PROTOCOL_OVERRIDES)
    edit(pkg, fz, "dd = binascii.b2a_hex(data[:maxlen]) + ellipses",
         "dd = binascii.b2a_hex(tobytes(data[:maxlen])).decode('ascii') + ellipses")
    edit(pkg, fz, "dd = binascii.b2a_hex(data)\n", "dd = binascii.b2a_hex(tobytes(data)).decode('ascii')\n")
    edit(pkg, fz, '   ellipses = " ..."\n   try:\n', '   ellipses = b" ..."\n   data = tobytes(data)\n   try:\n')
    edit(pkg, fz, "p = ''.join(payload)", "p = b''.join(tobytes(x) for x in payload)")
    edit(pkg, fz, "binascii.b2a_hex(frameHeader.mask) if frameHeader.mask",
         "binascii.b2a_hex(tobytes(frameHeader.mask)).decode('ascii') if frameHeader.mask", count=2)
    edit(pkg, fz, '% (c[0], case[c[0]], c[1])).encode("utf-8"))', '% (c[0], case[c[0]], c[1])))')
    edit(pkg, fz, "len(prefix))*\" \", ll.encode('utf8')))", "len(prefix))*\" \", ll))")
    edit(pkg, fz, ", sort_keys = True, indent = 3", ", default = jsondefault, sort_keys = True, indent = 3", count=2)
    print(f"port_py3: autobahntestsuite {VERSION} ported to Python 3 in {pkg}")


if __name__ == "__main__":
    main()
