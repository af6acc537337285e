/* The --tco file: checked on the YAML document (every error with its
 * position), then bound to C structs with libcyaml. Like the settings
 * file, it configures the run: a problem in it stops the plan with a
 * message (exit 2), it is not a finding in a file being checked. */
#include "tco.h"

#include <cyaml/cyaml.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "fileio.h"
#include "schema.h"
#include "trouble.h"
#include "xalloc.h"
#include "yamldoc.h"

#define OPT CYAML_FLAG_OPTIONAL
#define NUM(key, type, member) CYAML_FIELD_FLOAT(key, OPT, type, member)
#define INT(key, type, member) CYAML_FIELD_INT(key, OPT, type, member)
#define STR(key, type, member) \
	CYAML_FIELD_STRING_PTR(key, CYAML_FLAG_POINTER | OPT, type, member, 0, CYAML_UNLIMITED)

static const cyaml_schema_field_t owned_fields[] = {
	STR("label", struct tco_owned, label),
	INT("servers", struct tco_owned, servers),
	STR("like_instance", struct tco_owned, like_instance),
	INT("accelerators_per_server", struct tco_owned, accelerators_per_server),
	NUM("purchase_usd_per_server", struct tco_owned, purchase_usd_per_server),
	INT("depreciation_years", struct tco_owned, depreciation_years),
	NUM("power_kw_per_server", struct tco_owned, power_kw_per_server),
	NUM("idle_power_kw_per_server", struct tco_owned, idle_power_kw_per_server),
	NUM("pue", struct tco_owned, pue),
	NUM("usd_per_kwh", struct tco_owned, usd_per_kwh),
	NUM("networking_storage_usd", struct tco_owned, networking_storage_usd),
	NUM("operations_usd_per_year", struct tco_owned, operations_usd_per_year),
	NUM("utilization", struct tco_owned, utilization),
	NUM("training_utilization", struct tco_owned, training_utilization),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t cloud_fields[] = {
	NUM("on_demand_usd_per_node_hour", struct tco_cloud, on_demand_usd_per_node_hour),
	NUM("reserved_discount", struct tco_cloud, reserved_discount),
	INT("reserved", struct tco_cloud, reserved),
	INT("spot", struct tco_cloud, spot),
	NUM("utilization", struct tco_cloud, utilization),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t tco_fields[] = {
	INT("trainforge_tco", struct tco_spec, trainforge_tco),
	INT("years", struct tco_spec, years),
	CYAML_FIELD_MAPPING_PTR("owned", CYAML_FLAG_POINTER, struct tco_spec, owned, owned_fields),
	CYAML_FIELD_MAPPING_PTR("cloud", CYAML_FLAG_POINTER | OPT, struct tco_spec, cloud, cloud_fields),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t tco_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct tco_spec, tco_fields),
};

static void bind_log(cyaml_log_t level, void *ctx, const char *fmt, va_list args)
{
	struct buf *first = ctx;
	if (level >= CYAML_LOG_ERROR && !first->len) {
		buf_vprintf(first, fmt, args);
		while (first->len && first->p[first->len - 1] == '\n')
			first->p[--first->len] = '\0';
	}
}

static const cyaml_config_t *bind_config(struct buf *log)
{
	static cyaml_config_t cfg;
	cfg = (cyaml_config_t){
		.log_fn = bind_log, .log_ctx = log, .mem_fn = cyaml_mem,
		.log_level = CYAML_LOG_WARNING, .flags = CYAML_CFG_DEFAULT,
	};
	return &cfg;
}

static void complain(struct trouble *t, const char *path, struct yd_span s, const char *msg,
		     const char *help)
{
	trouble_add(t, "%s:%u:%u: error: %s", path, s.line, s.col, msg);
	if (help)
		trouble_add(t, "    = help: %s", help);
}

/* .inf and .nan (which strtod does not read) and overflowing numbers are
 * YAML floats no cost can be: refused where they are
 * (the schema's bounds cannot say it). depth: the file is flat, and the
 * schema catches anything deeper than its two levels. */
static bool finite_numbers(const char *path, const yamldoc *doc, yd_node n, int depth, struct trouble *t)
{
	double v;
	if (yd_kind(doc, n) == YD_SCALAR) {
		if (yd_type(doc, n) != YD_T_FLOAT || (yd_number(doc, n, &v) && isfinite(v)))
			return true;
		complain(t, path, yd_span(doc, n), "not a finite number", NULL);
		return false;
	}
	if (yd_kind(doc, n) != YD_MAPPING || depth > 2)
		return true;
	bool ok = true;
	for (size_t i = 0; i < yd_len(doc, n); i++)
		ok &= finite_numbers(path, doc, yd_value(doc, n, i), depth + 1, t);
	return ok;
}

/* Keys an older file has that are now the job spec's: the spot price
 * and the interruption rate are one assumption, read by the plan's bill
 * and by the comparison from the spec (docs/plan.md, "Owned against
 * cloud"), so a TCO file that repeats them is refused by name rather
 * than as an unknown key. */
static const struct { const char *key, *instead; } moved[] = {
	{ "spot_discount", "capacity.spot_discount (or capacity.prices.spot)" },
	{ "spot_usd_per_node_hour", "capacity.prices.spot" },
	{ "spot_interruption_rate", "capacity.spot_interruption_rate" },
};

static bool no_moved_keys(const char *path, const yamldoc *doc, struct trouble *t)
{
	yd_node cloud = yd_kind(doc, yd_root(doc)) == YD_MAPPING ? yd_get(doc, yd_root(doc), "cloud") : 0;
	bool ok = true;
	for (size_t i = 0; cloud && yd_kind(doc, cloud) == YD_MAPPING && i < sizeof moved / sizeof moved[0]; i++) {
		yd_node k = yd_get_key(doc, cloud, moved[i].key);
		if (!k)
			continue;
		char msg[200], help[240];
		snprintf(msg, sizeof msg, "cloud.%s is no longer read from the TCO file", moved[i].key);
		snprintf(help, sizeof help,
			 "spot is the job spec's alone: give %s in the spec this file is run with, and delete it here",
			 moved[i].instead);
		complain(t, path, yd_span(doc, k), msg, help);
		ok = false;
	}
	return ok;
}

/* The YAML's own problems, then the schema's; true when there is none. */
static bool check(const char *path, const yamldoc *doc, struct trouble *t)
{
	size_t issues = yamldoc_issue_count(doc);
	for (size_t i = 0; i < issues; i++) {
		const struct yd_issue *is = yamldoc_issue(doc, i);
		complain(t, path, is->span, is->msg, NULL);
	}
	if (issues)
		return false;
	if (!yd_root(doc)) {
		complain(t, path, (struct yd_span){ 1, 1, 1, 2 }, "the file is empty", NULL);
		return false;
	}
	if (!finite_numbers(path, doc, yd_root(doc), 0, t) || !no_moved_keys(path, doc, t))
		return false;
	schema *s = schema_embedded("tco.schema.json");
	struct schema_errors errs = { 0 };
	schema_validate(s, doc, yd_root(doc), &errs);
	for (size_t i = 0; i < errs.len; i++)
		complain(t, path, yd_span(doc, errs.v[i].pos), errs.v[i].msg, errs.v[i].help);
	bool ok = errs.len == 0;
	schema_errors_free(&errs);
	return ok;
}

struct tco_spec *tco_parse(const char *path, const char *text, size_t len, struct trouble *t)
{
	yamldoc *doc = yamldoc_parse(text, len, NULL);
	struct tco_spec *spec = NULL;
	if (!check(path, doc, t)) {
		yamldoc_free(doc);
		return NULL;
	}
	struct buf log = BUF_INIT;
	cyaml_err_t err = cyaml_load_data((const uint8_t *)text, len, bind_config(&log), &tco_schema,
					  (cyaml_data_t **)&spec, NULL);
	if (err != CYAML_OK || !spec) {
		trouble_add(t, "%s:1:1: error: the file passed its schema but could not be bound (%s%s%s)", path,
			    cyaml_strerror(err), log.len ? ": " : "", log.len ? log.p : "");
		buf_free(&log);
		yamldoc_free(doc);
		return NULL;
	}
	buf_free(&log);
	yd_node owned = yd_get(doc, yd_root(doc), "owned");
	spec->owned->idle_given = yd_get(doc, owned, "idle_power_kw_per_server") != 0;
	if (!spec->cloud)
		spec->cloud = xcalloc(1, sizeof *spec->cloud);
	spec->path = xstrdup(path);
	yamldoc_free(doc);
	return spec;
}

struct tco_spec *tco_load(const char *path, struct trouble *t)
{
	size_t len;
	bool too_big;
	struct stat st;
	/* a FIFO or a device would block or never end */
	if (strcmp(path, "-") && stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		trouble_add(t, "trainforge: %s: not a regular file", path);
		return NULL;
	}
	char *text = file_read(path, TCO_MAX_BYTES, &len, &too_big);
	if (!text) {
		trouble_add(t, "trainforge: %s: %s", path, strerror(errno ? errno : EIO));
		return NULL;
	}
	if (too_big) {
		trouble_add(t, "trainforge: %s: larger than %u bytes, too large for a cost inputs file", path,
			    TCO_MAX_BYTES);
		free(text);
		return NULL;
	}
	struct tco_spec *spec = tco_parse(path, text, len, t);
	free(text);
	return spec;
}

void tco_free(struct tco_spec *spec)
{
	if (!spec)
		return;
	struct buf log = BUF_INIT;
	char *path = spec->path;
	/* cyaml allocated it all but the cloud default and the path */
	cyaml_free(bind_config(&log), &tco_schema, spec, 0);
	free(path);
	buf_free(&log);
}
