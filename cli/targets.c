#include "targets.h"

#include <stdio.h>

bool targets_add(struct target_request *req, const char *value)
{
	char err[1024];
	if (target_parse_arg(value, req, err, sizeof err))
		return true;
	fprintf(stderr, "trainforge: --target: %s\n", err);
	return false;
}
