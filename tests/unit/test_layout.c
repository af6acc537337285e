/* The layout invariants (core/facts/layout), on hand-computed numbers,
 * and the framework flag table: what gen writes from each row is what
 * lint reads back with it. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "buf.h"
#include "frameworks.h"
#include "layout.h"
#include "lint.h"
#include "plan.h"
#include "render.h"
#include "source.h"
#include "xalloc.h"

/* A layout with every degree 1 and nothing else known. */
static struct layout base(enum framework fw, long long world)
{
	return (struct layout){ .fw = fw, .world = world, .tp = 1, .pp = 1, .vpp = 1, .cp = 1, .ep = 1 };
}

static const struct layout_finding *find(const struct layout *l, enum layout_fault f,
					 struct layout_faults *fs)
{
	layout_faults_find(l, fs);
	return layout_faults_get(fs, f);
}

/* l has fault f with these numbers. */
static void has(const struct layout *l, enum layout_fault f, long long value, long long divisor)
{
	struct layout_faults fs;
	const struct layout_finding *got = find(l, f, &fs);
	assert_non_null(got);
	assert_int_equal(got->fault, f);
	assert_int_equal(got->value, value);
	assert_int_equal(got->divisor, divisor);
}

static void lacks(const struct layout *l, enum layout_fault f)
{
	struct layout_faults fs;
	assert_null(find(l, f, &fs));
}

static void world(void **state)
{
	(void)state;
	struct layout l = base(FW_MEGATRON, 64); /* 8 nodes x 8 */
	l.tp = 8, l.pp = 3;
	has(&l, LAYOUT_WORLD, 64, 24);             /* 64 = 2 x 24 + 16 */
	l.pp = 4;
	lacks(&l, LAYOUT_WORLD);                   /* 64 = 2 x 32 */
	assert_int_equal(layout_model(&l), 32);
	assert_int_equal(layout_dp(&l), 2);
	l.cp = 4;                                  /* 8 x 4 x 4 = 128 > 64 */
	has(&l, LAYOUT_WORLD, 64, 128);
	assert_int_equal(layout_dp(&l), 0);
	l.world = 0;                               /* unknown: nothing to hold it to */
	lacks(&l, LAYOUT_WORLD);
}

static void no_dp_without_world(void **state)
{
	(void)state;
	struct layout l = base(FW_TORCHTITAN, 64);
	l.tp = 3, l.dp = 4, l.micro = 1, l.global = 7, l.ep = 5, l.experts = 5;
	struct layout_faults fs;
	layout_faults_find(&l, &fs);
	assert_int_equal(fs.set, 1u << LAYOUT_WORLD); /* not DP, batch or EP x DP */
}

static void expert_grid(void **state)
{
	(void)state;
	struct layout l = base(FW_MEGATRON, 64);
	l.tp = 8, l.pp = 4, l.ep = 4, l.experts = 64;
	has(&l, LAYOUT_EXPERT_GRID, 64, 128);      /* 4 x 4 x 8 */
	l.ep = 2;
	lacks(&l, LAYOUT_EXPERT_GRID);             /* 2 x 4 x 8 = 64 */
	l.fw = FW_NXD, l.ep = 4;
	has(&l, LAYOUT_EXPERT_GRID, 64, 128);
	l.fw = FW_TORCHTITAN;                      /* carves EP out of DP x CP x TP instead */
	lacks(&l, LAYOUT_EXPERT_GRID);
}

static void expert_dp(void **state)
{
	(void)state;
	struct layout l = base(FW_TORCHTITAN, 64);
	l.tp = 2, l.cp = 2, l.ep = 3, l.experts = 6; /* DP 16; 16 x 2 x 2 = 64 */
	has(&l, LAYOUT_EXPERT_DP, 64, 3);
	l.ep = 8, l.experts = 8;
	lacks(&l, LAYOUT_EXPERT_DP);
	l.fw = FW_MEGATRON, l.ep = 3, l.experts = 6;
	lacks(&l, LAYOUT_EXPERT_DP);
}

static void explicit_dp(void **state)
{
	(void)state;
	struct layout l = base(FW_TORCHTITAN, 64);
	l.tp = 8;                                  /* DP 8 */
	l.dp = 4;
	has(&l, LAYOUT_DP, 4, 8);
	l.dp = 8;
	lacks(&l, LAYOUT_DP);
	l.dp = -1;                                 /* torchtitan's "the ranks left over" */
	lacks(&l, LAYOUT_DP);
}

static void batch(void **state)
{
	(void)state;
	struct layout l = base(FW_MEGATRON, 64);
	l.tp = 8, l.micro = 2;                     /* DP 8: 16 a step */
	l.global = 1000;
	has(&l, LAYOUT_BATCH, 1000, 16);           /* 1000 = 62 x 16 + 8 */
	l.global = 1024;
	lacks(&l, LAYOUT_BATCH);
	assert_int_equal(layout_global(&l), 1024);
	assert_int_equal(layout_micro_batches(&l), 64);
	l.global = 0;                              /* the frameworks' default: micro x DP */
	lacks(&l, LAYOUT_BATCH);
	assert_int_equal(layout_global(&l), 16);
	assert_int_equal(layout_micro_batches(&l), 1);
	l.global = 1000, l.micro = 0;              /* unknown micro batch */
	lacks(&l, LAYOUT_BATCH);
}

static void virtual_stages(void **state)
{
	(void)state;
	struct layout l = base(FW_MEGATRON, 0);
	l.vpp = 2;
	has(&l, LAYOUT_VPP_STAGES, 2, 1);
	l.pp = 4;
	lacks(&l, LAYOUT_VPP_STAGES);
	lacks(&l, LAYOUT_VPP_SCHEDULE);
	l.fw = FW_TORCHTITAN;
	has(&l, LAYOUT_VPP_SCHEDULE, 2, 4);
	l.pp = 1;                                  /* one reason at a time */
	has(&l, LAYOUT_VPP_STAGES, 2, 1);
	lacks(&l, LAYOUT_VPP_SCHEDULE);
}

static void layers(void **state)
{
	(void)state;
	struct layout l = base(FW_MEGATRON, 0);
	l.pp = 4, l.layers = 30;
	has(&l, LAYOUT_LAYERS_PP, 30, 4);
	l.fw = FW_NXD;                             /* spreads the remainder */
	lacks(&l, LAYOUT_LAYERS_PP);
	l.fw = FW_MEGATRON, l.layers = 96, l.vpp = 5;
	has(&l, LAYOUT_LAYERS_VPP, 24, 5);         /* 96 / 4 = 24 = 4 x 5 + 4 */
	l.vpp = 3;
	lacks(&l, LAYOUT_LAYERS_VPP);
	l.layers = 30, l.vpp = 5;                  /* the stages first */
	lacks(&l, LAYOUT_LAYERS_VPP);
}

static void experts(void **state)
{
	(void)state;
	struct layout l = base(FW_MEGATRON, 0);
	l.ep = 4;
	has(&l, LAYOUT_EP_NO_EXPERTS, 0, 4);
	l.experts = 10;
	lacks(&l, LAYOUT_EP_NO_EXPERTS);
	has(&l, LAYOUT_EXPERTS_EP, 10, 4);
	l.experts = 64;
	lacks(&l, LAYOUT_EXPERTS_EP);
	l.ep = 1, l.experts = 0;
	lacks(&l, LAYOUT_EP_NO_EXPERTS);
}

static void heads_and_groups(void **state)
{
	(void)state;
	struct layout l = base(FW_MEGATRON, 0);
	l.tp = 8, l.heads = 12, l.groups = 3;
	has(&l, LAYOUT_HEADS_TP, 12, 8);
	has(&l, LAYOUT_GROUPS_TP, 3, 8);           /* neither of 3 and 8 divides the other */
	l.heads = 96, l.groups = 2;                /* 2 divides 8 */
	lacks(&l, LAYOUT_HEADS_TP);
	lacks(&l, LAYOUT_GROUPS_TP);
	l.groups = 16;                             /* 8 divides 16 */
	lacks(&l, LAYOUT_GROUPS_TP);
	l.tp = 1, l.heads = 7, l.groups = 3;
	lacks(&l, LAYOUT_HEADS_TP);
	lacks(&l, LAYOUT_GROUPS_TP);
}

static void sequence(void **state)
{
	(void)state;
	struct layout l = base(FW_MEGATRON, 0);
	l.cp = 2, l.seq = 4098;
	has(&l, LAYOUT_SEQ_CP, 4098, 4);           /* 4098 = 1024 x 4 + 2 */
	l.seq = 4096;
	lacks(&l, LAYOUT_SEQ_CP);
	l.cp = 1, l.seq = 4097;
	lacks(&l, LAYOUT_SEQ_CP);
}

struct seen {
	enum layout_fault order[LAYOUT__COUNT];
	int n;
};

static void note(void *ctx, const struct layout *l, const struct layout_finding *f)
{
	struct seen *s = ctx;
	assert_non_null(l);
	s->order[s->n++] = f->fault;
}

static void callback_order(void **state)
{
	(void)state;
	struct layout l = base(FW_MEGATRON, 64);
	l.tp = 8, l.pp = 4, l.ep = 3, l.experts = 10, l.heads = 12, l.micro = 1, l.global = 3;
	struct seen s = { .n = 0 };
	int n = layout_check(&l, note, &s);
	/* 8 x 4 = 32 divides 64 (DP 2); 3 x 4 x 8 = 96 does not; 3 % 2 */
	static const enum layout_fault want[] = {
		LAYOUT_EXPERT_GRID, LAYOUT_BATCH, LAYOUT_EXPERTS_EP, LAYOUT_HEADS_TP,
	};
	assert_int_equal(n, 4);
	assert_int_equal(s.n, 4);
	for (int i = 0; i < 4; i++)
		assert_int_equal(s.order[i], want[i]);
	assert_int_equal(layout_check(&l, NULL, NULL), 4);
	static const enum layout_fault among[] = { LAYOUT_WORLD, LAYOUT_BATCH, LAYOUT_EXPERT_GRID };
	struct layout_faults fs;
	layout_faults_find(&l, &fs);
	assert_int_equal(fs.set, 1u << LAYOUT_EXPERT_GRID | 1u << LAYOUT_BATCH |
				 1u << LAYOUT_EXPERTS_EP | 1u << LAYOUT_HEADS_TP);
	const struct layout_finding *first = layout_faults_first(&fs, among, 3);
	assert_non_null(first);
	assert_int_equal(first->fault, LAYOUT_BATCH);
	assert_int_equal(first->value, 3);
	assert_int_equal(first->divisor, 2);
	assert_null(layout_faults_first(&fs, among, 1));
}

/* A script can say anything: the arithmetic stays defined (UBSan). */
static void hostile_numbers(void **state)
{
	(void)state;
	struct layout l = base(FW_MEGATRON, LLONG_MIN);
	l.tp = -1;
	lacks(&l, LAYOUT_WORLD);
	assert_int_equal(layout_dp(&l), LLONG_MAX);
	assert_int_equal(layout_world_of(LLONG_MAX, 3), LLONG_MAX);
	assert_int_equal(layout_world_of(LLONG_MAX, -3), LLONG_MIN);
	l.tp = LLONG_MAX, l.pp = LLONG_MAX, l.cp = LLONG_MAX, l.ep = LLONG_MAX;
	l.micro = LLONG_MAX, l.global = LLONG_MIN, l.seq = 5, l.world = 64;
	assert_int_equal(layout_model(&l), LLONG_MAX);
	has(&l, LAYOUT_WORLD, 64, LLONG_MAX);
	has(&l, LAYOUT_SEQ_CP, 5, LLONG_MAX);      /* 2 x CP saturates too */
}

/* ---- the flag table: gen writes it, lint reads it ----------------------- */

/* A job whose every flag gen writes: sizes above 1, the model given.
 * World 32: 4 nodes of 8 GPUs (1 node of 32 NeuronCores for nxd), TP 2 x
 * PP 2 x CP 2, DP 4, 16 micro-batches. Each framework gets an instance it
 * runs on and the arguments it cannot start without. */
static const char spec_text[] =
	"trainforge: 1\n"
	"name: flags\n"
	"instance: %s\n"
	"nodes: %d\n"
	"framework: %s\n"
	"parallel: {tensor: 2, pipeline: 2, virtual_stages: %d, context: 2, expert: 2}\n"
	"model: {%slayers: 24, hidden_size: 1024, attention_heads: 16, query_groups: 4,"
	" experts: 8, experts_per_token: 2, expert_ffn_hidden_size: 512, ffn_hidden_size: 2816,"
	" vocab_size: 32000, tokens: 1e9, seq_length: 4096}\n"
	"batch: {micro: 1, global: 64}\n"
	"training: {zero_stage: 1, recompute: full}\n"
	"entry: {script: /fsx/train.py, args: [%s]}\n"
	"cluster: {region: us-east-2, subnet: subnet-0123456789abcdef0, head_subnet: subnet-0123456789abcdef1, ssh_key: k%s}\n"
	"%s";

/* What each framework needs beyond the spec: its instance, the
 * arguments it cannot start without, its software and, on Neuron, the
 * AMI that carries it (docs/jobspec.md, "Neuron on ParallelCluster"). */
static const struct {
	const char *instance;
	int nodes;
	const char *model, *args, *software, *cluster;
} per_fw[FW__COUNT] = {
	/* a plain entry point's model is its own: the plan takes the count */
	[FW_PLAIN] = { "p5.48xlarge", 4, "parameters: 4e8, ", "", "" },
	[FW_MEGATRON] = { "p5.48xlarge", 4, "", "--lr, '1e-4', --tokenizer-type, NullTokenizer, --mock-data", "" },
	[FW_NXD] = { "trn1.32xlarge", 1, "", "--lr, '1e-4', --training_config, /fsx/c, --training_dir, /fsx/d",
		     "software: {neuron: '2.28.1'}\n", ", ami: ami-0a1b2c3d4e5f6a0b2" },
	[FW_TORCHTITAN] = { "p5.48xlarge", 4, "", "--module, m, --config, c", "" },
};

/* The knob values of spec_text's plan; the save interval comes from the
 * plan's step time (generated_script fills it in). */
static long long spec_value[FK__COUNT] = {
	[FK_TP] = 2, [FK_PP] = 2, [FK_VPP] = 2, [FK_CP] = 2, [FK_EP] = 2, [FK_DP] = 4,
	[FK_MICRO] = 1, [FK_GLOBAL] = 64, [FK_RANK_BATCH] = 16, [FK_MICRO_BATCHES] = 16,
	[FK_LAYERS] = 24, [FK_HIDDEN] = 1024, [FK_HEADS] = 16, [FK_GROUPS] = 4,
	[FK_EXPERTS] = 8, [FK_SEQ] = 4096, [FK_ZERO] = 1, [FK_RECOMPUTE] = FW_RC_FULL,
	[FK_FFN] = 2816, [FK_EXPERT_FFN] = 512, [FK_TOPK] = 2, [FK_VOCAB] = 32000,
	[FK_GATED] = 1, [FK_UNTIED] = 1, [FK_TRAIN_SAMPLES] = 244141, [FK_TRAIN_STEPS] = 3815,
	[FK_KV_REPLICATOR] = 0, /* TP 2 divides 4 query groups */
};

/* The generated batch script of spec_text for fw; the caller frees it. */
static char *generated_script(enum framework fw)
{
	struct buf yaml = BUF_INIT;
	bool vpp = fw_def(fw)->virtual_stages;
	buf_printf(&yaml, spec_text, per_fw[fw].instance, per_fw[fw].nodes, fw_name(fw), vpp ? 2 : 1,
		   per_fw[fw].model, per_fw[fw].args, per_fw[fw].cluster ? per_fw[fw].cluster : "",
		   per_fw[fw].software);
	size_t len = yaml.len;
	struct source *src = source_new("flags.yaml", buf_detach(&yaml), len);
	yamldoc *doc = yamldoc_parse(src->text, src->len, NULL);
	struct diag_list diags = { 0 };
	struct spec spec = { 0 }; /* its target is an input: none set */
	struct plan plan;
	assert_true(spec_load(&spec, src, doc, &diags));
	assert_true(plan_derive(&plan, &spec, &diags));
	assert_int_equal(plan.dp, spec_value[FK_DP]);
	assert_int_equal(plan.micro_batches, spec_value[FK_MICRO_BATCHES]);
	assert_int_equal(plan.model.samples, spec_value[FK_TRAIN_SAMPLES]);
	assert_int_equal(plan.model.steps, spec_value[FK_TRAIN_STEPS]);
	assert_true(plan.model.save_interval > 0 && plan.model.save_interval <= plan.model.steps);
	spec_value[FK_SAVE_INTERVAL] = plan.model.save_interval;
	struct gen_files files = { 0 };
	char err[256];
	assert_true(render_all(&plan, &spec, "flags.yaml", NULL, &files, err, sizeof err));
	char *script = NULL;
	for (size_t i = 0; i < files.len; i++)
		if (!strcmp(files.v[i].kind, "sbatch"))
			script = xstrdup(files.v[i].text);
	assert_non_null(script);
	gen_files_free(&files);
	spec_free(&spec);
	yamldoc_free(doc);
	diag_list_free(&diags);
	source_free(src);
	return script;
}

/* The line gen writes for row f: "\t<flag>" and its value. */
static void written_line(const struct fw_flag *f, char *out, size_t cap)
{
	if (f->form == FW_INT)
		snprintf(out, cap, "\t%s %lld\n", f->flag, spec_value[f->knob]);
	else if (f->form == FW_DIR)
		snprintf(out, cap, "\t%s \"$CHECKPOINT_DIR\"\n", f->flag);
	else if (f->form == FW_WORD)
		snprintf(out, cap, "\t%s %s\n", f->flag, f->word);
	else
		snprintf(out, cap, "\t%s\n", f->flag);
}

static void gen_writes_the_table(void **state)
{
	(void)state;
	for (int fw = 0; fw < FW__COUNT; fw++) {
		const struct fw_def *d = fw_def(fw);
		char *script = generated_script(fw);
		const char *after = script;
		for (size_t i = 0; i < d->nflags; i++) {
			const struct fw_flag *f = &d->flags[i];
			char line[128];
			written_line(f, line, sizeof line);
			const char *at = strstr(script, line);
			/* a row of another version is not written at the default */
			if (!fw_flag_at_version(f, fw_version_default(fw))) {
				assert_null(at);
				continue;
			}
			/* a row whose gate does not hold is not written (spec_text
			 * holds every gate but those of another recompute mode or
			 * ZeRO stage, and the knobs it leaves at 0) */
			if (!fw_flag_written(f, spec_value)) {
				enum fw_knob g = f->gate != FK_NONE ? f->gate : f->knob;
				assert_true(f->when == FW_NEVER || f->when == FW_AGAINST ||
					    (f->when == FW_IS && f->gate == FK_NONE &&
					     (f->knob == FK_RECOMPUTE || f->knob == FK_ZERO)) ||
					    ((f->when == FW_GIVEN || f->when == FW_IS || f->when == FW_ABOVE_ONE) &&
					     spec_value[g] == 0));
				assert_null(at);
				continue;
			}
			/* the rows come in order */
			if (!at)
				fail_msg("%s: no '%s' in the script", d->name, line);
			assert_true(at >= after);
			after = at;
		}
		free(script);
	}
}

/* What lint says when the row's value is changed to a wrong one. */
struct wrong {
	enum fw_knob knob;
	long long value;
	enum rule_id rule;
	const char *says;
};

static const struct wrong wrongs[] = {
	{ FK_TP, 3, R_SB2201, "TP 3 x PP 2 x CP " },
	{ FK_PP, 3, R_SB2201, "x PP 3 x CP " },
	{ FK_CP, 3, R_SB2201, "x CP 3 = " },
	{ FK_DP, 3, R_SB2202, "data-parallel degree 3, but world / (TP x PP x CP) is 4" },
	{ FK_MICRO, 3, R_SB2203, "global batch 64 is not a multiple of micro batch 3 x DP 4" },
	{ FK_GLOBAL, 66, R_SB2203, "global batch 66 is not a multiple of micro batch 1 x DP 4" },
	{ FK_LAYERS, 25, R_SB2204, "25 layers do not split into 2 pipeline stages" },
	{ FK_EXPERTS, 9, R_SB2205, "9 experts do not divide among 2 expert-parallel ranks" },
	{ FK_EP, 3, R_SB2205, "8 experts do not divide among 3 expert-parallel ranks" },
	{ FK_HEADS, 17, R_SB2206, "17 attention heads do not divide among 2 tensor-parallel ranks" },
	{ FK_GROUPS, 3, R_SB2206, "3 query groups and TP 2: one must divide the other" },
};

/* The script with row f's value replaced (or, for a row gen never
 * writes, added after the entry point). */
static char *with_value(const char *script, const struct fw_flag *f, long long value)
{
	char line[128], now[128];
	written_line(f, line, sizeof line);
	snprintf(now, sizeof now, "\t%s %lld\n", f->flag, value);
	const char *at = strstr(script, f->when == FW_NEVER ? "\t'/fsx/train.py'\n" : line);
	assert_non_null(at);
	if (f->when == FW_NEVER)
		at += strlen("\t'/fsx/train.py'\n"), line[0] = '\0';
	struct buf b = BUF_INIT;
	buf_printf(&b, "%.*s%s%s", (int)(at - script), script, now, at + strlen(line));
	return buf_detach(&b);
}

/* The messages of rule among lint's findings on text, one a line. */
static char *lint_says(const char *text, enum rule_id rule)
{
	struct lint_options opt;
	lint_options_init(&opt);
	opt.shellcheck = SHELLCHECK_OFF;
	struct lint_run run;
	lint_run_init(&run, &opt);
	lint_text(&run, "flags.sbatch", text, strlen(text), true);
	lint_run_finish(&run);
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < run.diags.len; i++)
		if (run.diags.v[i].rule == rule)
			buf_printf(&b, "%s\n", run.diags.v[i].msg);
	lint_run_fini(&run);
	return buf_detach(&b);
}

static void lint_reads_the_table(void **state)
{
	(void)state;
	int checked = 0;
	for (int fw = 0; fw < FW__COUNT; fw++) {
		char *script = generated_script(fw);
		for (enum rule_id r = R_SB2201; r <= R_SB2206; r++) {
			char *clean = lint_says(script, r);
			if (clean[0])
				fail_msg("%s: the generated script has %s", fw_name(fw), clean);
			free(clean);
		}
		for (size_t i = 0; i < sizeof wrongs / sizeof wrongs[0]; i++) {
			const struct fw_flag *f = fw_read_flag(fw, wrongs[i].knob);
			if (!f)
				continue;
			char *text = with_value(script, f, wrongs[i].value);
			char *says = lint_says(text, wrongs[i].rule);
			if (!strstr(says, wrongs[i].says))
				fail_msg("%s %s %lld: wanted '%s', lint says '%s'", fw_name(fw), f->flag,
					 wrongs[i].value, wrongs[i].says, says);
			checked++;
			free(says);
			free(text);
		}
		free(script);
	}
	/* every row lint reads is one of the above */
	int read = 0;
	for (int fw = 0; fw < FW__COUNT; fw++)
		for (size_t i = 0; i < fw_def(fw)->nflags; i++)
			read += fw_def(fw)->flags[i].read;
	assert_int_equal(checked, read);
}

static void table_facts(void **state)
{
	(void)state;
	for (int fw = 0; fw < FW__COUNT; fw++) {
		const struct fw_def *d = fw_def(fw);
		assert_string_equal(fw_name(fw), d->name);
		/* the fleet names the per-rank batch flag of such a framework */
		if (d->batch_per_rank)
			assert_non_null(fw_flag(fw, FK_RANK_BATCH));
		/* lint tells frameworks apart by their TP or PP flag */
		if (d->nflags)
			assert_true(fw_read_flag(fw, FK_TP) || fw_read_flag(fw, FK_PP));
		for (size_t i = 0; i < d->nflags; i++) {
			const struct fw_flag *f = &d->flags[i];
			/* a switch carries no value; a number or a path one */
			if (f->form == FW_SWITCH)
				assert_true(f->knob == FK_NONE);
			if (f->form == FW_INT || f->form == FW_DIR)
				assert_true(f->knob != FK_NONE);
			/* lint reads a knob from one flag of a framework */
			if (f->read)
				assert_ptr_equal(fw_read_flag(fw, f->knob), f);
		}
	}
	assert_null(fw_read_flag(FW_PLAIN, FK_TP));
	assert_string_equal(fw_read_flag(FW_NXD, FK_CP)->flag, "--context_parallel_size");
	assert_null(fw_read_flag(FW_TORCHTITAN, FK_GLOBAL));
	assert_non_null(fw_flag(FW_TORCHTITAN, FK_GLOBAL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(world),
		cmocka_unit_test(no_dp_without_world),
		cmocka_unit_test(expert_grid),
		cmocka_unit_test(expert_dp),
		cmocka_unit_test(explicit_dp),
		cmocka_unit_test(batch),
		cmocka_unit_test(virtual_stages),
		cmocka_unit_test(layers),
		cmocka_unit_test(experts),
		cmocka_unit_test(heads_and_groups),
		cmocka_unit_test(sequence),
		cmocka_unit_test(callback_order),
		cmocka_unit_test(hostile_numbers),
		cmocka_unit_test(table_facts),
		cmocka_unit_test(gen_writes_the_table),
		cmocka_unit_test(lint_reads_the_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
