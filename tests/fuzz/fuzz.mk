# libFuzzer targets, one per tests/fuzz/fuzz_*.c, built with clang into
# build/fuzz/ against the library sources instrumented for coverage.
#   make fuzz FUZZ_S=30     replay tests/fuzz/regressions/<target>/, then
#                           fuzz each target FUZZ_S seconds (FUZZ_JOBS at
#                           a time); fails on any crash, leak, timeout,
#                           out-of-memory or broken contract
#   make fuzz-replay        only replay the regressions and seed corpora
#   make fuzz-build         only build
# FUZZ_TARGETS picks targets (default: all). Included by the Makefile;
# the guard makes `make -f Makefile -f tests/fuzz/fuzz.mk` work too.
ifndef TF_FUZZ_MK
TF_FUZZ_MK := 1

FUZZ_CC      ?= clang
FUZZ_S       ?= 30
FUZZ_JOBS    ?= 2
FUZZ_MAX_LEN ?= 65536
FUZZ_DIR     := build/fuzz
# The Makefile defines these; the defaults let the fragment stand alone.
BUILD        ?= build/rel
CORE_SRC     ?= $(wildcard core/*.c core/*/*.c)
LINT_SRC     ?= $(wildcard lint/*.c lint/*/*.c lint/rules/*/*.c)
GEN_SRC      ?= $(wildcard gen/*.c)
# Where lint and gen meet (what gen checks in the files it would write);
# the rest of cli/ is the command line itself, but for the JSON-RPC layer
# and the MCP server on it, which the rpc target drives, with the command
# code their tools call.
CLI_LIB_SRC  := cli/jobspec.c $(wildcard cli/rpc/*.c cli/mcp/*.c) \
                $(filter-out cli/main.c cli/jobspec.c,$(wildcard cli/*.c))
INC_ALL      ?= -Icore -Icore/yaml -Icore/report -Icore/facts -Ilint -Ilint/settings -Ilint/script \
                -Ilint/slurm -Ilint/cluster -Ilint/rules/pc -Ilint/rules/sb -Ilint/rules/ln -Igen \
                -Icli/rpc -Icli/mcp

FUZZ_PKGS    := yaml-0.1 libcyaml libpcre2-8
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS  := -std=c11 -g -O1 -fno-omit-frame-pointer -Wall -Wextra $(FUZZ_SAN) \
                -D_POSIX_C_SOURCE=200809L -D_GNU_SOURCE -DTF_VERSION='"fuzz"' \
                $(INC_ALL) -Icli \
                $(shell pkg-config --cflags $(FUZZ_PKGS) 2>/dev/null)
FUZZ_LIBS    := $(shell pkg-config --libs $(FUZZ_PKGS) 2>/dev/null)

# The batch-script target exists once its model does (the header and
# the file that defines sb_parse).
FUZZ_ALL     := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_TARGETS ?= $(FUZZ_ALL)
FUZZ_BINS    := $(patsubst %,$(FUZZ_DIR)/fuzz_%,$(FUZZ_TARGETS))

FUZZ_LIB_OBJ := $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(CORE_SRC) $(LINT_SRC) $(GEN_SRC) $(CLI_LIB_SRC)) \
                $(FUZZ_DIR)/obj/catalog_data.o $(FUZZ_DIR)/obj/assets.o
FUZZ_HDRS    := $(wildcard core/*.h core/*/*.h core/*/*.def lint/*.h lint/*/*.h lint/rules/*/*.h gen/*.h cli/*.h \
                  cli/*.def cli/rpc/*.h cli/mcp/*.h)

.PHONY: fuzz fuzz-build fuzz-replay fuzz-deps fuzz-force
.SECONDARY: $(FUZZ_LIB_OBJ) $(patsubst %,$(FUZZ_DIR)/obj/tests/fuzz/fuzz_%.o,$(FUZZ_ALL))

fuzz-deps:
	@sh tools/deps.sh fuzz

fuzz-build: $(FUZZ_BINS)

fuzz: fuzz-build
	@FUZZ_S=$(FUZZ_S) FUZZ_JOBS=$(FUZZ_JOBS) FUZZ_MAX_LEN=$(FUZZ_MAX_LEN) \
		sh tests/fuzz/run.sh $(FUZZ_TARGETS)

fuzz-replay: fuzz-build
	@FUZZ_S=0 sh tests/fuzz/run.sh $(FUZZ_TARGETS)

# Library objects: coverage instrumentation without libFuzzer's main.
$(FUZZ_DIR)/obj/%.o: %.c $(FUZZ_HDRS) | fuzz-deps $(BUILD)/catalog_data.c $(BUILD)/assets.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_DIR)/obj/%.o: $(BUILD)/%.c | fuzz-deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

# An archive, so that a target links only what it uses (a half-written
# file elsewhere in lint/ does not stop the parser targets); it is
# rebuilt when its member list changes, not only its members.
$(FUZZ_DIR)/libtf.list: fuzz-force
	@mkdir -p $(FUZZ_DIR)
	@echo "$(FUZZ_LIB_OBJ)" | cmp -s - $@ || echo "$(FUZZ_LIB_OBJ)" > $@

$(FUZZ_DIR)/libtf.a: $(FUZZ_LIB_OBJ) $(FUZZ_DIR)/libtf.list
	rm -f $@ && ar rcs $@ $(FUZZ_LIB_OBJ)

# The harnesses are not instrumented for coverage: their loops would
# only feed libFuzzer noise and cost run time.
$(FUZZ_DIR)/obj/tests/fuzz/%.o: tests/fuzz/%.c tests/fuzz/fuzz.h tests/fuzz/jobspec_hook.h tests/fuzz/prices_hook.h $(FUZZ_HDRS) | fuzz-deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Werror -c -o $@ $<

$(FUZZ_DIR)/fuzz_%: $(FUZZ_DIR)/obj/tests/fuzz/fuzz_%.o $(FUZZ_DIR)/libtf.a | fuzz-deps
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(FUZZ_LIBS)

endif
