/* The linter's own rules (LN), one line a case: the input checks on
 * bytes and YAML, the suppression directives, and shellcheck that does
 * not finish (LN2001, against a stand-in). tests/unit/rules_verify.h
 * says how a case runs. */
#include <sys/stat.h>

#include "rules_verify.h"

#define CLEAN VERIFY_CLUSTER_HEAD VERIFY_QUEUE
/* The queue without its placement group, which PC2101 reports at the
 * compute resource; tail ends that line (a trailing directive). */
#define NO_GROUP_TAIL(tail)                                                   \
	VERIFY_CLUSTER_HEAD                                                   \
	"    - Name: train\n"                                                 \
	"      Networking: {SubnetIds: [subnet-0fedcba9876543210]}\n"        \
	"      ComputeResources:\n"                                           \
	"        - {Name: p5, InstanceType: p5.48xlarge, MaxCount: 4, Efa: {Enabled: true}}" tail "\n"
#define NO_GROUP NO_GROUP_TAIL("")

static void ln_input(void **state)
{
	(void)state;
	verify(R_LN1001, CLEAN "Tags:\n  - Key: team\n    Value: \"ml-infra\n");
	verify_not(R_LN1001, CLEAN "Tags:\n  - Key: team\n    Value: \"ml-infra\"\n");
	/* Latin-1, then UTF-8 */
	verify(R_LN1002, CLEAN "Tags: [{Key: owner, Value: Ren\xe9}]\n");
	verify_not(R_LN1002, CLEAN "Tags: [{Key: owner, Value: Ren\xc3\xa9}]\n");
	verify_bytes(R_LN1003, "cluster.yaml", "HeadNode:\n  InstanceType: c5\0.xlarge\n");
	verify_not(R_LN1003, CLEAN);
	verify_file(R_LN1004, "empty.yaml", "");
	verify_file(R_LN1004, "blank.sbatch", "\n \n\t\n");
	verify_file_not(R_LN1004, "comment.yaml", "# nothing else yet\n");
	verify(R_LN1007, "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
			 "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
			 "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
			 "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
			 "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
			 "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
			 "g: [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n");
	verify_not(R_LN1007, "a: &a [x, x]\nb: [*a, *a]\n");
	verify(R_LN1008, "name: release notes\nitems: [a, b]\n");
	verify_file(R_LN1008, "node.sh", "#!/bin/bash\nrsync -a /fsx/data/ /scratch/\n");
	/* one that runs a launcher is a launch script, checked as such */
	verify_file_not(R_LN1008, "run.sh", "#!/bin/bash\ntorchrun train.py\n");
	verify_not(R_LN1008, CLEAN);
	verify_file_not(R_LN1008, "job.sbatch", "#!/bin/bash\n#SBATCH --nodes=1\nsrun hostname\n");
	/* another language, by name or #! line, whatever #SBATCH text it has */
	verify_file(R_LN1008, "launcher.py", "T = '''\n#SBATCH --nodes=2\nsrun hostname\n'''\n");
	verify_file(R_LN1008, "launcher.py.j2", "T = '''\n#SBATCH --nodes=2\n'''\n");
	verify_file(R_LN1008, "job.sbatch", "#!/usr/bin/env python3\n#SBATCH --nodes=2\nprint(1)\n");
	verify_file(R_LN1008, "job.sbatch", "#!/usr/bin/python3.11 -u\n#SBATCH --nodes=2\nprint(1)\n");
	verify_file(R_LN1008, "job.sbatch", "#!/usr/bin/env -S python3 -u\n#SBATCH --nodes=2\n");
	verify_file(R_LN1008, "job.sbatch", "#!/usr/bin/env -i PYTHONPATH=/x python3\n#SBATCH --nodes=2\n");
	verify_file(R_LN1008, "job.sh", "#!/usr/bin/perl -w\n#SBATCH --nodes=2\nprint 1;\n");
	/* csh: sbatch reads its #SBATCH lines, which are checked; the body
	 * is csh's and is not judged as bash */
	verify_file_not(R_LN1008, "job.slurm", "#!/bin/csh\n#SBATCH --nodes=2\nsetenv A 1\n");
	verify_file(R_SB1001, "job.slurm", "#!/bin/tcsh\n#SBATCH --nods=2\nsetenv A 1\n");
	verify_file_not(R_SB0005, "job.slurm", "#!/bin/csh\n#SBATCH --nodes=2\nif ( $?A ) then\n  echo $A\nendif\n");
	/* a shell's #! line, or none, keeps the batch script a batch script */
#define JOB_BODY "#SBATCH --nodes=1\nsrun hostname\n"
	verify_file_not(R_LN1008, "job.sbatch", "#!/usr/bin/env bash\n" JOB_BODY);
	verify_file_not(R_LN1008, "job.sbatch", "#!/usr/bin/env -S bash -l\n" JOB_BODY);
	verify_file_not(R_LN1008, "job.sbatch", "#!/usr/bin/env -u HOME bash\n" JOB_BODY);
	verify_file_not(R_LN1008, "job.sbatch", "#! /bin/sh -e\r\n" JOB_BODY);
	verify_file_not(R_LN1008, "job.sbatch", "\xEF\xBB\xBF#!/usr/local/bin/bash\n" JOB_BODY);
	verify_file_not(R_LN1008, "job.sbatch", "#!/bin/zsh\n" JOB_BODY);
	verify_file_not(R_LN1008, "job", JOB_BODY);
	/* a template is the kind of the name under its suffix; a tag in the
	 * #! line says nothing until rendered */
	verify_file_not(R_LN1008, "job.sbatch", "#!{{ shell }}\n" JOB_BODY);
	verify_file_not(R_LN1008, "train.sbatch.j2", "#!/bin/bash\n" JOB_BODY "{{ extra }}\n");
	verify_file_not(R_LN1008, "job.slurm.template", "#!/bin/bash\n" JOB_BODY);
	verify_file_not(R_LN1008, "job.j2", "#!/bin/bash\n" JOB_BODY);
#undef JOB_BODY
	verify(R_LN1009, CLEAN "---\nRegion: us-east-1\n");
	verify_not(R_LN1009, "---\n" CLEAN "...\n");
}

static void ln_directives(void **state)
{
	(void)state;
	verify(R_LN0001, "# trainforge disable-file=PC2101 # groups are made elsewhere\n" CLEAN);
	verify_not(R_LN0001, "# trainforge disable-file=PC2101 # groups are made elsewhere\n" NO_GROUP);
	verify(R_LN0001, NO_GROUP_TAIL("  # trainforge disable=PC2102 # not this one"));
	verify_not(R_LN0001, NO_GROUP_TAIL("  # trainforge disable=PC2101 # made elsewhere"));
	verify_file(R_LN0001, "job.sbatch",
		    "#!/bin/bash\n#SBATCH --nodes=1\n# trainforge disable=SB2002 # one node\nsrun hostname\n");
	verify_file_not(R_LN0001, "job.sbatch",
			"#!/bin/bash\n#SBATCH --nodes=2\nsrun hostname\n"
			"# trainforge disable=SB2002 # a launcher of its own\ntorchrun train.py\n");
	/* directive text inside a quoted string is no comment to bash: it
	 * suppresses nothing and is not a malformed directive */
	verify_file(R_SB2002, "job.sbatch",
		    "#!/bin/bash\n#SBATCH --nodes=2\ntorchrun train.py --note ' # trainforge disable=SB2002'\n");
	verify_file_not(R_LN0003, "job.sbatch",
			"#!/bin/bash\n#SBATCH --nodes=1\nexport NOTE='a\n  # trainforge disable PC2101\nb'\n");
	verify_file(R_LN0003, "job.sbatch",
		    "#!/bin/bash\n#SBATCH --nodes=1\nexport NOTE='a'\n  # trainforge disable PC2101\n");
	/* and in YAML, inside a quoted or block scalar */
	verify_not(R_LN0003, "Tags:\n  - {Key: note, Value: \"a # trainforge disable PC2101\"}\n" NO_GROUP);
	verify_not(R_LN0003, "Notes: |\n  # trainforge disable PC2101\n" NO_GROUP);
	verify(R_LN0003, "Notes: 'a' # trainforge disable PC2101\n" NO_GROUP);
	verify(R_LN0002, "# trainforge disable=PC2110 # a typo of PC2101\n" NO_GROUP);
	verify_not(R_LN0002, "# trainforge disable=efa-without-placement-group # by name\n" NO_GROUP);
	verify(R_LN0003, "# trainforge disable PC2101\n" NO_GROUP);
	verify_not(R_LN0003, "# trainforge disable=PC2101,PC2002 # both\n" NO_GROUP);
}

/* A shellcheck that never finishes on a script holding HANG, and finds
 * nothing in any other. */
static char sc_dir[] = "/tmp/tf-test-ln.XXXXXX";
static char sc_program[64];

static void ln_tools(void **state)
{
	(void)state;
	assert_non_null(mkdtemp(sc_dir));
	snprintf(sc_program, sizeof sc_program, "%s/shellcheck", sc_dir);
	FILE *f = fopen(sc_program, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\nfor f; do\n\t[ -f \"$f\" ] || continue\n"
	      "\twhile IFS= read -r l; do case $l in *HANG*) exec sleep 30 ;; esac; done <\"$f\"\n"
	      "done\necho '{\"comments\":[]}'\n", f);
	fclose(f);
	assert_int_equal(chmod(sc_program, 0755), 0);
	verify_shellcheck_program = sc_program;
	verify_file(R_LN2001, "job.sbatch", "#!/bin/bash\n#SBATCH --nodes=1\n# HANG\nsrun hostname\n");
	verify_file_not(R_LN2001, "job.sbatch", "#!/bin/bash\n#SBATCH --nodes=1\nsrun hostname\n");
	unlink(sc_program);
	rmdir(sc_dir);
}

#define JOB "#!/bin/bash\n#SBATCH --partition=train\n#SBATCH --nodes=2\n#SBATCH --exclusive\nsrun hostname\n"

static void ln_settings(void **state)
{
	(void)state;
	verify_file(R_LN3001, ".trainforge.yaml", "select: [ALL]\nignroe: [PC6001]\n");
	verify_file(R_LN3001, ".trainforge.yaml", "ignore: [PC9999]\n");
	verify_file(R_LN3001, ".trainforge.yml", "shellcheck-timeout: -1\n");
	verify_file_not(R_LN3001, ".trainforge.yaml", "select: [ALL]\nignore: [PC6001]\n");
	/* the comment init writes first is prose, not a directive */
	verify_file_not(R_LN0003, ".trainforge.yaml", "# trainforge lint settings for this directory\nselect: [ALL]\n");
	verify_file_not(R_LN3001, "settings.yaml", "ignroe: [PC6001]\n");
}

static void ln_pairing(void **state)
{
	(void)state;
	verify_file(R_LN3002, "job.sbatch", JOB);
	verify_file_not(R_LN3002, "run.sh", "#!/bin/bash\nsrun hostname\n");
	verify_file_not(R_LN3003, "job.sbatch", JOB); /* pairing with others: tests/cases/LN3003 */
}

static void every_area_has_cases(void **state)
{
	(void)state;
	verify_areas_covered();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ln_input),
		cmocka_unit_test(ln_directives),
		cmocka_unit_test(ln_tools),
		cmocka_unit_test(ln_settings),
		cmocka_unit_test(ln_pairing),
		cmocka_unit_test(every_area_has_cases),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
