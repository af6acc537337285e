/* PC2702: the scripts ParallelCluster runs as root on the nodes
 * (CustomActions) against the S3 access the same config grants. A node
 * with write access to where a script lives lets anything running there,
 * any job, replace it; every node that starts afterwards runs the new
 * code as root. ParallelCluster grants S3Access as the IAM resource
 * BucketName/KeyName, or BucketName and everything in it without a KeyName,
 * with s3:* when EnableWriteAccess is true (aws-parallelcluster
 * cli/src/pcluster/config/cluster_config.py S3Access.resource_regex and
 * templates/cdk_builder_utils.py, at 451cc532); AmazonS3FullAccess as an
 * AdditionalIamPolicies entry grants write everywhere. */
#include <stdio.h>
#include <string.h>

#include "pc.h"

enum { MAX_SCRIPTS = 16, MAX_OWNERS = 1 + 64 + 16 };

/* An IAM resource pattern ('*' any run, '?' one character) against s. */
static bool glob_match(const char *pat, size_t plen, const char *s, size_t slen)
{
	size_t p = 0, i = 0, star = (size_t)-1, mark = 0;
	while (i < slen) {
		if (p < plen && (pat[p] == '?' || pat[p] == s[i])) {
			p++, i++;
		} else if (p < plen && pat[p] == '*') {
			star = p++;
			mark = i;
		} else if (star != (size_t)-1) {
			p = star + 1;
			i = ++mark;
		} else {
			return false;
		}
	}
	while (p < plen && pat[p] == '*')
		p++;
	return p == plen;
}

/* The grant that lets the nodes of owner write bucket/key: its node, or 0. */
static yd_node write_grant(const struct pc *pc, yd_node owner, const char *bucket, size_t blen,
			   const char *key, size_t klen)
{
	const yamldoc *d = pc->cl->doc;
	yd_node iam = yd_get(d, owner, "Iam");
	yd_node policies = yd_get(d, iam, "AdditionalIamPolicies");
	for (size_t i = 0; yd_kind(d, policies) == YD_SEQUENCE && i < yd_len(d, policies); i++) {
		size_t len;
		yd_node pol = yd_get(d, yd_item(d, policies, i), "Policy");
		const char *arn = yd_str(d, pol, &len);
		static const char full[] = ":policy/AmazonS3FullAccess";
		if (arn && len >= sizeof full - 1 && !memcmp(arn + len - (sizeof full - 1), full, sizeof full - 1))
			return pol;
	}
	yd_node access = yd_get(d, iam, "S3Access");
	for (size_t i = 0; yd_kind(d, access) == YD_SEQUENCE && i < yd_len(d, access); i++) {
		yd_node g = yd_item(d, access, i);
		if (!cluster_flag(pc->cl, g, "EnableWriteAccess"))
			continue;
		size_t bl, kl;
		const char *b = yd_str(d, yd_get(d, g, "BucketName"), &bl);
		const char *k = yd_str(d, yd_get(d, g, "KeyName"), &kl);
		if (!b || cluster_unknown(pc->cl, yd_get(d, g, "BucketName")) || !glob_match(b, bl, bucket, blen))
			continue;
		if (!k || glob_match(k, kl, key, klen))
			return g;
	}
	return 0;
}

/* The nodes that run scripts or hold grants: the head node, every
 * queue, every login node pool. */
static size_t owners_of(const struct pc *pc, yd_node *out)
{
	const yamldoc *d = pc->cl->doc;
	size_t n = 0;
	out[n++] = yd_get(d, pc->cl->root, "HeadNode");
	yd_node qs = cluster_queues(pc->cl);
	for (size_t i = 0; yd_kind(d, qs) == YD_SEQUENCE && i < yd_len(d, qs) && n < 1 + 64; i++)
		out[n++] = yd_item(d, qs, i);
	yd_node pools = yd_get(d, yd_get(d, pc->cl->root, "LoginNodes"), "Pools");
	for (size_t i = 0; yd_kind(d, pools) == YD_SEQUENCE && i < yd_len(d, pools) && n < MAX_OWNERS; i++)
		out[n++] = yd_item(d, pools, i);
	return n;
}

static const char *owner_name(const struct pc *pc, yd_node owner, char *buf, size_t cap)
{
	const yamldoc *d = pc->cl->doc;
	if (owner == yd_get(d, pc->cl->root, "HeadNode"))
		return "the head node";
	const char *name = yd_str(d, yd_get(d, owner, "Name"), NULL);
	if (!name)
		return "a queue";
	snprintf(buf, cap, "queue %s", name);
	return buf;
}

/* PC2702 custom-action-writable */
static void check_script(const struct pc *pc, yd_node script, const yd_node *owners, size_t nowners)
{
	const yamldoc *d = pc->cl->doc;
	size_t len;
	const char *url = yd_str(d, script, &len);
	if (!url || cluster_unknown(pc->cl, script) || len < 6 || memcmp(url, "s3://", 5))
		return;
	const char *bucket = url + 5, *slash = memchr(bucket, '/', len - 5);
	size_t blen = slash ? (size_t)(slash - bucket) : len - 5;
	const char *key = slash ? slash + 1 : "";
	size_t klen = slash ? len - 5 - blen - 1 : 0;
	for (size_t i = 0; i < nowners; i++) {
		yd_node grant = write_grant(pc, owners[i], bucket, blen, key, klen);
		if (!grant)
			continue;
		char name[128];
		struct diag *g = pc_report(pc, R_PC2702, script,
			"this script runs as root on the nodes, and %s may write where it lives (line %u): anything "
			"running there, any job, can replace it, and every node that starts afterwards runs that code",
			owner_name(pc, owners[i], name, sizeof name), yd_span(d, grant).line);
		diag_set_help(g, "keep the scripts the nodes run in a bucket or prefix they only read (EnableWriteAccess "
			      "false, or a KeyName the write grant does not cover), apart from the buckets jobs write to");
		return;
	}
}

void pc_check_bootstrap(const struct pc *pc)
{
	const yamldoc *d = pc->cl->doc;
	yd_node owners[MAX_OWNERS];
	size_t n = owners_of(pc, owners);
	for (size_t i = 0; i < n; i++) {
		yd_node scripts[MAX_SCRIPTS];
		size_t k = cluster_action_scripts(pc->cl, yd_get(d, owners[i], "CustomActions"), scripts, MAX_SCRIPTS);
		for (size_t s = 0; s < k; s++)
			check_script(pc, scripts[s], owners, n);
	}
}
