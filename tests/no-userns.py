#!/usr/bin/python3
"""no-userns.py CMD [ARG...]: runs CMD as root in a user namespace of its
own (every id mapped to itself) where no further user namespace may be
made (user.max_user_namespaces 0 there, the machine's own untouched):
how render sees a kernel that offers Chromium no sandbox.  Exits as CMD
does."""
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
a_r, a_w = os.pipe(); b_r, b_w = os.pipe()
pid = os.fork()
if pid == 0:
    if libc.unshare(0x10000000) != 0:
        sys.exit("unshare: %s" % os.strerror(ctypes.get_errno()))
    os.write(a_w, b"u"); os.read(b_r, 1)
    with open("/proc/sys/user/max_user_namespaces", "w") as f:
        f.write("0")
    os.execvp(sys.argv[1], sys.argv[1:])
os.read(a_r, 1)
for m in ("uid_map", "gid_map"):
    with open("/proc/%d/%s" % (pid, m), "w") as f:
        f.write("0 0 4294967295")
os.write(b_w, b"g")
_, st = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(st))
