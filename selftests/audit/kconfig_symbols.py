"""Moved to tools/enotty/kernel/kconfig.py: the patches' cross builds
(enotty.verify.crossbuild) read the same Makefiles and Kconfig files.  This name
stays for the audit's modules and tests."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

from enotty.kernel.kconfig import (DerivationError, KconfigDeps, MakeRule, Symbol, _Expr,
                                   build_symbols, evaluate, failing_atoms, parse_makefile, render,
                                   wanted_atoms)
