// SPDX-License-Identifier: GPL-2.0-only
///
/// An ioctl handler must answer a command it does not know with -ENOTTY,
/// or with -ENOIOCTLCMD where the core tries another handler next, not
/// with -EINVAL or -ENOSYS (Documentation/driver-api/ioctl.rst, "Return
/// code").  This finds the default label of a switch on the command that
/// returns -EINVAL or -ENOSYS, or assigns it to the value the function
/// returns, in a handler stored in the ioctl member of an ops structure
/// initialized in the same file, and replaces the error code with the one
/// that interface needs.
///
// Confidence: Moderate
// Copyright: (C) 2026 The enotty authors.
// Comments: A default that a case label above it reaches by falling through
//           also answers that known command, and a default next to a comment
//           about user space, ABI or compat, are left alone.  Handlers found
//           only through other files, or through helpers, are not checked,
//           nor those of an initializer with a macro among its fields
//           (fbdev's __FB_DEFAULT_DEFERRED_OPS_RDWR()).
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re

# (struct, ioctl member): (index of the command parameter, the answer)
IOCTL_OPS = {
    ("file_operations", "unlocked_ioctl"):       (1, "ENOTTY"),
    ("file_operations", "compat_ioctl"):         (1, "ENOTTY"),
    ("v4l2_ioctl_ops", "vidioc_default"):        (3, "ENOTTY"),
    ("snd_hwdep_ops", "ioctl"):                  (2, "ENOTTY"),
    ("snd_hwdep_ops", "ioctl_compat"):           (2, "ENOTTY"),
    ("fb_ops", "fb_ioctl"):                      (1, "ENOTTY"),
    ("tty_operations", "ioctl"):                 (1, "ENOIOCTLCMD"),
    ("tty_operations", "compat_ioctl"):          (1, "ENOIOCTLCMD"),
    ("watchdog_ops", "ioctl"):                   (1, "ENOIOCTLCMD"),
    ("v4l2_subdev_core_ops", "ioctl"):           (1, "ENOIOCTLCMD"),
    ("block_device_operations", "ioctl"):        (2, "ENOTTY"),
    ("block_device_operations", "compat_ioctl"): (2, "ENOTTY"),
    ("proto_ops", "ioctl"):                      (1, "ENOIOCTLCMD"),
    ("proto_ops", "compat_ioctl"):               (1, "ENOIOCTLCMD"),
    ("tty_ldisc_ops", "ioctl"):                  (1, "ENOIOCTLCMD"),
    ("tty_ldisc_ops", "compat_ioctl"):           (1, "ENOIOCTLCMD"),
    ("v4l2_file_operations", "unlocked_ioctl"):  (1, "ENOTTY"),
    ("v4l2_file_operations", "compat_ioctl32"):  (1, "ENOTTY"),
    ("v4l2_subdev_core_ops", "compat_ioctl32"):  (1, "ENOIOCTLCMD"),
    ("media_file_operations", "ioctl"):          (1, "ENOTTY"),
    ("media_file_operations", "compat_ioctl"):   (1, "ENOTTY"),
    ("dvb_device", "kernel_ioctl"):              (1, "ENOTTY"),
    ("snd_rawmidi_global_ops", "ioctl"):         (1, "ENOTTY"),
    ("snd_info_entry_ops", "ioctl"):             (3, "ENOTTY"),
    ("snd_seq_oss_callback", "ioctl"):           (1, "ENOTTY"),
    ("fb_ops", "fb_compat_ioctl"):               (1, "ENOTTY"),
    ("uart_ops", "ioctl"):                       (1, "ENOIOCTLCMD"),
    ("usb_serial_driver", "ioctl"):              (1, "ENOIOCTLCMD"),
    ("scsi_host_template", "ioctl"):             (1, "ENOTTY"),
    ("scsi_host_template", "compat_ioctl"):      (1, "ENOTTY"),
    ("dasd_discipline", "ioctl"):                (1, "ENOTTY"),
    ("tape_discipline", "ioctl_fn"):             (1, "ENOTTY"),
    ("bcache_device", "ioctl"):                  (2, "ENOTTY"),
    ("proto", "compat_ioctl"):                   (1, "ENOIOCTLCMD"),
    ("pppox_proto", "ioctl"):                    (1, "ENOIOCTLCMD"),
    ("ppp_channel_ops", "ioctl"):                (1, "ENOTTY"),
    ("atm_ioctl", "ioctl"):                      (1, "ENOIOCTLCMD"),
    ("atmdev_ops", "ioctl"):                     (1, "ENOTTY"),
    ("atmdev_ops", "compat_ioctl"):              (1, "ENOTTY"),
    ("atmphy_ops", "ioctl"):                     (1, "ENOTTY"),
    ("usb_driver", "unlocked_ioctl"):            (1, "ENOTTY"),
    ("usb_gadget_ops", "ioctl"):                 (1, "ENOTTY"),
    ("vfio_device_ops", "ioctl"):                (1, "ENOTTY"),
    ("vfio_iommu_driver_ops", "ioctl"):          (1, "ENOTTY"),
    ("uacce_ops", "ioctl"):                      (1, "ENOTTY"),
    ("proc_ops", "proc_ioctl"):                  (1, "ENOTTY"),
    ("proc_ops", "proc_compat_ioctl"):           (1, "ENOTTY"),
    ("rtc_class_ops", "ioctl"):                  (1, "ENOTTY"),
    ("posix_clock_operations", "ioctl"):         (1, "ENOTTY"),
    ("kvm_device_ops", "ioctl"):                 (1, "ENOTTY"),
    ("kvmppc_ops", "arch_vm_ioctl"):             (1, "ENOTTY"),
    ("hypfs_dbfs_file", "unlocked_ioctl"):       (1, "ENOTTY"),
    ("thread_with_stdio_ops", "unlocked_ioctl"): (1, "ENOTTY"),
}

handlers = {}   # (file, function) -> (command index, answer)
sites = {}      # (file, line, column) -> (function, error code, answer)
texts = {}      # file -> its lines, comments and strings blanked
ABI = re.compile(r"user\s*space|userspace|\bABI\b|compat", re.I)


def lines_of(name):
    if name not in texts:
        with open(name, errors="replace") as f:
            text = f.read()
        texts[name] = (text.split("\n"), re.sub(
            r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\])*\"",
            lambda m: re.sub(r"[^\n]", " ", m.group(0)), text,
            flags=re.S).split("\n"))
    return texts[name]


def default_label(p):
    """Line index of the default label above the error code, or -1."""
    code = lines_of(p[0].file)[1]
    i = int(p[0].line) - 1
    while i >= 0 and not re.search(r"\bdefault\s*:", code[i]):
        i -= 1
    return i


def fell_into(p):
    """A case above the default reaches it without break, return, goto or
    continue (fallthrough; or a case label right above): the error code
    then answers a known command too."""
    code = lines_of(p[0].file)[1]
    i = default_label(p)
    if i < 0:
        return True
    before = code[i][:code[i].index("default")].strip()
    j = i - 1
    while not before and j >= 0:
        if not code[j].lstrip().startswith("#"):
            before = code[j].strip()
        j -= 1
    return not re.search(r"(\bbreak|\bcontinue|\breturn\b[^;]*|"
                         r"\bgoto\s+\w+)\s*;$|\bswitch\s*\(.*\{$", before)


def under_default(p):
    """The assignment is the first statement of the default label."""
    code = lines_of(p[0].file)[1]
    i = default_label(p)
    if i < 0:
        return False
    text = "\n".join(code[i:int(p[0].line)])
    text = text[:len(text) - len(code[int(p[0].line) - 1])]
    text += code[int(p[0].line) - 1][:int(p[0].column)]
    return bool(re.search(r"\bdefault\s*:\s*\w+\s*=\s*\(?\s*-$", text))


def abi_comment(p):
    """A comment on the line or just above it ties the answer to user space."""
    raw, code = lines_of(p[0].file)
    i = int(p[0].line) - 1
    near = [k for k in (i - 2, i - 1, i) if k >= 0]
    return any(ABI.search(raw[k]) and raw[k] != code[k] for k in near)


def claim(p, fn, err):
    answer = handlers.get((p[0].file, fn))
    if answer and not fell_into(p[0:1]) and not abi_comment(p[0:1]):
        key = (p[0].file, p[0].line, p[0].column)
        sites.setdefault(key, (fn, err, answer[1]))


def site(p):
    return sites.get((p[0].file, p[0].line, p[0].column))

// The handlers: functions stored in an ioctl member of a static initializer.
@ops@
identifier S, F, fn, x;
position p;
@@
struct S x@p = { ..., .F = fn, ... };

@script:python@
S << ops.S;
F << ops.F;
fn << ops.fn;
p << ops.p;
@@
if (S, F) in IOCTL_OPS:
    handlers[(p[0].file, fn)] = IOCTL_OPS[(S, F)]

// The command parameter of each handler.
@target@
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
h = handlers.get((p[0].file, fn))
if h is None or h[0] != int(n):
    cocci.include_match(False)

// default: return -EINVAL; on every path from the label.
@dr forall@
identifier target.fn, target.cmd, F;
identifier err = {EINVAL, ENOSYS};
expression M;
position p;
@@
fn(...) { <...
switch (\(cmd\|F(cmd)\|cmd & ~M\|(cmd & ~M)\)) {
default:
...
return \(-err@p\|(-err@p)\);
}
...> }

@script:python@
p << dr.p;
fn << target.fn;
err << dr.err;
@@
claim(p, fn, err)

// default: ret = -EINVAL; then break or goto, when every path from there
// returns ret without assigning it again or comparing it with the code.
@da forall@
identifier target.fn, ret;
identifier err = {EINVAL, ENOSYS};
expression E;
position p : script:python () { under_default(p) };
@@
fn(...) { <...
ret = -err@p;
... when != ret = E
    when != \(ret == -err\|ret != -err\)
return ret;
...> }

@script:python@
p << da.p;
fn << target.fn;
err << da.err;
@@
claim(p, fn, err)

// The output, one rule per mode, on the tokens the shapes found.
@found@
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
fn, err, to = site(p)
coccilib.report.print_report(p[0], "WARNING: %s() answers an unknown ioctl "
                             "command with -%s, use -%s" % (fn, err, to))

@script:python depends on org@
p << found.p;
@@
fn, err, to = site(p)
coccilib.org.print_todo(p[0], "WARNING: %s() answers an unknown ioctl "
                        "command with -%s, use -%s" % (fn, err, to))
