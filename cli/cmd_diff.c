/* trainforge diff [OPTIONS] OLD NEW: the change from OLD to NEW, two
 * versions of one cluster config, judged as `pcluster update-cluster`
 * judges it, without a cluster or credentials. */
#include "commands.h"
#include "lint_cli.h"

int cmd_diff(int argc, char **argv)
{
	static const struct lint_mode mode = { true, "LN1,PC5" };
	return lint_command(argc, argv, &mode);
}
