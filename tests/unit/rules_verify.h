/* One-line rule cases beside the case folders (tests/cases/<ID>/), in the
 * spirit of shellcheck's verify/verifyNot properties:
 *
 *   verify(R_SB2002, "#!/bin/bash\n#SBATCH --nodes=2\ntorchrun train.py\n");
 *   verify_not(R_SB2002, "#!/bin/bash\n#SBATCH --nodes=2\nsrun torchrun train.py\n");
 *
 * lints the text in memory, through the same pipeline as `trainforge
 * lint` (lint_text, then lint_run_finish), as a file of the rule's family
 * (cluster.yaml, job.yaml, job.sbatch; LN rules: input.yaml) and asserts
 * that a finding of the rule is there (verify) or is not (verify_not). On
 * failure it prints every finding it got; with TF_VERIFY_SHOW=1 in the
 * environment it does so for every case, which helps to write one. No
 * process is started, except shellcheck for SC cases. The variants:
 *
 *   verify_file(R_LN1004, "empty.yaml", "")     the file name chooses the kind
 *   verify_bytes(R_LN1003, "x.yaml", "a\0b")    a literal with NUL bytes
 *   verify_pair(R_SB3001, cluster, script)      the script (job.sbatch) against
 *                                               cluster.yaml, the only cluster
 *                                               config of the run
 *   verify_sc(2086, script)                     shellcheck's SC2086
 *   verify_change(R_PC5001, old, new)           new (cluster.yaml) reviewed against
 *                                               old, as `trainforge diff OLD NEW`
 *
 * each with a _not form. Job specs get the generator's checks through the
 * hook the CLI installs (tests/fuzz/jobspec_hook.h is that hook without
 * cli/). Every call counts for its rule's area of rules.def, and
 * verify_areas_covered() fails for an area of the file's families that
 * has no verify or no verify_not case (verify_families below says which
 * file holds which families), so a new area needs its cases. */
#ifndef TF_TESTS_RULES_VERIFY_H
#define TF_TESTS_RULES_VERIFY_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../fuzz/jobspec_hook.h"
#include "diag.h"
#include "format.h"
#include "lint.h"
#include "rules.h"
#include "trouble.h"

/* Which test file holds the cases of which families (rule ID prefixes).
 * An area whose family is not here fails every rule test. */
static const struct {
	const char *prefixes; /* "SB SC" */
	const char *file;
} verify_families[] = {
	{ "LN", "test_rules_ln.c" },
	{ "PC", "test_rules_pc.c" },
	{ "JS", "test_rules_js.c" },
	{ "SB SC", "test_rules_sb.c" },
};

/* Text to build cases on: a cluster config up to its list of queues (with
 * the Image value given, or alinux2023), and one queue "train" of up to
 * four p5.48xlarge nodes with EFA and a placement group.
 * VERIFY_CLUSTER_HEAD VERIFY_QUEUE lints clean. */
#define VERIFY_CLUSTER_HEAD_IMAGE(image)                                                   \
	"Image: " image "\n"                                                               \
	"HeadNode: {InstanceType: c5.xlarge, Networking: {SubnetId: subnet-0123456789abcdef0}}\n" \
	"Scheduling:\n  Scheduler: slurm\n  SlurmQueues:\n"
#define VERIFY_CLUSTER_HEAD VERIFY_CLUSTER_HEAD_IMAGE("{Os: alinux2023}")
#define VERIFY_QUEUE                                                                        \
	"    - Name: train\n"                                                                  \
	"      Networking: {SubnetIds: [subnet-0fedcba9876543210], PlacementGroup: {Enabled: true}}\n" \
	"      ComputeResources:\n"                                                            \
	"        - {Name: p5, InstanceType: p5.48xlarge, MaxCount: 4, Efa: {Enabled: true}}\n"

/* The shellcheck that LN2001 cases run, with a bound of 2 s: a stand-in
 * the test file writes (real shellcheck's speed is not for a test to
 * depend on), done in milliseconds unless it hangs. */
static const char *verify_shellcheck_program;

/* The cases seen so far, per area; why an area was skipped. */
static struct {
	unsigned found, not_found;
	const char *skipped;
} verify_seen[AREA__COUNT];

#define verify(rule, text) verify_at(__FILE__, __LINE__, true, rule, 0, NULL, NULL, NULL, text, strlen(text))
#define verify_not(rule, text) verify_at(__FILE__, __LINE__, false, rule, 0, NULL, NULL, NULL, text, strlen(text))
#define verify_file(rule, path, text) \
	verify_at(__FILE__, __LINE__, true, rule, 0, NULL, NULL, path, text, strlen(text))
#define verify_file_not(rule, path, text) \
	verify_at(__FILE__, __LINE__, false, rule, 0, NULL, NULL, path, text, strlen(text))
#define verify_bytes(rule, path, literal) \
	verify_at(__FILE__, __LINE__, true, rule, 0, NULL, NULL, path, literal, sizeof(literal) - 1)
#define verify_bytes_not(rule, path, literal) \
	verify_at(__FILE__, __LINE__, false, rule, 0, NULL, NULL, path, literal, sizeof(literal) - 1)
#define verify_pair(rule, cluster, script) \
	verify_at(__FILE__, __LINE__, true, rule, 0, cluster, NULL, NULL, script, strlen(script))
#define verify_pair_not(rule, cluster, script) \
	verify_at(__FILE__, __LINE__, false, rule, 0, cluster, NULL, NULL, script, strlen(script))
#define verify_sc(code, script) \
	verify_at(__FILE__, __LINE__, true, R_SC0000, code, NULL, NULL, NULL, script, strlen(script))
#define verify_sc_not(code, script) \
	verify_at(__FILE__, __LINE__, false, R_SC0000, code, NULL, NULL, NULL, script, strlen(script))
#define verify_change(rule, old, new) \
	verify_at(__FILE__, __LINE__, true, rule, 0, NULL, old, NULL, new, strlen(new))
#define verify_change_not(rule, old, new) \
	verify_at(__FILE__, __LINE__, false, rule, 0, NULL, old, NULL, new, strlen(new))

static inline bool verify_prefix_in(const char *id, const char *prefixes)
{
	for (const char *p = prefixes; *p; p++)
		if ((p == prefixes || p[-1] == ' ') && strncmp(p, id, 2) == 0)
			return true;
	return false;
}

/* The file a rule's text is linted as when the case names none. */
static inline const char *verify_path_for(enum rule_id rule)
{
	const char *id = rule_table[rule].id;
	if (verify_prefix_in(id, "PC"))
		return "cluster.yaml";
	if (verify_prefix_in(id, "JS"))
		return "job.yaml";
	if (verify_prefix_in(id, "SB SC"))
		return "job.sbatch";
	return "input.yaml";
}

static inline bool verify_matches(const struct diag *d, enum rule_id rule, int sc_code)
{
	return d->rule == rule && (sc_code == 0 || d->ext_code == sc_code);
}

/* The old version of a change case, in a file of its own (the review
 * reads it as diff's OLD); the caller removes it. */
static inline char *verify_old_file(const char *old)
{
	static char path[64];
	snprintf(path, sizeof path, "/tmp/tf-verify-old-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	size_t n = strlen(old);
	assert_true(write(fd, old, n) == (ssize_t)n);
	close(fd);
	return path;
}

static inline void verify_at(const char *file, int line, bool want, enum rule_id rule,
			     int sc_code, const char *cluster, const char *old, const char *path,
			     const char *text, size_t len)
{
	enum rule_area area = rule_area_of(rule);
	if (want)
		verify_seen[area].found++;
	else
		verify_seen[area].not_found++;
	if (!path)
		path = verify_path_for(rule);

	struct lint_options opt;
	lint_options_init(&opt);
	opt.check_jobspec = fuzz_jobspec_lint; /* as cli/cmd_lint.c installs jobspec_lint */
	opt.shellcheck = rule == R_SC0000 ? SHELLCHECK_REQUIRED : SHELLCHECK_OFF;
	if (rule == R_LN2001) {
		opt.shellcheck = SHELLCHECK_AUTO;
		opt.shellcheck_program = verify_shellcheck_program;
		opt.shellcheck_timeout = 2;
	}
	if (old)
		opt.base_path = verify_old_file(old);
	struct lint_run run;
	lint_run_init(&run, &opt);
	if (cluster)
		lint_text(&run, "cluster.yaml", cluster, strlen(cluster), true);
	lint_text(&run, path, text, len, true);
	lint_run_finish(&run);
	diag_list_sort(&run.diags);

	size_t hits = 0;
	for (size_t i = 0; i < run.diags.len; i++)
		hits += verify_matches(&run.diags.v[i], rule, sc_code);
	bool ok = (want ? hits > 0 : hits == 0) && !run.shellcheck_failed;
	if (!ok || getenv("TF_VERIFY_SHOW")) {
		char id[16];
		if (sc_code)
			snprintf(id, sizeof id, "SC%04d", sc_code);
		else
			snprintf(id, sizeof id, "%s", rule_table[rule].id);
		if (ok)
			print_error("%s:%d: %s(%s) holds; the findings were:\n", file, line,
				    want ? "verify" : "verify_not", id);
		else
			print_error("%s:%d: %s(%s): %s %s finding in %s%s; the findings were:\n", file,
				    line, want ? "verify" : "verify_not", id, want ? "no" : "a", id, path,
				    run.shellcheck_failed ? " (shellcheck could not run)" : "");
		if (run.diags.len == 0)
			print_error("  (none)\n");
		fflush(stdout);
		format_write(stderr, FMT_CONCISE, &run.diags, false);
		trouble_flush(&run.trouble, stderr); /* what trainforge would print on stderr */
		fflush(stderr);
	}
	lint_run_fini(&run);
	if (opt.base_path)
		unlink(opt.base_path);
	if (!ok)
		_fail(file, line);
}

/* Marks an area's cases as skipped (why: shown) and skips the test. */
static inline void verify_skip_area(enum rule_area area, const char *why)
{
	verify_seen[area].skipped = why;
	print_message("skipped: %s\n", why);
	skip();
}

/* Whether a program is on PATH, without starting it. */
static inline bool verify_on_path(const char *program)
{
	const char *path = getenv("PATH");
	char full[4096];
	while (path && *path) {
		size_t n = strcspn(path, ":");
		if (n > 0 && snprintf(full, sizeof full, "%.*s/%s", (int)n, path, program) < (int)sizeof full &&
		    access(full, X_OK) == 0)
			return true;
		path += n + (path[n] == ':');
	}
	return false;
}

/* The ID prefix of an area's rules ("SB"); NULL for an area without any. */
static inline const char *verify_area_prefix(enum rule_area area, char out[3])
{
	for (int r = 0; r < RULE__COUNT; r++) {
		if (rule_area_of((enum rule_id)r) == area) {
			memcpy(out, rule_table[r].id, 2);
			out[2] = '\0';
			return out;
		}
	}
	return NULL;
}

/* The last test of each test_rules_*.c: every area of rules.def belongs to
 * a family of verify_families, and every area of this file's families has
 * at least one verify and one verify_not case (or was skipped, saying
 * why). `self` is the test file's __FILE__. */
static inline void verify_areas_covered_at(const char *self)
{
	const char *base = strrchr(self, '/');
	base = base ? base + 1 : self;
	const char *mine = NULL;
	size_t families = sizeof verify_families / sizeof verify_families[0];
	for (size_t i = 0; i < families; i++) {
		if (strcmp(verify_families[i].file, base) == 0)
			mine = verify_families[i].prefixes;
		/* each listed file is there, when run from the repository root */
		char sibling[4096];
		snprintf(sibling, sizeof sibling, "%.*s%s", (int)(base - self), self,
			 verify_families[i].file);
		if (access(self, R_OK) == 0 && access(sibling, R_OK) != 0) {
			print_error("verify_families names %s, which does not exist\n", sibling);
			fail();
		}
	}
	if (!mine) {
		print_error("%s is not in verify_families (tests/unit/rules_verify.h)\n", base);
		fail();
	}
	bool bad = false;
	for (int a = 0; a < AREA__COUNT; a++) {
		const struct area *ar = &area_table[a];
		char prefix[3];
		if (!verify_area_prefix((enum rule_area)a, prefix)) {
			print_error("area '%s' (%s) has no rules\n", ar->title, ar->file);
			bad = true;
			continue;
		}
		bool listed = false;
		for (size_t i = 0; i < families; i++)
			listed |= verify_prefix_in(prefix, verify_families[i].prefixes);
		if (!listed) {
			print_error("area '%s: %s' (%s rules, %s) is in no file of verify_families; "
				    "add tests/unit/test_rules_<family>.c with its cases and list it\n",
				    ar->family, ar->title, prefix, ar->file);
			bad = true;
		}
		if (!verify_prefix_in(prefix, mine))
			continue;
		if (verify_seen[a].skipped) {
			print_message("area '%s: %s': skipped (%s)\n", ar->family, ar->title,
				      verify_seen[a].skipped);
		} else if (!verify_seen[a].found || !verify_seen[a].not_found) {
			print_error("area '%s: %s' (%s) has %u verify and %u verify_not cases; "
				    "it needs at least one of each in %s\n",
				    ar->family, ar->title, ar->file, verify_seen[a].found,
				    verify_seen[a].not_found, base);
			bad = true;
		}
	}
	if (bad)
		fail();
}
#define verify_areas_covered() verify_areas_covered_at(__FILE__)

#endif
