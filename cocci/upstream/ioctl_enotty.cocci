// SPDX-License-Identifier: GPL-2.0-only
///
/// An ioctl handler must answer a command it does not know with -ENOTTY,
/// or with -ENOIOCTLCMD where the core tries another handler next, not
/// with -EINVAL or -ENOSYS (Documentation/driver-api/ioctl.rst, "Return
/// code").  This finds the default label of a switch on the command that
/// returns -EINVAL or -ENOSYS, or assigns it to the value the function
/// returns, in a handler stored in an ioctl member of ops in the same file
/// (in an initializer, or at run time in the ops of a snd_hwdep), or in a
/// static helper that such a handler hands an unknown command to and
/// returns the value of, and replaces the error code with the one that
/// interface needs.
///
// Confidence: Moderate
// Copyright: (C) 2026 The enotty authors.
// Comments: Left alone: a default that a case above falls into (it also
//           answers that command), one next to a comment about user space,
//           ABI or compat, and a function that answers -EINVAL or -ENOSYS,
//           or fails a test of its argument, before it looks at the command.
//           Not checked: handlers whose ops structure is in another file,
//           helpers that are not static or that another file calls,
//           callbacks handed to a wrapper such as video_usercopy(), helpers
//           whose caller may change the value they return, and helpers of
//           helpers.  Nor can it see a program that reads the -EINVAL: hdparm
//           falls back from SG_IO to HDIO_DRIVE_CMD only on EINVAL (mtip32xx).
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re

# The ioctl members of ops structures, by the index of the command
# parameter and the answer to an unknown command.
IOCTL_MEMBERS = {
    (1, "ENOTTY"): """
        file_operations.unlocked_ioctl file_operations.compat_ioctl fb_ops.fb_ioctl
        v4l2_file_operations.unlocked_ioctl v4l2_file_operations.compat_ioctl32
        media_file_operations.ioctl media_file_operations.compat_ioctl
        dvb_device.kernel_ioctl snd_rawmidi_global_ops.ioctl
        snd_seq_oss_callback.ioctl fb_ops.fb_compat_ioctl scsi_host_template.ioctl
        scsi_host_template.compat_ioctl dasd_discipline.ioctl tape_discipline.ioctl_fn
        ppp_channel_ops.ioctl atmdev_ops.ioctl atmdev_ops.compat_ioctl
        atmphy_ops.ioctl usb_driver.unlocked_ioctl usb_gadget_ops.ioctl
        vfio_device_ops.ioctl vfio_iommu_driver_ops.ioctl uacce_ops.ioctl
        proc_ops.proc_ioctl proc_ops.proc_compat_ioctl rtc_class_ops.ioctl
        posix_clock_operations.ioctl kvm_device_ops.ioctl kvmppc_ops.arch_vm_ioctl
        hypfs_dbfs_file.unlocked_ioctl thread_with_stdio_ops.unlocked_ioctl""",
    (2, "ENOTTY"): """
        snd_hwdep_ops.ioctl snd_hwdep_ops.ioctl_compat block_device_operations.ioctl
        block_device_operations.compat_ioctl bcache_device.ioctl""",
    (3, "ENOTTY"): """
        v4l2_ioctl_ops.vidioc_default snd_info_entry_ops.ioctl""",
    (1, "ENOIOCTLCMD"): """
        tty_operations.ioctl tty_operations.compat_ioctl watchdog_ops.ioctl
        v4l2_subdev_core_ops.ioctl proto_ops.ioctl proto_ops.compat_ioctl
        tty_ldisc_ops.ioctl tty_ldisc_ops.compat_ioctl
        v4l2_subdev_core_ops.compat_ioctl32 uart_ops.ioctl usb_serial_driver.ioctl
        proto.compat_ioctl pppox_proto.ioctl atm_ioctl.ioctl""",
}
IOCTL_OPS = {tuple(m.split(".")): k for k, v in IOCTL_MEMBERS.items() for m in v.split()}

handlers = {}   # (file, function) -> (command index, answer)
callers = {}    # (file, helper) -> [(offset of a call, command of the caller)]
sites = {}      # (file, line, column) -> (function, error code, answer)
texts = {}      # file -> (lines, text with comments, strings, cpp blanked, line offsets)
ABI = re.compile(r"user\s*space|userspace|\bABI\b|compat", re.I)
LABEL = r"\b(?:case\b(?:[^:?]|\?[^:]*:)*:(?!:)|default\s*:)"
LEAVE = r"(?:break|continue|return\b[^;]*|goto\s+\w+)\s*;"

def text_of(name):
    if name not in texts:
        raw = open(name, errors="replace").read()
        code = re.sub(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'"
                      r"|^[ \t]*#(?:[^\n]*\\\n)*[^\n]*",
                      lambda m: re.sub(r"[^\n]", " ", m.group(0)), raw, flags=re.S | re.M)
        starts = [0] + [m.end() for m in re.finditer("\n", raw)] + [len(raw)]
        texts[name] = (raw.split("\n"), code, starts)
    return texts[name]

def offset(p):
    return text_of(p.file)[2][int(p.line) - 1] + int(p.column)

def mentions(text, name):
    return re.search(r"\b%s\b" % re.escape(name), text) is not None

def close_of(code, i):
    """Offset of the bracket that closes the one at i."""
    depth = 0
    for m in re.compile(r"[{}()]").finditer(code, i):
        depth += 1 if m.group() in "{(" else -1
        if depth == 0:
            return m.start()
    return len(code)

def body_of(code, off):
    """Offset of the opening brace of the function around off."""
    depth, start = 0, -1
    for m in re.compile(r"[{}]").finditer(code, 0, off):
        start = m.start() if depth == 0 else start
        depth += 1 if m.group() == "{" else -1
    return start

def blocks(code, off, kind):
    """(keyword, condition, the brace of its block or -1) of the switch or
    if statements of the function around off whose block holds off."""
    for m in re.compile(r"\b(%s)\s*\(" % kind).finditer(code, body_of(code, off), off):
        end = close_of(code, m.end() - 1)
        brace = re.compile(r"\s*\{").match(code, end + 1)
        brace = brace.end() - 1 if brace else -1
        if (close_of(code, brace) if brace > 0 else code.find(";", end)) > off:
            yield m.group(1), code[m.end():end], brace

def labels(code, sw, off):
    """(start, end, is default) of the labels of the switch at sw before off."""
    found, depth = [], 0
    for m in re.compile(r"[{}]|" + LABEL).finditer(code, sw + 1, off):
        depth += (m.group() == "{") - (m.group() == "}")
        if depth == 0 and m.group() not in "{}":
            found.append((m.start(), m.end(), m.group().startswith("default")))
    return found

def leaves(seg):
    """The statements of a case end in break, continue, goto or return (or
    a block, an if-else, or a switch with a default and no break, that do)."""
    s = seg.strip()
    m = re.search(r"\belse\s*" + LEAVE + "$", s)
    if m:
        return re.search(LEAVE + r"\s*\}?\s*$", s[:m.start()]) is not None
    if not s.endswith("}"):
        m = re.search(r"(?:^|[;{}:])\s*" + LEAVE + "$", s)
        return m is not None and s[:m.start() + 1].count("{") == s[:m.start() + 1].count("}")
    depth, o = 1, len(s) - 2
    while o > 0 and depth + (s[o] == "}") - (s[o] == "{"):
        depth, o = depth + (s[o] == "}") - (s[o] == "{"), o - 1
    head, inner = s[:o].rstrip(), s[o + 1:-1]
    if re.search(r"\belse$", head):
        return leaves(inner) and re.search(LEAVE + r"\s*\}?\s*else$", head) is not None
    if re.search(r"\bswitch\s*\(.*\)$", head, re.S):
        return "default" in inner and not mentions(inner, "break") and leaves(inner)
    return (not head or head[-1] in ";{}:") and leaves(inner)

def in_default(p, cmd, first=False):
    """p is under the default label of the innermost switch on cmd, which
    no case above falls into (and, with first, is its first statement)."""
    code, off = text_of(p.file)[1], offset(p)
    sw = [b for _, c, b in blocks(code, off, "switch") if mentions(c, cmd) and b > 0]
    found = labels(code, sw[-1], off) if sw else []
    if not found or not found[-1][2] or first and not re.fullmatch(
            r"\s*\w+\s*=\s*\(?\s*-\s*", code[found[-1][1]:off]):
        return False
    return len(found) == 1 or leaves(code[found[-2][1]:found[-1][0]])

def reaches(code, off, cmd):
    """An unknown command reaches off: under no case label of a switch on
    cmd, nor in the branch of an if (cmd == A)."""
    return not any(re.search(r"\b%s\s*==" % re.escape(cmd), cond) if kind == "if" else
                   brace > 0 and mentions(cond, cmd) and
                   any(not label[2] for label in labels(code, brace, off)[-1:])
                   for kind, cond, brace in blocks(code, off, "switch|if"))

def guarded(code, end, cmd):
    """Before end, the function leaves on a check not of cmd (or of cmd alone)
    with -EINVAL or -ENOSYS, or with any error if it tests the argument."""
    start = body_of(code, end)
    arg = re.search(r"\b%s\s*,[^,)]*?(\w+)\s*[,)]" % re.escape(cmd),
                    code[code.rfind(";", 0, start) + 1:start])
    names = {arg.group(1)} if arg else set()
    for m in re.finditer(r"\b(\w+)\s*=([^;=]*);", code[start:end]):
        names |= {m.group(1)} if any(mentions(m.group(2), n) for n in names) else set()
    for m in re.compile(r"\bif\s*\(").finditer(code, start, end):
        close = close_of(code, m.end() - 1)
        cond, brace = code[m.end():close], re.compile(r"\s*\{").match(code, close + 1)
        then = code[close:close_of(code, brace.end() - 1) if brace else code.find(";", close)]
        if code.count("{", start + 1, m.start()) != code.count("}", start + 1, m.start()) or \
                mentions(cond, cmd) and cond.strip() != cmd or re.match(r"\s*(WARN|BUG)_ON", cond) \
                or not re.search(r"\b(return|goto)\b", then):
            continue
        errs = set(re.findall(r"-\s*(E[A-Z]+)\b", then)) or set(re.findall(
            r"=\s*-\s*(E[A-Z]+)\s*;\s*$", code[max(m.start() - 60, 0):m.start()]))
        if errs & {"EINVAL", "ENOSYS"} or errs and (any(mentions(cond, n) for n in names) or
                                                   re.search(r"\b(copy_from|get)_user\b", cond)):
            return True
    return False

def abi_comment(p):
    """A comment on the line or just above it ties the answer to user space."""
    raw, code, starts = text_of(p.file)
    i = int(p.line) - 1
    return any(ABI.search(raw[k]) and raw[k] != code[starts[k]:starts[k + 1]].rstrip("\n")
               for k in (i - 2, i - 1, i) if k >= 0)

def is_target(p, fn, n):
    return handlers.get((p[0].file, fn), (None,))[0] == int(n)

def claim(ps, fn, cmd, n, err, first=False):
    """The sites of a target, unless it or the handler that calls it is guarded."""
    for p in ps if is_target(ps, fn, n) else ():
        ends = [(offset(p), cmd)] + callers.get((p.file, fn), [])
        if in_default(p, cmd, first) and not abi_comment(p) and \
                not any(guarded(text_of(p.file)[1], end, c) for end, c in ends):
            sites.setdefault((p.file, p.line, p.column), (fn, err, handlers[(p.file, fn)][1]))

def site(p):
    return sites.get((p[0].file, p[0].line, p[0].column))

def message(p):
    return "WARNING: %s() answers an unknown ioctl command with -%s, use -%s" % site(p)

// spatch reads only the files that name an ioctl member of IOCTL_MEMBERS.
@named@
identifier S, x, fn;
expression E;
@@
( struct S x = { ..., .unlocked_ioctl = fn, ... };
| struct S x = { ..., .compat_ioctl = fn, ... };
| struct S x = { ..., .ioctl = fn, ... };
| struct S x = { ..., .ioctl_compat = fn, ... };
| struct S x = { ..., .vidioc_default = fn, ... };
| struct S x = { ..., .fb_ioctl = fn, ... };
| struct S x = { ..., .fb_compat_ioctl = fn, ... };
| struct S x = { ..., .compat_ioctl32 = fn, ... };
| struct S x = { ..., .kernel_ioctl = fn, ... };
| struct S x = { ..., .ioctl_fn = fn, ... };
| struct S x = { ..., .arch_vm_ioctl = fn, ... };
| struct S x = { ..., .proc_ioctl = fn, ... };
| struct S x = { ..., .proc_compat_ioctl = fn, ... };
| E.ioctl = fn;
| E.ioctl_compat = fn;
)

// The handlers: functions stored in an ioctl member of an initializer, or
// at run time in the ops member of a snd_hwdep.
@ops depends on named@
identifier S, M, F, fn, x;
type T;
T e;
position p;
@@
( struct S x@p = { ..., .F = fn, ... };
| e->M.F@p = fn;
| e.M.F@p = fn;
)

@script:python@
S << ops.S = "";
T << ops.T = "";
M << ops.M = "";
F << ops.F;
fn << ops.fn;
p << ops.p;
@@
if re.sub(r"^(const\s+)?struct\s+|[\s*]+$", "", T) == "snd_hwdep" and M == "ops":
    S = "snd_hwdep_ops"
if (S, F) in IOCTL_OPS:
    handlers[(p[0].file, fn)] = IOCTL_OPS[(S, F)]

// The command parameter of each handler.
@target depends on named@
identifier fn, cmd;
parameter list[n] ps;
type T;
position p;
@@
fn@p(ps, T cmd, ...) { ... }

@script:python@
fn << target.fn;
n << target.n;
p << target.p;
@@
cocci.include_match(is_target(p, fn, n))

// The static helpers that a handler hands an unknown command to and
// returns the value of.
@call depends on named forall@
identifier target.fn, target.cmd, helper, ret;
expression list[n] es;
expression E;
position p;
@@
fn(...) { <...
(
return helper@p(es, cmd, ...);
|
ret = helper@p(es, cmd, ...);
... when != ret = E
return ret;
)
...> }

@script:python@
fn << target.fn;
cmd << target.cmd;
helper << call.helper;
n << call.n;
p << call.p;
@@
code, off = text_of(p[0].file)[1], offset(p[0])
if re.search(r"^static\s[^;{}]*\b%s\s*\(" % helper, code, re.M) \
        and reaches(code, off, cmd) and (p[0].file, helper) not in handlers:
    handlers[(p[0].file, helper)] = (int(n), handlers[(p[0].file, fn)][1])
    callers.setdefault((p[0].file, helper), []).append((off, cmd))

// In the handlers and their helpers: default: return -EINVAL; on every
// path from the label.
@dr depends on named forall@
identifier fn, cmd, F;
identifier err = {EINVAL, ENOSYS};
parameter list[n] ps;
expression M;
type T;
position p;
@@
fn(ps, T cmd, ...) { <...
switch (\(cmd\|F(cmd)\|cmd & ~M\|(cmd & ~M)\)) {
default:
...
return \(-err@p\|(-err@p)\);
}
...> }

@script:python@
p << dr.p;
fn << dr.fn;
cmd << dr.cmd;
n << dr.n;
err << dr.err;
@@
claim(p, fn, cmd, n, err)

// default: ret = -EINVAL; then break or goto, when every path from there
// returns ret without assigning it again or comparing it with the code.
@da depends on named forall@
identifier fn, cmd, ret;
identifier err = {EINVAL, ENOSYS};
parameter list[n] ps;
expression E;
type T;
position p;
@@
fn(ps, T cmd, ...) { <...
ret = -err@p;
... when != ret = E
    when != \(ret == -err\|ret != -err\)
return ret;
...> }

@script:python@
p << da.p;
fn << da.fn;
cmd << da.cmd;
n << da.n;
err << da.err;
@@
claim(p, fn, cmd, n, err, True)

// The output, one rule per mode, on the tokens the shapes found.
@found depends on named@
identifier err = {EINVAL, ENOSYS};
position p : script:python () { site(p) is not None };
@@
err@p

@script:python answer@
p << found.p;
to;
@@
coccinelle.to = cocci.make_ident(site(p)[2])

@depends on patch@
identifier found.err, answer.to;
position found.p;
@@
- err@p
+ to

@depends on context@
identifier found.err;
position found.p;
@@
* err@p

@script:python depends on report@
p << found.p;
@@
coccilib.report.print_report(p[0], message(p))

@script:python depends on org@
p << found.p;
@@
coccilib.org.print_todo(p[0], message(p))

