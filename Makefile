# raidlab - build, test and run.
#
#   make            build build/raidlab
#   make run        install missing packages, build, run the main job
#   make check      install missing packages, build, run every test (plain and ASan+UBSan),
#                   then the threaded ones under ThreadSanitizer
#   make check-hog  the real-time emulation tests with a CPU hog beside them
#   make check-tsan the threaded tests under ThreadSanitizer (part of check)
#   make fuzz       build the libFuzzer targets (clang; also checks the lock annotations,
#                   -Wthread-safety) into build-fuzz/
#   make format     clang-format every source file
#   make install    install under PREFIX (default /usr/local; DESTDIR for staging)
#   make uninstall  remove what make install put there
#   make deb        build the Debian package (debian/) into ./raidlab_*.deb
#
# Sources are found by wildcard: every .c under src/ goes into a static
# library, except src/cli/main.c which makes the binary.  Tests under
# tests/unit/test_*.c each become one cmocka program.

BUILD     ?= build
# One spelling per build folder: `build`, `./build/` and its absolute path
# name the same targets.  The dependency files (-MMD) name their targets
# as spelled when written; a build run once as BUILD=$PWD/build (the
# install test does) would leave rules a later `make` does not match, and
# an object would stop being rebuilt when a header it includes changes,
# keeping a struct layout the rest of the program no longer has.
override BUILD := $(patsubst $(CURDIR)/%,%,$(abspath $(BUILD)))
SAN       ?=
CC        ?= cc
PKGS      := liburing blkid json-c libisal gnutls libcrypto libxxhash
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
# MPI (Open MPI's ompi-c) is optional: found, it is built in (src/mpi/,
# docs/mpi.md); MPI=0 builds without it even where it is installed.
MPI       ?= $(shell pkg-config --exists ompi-c 2>/dev/null && echo 1 || echo 0)
ifeq ($(MPI),1)
  PKG_CFLAGS += $(shell pkg-config --cflags ompi-c) -DRL_MPI=1
  PKG_LIBS   += $(shell pkg-config --libs ompi-c)
endif
# libpmemblk (PMDK) is optional: found, fio's pmemblk engine is built in
# (src/targets/pmemblk.c); PMEMBLK=0 builds without it.
PMEMBLK   ?= $(shell pkg-config --exists libpmemblk 2>/dev/null && echo 1 || echo 0)
ifeq ($(PMEMBLK),1)
  PKG_CFLAGS += $(shell pkg-config --cflags libpmemblk) -DRL_PMEMBLK=1
  PKG_LIBS   += $(shell pkg-config --libs libpmemblk)
endif
# libnbd is optional: found, fio's nbd engine is built in (src/targets/nbd.c);
# LIBNBD=0 builds without it.
LIBNBD    ?= $(shell pkg-config --exists libnbd 2>/dev/null && echo 1 || echo 0)
ifeq ($(LIBNBD),1)
  PKG_CFLAGS += $(shell pkg-config --cflags libnbd) -DRL_LIBNBD=1
  PKG_LIBS   += $(shell pkg-config --libs libnbd)
endif

CFLAGS   ?= -O2 -g
WARN     := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter -Wmissing-prototypes \
            -Wstrict-prototypes -Wformat=2 -Wvla
BASEFLAGS := -std=gnu17 -D_GNU_SOURCE -Isrc -pthread $(WARN) $(PKG_CFLAGS) -MMD -MP
ifeq ($(SAN),1)
  BASEFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
  LDSAN := -fsanitize=address,undefined
endif
ifeq ($(SAN),thread)
  BASEFLAGS += -fsanitize=thread -fno-omit-frame-pointer
  LDSAN := -fsanitize=thread
endif
VERSION  := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
ALL_CFLAGS := $(BASEFLAGS) $(CFLAGS) -DRL_VERSION=\"$(VERSION)\"
# Every symbol bound at load (-z now, as Debian's bindnow hardening): a
# library function's first call then makes no lookup through the dynamic
# linker, and a job's first call of a function may be inside its measurement.
LDLIBS   := $(PKG_LIBS) -laio -lm -pthread $(LDSAN) -Wl,-z,now -Wl,-z,relro

LIB_SRC  := $(filter-out src/cli/main.c $(EXCLUDE),$(shell find src -name '*.c' | sort))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/ui_page.o
LIB      := $(BUILD)/libraidlab.a
BIN      := $(BUILD)/raidlab
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
UNIT_HELPERS := $(filter-out $(UNIT_SRC),$(wildcard tests/unit/*.c))

.PHONY: print-ldlibs man install uninstall deb all run check check-plain check-plain-left check-asan check-hog check-tsan test fuzz fuzz-run format format-check deps clean bench

# Where make install puts things.  DATADIR is compiled into the binary (as
# the installed share folder it reads profiles and validation sets from);
# a binary moved with its tree also finds ../share/raidlab (core/datadir.h).
PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
DATADIR     ?= $(PREFIX)/share/raidlab
MANDIR      ?= $(PREFIX)/share/man
DOCDIR      ?= $(PREFIX)/share/doc/raidlab
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
MAN_DIR     := $(BUILD)/man

all: $(BIN) $(UNIT_BIN) $(MAN_DIR)/raidlab.1

# datadir.o is rebuilt when DATADIR changes (the stamp holds the last one).
$(BUILD)/datadir.stamp: FORCE
	@mkdir -p $(BUILD)
	@echo '$(DATADIR)' | cmp -s - $@ || echo '$(DATADIR)' >$@
$(BUILD)/src/core/datadir.o: ALL_CFLAGS += -DRL_DATADIR=\"$(DATADIR)\"
$(BUILD)/src/core/datadir.o: $(BUILD)/datadir.stamp
FORCE:

# The manual pages, written by raidlab from its own tables (cmd_manpage.c),
# with the profiles of this tree.
man: $(MAN_DIR)/raidlab.1
$(MAN_DIR)/raidlab.1: $(BIN) $(wildcard profiles/*)
	@echo "  MAN   $(MAN_DIR)"
	@rm -rf $(MAN_DIR) $(MAN_DIR).tmp && mkdir -p $(MAN_DIR).tmp
	@env -u RAIDLAB_PROFILES -u RAIDLAB_VALIDATION RAIDLAB_DATADIR=$(CURDIR) \
		$(BIN) __manpage $(MAN_DIR).tmp && mv $(MAN_DIR).tmp $(MAN_DIR)

install: $(BIN) $(MAN_DIR)/raidlab.1
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/profiles $(DESTDIR)$(DATADIR)/validation \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(ZSHCOMPDIR)
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/raidlab
	install -m 644 profiles/*.profile profiles/*.controller $(DESTDIR)$(DATADIR)/profiles/
	install -m 644 validation/* $(DESTDIR)$(DATADIR)/validation/
	install -m 644 $(MAN_DIR)/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 README.md $(DESTDIR)$(DOCDIR)/
	install -m 644 docs/*.md $(DESTDIR)$(DOCDIR)/docs/
	install -m 644 completion/raidlab.bash $(DESTDIR)$(BASHCOMPDIR)/raidlab
	install -m 644 completion/_raidlab $(DESTDIR)$(ZSHCOMPDIR)/_raidlab

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/raidlab $(DESTDIR)$(MANDIR)/man1/raidlab.1 \
		$(DESTDIR)$(MANDIR)/man1/raidlab-*.1 $(DESTDIR)$(BASHCOMPDIR)/raidlab \
		$(DESTDIR)$(ZSHCOMPDIR)/_raidlab
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(DOCDIR)

# The Debian package (debian/rules builds in build-deb/), moved here.
deb:
	dpkg-buildpackage -us -uc -b
	mv ../raidlab_$(VERSION)*_*.deb ../raidlab_$(VERSION)*_*.buildinfo ../raidlab_$(VERSION)*_*.changes .

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC    $<"
	@$(CC) $(ALL_CFLAGS) -c $< -o $@

# The files of `raidlab ui`'s page, compiled in (src/ui/page.h).
UI_PAGE := $(sort $(wildcard src/ui/page/*))
$(BUILD)/gen/ui_page.c: $(UI_PAGE) scripts/embed-page.sh
	@mkdir -p $(dir $@)
	@echo "  GEN   $@"
	@scripts/embed-page.sh $@ $(UI_PAGE)
$(BUILD)/gen/ui_page.o: $(BUILD)/gen/ui_page.c
	@$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	@ar rcs $@ $^

# --whole-archive: target types register themselves from constructors.
$(BIN): $(BUILD)/src/cli/main.o $(LIB)
	@echo "  LD    $@"
	@$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< -Wl,--whole-archive $(LIB) -Wl,--no-whole-archive $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(LIB) $(UNIT_HELPERS)
	@mkdir -p $(dir $@)
	@echo "  TEST  $@"
	@$(CC) $(ALL_CFLAGS) -Itests/unit -o $@ $< $(UNIT_HELPERS) -Wl,--whole-archive $(LIB) \
		-Wl,--no-whole-archive $(LDLIBS) -lcmocka -Wl,--wrap=pthread_create

deps:
	@scripts/install-deps.sh
	@scripts/install-node-deps.sh

run: deps
	$(MAKE) $(BIN)
	$(BIN) demo

# The whole suite twice: a normal build, then ASan+UBSan; then ThreadSanitizer.
# Each build compiles on every processor and each test run runs its tests
# side by side (tests/run.sh, RL_TEST_JOBS); docs/testing.md says how long
# it takes and how to run parts.
NPROC := $(shell nproc 2>/dev/null || echo 1)
check: deps
	$(MAKE) format-check
	$(MAKE) check-plain-left
	$(MAKE) check-asan
	$(MAKE) check-tsan
	@tests/summary.sh build/test-results.txt build-asan/test-results.txt build-tsan/test-results.txt

check-plain:
	$(MAKE) -j$(NPROC) all
	tests/run.sh $(BUILD)

# make check's plain stage: the plain build, and the tests the ASan+UBSan
# build does not run (tests/asan-skip.txt, valgrind, the package); every
# other test runs once, under ASan+UBSan, which checks what the plain run
# would and more.
check-plain-left:
	$(MAKE) -j$(NPROC) all
	RL_TEST_SET=asan-left tests/run.sh $(BUILD)

# The ASan+UBSan build runs every test but the long timing runs named in
# tests/asan-skip.txt (each with why).
check-asan:
	$(MAKE) -j$(NPROC) BUILD=build-asan SAN=1 CFLAGS="-O1 -g" all
	tests/run.sh build-asan

test: all
	tests/run.sh $(BUILD)

# ThreadSanitizer: the unit tests that start threads (tests/run.sh leaves
# out those whose source says "tsan-skip: single-threaded", a claim
# tests/unit/threads.c checks in the other builds) and the scripts where
# worker threads share targets (a race fails the run with TSan's exit status).
TSAN_TESTS := test_,core_threads,core_bytes,core_verify
check-tsan:
	$(MAKE) -j$(NPROC) BUILD=build-tsan SAN=thread CFLAGS="-O1 -g" all
	TSAN_OPTIONS="suppressions=$(CURDIR)/tests/tsan.supp history_size=7 exitcode=66" tests/run.sh build-tsan $(TSAN_TESTS)

# The tests that follow a simulated clock in real time, with a CPU hog
# beside them (.ci/run): they must hold on a machine that is not idle.
HOG_TESTS := serve_emulation,files_sim,files_stack,test_md_campaign
check-hog: all
	tests/hog.sh tests/run.sh $(BUILD) $(HOG_TESTS)

FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=build-fuzz/%)
fuzz:
	$(MAKE) BUILD=build-fuzz-lib CC=clang SAN=1 CFLAGS="-O1 -g -fsanitize=fuzzer-no-link -Wthread-safety" build-fuzz-lib/libraidlab.a
	@mkdir -p build-fuzz
	@for f in $(FUZZ_SRC); do \
	  b=build-fuzz/$$(basename $$f .c); echo "  FUZZ $$b"; \
	  clang $(BASEFLAGS) -fsanitize=fuzzer,address,undefined -O1 -g -o $$b $$f \
	    -Wl,--whole-archive build-fuzz-lib/libraidlab.a -Wl,--no-whole-archive $(LDLIBS) || exit 1; \
	done

# Run every fuzzer for FUZZ_SECONDS each (CI uses this).
FUZZ_SECONDS ?= 20
fuzz-run: fuzz
	@for b in $(FUZZ_BIN); do \
	  n=$$(basename $$b); mkdir -p build-fuzz/corpus-$$n; \
	  echo "fuzzing $$n for $(FUZZ_SECONDS) s"; \
	  $$b -max_total_time=$(FUZZ_SECONDS) -print_final_stats=0 build-fuzz/corpus-$$n tests/fuzz/seeds/$$n \
	    >build-fuzz/$$n.log 2>&1 || { tail -n 40 build-fuzz/$$n.log; exit 1; }; \
	done

bench: $(BIN)
	bench/vs-fio.sh

# tests/browser/node_modules holds npm's packages (some with C sources): not ours to format.
format:
	clang-format -i $$(find src tests -name node_modules -prune -o -name '*.[ch]' -print)

format-check:
	@clang-format --dry-run -Werror $$(find src tests bench -name node_modules -prune -o -name '*.[ch]' -print) && echo "  format: clean"


# The link flags programs that use build/libraidlab.a need (bench/sim-speed.sh).
print-ldlibs:
	@echo $(LDLIBS)

clean:
	rm -rf build build-asan build-tsan build-fuzz build-fuzz-lib build-deb

-include $(LIB_OBJ:.o=.d) $(BUILD)/src/cli/main.d
