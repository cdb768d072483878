// SPDX-License-Identifier: GPL-2.0-only
/// An ioctl handler answers a command it does not know with -ENOTTY, or with
/// -ENOIOCTLCMD where the core maps it (tty, sockets, V4L2 sub-devices) and
/// -EOPNOTSUPP for ndo_siocdevprivate, not -EINVAL or -ENOSYS (see
/// Documentation/driver-api/ioctl.rst).  A handler is converted whole or not:
/// one with a preset a case returns, or a state check first, is only reported.
// Confidence: Moderate
// Comments: Blind to programs that read the -EINVAL but read_by, comments,
//  ops or callers in other files, an if on cmd between two switches, a command
//  falling out of a sub-handler loop, a default that does more than log.
// Options: --no-includes --include-headers
virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
# The value each ioctl member answers a command it does not know with.
ANSWER = {m: to for to, ms in (("ENOTTY", """uacce_ops.ioctl
    file_operations.unlocked_ioctl file_operations.compat_ioctl atmdev_ops.ioctl
    block_device_operations.ioctl block_device_operations.compat_ioctl
    scsi_host_template.ioctl scsi_host_template.compat_ioctl proc_ops.proc_ioctl
    snd_hwdep_ops.ioctl snd_hwdep_ops.ioctl_compat snd_seq_oss_callback.ioctl
    fb_ops.fb_ioctl fb_ops.fb_compat_ioctl v4l2_ioctl_ops.vidioc_default
    usb_driver.unlocked_ioctl dvb_device.kernel_ioctl"""), ("ENOIOCTLCMD", """
    proto_ops.ioctl proto_ops.compat_ioctl tty_operations.ioctl
    tty_ldisc_ops.ioctl tty_ldisc_ops.compat_ioctl
    v4l2_subdev_core_ops.ioctl"""), ("EOPNOTSUPP", """
    net_device_ops.ndo_siocdevprivate""")) for m in ms.split()}
INDEX = {"block_device_operations": 2, "snd_hwdep_ops": 2, "v4l2_ioctl_ops": 3,
         "net_device_ops": 3}   # of cmd among the parameters; 1 elsewhere
import re   # targets: (file, function) -> (index of cmd, handler, answer)
targets, turned, sites, rets = {}, {}, {}, {}
inner, dcall, arms, brks, hwdep, no, held, adds, keep, first = map(set, [()]*10)
def at(p): return (p[0].file, p[0].line, p[0].column)
def fun(p, fn=None): return (p[0].file, fn or p[0].current_element)
def follow(q, fn, h, n):  # fn calls h at q with the command as argument n
    if fun(q, fn) in targets and (at(q) in dcall or at(q) not in inner
                                  and int(q[0].line) < turned.get(fun(q), 1e9)):
        t = (int(n),) + targets[fun(q, fn)][1:]
        if targets.setdefault(fun(q, h), t)[2] != t[2]:   # two interfaces
            targets[fun(q, h)] = t[:2] + (None,)
def site(p): sites.setdefault(at(p), fun(p))
def block(p, s=held): s.add((p[0].file, targets[fun(p)][1]))  # veto, or hold
def say(p, e): return "%s() answers an unknown ioctl command with -%s, use " \
    "-%s" % (fun(p)[1], e, answer(p)) + " in a default" * (at(p) in adds) + \
    " in a test of cmd before this check" * (at(p) in first) + " after a " \
    "test keeping -%s for the commands programs read" % e * (fun(p) in keep)
def lets_out(p, r, c):  # preset p, returned at r, reaches a switch on cmd c
    s = "".join(open(p[0].file).readlines()[int(p[0].line):int(r[0].line)])
    h, _, b = re.sub(r"/\*.*?\*/|//[^\n]*", "", s, flags=re.S).partition(
        "switch (%s)" % c)   # untested, and it has no default or one whose
    d = re.split(r"\bdefault\s*:", b)   # first statement may leave by break
    m = re.search(r"[{};]|[^!<>=]=[^=]|\b(for|while|do|switch|break)\b", d[-1])
    return not re.search(r"\b%s\b" % c, h) and (
        len(d) == 1 or len(d) == 2 and m and m.group(1) == "break")
def answer(p):  # a held handler (a preset a case leaves with) changes nothing
    t = at(p) not in no and targets.get(sites.get(at(p))) or (0, 0, None)
    h = (p[0].file, t[1])
    return t[2] if h not in held and (at(p) in adds or h not in adds) else None

// Handlers in an initializer or snd_hwdep ops, cmd their INDEX-th parameter.
@ops@
identifier S, x, fn, F =~ "ioctl|vidioc_default|siocdevprivate";
@@
struct S x = { ..., .F = \(fn\|&fn\), ... };
@handler@
identifier ops.fn, cmd, arg; parameter list[n] ps; type T, T2; position p;
@@
fn@p(ps, T cmd, T2 arg) { ... }
@script:python@
S << ops.S; F << ops.F; fn << ops.fn; p << handler.p;
@@
if S + "." + F in ANSWER:
    targets[fun(p, fn)] = (INDEX.get(S, 1), fn, ANSWER[S + "." + F])

@hwdep_op@
identifier fn, F = {ioctl, ioctl_compat}; struct snd_hwdep *h; position q;
@@
h->ops.F = fn@q;

// Calls under a case label or an if on cmd get known commands only.
@cased exists@
identifier cmd, h, x; expression A, B, E; position q;
@@
\(switch (cmd) { case E: ... \(return h@q(...);\|x = h@q(...);\) ... }
\|if (\(cmd == A\|cmd == A || cmd == B\)) \(return h@q(...);\|
  { <+... \(return h@q(...);\|x = h@q(...);\) ...+> }\)\)
@default_call exists@
identifier cmd, h, x; position q;
@@
switch (cmd) { default: ... \(return h@q(...);\|x = h@q(...);\) ... }

// After a switch whose default: returns, calls get known commands (gup_test).
@turns_away@
identifier cmd; expression R; position f;
@@
switch@f (cmd) { default: return R; }
@script:python@
q << cased.q = []; d << default_call.q = []; f << turns_away.f = [];
h << hwdep_op.fn = ""; w << hwdep_op.q = [];
@@
if w: hwdep.add(fun(w, h))
[s.add(at(v)) for s, v in ((inner, q), (dcall, d)) if v]
if f: turned.setdefault(fun(f), int(f[0].line))

// Static functions a handler (or one of those) returns the value of.
@call exists@
identifier ops.fn, handler.cmd, h, ret;
expression list[n] es; expression E; position q;
@@
fn(...) { <...
\(return h@q(es, \(cmd\|&cmd\), ...);
\|ret = h@q(es, \(cmd\|&cmd\), ...);
  ... when != ret = E
      when != \(-EINVAL\|-ENOSYS\|-EBADRQC\|-EOPNOTSUPP\|-ENOTSUPP\|-EFAULT\)
  \(return ret;\|if (ret) return ret;\|if (ret) { ... return ret; }\)
\) ...> }
@helper@
identifier call.h, c; parameter list[call.n] ps; type T, T2;
@@
static T2 h(ps, T c, ...) { ... }
@call2 exists@
identifier call.h, helper.c, h2, ret;
expression list[n] es; expression E; position q;
@@
h(...) { <...
\(return h2@q(es, \(c\|&c\), ...);
\|ret = h2@q(es, \(c\|&c\), ...);
  ... when != ret = E
      when != \(-EINVAL\|-ENOSYS\|-EBADRQC\|-EOPNOTSUPP\|-ENOTSUPP\|-EFAULT\)
  \(return ret;\|if (ret) return ret;\|if (ret) { ... return ret; }\)
\) ...> }
@helper2@
identifier call2.h2, c2; parameter list[call2.n] ps; type T, T2;
@@
static T2 h2(ps, T c2, ...) { ... }
@script:python@
fn << ops.fn; h << call.h; n << call.n; q << call.q; c << helper.c = "";
h2 << call2.h2 = ""; n2 << call2.n = ""; q2 << call2.q = []; k << handler.n;
c2 << helper2.c2 = "";
@@
if targets.get(fun(q, fn), [0])[0] == int(k):   # not ndo: cmd is last there
    if c: follow(q, fn, h, n)   # static functions only
    if c2: follow(q2, h, h2, n2)

@io@
identifier fn, cmd; parameter list[n] ps; type T; position p;
@@
fn@p(ps, T cmd, ...) { ... }
@script:python@
fn << io.fn; n << io.n; p << io.p;
@@
if fun(p, fn) in hwdep: targets.setdefault(fun(p, fn), (2, fn, "ENOTTY"))
cocci.include_match(targets.get(fun(p, fn), [-1])[0] == int(n))

// Statements a known command runs (case or if arms), and breaks of its switch.
@arm exists@
identifier io.fn, io.cmd; expression E, M; statement S, S2; position s, b;
@@
fn(...) { ... when any
\(switch (\(cmd\|cmd & M\)) { case E: ... when any
\(break@b;\|S@s\)
... when any
}
\|if (cmd == E) S@s\|if (cmd == E) S@s else S2\)
... when any
}
@script:python@
s << arm.s = []; b << arm.b = [];
@@
arms.update(at(x) for x in (s, b) if x); brks.update([at(b)] if b else [])

@default_ret forall@
identifier io.fn, io.cmd, F; expression M; position p;
identifier err = {EINVAL, ENOSYS, EOPNOTSUPP, ENOTSUPP, EFAULT};
@@
fn(...) { <...
switch (\(cmd\|F(cmd)\|cmd & M\)) { default: ... return -err@p; }
...> }

@assign forall@
identifier io.fn, ret, err = {EINVAL, ENOSYS, EOPNOTSUPP};
expression E; position p;
@@
fn(...) { <...
ret = -err@p;
... when != ret = E
    when != \(ret == -err\|ret != -err\)
return ret;
...> }

@default_assign exists@
identifier io.fn, io.cmd, assign.ret, F, assign.err;
expression A, M, E; statement S; position assign.p, d;
@@
fn(...) { <+... \(switch (\(cmd\|F(cmd)\|cmd & M\))
{ default: \(ret = -err@p@d;\|E; ret = -err@p@d;\) ... }
\|if (cmd == A) S else ret = -err@p@d;\) ...+> }

// A test of the command or its type, or the else of an if-chain on it.
@cmd_test exists@
identifier io.fn, io.cmd, err = {EINVAL, ENOSYS};
expression A, B, M, N; statement S; position p;
@@
fn(...) { <+... \(if (\(_IOC_TYPE(cmd) != M\|((cmd >> 8) & N) != M\|
    !((cmd & N) == M)\|(cmd & N) != M\|_IOC_TYPE(cmd) != M && cmd != A\|
    (_IOC_TYPE(cmd) != M) && (cmd != A)\|cmd != A\|cmd != A && cmd != B\|cmd\))
\(return -err@p;\|{ return -err@p; }\|{ return (-err@p); }\)
\|if (cmd == A) S else \(return -err@p;\|{ return -err@p; }\)\) ...+> }
@under exists@
identifier fn, cmd_test.err; expression C; statement S; position cmd_test.p, u;
@@
fn(...) { <+... \(if (C) { <+... if@u (...) return -err@p; ...+> } else S
\|if (C) { <+... if@u (...) return -err@p; ...+> }\) ...+> }

@lookup_miss@
identifier io.fn, io.cmd, err = {EINVAL, ENOSYS}; expression E; position p;
@@
fn(...) { ... when any
for (...; ...; ...) { ... when != break;
if (<+... *cmd ...+>) { ... when != break;
return E; } ... when != break;
} return -err@p; }
@script:python@
p << default_ret.p = []; d << default_assign.d = [];
y << cmd_test.p = []; l << lookup_miss.p = []; u << under.u = [];
@@
if u: no.add(at(y))   # a test under one of the state: no site
[site(v) for v in (p, d, y, l) if v]

// The return after a switch or an if on cmd that no known command reaches.
@final@
identifier io.fn, err = {EINVAL, ENOSYS, EBADRQC}; statement S; position p, s;
@@
fn(...) { <... S@s return -err@p; ...> }
@dispatch exists@
identifier io.fn, io.cmd; expression A, B, E, E2, M; position c;
@@
fn(...) { ... when any
\(switch@c (\(cmd\|cmd & M\)) { case E: ... }
\|if@c (cmd == A) \(return E;\|{ ... return E; }\)
\|if@c (cmd == A) { ... return E; } else if (cmd == B) { ... return E2; }\)
... when any
}
@falls exists@
identifier final.err; statement S;
position final.p, s : script:python () { at(s) in arms };
@@
S@s ... return -err@p;
@script:python@
p << final.p; s << final.s; c << dispatch.c; f << falls.s = [];
@@
if f: no.add(at(p))   # a known command reaches it: no site
elif at(s) == at(c): site(p)

// ret = -EINVAL; kept by a switch only past a default: or for no case.
@init exists@
identifier io.fn, io.cmd, ret, err = {EINVAL, ENOSYS, EBADRQC};
expression E; type T; position p;
@@
fn(...) { ... when any
T ret = -err@p;
... when != ret
switch (cmd) { case ...: ... when any
}
... when != ret = E
return ret; }
@init_leak exists@
identifier io.fn, init.ret, init.err, l; expression E; type T;
position init.p, q, b : script:python () { at(b) in brks };
@@
fn@q(...) { ... when any
T ret = -err@p;
... when != ret = E
\(break@b;\|goto l;\)
... when != ret = E
return ret; }
@init_return exists@
identifier io.fn, init.ret, init.err; expression E; type T; position init.p, r;
@@
fn(...) { ... when any
T ret = -err@p;
... when != ret = E
return@r ret;
... when any
}
@script:python@
p << init.p; q << init_leak.q = []; r << init_return.r = []; c << io.cmd;
@@
if r and q and lets_out(p, r, c): adds.add(at(p)); site(p); block(p, adds)
if r and not q: site(p)
if r: rets.setdefault(at(p), set()).add(at(r))
if len(rets.get(at(p), ())) > 1: block(p)   # a case returns it too

// A site under a case label answers a known command, one under WARN_ON() a bug.
@known exists@
identifier io.fn, io.cmd, x, err = {EINVAL, ENOSYS};
expression A, E; statement S; position k;
@@
fn(...) { <...
\(switch (cmd) { case E: ... when any
\(return -err@k;\|x = -err@k;\) ... when any
}
\|if (cmd == A) { <+... return -err@k; ...+> } else S
\|if (cmd == A) { <+... return -err@k; ...+> }
\|if (WARN_ON(E)) return -err@k;\)
...> }
@script:python@
k << known.k;
@@
if at(k) in sites: block(k)
// So does one after a test that turned away every other command.
@after exists@
identifier io.fn, io.cmd, cmd_test.err, x; expression A, B;
position cmd_test.p, k;
@@
fn(...) { ... when != cmd
if (\(cmd\|cmd != A\|cmd != A && cmd != B\))
\(return -err@p;\|{ return -err@p; }\|{ return (-err@p); }\)
... when any
\(return -err@k;\|x = -err@k;\)
... when any
}

// An argument check before the command: a valid argument gets past it.
@argument exists@
identifier io.fn, io.cmd, m, f, x =~ "^u?argp?$"; position p;
@@
fn(...) { ... when != cmd
\(if (!x) return -EINVAL@p;\|if (copy_from_user(&m, ...)) return -EFAULT;
... when != cmd
    when any
if (<+... m.f ...+>) return -EINVAL@p;\) ... when any
}

// A state check first answers an unknown command too: test cmd before it.
@state exists@
identifier io.fn; expression S; position p != {known.k, after.k, argument.p};
@@
fn(...) { ... when != copy_from_user(...)
if (S) \(return -EINVAL@p;\|{ ... return -EINVAL@p; }\)
... when any
}

// Any other -EINVAL returned (or set and returned) blocks the handler.
@other exists@
identifier io.fn, x, err = {EINVAL, ENOSYS}; expression E; type T;
position p != {known.k, after.k, argument.p};
@@
fn(...) { ... when any
\(return -err@p;\|\(T x = -err@p;\|x = -err@p;\) ... when != x = E
return x;\)
... when any
}

// Handlers whose -EINVAL programs read: left alone, or held (binder, sit).
@read_by exists@
identifier io.fn, C = {RTC_RD_TIME, DBCIOCNONCE, HDIO_DRIVE_TASKFILE,
  BINDER_WRITE_READ, EPIOCSPARAMS, SNDCTL_DSP_RESET, SNDCTL_FM_LOAD_INSTR,
  HIDIOCGRDESCSIZE, SIOCGETPRL}; position p;
@@
fn@p(...) { <+... C ...+> }
@script:python@
p << other.p = []; r << read_by.p = []; s << state.p = []; c << read_by.C = "";
@@
m = [a for a in sites if sites[a] == fun(s)] if s and at(s) not in sites else []
if m and not adds & set(m): site(s); first.add(at(s)); keep.update(m, [at(s)])
if p and (at(p) not in sites or at(p) in no): block(p)
if r: keep.add(fun(r)) if c in ("BINDER_WRITE_READ", "SIOCGETPRL") else block(r)

@found@
identifier err = {EINVAL, ENOSYS, EBADRQC, EOPNOTSUPP, ENOTSUPP, EFAULT};
position p : script:python (err) { answer(p) not in (None, err) and
  (err in ("EINVAL", "ENOSYS", "EBADRQC") or answer(p) == "ENOTTY") };
@@
err@p
@script:python ans@
p << found.p; e << found.err; to;
@@
coccinelle.to = cocci.make_ident(e if {at(p),fun(p)}&(adds|keep) else answer(p))

@depends on patch@
identifier found.err, ans.to; position found.p;
@@
- err@p
+ to
@depends on context@
identifier found.err; position found.p;
@@
* err@p
@script:python depends on report@
p << found.p; err << found.err;
@@
coccilib.report.print_report(p[0], "WARNING: " + say(p, err))
@script:python depends on org@
p << found.p; err << found.err;
@@
coccilib.org.print_todo(p[0], say(p, err))
