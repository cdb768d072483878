// SPDX-License-Identifier: GPL-2.0-only
///
/// An ioctl handler must answer an unknown command with -ENOTTY, or with
/// -ENOIOCTLCMD where the core tries another handler next, not with -EINVAL
/// or -ENOSYS (Documentation/driver-api/ioctl.rst, "Return code").
/// Handlers are the functions stored in the ioctl fields of the ops
/// structures that cocci/interfaces.tsv lists (static initializers and
/// run-time assignments), and the static helpers they hand an unknown
/// command to.  Each of them gets the answer its interface needs in:
///  - default: return -EINVAL;           (ioctl_default_return)
///  - default: ret = -EINVAL; ... return ret;  (ioctl_default_assign)
///  - if (cmd == A) ... else return -EINVAL; if (cmd != A) return -EINVAL;
///                                       (ioctl_if_chain)
///  - if (_IOC_TYPE(cmd) != MAGIC) return -EINVAL;  (ioctl_ioc_guard)
///  - a leaf return -ENOIOCTLCMD; where the core does not try another
///    handler                            (ioctl_leaf_enoioctlcmd)
///  - a default-less switch on the command that every case leaves by
///    return, or whose every case assigns ret  (ioctl_switch_no_default)
///
// Confidence: Moderate
// Copyright: (C) 2026 The enotty authors.
// Comments: Left alone: a default that a recognised command falls into, a
//           helper reached only from explicit case labels, a function whose
//           value a caller compares with an errno (try-next protocol), and
//           a site beside a comment that mentions user space, ABI or
//           compat.  virtual tsv prints one ENOTTY-SITE line per site:
//           file, line, function, interface, from, to and the shape.
//           Assembled by tools/enotty/find/rules.py from cocci/lib/*.smpl,
//           cocci/shapes/*.smpl and cocci/interfaces.tsv.
// Options: --no-includes --noadd-typedef-root

virtual patch
virtual context
virtual org
virtual report
virtual tsv

// Assembled by `python3 -m enotty.find.rules --sync` from cocci/lib/*.smpl,
// cocci/shapes/*.smpl and cocci/interfaces.tsv: edit those, not this file.

// ---- lib/handlers.smpl

// Handler discovery and the site table, shared by every shape.
//
// Not a semantic patch on its own: tools/enotty/find/rules.py assembles it, with
// the shapes (cocci/shapes/*.smpl), the output rules (cocci/lib/output.smpl)
// and, last, the Python that these rules call (tools/enotty/find/rule_python.py
// with tools/enotty/find/ctext.py, and the rows of cocci/interfaces.tsv) into
// cocci/ioctl_enotty.cocci.
//
// Result, per C file: the rule enotty_target binds fn (a handler, or a
// static helper a handler hands its command to) and cmd (its command
// parameter).  Each shape claims its sites with enotty_claim; the output
// rules then report or change exactly the claimed tokens.  Python keeps
// the per-file facts in dicts keyed by file name, because spatch runs every
// rule of one file before it starts the next file.


// Targets found across files: -D enotty_facts=FILE names a TSV of rows
// file, function, interface, cmd_arg (tools/enotty/find/facts.py).  Without it
// this rule does not run (its one metavariable has no value).
@script:python@
facts << virtual.enotty_facts;
@@
enotty_read_facts(facts)

// Handlers named in a static initializer: struct S x = { .F = fn };
@enotty_ops@
identifier S, F, fn, x;
position p;
@@
struct S x@p = { ..., .F = fn, ... };

@script:python@
S << enotty_ops.S;
F << enotty_ops.F;
fn << enotty_ops.fn;
p << enotty_ops.p;
@@
enotty_add_handler(p, fn, S, F)

// The same with .F = &fn (gpib's ib_fops).  A rule of its own: one rule
// with the disjunction .F = \(fn\|&fn\) made spatch time out on big
// files (drivers/scsi/sd.c, net/ipv4/udp.c, net/sctp/socket.c: over 30 s
// for that rule alone; the whole file, sd.c, 1.4 s with the two rules).
@enotty_ops_addr@
identifier S, F, fn, x;
position p;
@@
struct S x@p = { ..., .F = &fn, ... };

@script:python@
S << enotty_ops_addr.S;
F << enotty_ops_addr.F;
fn << enotty_ops_addr.fn;
p << enotty_ops_addr.p;
@@
enotty_add_handler(p, fn, S, F)

// Handlers stored at run time: fops.F = fn; ops->F = fn; (typed: the
// expression's struct type must be known in the file).
@enotty_ops_rt@
type T;
T e;
identifier F, fn;
position p;
@@
(
e.F@p = fn
|
e->F@p = fn
)

@script:python@
T << enotty_ops_rt.T;
F << enotty_ops_rt.F;
fn << enotty_ops_rt.fn;
p << enotty_ops_rt.p;
@@
enotty_add_handler(p, fn, enotty_struct_name(T), F)

// Ops structures embedded in another one: hw->ops.ioctl = fn;
@enotty_ops_emb@
type T;
T e;
identifier M, F, fn;
position p;
@@
(
e->M.F@p = fn
|
e.M.F@p = fn
)

@script:python@
T << enotty_ops_emb.T;
M << enotty_ops_emb.M;
F << enotty_ops_emb.F;
fn << enotty_ops_emb.fn;
p << enotty_ops_emb.p;
@@
ops = ENOTTY_EMBEDDED_OPS.get((enotty_struct_name(T), M))
if ops is not None:
    enotty_add_handler(p, fn, ops, F)

// A function whose value a caller compares with an error code answers a
// try-next protocol (ret = f(...); if (ret != -ENOIOCTLCMD) return ret;):
// its errors are not the final answer, so it is left alone.
@enotty_cmp@
identifier f;
identifier C = {EINVAL, ENOIOCTLCMD, ENOTTY, ENOSYS};
binary operator op = {==, !=};
position p;
@@
(
f@p(...) op -C
|
 -C op f@p(...)
)

@script:python@
f << enotty_cmp.f;
p << enotty_cmp.p;
@@
enotty_trynext.setdefault(p[0].file, set()).add(f)

@enotty_cmp2 exists@
identifier f;
expression r, E;
identifier C = {EINVAL, ENOIOCTLCMD, ENOTTY, ENOSYS};
binary operator op = {==, !=};
statement S1, S2;
position p;
@@
r = f@p(...);
... when != r = E
(
if (<+... r op -C ...+>) S1 else S2
|
if (<+... r op -C ...+>) S1
|
return <+... r op -C ...+>;
)

@script:python@
f << enotty_cmp2.f;
p << enotty_cmp2.p;
@@
enotty_trynext.setdefault(p[0].file, set()).add(f)

// A function called only where its caller has found a value equal to
// -ENOIOCTLCMD is the fallback of a try-next chain:
//     if (ret == -ENOIOCTLCMD) ret = fallback(..);
//     if (ret != -ENOIOCTLCMD) return ret; return fallback(..);
// Its own -ENOIOCTLCMD is the answer of the whole chain (enotty_fallback).
@enotty_fb@
identifier fb;
expression E, E1, E2, r;
position p;
@@
(
if (\(E == -ENOIOCTLCMD\|-ENOIOCTLCMD == E\|E == -ENOIOCTLCMD && E1\)) { ... r = fb@p(...); ... }
|
if (\(E == -ENOIOCTLCMD\|-ENOIOCTLCMD == E\|E == -ENOIOCTLCMD && E1\)) { ... return fb@p(...); }
|
if (\(E == -ENOIOCTLCMD\|-ENOIOCTLCMD == E\|E == -ENOIOCTLCMD && E1\)) r = fb@p(...);
|
if (\(E == -ENOIOCTLCMD\|-ENOIOCTLCMD == E\|E == -ENOIOCTLCMD && E1\)) return fb@p(...);
|
if (\(E != -ENOIOCTLCMD\|-ENOIOCTLCMD != E\)) return E2;
return fb@p(...);
|
if (\(E != -ENOIOCTLCMD\|-ENOIOCTLCMD != E\)) return E2;
r = fb@p(...);
)

@script:python@
fb << enotty_fb.fb;
p << enotty_fb.p;
@@
for q in p:
    enotty_add_call(enotty_fallback_calls, [q], fb)

@enotty_fb_all@
identifier fb : script:python () { any(fb in t for t in enotty_fallback_calls.values()) };
position p;
@@
fb@p(...)

@script:python@
fb << enotty_fb_all.fb;
p << enotty_fb_all.p;
@@
for q in p:
    enotty_add_call(enotty_all_calls, [q], fb)

@enotty_static_fn@
identifier fn;
type T;
position p;
@@
static T fn@p(...) { ... }

@script:python@
fn << enotty_static_fn.fn;
p << enotty_static_fn.p;
@@
enotty_static.setdefault(p[0].file, set()).add(fn)

// Handlers, and the static helpers they hand their command to.  A
// function takes part with its command parameter: the one at the index
// its interface (or its caller) gives, bound by name.
@enotty_h@
identifier fn, cmd;
parameter list[n] ps;
type T;
position p;
@@
fn@p(ps, T cmd, ...) { ... }

@script:python@
fn << enotty_h.fn;
n << enotty_h.n;
p << enotty_h.p;
@@
if not enotty_takes_cmd(p[0].file, fn, n):
    cocci.include_match(False)

@enotty_call forall@
identifier enotty_h.fn, enotty_h.cmd;
identifier helper, ret;
expression list[n] es;
expression E;
type T;
position p;
@@
fn(...) { <...
(
return helper@p(es, cmd, ...);
|
return (T)helper@p(es, cmd, ...);
|
ret = helper@p(es, cmd, ...);
... when != ret = E
return ret;
|
ret = helper@p(es, cmd, ...);
if (\(ret < 0\|ret\)) \(return ret;\|return (T)ret;\)
)
...> }

@script:python@
fn << enotty_h.fn;
cmd << enotty_h.cmd;
helper << enotty_call.helper;
n << enotty_call.n;
p << enotty_call.p;
@@
if any(enotty_reaches_unknown([q], cmd) for q in p):
    enotty_add_helper(p[0].file, fn, helper, int(n))

// Second level: the helpers of those helpers.
@enotty_h2@
identifier fn, cmd;
parameter list[n] ps;
type T;
position p;
@@
fn@p(ps, T cmd, ...) { ... }

@script:python@
fn << enotty_h2.fn;
n << enotty_h2.n;
p << enotty_h2.p;
@@
if not enotty_takes_cmd(p[0].file, fn, n):
    cocci.include_match(False)

@enotty_call2 forall@
identifier enotty_h2.fn, enotty_h2.cmd;
identifier helper, ret;
expression list[n] es;
expression E;
type T;
position p;
@@
fn(...) { <...
(
return helper@p(es, cmd, ...);
|
return (T)helper@p(es, cmd, ...);
|
ret = helper@p(es, cmd, ...);
... when != ret = E
return ret;
|
ret = helper@p(es, cmd, ...);
if (\(ret < 0\|ret\)) \(return ret;\|return (T)ret;\)
)
...> }

@script:python@
fn << enotty_h2.fn;
cmd << enotty_h2.cmd;
helper << enotty_call2.helper;
n << enotty_call2.n;
p << enotty_call2.p;
@@
if any(enotty_reaches_unknown([q], cmd) for q in p):
    enotty_add_helper(p[0].file, fn, helper, int(n))

// A lookup helper: ret = h(.., &cmd, ..); if (ret) return ret; hands the
// command to h by address (floppy's normalize_ioctl()); h's answer for a
// command it cannot find is the handler's answer (ioctl_lookup_miss).
// Bound to the second level, which sees handlers and their helpers.
@enotty_lookup_call exists@
identifier enotty_h2.fn, enotty_h2.cmd;
identifier h, ret;
expression list[n] es;
position p;
@@
fn(...) { <+...
ret = h@p(es, &cmd, ...);
if (ret) return ret;
...+> }

@script:python@
fn << enotty_h2.fn;
h << enotty_lookup_call.h;
n << enotty_lookup_call.n;
p << enotty_lookup_call.p;
@@
enotty_add_helper(p[0].file, fn, h, int(n))

// The targets of the shapes: handlers and dispatch helpers.
@enotty_target@
identifier fn, cmd;
parameter list[n] ps;
type T;
position p;
@@
fn@p(ps, T cmd, ...) { ... }

@script:python enotty_t@
fn << enotty_target.fn;
cmd << enotty_target.cmd;
n << enotty_target.n;
p << enotty_target.p;
@@
enotty_enter(p[0].file)
if enotty_takes_cmd(p[0].file, fn, n):
    enotty_cmd_of[fn] = cmd
else:
    cocci.include_match(False)

// ---- shapes/ioctl_cmd_range_split.smpl

// if (S || cmd < A || cmd > B) return -E; (S a test of the argument or the
// state that names no command, calls nothing and assigns nothing), in the
// body of the function itself: esas2r tests its argument for NULL and the
// range of its own command numbers in one if, and answers -ENOTSUPP to both.
// Every command outside the range is unknown.  The output tests the range
// first, with the interface's answer, then S with its old errno: S has no
// side effect, so testing it only for commands in the range changes
// nothing but the answer to an unknown command.  Only an if that stands
// alone in the body, with no test of or assignment to the command before
// it and no preprocessor line in it (enotty_split_if_alone).
@icr exists@
identifier enotty_target.fn, enotty_target.cmd;
identifier err;
expression A, B;
expression S : script:python () { enotty_pure_test(S) };
position p : script:python () { enotty_site_ok(p) and enotty_top_level(p) and enotty_split_converts(p) };
position i : script:python () { enotty_split_if_alone(i) };
@@
fn(...) { ... when any
if@i (S || \(cmd < A\|(cmd < A)\) || \(cmd > B\|(cmd > B)\))
return -err@p;
... when any
}

@script:python@
p << icr.p;
fn << enotty_target.fn;
err << icr.err;
@@
enotty_claim(p, fn, err, "ioctl_cmd_range_split")

// ---- shapes/ioctl_cmd_state_split.smpl

// if (cmd != A || S) return -EINVAL; (S a test of the state that does not
// name the command; also cmd != A && cmd != B as the command test), in the
// body of the function itself: one answer for an unknown command and for
// a known one in the wrong state (net/sunrpc/cache.c cache_ioctl()).  Only
// the errno token cannot fix it; the output splits the condition in two,
// the command test answering the interface's answer and the state test
// keeping its -EINVAL.  The command is tested first, as before, so no
// operand is evaluated where it was not.
@iss exists@
identifier enotty_target.fn, enotty_target.cmd;
identifier err = {EINVAL, ENOSYS};
expression A;
expression S : script:python () { enotty_state_test(S, None) };
expression C : script:python () { enotty_command_test(C, None, "!=&&") };
position p : script:python () { enotty_site_ok(p) and enotty_top_level(p) };
position i : script:python () { enotty_split_if_alone(i) };
@@
fn(...) { ... when any
if@i (\(cmd != A\|C\) || S)
return -err@p;
... when any
}

@script:python@
p << iss.p;
fn << enotty_target.fn;
err << iss.err;
@@
enotty_claim(p, fn, err, "ioctl_cmd_state_split")

// ---- shapes/ioctl_default_add_assign.smpl

// The initialiser of ioctl_switch_no_default when its switch has a
// default that lets what it does not take leave with it, and a case of a
// known command leaves with it too (hiddev_ioctl(): HIDIOCAPPLICATION
// with an index out of range): the token must stay, and the output sets
// the answer of the interface first thing in the default
// (enotty_default_lets_out decides).
@da2 forall@
identifier enotty_target.fn, enotty_target.cmd;
identifier err = {EINVAL, ENOSYS, EBADRQC};
identifier ret;
type T;
expression E;
position p : script:python (ret) { enotty_site_ok(p) and enotty_default_lets_out(p, ret) };
@@
fn(...) {
... when any
T ret = -err@p;
... when != ret
switch (cmd) { case ...: ... when any
}
... when != ret = E
return ret;
}

@script:python@
p << da2.p;
fn << enotty_target.fn;
err << da2.err;
@@
enotty_claim(p, fn, err, "ioctl_default_add_assign")

// ---- shapes/ioctl_default_assign.smpl

// default: ret = -EINVAL; then break, goto out or falling out of the
// switch on the command (on cmd, F(cmd) or cmd & ~MASK), when every path
// from there returns ret without assigning it again (a label that sets ret
// makes the -EINVAL dead) or comparing it with the errno (then the value
// means something to the function itself: md_ioctl).  Followed by control
// flow, so a switch whose every case leaves by goto (no path to its end)
// counts too.  Only an assignment that every command reaching the default
// runs (enotty_under_default).  Fall-through as in ioctl_default_return;
// the other answers (also_from) as there.
@da forall@
identifier enotty_target.fn;
identifier err = {EINVAL, ENOSYS, ENOTSUPP, EOPNOTSUPP, EFAULT};
identifier ret;
expression E;
position p : script:python () { enotty_site_ok(p) and enotty_from_converts(p) and enotty_under_default(p, enotty_cmd(p)) and enotty_not_fallen_into(p, enotty_cmd(p)) };
@@
fn(...) { <...
ret = -err@p;
... when != ret = E
    when != \(ret == -err\|ret != -err\)
return ret;
...> }

@script:python@
p << da.p;
fn << enotty_target.fn;
err << da.err;
@@
enotty_claim(p, fn, err, "ioctl_default_assign")

// The dispatcher of ioctl_default_return (dro) in assignment form:
// default: if (ops->ioctl) ret = ops->ioctl(..); else ret = -EINVAL;
// (uacce, vfio).  The assignment runs only without the operation, so
// enotty_under_default does not apply; the if is the whole default.
@dao exists@
identifier enotty_target.fn, enotty_target.cmd;
identifier err = {EINVAL, ENOSYS};
identifier F, ret;
expression M, E;
position p : script:python () { enotty_site_ok(p) and enotty_not_fallen_into(p, enotty_cmd(p)) };
@@
fn(...) { <+...
switch (\(cmd\|F(cmd)\|cmd & ~M\|(cmd & ~M)\)) {
default:
\(if (E) ret = E(...); else ret = -err@p;
\|if (\(!E\|E == NULL\|unlikely(!E)\)) ret = -err@p; else ret = E(...);
\)
...
}
...+> }

@script:python@
p << dao.p;
fn << enotty_target.fn;
err << dao.err;
@@
enotty_claim(p, fn, err, "ioctl_default_assign")

// ---- shapes/ioctl_default_return.smpl

// default: return -EINVAL; in the switch on the command (on cmd, F(cmd)
// such as _IOC_NR(cmd), or cmd & ~MASK).  A default that
// the case above it reaches by falling through also answers that command
// and stays (enotty_not_fallen_into).  return (-EINVAL); counts too, and
// so do -ENOTSUPP, -EOPNOTSUPP and -EFAULT where the interface lists them
// (interfaces.tsv, also_from) and the return is the default's own, not
// under an if there (enotty_from_converts).
@dr forall@
identifier enotty_target.fn, enotty_target.cmd;
identifier err = {EINVAL, ENOSYS, ENOTSUPP, EOPNOTSUPP, EFAULT};
identifier F;
expression M;
position p : script:python () { enotty_site_ok(p) and enotty_from_converts(p) and enotty_not_fallen_into(p, enotty_cmd(p)) };
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
fn << enotty_target.fn;
err << dr.err;
@@
enotty_claim(p, fn, err, "ioctl_default_return")

// A dispatcher whose default hands the command to an optional operation:
// default: if (!ops->ioctl) return -EINVAL; return ops->ioctl(..);
// Without the operation no one knows the command.
@dro exists@
identifier enotty_target.fn, enotty_target.cmd;
identifier err = {EINVAL, ENOSYS};
identifier F;
expression M, E, r;
position p : script:python () { enotty_site_ok(p) and enotty_not_fallen_into(p, enotty_cmd(p)) };
@@
fn(...) { <+...
switch (\(cmd\|F(cmd)\|cmd & ~M\|(cmd & ~M)\)) {
default:
...
if (\(!E\|E == NULL\)) return \(-err@p\|(-err@p)\);
...
\(return E(...);\|r = E(...);\)
...
}
...+> }

@script:python@
p << dro.p;
fn << enotty_target.fn;
err << dro.err;
@@
enotty_claim(p, fn, err, "ioctl_default_return")

// ---- shapes/ioctl_default_twin.smpl

// default: whose only statement is an #if group of two returns, one
// answering -EINVAL (drivers/video/fbdev/sis: #ifdef SIS_NEW_CONFIG_COMPAT
// return -ENOIOCTLCMD; #else return -EINVAL; #endif).  In a function
// spatch parses the first branch only; a rule outside any function
// context sees the other branch too, and its position names the function
// (current_element).  The other branch is left to the shape that knows
// its answer (ioctl_leaf_enoioctlcmd).  Only a target, and only the
// default made of that group alone, of a switch on the command
// (enotty_default_twin, on the source text), not fallen into.
@dt@
identifier err = {EINVAL, ENOSYS};
position p : script:python () { enotty_site_ok(p) and enotty_default_twin(p, enotty_cmd(p))
                                  and enotty_not_fallen_into(p, enotty_cmd(p)) };
@@
return \(-err@p\|(-err@p)\);

@script:python@
p << dt.p;
err << dt.err;
@@
enotty_claim(p, p[0].current_element, err, "ioctl_default_twin")

// ---- shapes/ioctl_if_chain.smpl

// if (cmd == A || cmd == B) ... else return -EINVAL; (or else ret =
// -EINVAL;): the condition must test only the command
// (enotty_command_test).
@ic exists@
identifier enotty_target.fn;
identifier err = {EINVAL, ENOSYS};
identifier ret;
expression C : script:python () { enotty_command_test(C, None, "==") };
statement S;
position p : script:python () { enotty_site_ok(p) };
@@
fn(...) { ... when any
\(if (C) S else return -err@p;\|if (C) S else { return -err@p; }\|if (C) S else { ret = -err@p; }\)
... when any
}

@script:python@
p << ic.p;
fn << enotty_target.fn;
err << ic.err;
@@
enotty_claim(p, fn, err, "ioctl_if_chain")

// A handler that knows one command, or a few (if (cmd != A && cmd != B),
// also under unlikely(), the return braced or parenthesised), or none (if
// (cmd): atomisp's disabled private ioctls), in the function's own body:
// under a test of the state it refuses known commands.
@ine exists@
identifier enotty_target.fn, enotty_target.cmd;
identifier err = {EINVAL, ENOSYS};
expression A;
expression C : script:python () { enotty_command_test(C, None, "!=&&") };
position p : script:python () { enotty_site_ok(p) and enotty_top_level(p) };
@@
fn(...) { ... when any
if (\(cmd != A\|A != cmd\|unlikely(cmd != A)\|cmd\|C\))
\(return -err@p;\|return (-err@p);\|{ return -err@p; }\|{ return (-err@p); }\)
... when any
}

@script:python@
p << ine.p;
fn << enotty_target.fn;
err << ine.err;
@@
enotty_claim(p, fn, err, "ioctl_if_chain")

// if (cmd == A) {..} else if (cmd == B) {..} then return -EINVAL; (or ret
// = -EINVAL; returned unchanged, not compared), a single if included, in
// the body of the function, when every branch leaves by return or goto
// (enotty_after_if_chain): else a known command gets there too.
@icf forall@
identifier enotty_target.fn;
identifier err = {EINVAL, ENOSYS};
identifier ret;
expression E;
position p : script:python () { enotty_site_ok(p) and enotty_top_level(p) and enotty_after_if_chain(p, enotty_cmd(p)) };
@@
fn(...) { <...
\(return -err@p;\|return (-err@p);\|ret = -err@p; ... when != ret = E
    when != \(ret == -err\|ret != -err\)
return ret;\)
...> }

@script:python@
p << icf.p;
fn << enotty_target.fn;
err << icf.err;
@@
enotty_claim(p, fn, err, "ioctl_if_chain")

// ---- shapes/ioctl_ioc_chain.smpl

// The final return -EINVAL; of a function whose unknown-command answers
// are a type guard and an if-chain on the number (drivers/input/evdev.c
// evdev_do_ioctl()): if (_IOC_TYPE(cmd) != M) return -EINVAL; then only
// blocks if (_IOC_DIR(cmd) == D) { if (_IOC_NR(cmd) .. == N) { .. return
// ..; } .. } whose every test of the number leaves by return.  Only a
// number none of them knows gets to the end; the guard (ioctl_ioc_guard)
// and this return convert together (enotty_after_ioc_chain).
@ioc_chain@
identifier enotty_target.fn;
identifier err = {EINVAL, ENOSYS};
position p : script:python () { enotty_site_ok(p) and enotty_after_ioc_chain(p, enotty_cmd(p)) };
@@
fn(...) { <...
\(return -err@p;\|return (-err@p);\)
...> }

@script:python@
p << ioc_chain.p;
fn << enotty_target.fn;
err << ioc_chain.err;
@@
enotty_claim(p, fn, err, "ioctl_ioc_chain")

// ---- shapes/ioctl_ioc_guard.smpl

// Guards that reject a foreign command before the dispatch, also under unlikely() or after a
// log call: if (_IOC_TYPE(cmd) != MAGIC || _IOC_NR(cmd) >= N) return -EINVAL; (cmd & 0xff00) != 0x0200 (floppy).
@ig exists@
identifier enotty_target.fn, err = {EINVAL, ENOSYS}, log;
expression C : script:python () { enotty_command_test(C, None, "_IOC") };
position p : script:python () { enotty_site_ok(p) };
@@
fn(...) { ... when any
if (C) \(return -err@p;\|return (-err@p);\|{ return -err@p; }\|{ return (-err@p); }\|
         { log(...); return -err@p; }\)
... when any
}

@script:python@
p << ig.p;
fn << enotty_target.fn;
err << ig.err;
@@
enotty_claim(p, fn, err, "ioctl_ioc_guard")
// The same guard by a jump: { ret = -EINVAL; goto out; }, out: returns ret.
@igg exists@
identifier enotty_target.fn, ret, l, err = {EINVAL, ENOSYS};
expression C : script:python () { enotty_command_test(C, None, "_IOC") };
position p : script:python () { enotty_site_ok(p) };
@@
fn(...) { ... when any
if (C) { ret = -err@p; goto l; }
... when any
}

@iggl exists@
identifier enotty_target.fn, igg.ret, igg.l;
expression E;
position pr;
@@
fn(...) { <+...
l:
... when != ret = E
return ret@pr;
...+> }

@script:python@
p << igg.p;
pr << iggl.pr;
fn << enotty_target.fn;
err << igg.err;
@@
enotty_claim(p, fn, err, "ioctl_ioc_guard")
// The number bound through a local: nr = _IOC_NR(cmd); if (nr >= N) .., also offset
// from the table's first number (kernel/liveupdate: nr < BASE || nr - BASE >= ARRAY_SIZE(ops)).
@ign exists@
identifier enotty_target.fn, enotty_target.cmd, nr, err = {EINVAL, ENOSYS};
expression N, E, B;
type T;
position p : script:python () { enotty_site_ok(p) };
@@
fn(...) { ... when any
\(T nr = _IOC_NR(cmd);\|nr = _IOC_NR(cmd);\)
... when != nr = E
if (\(nr >= N\|nr > N\|N <= nr\|N < nr\|nr - B >= N\|(nr - B) >= N\|nr < B || nr - B >= N\|nr < B || (nr - B) >= N\))
\(return -err@p;\|return (-err@p);\|{ return -err@p; }\)
... when any
}

@script:python@
p << ign.p;
fn << enotty_target.fn;
err << ign.err;
@@
enotty_claim(p, fn, err, "ioctl_ioc_guard")

// ---- shapes/ioctl_leaf_enoioctlcmd.smpl

// A leaf return -ENOIOCTLCMD; in a handler of an interface whose core hands
// the value to user space (to=ENOTTY, keep_enoioctlcmd=no), unless the
// function is the last step of a try-next chain (enotty_leaf_converts).
@le forall@
identifier enotty_target.fn;
identifier err = {ENOIOCTLCMD};
position p : script:python (fn) { enotty_site_ok(p) and enotty_leaf_converts(fn) };
@@
fn(...) { <...
return -err@p;
...> }

@script:python@
p << le.p;
fn << enotty_target.fn;
err << le.err;
@@
enotty_claim(p, fn, err, "ioctl_leaf_enoioctlcmd")

// ---- shapes/ioctl_lookup_miss.smpl

// A lookup helper's table miss: the loop returns for every command it
// finds, so only a command missing from the table reaches the return
// after it (floppy's normalize_ioctl(): return -EINVAL after the loop).
// A loop that breaks, or does not test the command, stays.
@lm@
identifier enotty_target.fn, enotty_target.cmd;
identifier err = {EINVAL, ENOSYS};
expression E;
position p : script:python () { enotty_site_ok(p) };
@@
fn(...) {
... when any
for (...; ...; ...) {
... when != break;
if (<+... *cmd ...+>) { ... when != break;
return E; }
... when != break;
}
return \(-err@p\|(-err@p)\);
}

@script:python@
p << lm.p;
fn << enotty_target.fn;
err << lm.err;
@@
enotty_claim(p, fn, err, "ioctl_lookup_miss")

// ---- shapes/ioctl_missing_operation.smpl

// The answer of a dispatcher for a command it hands to an operation that
// is missing, braced with a jump to the common exit:
// if (!dev->ops->ioctl) { error = -EINVAL; goto done; } in the default of
// net/atm/resources.c atm_dev_ioctl(), or the table entry without a
// function of drm_ioctl() (func = ioctl->func; if (unlikely(!func))
// { ..; retcode = -EINVAL; goto err_i1; }).  The operation is a member
// (!E->f, !E.f) or a local last assigned one; only the negation counts
// (E->f == NULL is not taken, hence no not_ptr1 isomorphism), and of the
// hints only unlikely().  Only under the default of the switch on the
// command, fallen into or not, or outside any such switch, never under a
// case label (enotty_missing_operation_site).  Such a site is listed and
// in no series: the operations behind it answer unknown commands
// themselves (tools/enotty/judge/handlers.py).  The operation is one
// because the function calls it after the test (dev->ops->ioctl(..)), or
// calls the local or hands it on (func(..), drm_ioctl_kernel(.., func,
// ..)): a member only tested is a state (gpib's if (!board->online)
// { retval = -EINVAL; goto done; }, tests/trap_missing_operation_state.c).
@mo disable not_ptr1, unlikely exists@
identifier enotty_target.fn;
identifier err = {EINVAL, ENOSYS};
identifier ret, l, f, x, g;
expression E, E2;
type T;
position p : script:python () { enotty_site_ok(p) and enotty_missing_operation_site(p, enotty_cmd(p)) };
@@
fn(...) { <+...
(
if (\(!E->f\|!E.f\|unlikely(!E->f)\|unlikely(!E.f)\)) { ... ret = -err@p; goto l; }
... when any
\(E->f\|E.f\)(...)
|
\(x = \(E->f\|E.f\);\|T x = \(E->f\|E.f\);\)
... when != x = E2
if (\(!x\|unlikely(!x)\)) { ... ret = -err@p; goto l; }
... when != x = E2
\(x(...)\|g(...,x,...)\)
)
...+> }

@script:python@
p << mo.p;
fn << enotty_target.fn;
err << mo.err;
@@
enotty_claim(p, fn, err, "ioctl_missing_operation")

// ---- shapes/ioctl_subhandler_miss.smpl

// return -EINVAL; (or ret = -EINVAL; then returned unchanged) right after
// a switch on the command whose cases all leave and whose default hands
// the command to sub-handlers in turn, leaving only with the answer of one
// that took it (if (ret != -ENODEV) return ret;): the statement after the
// switch answers the command that no case and no sub-handler knows
// (drivers/fpga/dfl-afu-main.c afu_ioctl(), enotty_after_subhandler_loop).
// The same after such a loop in the function body itself, the first code
// to look at the command (industrialio-core.c iio_ioctl(), whose -ENODEV
// there answers only the command no registered handler took).
@sm forall@
identifier enotty_target.fn;
identifier ret, err = {EINVAL, ENOSYS, ENODEV};
expression E;
position p : script:python () { enotty_site_ok(p) and enotty_after_subhandler_loop(p, enotty_cmd(p)) };
@@
fn(...) { <...
(
return \(-err@p\|(-err@p)\);
|
ret = -err@p;
... when != ret = E
    when != \(ret == -err\|ret != -err\)
return ret;
)
...> }

@script:python@
p << sm.p;
fn << enotty_target.fn;
err << sm.err;
@@
enotty_claim(p, fn, err, "ioctl_subhandler_miss")

// ---- shapes/ioctl_switch_add_default.smpl

// The initialiser of ioctl_switch_no_default when a case leaves with it
// too (pci_endpoint_test_ioctl(): PCITEST_BAR with a BAR out of range
// jumps to the return with the -EINVAL set first): the token must stay,
// and the output adds a default that answers the interface's answer
// after the last statement of the switch (enotty_needs_default decides,
// on the terms of enotty_every_case_assigns).
@ad forall@
identifier enotty_target.fn, enotty_target.cmd;
identifier err = {EINVAL, ENOSYS, EBADRQC};
identifier ret;
type T;
expression E;
position p : script:python (ret) { enotty_site_ok(p) and enotty_needs_default(p, ret) };
@@
fn(...) {
... when any
T ret = -err@p;
... when != ret
switch (cmd) { case ...: ... when any
}
... when != ret = E
return ret;
}

@script:python@
p << ad.p;
fn << enotty_target.fn;
err << ad.err;
@@
enotty_claim(p, fn, err, "ioctl_switch_add_default")

// ---- shapes/ioctl_switch_chain.smpl

// The initialiser returned at the end of a chain of switches on the
// command (drivers/gpib/common/gpib_os.c ibioctl(): long retval =
// -EBADRQC; four switches, each default break; or goto done;, state
// checks between them that assign their own answer before they jump).
// enotty_switch_chain_assigns decides on the function's text: every case
// assigns or returns before it can leave, nothing outside the switches
// tests the command, loops or jumps without assigning.  A single switch
// is ioctl_switch_no_default's, which leaves a function with a second
// switch on the command to this rule (enotty_later_switch).
@ndc exists@
identifier enotty_target.fn;
identifier err = {EINVAL, ENOSYS, EBADRQC};
identifier ret;
type T;
position p : script:python (ret) { enotty_site_ok(p) and enotty_switch_chain_assigns(p, ret) };
@@
fn(...) {
... when any
T ret = -err@p;
... when any
return ret;
}

@script:python@
p << ndc.p;
fn << enotty_target.fn;
err << ndc.err;
@@
enotty_claim(p, fn, err, "ioctl_switch_chain")

// ---- shapes/ioctl_switch_no_default.smpl

// A switch on the command without a default label (or only default:
// break;).  The initialiser of the returned variable changes only when
// every case assigns it (or returns) before it can leave
// (enotty_every_case_assigns, which also decides what the cases do: "when
// any" there, as a break nested in an if stops the match, binderfs).
@nd forall@
identifier enotty_target.fn, enotty_target.cmd;
identifier err = {EINVAL, ENOSYS, EBADRQC};
identifier ret;
type T;
expression E;
position p : script:python (ret) { enotty_site_ok(p) and enotty_every_case_assigns(p, ret) };
@@
fn(...) {
... when any
T ret = -err@p;
... when != ret
switch (cmd) { case ...: ... when any
}
... when != ret = E
return ret;
}

@script:python@
p << nd.p;
fn << enotty_target.fn;
err << nd.err;
@@
enotty_claim(p, fn, err, "ioctl_switch_no_default")

// return -EINVAL; or ret = -EINVAL; (then returned unchanged) right after
// a default-less switch on the command (on cmd, F(cmd) or cmd & ~MASK)
// whose every case leaves by return or goto (p); or after such a switch
// and "if (ops->f) return ops->f(cmd, arg);", stated here (q): without
// the operation no one knows the command.
@nr forall@
identifier enotty_target.fn;
identifier ret, err = {EINVAL, ENOSYS};
expression E, X;
position p : script:python () { enotty_site_ok(p) and enotty_after_leaving_switch(p, enotty_cmd(p)) };
position q : script:python () { enotty_site_ok(q) and enotty_after_missing_operation(q, enotty_cmd(q)) };
@@
fn(...) { <...
(
if (X) return X(...);
(
return \(-err@q\|(-err@q)\);
|
ret = -err@q;
... when != ret = E
    when != \(ret == -err\|ret != -err\)
return ret;
)
|
return \(-err@p\|(-err@p)\);
|
ret = -err@p;
... when != ret = E
    when != \(ret == -err\|ret != -err\)
return ret;
)
...> }

@script:python@
p << nr.p = [];
q << nr.q = [];
fn << enotty_target.fn;
err << nr.err;
@@
enotty_claim(list(p) + list(q), fn, err, "ioctl_switch_no_default")

// ---- shapes/ioctl_valid_first.smpl

// if (S) return -EINVAL; before the dispatch, S a test of the state that
// every command meets (hfi1_file_ioctl() before a context is assigned,
// pp_do_ioctl() before PPCLAIM, userfaultfd_ioctl() before UFFDIO_API; a
// command test in it only exempts commands the function handles): an
// unknown command gets -EINVAL there, whatever the exit after the dispatch
// answers.  As upstream did for pidfd_ioctl(), the output tests the command
// first: NAME_valid() lists the case labels of the switches on the
// command, and any other command gets the interface's answer before the
// check, which keeps its -EINVAL for the known ones.  Only where another
// shape found the unknown-command exit of the function and every command
// it handles is such a label (enotty_valid_first).
@ivf exists@
identifier enotty_target.fn;
expression S : script:python () { enotty_valid_state(S) };
position p : script:python () { enotty_site_ok(p) and enotty_valid_first(p) };
@@
fn(...) { ... when any
if (S) \(return -EINVAL@p;\|{ ... return -EINVAL@p; }\)
... when any
}

@script:python@
p << ivf.p;
fn << enotty_target.fn;
@@
enotty_claim(p, fn, "EINVAL", VALID_FIRST)

// ---- lib/output.smpl

// One output for every shape.  The shapes only match and claim their
// sites (enotty_claim); this rule finds each claimed token again, and the
// rules below print or change it in the mode asked for.
@enotty_site@
identifier err = {EINVAL, ENOSYS, EBADRQC, ENOIOCTLCMD, ENOTSUPP, EOPNOTSUPP, EFAULT, ENODEV};
position p : script:python () { enotty_site_of(p) is not None };
@@
err@p

@script:python enotty_answer@
p << enotty_site.p;
to;
@@
coccinelle.to = cocci.make_ident(enotty_site_of(p)[3])

// ioctl_valid_first: the test of the command the output adds before the
// state check (a statement for every site, used at that shape's alone:
// a script that drops a match drops the site for the rules after it).
@script:python enotty_valid_test depends on patch@
p << enotty_site.p;
s;
@@
coccinelle.s = cocci.make_stmt(enotty_valid_check(p) if enotty_restructured(p, VALID_FIRST) else "return;")

// ... and the function that lists the commands, before the handler
// (upstream's pidfs_ioctl_valid() for pidfd_ioctl()), once per handler;
// for another site a name no function has.
@script:python enotty_valid depends on patch@
p << enotty_site.p;
f;
fn;
v;
c;
@@
adds = enotty_restructured(p, VALID_FIRST) and enotty_first(p, "valid")
coccinelle.f = cocci.make_stmt(enotty_valid_switch(p) if adds else "return;")
coccinelle.fn = cocci.make_ident(p[0].current_element if adds else "enotty_no_function")
coccinelle.v = cocci.make_ident(enotty_valid_name(p) if adds else "enotty_no_function_valid")
coccinelle.c = cocci.make_ident(enotty_cmd(p) if adds else "cmd")

@script:python depends on tsv@
p << enotty_site.p;
@@
if enotty_first(p, "tsv"):
    enotty_tsv(p)

@script:python depends on report@
p << enotty_site.p;
@@
if enotty_first(p, "report"):
    coccilib.report.print_report(p[0], "WARNING: " + enotty_message(p))

@script:python depends on org@
p << enotty_site.p;
@@
if enotty_first(p, "org"):
    coccilib.org.print_todo(p[0], enotty_message(p))

@depends on context@
identifier enotty_site.err;
position enotty_site.p;
@@
* err@p

// The sites a token cannot fix (RESTRUCTURES in rule_python.py) are
// rewritten whole: ioctl_cmd_state_split splits if (cmd != A || S) return
// -EINVAL; into the command test, which gets the interface's answer, and
// the state test, which keeps the old one; ioctl_cmd_range_split does the
// same to if (S || cmd < A || cmd > B), testing the range first;
// ioctl_valid_first keeps its if and tests the command before it.  One
// rule: a position cannot be inherited over a modification.
@depends on patch disable paren@
identifier enotty_site.err;
identifier enotty_answer.to;
statement enotty_valid_test.s;
position enotty_site.p;
position v : script:python () { enotty_restructured(v, VALID_FIRST) };
position r : script:python () { enotty_restructured(r, STATE_SPLIT) };
position q : script:python () { enotty_restructured(q, RANGE_SPLIT) };
position n : script:python () { not enotty_restructured(n) };
expression C, C2, S;
expression B : script:python () { unparen(str(B)) == str(B).strip() };
@@
(
- if ((S) || C || C2)
-   return -err@p@q;
+ if (C || C2)
+   return -to;
+ if (S)
+   return -err;
|
- if (S || C || C2)
-   return -err@p@q;
+ if (C || C2)
+   return -to;
+ if (S)
+   return -err;
|
- if ((C) || S)
-   return -err@p@r;
+ if (C)
+   return -to;
+ if (S)
+   return -err;
|
- if (B || S)
-   return -err@p@r;
+ if (B)
+   return -to;
+ if (S)
+   return -err;
|
+ s
  if (S) return -err@p@v;
|
+ s
  if (S) { ... return -err@p@v; }
|
- err@p@n
+ to
)

@depends on patch@
identifier enotty_valid.fn, enotty_valid.v, enotty_valid.c;
statement enotty_valid.f;
typedef bool;
@@
+static bool v(unsigned int c)
+{
+	f
+	return false;
+}
+
 fn(...) {...}

// ioctl_switch_add_default: the initialiser stays, and a default that
// answers the interface's answer follows the last statement of the switch
// after it (spatch prints the label in column 0; the scan indents it as
// the switch's closing brace).  After the rule above, and without its
// position: spatch lets no rule inherit a position over a change.
@enotty_default_at depends on patch@
statement S;
position q : script:python () { enotty_added_site(q) is not None };
@@
S@q

@script:python enotty_default depends on patch@
q << enotty_default_at.q;
s;
@@
coccinelle.s = cocci.make_stmt(enotty_added_default(enotty_added_site(q)))

@depends on patch@
position enotty_default_at.q;
statement enotty_default.s;
statement S;
@@
S@q
+ s

// ioctl_default_add_assign: the initialiser stays, and the answer of the
// interface is set before the first statement of the default.
@enotty_assign_at depends on patch@
statement S;
position q : script:python () { enotty_added_site(q, "ioctl_default_add_assign") is not None };
@@
S@q

@script:python enotty_assign depends on patch@
q << enotty_assign_at.q;
s;
@@
coccinelle.s = cocci.make_stmt(enotty_added_default(enotty_added_site(q, "ioctl_default_add_assign")))

@depends on patch@
position enotty_assign_at.q;
statement enotty_assign.s;
statement S;
@@
+ s
S@q

// ---- tools/enotty/find/ctext.py and tools/enotty/find/rule_python.py: the Python the rules above call

@initialize:python@
@@
# From tools/enotty/find/ctext.py, what rule_python.py uses.

import re


from typing import NamedTuple


# The lexemes whose content is no code: comments, strings, character literals.
LEXEMES = re.compile(r"//[^\n]*|/\*.*?\*/|\x22(?:\\.|[^\x22\\\n])*\x22|\x27(?:\\.|[^\x27\\\n])*\x27", re.S)


_NON_NEWLINE = re.compile(r"[^\n]")


def _spaces(m: "re.Match[str]") -> str:
    return _NON_NEWLINE.sub(" ", m.group(0))


def _blank_keeping_quotes(m: "re.Match[str]") -> str:
    text = m.group(0)
    if text[0] == "/":
        return _NON_NEWLINE.sub(" ", text)
    if text[0] == "\x22":
        return "\x22" + " " * (len(text) - 2) + "\x22"
    # A character literal becomes a number of the same length: H in quotes -> 0.
    return "0" + " " * (len(text) - 1)


def blank_lexemes(text: str, keep_quotes: bool = False) -> str:
    """Comments, strings and character literals as spaces; offsets and lines
    kept.  keep_quotes: a string keeps its two quotes and a character
    literal becomes 0, so that an index still sees an expression there."""
    return LEXEMES.sub(_blank_keeping_quotes if keep_quotes else _spaces, text)


# A preprocessor line with its continuation lines.
DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)


CONDITIONAL = re.compile(r"[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)")


def blank_directives(text: str, dead_branches: bool = False) -> str:
    """Preprocessor lines (with their continuations) blanked, lines kept.
    dead_branches: of each #if/#elif/#else group only the first live branch
    is kept (the second of an #if 0), the others are blanked too, so that
    the braces of a function whose head is duplicated under #ifdef still
    balance."""
    if not dead_branches:
        return DIRECTIVE.sub(_spaces, text)
    out = []
    # Stack of (this branch is kept, some branch of the group was taken).
    stack: list[tuple[bool, bool]] = []
    dead = 0                    # branches on the stack that are not kept
    pos = 0
    for m in DIRECTIVE.finditer(text):
        chunk = text[pos:m.start()]
        out.append(chunk if not dead else "\n" * chunk.count("\n"))
        out.append("\n" * m.group(0).count("\n"))
        pos = m.end()
        c = CONDITIONAL.match(m.group(0))
        if not c:
            continue
        word, rest = c.group(1), c.group(2).strip()
        if word in ("if", "ifdef", "ifndef"):
            take = not (word == "if" and rest in ("0", "(0)"))
            stack.append((take, take))
            dead += not take
        elif word in ("elif", "else") and stack:
            kept, taken = stack.pop()
            dead -= not kept
            stack.append((not taken, True))
            dead += taken
        elif word == "endif" and stack:
            kept, _ = stack.pop()
            dead -= not kept
    chunk = text[pos:]
    out.append(chunk if not dead else "\n" * chunk.count("\n"))
    return "".join(out)


def comment_text(lines: list[str], index: int) -> str:
    """The comment text of line `index` (0-based) of a file, with the whole
    block comment that the line is in or ends."""
    line = lines[index]
    text = ""
    m = re.search(r"//(.*)$", line)
    if m:
        text += m.group(1)
    text += " ".join(re.findall(r"/\*(.*?)(?:\*/|$)", line))
    stripped = line.strip()
    if stripped.startswith("*") or stripped.endswith("*/"):
        # Inside or at the end of a block comment: collect it upwards.
        j = index
        while j >= 0:
            text += " " + lines[j]
            if "/*" in lines[j]:
                break
            j -= 1
    return text


_BRACKETS = {"(": re.compile(r"[()]"), "[": re.compile(r"[\[\]]"), "{": re.compile(r"[{}]")}


_OPENING = {")": "(", "]": "[", "}": "{"}


def match_close(text: str, i: int) -> int:
    """Index of the bracket closing text[i], or -1 when the text ends first."""
    open_ch = text[i]
    depth = 0
    for m in _BRACKETS[open_ch].finditer(text, i):
        if m.group(0) == open_ch:
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return m.start()
    return -1


def match_open(text: str, close: int) -> int:
    """Index of the bracket opening the one at text[close], or -1."""
    close_ch = text[close]
    open_ch = _OPENING[close_ch]
    depth = 0
    for i in range(close, -1, -1):
        ch = text[i]
        if ch == close_ch:
            depth += 1
        elif ch == open_ch:
            depth -= 1
            if depth == 0:
                return i
    return -1


def enclosing_brace(text: str, offset: int, pair: str = "{}") -> int:
    """Offset of the brace that opens the block holding offset (of the
    parenthesis around it with pair "()"), or -1."""
    open_ch, close_ch = pair[0], pair[1]
    depth = 0
    for i in range(offset - 1, -1, -1):
        if text[i] == close_ch:
            depth += 1
        elif text[i] == open_ch:
            if depth == 0:
                return i
            depth -= 1
    return -1


def statement_start(text: str, end: int) -> int:
    """Offset where the statement holding offset end starts: just after the
    last semicolon or brace before it outside parentheses."""
    depth = 0
    for i in range(end - 1, -1, -1):
        ch = text[i]
        if ch == ")":
            depth += 1
        elif ch == "(":
            if depth == 0:
                return i + 1
            depth -= 1
        elif depth == 0 and ch in ";{}":
            return i + 1
    return 0


def unparen(text: str) -> str:
    """text without the parentheses that enclose all of it."""
    text = text.strip()
    while text.startswith("(") and match_close(text, 0) == len(text) - 1:
        text = text[1:-1].strip()
    return text


def operands(cond: str, op: str) -> list[str]:
    """The operands of a top-level op (&& or ||) chain, outer parentheses
    removed."""
    text = unparen(str(cond))
    parts, depth, cur, i = [], 0, "", 0
    while i < len(text):
        ch = text[i]
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and text.startswith(op, i):
            parts.append(cur)
            cur, i = "", i + len(op)
            continue
        cur += ch
        i += 1
    parts.append(cur)
    return [unparen(part) for part in parts]


_SWITCH = re.compile(r"\bswitch\s*\(")


_BRACE_AHEAD = re.compile(r"\s*\{")


class Switch(NamedTuple):
    """A switch statement by its offsets; -1 where a part is missing."""
    keyword: int        # the word switch
    open_paren: int
    close_paren: int    # -1: the parenthesis does not close
    brace: int          # the body `{`; -1: no brace follows the parenthesis
    end: int            # the body `}`; -1: no brace, or it does not close


def switches(text: str, start: int, end: int) -> list[Switch]:
    """Every switch that starts in text[start:end], in order, nested ones
    too, whole or not (each caller decides what a broken one means)."""
    out = []
    for m in _SWITCH.finditer(text[start:end]):
        open_paren = start + m.end() - 1
        close_paren = match_close(text, open_paren)
        brace = _BRACE_AHEAD.match(text, close_paren + 1) if close_paren >= 0 else None
        open_brace = brace.end() - 1 if brace else -1
        close_brace = match_close(text, open_brace) if open_brace >= 0 else -1
        out.append(Switch(start + m.start(), open_paren, close_paren, open_brace, close_brace))
    return out


def switch_head(cmd: str | None, only_nr: bool = False) -> str:
    """Regex for the head of a switch on the command, up to its brace: on
    cmd itself, on F(cmd) (_IOC_NR, _IOC_DIR, a driver macro such as
    EA_IOCTL) or on cmd & ~MASK (the number without its size bits).  Any
    name when cmd is None.  only_nr: on cmd itself or on _IOC_NR(cmd)."""
    if only_nr:
        name = re.escape(str(cmd))
        return r"\bswitch\s*\(\s*(?:" + name + r"|_IOC_NR\s*\(\s*" + name + r"\s*\))\s*\)\s*"
    c = re.escape(str(cmd)) if cmd else r"[A-Za-z_]\w*"
    mask = r"&\s*~\s*(?:\w+|\([^(){};]*\))"
    return (r"\bswitch\s*\(\s*(?:" + c + r"|\w+\s*\(\s*" + c + r"\s*\)|" + c + r"\s*" + mask
            + r"|\(\s*" + c + r"\s*" + mask + r"\s*\))\s*\)\s*")


# A case or default label; a case value may hold a conditional (a ? b : c).
LABEL = re.compile(r"\b(?:case\b(?:[^:?]|\?[^:]*:)*:(?!:)|default\s*:)")


_LABEL_OR_BRACE = re.compile(r"[{}]|" + LABEL.pattern)


def top_labels(body: str, start: int = 0, end: int | None = None) -> list[tuple[int, int, bool]]:
    """(start, end, is default) of each label at the top level of a switch
    body (not those of a nested block or switch): all of body, or
    body[start:end] (offsets stay those of body)."""
    labels, depth = [], 0
    for m in _LABEL_OR_BRACE.finditer(body, start, len(body) if end is None else end):
        tok = m.group(0)
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
        elif depth == 0:
            labels.append((m.start(), m.end(), tok.startswith("default")))
    return labels


def sections(text: str, sw: Switch) -> list[tuple[int, int, bool, int]]:
    """(start, end, is default, section end) of each top label of a whole
    switch as top_labels gives them, with where its statements end: at the
    next label or at the closing brace."""
    labels = top_labels(text, sw.brace + 1, sw.end)
    return [(start, end, is_default, labels[k + 1][0] if k + 1 < len(labels) else sw.end)
            for k, (start, end, is_default) in enumerate(labels)]


def cases(body: str) -> list[tuple[str, str]] | None:
    """(label, statements) of each case of a switch body; labels falling
    into the next label are merged into it.  None when it cannot split."""
    cuts = [(s, e) for s, e, _default in top_labels(body)]
    # What precedes the first label never runs: declarations there
    # (switch (cmd) { int n; case A: ...) are harmless, a block could hide
    # labels.
    if not cuts or re.search(r"[{}]", body[:cuts[0][0]]):
        return None
    out = []
    for k, (s, e) in enumerate(cuts):
        seg = body[e:cuts[k + 1][0] if k + 1 < len(cuts) else len(body)]
        if seg.strip():
            out.append((body[s:e], seg))
        elif body[s:e].startswith("default"):
            out.append((body[s:e], seg))
    return out


# A case counts as leaving only when its last statement is a jump, a bare
# block ending in one, an if/else whose branches all end in one, or a
# switch with a default label, no break and a last case ending in one.
JUMP = r"(?:break|continue|goto\s+[A-Za-z_]\w*|return\b[^;]*)\s*;"


_ENDS_IN_JUMP = re.compile(r"(?:^|[;{}:])\s*" + JUMP + r"$")


_ELSE_JUMP = re.compile(r"\belse\s*" + JUMP + r"$")


_THEN_JUMP = re.compile(r"\)\s*" + JUMP + r"$")


def branch_leaves(text: str) -> bool:
    """text ends with the then branch of "if (c) S": whether S ends in a jump
    and, when this if is itself the else branch of an earlier if, so does
    every earlier branch."""
    text = text.rstrip()
    if text.endswith("}"):
        o = match_open(text, len(text) - 1)
        if o < 0 or not case_leaves(text[o + 1:-1]):
            return False
        head = text[:o].rstrip()
    else:
        m = _THEN_JUMP.search(text)
        if m is None:
            return False
        head = text[:m.start() + 1]
    # head ends with "if (cond)": drop it and look for an "else" before.
    if not head.endswith(")"):
        return False
    o = match_open(head, len(head) - 1)
    if o < 0:
        o = head.rfind("(")
    before = head[:o].rstrip()
    if not re.search(r"\bif$", before):
        return False
    before = before[:-2].rstrip()
    if re.search(r"\belse$", before):
        return branch_leaves(before[:-4])
    return True


def case_leaves(seg: str) -> bool:
    """Whether the statement list of a case ends in break, continue, goto or
    return, so that it cannot fall into the next label."""
    s = seg.strip()
    if not s:
        return False
    if s.endswith("}"):
        o = match_open(s, len(s) - 1)
        if o < 0:
            return False
        head = s[:o].rstrip()
        if not head or head[-1] in ";{}:":
            return case_leaves(s[o + 1:-1])
        if re.search(r"\belse$", head):
            return case_leaves(s[o + 1:-1]) and branch_leaves(head[:-4])
        if re.search(r"\bswitch\s*\(.*\)$", head, re.S):
            # A nested switch leaves when it has a default label, no break
            # anywhere in it, and its last case ends in a jump.
            inner = s[o + 1:-1]
            found = cases(inner)
            if not found:
                return False
            return not re.search(r"\bbreak\b", inner) and any(
                label.startswith("default") for label, _seg in found) and case_leaves(found[-1][1])
        return False
    m = _ENDS_IN_JUMP.search(s)
    if m is not None:
        pre = s[:m.start() + 1]
        return pre.count("{") == pre.count("}")
    m = _ELSE_JUMP.search(s)
    if m is not None:
        return branch_leaves(s[:m.start()])
    return False


"""The Python of the rule file: handler discovery, the checks of the shapes
and the site table that cocci/ioctl_enotty.cocci runs inside spatch.

rules.py copies ctext.py and this module, in that order and without their
imports of each other, into the initialize block at the end of
the rule file, so that the rule stays one self-contained file for
`make coccicheck`; the SmPL rules call the enotty_* functions.  Here the
module is unit-tested (rule_python_test.py) and type-checked like the rest
of the package.  spatch lexes the embedded Python for quotes: no comment
here holds a single quote (rules_test.py checks the assembled block).

spatch positions (`p << r.p`) arrive as tuples of Location objects whose
file, line, column and current_element are strings (the Pos protocol).
"""
import os
import re
from typing import Protocol, Sequence



class Location(Protocol):
    file: str
    line: str
    column: str
    current_element: str


class Span(Location, Protocol):
    """A position that spatch gives with its end (that of a statement)."""
    line_end: str
    column_end: str


Pos = Sequence[Location]
Target = tuple[str, int]                        # (interface, cmd index)
Site = tuple[str, str, str, str, str]           # (function, interface, from, to, rule)

# (struct, field) -> (cmd_arg, to, keep_enoioctlcmd, dispatch), and the
# interfaces in table order (the first row wins); ops structures that are
# members of another structure and set at run time through it
# (hw->ops.ioctl = fn): (container struct, member) -> ops struct, since the
# type of the member is only known from headers spatch does not read; hooks that
# a core calls from its own default and whose answer stays (the KVM arch
# ioctls), a fact naming one adds no target; interface -> the answers
# besides -EINVAL and -ENOSYS that its default converts (also_from: the
# kernel-internal -ENOTSUPP, -EOPNOTSUPP, -EFAULT on file_operations-like
# members; a socket keeps -EOPNOTSUPP).  Empty here: rules.py writes
# the columns of cocci/interfaces.tsv in their place (TABLE_LINES).
ENOTTY_INTERFACES = {
    ('file_operations', 'unlocked_ioctl'): (1, 'ENOTTY', False, 'fs/ioctl.c:vfs_ioctl'),
    ('file_operations', 'compat_ioctl'): (1, 'ENOTTY', False, 'fs/ioctl.c:compat_sys_ioctl'),
    ('v4l2_ioctl_ops', 'vidioc_default'): (3, 'ENOTTY', False, 'drivers/media/v4l2-core/v4l2-ioctl.c:__video_do_ioctl'),
    ('snd_hwdep_ops', 'ioctl'): (2, 'ENOTTY', False, 'sound/core/hwdep.c:snd_hwdep_ioctl'),
    ('snd_hwdep_ops', 'ioctl_compat'): (2, 'ENOTTY', False, 'sound/core/hwdep_compat.c:snd_hwdep_ioctl_compat'),
    ('fb_ops', 'fb_ioctl'): (1, 'ENOTTY', False, 'drivers/video/fbdev/core/fb_chrdev.c:do_fb_ioctl'),
    ('tty_operations', 'ioctl'): (1, 'ENOIOCTLCMD', True, 'drivers/tty/tty_io.c:tty_ioctl'),
    ('tty_operations', 'compat_ioctl'): (1, 'ENOIOCTLCMD', True, 'drivers/tty/tty_io.c:tty_compat_ioctl'),
    ('watchdog_ops', 'ioctl'): (1, 'ENOIOCTLCMD', True, 'drivers/watchdog/watchdog_dev.c:watchdog_ioctl'),
    ('v4l2_subdev_core_ops', 'ioctl'): (1, 'ENOIOCTLCMD', True, 'drivers/media/v4l2-core/v4l2-subdev.c:subdev_do_ioctl'),
    ('block_device_operations', 'ioctl'): (2, 'ENOTTY', True, 'block/ioctl.c:blkdev_ioctl'),
    ('block_device_operations', 'compat_ioctl'): (2, 'ENOTTY', True, 'block/ioctl.c:compat_blkdev_ioctl'),
    ('proto_ops', 'ioctl'): (1, 'ENOIOCTLCMD', True, 'net/socket.c:sock_do_ioctl'),
    ('proto_ops', 'compat_ioctl'): (1, 'ENOIOCTLCMD', True, 'net/socket.c:compat_sock_ioctl_trans'),
    ('tty_ldisc_ops', 'ioctl'): (1, 'ENOIOCTLCMD', True, 'drivers/tty/tty_io.c:tty_ioctl'),
    ('tty_ldisc_ops', 'compat_ioctl'): (1, 'ENOIOCTLCMD', True, 'drivers/tty/tty_io.c:tty_compat_ioctl'),
    ('v4l2_file_operations', 'unlocked_ioctl'): (1, 'ENOTTY', True, 'drivers/media/v4l2-core/v4l2-dev.c:v4l2_ioctl'),
    ('v4l2_file_operations', 'compat_ioctl32'): (1, 'ENOTTY', True, 'drivers/media/v4l2-core/v4l2-compat-ioctl32.c:v4l2_compat_ioctl32'),
    ('v4l2_subdev_core_ops', 'compat_ioctl32'): (1, 'ENOIOCTLCMD', True, 'drivers/media/v4l2-core/v4l2-subdev.c:subdev_compat_ioctl32'),
    ('media_file_operations', 'ioctl'): (1, 'ENOTTY', True, 'drivers/media/mc/mc-devnode.c:__media_ioctl'),
    ('media_file_operations', 'compat_ioctl'): (1, 'ENOTTY', True, 'drivers/media/mc/mc-devnode.c:__media_ioctl'),
    ('dvb_device', 'kernel_ioctl'): (1, 'ENOTTY', True, 'drivers/media/dvb-core/dvbdev.c:dvb_usercopy'),
    ('snd_rawmidi_global_ops', 'ioctl'): (1, 'ENOTTY', True, 'sound/core/rawmidi.c:snd_rawmidi_ioctl'),
    ('snd_info_entry_ops', 'ioctl'): (3, 'ENOTTY', True, 'sound/core/info.c:snd_info_entry_ioctl'),
    ('snd_seq_oss_callback', 'ioctl'): (1, 'ENOTTY', True, 'sound/core/seq/oss/seq_oss_synth.c:snd_seq_oss_synth_ioctl'),
    ('fb_ops', 'fb_compat_ioctl'): (1, 'ENOTTY', True, 'drivers/video/fbdev/core/fb_chrdev.c:fb_compat_ioctl'),
    ('uart_ops', 'ioctl'): (1, 'ENOIOCTLCMD', True, 'drivers/tty/serial/serial_core.c:uart_ioctl'),
    ('usb_serial_driver', 'ioctl'): (1, 'ENOIOCTLCMD', True, 'drivers/usb/serial/usb-serial.c:serial_ioctl'),
    ('scsi_host_template', 'ioctl'): (1, 'ENOTTY', True, 'drivers/scsi/scsi_ioctl.c:scsi_ioctl'),
    ('scsi_host_template', 'compat_ioctl'): (1, 'ENOTTY', True, 'drivers/scsi/scsi_ioctl.c:scsi_ioctl'),
    ('dasd_discipline', 'ioctl'): (1, 'ENOTTY', True, 'drivers/s390/block/dasd_ioctl.c:dasd_ioctl'),
    ('tape_discipline', 'ioctl_fn'): (1, 'ENOTTY', True, 'drivers/s390/char/tape_char.c:__tapechar_ioctl'),
    ('bcache_device', 'ioctl'): (2, 'ENOTTY', True, 'drivers/md/bcache/super.c:ioctl_dev'),
    ('proto', 'compat_ioctl'): (1, 'ENOIOCTLCMD', True, 'net/ipv4/af_inet.c:inet_compat_ioctl'),
    ('pppox_proto', 'ioctl'): (1, 'ENOIOCTLCMD', True, 'drivers/net/ppp/pppox.c:pppox_ioctl'),
    ('ppp_channel_ops', 'ioctl'): (1, 'ENOTTY', True, 'drivers/net/ppp/ppp_generic.c:ppp_ioctl'),
    ('atm_ioctl', 'ioctl'): (1, 'ENOIOCTLCMD', True, 'net/atm/ioctl.c:do_vcc_ioctl'),
    ('atmdev_ops', 'ioctl'): (1, 'ENOTTY', True, 'net/atm/resources.c:atm_dev_ioctl'),
    ('atmdev_ops', 'compat_ioctl'): (1, 'ENOTTY', True, 'net/atm/resources.c:atm_dev_ioctl'),
    ('atmphy_ops', 'ioctl'): (1, 'ENOTTY', True, 'net/atm/resources.c:atm_dev_ioctl'),
    ('usb_driver', 'unlocked_ioctl'): (1, 'ENOTTY', True, 'drivers/usb/core/devio.c:proc_ioctl'),
    ('usb_gadget_ops', 'ioctl'): (1, 'ENOTTY', True, 'drivers/usb/gadget/function/f_fs.c:ffs_ep0_ioctl'),
    ('vfio_device_ops', 'ioctl'): (1, 'ENOTTY', True, 'drivers/vfio/vfio_main.c:vfio_device_fops_unl_ioctl'),
    ('vfio_iommu_driver_ops', 'ioctl'): (1, 'ENOTTY', True, 'drivers/vfio/container.c:vfio_fops_unl_ioctl'),
    ('uacce_ops', 'ioctl'): (1, 'ENOTTY', True, 'drivers/misc/uacce/uacce.c:uacce_fops_unl_ioctl'),
    ('proc_ops', 'proc_ioctl'): (1, 'ENOTTY', True, 'fs/proc/inode.c:pde_ioctl'),
    ('proc_ops', 'proc_compat_ioctl'): (1, 'ENOTTY', True, 'fs/proc/inode.c:pde_compat_ioctl'),
    ('rtc_class_ops', 'ioctl'): (1, 'ENOTTY', True, 'drivers/rtc/dev.c:rtc_dev_ioctl'),
    ('posix_clock_operations', 'ioctl'): (1, 'ENOTTY', True, 'kernel/time/posix-clock.c:posix_clock_ioctl'),
    ('kvm_device_ops', 'ioctl'): (1, 'ENOTTY', True, 'virt/kvm/kvm_main.c:kvm_device_ioctl'),
    ('kvmppc_ops', 'arch_vm_ioctl'): (1, 'ENOTTY', True, 'arch/powerpc/kvm/powerpc.c:kvm_arch_vm_ioctl'),
    ('hypfs_dbfs_file', 'unlocked_ioctl'): (1, 'ENOTTY', True, 'arch/s390/hypfs/hypfs_dbfs.c:dbfs_ioctl'),
    ('thread_with_stdio_ops', 'unlocked_ioctl'): (1, 'ENOTTY', True, 'fs/bcachefs/thread_with_file.c:thread_with_stdio_ioctl'),
    ('net_device_ops', 'ndo_siocdevprivate'): (3, 'EOPNOTSUPP', False, 'net/core/dev_ioctl.c:dev_siocdevprivate'),
    ('net_device_ops', 'ndo_tunnel_ctl'): (2, 'EOPNOTSUPP', False, 'net/ipv4/ip_tunnel.c:ip_tunnel_siocdevprivate'),
}
ENOTTY_ORDER = ['file_operations.unlocked_ioctl', 'file_operations.compat_ioctl', 'v4l2_ioctl_ops.vidioc_default', 'snd_hwdep_ops.ioctl', 'snd_hwdep_ops.ioctl_compat', 'fb_ops.fb_ioctl', 'tty_operations.ioctl', 'tty_operations.compat_ioctl', 'watchdog_ops.ioctl', 'v4l2_subdev_core_ops.ioctl', 'block_device_operations.ioctl', 'block_device_operations.compat_ioctl', 'proto_ops.ioctl', 'proto_ops.compat_ioctl', 'tty_ldisc_ops.ioctl', 'tty_ldisc_ops.compat_ioctl', 'v4l2_file_operations.unlocked_ioctl', 'v4l2_file_operations.compat_ioctl32', 'v4l2_subdev_core_ops.compat_ioctl32', 'media_file_operations.ioctl', 'media_file_operations.compat_ioctl', 'dvb_device.kernel_ioctl', 'snd_rawmidi_global_ops.ioctl', 'snd_info_entry_ops.ioctl', 'snd_seq_oss_callback.ioctl', 'fb_ops.fb_compat_ioctl', 'uart_ops.ioctl', 'usb_serial_driver.ioctl', 'scsi_host_template.ioctl', 'scsi_host_template.compat_ioctl', 'dasd_discipline.ioctl', 'tape_discipline.ioctl_fn', 'bcache_device.ioctl', 'proto.compat_ioctl', 'pppox_proto.ioctl', 'ppp_channel_ops.ioctl', 'atm_ioctl.ioctl', 'atmdev_ops.ioctl', 'atmdev_ops.compat_ioctl', 'atmphy_ops.ioctl', 'usb_driver.unlocked_ioctl', 'usb_gadget_ops.ioctl', 'vfio_device_ops.ioctl', 'vfio_iommu_driver_ops.ioctl', 'uacce_ops.ioctl', 'proc_ops.proc_ioctl', 'proc_ops.proc_compat_ioctl', 'rtc_class_ops.ioctl', 'posix_clock_operations.ioctl', 'kvm_device_ops.ioctl', 'kvmppc_ops.arch_vm_ioctl', 'hypfs_dbfs_file.unlocked_ioctl', 'thread_with_stdio_ops.unlocked_ioctl', 'net_device_ops.ndo_siocdevprivate', 'net_device_ops.ndo_tunnel_ctl']
ENOTTY_EMBEDDED_OPS = {
    ("snd_hwdep", "ops"): "snd_hwdep_ops",
    ("video_device", "ioctl_ops"): "v4l2_ioctl_ops",
}
ENOTTY_KEPT_HOOKS = {"kvm_arch_vm_ioctl", "kvm_arch_vcpu_ioctl", "kvm_arch_dev_ioctl"}
ENOTTY_ALSO_FROM = {"file_operations.unlocked_ioctl": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}, "file_operations.compat_ioctl": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}, "v4l2_ioctl_ops.vidioc_default": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}, "snd_hwdep_ops.ioctl": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}, "snd_hwdep_ops.ioctl_compat": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}, "fb_ops.fb_ioctl": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}, "v4l2_file_operations.unlocked_ioctl": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}, "v4l2_file_operations.compat_ioctl32": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}, "media_file_operations.ioctl": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}, "media_file_operations.compat_ioctl": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}, "dvb_device.kernel_ioctl": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}, "snd_rawmidi_global_ops.ioctl": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}, "snd_info_entry_ops.ioctl": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}, "fb_ops.fb_compat_ioctl": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}, "scsi_host_template.ioctl": {"ENOTSUPP"}, "scsi_host_template.compat_ioctl": {"ENOTSUPP"}, "usb_driver.unlocked_ioctl": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}, "vfio_device_ops.ioctl": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}, "vfio_iommu_driver_ops.ioctl": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}, "uacce_ops.ioctl": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}, "proc_ops.proc_ioctl": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}, "proc_ops.proc_compat_ioctl": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}, "posix_clock_operations.ioctl": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}, "hypfs_dbfs_file.unlocked_ioctl": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}, "thread_with_stdio_ops.unlocked_ioctl": {"ENOTSUPP", "EOPNOTSUPP", "EFAULT"}}

enotty_handlers: dict[str, dict[str, str]] = {}   # file -> {function: interface}
enotty_helpers: dict[str, dict[str, Target | None]] = {}    # file -> {function: (interface, cmd index)}
enotty_trynext: dict[str, set[str]] = {}    # file -> {function whose value a caller compares}
enotty_static: dict[str, set[str]] = {}     # file -> {static function}
# Targets that discovery in other files found (tools/enotty/find/facts.py), from
# -D enotty_facts=FILE: file -> {function: (interface, cmd index)}.
enotty_fact_rows: dict[str | None, dict[str, Target]] = {}
# Fallbacks of a try-next chain: file -> {function: set of call positions
# reached only after the caller found a value equal to -ENOIOCTLCMD}, and
# file -> {function: set of all its call positions}.
enotty_fallback_calls: dict[str, dict[str, set[tuple[str, str]]]] = {}
enotty_all_calls: dict[str, dict[str, set[tuple[str, str]]]] = {}
# The sites the shapes claimed: file -> {(line, column): site}, and the
# lines already printed per mode.  No rule changes the file before the
# output rules, so every position is one of the original file.
enotty_sites: dict[str, dict[tuple[str, str], Site]] = {}
enotty_printed: set[tuple[str, str, str]] = set()
# file -> (key, its lines), for the comment heuristic; the key is the
# file name, size and modification time.
enotty_lines: dict[str, tuple[tuple[str, int, int], list[str]]] = {}
# file -> (key, its text without comments and cpp lines)
enotty_stripped_text: dict[str, tuple[tuple[str, int, int] | None, str]] = {}
# The C file spatch works on and its targets (function -> command
# parameter), set by enotty_t.  A dict: script rules run as functions, so
# they cannot rebind a global name.
enotty_current: dict[str, str | None] = {"file": None}
enotty_cmd_of: dict[str, str] = {}

ENOTTY_STRUCT_RE = re.compile(r"\bstruct\s+([A-Za-z_]\w*)")


def enotty_struct_name(typ: object) -> str | None:
    """'const struct file_operations *' -> 'file_operations' (or None)."""
    m = ENOTTY_STRUCT_RE.search(str(typ))
    return m.group(1) if m else None


def enotty_interface(struct: str | None, field: str) -> str | None:
    if struct is not None and (struct, field) in ENOTTY_INTERFACES:
        return struct + "." + field
    return None


def enotty_add_handler(pos: Pos, fn: str, struct: str | None, field: str) -> None:
    iface = enotty_interface(struct, field)
    if iface is None:
        return
    # The first table row wins when one function serves two interfaces.
    table = enotty_handlers.setdefault(pos[0].file, {})
    old = table.get(fn)
    if old is None or ENOTTY_ORDER.index(iface) < ENOTTY_ORDER.index(old):
        table[fn] = iface


def enotty_row(iface: str) -> tuple[str, str]:
    """struct.field -> (struct, field), the key of ENOTTY_INTERFACES."""
    struct, _dot, field = iface.partition(".")
    return struct, field


def enotty_to(iface: str) -> str:
    return ENOTTY_INTERFACES[enotty_row(iface)][1]


def enotty_add_helper(file: str, caller: str, helper: str, index: int) -> None:
    """Record that caller hands its command to helper as argument index.
    A helper of several handlers takes the first table row among them; one
    whose callers want different answers (ENOTTY and ENOIOCTLCMD), or get
    the command at different places, is dropped."""
    found = enotty_lookup(file, caller)
    if not found or helper == caller or helper in enotty_handlers.get(file, {}):
        return
    table = enotty_helpers.setdefault(file, {})
    new = (found[0], index)
    old = table.get(helper, new)
    if old is None or old[1] != index or enotty_to(old[0]) != enotty_to(found[0]):
        table[helper] = None
    elif ENOTTY_ORDER.index(found[0]) <= ENOTTY_ORDER.index(old[0]):
        table[helper] = new


def enotty_lookup(file: str, fn: str) -> Target | None:
    """(interface, cmd index) for a handler or a dispatching helper, or None."""
    if fn in enotty_trynext.get(file, ()):
        return None
    iface = enotty_handlers.get(file, {}).get(fn)
    if iface is not None:
        struct, field = iface.split(".")
        return iface, ENOTTY_INTERFACES[(struct, field)][0]
    helper = enotty_helpers.get(file, {}).get(fn)
    if helper is None or fn not in enotty_static.get(file, ()):
        return enotty_fact(file, fn)
    # A helper the file hands on only from its compat handler may also be
    # reached natively from a caller this file does not see as a dispatch
    # (hpet_ioctl() adjusts the value): the facts know both; the first
    # table row wins, as for a handler of two interfaces.
    fact = enotty_fact(file, fn)
    if fact is not None and enotty_to(fact[0]) == enotty_to(helper[0]) and fact[1] == helper[1] \
            and ENOTTY_ORDER.index(fact[0]) < ENOTTY_ORDER.index(helper[0]):
        return fact
    return helper


def enotty_read_facts(path: str) -> None:
    """Rows file, function, interface, cmd_arg of the facts TSV, read once.
    Rows naming an interface outside the table, or a malformed index, are
    skipped: a fact can add a target, never change an answer."""
    if enotty_fact_rows:
        return
    enotty_fact_rows[None] = {}
    with open(path, errors="replace") as f:
        for line in f:
            cells = line.rstrip("\n").split("\t")
            if len(cells) != 4 or not cells[3].isdigit():
                continue
            file, fn, iface, index = cells
            if tuple(iface.split(".")) not in ENOTTY_INTERFACES:
                continue
            if fn in ENOTTY_KEPT_HOOKS:
                continue
            name = os.path.normpath(file)
            # One function, two interfaces (rfcomm_dev_ioctl() under
            # proto_ops.ioctl and .compat_ioctl): the first table row wins.
            rows = enotty_fact_rows.setdefault(name, {})
            old = rows.get(fn)
            if old is None or ENOTTY_ORDER.index(iface) < ENOTTY_ORDER.index(old[0]):
                rows[fn] = (iface, int(index))


def enotty_fact(file: str, fn: str) -> Target | None:
    """(interface, cmd index) of fn in file from the facts, or None.  The
    scan names files relative to the tree root, as the facts do; a file
    given by a longer path matches the row its path ends with."""
    if not enotty_fact_rows:
        return None
    name = os.path.normpath(file)
    for key, table in enotty_fact_rows.items():
        if key is not None and fn in table and (key == name or name.endswith("/" + key)):
            return table[fn]
    return None


def enotty_takes_cmd(file: str, fn: str, n: str | int) -> bool:
    """fn is a target whose command is its parameter number n."""
    found = enotty_lookup(file, fn)
    return found is not None and found[1] == int(n)


def enotty_file_lines(file: str) -> list[str]:
    """Lines of a file, cached.  spatch reuses the names of its temporary
    files (cocci_small_output-*.c), so the cache key includes the size and
    modification time."""
    try:
        st = os.stat(file)
    except OSError:
        return []
    key = (file, st.st_size, st.st_mtime_ns)
    if enotty_lines.get(file, (None,))[0] != key:
        try:
            with open(file, errors="replace") as f:
                enotty_lines[file] = (key, f.read().split("\n"))
        except OSError:
            return []
    return enotty_lines[file][1]


# A return that a comment ties to user space stays as it is: maintainers
# write "user space relies on EINVAL" (or ABI, compat) beside such returns.
# Heuristic: the comment text on the line of the site, or in the comment that
# ends on the line before it (a whole /* ... */ block counts), or, when the
# line before is the "if (...)" / "default:" / "else" heading the site, in
# the comment that ends above that head, mentions user space, userspace,
# ABI or compat.
ENOTTY_ABI_WORDS = re.compile(r"user[\s-]*space|\bABI\b|compat", re.I)


def enotty_abi_comment(pos: Pos) -> bool:
    lines = enotty_file_lines(pos[0].file)
    line = int(pos[0].line) - 1
    if line >= len(lines):
        return False
    text = comment_text(lines, line)
    if line > 0:
        text += " " + comment_text(lines, line - 1)
        # "if (...)", "default:" or "else" heading the return: the comment
        # above that head speaks about the return too.
        head = lines[line - 1].strip()
        if line > 1 and re.search(r"(?:\)|:|\{|\belse)$", head) and not head.startswith(("/*", "*", "//")):
            text += " " + comment_text(lines, line - 2)
    return bool(ENOTTY_ABI_WORDS.search(text))


def enotty_switch_after(pos: Pos, cmd: str) -> str | None:
    """Body of the first switch on cmd after pos, as source text, or None."""
    lines = enotty_file_lines(pos[0].file)
    start = int(pos[0].line) - 1
    text = blank_lexemes("\n".join(lines[start:]))
    head = re.compile(switch_head(cmd, only_nr=True) + r"\{")
    m = head.search(text, int(pos[0].column))
    if m is None:
        return None
    close = match_close(text, m.end() - 1)
    return text[m.end():close] if close >= 0 else None


def enotty_default_fallen_into(body: str) -> bool:
    """Whether the default label of a switch body directly follows another
    label (case X: default:), so that a recognised command reaches it."""
    labels = top_labels(body)
    for k, (start, _end, is_default) in enumerate(labels):
        if is_default and k > 0 and not blank_directives(body[labels[k - 1][1]:start]).strip():
            return True
    return False


def enotty_site_offset(pos: Pos) -> int:
    """Offset of pos in enotty_stripped(file), or -1."""
    lines = enotty_file_lines(pos[0].file)
    line = int(pos[0].line) - 1
    if line >= len(lines):
        return -1
    return min(sum(len(l) + 1 for l in lines[:line]) + int(pos[0].column),
               len(enotty_stripped(pos[0].file)))


def enotty_statement_before(pos: Pos) -> str | None:
    """The text before the statement return -E; or x = -E; at pos, with
    comments and preprocessor lines blanked and trailing space cut, or
    None."""
    offset = enotty_site_offset(pos)
    if offset < 0:
        return None
    text = enotty_stripped(pos[0].file)
    m = re.search(r"(?:\breturn\b|\b[A-Za-z_]\w*\s*=(?!=))[\s(\-]*$", text[:offset])
    if m is None:
        return None
    return text[:m.start()].rstrip()


# Calls that only log: a default made of them and a break (or nothing, as
# the last label) lets the command out of the switch unchanged.
ENOTTY_LOG_CALL = (r"(?:pr_(?:debug|info|notice|warn|warning|err)(?:_ratelimited|_once)?"
                   r"|dev_(?:dbg|info|notice|warn|err)(?:_ratelimited|_once)?|printk)"
                   r"\s*\((?:[^();]|\([^();]*\))*\)\s*;")


def enotty_only_logs(seg: str, last: bool) -> bool:
    """Whether the statements of a default are logging calls then break; (or,
    for the last label, logging calls alone)."""
    s = seg.strip()
    if last and not s:
        return False
    return re.fullmatch(r"(?:" + ENOTTY_LOG_CALL + r"\s*)*" + (r"(?:break\s*;)?" if last else r"break\s*;"),
                        s) is not None


def enotty_after_leaving_switch(pos: Pos, cmd: str | None) -> bool:
    """True when the statement at pos (return -EINVAL; or ret = -EINVAL;)
    directly follows a switch on the command (on cmd, F(cmd) or cmd & ~M)
    that has no default label, or only a default: break; that no case falls
    into, and whose every case leaves by return or goto: only an unknown
    command gets there.  A case with a break or continue anywhere, or
    ending in "if (c) return x;", could get there too."""
    return enotty_switch_leaves_before(enotty_statement_before(pos), cmd)


def enotty_after_missing_operation(pos: Pos, cmd: str | None) -> bool:
    """True when the statement at pos follows one unbraced statement that
    itself directly follows a switch as in enotty_after_leaving_switch.
    The rule (nrm) states that statement: if (E) return E(..);, the
    command handed to an optional operation."""
    text = enotty_statement_before(pos)
    if text is None or not text.endswith(";"):
        return False
    return enotty_switch_leaves_before(text[:statement_start(text, len(text) - 1)].rstrip(), cmd)


# A "not mine" test of a sub-handler: if (ret != -ENODEV) return ret; (or
# any other named value), so that only the value meaning "not mine" goes on.
ENOTTY_NOT_MINE_RE = re.compile(
    r"\bif\s*\(\s*(\w+)\s*!=\s*\(?\s*-?\s*[A-Z_][A-Z0-9_]*\s*\)?\s*\)\s*\{?\s*return\s+\1\s*;\s*\}?")


def enotty_tries_subhandlers(seg: str, cmd: str | None) -> bool:
    """Whether the statements of a default hand the command to sub-handlers
    in turn and leave only with the answer of one that took it: each
    return is "if (ret != NOT_MINE) return ret;", ret last assigned a call
    that takes the command, and nothing else leaves (no break, goto or
    return besides).  Falling out of it then means no sub-handler knew the
    command (dfl-afu-main.c afu_ioctl(): sub-features answer -ENODEV)."""
    if cmd is None or re.search(r"\b(?:break|goto)\b", seg):
        return False
    tests = list(ENOTTY_NOT_MINE_RE.finditer(seg))
    if not tests or len(re.findall(r"\breturn\b", seg)) != len(tests):
        return False
    for m in tests:
        calls = re.findall(r"\b" + re.escape(m.group(1)) + r"\s*=(?!=)\s*([^;]*);", seg[:m.start()])
        if not calls or not re.search(r"\(.*\b" + re.escape(cmd) + r"\b", calls[-1], re.S):
            return False
    return True


def enotty_after_subhandler_loop(pos: Pos, cmd: str | None) -> bool:
    """True when the statement at pos follows a switch on the command whose
    cases all leave and whose default, the last label, only tries
    sub-handlers (enotty_tries_subhandlers), or follows such a loop of the
    function body itself that is the first code to look at the command
    (industrialio-core.c iio_ioctl(): the registered handlers answer
    IIO_IOCTL_UNHANDLED for a command not theirs): the command none took."""
    text = enotty_statement_before(pos)
    if enotty_switch_leaves_before(text, cmd, tries=True):
        return True
    return enotty_loop_tries_before(pos, text, cmd)


ENOTTY_LOOP_HEAD_RE = re.compile(r"\s*(?:\b(?:for|while)\s*|\b\w*for_each\w*\s*)\(.*\)\s*$", re.S)


def enotty_loop_tries_before(pos: Pos, text: str | None, cmd: str | None) -> bool:
    """text ends with a braced loop, in the body of the function itself,
    whose statements try sub-handlers; nothing before it in the function
    names the command, so no recognised command is handled and then let
    into the loop."""
    if text is None or cmd is None or not text.endswith("}"):
        return False
    brace = match_open(text, len(text) - 1)
    if brace < 0:
        return False
    head_start = statement_start(text, brace)
    if not ENOTTY_LOOP_HEAD_RE.match(text, head_start, brace):
        return False
    outer = enclosing_brace(text, head_start)
    if outer < 0 or enclosing_brace(text, outer) >= 0:
        return False       # not the body of the function: under an if or a case
    if re.search(r"\b" + re.escape(cmd) + r"\b", text[outer:head_start]):
        return False
    return enotty_tries_subhandlers(text[brace + 1:-1], cmd)


def enotty_switch_leaves_before(text: str | None, cmd: str | None, tries: bool = False) -> bool:
    """text ends with a switch as in enotty_after_leaving_switch (tries: as
    in enotty_after_subhandler_loop)."""
    if text is None or not text.endswith("}"):
        return False
    end = len(text)
    i = match_open(text, end - 1)
    if i < 0:
        return False
    if re.search(switch_head(cmd) + "$", text[:i]) is None:
        return not tries and enotty_kind_switch_leaves(text[:i], text[i + 1:end - 1], cmd)
    return enotty_command_body_leaves(text[i + 1:end - 1], cmd, tries)


def enotty_kind_switch_leaves(head: str, body: str, cmd: str | None) -> bool:
    """head ends with "switch (X)", X not naming the command, and body is
    its body: no default label, and every case is a switch on the command
    as in enotty_after_leaving_switch followed by break; alone
    (vme_user_ioctl(): switch (type[minor]) { case MASTER_MINOR: switch
    (cmd) {..} break; ..}).  A command that no switch of its node kind
    names falls out; a recognised one of another kind too, which this
    node does not implement."""
    head = head.rstrip()
    o = match_open(head, len(head) - 1) if head.endswith(")") else -1
    if cmd is None or o < 0 or not re.search(r"\bswitch\s*$", head[:o]) \
            or re.search(r"\b" + re.escape(cmd) + r"\b", head[o:]):
        return False
    split = cases(body)
    if not split:
        return False
    for label, seg in split:
        if label.startswith("default"):
            return False
        s = seg.strip()
        inner = re.match(switch_head(cmd) + r"\{", s)
        if inner is None:
            return False
        close = match_close(s, inner.end() - 1)
        if close < 0 or re.fullmatch(r"\s*break\s*;\s*", s[close + 1:]) is None:
            return False
        if not enotty_command_body_leaves(s[inner.end():close], cmd, False):
            return False
    return True


# A case ending "return x; break;", the return a statement of its own (not
# the branch of an if, else or loop): the break is dead code.
ENOTTY_DEAD_BREAK_RE = re.compile(r"((?:^|[;{}])\s*return\b[^;{}]*;)\s*break\s*;\s*$")


def enotty_command_body_leaves(body: str, cmd: str | None, tries: bool) -> bool:
    """body is that of a switch on the command: as in
    enotty_after_leaving_switch (tries: enotty_after_subhandler_loop)."""
    split = cases(body)
    if not split:
        return False
    tried = False
    for k, (label, seg) in enumerate(split):
        if label.startswith("default"):
            # default: break; lets only unknown commands out, unless a
            # recognised one falls into it (case X: default: break;).  A
            # default that only logs the command before its break, or as
            # the last label without one, does the same.
            last = k == len(split) - 1
            if enotty_default_fallen_into(body):
                return False
            if tries:
                if not last or not enotty_tries_subhandlers(seg, cmd):
                    return False
                tried = True
            elif not enotty_only_logs(seg, last):
                return False
            continue
        seg = ENOTTY_DEAD_BREAK_RE.sub(r"\1", seg)
        if re.search(r"\b(?:break|continue)\b", seg) or not case_leaves(seg):
            return False
    return tried or not tries


def enotty_after_if_chain(pos: Pos, cmd: str | None) -> bool:
    """True when the statement at pos directly follows a chain "if (cmd ==
    A) {..} else if (cmd == B) {..}" without a final else, whose every
    condition only tests the command and whose every branch leaves by
    return or goto: only an unknown command falls out of it."""
    text = enotty_statement_before(pos)
    if text is None:
        return False
    while True:
        if text.endswith("}"):
            o = match_open(text, len(text) - 1)
            if o < 0:
                return False
            branch, head = text[o + 1:-1], text[:o].rstrip()
        else:
            m = re.search(r"\)\s*((?:return\b[^;]*|goto\s+[A-Za-z_]\w*)\s*;)$", text)
            if m is None:
                return False
            branch, head = m.group(1), text[:m.start() + 1]
        if re.search(r"\b(?:break|continue)\b", branch) or not case_leaves(branch):
            return False
        if not head.endswith(")"):
            return False
        k = match_open(head, len(head) - 1)
        if k < 0:
            return False
        before = head[:k].rstrip()
        if not re.search(r"\bif$", before) or not enotty_command_test(head[k + 1:-1], cmd, "=="):
            return False
        before = before[:-2].rstrip()
        if not re.search(r"\belse$", before):
            return True
        text = before[:-4].rstrip()


def enotty_under_default(pos: Pos, cmd: str | None) -> bool:
    """Whether the statement at pos runs for every command that reaches the
    default label of the innermost switch on the command around it: it lies
    under that label, not under an if, else or loop there (bare blocks
    allowed).  A conditional -EINVAL in a default tests something else
    first (an argument, an operation)."""
    offset = enotty_site_offset(pos)
    before = enotty_statement_before(pos)
    if offset < 0 or before is None or re.search(r"(?:\)|\belse)$", before):
        return False
    text = enotty_stripped(pos[0].file)
    head = re.compile(switch_head(cmd) + "$")
    brace = enclosing_brace(text, offset)
    while brace >= 0 and not head.search(text, max(0, brace - 200), brace):
        if not re.search(r"[:;{}]$", text[:brace].rstrip()):
            return False
        brace = enclosing_brace(text, brace)
    if brace < 0:
        return False
    labels = top_labels(text[brace + 1:offset])
    return bool(labels) and labels[-1][2]


ENOTTY_LEAVE_RE = re.compile(
    r"\b(?:break|goto|continue|if|for|while|do|switch|fallthrough)\b")


def enotty_blank_inner_switches(seg: str) -> str:
    """seg with each nested switch statement whose body has no goto and no
    continue cut to one ";": its breaks leave only itself, so it cannot
    leave the case (apm_ioctl() switches on the suspend state inside its
    one case).  What it assigns does not count either."""
    out, i = [], 0
    for sw in switches(seg, 0, len(seg)):
        if sw.keyword < i:
            continue
        if sw.close_paren < 0:
            return seg
        if sw.brace < 0:
            continue
        if sw.end < 0:
            return seg
        if re.search(r"\b(?:goto|continue)\b", seg[sw.keyword:sw.end]):
            continue
        out.append(seg[i:sw.keyword] + ";")
        i = sw.end + 1
    return "".join(out) + seg[i:]


def enotty_early_exits_assign(pos: Pos, cmd: str | None, ret: object) -> bool:
    """Every goto between the initialiser at pos and the switch on the
    command follows an assignment of ret in its own block (usbtmc_ioctl():
    if (data->zombie) { retval = -ENODEV; goto skip; }): a goto that does
    not jumps past the switch with the initialiser, which then answers
    known commands too (tests/trap_no_default_assign_early_goto.c)."""
    offset = enotty_site_offset(pos)
    if offset < 0:
        return False
    text = enotty_stripped(pos[0].file)
    head = re.compile(switch_head(cmd) + r"\{")
    m = head.search(text, offset)
    if m is None:
        return False
    region = text[offset:m.start()]
    assign = re.compile(r"\b" + re.escape(str(ret)) + r"\s*=(?!=)")
    for g in re.finditer(r"\bgoto\b", region):
        start = enclosing_brace(region, g.start()) + 1
        if start == 0 or not assign.search(region[start:g.start()]):
            return False
    return True


ENOTTY_TWIN_RETURN = r"return\s*\(?\s*-\s*E[A-Z0-9]+\s*\)?\s*;\s*"
ENOTTY_TWIN_RE = re.compile(
    r"\bdefault\s*:\s*\x23\s*if[^\n]*\n\s*" + ENOTTY_TWIN_RETURN + r"\x23\s*else[^\n]*\n\s*"
    + ENOTTY_TWIN_RETURN + r"\x23\s*endif[^\n]*\n\s*(?:break\s*;\s*)?\}")


def enotty_default_twin(pos: Pos, cmd: str | None) -> bool:
    """The site at pos is one of the two returns of a default made of an
    if-else-endif group of two returns alone (ioctl_default_twin), the
    default of a switch on the command cmd."""
    lines = enotty_file_lines(pos[0].file)
    line = int(pos[0].line) - 1
    if cmd is None or line >= len(lines):
        return False
    text = blank_lexemes("\n".join(lines))
    offset = sum(len(l) + 1 for l in lines[:line]) + int(pos[0].column)
    head = re.compile(switch_head(cmd) + "$")
    for m in ENOTTY_TWIN_RE.finditer(text, max(0, offset - 400), min(len(text), offset + 400)):
        if m.start() < offset < m.end():
            # the switch whose closing brace ends the match
            o = match_open(text, m.end() - 1)
            return o > 0 and head.search(blank_directives(text[max(0, o - 200):o])) is not None
    return False


def enotty_every_case_assigns(pos: Pos, ret: object) -> bool:
    """True when the switch on the command after pos has no default label
    and each of its cases assigns ret, or returns, before anything that
    could leave the case (see ioctl_switch_no_default)."""
    cmd = enotty_cmd(pos)
    body = enotty_switch_after(pos, cmd) if cmd else None
    split = cases(body) if body is not None else None
    # A default that only breaks (default: break;) is no answer of its
    # own: an unknown command leaves with ret as initialised
    # (drivers/misc/bcm-vk).
    if split:
        split = [(label, seg) for label, seg in split
                 if not (label.startswith("default") and re.fullmatch(r"\s*break\s*;\s*", seg))]
    if not split or any(label.startswith("default") for label, _seg in split):
        return False
    if not enotty_early_exits_assign(pos, cmd, ret) or enotty_later_switch(pos, cmd):
        return False
    return enotty_cases_assign([seg for _label, seg in split], ret)


def enotty_preset_switch(pos: Pos, ret: object) -> tuple[str, str, list[tuple[str, str]]] | None:
    """(command, body, cases) of the switch on the command after the
    initialiser at pos, where that switch alone decides who leaves with it
    (enotty_needs_default, enotty_default_lets_out): no goto before it
    jumps out with it, no second switch on the command follows, and no
    test of the command after it; else None."""
    cmd = enotty_cmd(pos)
    body = enotty_switch_after(pos, cmd) if cmd else None
    split = cases(body) if body is not None else None
    if cmd is None or body is None or not split or not enotty_early_exits_assign(pos, cmd, ret) \
            or enotty_later_switch(pos, cmd) or enotty_cmd_after_switch(pos, cmd):
        return None
    return cmd, body, split


def enotty_needs_default(pos: Pos, ret: object) -> bool:
    """The switch on the command after the initialiser at pos has no
    default label, and a case leaves with ret as initialised too (a known
    command with a bad argument: PCITEST_BAR of pci_endpoint_test_ioctl()
    with a BAR out of range): no token fixes that initialiser, a default
    that answers the answer of the interface does (ioctl_switch_add_default).
    The other switches of enotty_every_case_assigns, on the same terms."""
    found = enotty_preset_switch(pos, ret)
    if found is None:
        return False
    _cmd, _body, split = found
    if any(label.startswith("default") for label, _seg in split):
        return False
    # the last case must leave: one that falls out would fall into the
    # added default and get its answer (S_GET in a case a reviewer made)
    if not enotty_ends_leaving(enotty_blank_inner_switches(split[-1][1])):
        return False
    return not enotty_cases_assign([seg for _label, seg in split], ret)


def enotty_default_lets_out(pos: Pos, ret: object) -> bool:
    """The switch on the command after the initialiser at pos has a default
    that lets a command it does not take leave with ret as initialised, and
    a case leaves with it too (hiddev_ioctl(): HIDIOCAPPLICATION with an
    index out of range): the token stays, and the output sets the answer of
    the interface first thing in the default (ioctl_default_add_assign).
    Only a default whose commands keep their answers: each break in it
    follows an assignment of ret in its block, is the branch of an if on
    the command, or ends the default; no goto, loop or return of ret."""
    found = enotty_preset_switch(pos, ret)
    if found is None or enotty_default_fallen_into(found[1]):
        return False
    cmd, _body, split = found
    defaults = [seg for label, seg in split if label.startswith("default")]
    others = [seg for label, seg in split if not label.startswith("default")]
    if len(defaults) != 1 or not others or enotty_cases_assign(others, ret):
        return False
    name = re.escape(str(ret))
    seg = enotty_blank_inner_switches(defaults[0])
    # a helper handed &ret may set it for a command it takes (a review)
    if re.search(r"\b(?:goto|for|while|do)\b|\breturn\s*\(?\s*" + name + r"\b|&\s*" + name + r"\b", seg):
        return False
    assign = re.compile(r"\b" + name + r"\s*=(?!=)")
    # a command leaves it with ret unset: by a break that no assignment
    # precedes, or at its end, which no return or break ends and no
    # assignment outside a block precedes (kvm_dev_ioctl() returns what
    # kvm_arch_dev_ioctl() answers; ipmi_ioctl() sets -ENOTTY itself)
    breaks = list(re.finditer(r"\bbreak\s*;", seg))
    falls_out = re.search(r"\b(?:return|break)\b[^;{}]*;\s*$", seg) is None and not any(
        enclosing_brace(seg, m.start()) < 0 for m in assign.finditer(seg))
    if not falls_out and all(assign.search(seg[:brk.start()]) for brk in breaks):
        return False
    # an if on the command right before the break, no block between them,
    # and no size of the command: a known command with a short buffer
    # keeps its answer (cases of a review)
    on_cmd = re.compile(r"\bif\s*\((?=[^;{}]*\b" + re.escape(cmd) + r"\b)(?![^;{}]*_IOC_SIZE)[^;{}]*\)\s*$")
    for brk in breaks:
        block = enclosing_brace(seg, brk.start()) + 1
        if assign.search(seg[block:brk.start()]) or on_cmd.search(seg[:brk.start()]) \
                or (block == 0 and not seg[brk.end():].strip()):
            continue
        return False
    return True


def enotty_ends_leaving(seg: str) -> bool:
    """Whether the statements of a case end in a break, continue, goto or
    return that nothing makes conditional (not the branch of an if or an
    else), also inside a bare block that ends the case."""
    seg = seg.strip()
    if seg.endswith("}"):
        start = match_open(seg, len(seg) - 1)
        before = seg[:start].rstrip() if start >= 0 else ")"
        return (not before or before[-1] in ";:}") and enotty_ends_leaving(seg[start + 1:-1])
    return re.search(r"(?:^|[;{}:])\s*(?:break|continue|goto\s+\w+|return\b[^;{}]*)\s*;$", seg) is not None


def enotty_added_default(ps: Pos) -> str | None:
    """What the output adds for the site ps: for ioctl_switch_add_default a
    default (`default:` and an assignment of the answer of the interface
    to the initialised variable), for ioctl_default_add_assign that
    assignment alone; None for another site."""
    site = enotty_site_of(ps)
    if site is None or site[4] not in ADDS:
        return None
    m = re.search(r"\b([A-Za-z_]\w*)\s*=[\s(\-]*$", enotty_stripped(ps[0].file)[:enotty_site_offset(ps)])
    if m is None:
        return None
    assign = f"{m.group(1)} = -{site[3]};"
    return "default:\n\t" + assign if site[4] == ADDS_DEFAULT else assign


class EnottySiteAt:
    """The position of a claimed site, rebuilt from the site table: the rule that
    adds a default runs after the token rule has changed the file, and
    spatch lets no rule inherit a position over a change."""
    def __init__(self, file: str, key: tuple[str, str], fn: str) -> None:
        self.file = file
        self.line, self.column = key
        self.current_element = fn


def enotty_added_site(q: Sequence[Span], rule: str = "ioctl_switch_add_default") -> Pos | None:
    """The site of rule in the file of q whose addition goes at q: after the
    statement that ends its switch (ioctl_switch_add_default), before the
    first statement of its default (ioctl_default_add_assign); or None."""
    where = enotty_ends_switch if rule == ADDS_DEFAULT else enotty_starts_default
    for key, site in enotty_sites.get(q[0].file, {}).items():
        ps = [EnottySiteAt(q[0].file, key, site[0])]
        if site[4] == rule and where(q, ps):
            return ps
    return None


def enotty_ends_switch(q: Sequence[Span], ps: Pos) -> bool:
    """Whether the statement at q is the last one of the body of the switch
    on the command after the ioctl_switch_add_default site ps, and no
    statement holds it (not the branch of an if, which spatch would brace
    before adding the default after it, nor the statement of a case label)."""
    site = enotty_site_of(ps)
    cmd = enotty_cmd(ps)
    if site is None or site[4] != ADDS_DEFAULT or cmd is None or q[0].file != ps[0].file:
        return False
    found = enotty_switch_body(ps, cmd)
    if found is None:
        return False
    text, open_, close = found
    lines = enotty_file_lines(q[0].file)
    start = enotty_site_offset(q)
    end = sum(len(line) + 1 for line in lines[:int(q[0].line_end) - 1]) + int(q[0].column_end)
    if not open_ <= start < end <= close:
        return False
    # the last case label has a statement of its own in spatch, which
    # ends where its last statement does
    return (not text[end:close].strip() and text[:start].rstrip()[-1:] in (";", "}", ":", "{")
            and re.match(r"(?:case|default)\b", text[start:]) is None)


def enotty_switch_body(ps: Pos, cmd: str) -> tuple[str, int, int] | None:
    """(stripped text of the file, offset after the '{', offset of the '}')
    of the first switch on cmd after the site ps, as enotty_switch_after
    finds it; None without one."""
    text = enotty_stripped(ps[0].file)
    head = re.compile(switch_head(cmd, only_nr=True) + r"\{").search(text, enotty_site_offset(ps))
    close = match_close(text, head.end() - 1) if head else -1
    return (text, head.end(), close) if head and close >= 0 else None


def enotty_starts_default(q: Pos, ps: Pos) -> bool:
    """Whether the statement at q is the first one after the default label
    of the switch on the command after the site ps."""
    cmd = enotty_cmd(ps)
    if cmd is None or q[0].file != ps[0].file:
        return False
    found = enotty_switch_body(ps, cmd)
    start = enotty_site_offset(q)
    if found is None or not found[1] <= start < found[2]:
        return False
    text, open_, close = found
    labels = [open_ + end for _start, end, is_default in top_labels(text[open_:close]) if is_default]
    return len(labels) == 1 and labels[0] <= start and not text[labels[0]:start].strip() \
        and re.match(r"(?:case|default)\b", text[start:]) is None


def enotty_later_switch(pos: Pos, cmd: str | None) -> bool:
    """Whether the function around pos has a second switch on the command
    after the first one following pos: the initialiser then also reaches
    what lies between them (a state check jumping to the return answers
    the commands of the second switch with it,
    tests/trap_switch_chain_initialiser.c c_ioctl()), which
    enotty_switch_chain_assigns decides."""
    found = enotty_first_switch(pos, cmd) if cmd is not None else None
    if found is None:
        return True
    text, first, end = found
    if first is None:
        return False
    close = match_close(text, first.end() - 1)
    return close < 0 or first.re.search(text, close, end) is not None


def enotty_first_switch(pos: Pos, cmd: str) -> tuple[str, re.Match[str] | None, int] | None:
    """(stripped text of the file, the head of the first switch on cmd
    after pos in the function around it or None, the end of that
    function), or None where the function cannot be bounded."""
    found = enotty_function_body(pos)
    if found is None:
        return None
    text, _body, end = found
    return text, re.compile(switch_head(cmd) + r"\{").search(text, enotty_site_offset(pos), end), end


def enotty_cmd_after_switch(pos: Pos, cmd: str) -> bool:
    """Whether the function around pos names the command after the first
    switch on it following pos: a command handled there (if (cmd ==
    T_RESET) { if (arg) goto out; ... }) may leave with the initialiser
    too, which an added answer would change (a case of a review)."""
    found = enotty_first_switch(pos, cmd)
    if found is None:
        return True
    text, first, end = found
    if first is None:
        return True
    close = match_close(text, first.end() - 1)
    return close < 0 or re.search(r"\b" + re.escape(cmd) + r"\b", text[close:end]) is not None


def enotty_cases_assign(segs: list[str], ret: object) -> bool:
    """Each case (its statements) assigns ret, or returns, before anything
    that could leave it (see enotty_every_case_assigns)."""
    segs = [enotty_blank_inner_switches(seg) for seg in segs]
    assign = re.compile(r"\b" + re.escape(str(ret)) + r"\s*=(?!=)|\breturn\b")
    for seg in segs:
        if enotty_case_returns(seg, ret):
            continue
        first_assign = assign.search(seg)
        first_leave = ENOTTY_LEAVE_RE.search(seg)
        if first_assign is None:
            return False
        if first_leave is not None and first_leave.start() < first_assign.start():
            return False
    return True


def enotty_switch_chain_assigns(pos: Pos, ret: object) -> bool:
    """The initialiser at pos (T ret = -E;) reaches the final return ret;
    only for a command that no case of a chain of switches on the command
    names (gpib_os.c ibioctl(): four switches, each default break; or
    goto done;, state checks between them).  True when, after the
    initialiser, the function body is at its top level: switches on the
    command, at least two, whose cases all assign ret or return before
    they can leave (enotty_cases_assign) and whose default, if any, is
    break; or goto to the final label; other statements, none of them a
    loop, whose every assignment of ret is followed in its own block by a
    goto or a return, and whose every goto follows such an assignment;
    then the one label all gotos name, and return ret; with nothing
    assigning ret in between."""
    cmd = enotty_cmd(pos)
    offset = enotty_site_offset(pos)
    if cmd is None or offset < 0:
        return False
    text = enotty_stripped(pos[0].file)
    body_open = enclosing_brace(text, offset)
    if body_open < 0 or enclosing_brace(text, body_open) >= 0:
        return False        # the initialiser is not in the function body itself
    end = match_close(text, body_open)
    semi = text.find(";", offset)
    if end < 0 or semi < 0 or semi > end:
        return False
    r = re.escape(str(ret))
    region = text[semi + 1:end]
    tail = re.search(r"\b([A-Za-z_]\w*)\s*:(?!:)([^{}]*?)\breturn\s*\(?\s*" + r + r"\s*\)?\s*;\s*$",
                     region)
    if tail is None or re.search(r"\b" + r + r"\s*=(?!=)|\breturn\b", tail.group(2)):
        return False
    label = tail.group(1)
    region = region[:tail.start()]
    # the switches on the command, each at the top level of the body
    found = [sw for sw in switches(region, 0, len(region))
             if re.match(switch_head(cmd) + r"\{", region[sw.keyword:sw.brace + 1])]
    if len(found) < 2 or any(sw.end < 0 or enclosing_brace(region, sw.keyword) >= 0 for sw in found):
        return False
    if any(re.search(r"\b" + re.escape(cmd) + r"\b", region[sw.keyword:sw.end])
           for sw in switches(region, 0, len(region)) if sw not in found
           and not any(f.keyword < sw.keyword < f.end for f in found)):
        return False        # another switch naming the command
    outside, i = [], 0
    for sw in found:
        split = cases(region[sw.brace + 1:sw.end])
        if not split:
            return False
        segs = []
        for lab, seg in split:
            if lab.startswith("default"):
                if enotty_default_fallen_into(region[sw.brace + 1:sw.end]) or not re.fullmatch(
                        r"\s*(?:break|goto\s+" + re.escape(label) + r")\s*;\s*", seg):
                    return False
                continue
            segs.append(seg)
        if not enotty_cases_assign(segs, ret):
            return False
        outside.append(region[i:sw.keyword])
        i = sw.end + 1
    outside.append(region[i:])
    for part in outside:
        if re.search(r"\b(?:for|while|do|break|continue|switch)\b|\b\w*for_each\w*\s*\(", part):
            return False
        if re.search(r"\breturn\s*\(?\s*" + r + r"\b", part):
            return False
        for m in re.finditer(r"\b(?:if|switch)\s*\(", part):
            close = match_close(part, m.end() - 1)
            if close < 0 or re.search(r"\b" + re.escape(cmd) + r"\b", part[m.end():close]):
                return False    # a test of the command outside the switches
        for m in re.finditer(r"\b" + r + r"\s*=(?!=)", part):
            block = enclosing_brace(part, m.start())
            close = match_close(part, block) if block >= 0 else -1
            if close < 0 or not re.search(
                    r"(?:\bgoto\s+" + re.escape(label) + r"|\breturn\b[^;]*)\s*;\s*$", part[m.start():close]):
                return False
        for g in re.finditer(r"\bgoto\s+(\w+)", part):
            start = enclosing_brace(part, g.start()) + 1
            if g.group(1) != label or start == 0 or not re.search(
                    r"\b" + r + r"\s*=(?!=)", part[start:g.start()]):
                return False
    # every goto of the switches names the final label
    return all(g.group(1) == label for g in re.finditer(r"\bgoto\s+(\w+)", region))


def enotty_case_returns(seg: str, ret: object) -> bool:
    """Whether a case leaves only by return (its last statement returns,
    nothing in it breaks, continues or jumps) and never returns ret: then
    no recognised command reaches the return of ret
    after the switch with its initial value, however the case tests first
    (via-pmu.c pmu_ioctl(): if (brightness < 0) return brightness; else
    return put_user(..);).  Preprocessor lines do not count: a case under
    #ifdef ends where its #endif stands."""
    seg = blank_directives(seg)
    if re.search(r"\b(?:break|continue|goto)\b", seg) or not case_leaves(seg):
        return False
    # A case that returns ret itself is left to the assignment test of
    # enotty_every_case_assigns: "if (x) ret = f(); return ret;" returns
    # the initial value for a recognised command.
    return re.search(r"\breturn\s*\(?\s*" + re.escape(str(ret)) + r"\b", seg) is None




def enotty_stripped(file: str) -> str:
    """enotty_file_lines joined, comments and preprocessor lines blanked."""
    lines = enotty_file_lines(file)
    key = enotty_lines.get(file, (None,))[0]
    cached = enotty_stripped_text.get(file)
    if cached is None or cached[0] != key:
        cached = (key, blank_directives(blank_lexemes("\n".join(lines))))
        enotty_stripped_text[file] = cached
    return cached[1]


def enotty_not_fallen_into(pos: Pos, cmd: str | None) -> bool:
    """False when the site at pos lies under a default label of a switch on
    the command that the case before it reaches by falling through."""
    lines = enotty_file_lines(pos[0].file)
    line = int(pos[0].line) - 1
    if line >= len(lines):
        return True
    text = enotty_stripped(pos[0].file)
    offset = sum(len(l) + 1 for l in lines[:line]) + int(pos[0].column)
    head = re.compile(switch_head(cmd) + "$")
    # The innermost switch on the command around pos.
    start = enclosing_brace(text, min(offset, len(text)))
    while start >= 0 and not head.search(text, max(0, start - 200), start):
        start = enclosing_brace(text, start)
    if start < 0:
        return True
    body = text[start + 1:offset]
    labels = top_labels(body)
    if not labels or not labels[-1][2]:
        return True
    if len(labels) == 1:
        return True
    seg = body[labels[-2][1]:labels[-1][0]]
    return case_leaves(seg) or enotty_falls_in_without_operation(seg)


def enotty_falls_in_without_operation(seg: str) -> bool:
    """case A: op = tbl[i].fn; if (likely(op)) break; fallthrough;
    (drivers/scsi/cxlflash): a recognised command reaches the default only
    when the handler it looked up is missing, and "no handler" is what the
    default answers for an unknown command too."""
    m = re.search(r"\bif\s*\(\s*(?:likely\s*\(\s*)?([A-Za-z_]\w*)\s*\)?\s*\)\s*break\s*;"
                  r"\s*(?:fallthrough\s*;)?\s*$", seg)
    return m is not None and re.search(r"\b" + m.group(1) + r"\s*=(?!=)", seg[:m.start()]) is not None


# A helper is a dispatch helper only when some call that hands it the
# command reaches it for an unknown command.  A call under explicit case
# labels of a switch on the command, or in the then branch of
# "if (cmd == A || cmd == B)", only ever passes recognised commands: the
# unknown-command answers of the helper are dead code there, or argument
# checks of a recognised command (drivers/sbus/char/openprom.c opromnext).
# A call under default:, or before or after the switch, reaches it.
# Decided on the source text with comments and preprocessor lines blanked.
def enotty_selects_commands(cond: str, cmd: str) -> bool:
    """True when the condition holds only for listed commands: every operand
    of its || chain is, or is an && chain with, a "cmd == A" test."""
    c = re.escape(str(cmd))
    eq = re.compile(c + r"\s*==\s*" + ENOTTY_OPERAND + "|" + ENOTTY_OPERAND + r"\s*==\s*" + c)
    return all(any(eq.fullmatch(a) for a in operands(p, "&&"))
               for p in operands(cond, "||"))


def enotty_if_selects(prefix: str, cmd: str) -> bool:
    """prefix is the start of a statement up to a call or an opening brace:
    True when an "if (cond)" in it, whose then branch holds the rest, tests
    cond == listed commands."""
    for m in re.finditer(r"\bif\s*\(", prefix):
        close = match_close(prefix, m.end() - 1)
        if close > 0 and enotty_selects_commands(prefix[m.end():close], cmd):
            return True
    return False


def enotty_label_reaches_unknown(body: str, cmd: str) -> bool:
    """body runs from the brace of a switch on the command to a call in it:
    whether an unknown command gets there (the call is under default:, or
    under labels that a default above falls into)."""
    labels = top_labels(body)
    if not labels:
        return True
    k = len(labels) - 1
    while True:
        if labels[k][2]:
            return True
        if k == 0:
            return False
        seg = body[labels[k - 1][1]:labels[k][0]]
        if seg.strip() and case_leaves(seg):
            return False
        k -= 1


def enotty_reaches_unknown(pos: Pos, cmd: str | None) -> bool:
    """Whether the call at pos passes unknown commands: False when it lies
    under explicit case labels of a switch on cmd, or in the then branch of
    an if that tests cmd == A || cmd == B, at any depth."""
    lines = enotty_file_lines(pos[0].file)
    line = int(pos[0].line) - 1
    if cmd is None or line >= len(lines):
        return True
    text = enotty_stripped(pos[0].file)
    offset = min(sum(len(l) + 1 for l in lines[:line]) + int(pos[0].column), len(text))
    head = re.compile(switch_head(cmd, only_nr=True) + "$")
    end = offset
    while True:
        if enotty_if_selects(text[statement_start(text, end):end], cmd):
            return False
        brace = enclosing_brace(text, end)
        if brace < 0:
            return True
        if head.search(text, max(0, brace - 200), brace) and \
                not enotty_label_reaches_unknown(text[brace + 1:offset], cmd):
            return False
        if enotty_switch_returns_before(text, brace, end, cmd):
            return False
        end = brace


# A switch on the command whose default returns at once: no unknown
# command gets past it (gup_test_ioctl() before __gup_test_ioctl()).
ENOTTY_DEFAULT_RETURNS = re.compile(r"\bdefault\s*:\s*return\b")


def enotty_switch_returns_before(text: str, brace: int, end: int, cmd: str) -> bool:
    """Whether a switch on cmd that lies directly in the block opened at
    brace, before end, has a default that returns at once."""
    head = re.compile(switch_head(cmd, only_nr=True) + r"\{")
    i = brace + 1
    while True:
        m = head.search(text, i, end)
        if not m:
            return False
        close = match_close(text, m.end() - 1)
        if close < 0 or close > end:
            return False
        if enclosing_brace(text, m.start()) == brace:
            body = text[m.end():close]
            if any(enclosing_brace(body, d.start()) < 0 for d in ENOTTY_DEFAULT_RETURNS.finditer(body)):
                return True
        i = close


# An operand of a command comparison: a name, a member, a macro call such
# as _IOW(...), a number, or a character constant (the magic \x27H\x27).
ENOTTY_OPERAND = r"(?:[\w.>\-]+(?:\s*\([^()]*\))?|\x27(?:\\.|[^\x27\\])\x27)"


def enotty_unhint(text: object) -> str:
    """text without a likely() / unlikely() around all of it."""
    text = unparen(str(text))
    m = re.match(r"(?:un)?likely\s*\(", text)
    if m and match_close(text, m.end() - 1) == len(text) - 1:
        return enotty_unhint(text[m.end():-1])
    return text


def enotty_state_test(cond: object, cmd: str | None) -> bool:
    """Whether the operand joined to a command test by || (if (cmd != A
    || S) return -EINVAL;) tests something else than the command: S does
    not name the command parameter, and assigns nothing.  Such an if
    answers an unknown command and a known one in the wrong state alike
    (net/sunrpc/cache.c cache_ioctl()); split in two, the state test keeps
    its answer (ioctl_cmd_state_split)."""
    if cmd is None:
        # A constraint sees no inherited names: no command parameter of
        # any target of this file may appear.
        names = set(enotty_cmd_of.values())
        return bool(names) and all(enotty_state_test(cond, name) for name in names)
    text = enotty_unhint(str(cond))
    if re.search(r"\b" + re.escape(cmd) + r"\b", text):
        return False
    return re.search(r"(?<![=!<>])=(?!=)|\+\+|--", text) is None


# ioctl_switch_add_default changes no token either: its output adds a
# default to the switch after its site (enotty_added_default).
ADDS_DEFAULT = "ioctl_switch_add_default"
# ioctl_default_add_assign neither: its output sets the answer first thing
# in the default of that switch.
ADDS = (ADDS_DEFAULT, "ioctl_default_add_assign")
# ioctl_cmd_range_split rewrites its if too, the range tested first.
RANGE_SPLIT = "ioctl_cmd_range_split"
STATE_SPLIT = "ioctl_cmd_state_split"
# ioctl_valid_first keeps its token too: its output tests the command
# before the state check of the site and adds the function that lists the
# commands (enotty_valid_check, enotty_valid_switch).
VALID_FIRST = "ioctl_valid_first"
RESTRUCTURES = (STATE_SPLIT, RANGE_SPLIT, *ADDS, VALID_FIRST)


def enotty_restructured(ps: Pos, rule: str | None = None) -> bool:
    """Whether the site at ps is the errno of a statement the output
    rewrites whole (RESTRUCTURES, or the one rule named) rather than a
    token it replaces."""
    site = enotty_site_of(ps)
    return site is not None and (site[4] == rule if rule else site[4] in RESTRUCTURES)


def enotty_pure_test(cond: object) -> bool:
    """A state test (enotty_state_test) that calls nothing either: the
    command range of ioctl_cmd_range_split can be tested before it and it
    only for the commands in the range (arg == NULL in esas2r)."""
    return enotty_state_test(cond, None) and re.search(r"\w\s*\(", str(cond)) is None


def enotty_command_test(cond: object, cmd: str | None, kind: str) -> bool:
    """Whether an if condition only tests the command number, so that its
    -EINVAL branch answers unknown commands (likely()/unlikely() around the
    condition or an operand do not count):
      "=="   cmd == A || B == cmd || ...   (the else branch / fall-through)
      "!=&&" cmd != A && cmd != B && ...   (the then branch; the single
                                            cmd != A is matched in SmPL)
      "_IOC" _IOC_TYPE(cmd) != M || _IOC_NR(cmd) >= N
             || _IOC_DIR(cmd) != D || ...
             _IOC_TYPE(cmd) != M && cmd != A && ...
             (cmd & 0xff00) != M, !((cmd & 0xff00) == M)
    Not if (cmd): it refuses the known commands too (atomisp disables
    all its private ioctls that way).  Anything else (argument checks, _IOC_SIZE, a mix of && and ||) is not
    such a test."""
    if cmd is None:
        # A constraint sees no inherited names: the command parameter of
        # any target of this file will do.
        return any(enotty_command_test(cond, name, kind)
                   for name in set(enotty_cmd_of.values()))
    c = re.escape(str(cmd))
    cond = enotty_unhint(cond)
    if kind == "!=&&":
        parts = [enotty_unhint(p) for p in operands(cond, "&&")]
        ne = re.compile(c + r"\s*!=\s*" + ENOTTY_OPERAND + "|" + ENOTTY_OPERAND + r"\s*!=\s*" + c)
        return len(parts) > 1 and all(ne.fullmatch(p) for p in parts)
    if kind == "==":
        if "&&" in cond:
            return False
        parts = [enotty_unhint(p) for p in operands(cond, "||")]
        return all(re.fullmatch(c + r"\s*==\s*" + ENOTTY_OPERAND, p)
                   or re.fullmatch(ENOTTY_OPERAND + r"\s*==\s*" + c, p) for p in parts)
    # _IOC_TYPE(cmd), also open-coded: ((cmd >> 8) & 0xff), the shift and
    # width the ioctl.h of every architecture gives the type field (in
    # parentheses: & binds less tightly than !=).
    shifted = r"\(\s*" + c + r"\s*>>\s*(?:8|_IOC_TYPESHIFT)\s*\)\s*&\s*(?:0[xX][fF][fF]|255|_IOC_TYPEMASK)"
    ioc_type = r"(?:_IOC_TYPE\s*\(\s*" + c + r"\s*\)|\(\s*" + shifted + r"\s*\))"
    ioc_nr = r"_IOC_NR\s*\(\s*" + c + r"\s*\)"
    # The type field masked in place: (cmd & 0xff00) != 0x0200, or
    # !((cmd & 0xff00) == 0x0200) (drivers/block/floppy.c).
    masked = r"\(\s*" + c + r"\s*&\s*0[xX][fF][fF]00\s*\)"
    # The direction bits are part of the number (ioctl.rst, _IO/_IOR/_IOW):
    # a number whose direction is not that of the command is no command.
    ioc_dir = r"_IOC_DIR\s*\(\s*" + c + r"\s*\)"
    forms = [ioc_type + r"\s*!=\s*" + ENOTTY_OPERAND,
             ENOTTY_OPERAND + r"\s*!=\s*" + ioc_type,
             ioc_dir + r"\s*!=\s*(?:" + ENOTTY_OPERAND + r"|\([\w\s|]*\))",
             ioc_nr + r"\s*(?:>=|>)\s*" + ENOTTY_OPERAND,
             ENOTTY_OPERAND + r"\s*(?:<=|<)\s*" + ioc_nr,
             masked + r"\s*!=\s*" + ENOTTY_OPERAND,
             r"!\s*\(\s*" + masked + r"\s*==\s*" + ENOTTY_OPERAND + r"\s*\)"]
    ne = re.compile(c + r"\s*!=\s*" + ENOTTY_OPERAND + "|" + ENOTTY_OPERAND + r"\s*!=\s*" + c)

    def guard(p):
        return any(re.fullmatch(f, p) for f in forms)

    # "_IOC_TYPE(cmd) != M && cmd != A": neither of magic M nor A.  Each
    # && term is a guard or a cmd != A exception, one at least a guard,
    # so that the whole holds only for numbers no guard lets through.
    ands = [enotty_unhint(p) for p in operands(cond, "&&")]
    if len(ands) > 1:
        return any(guard(p) for p in ands) and all(guard(p) or ne.fullmatch(p) for p in ands)
    if "&&" in cond:
        return False
    parts = [enotty_unhint(p) for p in operands(cond, "||")]
    return all(guard(p) for p in parts)


def enotty_missing_operation_site(pos: Pos, cmd: str | None) -> bool:
    """The statement at pos (in the braced branch of if (!X), X an
    operation: the rule mo states it) lies under the default label of the
    innermost switch on the command around it, or under no such switch."""
    offset = enotty_site_offset(pos)
    if cmd is None or offset < 0:
        return False
    text = enotty_stripped(pos[0].file)
    head = re.compile(switch_head(cmd) + "$")
    b = enclosing_brace(text, offset)
    while b >= 0 and not head.search(text, max(0, b - 200), b):
        b = enclosing_brace(text, b)
    if b < 0:
        return True
    labels = top_labels(text[b + 1:offset])
    return bool(labels) and labels[-1][2]


def enotty_ioc_ifs_leave(body: str, cmd: str) -> bool:
    """body is made of if statements only, each testing the number
    (_IOC_NR(cmd)) and leaving by return in every branch of its own."""
    c = re.escape(str(cmd))
    nr = re.compile(r"\b_IOC_NR\s*\(\s*" + c + r"\s*\)")
    s, found = body.strip(), False
    while s:
        m = re.match(r"if\s*\(", s)
        if m is None:
            return False
        close = match_close(s, m.end() - 1)
        if close < 0 or not nr.search(s[m.end():close]):
            return False
        rest = s[close + 1:].lstrip()
        if rest.startswith("{"):
            end = match_close(rest, 0)
            if end < 0 or not case_leaves(rest[1:end]):
                return False
            s = rest[end + 1:].strip()
        else:
            r = re.match(r"return\b[^;]*;", rest)
            if r is None:
                return False
            s = rest[r.end():].strip()
        if s.startswith("else"):
            return False
        found = True
    return found


def enotty_after_ioc_chain(pos: Pos, cmd: str | None) -> bool:
    """The statement at pos is the last of its function and follows, at
    the top level of the body, blocks if (_IOC_DIR(cmd) == D) { .. } (or on
    _IOC_NR, _IOC_TYPE) made of tests of the number that all leave by
    return (enotty_ioc_ifs_leave), right after a type guard
    if (_IOC_TYPE(cmd) != M) return -E..; (drivers/input/evdev.c)."""
    if cmd is None or not enotty_top_level(pos):
        return False
    offset = enotty_site_offset(pos)
    before = enotty_statement_before(pos)
    if offset < 0 or before is None:
        return False
    text = enotty_stripped(pos[0].file)
    if not re.match(r"\w+\s*\)?\s*;\s*\}", text[offset:]):
        return False
    c = re.escape(str(cmd))
    ioc = re.compile(r"\b_IOC_(?:DIR|NR|TYPE)\s*\(\s*" + c + r"\s*\)")
    blocks = 0
    while before.endswith("}"):
        o = match_open(before, len(before) - 1)
        if o < 0:
            return False
        head = before[:o].rstrip()
        if not head.endswith(")"):
            return False
        start = match_open(head, len(head) - 1)
        cond, pre = head[start + 1:-1], head[:start].rstrip()
        if start < 0 or not re.search(r"\bif$", pre) or not ioc.search(cond):
            return False
        if not enotty_ioc_ifs_leave(before[o + 1:-1], cmd):
            return False
        before = pre[:-2].rstrip()
        if re.search(r"\belse$", before):
            return False
        blocks += 1
    guard = re.search(r"\bif\s*\(\s*_IOC_TYPE\s*\(\s*" + c + r"\s*\)\s*!=\s*[^()]+\)\s*return\s*\(?\s*-\s*E[A-Z]+\s*\)?\s*;$",
                      before)
    return blocks > 0 and guard is not None


def enotty_top_level(pos: Pos) -> bool:
    """Whether the statement at pos lies directly in the body of its
    function, not under another if, loop or switch: a command test nested
    under a test of the state (if (port is the control node) { if (cmd !=
    A && cmd != B) return -EINVAL; }) refuses known commands there, and
    stays (drivers/tty/moxa.c)."""
    lines = enotty_file_lines(pos[0].file)
    line = int(pos[0].line) - 1
    if line >= len(lines):
        return False
    text = enotty_stripped(pos[0].file)
    offset = min(sum(len(l) + 1 for l in lines[:line]) + int(pos[0].column), len(text))
    brace = enclosing_brace(text, offset)
    if brace >= 0 and re.fullmatch(r"\s*return\s*\(?\s*-\s*", text[brace + 1:offset]):
        brace = enclosing_brace(text, brace)   # the braces of the guard itself
    if brace < 0:
        return False
    head = text[max(0, brace - 400):brace].rstrip()
    name = re.escape(str(pos[0].current_element))
    return bool(re.search(r"\b" + name + r"\s*\((?:[^(){};]|\([^(){};]*\))*\)\s*$", head))


def enotty_enter(file: str) -> None:
    """Called for each candidate target: a new .c file starts a new set of
    targets.  spatch also matches the functions of the headers it reads
    for a .c file; they join the targets of that file."""
    if not file.endswith(".h") and enotty_current["file"] != file:
        enotty_current["file"] = file
        enotty_cmd_of.clear()


def enotty_cmd(pos: Pos) -> str | None:
    """Command parameter of the target function holding pos (or None)."""
    return enotty_cmd_of.get(pos[0].current_element)


def enotty_token_at(pos: Pos) -> str:
    """The identifier that starts at pos (the errno of a site), or ""."""
    lines = enotty_file_lines(pos[0].file)
    line, column = int(pos[0].line), int(pos[0].column)
    if not 0 < line <= len(lines):
        return ""
    m = re.match(r"[A-Za-z_]\w*", lines[line - 1][column:])
    return m.group(0) if m else ""


def enotty_from_converts(pos: Pos) -> bool:
    """Whether the answer at pos converts: -EINVAL and -ENOSYS always (the
    shapes name which); another errno only where the interface of the
    function holding pos lists it (also_from) and the statement runs for
    every command the default gets (enotty_under_default): a conditional
    -EFAULT there checks an argument.  The errno is read at pos: a
    constraint cannot name a metavariable bound inside a disjunction."""
    errno = enotty_token_at(pos)
    if errno in ("EINVAL", "ENOSYS", "EBADRQC"):
        return True
    return enotty_also_from(pos, errno) and enotty_under_default(pos, enotty_cmd(pos))


def enotty_also_from(pos: Pos, errno: str) -> bool:
    """Whether the interface of the function holding pos lists errno
    among the answers it converts besides -EINVAL and -ENOSYS (also_from)."""
    found = enotty_lookup(pos[0].file, pos[0].current_element)
    return found is not None and errno in ENOTTY_ALSO_FROM.get(found[0], set())


def enotty_statement_alone(text: str, start: int) -> bool:
    """Whether the statement starting at offset start of text follows
    another statement or a brace, not the head of an if, else or loop
    without braces (enotty_top_level sees braces only)."""
    before = text[:start].rstrip()
    return bool(before) and before[-1] in ";{}" and re.search(r"\belse$", before) is None


def enotty_split_if_alone(pos: Pos) -> bool:
    """Whether the if at pos (ioctl_cmd_range_split, ioctl_cmd_state_split)
    stands alone in the function body: not the body of an if, else or loop
    without braces (enotty_top_level sees braces only), no command test or
    assignment to the command before it (a known command that left a
    switch, or cmd = r.op, would meet the range), and no preprocessor line
    in it."""
    offset = enotty_site_offset(pos)
    cmd = enotty_cmd(pos)
    if offset < 0 or cmd is None:
        return False
    text = enotty_stripped(pos[0].file)
    brace = enclosing_brace(text, offset)
    if brace < 0 or not enotty_statement_alone(text, offset):
        return False
    c = re.escape(cmd)
    if re.search(r"\bswitch\s*\(\s*%s\b|\bif\s*\([^;{}]*\b%s\b|\b%s\s*(?:[-+*/%%&|^]?=(?!=)|\+\+|--)"
                 % (c, c, c), text[brace + 1:offset]):
        return False
    lines = enotty_file_lines(pos[0].file)
    first = int(pos[0].line) - 1
    last = next((i for i in range(first, len(lines)) if re.search(r"\breturn\b", lines[i])), first)
    return not any(line.lstrip().startswith("#") for line in lines[first:last + 1])


# ioctl_valid_first: a state check before the dispatch (hfi1 before a
# context is assigned, ppdev before PPCLAIM, userfaultfd before
# UFFDIO_API) answers every command -EINVAL, an unknown one too.  As
# upstream did for pidfd_ioctl() (pidfs_ioctl_valid()), the output tests
# the command first against the case labels of the switches on it.
ENOTTY_VALID_READ = re.compile(r"\b(?:copy_from_user|get_user|memdup_user|copy_struct_from_user|strncpy_from_user)\s*\(")
ENOTTY_VALID_LOG = re.compile(r"(?:pr_\w+|dev_\w+|printk|\w*dbg\w*|\w*debug\w*)\s*\(")


def enotty_valid_state(cond: object) -> bool:
    """Whether an if condition is a test of the state every command meets:
    terms joined by && that are each a state test (enotty_state_test:
    no command, no assignment) or cmd != A, one at least a state test, and
    none a test of the argument (a NULL or copy check of the argument may
    answer first: issue 31, the V4L2 core)."""
    text = enotty_unhint(str(cond))
    if re.search(r"\b(?:arg|argp|uarg|p|data)\b|\bcopy_(?:from|to)_user\b|\b(?:get|put)_user\b", text):
        return False
    terms = [enotty_unhint(t) for t in operands(text, "&&")]
    names = set(enotty_cmd_of.values())
    ne = "|".join(re.escape(n) + r"\s*!=\s*" + ENOTTY_OPERAND for n in names)
    states = [t for t in terms if enotty_state_test(t, None)]
    return bool(names) and bool(states) and all(t in states or (ne and re.fullmatch(ne, t)) for t in terms)


def enotty_function_body(pos: Pos) -> tuple[str, int, int] | None:
    """(stripped text, offset of the body brace, offset of its end) of the
    function around pos, or None where it cannot be bounded."""
    offset = enotty_site_offset(pos)
    if offset < 0:
        return None
    text = enotty_stripped(pos[0].file)
    body = enclosing_brace(text, offset)
    while body >= 0 and enclosing_brace(text, body) >= 0:
        body = enclosing_brace(text, body)
    end = match_close(text, body) if body >= 0 else -1
    return (text, body, end) if end >= 0 else None


def enotty_valid_scan(pos: Pos) -> tuple[list[str], str] | None:
    """The case labels of every switch on the command in the function
    around the site pos, in order, and the body of the function with the
    sections of those cases blanked (offsets kept), or None where the test
    cannot be made whole: a switch on something computed from the command,
    a label or a line under a preprocessor test in such a switch, the
    command assigned, or used outside a case of its own but to compare it
    with a label, to switch on it or to log it (a default that hands it to
    another function may know more commands than the labels)."""
    cmd = enotty_cmd(pos)
    found = enotty_function_body(pos)
    if cmd is None or found is None:
        return None
    text, body, end = found
    c = re.escape(cmd)
    if re.search(r"\b%s\s*(?:[-+*/%%&|^]?=(?!=)|\+\+|--)|(?:\+\+|--)\s*%s\b" % (c, c), text[body:end]):
        return None
    raw = "\n".join(enotty_file_lines(pos[0].file))
    labels: list[str] = []
    kept = list(text[body:end])
    for sw in switches(text, body, end):
        if sw.close_paren < 0 or sw.end < 0:
            return None
        head = unparen(text[sw.open_paren:sw.close_paren + 1])
        if re.search(r"\b%s\b" % c, head) and head != cmd:
            return None
        if head != cmd:
            continue
        if re.search(r"^[ \t]*#", raw[sw.brace:sw.end], re.M):
            return None
        for start, stop, is_default, section_end in sections(text, sw):
            if not is_default:
                label = text[start:stop].strip()[4:-1].strip()
                if label not in labels:
                    labels.append(label)
                for k in range(stop, section_end):
                    kept[k - body] = " "
        for k in range(sw.keyword, sw.close_paren + 1):
            kept[k - body] = " "
    rest = "".join(kept)
    for m in re.finditer(r"\b%s\b" % c, rest):
        compared = re.match(r"\s*[!=]=\s*(%s)" % ENOTTY_OPERAND, rest[m.end():])
        if compared and compared.group(1).strip() in labels:
            continue
        call = re.search(r"\b(\w+)\s*\($", rest[:enclosing_brace(rest, m.start(), "()") + 1])
        if call and ENOTTY_VALID_LOG.fullmatch(call.group(0)):
            continue
        return None
    return (labels, rest) if labels else None


def enotty_valid_labels(pos: Pos) -> list[str]:
    """The labels of enotty_valid_scan, or none."""
    scanned = enotty_valid_scan(pos)
    return scanned[0] if scanned else []


def enotty_valid_name(ps: Pos) -> str:
    """The name of the function that lists the commands: the name of the
    handler and _valid (pidfs_ioctl_valid() for pidfd_ioctl(), upstream)."""
    return f"{ps[0].current_element}_valid"


def enotty_valid_first(pos: Pos) -> bool:
    """Whether the state check whose -EINVAL is at pos can be preceded by a
    test of the command: another shape found the unknown-command answer of
    the same function, every command it handles is a case label of a
    switch on the command (enotty_valid_labels), one such switch comes
    after the check, the check stands alone in the body (not the branch
    of an if or else without braces) before any read of the argument, its
    block only logs before it returns, and no function of the file has the
    name the test calls."""
    fn = str(pos[0].current_element)
    cmd = enotty_cmd(pos)
    found = enotty_function_body(pos)
    if cmd is None or found is None:
        return False
    if not any(site[0] == fn and site[4] != VALID_FIRST for site in enotty_sites.get(pos[0].file, {}).values()):
        return False
    scanned = enotty_valid_scan(pos)
    if scanned is None:
        return False
    rest = scanned[1]
    text, body, end = found
    offset = enotty_site_offset(pos)
    if re.compile(r"\bswitch\s*\(\s*%s\s*\)" % re.escape(cmd)).search(text, offset, end) is None:
        return False
    ifs = list(re.compile(r"\bif\s*\(").finditer(text, body, offset))
    if not ifs:
        return False
    start = ifs[-1].start()
    close = match_close(text, ifs[-1].end() - 1)
    # in the body of the function itself, not the branch of an if or else
    # without braces; before the argument is read: a check after a copy
    # tests the argument (aspeed-lpc-ctrl: map.flags != 0), which may
    # answer first
    if close < 0 or enclosing_brace(text, start) != body or not enotty_statement_alone(text, start) \
            or ENOTTY_VALID_READ.search(rest, 0, start - body):
        return False
    block = text[close + 1:offset]
    if not re.fullmatch(r"\s*(?:\{\s*(?:" + ENOTTY_LOG_CALL + r"\s*)*)?return[\s(\-]*", block):
        return False
    return re.search(r"\b%s\s*\(" % re.escape(enotty_valid_name(pos)), text) is None


def enotty_valid_check(ps: Pos) -> str:
    """The test the output adds before the state check of the site ps."""
    site = enotty_site_of(ps)
    to = site[3] if site else "ENOTTY"
    return f"if (!{enotty_valid_name(ps)}({enotty_cmd(ps)}))\n\treturn -{to};"


def enotty_valid_switch(ps: Pos) -> str:
    """The body of the function the output adds: a switch that answers true
    for each case label of the handler."""
    labels = enotty_valid_labels(ps)
    return (f"switch ({enotty_cmd(ps)}) {{\n" + "".join(f"case {label}:\n" for label in labels)
            + "\treturn true;\n}")


def enotty_split_converts(pos: Pos) -> bool:
    """Whether the answer at pos, of an if that joins the command range with
    a state test before the dispatch, converts: -EINVAL and -ENOSYS, or an
    errno the interface lists (also_from); the state test keeps it."""
    errno = enotty_token_at(pos)
    return errno in ("EINVAL", "ENOSYS") or enotty_also_from(pos, errno)


def enotty_site_ok(pos: Pos) -> bool:
    """Position constraint of every site: not tied to user space by a
    comment.  Filters are constraints, not include_match(False) in a script
    rule: a dropped match would also drop the environment of the handler for
    every later rule of the combined patch."""
    return not enotty_abi_comment(pos)


def enotty_add_call(table: dict[str, dict[str, set[tuple[str, str]]]], pos: Pos, fn: str) -> None:
    table.setdefault(pos[0].file, {}).setdefault(fn, set()).add(
        (pos[0].line, pos[0].column))


def enotty_fallback(file: str, fn: str) -> bool:
    """fn is called, and only called, after its caller compared a value
    with -ENOIOCTLCMD: it is the last step of a try-next chain (the core
    trying its own commands once every handler said "not mine").  Its
    -ENOIOCTLCMD is the chain answer, turned into -ENOTTY by the core or
    the VFS; it stays (net/socket.c compat_sock_ioctl_trans)."""
    guarded = enotty_fallback_calls.get(file, {}).get(fn)
    if not guarded:
        return False
    return enotty_all_calls.get(file, {}).get(fn, set()) <= guarded


def enotty_leaf_converts(fn: str) -> bool:
    """A leaf -ENOIOCTLCMD of fn becomes -ENOTTY: its interface answers
    ENOTTY and does not keep -ENOIOCTLCMD, and fn is not the fallback of a
    try-next chain (enotty_fallback)."""
    current = enotty_current["file"] or ""
    if enotty_fallback(current, fn):
        return False
    found = enotty_lookup(current, fn)
    for file in enotty_handlers:
        if found is None and file.endswith(".h"):
            found = enotty_lookup(file, fn)
    if found is None:
        return False
    _cmd_arg, to, keep, _dispatch = ENOTTY_INTERFACES[enotty_row(found[0])]
    return to == "ENOTTY" and not keep


def enotty_key(pos: Location) -> tuple[str, str]:
    return (pos.line, pos.column)


def enotty_claim(ps: Pos, fn: str, frm: object, rule: str) -> None:
    """A shape found the sites ps of fn.  The first shape to claim a token
    names it; a function that is no target of the file (a header function
    the lookup does not know) claims nothing."""
    found = enotty_lookup(ps[0].file, fn)
    if found is None:
        return
    iface = found[0]
    table = enotty_sites.setdefault(ps[0].file, {})
    for pos in ps:
        table.setdefault(enotty_key(pos), (fn, iface, str(frm), enotty_to(iface), rule))


def enotty_site_of(ps: Pos) -> Site | None:
    """(function, interface, from, to, rule) of a claimed token, or None."""
    return enotty_sites.get(ps[0].file, {}).get(enotty_key(ps[0]))


def enotty_first(ps: Pos, mode: str) -> bool:
    """True once per line and mode: a line holds one site."""
    key = (ps[0].file, ps[0].line, mode)
    if key in enotty_printed:
        return False
    enotty_printed.add(key)
    return True


def enotty_tsv(ps: Pos) -> None:
    site = enotty_site_of(ps)
    assert site is not None, "only a claimed token is printed"
    fn, iface, frm, to, rule = site
    print("ENOTTY-SITE\t%s\t%s\t%s\t%s\t%s\t%s\t%s"
          % (ps[0].file, ps[0].line, fn, iface, frm, to, rule))


def enotty_message(ps: Pos) -> str:
    site = enotty_site_of(ps)
    assert site is not None, "only a claimed token is described"
    fn, iface, frm, to, _rule = site
    return ("%s: unknown ioctl command answered with -%s; %s handlers "
            "answer -%s" % (fn, frm, iface, to))
