# SPDX-License-Identifier: GPL-2.0
# eqds top-level build. The README's two commands are `make deps` (install
# everything from Debian's packages, then build) and `make check` (the whole
# test suite). See Documentation/testing.rst.

KDIR ?= $(shell scripts/kdir.sh)
BUILD ?= build
FUZZ_SECONDS ?= 20
JOBS ?= 2

all: module tools

deps:
	scripts/deps.sh
	$(MAKE) all

# Only what a host needs to build eqds from source and run it (no test
# kernels, qemu or test tools): then `make && make install`, or DKMS.
host-deps:
	scripts/deps.sh --host

module:
	$(MAKE) -C kmod KDIR=$(KDIR)

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo

tools: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j$(JOBS)

# The whole suite: unit tests, fuzzers, static checks, VM selftests.
check:
	scripts/check.sh

unit: tools
	ctest --test-dir $(BUILD) --output-on-failure

fuzz:
	scripts/fuzz.sh $(FUZZ_SECONDS)

static:
	scripts/static-checks.sh

# VM selftests only (module built for the test kernel). TESTS=selftests/test_x.sh
vmtest: tools
	$(MAKE) -C kmod KDIR=/lib/modules/$$(scripts/test-kernel.sh)/build
	selftests/vm/run-vm.sh -q -- selftests/run.sh $(TESTS)

demo: module tools
	selftests/vm/run-vm.sh -- scripts/demo.sh

# Native TCP against TCP over EQDS in one VM boot (Documentation/benchmarks.rst).
# Only eqdsctl is built, not the test programs. The run directory is
# $(BUILD)/bench-vm (console.log, bench.md, raw results); the table is copied
# to $(BUILD)/bench.md.
BENCH_TIMEOUT ?= 1200
bench: module $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) --target eqdsctl -j$(JOBS)
	@rc=0; selftests/vm/run-vm.sh -o $(BUILD)/bench-vm -t $(BENCH_TIMEOUT) -- \
		scripts/bench.sh || rc=$$?; \
	if [ -s $(BUILD)/bench-vm/bench.md ]; then \
		cp $(BUILD)/bench-vm/bench.md $(BUILD)/bench.md && \
		echo "bench: table in $(BUILD)/bench.md"; \
	fi; \
	exit $$rc

# Where the CPU goes: one flow natively and over EQDS under perf record in
# one VM boot; symbol tables, call chains and profile.md in $(BUILD)/profile.
profile: module $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) --target eqdsctl -j$(JOBS)
	selftests/vm/run-vm.sh -o $(BUILD)/profile -t 900 -- scripts/profile.sh

# The paper's scenarios on emulated hosts, natively and over EQDS, in one VM
# boot (Documentation/evaluation/emulation.md). Progress on the console;
# the records, summary, report (Markdown, CSV, JSON) and plots in
# $(EVAL_OUT). EVAL_SECS is each run's measurement window; EQDS_EVAL_*
# variables in the environment reach the guest (scripts/eval/run.sh).
EVAL_SECS ?= 20
EVAL_TIMEOUT ?= 3300
EVAL_OUT ?= $(BUILD)/eval
# Debian's python3-matplotlib is for the system interpreter.
EVAL_PYTHON ?= $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || echo python3)
eval: module $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) --target eqdsctl -j$(JOBS)
	@rc=0; EQDS_EVAL_SECS=$(EVAL_SECS) selftests/vm/run-vm.sh -o $(EVAL_OUT) \
		-t $(EVAL_TIMEOUT) -- scripts/eval/run.sh || rc=$$?; \
	if [ -s $(EVAL_OUT)/results.jsonl ]; then \
		$(EVAL_PYTHON) scripts/eval/tools/report.py $(EVAL_OUT)/results.jsonl \
			$(EVAL_OUT)/report.md $(EVAL_OUT)/plots; \
	fi; \
	exit $$rc

# A short run (incast N=4, UDP blaster) asserting robust properties only,
# as KTAP (selftests/run.sh counts it). `make check` runs it too, in the
# selftests' boot (Documentation/evaluation/emulation.md).
eval-smoke: module $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) --target eqdsctl -j$(JOBS)
	selftests/vm/run-vm.sh -o $(BUILD)/eval-smoke -t 900 -- selftests/run.sh scripts/eval/smoke.sh

# The large eqdssim scenarios (FatTree k=16, 850:1 incast, oversubscribed
# core, closed loop), one after another on one core; writes
# Documentation/evaluation/simulation.md and its plots. QUICK=1 shortens them.
sim-eval: tools
	tools/eqdssim/eval/run_eval.sh $(BUILD)

install: module tools
	$(MAKE) -C $(KDIR) M=$(CURDIR)/kmod modules_install
	depmod -a
	install -D -m 755 $(BUILD)/tools/eqdsctl/eqdsctl $(DESTDIR)/usr/local/sbin/eqdsctl
	install -D -m 644 Documentation/man/eqdsctl.8 $(DESTDIR)/usr/local/share/man/man8/eqdsctl.8
	install -D -m 644 tools/eqdsctl/eqdsctl.bash-completion \
		$(DESTDIR)/usr/local/share/bash-completion/completions/eqdsctl

dkms-install:
	scripts/dkms-install.sh

# The Debian packages eqds-dkms and eqdsctl (debian/), built from a copy of
# the tree, into $(DEB_OUT) (scripts/build-deb.sh).
DEB_OUT ?= $(BUILD)/deb
deb:
	JOBS=$(JOBS) scripts/build-deb.sh $(DEB_OUT)

# The debug kernel: built once, cached outside the checkout; prints its
# build directory (scripts/debug-kernel.sh).
debug-kernel:
	scripts/debug-kernel.sh

# The selftests of locking and lifetimes on the debug kernel, built first if
# need be (scripts/check-debug.sh; EQDS_DEBUG_KERNEL=1 adds it to check).
check-debug:
	scripts/check-debug.sh

clean:
	-$(MAKE) -C kmod KDIR=$(KDIR) clean
	rm -rf $(BUILD) build-*

.PHONY: all deps host-deps module tools check unit fuzz static vmtest demo bench profile eval eval-smoke sim-eval install dkms-install deb debug-kernel check-debug clean
