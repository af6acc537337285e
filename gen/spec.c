#include "spec.h"

#include <cyaml/cyaml.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "prices.h"
#include "text.h"
#include "schema.h"
#include "xalloc.h"

/* ---- binding (libcyaml, after the schema passed) --------------------- */

static const cyaml_strval_t framework_strings[] = {
	{ "plain", FW_PLAIN }, { "megatron", FW_MEGATRON },
	{ "nxd", FW_NXD }, { "torchtitan", FW_TORCHTITAN },
};
static const cyaml_strval_t capacity_strings[] = {
	{ "ondemand", CAP_ONDEMAND }, { "spot", CAP_SPOT },
	{ "capacity-block", CAP_CAPACITY_BLOCK }, { "reservation", CAP_RESERVATION },
};
static const cyaml_strval_t spot_strategy_strings[] = {
	{ "capacity-optimized", SPOT_CAPACITY_OPTIMIZED }, { "lowest-price", SPOT_LOWEST_PRICE },
	{ "price-capacity-optimized", SPOT_PRICE_CAPACITY_OPTIMIZED },
};
static const cyaml_strval_t recompute_strings[] = {
	{ "none", RC_NONE }, { "selective", RC_SELECTIVE }, { "full", RC_FULL },
};
static const cyaml_strval_t deletion_strings[] = {
	{ "retain", DP_RETAIN }, { "delete", DP_DELETE }, { "snapshot", DP_SNAPSHOT },
};
static const cyaml_strval_t purchase_strings[] = {
	{ "no-upfront", SP_NO_UPFRONT }, { "partial-upfront", SP_PARTIAL_UPFRONT },
	{ "all-upfront", SP_ALL_UPFRONT },
};
static const cyaml_strval_t offer_class_strings[] = {
	{ "standard", SP_STANDARD }, { "convertible", SP_CONVERTIBLE },
	{ "compute-savings-plan", SP_COMPUTE_SP }, { "ec2-instance-savings-plan", SP_EC2_INSTANCE_SP },
};
static const cyaml_strval_t storage_strings[] = {
	{ "fsx-lustre", ST_FSX_LUSTRE }, { "efs", ST_EFS }, { "ebs", ST_EBS },
};

#define OPT CYAML_FLAG_OPTIONAL
#define OPT_PTR (CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL)
#define STR(key, type, member) CYAML_FIELD_STRING_PTR(key, OPT_PTR, type, member, 0, CYAML_UNLIMITED)
#define INT(key, type, member) CYAML_FIELD_INT(key, OPT, type, member)

static const cyaml_schema_field_t parallel_fields[] = {
	INT("tensor", struct spec_parallel, tensor),
	INT("pipeline", struct spec_parallel, pipeline),
	INT("virtual_stages", struct spec_parallel, virtual_stages),
	INT("context", struct spec_parallel, context),
	INT("expert", struct spec_parallel, expert),
	INT("data", struct spec_parallel, data),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t model_fields[] = {
	CYAML_FIELD_FLOAT("parameters", OPT, struct spec_model, parameters),
	INT("layers", struct spec_model, layers),
	INT("hidden_size", struct spec_model, hidden_size),
	INT("attention_heads", struct spec_model, attention_heads),
	INT("query_groups", struct spec_model, query_groups),
	INT("experts", struct spec_model, experts),
	INT("seq_length", struct spec_model, seq_length),
	CYAML_FIELD_FLOAT("tokens", OPT, struct spec_model, tokens),
	CYAML_FIELD_FLOAT("active_parameters", OPT, struct spec_model, active_parameters),
	INT("experts_per_token", struct spec_model, experts_per_token),
	INT("expert_ffn_hidden_size", struct spec_model, expert_ffn_hidden_size),
	CYAML_FIELD_BOOL("gated_ffn", OPT, struct spec_model, gated_ffn),
	INT("ffn_hidden_size", struct spec_model, ffn_hidden_size),
	INT("vocab_size", struct spec_model, vocab_size),
	CYAML_FIELD_BOOL("tied_embeddings", OPT, struct spec_model, tied_embeddings),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t training_fields[] = {
	CYAML_FIELD_FLOAT("utilization", OPT, struct spec_training, utilization),
	CYAML_FIELD_ENUM("recompute", OPT | CYAML_FLAG_STRICT, struct spec_training, recompute,
			 recompute_strings, CYAML_ARRAY_LEN(recompute_strings)),
	INT("zero_stage", struct spec_training, zero_stage),
	CYAML_FIELD_BOOL("precompile", OPT, struct spec_training, precompile),
	CYAML_FIELD_FLOAT("compile_minutes", OPT, struct spec_training, compile_minutes),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t batch_fields[] = {
	INT("micro", struct spec_batch, micro),
	INT("global", struct spec_batch, global),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t string_entry = {
	CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, CYAML_UNLIMITED),
};

static const cyaml_schema_field_t entry_fields[] = {
	CYAML_FIELD_STRING_PTR("script", CYAML_FLAG_POINTER, struct spec_entry, script, 1, CYAML_UNLIMITED),
	CYAML_FIELD_SEQUENCE("args", OPT_PTR, struct spec_entry, args, &string_entry, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t cluster_fields[] = {
	STR("region", struct spec_cluster, region),
	STR("subnet", struct spec_cluster, subnet),
	STR("head_subnet", struct spec_cluster, head_subnet),
	STR("ssh_key", struct spec_cluster, ssh_key),
	STR("os", struct spec_cluster, os),
	STR("ami", struct spec_cluster, ami),
	STR("head_node", struct spec_cluster, head_node),
	STR("queue", struct spec_cluster, queue),
	STR("name", struct spec_cluster, name),
	STR("bootstrap", struct spec_cluster, bootstrap),
	INT("root_volume_gib", struct spec_cluster, root_volume_gib),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t watcher_fields[] = {
	STR("script_url", struct spec_watcher, script_url),
	STR("imds_endpoint", struct spec_watcher, imds_endpoint),
	INT("poll_seconds", struct spec_watcher, poll_seconds),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t prices_fields[] = {
	CYAML_FIELD_FLOAT("on_demand", OPT, struct spec_prices, on_demand),
	CYAML_FIELD_FLOAT("reserved", OPT, struct spec_prices, reserved),
	CYAML_FIELD_FLOAT("spot", OPT, struct spec_prices, spot),
	CYAML_FIELD_FLOAT("capacity_block", OPT, struct spec_prices, capacity_block),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t reserved_offer_fields[] = {
	INT("years", struct spec_reserved_offer, years),
	CYAML_FIELD_ENUM("purchase", OPT | CYAML_FLAG_STRICT, struct spec_reserved_offer, purchase,
			 purchase_strings, CYAML_ARRAY_LEN(purchase_strings)),
	CYAML_FIELD_ENUM("class", OPT | CYAML_FLAG_STRICT, struct spec_reserved_offer, offer_class,
			 offer_class_strings, CYAML_ARRAY_LEN(offer_class_strings)),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t capacity_fields[] = {
	CYAML_FIELD_ENUM("type", OPT | CYAML_FLAG_STRICT, struct spec_capacity, type,
			 capacity_strings, CYAML_ARRAY_LEN(capacity_strings)),
	STR("reservation_id", struct spec_capacity, reservation_id),
	CYAML_FIELD_FLOAT("spot_discount", OPT, struct spec_capacity, spot_discount),
	CYAML_FIELD_FLOAT("reserved_discount", OPT, struct spec_capacity, reserved_discount),
	STR("placement_group", struct spec_capacity, placement_group),
	INT("reserved", struct spec_capacity, reserved),
	INT("spot", struct spec_capacity, spot),
	CYAML_FIELD_ENUM("spot_strategy", OPT | CYAML_FLAG_STRICT, struct spec_capacity, spot_strategy,
			 spot_strategy_strings, CYAML_ARRAY_LEN(spot_strategy_strings)),
	INT("max_restarts", struct spec_capacity, max_restarts),
	CYAML_FIELD_MAPPING_PTR("watcher", OPT_PTR, struct spec_capacity, watcher, watcher_fields),
	CYAML_FIELD_MAPPING_PTR("prices", OPT_PTR, struct spec_capacity, prices, prices_fields),
	CYAML_FIELD_MAPPING_PTR("reserved_offer", OPT_PTR, struct spec_capacity, reserved_offer,
				reserved_offer_fields),
	CYAML_FIELD_FLOAT("block_hours", OPT, struct spec_capacity, block_hours),
	CYAML_FIELD_FLOAT("spot_interruption_rate", OPT, struct spec_capacity, spot_interruption_rate),
	CYAML_FIELD_FLOAT("spot_return_hours", OPT, struct spec_capacity, spot_return_hours),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t storage_fields[] = {
	CYAML_FIELD_ENUM("type", OPT | CYAML_FLAG_STRICT, struct spec_storage, type,
			 storage_strings, CYAML_ARRAY_LEN(storage_strings)),
	STR("mount", struct spec_storage, mount),
	INT("size_gib", struct spec_storage, size_gib),
	STR("id", struct spec_storage, id),
	CYAML_FIELD_ENUM("deletion_policy", OPT | CYAML_FLAG_STRICT, struct spec_storage, deletion_policy,
			 deletion_strings, CYAML_ARRAY_LEN(deletion_strings)),
	CYAML_FIELD_FLOAT("usd_per_gib_month", OPT, struct spec_storage, usd_per_gib_month),
	CYAML_FIELD_FLOAT("write_mb_per_s", OPT, struct spec_storage, write_mb_per_s),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t checkpoint_fields[] = {
	CYAML_FIELD_FLOAT("interval_minutes", OPT, struct spec_checkpoint, interval_minutes),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t paths_fields[] = {
	STR("compile_cache", struct spec_paths, compile_cache),
	STR("checkpoints", struct spec_paths, checkpoints),
	STR("logs", struct spec_paths, logs),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t python_fields[] = {
	STR("venv", struct spec_python, venv),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t container_fields[] = {
	STR("image", struct spec_container, image),
	CYAML_FIELD_SEQUENCE("mounts", OPT_PTR, struct spec_container, mounts, &string_entry, 0, CYAML_UNLIMITED),
	STR("base", struct spec_container, base),
	CYAML_FIELD_BOOL("efa", OPT, struct spec_container, efa),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t neuron_image_fields[] = {
	STR("parent", struct spec_neuron_image, parent),
	STR("instance", struct spec_neuron_image, instance),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t software_fields[] = {
	STR("neuron", struct spec_software, neuron),
	CYAML_FIELD_IGNORE("neuron_script", OPT), /* one value: read from the document */
	CYAML_FIELD_MAPPING_PTR("neuron_image", OPT_PTR, struct spec_software, neuron_image, neuron_image_fields),
	CYAML_FIELD_MAPPING_PTR("python", OPT_PTR, struct spec_software, python, python_fields),
	CYAML_FIELD_MAPPING_PTR("container", OPT_PTR, struct spec_software, container, container_fields),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t job_fields[] = {
	CYAML_FIELD_INT("trainforge", CYAML_FLAG_DEFAULT, struct job_spec, trainforge),
	CYAML_FIELD_STRING_PTR("name", CYAML_FLAG_POINTER, struct job_spec, name, 1, CYAML_UNLIMITED),
	CYAML_FIELD_STRING_PTR("instance", CYAML_FLAG_POINTER, struct job_spec, instance, 1, CYAML_UNLIMITED),
	INT("nodes", struct job_spec, nodes),
	INT("processes_per_node", struct job_spec, processes_per_node),
	INT("lnc", struct job_spec, lnc),
	CYAML_FIELD_ENUM("framework", OPT | CYAML_FLAG_STRICT, struct job_spec, framework,
			 framework_strings, CYAML_ARRAY_LEN(framework_strings)),
	CYAML_FIELD_MAPPING_PTR("parallel", OPT_PTR, struct job_spec, parallel, parallel_fields),
	CYAML_FIELD_MAPPING_PTR("model", OPT_PTR, struct job_spec, model, model_fields),
	CYAML_FIELD_MAPPING_PTR("training", OPT_PTR, struct job_spec, training, training_fields),
	CYAML_FIELD_MAPPING_PTR("batch", OPT_PTR, struct job_spec, batch, batch_fields),
	CYAML_FIELD_MAPPING_PTR("entry", CYAML_FLAG_POINTER, struct job_spec, entry, entry_fields),
	CYAML_FIELD_MAPPING_PTR("cluster", CYAML_FLAG_POINTER, struct job_spec, cluster, cluster_fields),
	CYAML_FIELD_MAPPING_PTR("capacity", OPT_PTR, struct job_spec, capacity, capacity_fields),
	CYAML_FIELD_MAPPING_PTR("storage", OPT_PTR, struct job_spec, storage, storage_fields),
	CYAML_FIELD_MAPPING_PTR("paths", OPT_PTR, struct job_spec, paths, paths_fields),
	CYAML_FIELD_MAPPING_PTR("checkpoint", OPT_PTR, struct job_spec, checkpoint, checkpoint_fields),
	CYAML_FIELD_SEQUENCE("s3_buckets", OPT_PTR, struct job_spec, s3_buckets, &string_entry, 0, CYAML_UNLIMITED),
	CYAML_FIELD_MAPPING_PTR("software", OPT_PTR, struct job_spec, software, software_fields),
	STR("time_limit", struct job_spec, time_limit),
	CYAML_FIELD_IGNORE("env", OPT), /* free-form: read from the document */
	CYAML_FIELD_IGNORE("path_prepend", OPT), /* free-form: read from the document */
	CYAML_FIELD_END
};

static const cyaml_schema_value_t job_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct job_spec, job_fields),
};

/* libcyaml only runs after our own schema check passed, so a message
 * here means the two disagree: keep it, as an internal error with a
 * position at the top of the file. */
struct bind_log {
	struct buf first;
};

static void bind_log_fn(cyaml_log_t level, void *ctx, const char *fmt, va_list args)
{
	struct bind_log *log = ctx;
	if (level >= CYAML_LOG_ERROR && !log->first.len)
		buf_vprintf(&log->first, fmt, args);
}

static const cyaml_config_t *bind_config(struct bind_log *log)
{
	static cyaml_config_t cfg;
	cfg = (cyaml_config_t){
		.log_fn = bind_log_fn,
		.log_ctx = log,
		.mem_fn = cyaml_mem,
		.log_level = CYAML_LOG_WARNING,
		.flags = CYAML_CFG_DEFAULT,
	};
	return &cfg;
}

/* ---- defaults -------------------------------------------------------- */

static char *dup_or(char *have, const char *fallback)
{
	return have ? have : xstrdup(fallback);
}

static char *joined(const char *a, const char *b, const char *c)
{
	struct buf p = BUF_INIT;
	buf_printf(&p, "%s/%s%s%s", a, b, c ? "/" : "", c ? c : "");
	return buf_detach(&p);
}

#define ENSURE(ptr) do { if (!(ptr)) (ptr) = xcalloc(1, sizeof *(ptr)); } while (0)
#define ONE(field) do { if (!(field)) (field) = 1; } while (0)

static void spec_apply_defaults(struct job_spec *j)
{
	ENSURE(j->parallel);
	ENSURE(j->model);
	ENSURE(j->training);
	ENSURE(j->batch);
	ENSURE(j->capacity);
	ENSURE(j->storage);
	ENSURE(j->paths);
	ONE(j->parallel->tensor);
	ONE(j->parallel->pipeline);
	ONE(j->parallel->virtual_stages);
	ONE(j->parallel->context);
	ONE(j->parallel->expert);
	ONE(j->batch->micro);
	struct spec_cluster *c = j->cluster;
	c->region = dup_or(c->region, "us-east-1");
	c->head_subnet = dup_or(c->head_subnet, c->subnet);
	c->head_node = dup_or(c->head_node, "c5.4xlarge");
	c->queue = dup_or(c->queue, "train");
	c->name = dup_or(c->name, j->name);
	if (c->bootstrap) { /* one form: no trailing slash (the schema allows none) */
		size_t n = strlen(c->bootstrap);
		while (n > 5 && c->bootstrap[n - 1] == '/')
			c->bootstrap[--n] = '\0';
	}
	/* c->os depends on the instance: the planner fills it in */
	struct spec_storage *s = j->storage;
	s->mount = dup_or(s->mount, "/fsx");
	if (!s->size_gib && !s->id)
		s->size_gib = s->type == ST_FSX_LUSTRE ? 1200 : 100;
	struct spec_paths *p = j->paths;
	if (!p->compile_cache)
		p->compile_cache = joined(s->mount, "neuron-cache", NULL);
	if (!p->checkpoints)
		p->checkpoints = joined(s->mount, "checkpoints", j->name);
	if (!p->logs)
		p->logs = joined(s->mount, "logs", j->name);
	struct spec_capacity *cap = j->capacity;
	if (!spec_mixed_fleet(j))
		return;
	if (!j->nodes)
		j->nodes = cap->reserved + cap->spot;
	if (!cap->max_restarts)
		cap->max_restarts = cap->spot;
	ENSURE(cap->watcher);
	struct spec_watcher *w = cap->watcher;
	w->imds_endpoint = dup_or(w->imds_endpoint, "http://169.254.169.254");
	if (!w->poll_seconds)
		w->poll_seconds = 5;
	/* Fetched from the bootstrap location, which the nodes only read;
	 * without one there is nowhere to fetch it from, and the planner
	 * says so (JS5014) rather than invent one. */
	if (!w->script_url && c->bootstrap) {
		struct buf u = BUF_INIT;
		buf_printf(&u, "%s/%s-spot-watcher.sh", c->bootstrap, j->name);
		w->script_url = buf_detach(&u);
	}
}

void spec_reserved_offer(const struct job_spec *j, enum price_term *term, struct price_offer *o)
{
	const struct spec_reserved_offer *r = j->capacity->reserved_offer;
	static const enum price_purchase purchase[] = {
		[SP_PURCHASE_DEFAULT] = PURCHASE_ANY, [SP_NO_UPFRONT] = PURCHASE_NO_UPFRONT,
		[SP_PARTIAL_UPFRONT] = PURCHASE_PARTIAL, [SP_ALL_UPFRONT] = PURCHASE_ALL,
	};
	static const enum price_class cls[] = {
		[SP_CLASS_DEFAULT] = CLASS_ANY, [SP_STANDARD] = CLASS_STANDARD,
		[SP_CONVERTIBLE] = CLASS_CONVERTIBLE, [SP_COMPUTE_SP] = CLASS_COMPUTE,
		[SP_EC2_INSTANCE_SP] = CLASS_EC2_INSTANCE,
	};
	*o = (struct price_offer){ 0 };
	*term = TERM_RESERVED;
	if (r == NULL)
		return;
	o->years = r->years;
	o->purchase = purchase[r->purchase];
	o->cls = cls[r->offer_class];
	if (r->offer_class == SP_COMPUTE_SP || r->offer_class == SP_EC2_INSTANCE_SP)
		*term = TERM_SAVINGS_PLAN;
}

bool spec_mixed_fleet(const struct job_spec *j)
{
	return j->capacity && j->capacity->reserved > 0 && j->capacity->spot > 0;
}

/* ---- loading --------------------------------------------------------- */

static struct diag *report_at(const struct spec *spec, struct diag_list *diags,
			      enum rule_id rule, yd_node at, const char *msg)
{
	struct yd_span s = yd_span(spec->doc, at);
	if (yd_kind(spec->doc, at) != YD_SCALAR && s.end_line > s.line) {
		s.end_line = s.line;
		s.end_col = s.col + 1;
	}
	struct diag *d = diag_add(diags, spec->src, rule, s.line, s.col, s.end_line,
				  s.end_col, "%s", msg);
	struct buf path = BUF_INIT;
	yd_path_json(spec->doc, at, &path);
	d->yaml_path = buf_detach(&path);
	return d;
}

static struct diag *report_va(const struct spec *spec, struct diag_list *diags,
			      enum rule_id rule, yd_node at, const char *fmt, va_list ap)
{
	struct buf msg = BUF_INIT;
	buf_vprintf(&msg, fmt, ap);
	struct diag *d = report_at(spec, diags, rule, at, msg.p);
	buf_free(&msg);
	return d;
}

/* The body of a rule's entry function: its message at the node. */
#define REPORT_AT(rule, at) do { \
	va_list ap; \
	va_start(ap, fmt); \
	struct diag *d_ = report_va(spec, diags, rule, at, fmt, ap); \
	va_end(ap); \
	return d_; \
} while (0)

/* JS0002 spec-unknown-key */
static struct diag *spec_unknown_key(const struct spec *spec, struct diag_list *diags,
				     yd_node at, const char *fmt, ...)
{
	REPORT_AT(R_JS0002, at);
}

/* JS0003 spec-wrong-type */
static struct diag *spec_wrong_type(const struct spec *spec, struct diag_list *diags,
				    yd_node at, const char *fmt, ...)
{
	REPORT_AT(R_JS0003, at);
}

/* JS0004 spec-missing-key */
struct diag *spec_missing_key(const struct spec *spec, struct diag_list *diags,
			      yd_node at, const char *fmt, ...)
{
	REPORT_AT(R_JS0004, at);
}

/* JS0005 spec-invalid-value */
struct diag *spec_invalid_value(const struct spec *spec, struct diag_list *diags,
				yd_node at, const char *fmt, ...)
{
	REPORT_AT(R_JS0005, at);
}

/* JS0006 spec-conflicting-keys */
struct diag *spec_conflicting_keys(const struct spec *spec, struct diag_list *diags,
				   yd_node at, const char *fmt, ...)
{
	REPORT_AT(R_JS0006, at);
}

typedef struct diag *spec_rule_fn(const struct spec *spec, struct diag_list *diags,
				  yd_node at, const char *fmt, ...);

static spec_rule_fn *const fault_rule[] = {
	[SF_UNKNOWN_KEY] = spec_unknown_key, [SF_TYPE] = spec_wrong_type,
	[SF_MISSING] = spec_missing_key, [SF_VALUE] = spec_invalid_value,
	[SF_CONFLICT] = spec_conflicting_keys, [SF_SINCE] = spec_invalid_value,
	[SF_KEY_SINCE] = spec_unknown_key, [SF_UNTIL] = spec_invalid_value,
	[SF_KEY_UNTIL] = spec_unknown_key, [SF_SCHEMA] = spec_invalid_value,
};

static bool check_schema(struct spec *spec, struct diag_list *diags)
{
	schema *s = schema_embedded("jobspec.schema.json");
	struct schema_errors errs = { 0 };
	/* the spec's values that become config values (cluster.os) carry
	 * the releases of the ParallelCluster that will read them */
	struct version pc = version_is_set(spec->target.pc) ? spec->target.pc : pc_newest();
	schema_validate_release(s, spec->doc, yd_root(spec->doc), pc, &errs);
	for (size_t i = 0; i < errs.len; i++) {
		struct diag *d = fault_rule[errs.v[i].fault](spec, diags, errs.v[i].pos, "%s",
							     errs.v[i].msg);
		if (errs.v[i].help)
			diag_set_help(d, "%s", errs.v[i].help);
	}
	bool ok = errs.len == 0;
	schema_errors_free(&errs);
	return ok;
}

/* The generated script must lint clean, and the linter rightly calls a
 * pasted U+2010 in a script an error (SB0004): refuse it here, at the
 * spec's own line, rather than write a file gen would then disown. */
static bool check_lookalikes(struct spec *spec, yd_node n, struct diag_list *diags)
{
	const yamldoc *doc = spec->doc;
	bool ok = true;
	if (yd_kind(doc, n) == YD_SCALAR) {
		size_t len, adv;
		const char *s = yd_str(doc, n, &len);
		for (size_t i = 0; s && i < len; i += adv) {
			int32_t cp = utf8_decode(s + i, len - i, &adv);
			const struct lookalike *l = cp >= 0x80 ? text_lookalike(cp) : NULL;
			if (!l)
				continue;
			struct diag *d = spec_invalid_value(spec, diags, n,
				"U+%04X (%s) looks like '%s' but is not ASCII; the script would carry it",
				(unsigned)cp, l->name, l->ascii);
			diag_set_help(d, "type '%s' instead", l->ascii);
			return false;
		}
		return true;
	}
	size_t count = yd_len(doc, n);
	for (size_t i = 0; i < count; i++) {
		if (yd_kind(doc, n) == YD_MAPPING)
			ok &= check_lookalikes(spec, yd_key(doc, n, i), diags) &
			      check_lookalikes(spec, yd_value(doc, n, i), diags);
		else
			ok &= check_lookalikes(spec, yd_item(doc, n, i), diags);
	}
	return ok;
}

bool spec_load(struct spec *spec, struct source *src, const yamldoc *doc,
	       struct diag_list *diags)
{
	struct target target = spec->target;
	memset(spec, 0, sizeof *spec);
	spec->doc = doc;
	spec->src = src;
	spec->target = target;
	if (!check_schema(spec, diags) || !check_lookalikes(spec, yd_root(doc), diags))
		return false;
	struct bind_log log = { BUF_INIT };
	struct job_spec *job = NULL;
	cyaml_err_t err = cyaml_load_data((const uint8_t *)src->text, src->len,
					  bind_config(&log), &job_schema,
					  (cyaml_data_t **)&job, NULL);
	if (err != CYAML_OK || !job) {
		diag_add(diags, src, R_JS0005, 1, 1, 1, 1,
			 "the job spec passed its schema but could not be bound (%s%s%s)",
			 cyaml_strerror(err), log.first.len ? ": " : "",
			 log.first.len ? log.first.p : "");
		buf_free(&log.first);
		return false;
	}
	buf_free(&log.first);
	spec_apply_defaults(job);
	/* An absent boolean binds as false; gated_ffn's default is true. */
	yd_node model = yd_get(doc, yd_root(doc), "model");
	job->model->gated_ffn_given = model && yd_get(doc, model, "gated_ffn");
	if (!job->model->gated_ffn_given)
		job->model->gated_ffn = true;
	yd_node cluster = yd_get(doc, yd_root(doc), "cluster");
	job->cluster->head_subnet_given = yd_get(doc, cluster, "head_subnet") != 0;
	yd_node software = yd_get(doc, yd_root(doc), "software");
	if (job->software) {
		job->software->neuron_script_extrapolated = yd_get(doc, software, "neuron_script") != 0;
		if (job->software->container)
			job->software->container->efa_given =
				yd_get(doc, yd_get(doc, software, "container"), "efa") != 0;
	}
	spec->job = job;
	return true;
}

void spec_free(struct spec *spec)
{
	struct bind_log log = { BUF_INIT };
	if (spec->job)
		cyaml_free(bind_config(&log), &job_schema, spec->job, 0);
	buf_free(&log.first);
	spec->job = NULL;
}

yd_node spec_node(const struct spec *spec, const char *path)
{
	yd_node at = yd_root(spec->doc), next;
	char seg[64];
	while (*path) {
		size_t n = strcspn(path, ".");
		snprintf(seg, sizeof seg, "%.*s", (int)n, path);
		next = yd_get(spec->doc, at, seg);
		if (!next)
			return yd_get_key(spec->doc, at, seg) ? yd_get_key(spec->doc, at, seg) : at;
		at = next;
		path += n + (path[n] == '.');
	}
	return at;
}

struct diag *spec_report(const struct spec *spec, struct diag_list *diags,
			 enum rule_id rule, const char *path, const char *fmt, ...)
{
	REPORT_AT(rule, spec_node(spec, path));
}

struct diag *spec_report_at(const struct spec *spec, struct diag_list *diags,
			    enum rule_id rule, yd_node at, const char *fmt, ...)
{
	REPORT_AT(rule, at);
}

static const char *const storage_names[] = {
	[ST_FSX_LUSTRE] = "fsx-lustre", [ST_EFS] = "efs", [ST_EBS] = "ebs",
};
static const char *const capacity_names[] = {
	[CAP_ONDEMAND] = "ondemand", [CAP_SPOT] = "spot",
	[CAP_CAPACITY_BLOCK] = "capacity-block", [CAP_RESERVATION] = "reservation",
};

const char *storage_name(enum storage s) { return storage_names[s]; }
const char *capacity_name(enum capacity c) { return capacity_names[c]; }

const char *recompute_name(enum recompute r)
{
	static const char *const names[] = {
		[RC_UNSET] = "unset", [RC_NONE] = "none", [RC_SELECTIVE] = "selective",
		[RC_FULL] = "full",
	};
	return names[r];
}

const char *deletion_policy_name(enum deletion_policy d)
{
	static const char *const names[] = {
		[DP_DEFAULT] = "default", [DP_RETAIN] = "Retain", [DP_DELETE] = "Delete",
		[DP_SNAPSHOT] = "Snapshot",
	};
	return names[d];
}

const char *spot_strategy_name(enum spot_strategy s)
{
	static const char *const names[] = {
		[SPOT_CAPACITY_OPTIMIZED] = "capacity-optimized",
		[SPOT_LOWEST_PRICE] = "lowest-price",
		[SPOT_PRICE_CAPACITY_OPTIMIZED] = "price-capacity-optimized",
	};
	return names[s];
}
