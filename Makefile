# trainforge — see README.md. `make`, `make test`, `make test SAN=1`,
# `make demo`, `make bench`, `make install PREFIX=...`, `make clean`.

CC      ?= cc
HOSTCC  ?= $(CC)
PREFIX  ?= /usr/local
PKGS    := yaml-0.1 libcyaml libpcre2-8
VERSION := 0.1.0
# Where the repository's files are published: rule links are
# $(DOCS_URL)/docs/rules.md#ID-NAME and the schemas' $id are
# $(DOCS_URL)/schemas/NAME; docs-url: in .trainforge.yaml moves the links
# of one project (a fork, a mirror).
DOCS_URL ?= https://github.com/trainforge/trainforge/blob/main

ifeq ($(SAN),1)
BUILD   := build/san
OPT     := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
else ifeq ($(VALGRIND),1)
# memcheck finds leaks by replacing malloc, which it can do only in a
# program that loads libc: this build links dynamically.
BUILD   := build/vg
OPT     := -O2 -g
else
BUILD   := build/rel
OPT     := -O2 -g
endif

WARN    := -std=c11 -Wall -Wextra -Werror
DEFS    := -D_POSIX_C_SOURCE=200809L -D_GNU_SOURCE -DTF_VERSION='"$(VERSION)"' -DTF_DOCS_URL='"$(DOCS_URL)"'
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
# -MMD -MP: each object records the headers it read, so editing a header
# rebuilds exactly the objects that include it.
CFLAGS  += $(WARN) $(OPT) $(DEFS) -MMD -MP $(PKG_CFLAGS)
# The three libraries link statically when their archives are there
# (Debian's -dev packages ship them): a run then maps and relocates none
# of them, which was a quarter of a small lint's start-up
# (docs/performance.md), and the binary needs nothing but libc.
STATIC_LIBS := $(shell for l in cyaml yaml pcre2-8; do f=$$($(CC) -print-file-name=lib$$l.a); \
                 [ -f "$$f" ] || echo missing; done)
ifeq ($(STATIC_LIBS),)
LDLIBS  += -Wl,-Bstatic $(PKG_LIBS) -Wl,-Bdynamic
else
LDLIBS  += $(PKG_LIBS)
endif
# The program itself links libc statically too, as a position-independent
# executable (ASLR kept): a lint of a config and a script then runs no
# dynamic loader, no symbol lookups and no lazy binding, which were a fifth
# of its time (docs/performance.md, "Start-up"). Sanitizer and valgrind
# builds need a dynamic libc; so does a machine without libc.a.
STATIC_PIE := $(shell [ -f "$$($(CC) -print-file-name=libc.a)" ] && \
                [ -f "$$($(CC) -print-file-name=rcrt1.o)" ] && echo yes)
ifeq ($(STATIC_LIBS)$(SAN)$(VALGRIND)$(STATIC_PIE),yes)
TF_LINK := -static-pie $(PKG_LIBS)
else
TF_LINK := $(LDLIBS)
endif

# Layers, lowest first; a folder sees only itself and what it may build
# on (docs/design.md, "Layout"), so an upward #include does not compile.
INC_core         := -Icore
INC_core/yaml    := -Icore/yaml $(INC_core)
INC_core/report  := -Icore/report $(INC_core/yaml)
INC_core/facts   := -Icore/facts -Icore/facts/frameworks $(INC_core)
# core/facts/frameworks/ is a part of the facts layer: one file per
# training framework, and the facts beside it (the catalog, Neuron's
# releases) that say where each runs.
INC_core/facts/frameworks := $(INC_core/facts)
INC_core/prices  := -Icore/prices $(INC_core/facts)
INC_lint/slurm   := -Ilint/slurm $(INC_core)
INC_lint/script  := -Ilint/script -Ilint/slurm $(INC_core)
INC_lint/cluster := -Ilint/cluster -Icore/facts -Icore/facts/frameworks $(INC_core/yaml)
INC_lint/program := -Ilint/program $(INC_core)
INC_RULES_BASE   := -Ilint/script -Ilint/slurm -Ilint/cluster -Ilint/program -Icore/facts \
                    -Icore/facts/frameworks $(INC_core/report)
INC_lint/rules/pc := -Ilint/rules/pc $(INC_RULES_BASE)
INC_lint/rules/sb := -Ilint/rules/sb $(INC_RULES_BASE)
INC_lint/rules/ln := -Ilint/rules/ln $(INC_RULES_BASE)
INC_lint         := -Ilint -Ilint/settings -Ilint/rules/pc -Ilint/rules/sb -Ilint/rules/ln \
                    $(INC_RULES_BASE)
INC_lint/settings := $(INC_lint)
INC_gen          := -Igen -Icore/facts -Icore/facts/frameworks $(INC_core/report)
INC_cli          := -Icli -Icli/rpc -Icli/lsp -Icli/mcp -Igen -Icore/prices $(INC_lint)
INC_cli/lsp      := $(INC_cli)
INC_cli/rpc      := $(INC_cli)
INC_cli/mcp      := $(INC_cli)
# Programs outside the tree (tests, fuzz targets, benches) see every layer.
INC_ALL          := $(INC_cli)
LAYERS := core core/yaml core/report core/facts core/facts/frameworks core/prices lint/slurm lint/script lint/cluster lint/program \
          lint/rules/pc lint/rules/sb lint/rules/ln lint lint/settings gen cli cli/lsp cli/rpc cli/mcp

# EXCLUDE leaves files out of a build (work in progress in a checkout).
EXCLUDE  ?=
layer_src = $(filter-out $(EXCLUDE),$(wildcard $(addsuffix /*.c,$(1))))
CORE_SRC := $(call layer_src,core core/yaml core/report core/facts core/facts/frameworks core/prices)
LINT_SRC := $(call layer_src,lint lint/slurm lint/script lint/cluster lint/program lint/rules/pc \
            lint/rules/sb lint/rules/ln lint/settings)
GEN_SRC  := $(call layer_src,gen)
CLI_SRC  := $(call layer_src,cli cli/lsp cli/rpc cli/mcp)
GENERATED := $(BUILD)/catalog_data.c $(BUILD)/assets.c
LIB_OBJ  := $(patsubst %.c,$(BUILD)/%.o,$(CORE_SRC) $(LINT_SRC) $(GEN_SRC)) \
            $(BUILD)/catalog_data.o $(BUILD)/assets.o
CLI_OBJ  := $(patsubst %.c,$(BUILD)/%.o,$(CLI_SRC))
UNIT_SRC := $(filter-out $(EXCLUDE),$(wildcard tests/unit/test_*.c))
UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
SCHEMAS  := $(wildcard schemas/*.json)
TEMPLATES := $(wildcard templates/*.mustache)

.PHONY: all deps test unit demo bench install clean e2e e2e-slurm print-inc FORCE dist deb image
.DEFAULT_GOAL := all

all: trainforge

# Installs what the build and tests need, only when it is missing; demo,
# test, e2e and bench run it, a plain `make` does not.
deps:
	@sh tools/deps.sh

ifneq ($(BUILD),build/rel)
trainforge: $(BUILD)/trainforge
else
trainforge: $(BUILD)/trainforge
	cp $< $@
endif

$(BUILD)/trainforge: $(CLI_OBJ) $(BUILD)/libtf.a $(BUILD)/link.flags
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libtf.a $(TF_LINK)

# The program is linked again when how it links changes.
$(BUILD)/link.flags: FORCE
	@mkdir -p $(BUILD)
	@echo "$(LDFLAGS) $(TF_LINK)" | cmp -s - $@ || echo "$(LDFLAGS) $(TF_LINK)" > $@

# The archive is rebuilt when its member list changes, not only its members.
$(BUILD)/libtf.list: FORCE
	@mkdir -p $(BUILD)
	@echo "$(LIB_OBJ)" | cmp -s - $@ || echo "$(LIB_OBJ)" > $@

$(BUILD)/libtf.a: $(LIB_OBJ) $(BUILD)/libtf.list
	rm -f $@ && ar rcs $@ $(LIB_OBJ)

# Each object is compiled with its own folder's include list.
$(foreach l,$(LAYERS),$(eval $(BUILD)/$(l)/%.o: INC = $(INC_$(l))))

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC) -c -o $@ $<

$(BUILD)/catalog_data.o: INC = $(INC_core/facts)
$(BUILD)/assets.o: INC = $(INC_core/yaml)
$(BUILD)/%.o: $(BUILD)/%.c
	$(CC) $(CFLAGS) $(INC) -c -o $@ $<

# `make -s print-inc LAYER=lint/script`: the include list of a folder
# (LAYER=all: of the test programs), for scripts that compile against it.
print-inc:
	@echo $(if $(filter all,$(LAYER)),$(INC_ALL),$(INC_$(LAYER)))

# Build-time programs: the catalog and the schemas become static tables.
build/host/catalog_gen: tools/catalog_gen.c core/facts/catalog.h
	@mkdir -p $(dir $@)
	$(HOSTCC) -std=c11 -O1 -Wall -Wextra -Werror $(DEFS) $(PKG_CFLAGS) -o $@ $< $(PKG_LIBS)

EMBED_SRC := tools/embed.c core/yaml/yamldoc.c core/yaml/yamldoc_load.c core/yaml/yamldoc_scalar.c \
             core/yaml/tmpl.c core/yaml/tmpl_defs.c core/yaml/schema_compile.c core/text.c core/regex.c \
             core/buf.c core/xalloc.c
build/host/embed: $(EMBED_SRC) core/yaml/yamldoc.h core/yaml/yamldoc_image.h core/yaml/yamldoc_internal.h \
                  core/yaml/schema_internal.h core/yaml/schema.h
	@mkdir -p $(dir $@)
	$(HOSTCC) -std=c11 -O1 -Wall -Wextra -Werror $(DEFS) $(INC_core/yaml) $(PKG_CFLAGS) -o $@ $(EMBED_SRC) $(PKG_LIBS)

$(BUILD)/catalog_data.c: build/host/catalog_gen schemas/instances.yaml schemas/ec2-types.tsv
	@mkdir -p $(dir $@)
	build/host/catalog_gen schemas/instances.yaml schemas/ec2-types.tsv > $@.tmp && mv $@.tmp $@

$(BUILD)/assets.c: build/host/embed $(SCHEMAS) $(TEMPLATES)
	@mkdir -p $(dir $@)
	build/host/embed $(SCHEMAS) $(TEMPLATES) > $@.tmp && mv $@.tmp $@

# Tests
$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libtf.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_ALL) -o $@ $< $(BUILD)/libtf.a $(LDLIBS) -lcmocka

# The command-line parser is the CLI's, not the library's: its test links
# it beside the library.
$(BUILD)/tests/test_cli_options: tests/unit/test_cli_options.c $(BUILD)/cli/cli_options.o $(BUILD)/libtf.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_ALL) -o $@ $< $(BUILD)/cli/cli_options.o $(BUILD)/libtf.a $(LDLIBS) -lcmocka

# The targets that install packages first build in a second make, so
# that a parallel build never compiles while the packages go in.
SUBMAKE := $(MAKE) --no-print-directory

unit: deps
	@$(SUBMAKE) $(UNIT_BIN)

# TEST_PROGRAMS: other programs the suites run (tests/diffbash/diffbash.mk).
test: deps
	@$(SUBMAKE) trainforge $(UNIT_BIN) $(TEST_PROGRAMS)
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
e2e: deps
	@$(SUBMAKE) trainforge
	@sh tests/e2e/deps.sh
	@E2E_SLURM="$(E2E_SLURM)" BUILD=$(BUILD) bash tests/e2e/run.sh

e2e-slurm:
	@sh tests/e2e/deps.sh
	@E2E_SLURM="$(E2E_SLURM)" bash tests/e2e/run.sh --build-only

demo: deps
	@$(SUBMAKE) trainforge
	@sh tools/demo.sh

bench: deps
	@$(SUBMAKE) trainforge
	@sh tests/bench/run.sh

install: trainforge
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 $(BUILD)/trainforge $(DESTDIR)$(PREFIX)/bin/trainforge
	install -m 644 docs/trainforge.1 $(DESTDIR)$(PREFIX)/share/man/man1/trainforge.1
	install -m 644 completions/trainforge.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/trainforge
	install -m 644 completions/_trainforge $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_trainforge
	install -m 644 completions/trainforge.fish \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/trainforge.fish
	@sh tools/install-hint.sh "$(PREFIX)" "$(DESTDIR)"

# Releases (docs/release.md), in build/dist: `make dist` the tarballs of
# the commit at HEAD (DIST_REV=REV: another one) for x86_64 and aarch64
# with SHA256SUMS; `make deb` and `make image` the Debian packages and the
# OCI images made from them.
dist:
	@sh tools/deps.sh dist
	@sh packaging/dist.sh build/dist

deb: dist
	@sh packaging/deb.sh build/dist

image: dist
	@sh packaging/image.sh build/dist

clean:
	rm -rf build trainforge

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(UNIT_BIN:=.d)

# Fuzzing targets (make fuzz FUZZ_S=30), when present.
-include tests/fuzz/fuzz.mk

# The differential test against bash -n (make diff-bash N=... SEED=...).
-include tests/diffbash/diffbash.mk
