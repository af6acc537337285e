/* What ParallelCluster does with a cluster's name and its nodes, for the
 * names gen chooses and the commands it prints (docs/jobspec.md, "The
 * cluster's name" and "Reserved capacity"; the sources are
 * aws/aws-parallelcluster cli/src/pcluster at 451cc532, release 3.11.1):
 *
 * - a cluster name is at most 60 characters, 40 with Slurm accounting
 *   (constants.py PCLUSTER_NAME_MAX_LENGTH, ClusterNameValidator);
 * - every node is in the private DNS domain <cluster name>.pcluster
 *   (templates/slurm_builder.py, cluster_dns_domain), under the host name
 *   <queue>-<st|dy>-<compute resource>-<n> (static or dynamic node);
 *   Neuron's samples report that a name longer than 63 characters there
 *   breaks NCCL's and Neuron's rendezvous ("keep the names short to
 *   ensure that FQDN does not exceed 63 characters",
 *   aws-neuron-parallelcluster-samples releasenotes.md);
 * - a node whose bootstrap has not finished after 1800 seconds is
 *   replaced (constants.py NODE_BOOTSTRAP_TIMEOUT). */
#ifndef TF_PCLUSTER_NODES_H
#define TF_PCLUSTER_NODES_H

#include <stddef.h>

#define PCLUSTER_NAME_MAX 60
#define PCLUSTER_NAME_MAX_ACCOUNTING 40
#define PCLUSTER_FQDN_MAX 63
#define PCLUSTER_BOOTSTRAP_TIMEOUT_S 1800

/* The longest host name of a compute resource: queue-st-cr-N or
 * queue-dy-cr-N for N up to max_count (both forms are as long). */
size_t pcluster_host_len(const char *queue, const char *compute_resource, long long max_count);
/* The longest cluster name whose nodes' names (host + "." + cluster +
 * ".pcluster") stay within PCLUSTER_FQDN_MAX for a host of host_len,
 * and within PCLUSTER_NAME_MAX; 0 when none does. */
size_t pcluster_name_max(size_t host_len);

#endif
