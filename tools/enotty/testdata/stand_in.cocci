// Stand-in rule for the scan tool's tests: a file_operations ioctl handler
// whose switch default answers -EINVAL.
virtual patch
virtual tsv

@ops@
identifier fops, fn;
identifier fld = {unlocked_ioctl, compat_ioctl};
@@
struct file_operations fops = { ..., .fld = fn, ... };

@site@
identifier ops.fn, cmd;
type T;
position p;
@@
fn(..., T cmd, ...) {
<...
switch (cmd) {
default:
<...
return -EINVAL@p;
...>
}
...>
}

@depends on patch@
position site.p;
@@
- return -EINVAL@p;
+ return -ENOTTY;

@script:python depends on tsv@
p << site.p;
fn << ops.fn;
fld << ops.fld;
@@
print("ENOTTY-SITE\t%s\t%s\t%s\tfile_operations.%s\tEINVAL\tENOTTY\tstand_in" % (p[0].file, p[0].line, fn, fld))
