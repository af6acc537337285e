/* Node and cluster names as ParallelCluster makes them (pcluster_nodes.h). */
#include "pcluster_nodes.h"

#include <string.h>

static size_t digits(long long n)
{
	size_t d = 1;
	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

size_t pcluster_host_len(const char *queue, const char *compute_resource, long long max_count)
{
	/* "-st-" and "-dy-" are as long; nodes count from 1 */
	return strlen(queue) + 4 + strlen(compute_resource) + 1 + digits(max_count > 0 ? max_count : 1);
}

size_t pcluster_name_max(size_t host_len)
{
	static const char domain[] = ".pcluster";
	size_t fixed = host_len + 1 + (sizeof domain - 1);
	if (fixed >= PCLUSTER_FQDN_MAX)
		return 0;
	size_t room = PCLUSTER_FQDN_MAX - fixed;
	return room < PCLUSTER_NAME_MAX ? room : PCLUSTER_NAME_MAX;
}
