/* trainforge diff [OPTIONS] OLD NEW: the change from OLD to NEW, two
 * versions of one cluster config, judged as `pcluster update-cluster`
 * judges it, without a cluster or credentials. */
#include "commands.h"
#include "lint_cli.h"

static const char diff_usage[] =
	"usage: trainforge diff [OPTIONS] OLD NEW\n"
	"  reviews the change from OLD to NEW, two versions of one cluster config, by\n"
	"  ParallelCluster's update policy for each changed key (PC5 rules), and its\n"
	"  cost; the findings are placed in NEW (NEW may be - with --stdin-filename)\n"
	"  -f, --format FMT       text (default), concise, json, jsonl, sarif, github, checkstyle\n"
	"      --select LIST      these rules instead of LN1 and PC5 (IDs, names, prefixes)\n"
	"      --ignore LIST      not these rules\n"
	"      --severity ID=LEVEL  re-level a rule (error, warning, info)\n"
	"      --fail-level LEVEL exit 1 at or above: error, warning (default), info, never\n"
	"      --target T         parallelcluster=V: the release whose update policies judge\n"
	"                         the change (default: the newest, 3.16)\n"
	"      --stdin-filename P the path to report stdin as\n"
	"      --max-file-size N  input size limit in bytes (default 16 MiB)\n"
	"      --color WHEN       auto (default), always, never\n"
	"      --config FILE, --isolated  as for lint\n"
	"  -q, --quiet            no summary on stderr\n"
	"The same review runs in `trainforge lint --base REV`, against git revision REV.\n";

int cmd_diff(int argc, char **argv)
{
	static const struct lint_mode mode = { true, diff_usage, "LN1,PC5" };
	return lint_command(argc, argv, &mode);
}
