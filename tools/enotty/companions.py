"""The series that go upstream beside the conversions: the semantic patch.

Tree-wide Coccinelle campaigns send the rule itself to scripts/coccinelle/
so that `make coccicheck` catches the next handler that answers -EINVAL.
cocci/upstream/ioctl_enotty.cocci is that rule, sized like its neighbours
in scripts/coccinelle/api/ (the per-file default shapes only; the scan's
tree-wide discovery stays in cocci/ioctl_enotty.cocci).  rule_series()
writes it as a one-patch series (no cover letter, as series.py does for
every one-patch series), addressed as get_maintainer.pl says.
"""
from __future__ import annotations

import re
import tempfile
from pathlib import Path

from . import rules, series
from .maintainers import get_maintainer

UPSTREAM_RULE = rules.cocci_dir() / "upstream" / "ioctl_enotty.cocci"
RULE_PATH = "scripts/coccinelle/api/ioctl_enotty.cocci"
RULE_SERIES = "coccinelle"
# scripts/coccinelle additions upstream: "coccinelle: api: add device_attr_show script".
RULE_SUBJECT = "coccinelle: api: add ioctl_enotty script"
RULE_BODY = (
    "An ioctl handler should answer a command it does not know with -ENOTTY,\n"
    "or with -ENOIOCTLCMD where the core tries another handler next\n"
    "(Documentation/driver-api/ioctl.rst, \"Return code\").  Many handlers\n"
    "still end their switch on the command with \"default: return -EINVAL;\",\n"
    "which tells user space that a known command got a bad argument.\n"
    "\n"
    "Add a semantic patch that finds such a default label, returning -EINVAL\n"
    "or -ENOSYS or assigning it to the value the handler returns, in the\n"
    "ioctl member of an ops structure initialized in the same file, and\n"
    "replaces the error code with the answer that interface needs.  A\n"
    "default that a case above it reaches by falling through is left alone,\n"
    "since it also answers a known command.\n")


def upstream_rule_text() -> str:
    return UPSTREAM_RULE.read_text()


def rule_table(text: str) -> dict[tuple[str, str], tuple[int, str]]:
    """The IOCTL_OPS table of the upstream rule, as (struct, member) ->
    (command index, answer)."""
    rows = re.findall(r'^\s+\("(\w+)", "(\w+)"\):\s+\((\d+), "(\w+)"\),$', text, re.M)
    return {(s, f): (int(n), to) for s, f, n, to in rows}


def rule_diff(text: str) -> str:
    """The diff adding the rule at RULE_PATH."""
    lines = text.splitlines()
    body = "".join(f"+{line}\n" for line in lines)
    return (f"diff --git a/{RULE_PATH} b/{RULE_PATH}\nnew file mode 100644\n"
            f"--- /dev/null\n+++ b/{RULE_PATH}\n@@ -0,0 +1,{len(lines)} @@\n{body}")


def rule_message(signoff: str) -> str:
    return f"{RULE_SUBJECT}\n\n{RULE_BODY}\nSigned-off-by: {signoff}\n"


def rule_series(root: Path, identity: tuple[str, str], signoff: str, outdir: Path,
                use_cache: bool = True) -> Path:
    """Write the rule's one-patch series into outdir (created); the mail's path."""
    with tempfile.TemporaryDirectory(prefix="companions-", dir=series.scratch_root()) as tmp:
        repo = series.ScratchRepo(Path(tmp) / "repo", *identity)
        repo.git("commit", "-q", "--no-verify", "--allow-empty", "-m", "pristine")
        repo.git("tag", "pristine")
        error = repo.apply(rule_diff(upstream_rule_text()))
        if error:
            raise series.SeriesError(f"{RULE_PATH}: {error}")
        repo.commit(rule_message(signoff))
        outdir.mkdir(parents=True, exist_ok=True)
        mails = repo.format_patch(outdir, 1)
    if len(mails) != 1:
        raise series.SeriesError(f"git format-patch wrote {len(mails)} files for the rule")
    mail = mails[0]
    to = get_maintainer(root, [mail], "to", use_cache=use_cache)
    cc = [p for p in get_maintainer(root, [mail], "cc", use_cache=use_cache) if p not in to]
    mail.write_text(series.add_recipients(mail.read_text(), to, cc))
    return mail
