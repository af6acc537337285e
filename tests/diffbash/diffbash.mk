# The differential test of the script model against bash -n
# (tests/diffbash/): one program, linked against the library, that
# generates scripts, runs bash -n on them and compares.
#   make diff-bash N=100000 SEED=7     a long run, with minimised cases in
#                                      build/diffbash/ (DIFFBASH_MIN per class)
#   make diff-bash-known               rewrite the lists of known disagreements
#   make wild-errors [WRITE=1]         the error findings on corpus/wild that
#                                      wild-errors.tsv lacks (+) or lists but
#                                      are gone (-); WRITE=1 rewrites it
# Included by the Makefile; `make test` runs the fixed-seed suites.
DIFFBASH     := $(BUILD)/tests/diffbash/diffbash
DIFFBASH_SRC := $(wildcard tests/diffbash/*.c)
DIFFBASH_HDR := $(wildcard tests/diffbash/*.h tests/diffbash/*.def)
N            ?= 100000
SEED         ?= 1
DIFFBASH_MIN ?= 2

.PHONY: diff-bash diff-bash-known wild-errors

# One command for all its sources: the header list above is its
# dependencies, so the compiler's own (-MMD) are left out.
$(DIFFBASH): $(DIFFBASH_SRC) $(DIFFBASH_HDR) $(BUILD)/libtf.a
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -MMD -MP,$(CFLAGS)) -Itests/diffbash $(INC_ALL) -o $@ $(DIFFBASH_SRC) \
		$(BUILD)/libtf.a $(LDLIBS)

TEST_PROGRAMS += $(DIFFBASH)

diff-bash: deps
	@$(SUBMAKE) $(DIFFBASH)
	$(DIFFBASH) run --seed $(SEED) --count $(N) --coverage --minimise $(DIFFBASH_MIN) \
		--keep build/diffbash/min

diff-bash-known: deps
	@$(SUBMAKE) $(DIFFBASH)
	@BUILD=$(BUILD) sh tests/diffbash/run.sh --write-known

# The reviewed reasons are kept; new lines say UNREVIEWED (and fail the
# suite) until someone reads the script and writes the reason.
wild-errors: deps
	@$(SUBMAKE) trainforge
	@BUILD=$(BUILD) sh tests/diffbash/wild-errors.sh $(if $(WRITE),--write,--report)
