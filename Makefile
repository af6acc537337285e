# trainforge — see README.md. `make`, `make test`, `make test SAN=1`,
# `make demo`, `make bench`, `make install PREFIX=...`, `make clean`.

CC      ?= cc
HOSTCC  ?= $(CC)
PREFIX  ?= /usr/local
PKGS    := yaml-0.1 libcyaml libpcre2-8
VERSION := 0.1.0

ifeq ($(SAN),1)
BUILD   := build/san
OPT     := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
else
BUILD   := build/rel
OPT     := -O2 -g
endif

WARN    := -std=c11 -Wall -Wextra -Werror
DEFS    := -D_POSIX_C_SOURCE=200809L -D_GNU_SOURCE -DTF_VERSION='"$(VERSION)"'
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CFLAGS  += $(WARN) $(OPT) $(DEFS) -Icore -Ilint -Igen -I$(BUILD) $(PKG_CFLAGS)
LDLIBS  += $(PKG_LIBS)

# EXCLUDE leaves files out of a build (work in progress in a checkout).
EXCLUDE  ?=
CORE_SRC := $(filter-out $(EXCLUDE),$(wildcard core/*.c))
LINT_SRC := $(filter-out $(EXCLUDE),$(wildcard lint/*.c))
GEN_SRC  := $(filter-out $(EXCLUDE),$(wildcard gen/*.c))
CLI_SRC  := $(filter-out $(EXCLUDE),$(wildcard cli/*.c))
GENERATED := $(BUILD)/catalog_data.c $(BUILD)/assets.c
LIB_OBJ  := $(patsubst %.c,$(BUILD)/%.o,$(CORE_SRC) $(LINT_SRC) $(GEN_SRC)) \
            $(BUILD)/catalog_data.o $(BUILD)/assets.o
CLI_OBJ  := $(patsubst %.c,$(BUILD)/%.o,$(CLI_SRC))
UNIT_SRC := $(filter-out $(EXCLUDE),$(wildcard tests/unit/test_*.c))
UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
SCHEMAS  := $(wildcard schemas/*.json)
TEMPLATES := $(wildcard templates/*.mustache)

.PHONY: all deps test unit demo bench install clean e2e e2e-slurm FORCE
.DEFAULT_GOAL := all

all: deps trainforge

# Installs what the build and tests need, only when it is missing.
deps:
	@sh tools/deps.sh

ifeq ($(SAN),1)
trainforge: $(BUILD)/trainforge
else
trainforge: $(BUILD)/trainforge
	cp $< $@
endif

$(BUILD)/trainforge: $(CLI_OBJ) $(BUILD)/libtf.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The archive is rebuilt when its member list changes, not only its members.
$(BUILD)/libtf.list: FORCE
	@mkdir -p $(BUILD)
	@echo "$(LIB_OBJ)" | cmp -s - $@ || echo "$(LIB_OBJ)" > $@

$(BUILD)/libtf.a: $(LIB_OBJ) $(BUILD)/libtf.list
	rm -f $@ && ar rcs $@ $(LIB_OBJ)

$(BUILD)/%.o: %.c $(wildcard core/*.h core/*.def lint/*.h gen/*.h) | $(BUILD)/catalog_data.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/%.o: $(BUILD)/%.c
	$(CC) $(CFLAGS) -c -o $@ $<

# Build-time programs: the catalog and the schemas become static tables.
build/host/catalog_gen: tools/catalog_gen.c
	@mkdir -p $(dir $@)
	$(HOSTCC) -std=c11 -O1 -Wall -Wextra -Werror $(DEFS) $(PKG_CFLAGS) -o $@ $< $(PKG_LIBS)

EMBED_SRC := tools/embed.c core/yamldoc.c core/yamldoc_load.c core/yamldoc_scalar.c core/buf.c core/xalloc.c
build/host/embed: $(EMBED_SRC) core/yamldoc.h core/yamldoc_image.h core/yamldoc_internal.h
	@mkdir -p $(dir $@)
	$(HOSTCC) -std=c11 -O1 -Wall -Wextra -Werror $(DEFS) -Icore $(PKG_CFLAGS) -o $@ $(EMBED_SRC) $(PKG_LIBS)

$(BUILD)/catalog_data.c: build/host/catalog_gen schemas/instances.yaml
	@mkdir -p $(dir $@)
	build/host/catalog_gen schemas/instances.yaml > $@.tmp && mv $@.tmp $@

$(BUILD)/assets.c: build/host/embed $(SCHEMAS) $(TEMPLATES)
	@mkdir -p $(dir $@)
	build/host/embed $(SCHEMAS) $(TEMPLATES) > $@.tmp && mv $@.tmp $@

# Tests
$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libtf.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

unit: deps $(UNIT_BIN)

test: deps trainforge $(UNIT_BIN)
ifeq ($(VALGRIND),1)
	@sh tools/deps.sh valgrind
	@BUILD=$(BUILD) sh tests/valgrind/run.sh
else
	@BUILD=$(BUILD) sh tests/run.sh
endif

# End-to-end tests on real local Slurms, as root: Debian's 22.05 and 25.11
# built from ../shared/vendor/ (tests/e2e/deps.sh installs slurmctld,
# slurmd, python3-torch and the build's needs when missing). E2E_SLURM
# picks the releases (make e2e E2E_SLURM=25.11); e2e-slurm only builds
# the ones not in the cache yet (tests/e2e/slurm_build.sh).
E2E_SLURM ?= 22.05 25.11
e2e: deps trainforge
	@sh tests/e2e/deps.sh
	@E2E_SLURM="$(E2E_SLURM)" BUILD=$(BUILD) bash tests/e2e/run.sh

e2e-slurm:
	@sh tests/e2e/deps.sh
	@E2E_SLURM="$(E2E_SLURM)" bash tests/e2e/run.sh --build-only

demo: deps trainforge
	@sh tools/demo.sh

bench: deps trainforge
	@sh tests/bench/run.sh

install: trainforge
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 755 trainforge $(DESTDIR)$(PREFIX)/bin/trainforge
	install -m 644 docs/trainforge.1 $(DESTDIR)$(PREFIX)/share/man/man1/trainforge.1
	install -m 644 completions/trainforge.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/trainforge

clean:
	rm -rf build trainforge

# Fuzzing targets (make fuzz FUZZ_S=30), when present.
-include tests/fuzz/fuzz.mk
