# Entry points.  Each target checks its Debian packages (installing them when
# run as root, printing the apt-get line otherwise) and then calls one tool.
#
# The tree: Debian's newest linux-source (default, fetched by apt into the
# cache), KVER=6.12 for Debian 12's own linux-source-6.12, or KDIR=DIR.
#
#   make patches [KVER=6.12|KDIR=DIR] [M=SUBDIR] [OUT=DIR] [SIGNOFF=..] [BUILD=0] [CLEANUP=1] [FACTS=0]  mail-ready series
#   make check                                     every test, QEMU boots included
#   make report [KVER=6.12|KDIR=DIR] [M=SUBDIR] [FACTS=0]    sites as TSV on stdout
#   make mailout SERIES=NAME [SEND=1]              git send-email (dry run unless SEND=1)
#   make qemu-test [KVER=6.12|KDIR=DIR] [SERIES=media|none] [MUTANT=einval]
#   make audit [KVER=6.12|KDIR=DIR] [SERIES=all|NAME] [OUT=DIR] [MUTANT=einval|untouched]  QEMU before/after
#   make bench [M=SUBDIR] [NO_COCCICHECK=1] [COCCICHECK_TIMEOUT=S] | make verify-generated
#   make compare [OLD=DIR] [NEW=DIR] [NEW_KDIR=DIR] [TSV=1]  what changed between two outputs, per handler
#   make coccicheck-modes [KDIR=DIR] [M=SUBDIR] [MODES=patch,report,context,org] [FACTS=1]  the rule file alone

PYTHON  ?= /usr/bin/python3
PY       = PYTHONPATH=$(CURDIR)/tools $(PYTHON)
ENOTTY   = $(PY) -m enotty
PKGS     = $(PY) -m enotty.packages

opt = $(if $($(1)),$(2) '$($(1))')
# JOBS= spatch workers (default: every core); TIMEOUT= seconds per file.
# FACTS=0: skip phase 1 (handlers and helpers found across files).
SCAN_OPTS = $(call opt,JOBS,--jobs) $(call opt,TIMEOUT,--timeout) $(if $(filter 0,$(FACTS)),--no-facts)

.PHONY: all help report patches mailout bench coccicheck-modes verify-generated compare qemu-test audit check

all: help
help:
	@sed -n '4,15s/^# \{0,1\}//p' Makefile

report:
	@$(PKGS) report
	@$(ENOTTY) report $(call opt,KDIR,--kdir) $(call opt,KVER,--kver) $(call opt,M,--subdir) $(SCAN_OPTS)

patches:
	@$(PKGS) patches
	@$(ENOTTY) patches $(call opt,KDIR,--kdir) $(call opt,KVER,--kver) $(call opt,M,--subdir) $(call opt,OUT,--out) \
		$(call opt,SIGNOFF,--signoff) $(if $(filter 0,$(BUILD)),--no-build) \
		$(if $(filter 1,$(CLEANUP)),--cleanups) $(SCAN_OPTS)

mailout:
	@$(PKGS) mailout
	@$(ENOTTY) mailout $(call opt,SERIES,--series) $(call opt,OUT,--out) $(call opt,SIGNOFF,--signoff) $(if $(SEND),--send)

bench:
	@$(PKGS) patches
	@$(ENOTTY) bench $(call opt,KDIR,--kdir) $(call opt,KVER,--kver) $(call opt,M,--subdir) $(call opt,JOBS,--jobs) $(if $(NO_COCCICHECK),--no-coccicheck) \
		$(if $(filter 0,$(FACTS)),--no-facts) \
		$(call opt,COCCICHECK_TIMEOUT,--coccicheck-timeout)

# The rule file alone under the kernel's make coccicheck, in each mode; its
# sites compared with the scan's.  MODE_TIMEOUT= seconds per mode; FACTS=1
# hands it phase 1's rows too.
coccicheck-modes:
	@$(PKGS) patches
	@$(ENOTTY) coccicheck $(call opt,KDIR,--kdir) $(call opt,KVER,--kver) $(call opt,M,--subdir) $(call opt,MODES,--modes) \
		$(call opt,JOBS,--jobs) $(call opt,MODE_TIMEOUT,--timeout) $(if $(filter 1,$(FACTS)),--facts)

verify-generated:
	@$(PKGS) patches
	@$(ENOTTY) verify-generated $(call opt,KDIR,--kdir) $(call opt,OUT,--out)

# Each handler of the older output (default generated-patches/linux-6.12.*):
# removed, moved, converted upstream or still needed in the newer one.
compare:
	@$(ENOTTY) compare $(call opt,OLD,--old) $(call opt,NEW,--new) $(call opt,NEW_KDIR,--new-kdir) \
		$(call opt,OLD_KDIR,--old-kdir) $(if $(filter 1,$(TSV)),--tsv)

qemu-test:
	@$(PKGS) qemu
	@$(ENOTTY) qemu-test \
		$(call opt,KDIR,--kdir) $(call opt,KVER,--kver) $(call opt,SERIES,--series) \
		$(call opt,SERIES_DIR,--series-dir) $(call opt,MUTANT,--mutant)

audit:
	@$(PKGS) audit
	@$(ENOTTY) audit \
		$(call opt,KDIR,--kdir) $(call opt,KVER,--kver) $(call opt,SERIES,--series) $(call opt,OUT,--out) \
		$(call opt,MUTANT,--mutant)

# Debian 12's 6.12 tree is unpacked first: the tests that use its scripts
# (get_maintainer.pl, checkpatch.pl) and headers must run, not skip, and
# its version never moves, so no test depends on what unstable serves.
check:
	@$(PKGS) check
	@$(PY) -m enotty.kernel.tree 6.12 >/dev/null
	@cd $(CURDIR) && $(PY) -m pytest $(PYTEST_ARGS)
