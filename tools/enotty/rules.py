"""The Coccinelle rules: where they are, one combined pass, their sync.

cocci/interfaces.tsv and cocci/lib/handlers.smpl are the single sources of
the interface table and of handler discovery.  Each cocci/*.cocci must also
run on its own (make coccicheck COCCI=...), so each embeds both between the
"// BEGIN generated" and "// END generated" markers; `--sync` rewrites
that block and `--check` fails when a file is out of date.

    python3 -m enotty.rules --sync | --check | --combined
"""
from __future__ import annotations

import csv
import hashlib
import io
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from .errors import UsageError

SITE_MARKER = "ENOTTY-SITE"
COCCI_DIR = Path(__file__).resolve().parents[2] / "cocci"
BEGIN = "// BEGIN generated"
END = "// END generated"
HEADER = ("struct", "field", "cmd_arg", "to", "keep_enoioctlcmd", "dispatch")
VIRTUALS = ("patch", "context", "org", "report", "tsv")
ERRNOS = ("ENOTTY", "ENOIOCTLCMD")


@dataclass(frozen=True)
class Interface:
    struct: str
    field: str
    cmd_arg: int
    to: str
    keep_enoioctlcmd: bool
    dispatch: str

    @property
    def name(self) -> str:
        return f"{self.struct}.{self.field}"


def cocci_dir() -> Path:
    return COCCI_DIR


def rule_files(root: Path | None = None) -> list[Path]:
    """cocci/*.cocci, sorted."""
    return sorted((root or cocci_dir()).glob("*.cocci"))


def parse_interfaces(text: str, where: str = "interfaces.tsv") -> list[Interface]:
    """Rows of interfaces.tsv, checked; UsageError names the bad line."""
    rows = list(csv.reader(io.StringIO(text), delimiter="\t"))
    if not rows or tuple(rows[0]) != HEADER:
        raise UsageError(f"{where}: header must be {' '.join(HEADER)}")
    out: list[Interface] = []
    seen: set[str] = set()
    ident = re.compile(r"^[A-Za-z_]\w*$")
    for lineno, row in enumerate(rows[1:], start=2):
        if not row or row[0].startswith("#"):
            continue
        if len(row) != len(HEADER):
            raise UsageError(f"{where}:{lineno}: expected {len(HEADER)} tab-separated fields, got {len(row)}")
        struct, field, cmd_arg, to, keep, dispatch = (c.strip() for c in row)
        if not ident.match(struct) or not ident.match(field):
            raise UsageError(f"{where}:{lineno}: struct and field must be C identifiers")
        if not cmd_arg.isdigit():
            raise UsageError(f"{where}:{lineno}: cmd_arg must be a 0-based index, got {cmd_arg!r}")
        if to not in ERRNOS:
            raise UsageError(f"{where}:{lineno}: to must be one of {', '.join(ERRNOS)}, got {to!r}")
        if keep not in ("yes", "no"):
            raise UsageError(f"{where}:{lineno}: keep_enoioctlcmd must be yes or no, got {keep!r}")
        iface = Interface(struct, field, int(cmd_arg), to, keep == "yes", dispatch)
        if iface.name in seen:
            raise UsageError(f"{where}:{lineno}: {iface.name} listed twice")
        seen.add(iface.name)
        out.append(iface)
    return out


def interfaces(root: Path | None = None) -> list[Interface]:
    path = (root or cocci_dir()) / "interfaces.tsv"
    return parse_interfaces(path.read_text(), str(path))


def interfaces_python(ifaces: list[Interface]) -> str:
    """The table as the Python the discovery block expects."""
    lines = ["ENOTTY_INTERFACES = {"]
    for i in ifaces:
        lines.append(f"    ({i.struct!r}, {i.field!r}): ({i.cmd_arg}, {i.to!r}, "
                     f"{i.keep_enoioctlcmd}, {i.dispatch!r}),")
    lines.append("}")
    lines.append("ENOTTY_ORDER = [" + ", ".join(repr(i.name) for i in ifaces) + "]")
    return "\n".join(lines)


def generated_block(root: Path | None = None) -> str:
    """Table plus discovery rules, as spliced into every rule file."""
    root = root or cocci_dir()
    lib = (root / "lib" / "handlers.smpl").read_text()
    if "@@INTERFACES@@" not in lib:
        raise UsageError(f"{root}/lib/handlers.smpl: no @@INTERFACES@@ placeholder")
    body = lib.replace("@@INTERFACES@@", interfaces_python(interfaces(root)))
    return (f"{BEGIN} from interfaces.tsv and lib/handlers.smpl by"
            f" `python3 -m enotty.rules --sync`: do not edit\n{body.rstrip()}\n{END}\n")


def split_rule(text: str, where: str) -> tuple[str, str, str]:
    """(head, generated block, shape rules) of one rule file."""
    start = text.find(BEGIN)
    stop = text.find(END, start + 1)
    if start < 0 or stop < 0:
        raise UsageError(f"{where}: missing '{BEGIN}' / '{END}' markers")
    stop_eol = text.find("\n", stop)
    stop_eol = len(text) if stop_eol < 0 else stop_eol + 1
    return text[:start], text[start:stop_eol], text[stop_eol:]


def synced_text(text: str, where: str, block: str) -> str:
    head, _old, shape = split_rule(text, where)
    return head + block + shape


def out_of_sync(root: Path | None = None) -> list[Path]:
    """Rule files whose generated block differs from the sources."""
    block = generated_block(root)
    stale = []
    for path in rule_files(root):
        text = path.read_text()
        if synced_text(text, str(path), block) != text:
            stale.append(path)
    return stale


def sync(root: Path | None = None) -> list[Path]:
    """Rewrite the generated block of every rule file; returns those changed."""
    block = generated_block(root)
    changed = []
    for path in rule_files(root):
        text = path.read_text()
        new = synced_text(text, str(path), block)
        if new != text:
            tmp = path.with_suffix(".cocci.tmp")
            tmp.write_text(new)
            tmp.replace(path)
            changed.append(path)
    return changed


def rule_names(shape: str) -> list[str]:
    """Named rules of a shape section (for the uniqueness check)."""
    names = []
    for m in re.finditer(r"^@([^@\n]*)@\s*$", shape, re.M):
        words = m.group(1).split()
        if not words:
            continue
        first = words[0]
        if first.startswith("script:") or first.startswith("initialize:") or first.startswith("finalize:"):
            if len(words) > 1 and words[1] != "depends":
                names.append(words[1])
            continue
        if first != "depends":
            names.append(first)
    return names


def combined_smpl(root: Path | None = None) -> str:
    """Every rule file as ONE semantic patch: one table and discovery, then
    each file's shape rules, so spatch parses each C file once."""
    root = root or cocci_dir()
    parts = [
        "// Combined from cocci/*.cocci by tools/enotty/rules.py: do not edit.\n",
        "".join(f"virtual {v}\n" for v in VIRTUALS),
        "\n",
        generated_block(root),
    ]
    seen: dict[str, str] = {}
    for path in rule_files(root):
        _head, _block, shape = split_rule(path.read_text(), str(path))
        for name in rule_names(shape):
            if name in seen:
                raise UsageError(f"rule {name} is defined in {seen[name]} and {path.name}")
            seen[name] = path.name
        parts.append(f"\n// ---- {path.name}\n")
        parts.append(shape)
    return "".join(parts)


def rules_digest(root: Path | None = None) -> str:
    """sha256 over the rule files, the library and interfaces.tsv (cache key)."""
    root = root or cocci_dir()
    h = hashlib.sha256()
    for path in [*rule_files(root), root / "lib" / "handlers.smpl", root / "interfaces.tsv"]:
        h.update(path.name.encode() + b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def main(argv: list[str]) -> int:
    usage = "usage: python3 -m enotty.rules --sync | --check | --combined"
    if len(argv) != 1 or argv[0] not in ("--sync", "--check", "--combined"):
        print(usage, file=sys.stderr)
        return 2
    try:
        if argv[0] == "--sync":
            for path in sync():
                print(f"enotty: updated {path}", file=sys.stderr)
        elif argv[0] == "--check":
            stale = out_of_sync()
            if stale:
                names = " ".join(p.name for p in stale)
                print(f"enotty: out of sync with interfaces.tsv/lib/handlers.smpl: {names};"
                      " run python3 -m enotty.rules --sync", file=sys.stderr)
                return 1
        else:
            sys.stdout.write(combined_smpl())
    except UsageError as err:
        print(f"enotty: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
