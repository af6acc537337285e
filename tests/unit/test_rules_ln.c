/* The linter's own rules (LN), one line a case: the input checks on
 * bytes and YAML, and the suppression directives. tests/unit/rules_verify.h
 * says how a case runs. */
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
	verify_file(R_LN1008, "node.sh", "#!/bin/bash\ntorchrun train.py\n");
	verify_not(R_LN1008, CLEAN);
	verify_file_not(R_LN1008, "job.sbatch", "#!/bin/bash\n#SBATCH --nodes=1\nsrun hostname\n");
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
	verify(R_LN0002, "# trainforge disable=PC2110 # a typo of PC2101\n" NO_GROUP);
	verify_not(R_LN0002, "# trainforge disable=efa-without-placement-group # by name\n" NO_GROUP);
	verify(R_LN0003, "# trainforge disable PC2101\n" NO_GROUP);
	verify_not(R_LN0003, "# trainforge disable=PC2101,PC2002 # both\n" NO_GROUP);
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
		cmocka_unit_test(every_area_has_cases),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
