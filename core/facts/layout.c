#include "layout.h"

#include <limits.h>

/* A script's numbers are any long long: the arithmetic saturates rather
 * than overflow, and never divides LLONG_MIN by -1. */
static long long mul(long long a, long long b)
{
	long long r;
	if (!__builtin_mul_overflow(a, b, &r))
		return r;
	return (a < 0) != (b < 0) ? LLONG_MIN : LLONG_MAX;
}

static long long rem(long long a, long long b)
{
	return b == -1 ? 0 : a % b;
}

static long long quot(long long a, long long b)
{
	return b == -1 ? mul(a, -1) : a / b;
}

static long long degree(long long d)
{
	return d ? d : 1;
}

long long layout_world_of(long long nodes, long long per_node)
{
	return mul(nodes, per_node);
}

long long layout_model(const struct layout *l)
{
	return mul(mul(degree(l->tp), degree(l->pp)), degree(l->cp));
}

long long layout_dp(const struct layout *l)
{
	long long model = layout_model(l);
	return l->world && rem(l->world, model) == 0 ? quot(l->world, model) : 0;
}

long long layout_global(const struct layout *l)
{
	return l->global ? l->global : mul(l->micro, layout_dp(l));
}

long long layout_micro_batches(const struct layout *l)
{
	long long per_step = mul(l->micro, layout_dp(l)), global = layout_global(l);
	return per_step && rem(global, per_step) == 0 ? quot(global, per_step) : 0;
}

struct reporter {
	const struct layout *l;
	layout_report_fn *report;
	void *ctx;
	int count;
};

static void fault(struct reporter *r, enum layout_fault f, long long value, long long divisor)
{
	struct layout_finding found = { f, value, divisor };
	r->count++;
	if (r->report)
		r->report(r->ctx, r->l, &found);
}

/* Megatron's initialization and the expert grid of Megatron and NxD, or
 * torchtitan's parallel dims (docs/frameworks.md, "Layout invariants"). */
static void check_world(struct reporter *r)
{
	const struct layout *l = r->l;
	const struct fw_def *fw = fw_def(l->fw);
	long long model = layout_model(l), dp = layout_dp(l);
	if (rem(l->world, model))
		fault(r, LAYOUT_WORLD, l->world, model);
	long long grid = mul(mul(l->ep, degree(l->pp)), degree(l->tp));
	if (l->ep > 1 && fw->expert_grid == FW_GRID_EP_PP_TP && rem(l->world, grid))
		fault(r, LAYOUT_EXPERT_GRID, l->world, grid);
	if (!dp)
		return;
	if (l->dp > 0 && l->dp != dp)
		fault(r, LAYOUT_DP, l->dp, dp);
	long long per_step = mul(l->micro, dp);
	if (l->micro && l->global && rem(l->global, per_step))
		fault(r, LAYOUT_BATCH, l->global, per_step);
	long long sharded = mul(mul(dp, degree(l->cp)), degree(l->tp));
	if (l->ep > 1 && fw->expert_grid == FW_GRID_EP_IN_DP_CP_TP && sharded % l->ep)
		fault(r, LAYOUT_EXPERT_DP, sharded, l->ep);
}

/* What the model's shape must split into, at any world. */
static void check_model(struct reporter *r)
{
	const struct layout *l = r->l;
	const struct fw_def *fw = fw_def(l->fw);
	if (l->vpp > 1 && l->pp <= 1)
		fault(r, LAYOUT_VPP_STAGES, l->vpp, l->pp);
	else if (l->vpp > 1 && !fw->virtual_stages)
		fault(r, LAYOUT_VPP_SCHEDULE, l->vpp, l->pp);
	if (l->layers && l->pp > 1 && fw->even_stages && l->layers % l->pp)
		fault(r, LAYOUT_LAYERS_PP, l->layers, l->pp);
	else if (l->layers && l->vpp > 1 && fw->even_stages && quot(l->layers, degree(l->pp)) % l->vpp)
		fault(r, LAYOUT_LAYERS_VPP, quot(l->layers, degree(l->pp)), l->vpp);
	if (l->ep > 1 && !l->experts)
		fault(r, LAYOUT_EP_NO_EXPERTS, 0, l->ep);
	else if (l->ep > 1 && l->experts % l->ep)
		fault(r, LAYOUT_EXPERTS_EP, l->experts, l->ep);
	if (l->tp > 1 && l->heads && l->heads % l->tp)
		fault(r, LAYOUT_HEADS_TP, l->heads, l->tp);
	if (l->tp > 1 && l->groups && l->groups % l->tp && l->tp % l->groups)
		fault(r, LAYOUT_GROUPS_TP, l->groups, l->tp);
	if (l->cp > 1 && l->seq && l->seq % mul(2, l->cp))
		fault(r, LAYOUT_SEQ_CP, l->seq, mul(2, l->cp));
}

int layout_check(const struct layout *l, layout_report_fn *report, void *ctx)
{
	struct reporter r = { l, report, ctx, 0 };
	if (l->world)
		check_world(&r);
	check_model(&r);
	return r.count;
}

static void keep(void *ctx, const struct layout *l, const struct layout_finding *f)
{
	struct layout_faults *fs = ctx;
	(void)l;
	fs->set |= 1u << f->fault;
	fs->at[f->fault] = *f;
}

void layout_faults_find(const struct layout *l, struct layout_faults *out)
{
	*out = (struct layout_faults){ 0 };
	layout_check(l, keep, out);
}

const struct layout_finding *layout_faults_get(const struct layout_faults *fs,
					       enum layout_fault f)
{
	return fs->set & 1u << f ? &fs->at[f] : NULL;
}

const struct layout_finding *layout_faults_first(const struct layout_faults *fs,
						 const enum layout_fault *among, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (layout_faults_get(fs, among[i]))
			return &fs->at[among[i]];
	return NULL;
}
