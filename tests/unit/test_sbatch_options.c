/* The sbatch option table: lookups, every value syntax good and bad,
 * did-you-mean, and the options and values tagged with the Slurm
 * releases that added or removed them (with srun's, changes.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "changes.h"
#include "options.h"

static enum sbopt_verdict check(const char *name, const char *value)
{
	const struct sbopt *o = sbopt_find(name);
	assert_non_null(o);
	char why[256];
	enum sbopt_verdict r = sbopt_check_value(o, value, strlen(value), why, sizeof why);
	/* Every verdict but OK says why. */
	if (r != SBOPT_OK)
		assert_true(why[0] != '\0');
	return r;
}

#define OK(name, ...) check_all(name, SBOPT_OK, (const char *[]){ __VA_ARGS__, NULL })
#define BAD(name, ...) check_all(name, SBOPT_BAD, (const char *[]){ __VA_ARGS__, NULL })
#define ODD(name, ...) check_all(name, SBOPT_SUSPECT, (const char *[]){ __VA_ARGS__, NULL })

static void check_all(const char *name, enum sbopt_verdict want, const char **values)
{
	for (size_t i = 0; values[i]; i++) {
		enum sbopt_verdict got = check(name, values[i]);
		if (got != want) {
			print_error("--%s=%s: verdict %d, want %d\n", name, values[i], got, want);
			fail();
		}
	}
}

static void table_and_lookups(void **state)
{
	(void)state;
	/* The 106 options of sbatch 22.05, and the later ones. */
	size_t base = 0, later = 0;
	for (size_t i = 0; i < sbopt_count(); i++) {
		const struct sbopt *o = sbopt_at(i);
		if (i)
			assert_true(strcmp(sbopt_at(i - 1)->name, o->name) < 0);
		if (version_is_set(o->since))
			later++;
		else
			base++;
		/* a removal comes after the addition; UNSURE qualifies a since */
		if (version_is_set(o->since) && version_is_set(o->until))
			assert_true(version_cmp(o->since, o->until) < 0);
		if (o->flags & SBOPT_UNSURE)
			assert_true(version_is_set(o->since));
		assert_false(o->since.line || o->until.line);
		assert_ptr_equal(sbopt_find(o->name), o);
		assert_non_null(o->summary);
		/* Values and arguments agree, and every example is accepted. */
		assert_int_equal(o->arg == SBOPT_ARG_NONE, o->syntax == SBV_NONE);
		if (o->example) {
			char why[256];
			enum sbopt_verdict r = sbopt_check_value(o, o->example, strlen(o->example),
								 why, sizeof why);
			if (r != SBOPT_OK) {
				print_error("--%s=%s: %s\n", o->name, o->example, why);
				fail();
			}
		} else {
			assert_int_equal(o->arg, SBOPT_ARG_NONE);
		}
		if (o->short_name)
			for (size_t k = 0; k < i; k++)
				assert_int_not_equal(sbopt_at(k)->short_name, o->short_name);
	}
	assert_int_equal(base, 106);
	assert_int_equal(later, 15);
	assert_null(sbopt_at(sbopt_count()));

	assert_string_equal(sbopt_find("N")->name, "nodes");
	assert_string_equal(sbopt_find("-N")->name, "nodes");
	assert_string_equal(sbopt_find("--nodes")->name, "nodes");
	assert_string_equal(sbopt_find("-n")->name, "ntasks");
	assert_string_equal(sbopt_find("-s")->name, "oversubscribe");
	assert_null(sbopt_find("--nodse"));
	assert_null(sbopt_find("-y"));
	assert_null(sbopt_find(""));
	assert_int_equal(sbopt_find("exclusive")->arg, SBOPT_ARG_OPTIONAL);
	assert_int_equal(sbopt_find("hold")->arg, SBOPT_ARG_NONE);
	assert_string_equal(sbopt_find("tasks-per-node")->alias_of, "ntasks-per-node");
	assert_true(sbopt_find("partition")->flags & SBOPT_SITE);
	assert_true(sbopt_find("wait")->flags & SBOPT_CLIENT);
	assert_true(sbopt_find("uid")->flags & SBOPT_PRIVILEGED);
	assert_string_equal(sbopt_find("gpus-per-task")->needs, "--ntasks=1");

	/* getopt_long abbreviations, as sbatch resolves them. */
	bool amb;
	assert_string_equal(sbopt_match("partit", 6, &amb)->name, "partition");
	assert_false(amb);
	assert_null(sbopt_match("nod", 3, &amb));
	assert_true(amb);
	assert_string_equal(sbopt_match("mem", 3, &amb)->name, "mem");
	assert_null(sbopt_match("clus", 4, &amb));
	assert_true(amb);
	assert_string_equal(sbopt_match("--time-m", 8, &amb)->name, "time-min");
	assert_null(sbopt_match("N", 1, &amb)); /* "--N" is no long option */
	assert_null(sbopt_match("zzz", 3, &amb));
	assert_false(amb);
}

static void time_values(void **state)
{
	(void)state;
	OK("time", "10", "0", "10:30", "1:10:30", "2-0", "2-3", "2-3:04", "2-3:04:05",
	   "UNLIMITED", "unlimited", "INFINITE", "-1", "2-", "60:00", "48:00:00", "00:00:00");
	BAD("time", "1.5", "abc", "10:", "1:2:3:4", "2-3:4:5:6", "+5", "1-2-3", ":5", "",
	    "1h", " 10", "1-2:", "2--3");
	ODD("time", "1:60", "1:2:60", "1-24", "1-1:60", "-2");
	OK("time-min", "60");
	OK("delay-boot", "10", "1:00:00");
	BAD("delay-boot", "abc");
}

static void size_and_count_values(void **state)
{
	(void)state;
	OK("mem", "0", "100M", "100m", "16G", "16g", "1T", "1K", "16GB", "16Gb", "64000", "+32G");
	BAD("mem", "1P", "1.5G", "abc", "", "-1", "16G,", "G", "16 G");
	ODD("mem", "4", "8");
	OK("mem-per-cpu", "2G");
	OK("tmp", "10G");
	OK("nodes", "4", "2-4", "4-4", "0-4", "1k", "2M");
	BAD("nodes", "4-2", "1g", "abc", "2-", "", "4x", "1,,2", "4:2", "1-15:0", "1-15:x", "8-2:2");
	/* size lists and steps (23.02): changes.h says which release */
	OK("nodes", "1,2", "2,4,8", "1-15:4", "2-8:2,16");
	ODD("nodes", "0", "-1");
	OK("ntasks", "8", "+5");
	BAD("ntasks", "0", "-1", "abc", "8x", "1k", "", "2-4", "2147483648");
	OK("core-spec", "0", "2");
	BAD("core-spec", "-1");
	BAD("thread-spec", "0");
	OK("nice", "10", "-5");
	ODD("nice", "abc");
	BAD("nice", "99999999999");
	OK("priority", "10", "TOP", "top");
	ODD("priority", "abc");
	BAD("priority", "-1");
	OK("wait-all-nodes", "0", "1");
	BAD("wait-all-nodes", "2", "yes");
}

static void enum_values(void **state)
{
	(void)state;
	OK("exclusive", "user", "mcs", "USER");
	BAD("exclusive", "foo");
	ODD("exclusive", "");
	OK("mail-type", "END", "end", "BEGIN,END", "ALL", "TIME_LIMIT_80", "BEGIN,,END",
	   "ARRAY_TASKS", "INVALID_DEPEND", "STAGE_OUT", "NONE", "REQUEUE");
	BAD("mail-type", "foo", "", "END,foo");
	OK("open-mode", "append", "truncate", "APPEND");
	ODD("open-mode", "a", "t");
	BAD("open-mode", "x");
	OK("kill-on-invalid-dep", "yes", "no", "YES");
	BAD("kill-on-invalid-dep", "y", "maybe");
	OK("no-kill", "off", "OFF");
	BAD("no-kill", "on");
	OK("hint", "nomultithread", "compute_bound", "memory_bound", "multithread");
	BAD("hint", "foo");
	OK("gres-flags", "enforce-binding", "disable-binding");
	BAD("gres-flags", "foo");
	OK("profile", "all", "none", "energy,task", "Lustre", "network");
	BAD("profile", "foo");
	ODD("profile", "all,task");
	OK("propagate", "ALL", "NONE", "STACK,CORE", "MEMLOCK");
	BAD("propagate", "foo", "stack");
}

static void resource_values(void **state)
{
	(void)state;
	OK("gpus", "2", "volta:3", "volta:3,kepler:1", "0");
	ODD("gpus", "abc", "2x", "gpu:2", "");
	BAD("gpus", "a:b:2", ":2");
	OK("gpus-per-node", "8", "h100:8");
	OK("gres", "gpu:8", "gpu:kepler:2", "gpu", "gpu:2k", "none", "gpu:0");
	BAD("gres", "gpu:a:b:c", "gpu::2", "gpu:kepler:x");
	ODD("gres", "");
	OK("licenses", "foo:4,bar", "nastran@slurmdb:12", "foo:0");
	ODD("licenses", "foo:abc", "");
	BAD("licenses", ":4");
	OK("extra-node-info", "2", "2:4", "2:4:2", "*:*:2", "1-2:4");
	BAD("extra-node-info", "a");
	ODD("extra-node-info", "2:4:2:1", "");
	OK("switches", "1", "1@10", "1@1-0");
	BAD("switches", "a");
	ODD("switches", "1@abc");
	OK("acctg-freq", "30", "task=30", "task=30,energy=10", "network=5,filesystem=5");
	BAD("acctg-freq", "foo=1", "abc", "task=abc");
	OK("get-user-env", "10", "10L", "S", "L");
	BAD("get-user-env", "foo", "10X");
}

static void schedule_values(void **state)
{
	(void)state;
	OK("array", "0-15", "0,6,16-32", "0-15:4", "0-15%4", "1-5,7%2", "[1-3]", "100000000");
	BAD("array", "abc", "5-1", "-1", "1-", "", "0-15:0", "1%x");
	ODD("array", "1:2", "1,,2");
	OK("dependency", "afterok:123", "afterok:123:124,afterany:5", "afterok:1?afterany:2",
	   "singleton", "123", "after:12+5", "aftercorr:1", "afterburstbuffer:1",
	   "afternotok:1", "afterok:123_4", "afterany:123_*");
	BAD("dependency", "foo:1", "afterok:abc", "afterok:1,afterany:2?after:3", "afterok+5:1");
	ODD("dependency", "");
	OK("begin", "16:00", "now+1hour", "now+60", "2010-01-20T12:34:00", "midnight", "teatime",
	   "tomorrow", "12/31", "now+5minutes", "now+2weeks", "now+1day", "4:00PM", "12/31/25",
	   "2030-01-01", "12/31-10:00", "fika", "noon", "today", "123125", "1231");
	BAD("begin", "abc", "25:00", "now+1fortnight", "2024-13-01", "4PM", "", "now+1h",
	    "now+5min", "elevenses");
	OK("deadline", "now+1hour", "2030-01-01T00:00:00");
	BAD("deadline", "abc");
	OK("signal", "10", "USR1", "B:USR1@60", "R:10@100", "SIGUSR1", "RB:10", "sigterm", "TERM@0");
	BAD("signal", "foo", "10@70000", "X:10", "10@abc", "", "0");
	ODD("signal", "99");
}

static void binding_values(void **state)
{
	(void)state;
	OK("distribution", "block", "cyclic:block", "block:cyclic:fcyclic", "plane=4", "*:*:*",
	   "block,Pack", "block,NoPack", "BLOCK", "Pack", "arbitrary");
	BAD("distribution", "foo", "plane", "cyclic:foo", "block:block:block:block", "block,x");
	OK("gpu-bind", "closest", "verbose,closest", "map_gpu:0,1", "mask_gpu:0x0f,0xf0", "none",
	   "per_task:2", "single:1", "map_gpu:0*4,1*4");
	BAD("gpu-bind", "foo", "", "map_gpu:", "per_task:x", "map_gpu:0*x");
	OK("mem-bind", "local", "verbose,local", "none", "map_mem:0,1", "mask_mem:0x1", "q",
	   "no", "p", "rank", "sort", "prefer");
	BAD("mem-bind", "foo", "");
	OK("cpu-freq", "low", "2400000", "low-high", "low-high:performance", "Performance",
	   "highm1", "1000-2000:UserSpace");
	BAD("cpu-freq", "foo", "medium-foo", "low:foo");
	OK("gpu-freq", "medium,memory=high", "450", "verbose", "memory=450", "high,verbose");
	BAD("gpu-freq", "foo", "memory=foo", "clock=1");
}

static void text_values(void **state)
{
	(void)state;
	OK("output", "%j.out", "%x-%j.out", "logs/%x_%j.out", "slurm-%A_%a.out", "%5j.out",
	   "a\\%q");
	ODD("output", "%q.out", "", "out%", "$HOME/logs/%j.out", "${SLURM_JOB_ID}.out");
	OK("job-name", "train", "a b");
	ODD("job-name", "", "run-$(date)");
	OK("partition", "trn2");
	/* A flag takes no value at all. */
	BAD("hold", "1");
	OK("hold", "");
}

static void suggestions(void **state)
{
	(void)state;
	assert_string_equal(sbopt_suggest("--nodse"), "nodes");
	assert_string_equal(sbopt_suggest("nodse"), "nodes");
	assert_string_equal(sbopt_suggest("--ntask-per-node"), "ntasks-per-node");
	assert_string_equal(sbopt_suggest("ntasks_per_node"), "ntasks-per-node");
	assert_string_equal(sbopt_suggest("--cpus_per_task=4"), "cpus-per-task");
	assert_string_equal(sbopt_suggest("--partion"), "partition");
	assert_string_equal(sbopt_suggest("--gpus-per-nod"), "gpus-per-node");
	assert_string_equal(sbopt_suggest("--Time"), "time");
	/* A hidden alias suggests the name to write. */
	assert_string_equal(sbopt_suggest("--task-per-node"), "ntasks-per-node");
	assert_null(sbopt_suggest("--xyzzy"));
	assert_null(sbopt_suggest("-q"));
	assert_null(sbopt_suggest(NULL));
}

static struct version v(const char *s)
{
	struct version out = { 0, 0, 0, false };
	assert_true(version_parse(s, strlen(s), &out));
	return out;
}

static const char *release(const char *name, const char *slurm)
{
	struct version when = { 0, 0, 0, false };
	static const char *const names[] = { "present", "newer", "maybe", "removed" };
	const struct sbopt *o = sbopt_find(name);
	assert_non_null(o);
	return names[sbopt_at_release(o, v(slurm), &when)];
}

static void later_releases(void **state)
{
	(void)state;
	/* docs/versions.md, "slurm-options-sbatch" and its corrections */
	static const struct { const char *name, *since; } later[] = {
		{ "autocomplete", "23.02" }, { "extra", "23.02" }, { "tres-per-task", "23.02" },
		{ "tres-bind", "23.11" }, { "segment", "24.05" }, { "stepmgr", "24.05" },
		{ "resv-ports", "24.05" }, { "oom-kill-step", "24.11" }, { "resources", "25.05" },
		{ "consolidate-segments", "25.11" }, { "spread-segments", "25.11" },
		{ "container-id", "25.11" }, { "external", "25.11" }, { "mem-update", "26.05" },
		{ "container-type", "26.05" },
	};
	for (size_t i = 0; i < sizeof later / sizeof later[0]; i++) {
		const struct sbopt *o = sbopt_find(later[i].name);
		assert_non_null(o);
		assert_string_equal(version_release_text(o->since, 2).s, later[i].since);
	}
	assert_true(sbopt_find("segment")->flags & SBOPT_BLOCK);
	assert_true(sbopt_find("spread-segments")->flags & SBOPT_BLOCK);
	assert_true(sbopt_find("external")->flags & SBOPT_UNSURE);
	assert_false(version_is_set(sbopt_find("nodes")->since));
	/* removed: --power; --export-file stays although a changelog says otherwise */
	assert_string_equal(version_release_text(sbopt_find("power")->until, 2).s, "24.05");
	assert_false(version_is_set(sbopt_find("export-file")->until));
	assert_string_equal(release("power", "23.11"), "present");
	assert_string_equal(release("power", "24.05.0"), "removed");
	assert_string_equal(release("export-file", "25.11.7"), "present");
	assert_string_equal(release("segment", "23.11"), "newer");
	assert_string_equal(release("segment", "24.05"), "present");
	assert_string_equal(release("segment", "24.05.8"), "present");
	/* unsure: only 22.05 is known to lack it */
	assert_string_equal(release("external", "22.05"), "newer");
	assert_string_equal(release("external", "24.11"), "maybe");
	assert_string_equal(release("external", "25.11"), "present");
	OK("tres-per-task", "cpu=2");

	/* getopt as every release together reads it, and as one does */
	bool amb;
	assert_string_equal(sbopt_match("stepmgr", 7, &amb)->name, "stepmgr");
	assert_string_equal(sbopt_match("stepm", 5, &amb)->name, "stepmgr");
	assert_null(sbopt_match_at("stepm", 5, v("23.11"), &amb));
	assert_false(amb);
	assert_string_equal(sbopt_match("--exclus", 8, &amb)->name, "exclusive");
	assert_null(sbopt_match("--exclu", 7, &amb)); /* exclude, exclusive */
	assert_true(amb);
	/* 22.05 has extra-node-info only; --extra came in 23.02 */
	assert_string_equal(sbopt_match_at("extra", 5, v("22.05"), &amb)->name, "extra-node-info");
	assert_string_equal(sbopt_match_at("extra", 5, v("23.02"), &amb)->name, "extra");
	assert_string_equal(sbopt_match_at("ext", 3, v("22.05"), &amb)->name, "extra-node-info");
	assert_null(sbopt_match_at("ext", 3, v("25.11"), &amb)); /* external, extra, extra-node-info */
	assert_true(amb);
	/* --spread: spread-job alone until 25.11 added spread-segments */
	assert_string_equal(sbopt_match_at("spread", 6, v("24.11"), &amb)->name, "spread-job");
	assert_null(sbopt_match_at("spread", 6, v("25.11"), &amb));
	assert_true(amb);
	/* a removed option is not there to match, but its name still finds it */
	assert_null(sbopt_match_at("power", 5, v("25.11"), &amb));
	assert_string_equal(sbopt_match("power", 5, &amb)->name, "power");
	assert_null(sbopt_match("powe", 4, &amb));

	/* values: the checker takes every release's; srun's alone are not sbatch's */
	char why[256];
	const struct sbopt *o = sbopt_find("gres-flags");
	assert_int_equal(sbopt_check_value(o, "allow-task-sharing", 18, why, sizeof why), SBOPT_BAD);
	assert_non_null(strstr(why, "only used with srun"));
	assert_int_equal(sbopt_check_value(o, "one-task-per-sharing", 20, why, sizeof why), SBOPT_OK);
	o = sbopt_find("exclusive");
	assert_int_equal(sbopt_check_value(o, "topo", 4, why, sizeof why), SBOPT_OK);
	o = sbopt_find("requeue");
	assert_int_equal(sbopt_check_value(o, "expedite", 8, why, sizeof why), SBOPT_OK);
	assert_int_equal(sbopt_check_value(o, "soon", 4, why, sizeof why), SBOPT_SUSPECT);
	/* why may be NULL; value NULL is empty. */
	assert_int_equal(sbopt_check_value(sbopt_find("exclusive"), "user", 4, NULL, 0), SBOPT_OK);
	assert_int_equal(sbopt_check_value(sbopt_find("hold"), NULL, 0, NULL, 0), SBOPT_OK);
}

static const char *change(unsigned cmd, const char *option, const char *value, const char *slurm)
{
	static const char *const names[] = { "present", "newer", "maybe", "removed" };
	const struct slurm_change *c = value ? slurm_change_value(cmd, option, value)
					     : slurm_change_option(cmd, option);
	if (!c)
		return "unchanged";
	struct version when;
	return names[slurm_change_at(c, v(slurm), &when)];
}

static void srun_and_value_changes(void **state)
{
	(void)state;
	for (size_t i = 0; i < slurm_change_count(); i++) {
		const struct slurm_change *c = slurm_change_at_index(i);
		assert_true(c->cmds);
		assert_true(version_is_set(c->since) || version_is_set(c->until));
		if (version_is_set(c->since) && version_is_set(c->until))
			assert_true(version_cmp(c->since, c->until) < 0);
		/* an sbatch value belongs to an option of sbatch's table */
		if (c->value && (c->cmds & SLURM_SBATCH))
			assert_non_null(sbopt_find(c->option));
		/* sbatch's own options are versioned in its table, not here */
		if (!c->value)
			assert_false(c->cmds & SLURM_SBATCH);
	}
	assert_null(slurm_change_at_index(slurm_change_count()));
	assert_string_equal(change(SLURM_SRUN, "cpu-bind", "rank", "24.05"), "present");
	assert_string_equal(change(SLURM_SRUN, "cpu-bind", "verbose,rank", "24.11"), "removed");
	assert_string_equal(change(SLURM_SRUN, "cpu-bind", "RANK", "25.11"), "removed");
	assert_string_equal(change(SLURM_SRUN, "cpu-bind", "cores", "25.11"), "unchanged");
	assert_string_equal(change(SLURM_SRUN, "cpu-bind", "boards", "22.05"), "removed");
	assert_string_equal(change(SLURM_SRUN, "uid", NULL, "23.02.4"), "present");
	assert_string_equal(change(SLURM_SRUN, "uid", NULL, "23.02.5"), "removed");
	assert_string_equal(change(SLURM_SRUN, "tres-per-task", NULL, "22.05"), "newer");
	assert_string_equal(change(SLURM_SRUN, "treewidth", NULL, "24.11"), "maybe");
	assert_string_equal(change(SLURM_SBATCH, "uid", NULL, "25.11"), "unchanged");
	assert_string_equal(change(SLURM_SBATCH, "exclusive", "topo", "23.11"), "newer");
	assert_string_equal(change(SLURM_SBATCH, "gres-flags", "one-task-per-sharing", "23.11.1"), "newer");
	assert_string_equal(change(SLURM_SBATCH, "gres-flags", "one-task-per-sharing", "23.11.2"), "present");
	assert_string_equal(change(SLURM_SBATCH, "gres-flags", "allow-task-sharing", "25.11"), "unchanged");
	assert_string_equal(change(SLURM_SRUN, "gres-flags", "allow-task-sharing", "23.11.3"), "newer");
	assert_string_equal(change(SLURM_SBATCH, "nodes", "1-15:4", "22.05"), "newer");
	assert_string_equal(change(SLURM_SBATCH, "nodes", "2,4", "23.02"), "present");
	assert_string_equal(change(SLURM_SBATCH, "nodes", "2-4", "22.05"), "unchanged");
	assert_string_equal(change(SLURM_SBATCH, "requeue", "expedite", "25.05"), "newer");
	assert_string_equal(change(SLURM_SBATCH, "get-user-env", "10L", "24.11"), "present");
	assert_string_equal(change(SLURM_SBATCH, "get-user-env", "10L", "25.05"), "removed");
	assert_string_equal(change(SLURM_SBATCH, "get-user-env", "", "25.11"), "unchanged");
	assert_true(slurm_change_value(SLURM_SRUN, "cpu-bind", "rank")->flags & SLURM_CHANGE_IGNORED);
	assert_string_equal(change(SLURM_SBATCH, "network", "unique-channel-per-segment", "25.11"), "present");
	assert_true(slurm_change_value(SLURM_SBATCH, "exclusive", "topo")->flags & SLURM_CHANGE_BLOCK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_and_lookups),
		cmocka_unit_test(time_values),
		cmocka_unit_test(size_and_count_values),
		cmocka_unit_test(enum_values),
		cmocka_unit_test(resource_values),
		cmocka_unit_test(schedule_values),
		cmocka_unit_test(binding_values),
		cmocka_unit_test(text_values),
		cmocka_unit_test(suggestions),
		cmocka_unit_test(later_releases),
		cmocka_unit_test(srun_and_value_changes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
