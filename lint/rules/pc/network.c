/* PC2701: where the nodes sit in the VPC. EC2 assigns a public IPv4
 * address on launch only to an instance launched with one network
 * interface (the EC2 API reference, InstanceNetworkInterfaceSpecification
 * AssociatePublicIpAddress), and ParallelCluster launches an instance of
 * several network cards with one interface per card, refusing a queue of
 * them in a subnet that assigns public addresses
 * (MultiNetworkInterfacesInstancesValidator, which asks EC2 about the
 * subnet). Their subnet is therefore private; a head node there has no
 * public address either. Whether a subnet is public is not in the file:
 * the finding says what to check. The catalog counts one EFA interface
 * per network card. */
#include <string.h>

#include "pc.h"

enum { MAX_TYPES = 64 };

/* The first compute resource type of a queue with several network
 * cards, or NULL. */
static const struct instance_type *multi_card_type(const struct pc *pc, yd_node queue)
{
	const yamldoc *d = pc->cl->doc;
	yd_node crs = cluster_compute_resources(pc->cl, queue);
	for (size_t j = 0; yd_kind(d, crs) == YD_SEQUENCE && j < yd_len(d, crs); j++) {
		yd_node types[MAX_TYPES];
		size_t n = cluster_instance_types(pc->cl, yd_item(d, crs, j), types, MAX_TYPES);
		for (size_t k = 0; k < n; k++) {
			const struct instance_type *it = cluster_instance(pc->cl, types[k]);
			if (it && it->efa == TRI_YES && it->max_efa_interfaces > 1)
				return it;
		}
	}
	return NULL;
}

/* Whether the queue's SubnetIds hold subnet (a string value). */
static bool queue_in_subnet(const struct pc *pc, yd_node queue, const char *subnet)
{
	const yamldoc *d = pc->cl->doc;
	yd_node ids = yd_get(d, yd_get(d, queue, "Networking"), "SubnetIds");
	for (size_t i = 0; yd_kind(d, ids) == YD_SEQUENCE && i < yd_len(d, ids); i++)
		if (yd_str_eq(d, yd_item(d, ids, i), subnet))
			return true;
	return false;
}

/* PC2701 head-node-in-multi-card-subnet */
void pc_check_network(const struct pc *pc)
{
	const yamldoc *d = pc->cl->doc;
	yd_node head = yd_get(d, yd_get(d, yd_get(d, pc->cl->root, "HeadNode"), "Networking"), "SubnetId");
	const char *subnet = yd_type(d, head) == YD_T_STRING ? yd_str(d, head, NULL) : NULL;
	if (!subnet || cluster_unknown(pc->cl, head))
		return;
	yd_node queues = cluster_queues(pc->cl);
	for (size_t i = 0; yd_kind(d, queues) == YD_SEQUENCE && i < yd_len(d, queues); i++) {
		yd_node q = yd_item(d, queues, i);
		const struct instance_type *it;
		if (!queue_in_subnet(pc, q, subnet) || !(it = multi_card_type(pc, q)))
			continue;
		const char *name = yd_str(d, yd_get(d, q, "Name"), NULL);
		struct diag *g = pc_report(pc, R_PC2701, head,
			"the head node shares %s with queue %s, whose %s launches with %d network cards: such "
			"instances get no public IPv4 address (EC2 assigns one only to an instance launched with one "
			"network interface), so ParallelCluster needs this subnet private, and the head node here "
			"has no public address either",
			subnet, name ? name : "?", it->name, it->max_efa_interfaces);
		diag_set_help(g, "check the subnet's MapPublicIpOnLaunch (aws ec2 describe-subnets --subnet-ids %s): "
			      "if it is on, the compute nodes fail to launch; if it is off, the head node is reachable "
			      "only through a VPN, Direct Connect or Session Manager. The usual layout puts the head node "
			      "in a public subnet and the compute nodes in a private one behind a NAT gateway", subnet);
		return;
	}
}
