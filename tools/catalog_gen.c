/* catalog_gen: build-time host program.
 *
 *   catalog_gen schemas/instances.yaml [schemas/ec2-types.tsv] > build/catalog_data.c
 *
 * Loads the instance catalog with libcyaml (strict enums, unknown keys
 * rejected) and the table of every EC2 type (tools/ec2_types.py writes
 * it), merges them (a hand-checked figure of the YAML wins, and one that
 * contradicts the table is an error), applies the accelerator facts of
 * the YAML to every type with that accelerator, checks the result
 * (names, numbers, sources, consistency), prints every problem as
 * "file:line: error: message" and exits 1; otherwise prints the tables
 * that core/facts/catalog.c searches, sorted by name, without pointers
 * (core/facts/catalog_table.h says why).
 * Output depends only on the input, so builds are reproducible.
 *
 * libcyaml 1.3.1 reports positions only for some errors and accepts
 * "12abc" as 12, so numbers are loaded as strings and checked here, and a
 * libyaml event pass first records the line of every key (and catches
 * syntax errors, duplicate keys and aliases with exact positions). */
#include <cyaml/cyaml.h>
#include <yaml.h>

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/facts/catalog.h"
#include "../core/facts/catalog_table.h"

#define MAX_INPUT (4u << 20) /* bytes; the real catalog is ~60 KB, the EC2 table ~110 KB */
#define MAX_DEPTH 16
#define PATH_MAX_LEN 256

static char *read_file(const char *path, size_t *len);
static _Noreturn void die_oom(void);
static void *xrealloc_or_die(void *p, size_t n);

/* ------------------------------------------------ key positions ---- */

struct pos {
	char *path; /* "instances[3].price.source" */
	unsigned line;
};

struct ctx {
	const char *file;
	const char *at_file; /* when set, errors are about this line of that file (the EC2 table) */
	unsigned at_line;
	struct pos *pos;
	size_t npos, cappos;
	unsigned errors;
};

static _Noreturn void die_oom(void)
{
	fputs("catalog_gen: out of memory\n", stderr);
	exit(2);
}

static void *xrealloc_or_die(void *p, size_t n)
{
	void *q = realloc(p, n);

	if (q == NULL)
		die_oom();
	return q;
}

static void pos_add(struct ctx *c, const char *path, unsigned line)
{
	size_t n = strlen(path) + 1;

	if (c->npos == c->cappos) {
		c->cappos = c->cappos ? 2 * c->cappos : 256;
		c->pos = xrealloc_or_die(c->pos, c->cappos * sizeof *c->pos);
	}
	c->pos[c->npos].path = memcpy(xrealloc_or_die(NULL, n), path, n);
	c->pos[c->npos++].line = line;
}

static const struct pos *pos_find(const struct ctx *c, const char *path)
{
	for (size_t i = 0; i < c->npos; i++)
		if (strcmp(c->pos[i].path, path) == 0)
			return &c->pos[i];
	return NULL;
}

/* Line of path, or of its nearest recorded ancestor ("a[1].b" -> "a[1]"
 * -> "a"), or 1: a missing key is reported where its parent is. */
static unsigned line_of(const struct ctx *c, const char *path)
{
	char buf[PATH_MAX_LEN];
	size_t n = strlen(path);

	if (n >= sizeof buf)
		n = sizeof buf - 1;
	memcpy(buf, path, n);
	buf[n] = '\0';
	for (;;) {
		const struct pos *p = pos_find(c, buf);
		char *dot, *bracket;
		if (p != NULL)
			return p->line;
		dot = strrchr(buf, '.');
		bracket = strrchr(buf, '[');
		if (dot == NULL && bracket == NULL)
			return 1;
		if (dot == NULL || (bracket != NULL && bracket > dot))
			dot = bracket;
		*dot = '\0';
	}
}

static void verr(struct ctx *c, unsigned line, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s:%u: error: ", c->at_file ? c->at_file : c->file, line);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	c->errors++;
}

static void err_line(struct ctx *c, unsigned line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(c, line, fmt, ap);
	va_end(ap);
}

static void err_at(struct ctx *c, const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(c, c->at_file ? c->at_line : line_of(c, path), fmt, ap);
	va_end(ap);
}

struct frame {
	bool is_map, want_key;
	size_t base; /* path length when the frame was entered */
	unsigned index;
};

struct scan {
	struct ctx *c;
	struct frame stack[MAX_DEPTH];
	size_t depth;
	char path[PATH_MAX_LEN];
};

/* Sets the path to its first base bytes plus a formatted tail. */
static bool path_set(struct scan *s, size_t base, unsigned line, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(s->path + base, sizeof s->path - base, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof s->path - base) {
		err_line(s->c, line, "key path too long");
		return false;
	}
	return true;
}

/* A scalar, mapping or sequence: a key, a value, or a sequence entry. */
static bool scan_node(struct scan *s, const yaml_event_t *ev, unsigned line)
{
	struct frame *top = s->depth > 0 ? &s->stack[s->depth - 1] : NULL;
	size_t base = top != NULL ? top->base : 0;

	if (top != NULL && top->is_map && top->want_key) {
		const char *key = (const char *)ev->data.scalar.value;
		const struct pos *first;
		if (ev->type != YAML_SCALAR_EVENT) {
			err_line(s->c, line, "a mapping key must be a plain word");
			return false;
		}
		if (!path_set(s, base, line, "%s%s", base > 0 ? "." : "", key))
			return false;
		if ((first = pos_find(s->c, s->path)) != NULL) {
			err_line(s->c, line, "duplicate key '%s' (first at line %u)", key, first->line);
			return false;
		}
		pos_add(s->c, s->path, line);
		top->want_key = false;
		return true;
	}
	if (top != NULL && !top->is_map) {
		if (!path_set(s, base, line, "[%u]", top->index++))
			return false;
		pos_add(s->c, s->path, line);
	} else if (top != NULL) { /* a value: nested ones hand back at their end */
		top->want_key = ev->type == YAML_SCALAR_EVENT;
	}
	if (ev->type == YAML_SCALAR_EVENT)
		return true;
	if (s->depth == MAX_DEPTH) {
		err_line(s->c, line, "nesting deeper than %d levels", MAX_DEPTH);
		return false;
	}
	s->stack[s->depth++] = (struct frame){
		.is_map = ev->type == YAML_MAPPING_START_EVENT,
		.want_key = true,
		.base = strlen(s->path),
	};
	return true;
}

static void syntax_error(struct ctx *c, const yaml_parser_t *parser,
			 const char *text, size_t len)
{
	unsigned at = (unsigned)parser->problem_mark.line + 1;

	/* The reader (bad UTF-8) reports a byte offset, no mark. */
	if (parser->error == YAML_READER_ERROR) {
		at = 1;
		for (size_t i = 0; i < parser->problem_offset && i < len; i++)
			at += text[i] == '\n';
	}
	err_line(c, at, "YAML syntax: %s", parser->problem ? parser->problem : "parse error");
}

/* Records "path -> line" for every key and sequence entry. Returns false
 * after reporting a syntax error, alias, duplicate key or depth bomb. */
static bool scan_positions(struct ctx *c, const char *text, size_t len)
{
	struct scan s = { .c = c };
	yaml_parser_t parser;
	yaml_event_t ev;
	unsigned docs = 0;
	bool ok = true, done = false;

	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	while (ok && !done) {
		unsigned line;

		if (!yaml_parser_parse(&parser, &ev)) {
			syntax_error(c, &parser, text, len);
			ok = false;
			break;
		}
		line = (unsigned)ev.start_mark.line + 1;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1) {
				err_line(c, line, "more than one YAML document");
				ok = false;
			}
			break;
		case YAML_ALIAS_EVENT:
			err_line(c, line, "aliases are not allowed in the catalog; write the value out");
			ok = false;
			break;
		case YAML_MAPPING_END_EVENT:
		case YAML_SEQUENCE_END_EVENT:
			if (--s.depth > 0 && s.stack[s.depth - 1].is_map)
				s.stack[s.depth - 1].want_key = true;
			break;
		case YAML_SCALAR_EVENT:
		case YAML_MAPPING_START_EVENT:
		case YAML_SEQUENCE_START_EVENT:
			ok = scan_node(&s, &ev, line);
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	if (ok && docs == 0) {
		err_line(c, 1, "the catalog is empty");
		ok = false;
	}
	return ok;
}

/* ------------------------------------------------ loaded shapes ---- */

/* Enum value 0 is "absent" so that an optional key left out reads as
 * unknown; the YAML spellings start at 1. */
enum { ACC_UNSET, ACC_NONE, ACC_NVIDIA, ACC_TRN, ACC_TRN2, ACC_INF2, ACC_TRN3, ACC_INF1,
       ACC_AMD, ACC_OTHER };
enum { TRI_UNSET, TRI_N, TRI_Y };
enum { ARCH_UNSET, ARCH_X86_64, ARCH_ARM64 };
enum { KIND_UNSET, KIND_AWS_DOC, KIND_API_DERIVED, KIND_THIRD_PARTY, KIND_VENDOR_DOC };

static const cyaml_strval_t accel_strings[] = {
	{ "none", ACC_NONE }, { "nvidia-gpu", ACC_NVIDIA },
	{ "trainium", ACC_TRN }, { "trainium2", ACC_TRN2 },
	{ "inferentia2", ACC_INF2 }, { "trainium3", ACC_TRN3 },
	{ "inferentia", ACC_INF1 }, { "amd-gpu", ACC_AMD }, { "other", ACC_OTHER },
};
static const cyaml_strval_t tri_strings[] = { { "no", TRI_N }, { "yes", TRI_Y } };
static const cyaml_strval_t arch_strings[] = {
	{ "x86_64", ARCH_X86_64 }, { "arm64", ARCH_ARM64 },
};
static const cyaml_strval_t kind_strings[] = {
	{ "aws-doc", KIND_AWS_DOC }, { "aws-api-derived", KIND_API_DERIVED },
	{ "third-party", KIND_THIRD_PARTY }, { "vendor-doc", KIND_VENDOR_DOC },
};

struct source {
	char *id, *title, *location, *date, *note;
	int kind;
	bool used;
};

struct ref {
	char *ref;
	char **fields;
	unsigned fields_count;
	char *derived; /* how the fields were computed from the source, or NULL */
};

struct price {
	char *usd_per_hour, *region, *source, *date;
};

/* Numbers are strings here: see the header comment. */
struct inst {
	char *name, *accel_model, *notes;
	char *provisional; /* why AWS has not confirmed the entry, or NULL */
	char *accel_count, *neuron_cores_physical, *neuron_cores_logical;
	char *lnc_default, *accel_memory_gib, *vcpus, *memory_mib;
	char *max_efa_interfaces, *gpu_memory_mib, *efa_gbps, *network_mbps;
	char *accel_peak_bf16_tflops; /* a decimal, not a count */
	unsigned tsv_line;            /* the entry's row of the EC2 table, 0 if none */
	bool refs_owned;              /* sources is a copy this program may change */
	int accel, arch, efa, efa_device_rdma, gpudirect_rdma;
	struct price *price, *price_spot, *price_reserved;
	struct price *capacity_block; /* per region and date */
	unsigned capacity_block_count;
	struct ref *sources;
	unsigned sources_count;
};

/* Facts of one accelerator model, which every type with it shares: its
 * peak, its memory (one chip), its default Logical NeuronCore Config. */
struct accel_facts {
	char *model, *peak_bf16_tflops, *memory_gib, *lnc_default, *notes;
	struct ref *sources;
	unsigned sources_count;
};

struct doc {
	char *version;
	struct source *sources;
	unsigned sources_count;
	struct accel_facts *accelerators;
	unsigned accelerators_count;
	struct inst *instances;
	unsigned instances_count;
};

#define OPT (CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER)
#define STR(key, st, m, max) CYAML_FIELD_STRING_PTR(key, OPT, st, m, 0, max)
#define ENUM(key, st, m, tab) \
	CYAML_FIELD_ENUM(key, CYAML_FLAG_OPTIONAL | CYAML_FLAG_STRICT, st, m, \
			 tab, sizeof tab / sizeof tab[0])

static const cyaml_schema_field_t source_fields[] = {
	STR("id", struct source, id, 64),
	ENUM("kind", struct source, kind, kind_strings),
	STR("title", struct source, title, 512),
	STR("location", struct source, location, 512),
	STR("date", struct source, date, 32),
	STR("note", struct source, note, 1024),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t source_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct source, source_fields),
};
static const cyaml_schema_value_t field_name_schema = {
	CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, 64),
};
static const cyaml_schema_field_t ref_fields[] = {
	STR("ref", struct ref, ref, 64),
	CYAML_FIELD_SEQUENCE("fields", OPT, struct ref, fields,
			     &field_name_schema, 0, 32),
	STR("derived", struct ref, derived, 1024),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t ref_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct ref, ref_fields),
};
static const cyaml_schema_field_t price_fields[] = {
	STR("usd_per_hour", struct price, usd_per_hour, 32),
	STR("region", struct price, region, 32),
	STR("source", struct price, source, 64),
	STR("date", struct price, date, 32),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t price_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct price, price_fields),
};
static const cyaml_schema_field_t inst_fields[] = {
	STR("name", struct inst, name, 64),
	ENUM("accel", struct inst, accel, accel_strings),
	STR("accel_model", struct inst, accel_model, 64),
	STR("accel_count", struct inst, accel_count, 16),
	STR("neuron_cores_physical", struct inst, neuron_cores_physical, 16),
	STR("neuron_cores_logical", struct inst, neuron_cores_logical, 16),
	STR("lnc_default", struct inst, lnc_default, 16),
	STR("accel_memory_gib", struct inst, accel_memory_gib, 16),
	STR("gpu_memory_mib", struct inst, gpu_memory_mib, 16),
	STR("accel_peak_bf16_tflops", struct inst, accel_peak_bf16_tflops, 16),
	STR("vcpus", struct inst, vcpus, 16),
	STR("memory_mib", struct inst, memory_mib, 16),
	ENUM("arch", struct inst, arch, arch_strings),
	ENUM("efa", struct inst, efa, tri_strings),
	STR("max_efa_interfaces", struct inst, max_efa_interfaces, 16),
	STR("efa_gbps", struct inst, efa_gbps, 16),
	STR("network_mbps", struct inst, network_mbps, 16),
	ENUM("efa_device_rdma", struct inst, efa_device_rdma, tri_strings),
	ENUM("gpudirect_rdma", struct inst, gpudirect_rdma, tri_strings),
	CYAML_FIELD_MAPPING_PTR("price", OPT, struct inst, price, price_fields),
	CYAML_FIELD_MAPPING_PTR("price_spot", OPT, struct inst, price_spot, price_fields),
	CYAML_FIELD_MAPPING_PTR("price_reserved", OPT, struct inst, price_reserved, price_fields),
	CYAML_FIELD_SEQUENCE("capacity_block", OPT, struct inst, capacity_block, &price_schema,
			     0, 128),
	CYAML_FIELD_SEQUENCE("sources", OPT, struct inst, sources, &ref_schema,
			     0, 64),
	STR("notes", struct inst, notes, 2048),
	STR("provisional", struct inst, provisional, 1024),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t inst_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct inst, inst_fields),
};
static const cyaml_schema_field_t accel_fields[] = {
	STR("model", struct accel_facts, model, 64),
	STR("peak_bf16_tflops", struct accel_facts, peak_bf16_tflops, 16),
	STR("memory_gib", struct accel_facts, memory_gib, 16),
	STR("lnc_default", struct accel_facts, lnc_default, 16),
	CYAML_FIELD_SEQUENCE("sources", OPT, struct accel_facts, sources, &ref_schema, 0, 16),
	STR("notes", struct accel_facts, notes, 2048),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t accel_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct accel_facts, accel_fields),
};
static const cyaml_schema_field_t doc_fields[] = {
	STR("version", struct doc, version, 16),
	CYAML_FIELD_SEQUENCE("sources", OPT, struct doc, sources, &source_schema,
			     0, 1024),
	CYAML_FIELD_SEQUENCE("accelerators", OPT, struct doc, accelerators, &accel_schema,
			     0, 256),
	CYAML_FIELD_SEQUENCE("instances", OPT, struct doc, instances,
			     &inst_schema, 0, 8192),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t doc_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct doc, doc_fields),
};

/* ------------------------------------- libcyaml errors, translated ---- */

/* libcyaml logs one line per call: the message, then "Backtrace:" and
 * frames innermost first. We keep the message and the path the frames
 * spell, and report it at the line our own scan recorded. */
struct cylog {
	char msg[512];
	char frames[MAX_DEPTH][96]; /* innermost first */
	unsigned frame_line[MAX_DEPTH];
	size_t nframes;
	bool have_msg;
};

static void cylog_fn(cyaml_log_t level, void *vctx, const char *fmt, va_list args)
{
	struct cylog *lg = vctx;
	char line[512], name[80];
	unsigned idx, ln, col;
	const char *p;
	size_t n;

	if (level < CYAML_LOG_ERROR)
		return;
	vsnprintf(line, sizeof line, fmt, args);
	n = strlen(line);
	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == ' '))
		line[--n] = '\0';
	p = strncmp(line, "Load: ", 6) == 0 ? line + 6 : line;
	if (!lg->have_msg) {
		snprintf(lg->msg, sizeof lg->msg, "%s", p);
		lg->have_msg = true;
		return;
	}
	if (lg->nframes == MAX_DEPTH)
		return;
	if (sscanf(line, " in mapping field '%79[^']' (line: %u, column: %u)",
		   name, &ln, &col) == 3) {
		snprintf(lg->frames[lg->nframes], sizeof lg->frames[0], ".%s", name);
	} else if (sscanf(line, " in sequence entry '%u' (line: %u, column: %u)",
			  &idx, &ln, &col) == 3 && idx > 0) {
		snprintf(lg->frames[lg->nframes], sizeof lg->frames[0], "[%u]", idx - 1);
	} else if (sscanf(line, " in mapping (line: %u, column: %u)", &ln, &col) == 2) {
		lg->frames[lg->nframes][0] = '\0';
	} else {
		return; /* "Backtrace:" itself */
	}
	lg->frame_line[lg->nframes++] = ln;
}

static void report_cyaml(struct ctx *c, const struct cylog *lg, cyaml_err_t rc)
{
	char path[PATH_MAX_LEN] = "", full[PATH_MAX_LEN + 80], want[16], got[24];
	const struct pos *at;
	const char *field;
	unsigned max, line = lg->nframes > 0 ? lg->frame_line[0] : 1;

	for (size_t i = lg->nframes; i-- > 0;)
		strncat(path, lg->frames[i], sizeof path - strlen(path) - 1);
	if (path[0] == '.')
		memmove(path, path + 1, strlen(path));
	field = strrchr(path, '.') != NULL ? strrchr(path, '.') + 1 : path;
	if (lg->have_msg && strncmp(lg->msg, "Unexpected key: ", 16) == 0) {
		/* libcyaml points at the previous value; our scan knows the key. */
		const char *key = lg->msg + 16;
		snprintf(full, sizeof full, "%s%s%s", path, path[0] ? "." : "", key);
		at = pos_find(c, full);
		err_line(c, at != NULL ? at->line : line, "unknown key '%s'%s%s", key,
			 path[0] ? " in " : "", path);
		return;
	}
	at = pos_find(c, path);
	if (at != NULL)
		line = at->line;
	if (!lg->have_msg) {
		err_line(c, line, "%s", cyaml_strerror(rc));
	} else if (strncmp(lg->msg, "Invalid ENUM value: ", 20) == 0) {
		const char *expect =
			strcmp(field, "accel") == 0 ? "none, nvidia-gpu, trainium, trainium2, inferentia2, trainium3, inferentia, amd-gpu, other" :
			strcmp(field, "arch") == 0 ? "x86_64, arm64" :
			strcmp(field, "kind") == 0 ? "aws-doc, aws-api-derived, vendor-doc, third-party" :
			"yes, no";
		err_line(c, line, "invalid value '%s' for '%s' (expected one of: %s)",
			 lg->msg + 20, field, expect);
	} else if (sscanf(lg->msg, "STRING length > %u:", &max) == 1) {
		err_line(c, line, "'%s' is longer than %u bytes", field, max);
	} else if (sscanf(lg->msg, "Expecting %15[A-Z], got event: %23[A-Z_]", want, got) == 2) {
		for (char *q = want; *q != '\0'; q++)
			*q = (char)(*q - 'A' + 'a');
		err_line(c, line, "expected a %s here, found %s%s%s", want,
			 strncmp(got, "SCALAR", 6) == 0 ? "a plain value" :
			 strncmp(got, "MAPPING", 7) == 0 ? "a mapping" : "a sequence",
			 path[0] ? " at " : "", path);
	} else {
		err_line(c, line, "%s%s%s", lg->msg, path[0] ? " in " : "", path);
	}
}

/* ---------------------------------------------------- validation ---- */

/* The figures are catalog.h's enum catalog_fig, so that the run time
 * names the DERIVED ones exactly as this file does. */

/* The string behind a numeric figure, NULL for the others. */
static const char *fig_number(const struct inst *in, int f)
{
	switch (f) {
	case CATALOG_FIG_ACCEL_COUNT: return in->accel_count;
	case CATALOG_FIG_NC_PHYS:     return in->neuron_cores_physical;
	case CATALOG_FIG_NC_LOG:      return in->neuron_cores_logical;
	case CATALOG_FIG_LNC:         return in->lnc_default;
	case CATALOG_FIG_ACCEL_MEM:   return in->accel_memory_gib;
	case CATALOG_FIG_VCPUS:       return in->vcpus;
	case CATALOG_FIG_MEM:         return in->memory_mib;
	case CATALOG_FIG_MAX_EFA:     return in->max_efa_interfaces;
	case CATALOG_FIG_GPU_MEM:     return in->gpu_memory_mib;
	case CATALOG_FIG_EFA_GBPS:    return in->efa_gbps;
	case CATALOG_FIG_NET:         return in->network_mbps;
	default:                      return NULL;
	}
}

static bool fig_present(const struct inst *in, int f)
{
	switch (f) {
	case CATALOG_FIG_ACCEL:       return in->accel != ACC_UNSET;
	case CATALOG_FIG_ACCEL_MODEL: return in->accel_model != NULL;
	case CATALOG_FIG_ARCH:        return in->arch != ARCH_UNSET;
	case CATALOG_FIG_EFA:         return in->efa != TRI_UNSET;
	case CATALOG_FIG_EFA_RDMA:    return in->efa_device_rdma != TRI_UNSET;
	case CATALOG_FIG_GDR:         return in->gpudirect_rdma != TRI_UNSET;
	case CATALOG_FIG_PEAK:        return in->accel_peak_bf16_tflops != NULL;
	case CATALOG_FIG_NAME:        return in->name != NULL;
	default:                      return fig_number(in, f) != NULL;
	}
}

/* Whole number, digits only: no sign, no leading zero, no "12abc", no
 * "0x10" (libcyaml 1.3.1 would take all of those). */
static bool parse_count(const char *s, int *out)
{
	size_t n = strlen(s);
	int v = 0;

	if (n == 0 || n > 9 || (s[0] == '0' && n > 1))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return true;
}

/* digits[.digits], at most 6 decimals, above zero. The text is emitted
 * as written, so the table holds exactly the price the source gives. */
static bool valid_price(const char *s)
{
	size_t i = 0, frac = 0;
	bool nonzero = false;

	if (s[0] == '0' && s[1] != '.' && s[1] != '\0')
		return false;
	for (; s[i] >= '0' && s[i] <= '9'; i++)
		nonzero |= s[i] != '0';
	if (i == 0 || i > 7)
		return false;
	if (s[i] == '.') {
		for (i++; s[i] >= '0' && s[i] <= '9'; i++, frac++)
			nonzero |= s[i] != '0';
		if (frac == 0 || frac > 6)
			return false;
	}
	return s[i] == '\0' && nonzero;
}

static bool valid_date(const char *s)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, m, d;

	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return false;
	for (int i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
			return false;
	y = atoi(s);
	m = atoi(s + 5);
	d = atoi(s + 8);
	if (y < 2000 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
		return false;
	return !(m == 2 && d == 29 && (y % 4 != 0 || (y % 100 == 0 && y % 400 != 0)));
}

/* us-east-1, ap-southeast-5, us-gov-west-1 */
static bool valid_region(const char *s)
{
	size_t i = 0, parts = 0;

	while (s[i] != '\0') {
		size_t start = i;
		while (s[i] >= 'a' && s[i] <= 'z')
			i++;
		if (i == start)
			break;
		parts++;
		if (s[i] != '-')
			return false;
		i++;
	}
	if (parts < 2 || s[i] < '1' || s[i] > '9')
		return false;
	while (s[i] >= '0' && s[i] <= '9')
		i++;
	return s[i] == '\0';
}

static bool valid_id(const char *s)
{
	if (s[0] == '\0' || s[0] == '-')
		return false;
	for (size_t i = 0; s[i] != '\0'; i++) {
		bool ok = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
			  (s[i] == '-' && s[i + 1] != '-' && s[i + 1] != '\0');
		if (!ok)
			return false;
	}
	return true;
}

static bool is_hex_commit(const char *s, size_t n)
{
	if (n != 40)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* The ref segment of a repository file URL: github.com/O/R/blob|tree|raw/REF/...
 * or raw.githubusercontent.com/O/R/REF/...; NULL for any other URL. */
static const char *repo_ref(const char *url, size_t *len)
{
	static const char *const views[] = { "/blob/", "/tree/", "/raw/" };
	const char *p = NULL;

	if (strncmp(url, "https://github.com/", 19) == 0) {
		const char *owner_end = strchr(url + 19, '/');
		const char *repo_end = owner_end ? strchr(owner_end + 1, '/') : NULL;
		for (size_t i = 0; repo_end && !p && i < sizeof views / sizeof views[0]; i++)
			if (strncmp(repo_end, views[i], strlen(views[i])) == 0)
				p = repo_end + strlen(views[i]);
	} else if (strncmp(url, "https://raw.githubusercontent.com/", 34) == 0) {
		const char *owner_end = strchr(url + 34, '/');
		const char *repo_end = owner_end ? strchr(owner_end + 1, '/') : NULL;
		p = repo_end ? repo_end + 1 : NULL;
	}
	if (p == NULL)
		return NULL;
	*len = strcspn(p, "/#?");
	return p;
}

/* Every citation is one a user can open: an https:// URL, and a file of
 * a repository pinned to the commit that was read (a branch moves, and
 * a note that is not shipped, such as research/..., opens nothing).
 * NULL when the location is fine, else what is wrong with it. */
static const char *location_problem(const char *s)
{
	const char *ref;
	size_t n;

	if (strncmp(s, "https://", 8) != 0 || s[8] == '\0' || s[8] == '/')
		return "needs a location anyone can open: an https:// URL (a local path such as research/... is not shipped)";
	for (size_t i = 0; s[i] != '\0'; i++)
		if ((unsigned char)s[i] <= ' ' || s[i] == 0x7f)
			return "has a location with spaces or control characters";
	ref = repo_ref(s, &n);
	if (ref != NULL && !is_hex_commit(ref, n))
		return "cites a repository file at a branch or tag: pin it to the 40-digit commit that was read";
	return NULL;
}

static bool has_control(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < ' ' || *s == 0x7f)
			return true;
	return false;
}

static bool has_control_but_tab(const char *s)
{
	for (; *s != '\0'; s++)
		if (((unsigned char)*s < ' ' && *s != '\t') || *s == 0x7f)
			return true;
	return false;
}

/* Index of the source with this id, -1 if none. */
static long source_index(const struct doc *d, const char *id)
{
	for (unsigned i = 0; i < d->sources_count; i++)
		if (d->sources[i].id != NULL && strcmp(d->sources[i].id, id) == 0)
			return (long)i;
	return -1;
}

/* Looks id up for an entry and marks the source used. */
static bool use_source(struct doc *d, const char *id)
{
	long k = source_index(d, id);

	if (k >= 0)
		d->sources[k].used = true;
	return k >= 0;
}

/* What the table gets: -1 for unknown, derived facts filled in. */
struct resolved {
	int num[CATALOG_FIG__COUNT];
	int efa, rdma, gdr; /* TRI_UNSET / TRI_N / TRI_Y */
};

static void check_sources(struct ctx *c, struct doc *d)
{
	for (unsigned i = 0; i < d->sources_count; i++) {
		struct source *s = &d->sources[i];
		const char *problem;
		char p[64];

		snprintf(p, sizeof p, "sources[%u]", i);
		if (s->id == NULL || !valid_id(s->id)) {
			err_at(c, p, "source needs an id of lower-case letters, digits and single dashes");
			continue;
		}
		for (unsigned j = 0; j < i; j++)
			if (d->sources[j].id != NULL && strcmp(d->sources[j].id, s->id) == 0)
				err_at(c, p, "duplicate source id '%s'", s->id);
		if (s->kind == KIND_UNSET)
			err_at(c, p, "source '%s' has no kind (aws-doc, aws-api-derived, vendor-doc, third-party)", s->id);
		if (s->title == NULL || s->title[0] == '\0' || has_control(s->title))
			err_at(c, p, "source '%s' needs a one-line title", s->id);
		if (s->location == NULL)
			err_at(c, p, "source '%s' needs a location: an https:// URL anyone can open", s->id);
		else if ((problem = location_problem(s->location)) != NULL)
			err_at(c, p, "source '%s' %s", s->id, problem);
		if (s->date == NULL || !valid_date(s->date))
			err_at(c, p, "source '%s' needs a date as YYYY-MM-DD", s->id);
		if (s->note != NULL && has_control(s->note))
			err_at(c, p, "source '%s' note has control characters", s->id);
	}
}

static void check_price(struct ctx *c, struct doc *d, const struct price *pr,
			const char *p, const char *key, const char *label)
{
	char pp[PATH_MAX_LEN];

	snprintf(pp, sizeof pp, "%s.%s", p, key);
	if (pr->usd_per_hour == NULL)
		err_at(c, pp, "%s: price has no usd_per_hour", label);
	else if (!valid_price(pr->usd_per_hour))
		err_at(c, pp, "%s: price '%s' is not a positive decimal like 21.50", label, pr->usd_per_hour);
	if (pr->region == NULL || !valid_region(pr->region))
		err_at(c, pp, "%s: price needs a region such as us-east-1", label);
	if (pr->date == NULL || !valid_date(pr->date))
		err_at(c, pp, "%s: price needs the date it was valid, as YYYY-MM-DD", label);
	if (pr->source == NULL) {
		err_at(c, pp, "%s: price has no source", label);
		return;
	}
	if (!use_source(d, pr->source))
		err_at(c, pp, "%s: price source '%s' is not listed under sources", label, pr->source);
}

/* Every present figure is backed by a source, and every source claims
 * only figures the entry has. */
static void check_coverage(struct ctx *c, struct doc *d, const struct inst *in,
			   const char *p, const char *label)
{
	bool covered[CATALOG_FIG__COUNT] = { false };
	char fp[PATH_MAX_LEN];

	for (unsigned j = 0; j < in->sources_count; j++) {
		const struct ref *r = &in->sources[j];

		snprintf(fp, sizeof fp, "%s.sources[%u]", p, j);
		if (r->ref == NULL)
			err_at(c, fp, "%s: source entry has no ref", label);
		else if (!use_source(d, r->ref))
			err_at(c, fp, "%s: unknown source '%s'", label, r->ref);
		if (r->fields_count == 0)
			err_at(c, fp, "%s: source entry lists no fields", label);
		if (r->derived != NULL && (r->derived[0] == '\0' || has_control(r->derived)))
			err_at(c, fp, "%s: derived must say in one line how the figures were computed", label);
		for (unsigned k = 0; k < r->fields_count; k++) {
			int f = 0;
			while (f < CATALOG_FIG__COUNT && strcmp(catalog_fig_name(f), r->fields[k]) != 0)
				f++;
			if (f == CATALOG_FIG__COUNT) {
				err_at(c, fp, "%s: '%s' is not a figure name", label, r->fields[k]);
				continue;
			}
			if (!fig_present(in, f))
				err_at(c, fp, "%s: source '%s' backs %s, which the entry does not have",
				       label, r->ref != NULL ? r->ref : "?", catalog_fig_name(f));
			covered[f] = true;
		}
	}
	for (int f = 0; f < CATALOG_FIG__COUNT; f++) {
		/* Only an entry AWS has not confirmed must say where its name
		 * was seen; the EC2 API is the record of every other name. */
		if (f == CATALOG_FIG_NAME && in->provisional == NULL)
			continue;
		if (!fig_present(in, f) || covered[f])
			continue;
		snprintf(fp, sizeof fp, "%s.%s", p, catalog_fig_name(f));
		err_at(c, fp, "%s: %s has no source (list it under a source's fields, or leave it out)",
		       label, catalog_fig_name(f));
	}
}

static bool is_neuron(int accel)
{
	return accel == ACC_TRN || accel == ACC_TRN2 || accel == ACC_INF2 || accel == ACC_TRN3 ||
	       accel == ACC_INF1;
}

/* Facts that must agree with each other. */
static void check_consistency(struct ctx *c, const struct inst *in, const char *p,
			      const char *label, const struct resolved *r)
{
	const int *n = r->num;
	bool neuron = is_neuron(in->accel);
	bool lnc_kind = in->accel == ACC_TRN2 || in->accel == ACC_TRN3;
	bool has_nc = n[CATALOG_FIG_NC_PHYS] >= 0 || n[CATALOG_FIG_NC_LOG] >= 0 || n[CATALOG_FIG_LNC] >= 0;

	if (in->accel == ACC_UNSET)
		err_at(c, p, "%s: 'accel' is required (none, nvidia-gpu, trainium, trainium2, inferentia2, trainium3, inferentia, amd-gpu, other)", label);
	if (in->accel == ACC_NONE && (in->accel_model != NULL || has_nc ||
				      n[CATALOG_FIG_ACCEL_COUNT] > 0 || n[CATALOG_FIG_ACCEL_MEM] > 0))
		err_at(c, p, "%s: accelerator figures do not apply to accel: none (leave them out)", label);
	if (in->accel == ACC_NVIDIA && has_nc)
		err_at(c, p, "%s: NeuronCore figures do not apply to NVIDIA GPUs", label);
	if (in->accel != ACC_NVIDIA && n[CATALOG_FIG_GPU_MEM] >= 0)
		err_at(c, p, "%s: gpu_memory_mib applies to NVIDIA GPUs only (Neuron types give accel_memory_gib)", label);
	if (in->accel == ACC_NVIDIA && n[CATALOG_FIG_GPU_MEM] == 0)
		err_at(c, p, "%s: gpu_memory_mib must be at least 1", label);
	if (in->accel == ACC_NONE && in->accel_peak_bf16_tflops != NULL)
		err_at(c, p, "%s: accel_peak_bf16_tflops does not apply to accel: none", label);
	if (in->efa != TRI_Y && n[CATALOG_FIG_EFA_GBPS] >= 0)
		err_at(c, p, "%s: efa_gbps needs efa: yes", label);
	if (in->efa == TRI_Y && n[CATALOG_FIG_EFA_GBPS] == 0)
		err_at(c, p, "%s: efa: yes with efa_gbps 0", label);
	if (n[CATALOG_FIG_NET] == 0 || (n[CATALOG_FIG_EFA_GBPS] > 0 && n[CATALOG_FIG_NET] > 0 &&
					  n[CATALOG_FIG_EFA_GBPS] * 1000 != n[CATALOG_FIG_NET]))
		err_at(c, p, "%s: network_mbps %d disagrees with efa_gbps %d (EFA traffic uses the instance's network bandwidth)",
		       label, n[CATALOG_FIG_NET], n[CATALOG_FIG_EFA_GBPS]);
	/* The default LNC may be unknown (Trainium3): then the logical count
	 * is too, and neuron_cores_physical stands alone. */
	if (neuron && has_nc) {
		if (n[CATALOG_FIG_NC_PHYS] < 0 || (n[CATALOG_FIG_NC_LOG] < 0) != (n[CATALOG_FIG_LNC] < 0))
			err_at(c, p, "%s: give neuron_cores_physical, and neuron_cores_logical with lnc_default or neither", label);
		else if (n[CATALOG_FIG_LNC] < 0)
			;
		else if (n[CATALOG_FIG_LNC] != 1 && !(n[CATALOG_FIG_LNC] == 2 && lnc_kind))
			err_at(c, p, "%s: lnc_default %d is not valid here (1, or 2 on Trainium2 and Trainium3)", label, n[CATALOG_FIG_LNC]);
		else if (n[CATALOG_FIG_NC_PHYS] == 0 || n[CATALOG_FIG_NC_LOG] * n[CATALOG_FIG_LNC] != n[CATALOG_FIG_NC_PHYS])
			err_at(c, p, "%s: neuron_cores_logical %d is not neuron_cores_physical %d / lnc_default %d",
			       label, n[CATALOG_FIG_NC_LOG], n[CATALOG_FIG_NC_PHYS], n[CATALOG_FIG_LNC]);
	}
	if (in->accel != ACC_NONE && in->accel != ACC_UNSET && n[CATALOG_FIG_ACCEL_COUNT] == 0)
		err_at(c, p, "%s: accel_count 0 contradicts accel %s", label, accel_strings[in->accel - 1].str);
	if (n[CATALOG_FIG_VCPUS] == 0 || n[CATALOG_FIG_MEM] == 0)
		err_at(c, p, "%s: vcpus and memory_mib must be at least 1", label);
	if (in->efa == TRI_N && (n[CATALOG_FIG_MAX_EFA] > 0 || in->efa_device_rdma == TRI_Y ||
				 in->gpudirect_rdma == TRI_Y))
		err_at(c, p, "%s: efa: no contradicts EFA interfaces or RDMA", label);
	if (in->efa == TRI_UNSET && n[CATALOG_FIG_MAX_EFA] >= 0)
		err_at(c, p, "%s: max_efa_interfaces given but efa is unknown", label);
	if (in->efa == TRI_Y && n[CATALOG_FIG_MAX_EFA] == 0)
		err_at(c, p, "%s: efa: yes with max_efa_interfaces 0", label);
	if (in->efa_device_rdma == TRI_Y && in->efa != TRI_Y)
		err_at(c, p, "%s: efa_device_rdma: yes needs efa: yes", label);
	if (in->gpudirect_rdma == TRI_Y && (in->accel != ACC_NVIDIA || in->efa != TRI_Y ||
					    in->efa_device_rdma == TRI_N))
		err_at(c, p, "%s: gpudirect_rdma: yes needs an NVIDIA GPU, efa: yes and device RDMA", label);
}

/* Facts that follow from others (see the YAML header). */
static void derive(const struct inst *in, struct resolved *r)
{
	bool neuron = is_neuron(in->accel);

	if (in->accel == ACC_NONE) {
		r->num[CATALOG_FIG_ACCEL_COUNT] = 0;
		r->num[CATALOG_FIG_ACCEL_MEM] = 0;
	}
	if (!neuron) {
		r->num[CATALOG_FIG_NC_PHYS] = r->num[CATALOG_FIG_NC_LOG] = r->num[CATALOG_FIG_LNC] = 0;
	}
	if (in->accel != ACC_NVIDIA && in->accel != ACC_UNSET)
		r->num[CATALOG_FIG_GPU_MEM] = 0;
	r->efa = in->efa;
	r->rdma = in->efa_device_rdma;
	r->gdr = in->gpudirect_rdma;
	if (in->efa == TRI_N) {
		r->num[CATALOG_FIG_MAX_EFA] = 0;
		r->num[CATALOG_FIG_EFA_GBPS] = 0;
		r->rdma = TRI_N;
		r->gdr = TRI_N;
	}
	if (in->accel != ACC_NVIDIA && in->accel != ACC_UNSET)
		r->gdr = TRI_N;
}

static void check_instance(struct ctx *c, struct doc *d, unsigned i, struct resolved *r)
{
	const struct inst *in = &d->instances[i];
	char p[64], label[80], fp[PATH_MAX_LEN];

	snprintf(p, sizeof p, "instances[%u]", i);
	snprintf(label, sizeof label, "%s", in->name != NULL ? in->name : p);
	if (in->name == NULL)
		err_at(c, p, "instance has no name");
	else if (!catalog_name_plausible(in->name, strlen(in->name)))
		err_at(c, p, "'%s' is not an instance type name (lower-case family, a dot, and a size such as large, 48xlarge or metal-48xl)",
		       in->name);
	else if (strlen(in->name) >= CATALOG_NAME_CAP)
		err_at(c, p, "'%s' is longer than the %d bytes a name has in the table", in->name,
		       CATALOG_NAME_CAP - 1);
	for (int f = 0; f < CATALOG_FIG__COUNT; f++) {
		const char *s = fig_number(in, f);
		r->num[f] = -1;
		if (s == NULL)
			continue;
		if (!parse_count(s, &r->num[f])) {
			r->num[f] = -1;
			snprintf(fp, sizeof fp, "%s.%s", p, catalog_fig_name(f));
			err_at(c, fp, "%s: %s '%s' is not a whole number (at most 9 digits, no sign)", label, catalog_fig_name(f), s);
		}
	}
	if (in->accel_model != NULL && (in->accel_model[0] == '\0' || has_control(in->accel_model)))
		err_at(c, p, "%s: accel_model must be a one-line name", label);
	if (in->notes != NULL && has_control(in->notes))
		err_at(c, p, "%s: notes have control characters", label);
	if (in->provisional != NULL && (in->provisional[0] == '\0' || has_control(in->provisional)))
		err_at(c, p, "%s: provisional must say in one line why AWS has not confirmed the entry", label);
	check_consistency(c, in, p, label, r);
	derive(in, r);
	if (in->price != NULL)
		check_price(c, d, in->price, p, "price", label);
	if (in->price_spot != NULL)
		check_price(c, d, in->price_spot, p, "price_spot", label);
	if (in->price_reserved != NULL)
		check_price(c, d, in->price_reserved, p, "price_reserved", label);
	for (unsigned k = 0; k < in->capacity_block_count; k++) {
		const struct price *a = &in->capacity_block[k];
		char key[48];
		snprintf(key, sizeof key, "capacity_block[%u]", k);
		check_price(c, d, a, p, key, label);
		for (unsigned m = 0; m < k; m++) {
			const struct price *b = &in->capacity_block[m];
			if (a->region && b->region && a->date && b->date &&
			    strcmp(a->region, b->region) == 0 && strcmp(a->date, b->date) == 0) {
				snprintf(fp, sizeof fp, "%s.%s", p, key);
				err_at(c, fp, "%s: two Capacity Block rates for %s on %s", label, a->region, a->date);
			}
		}
	}
	if (in->accel_peak_bf16_tflops != NULL && !valid_price(in->accel_peak_bf16_tflops)) {
		snprintf(fp, sizeof fp, "%s.accel_peak_bf16_tflops", p);
		err_at(c, fp, "%s: accel_peak_bf16_tflops '%s' is not a positive decimal like 989.4",
		       label, in->accel_peak_bf16_tflops);
	}
	check_coverage(c, d, in, p, label);
}

static const struct doc *sort_doc; /* qsort has no context argument */

static int by_name(const void *a, const void *b)
{
	const struct inst *x = &sort_doc->instances[*(const unsigned *)a];
	const struct inst *y = &sort_doc->instances[*(const unsigned *)b];
	int cmp = strcmp(x->name != NULL ? x->name : "", y->name != NULL ? y->name : "");

	if (cmp != 0)
		return cmp;
	return (*(const unsigned *)a > *(const unsigned *)b) -
	       (*(const unsigned *)a < *(const unsigned *)b);
}

static void check_doc(struct ctx *c, struct doc *d, struct resolved *res, unsigned *order)
{
	if (d->version == NULL)
		err_at(c, "", "missing 'version: 1'");
	else if (strcmp(d->version, "1") != 0)
		err_at(c, "version", "unsupported catalog version '%s' (this generator reads 1)", d->version);
	if (d->instances_count == 0)
		err_at(c, "instances", "the catalog lists no instances");
	check_sources(c, d);
	for (unsigned i = 0; i < d->instances_count; i++) {
		check_instance(c, d, i, &res[i]);
		order[i] = i;
	}
	sort_doc = d;
	qsort(order, d->instances_count, sizeof *order, by_name);
	for (unsigned i = 1; i < d->instances_count; i++) {
		const struct inst *a = &d->instances[order[i - 1]];
		const struct inst *b = &d->instances[order[i]];
		char pa[64], pb[64];
		if (a->name == NULL || b->name == NULL || strcmp(a->name, b->name) != 0)
			continue;
		snprintf(pa, sizeof pa, "instances[%u]", order[i - 1]);
		snprintf(pb, sizeof pb, "instances[%u]", order[i]);
		err_at(c, pb, "duplicate instance name '%s' (first at line %u)", b->name, line_of(c, pa));
	}
	for (unsigned i = 0; i < d->sources_count; i++)
		if (d->sources[i].id != NULL && valid_id(d->sources[i].id) && !d->sources[i].used) {
			char p[64];
			snprintf(p, sizeof p, "sources[%u]", i);
			err_at(c, p, "source '%s' is not used by any instance", d->sources[i].id);
		}
}

/* ------------------------------------------------- the EC2 table ---- */

/* Everything allocated for the EC2 table and the merge lives until exit;
 * the list frees it so that the program leaks nothing. */
static void **arena;
static size_t arena_len, arena_cap;

static void *arena_alloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (p == NULL)
		die_oom();
	if (arena_len == arena_cap) {
		arena_cap = arena_cap ? 2 * arena_cap : 1024;
		arena = xrealloc_or_die(arena, arena_cap * sizeof *arena);
	}
	arena[arena_len++] = p;
	return p;
}

static char *arena_strndup(const char *s, size_t n)
{
	char *p = arena_alloc(n + 1);

	memcpy(p, s, n);
	return p;
}

static char *arena_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *arena_printf(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return arena_strndup(buf, strlen(buf));
}

static void arena_free(void)
{
	for (size_t i = 0; i < arena_len; i++)
		free(arena[i]);
	free(arena);
}

/* The columns of the EC2 table, and the figures each backs. */
enum col {
	COL_NAME, COL_VCPUS, COL_MEM, COL_ARCH, COL_ACCEL, COL_MODEL, COL_COUNT, COL_GPU_MEM,
	COL_CORES, COL_EFA, COL_NET, COL_NET_TABLE, COL_PRICE, COL__COUNT
};
static const struct {
	const char *name;
	int figs[2]; /* -1: none */
} cols[COL__COUNT] = {
	[COL_NAME] = { "name", { -1, -1 } },
	[COL_VCPUS] = { "vcpus", { CATALOG_FIG_VCPUS, -1 } },
	[COL_MEM] = { "memory_mib", { CATALOG_FIG_MEM, -1 } },
	[COL_ARCH] = { "arch", { CATALOG_FIG_ARCH, -1 } },
	[COL_ACCEL] = { "accel", { CATALOG_FIG_ACCEL, -1 } },
	[COL_MODEL] = { "accel_model", { CATALOG_FIG_ACCEL_MODEL, -1 } },
	[COL_COUNT] = { "accel_count", { CATALOG_FIG_ACCEL_COUNT, -1 } },
	[COL_GPU_MEM] = { "gpu_memory_mib", { CATALOG_FIG_GPU_MEM, -1 } },
	[COL_CORES] = { "neuron_cores", { CATALOG_FIG_NC_PHYS, -1 } },
	[COL_EFA] = { "efa_interfaces", { CATALOG_FIG_EFA, CATALOG_FIG_MAX_EFA } },
	[COL_NET] = { "network_mbps", { CATALOG_FIG_NET, CATALOG_FIG_EFA_GBPS } },
	[COL_NET_TABLE] = { "network_mbps_table", { CATALOG_FIG_NET, CATALOG_FIG_EFA_GBPS } },
	[COL_PRICE] = { "usd_per_hour_us_east_1", { -1, -1 } },
};

struct table {
	const char *file;
	struct source *sources;
	unsigned sources_count;
	const char *col_source[COL__COUNT]; /* source id of each column */
	int at[COL__COUNT];                 /* field index of each column in a row */
	size_t ncols;
	struct inst *rows;
	unsigned rows_count;
};

/* Splits line (its '\n' gone) at tabs into at most max fields, in place. */
static size_t split_tabs(char *line, char **f, size_t max)
{
	size_t n = 0;

	for (char *p = line; n < max;) {
		f[n++] = p;
		p = strchr(p, '\t');
		if (p == NULL)
			break;
		*p++ = '\0';
	}
	return n;
}

static bool digits(const char *s)
{
	int v;

	return parse_count(s, &v);
}

static const char *cell(char **f, const struct table *t, enum col k)
{
	return t->at[k] >= 0 && strcmp(f[t->at[k]], "-") != 0 ? f[t->at[k]] : NULL;
}

static void table_source(struct ctx *c, struct table *t, char **f, size_t n)
{
	struct source *s;
	int kind = KIND_UNSET;

	if (n != 6) {
		err_line(c, c->at_line, "a source line has id, kind, date, location and title");
		return;
	}
	for (size_t i = 0; i < sizeof kind_strings / sizeof kind_strings[0]; i++)
		if (strcmp(kind_strings[i].str, f[2]) == 0)
			kind = (int)kind_strings[i].val;
	t->sources = xrealloc_or_die(t->sources, (t->sources_count + 1) * sizeof *t->sources);
	s = &t->sources[t->sources_count++];
	*s = (struct source){
		.id = arena_strndup(f[1], strlen(f[1])), .kind = kind, .used = true,
		.date = arena_strndup(f[3], strlen(f[3])), .location = arena_strndup(f[4], strlen(f[4])),
		.title = arena_strndup(f[5], strlen(f[5])),
	};
}

static void table_column(struct ctx *c, struct table *t, char **f, size_t n)
{
	int k = 0;

	while (k < COL__COUNT && (n < 2 || strcmp(cols[k].name, f[1]) != 0))
		k++;
	if (n != 4 || k == COL__COUNT) {
		err_line(c, c->at_line, "a column line names a column of this table, its source and what the source calls it");
		return;
	}
	t->col_source[k] = arena_strndup(f[2], strlen(f[2]));
}

static void table_header(struct ctx *c, struct table *t, char **f, size_t n)
{
	for (int k = 0; k < COL__COUNT; k++)
		t->at[k] = -1;
	for (size_t i = 0; i < n; i++) {
		int k = 0;
		while (k < COL__COUNT && strcmp(cols[k].name, f[i]) != 0)
			k++;
		if (k == COL__COUNT || t->at[k] >= 0)
			err_line(c, c->at_line, "column '%s' is unknown or repeated", f[i]);
		else if (k != COL_NAME && t->col_source[k] == NULL)
			err_line(c, c->at_line, "column '%s' has no 'column' line naming its source", f[i]);
		else
			t->at[k] = (int)i;
	}
	if (t->at[COL_NAME] != 0)
		err_line(c, c->at_line, "the first column is the name");
	t->ncols = n;
}

/* Adds field f, backed by the source of column k, to the entry's refs. */
static void add_ref_field(struct inst *in, const char *source, const char *derived, int f)
{
	struct ref *r = NULL;

	if (!in->refs_owned) { /* libcyaml's array stays as loaded: change a copy */
		struct ref *refs = arena_alloc((in->sources_count + 1) * sizeof *refs);
		if (in->sources_count > 0)
			memcpy(refs, in->sources, in->sources_count * sizeof *refs);
		in->sources = refs;
		in->refs_owned = true;
	}
	for (unsigned j = 0; j < in->sources_count && r == NULL; j++)
		if (strcmp(in->sources[j].ref, source) == 0 &&
		    (in->sources[j].derived == NULL) == (derived == NULL) &&
		    (derived == NULL || strcmp(in->sources[j].derived, derived) == 0))
			r = &in->sources[j];
	if (r == NULL) {
		struct ref *refs = arena_alloc((in->sources_count + 1) * sizeof *refs);
		if (in->sources_count > 0)
			memcpy(refs, in->sources, in->sources_count * sizeof *refs);
		in->sources = refs;
		r = &refs[in->sources_count++];
		*r = (struct ref){ .ref = (char *)source, .derived = (char *)derived };
	}
	for (unsigned k = 0; k < r->fields_count; k++)
		if (strcmp(r->fields[k], catalog_fig_name(f)) == 0)
			return;
	char **fields = arena_alloc((r->fields_count + 1) * sizeof *fields);
	if (r->fields_count > 0)
		memcpy(fields, r->fields, r->fields_count * sizeof *fields);
	fields[r->fields_count++] = (char *)catalog_fig_name(f);
	r->fields = fields;
}

static char *copy_cell(const char *s)
{
	return s ? arena_strndup(s, strlen(s)) : NULL;
}

/* One row of the table as a catalog entry, its figures backed by the
 * sources of their columns. */
static void table_row(struct ctx *c, struct table *t, char **f, size_t n)
{
	struct inst *in;
	const char *v, *net;
	int accel = ACC_UNSET;
	enum col net_col = COL_NET;

	if (n != t->ncols) {
		err_line(c, c->at_line, "%zu fields where the header has %zu", n, t->ncols);
		return;
	}
	t->rows = xrealloc_or_die(t->rows, (t->rows_count + 1) * sizeof *t->rows);
	in = &t->rows[t->rows_count++];
	*in = (struct inst){ .name = copy_cell(f[0]), .tsv_line = c->at_line };
	for (size_t i = 0; i < sizeof accel_strings / sizeof accel_strings[0]; i++)
		if ((v = cell(f, t, COL_ACCEL)) && strcmp(accel_strings[i].str, v) == 0)
			accel = (int)accel_strings[i].val;
	if (accel == ACC_UNSET)
		err_line(c, c->at_line, "%s: accel '%s' is not a kind the catalog knows", f[0], cell(f, t, COL_ACCEL) ? cell(f, t, COL_ACCEL) : "-");
	in->accel = accel;
	in->vcpus = copy_cell(cell(f, t, COL_VCPUS));
	in->memory_mib = copy_cell(cell(f, t, COL_MEM));
	v = cell(f, t, COL_ARCH);
	in->arch = v && !strcmp(v, "x86_64") ? ARCH_X86_64 : v && !strcmp(v, "arm64") ? ARCH_ARM64 : ARCH_UNSET;
	if (v && in->arch == ARCH_UNSET)
		err_line(c, c->at_line, "%s: arch '%s' (x86_64 or arm64)", f[0], v);
	if (accel != ACC_NONE) {
		in->accel_model = copy_cell(cell(f, t, COL_MODEL));
		in->accel_count = copy_cell(cell(f, t, COL_COUNT));
	}
	if (accel == ACC_NVIDIA && (v = cell(f, t, COL_GPU_MEM)) && strcmp(v, "0") != 0)
		in->gpu_memory_mib = copy_cell(v);
	if (is_neuron(accel))
		in->neuron_cores_physical = copy_cell(cell(f, t, COL_CORES));
	if ((v = cell(f, t, COL_EFA)) != NULL) {
		if (!digits(v))
			err_line(c, c->at_line, "%s: efa_interfaces '%s' is not a whole number", f[0], v);
		in->efa = strcmp(v, "0") ? TRI_Y : TRI_N;
		if (in->efa == TRI_Y)
			in->max_efa_interfaces = copy_cell(v);
	}
	net = cell(f, t, COL_NET);
	if (net == NULL && t->at[COL_NET_TABLE] >= 0 && (net = cell(f, t, COL_NET_TABLE)) != NULL)
		net_col = COL_NET_TABLE;
	if (net != NULL && !digits(net))
		err_line(c, c->at_line, "%s: network bandwidth '%s' is not a whole number of Mbps", f[0], net);
	in->network_mbps = copy_cell(net);
	/* EFA traffic has the instance's bandwidth: a whole number of Gbps */
	if (net != NULL && in->efa == TRI_Y && digits(net) && strlen(net) > 3 &&
	    strcmp(net + strlen(net) - 3, "000") == 0)
		in->efa_gbps = arena_strndup(net, strlen(net) - 3);
	for (int k = COL_VCPUS; k < COL__COUNT; k++) {
		if (k == COL_PRICE || ((k == COL_NET || k == COL_NET_TABLE) && k != (int)net_col))
			continue;
		for (int j = 0; j < 2; j++)
			if (cols[k].figs[j] >= 0 && fig_present(in, cols[k].figs[j]))
				add_ref_field(in, t->col_source[k], NULL, cols[k].figs[j]);
	}
	if ((v = cell(f, t, COL_PRICE)) != NULL) {
		const struct source *src = NULL;
		for (unsigned i = 0; i < t->sources_count; i++)
			if (strcmp(t->sources[i].id, t->col_source[COL_PRICE]) == 0)
				src = &t->sources[i];
		in->price = arena_alloc(sizeof *in->price);
		*in->price = (struct price){ .usd_per_hour = copy_cell(v), .region = "us-east-1",
					    .source = (char *)t->col_source[COL_PRICE],
					    .date = src ? src->date : NULL };
	}
}

/* Loads the EC2 table (tools/ec2_types.py's format). */
static bool table_load(struct ctx *c, struct table *t, const char *path)
{
	size_t len = 0, n;
	char *text = read_file(path, &len), *line, *next;
	char *f[COL__COUNT + 2];
	bool header = false;
	unsigned errors = c->errors;

	t->file = path;
	for (int k = 0; k < COL__COUNT; k++)
		t->at[k] = -1;
	c->at_file = path;
	c->at_line = 1;
	if (text == NULL) {
		if (len > MAX_INPUT)
			err_line(c, 1, "larger than %u bytes", MAX_INPUT);
		else
			perror(path);
		c->at_file = NULL;
		if (len <= MAX_INPUT)
			exit(2);
		return false;
	}
	if (memchr(text, '\0', len) != NULL || len == 0 || text[len - 1] != '\n')
		err_line(c, 1, "the table is empty, holds a NUL byte or does not end with a newline");
	for (line = text; c->errors == errors && *line != '\0'; line = next, c->at_line++) {
		next = strchr(line, '\n');
		*next++ = '\0';
		if (line[0] == '#')
			continue;
		if (has_control_but_tab(line)) {
			err_line(c, c->at_line, "control characters");
			continue;
		}
		n = split_tabs(line, f, sizeof f / sizeof f[0]);
		if (!header && strcmp(f[0], "source") == 0)
			table_source(c, t, f, n);
		else if (!header && strcmp(f[0], "column") == 0)
			table_column(c, t, f, n);
		else if (!header && strcmp(f[0], "name") == 0) {
			table_header(c, t, f, n);
			header = true;
		} else if (header)
			table_row(c, t, f, n);
		else
			err_line(c, c->at_line, "expected a source, column or header line");
	}
	if (c->errors == errors && (!header || t->rows_count == 0))
		err_line(c, c->at_line, "no header line or no rows");
	c->at_file = NULL;
	free(text);
	return c->errors == errors;
}

/* A figure of the hand-checked entry y that the table also has: they must
 * agree; one the entry lacks comes from the table, with its source. */
static void merge_number(struct ctx *c, struct inst *y, const struct inst *r, int f, char **yv,
			 char *rv)
{
	if (rv == NULL)
		return;
	if (*yv == NULL) {
		*yv = rv;
		for (unsigned j = 0; j < r->sources_count; j++)
			for (unsigned k = 0; k < r->sources[j].fields_count; k++)
				if (strcmp(r->sources[j].fields[k], catalog_fig_name(f)) == 0)
					add_ref_field(y, r->sources[j].ref, NULL, f);
	} else if (strcmp(*yv, rv) != 0) {
		err_line(c, c->at_line, "%s: %s is %s here but %s in the EC2 table (line %u): a hand-checked figure must agree with EC2's",
			 y->name, catalog_fig_name(f), *yv, rv, r->tsv_line);
	}
}

static void merge_enum(struct ctx *c, struct inst *y, const struct inst *r, int f, int *yv, int rv)
{
	if (rv == 0)
		return;
	if (*yv == 0) {
		*yv = rv;
		for (unsigned j = 0; j < r->sources_count; j++)
			for (unsigned k = 0; k < r->sources[j].fields_count; k++)
				if (strcmp(r->sources[j].fields[k], catalog_fig_name(f)) == 0)
					add_ref_field(y, r->sources[j].ref, NULL, f);
	} else if (*yv != rv) {
		err_line(c, c->at_line, "%s: %s differs from the EC2 table (line %u): a hand-checked figure must agree with EC2's",
			 y->name, catalog_fig_name(f), r->tsv_line);
	}
}

static void merge_entry(struct ctx *c, struct inst *y, const struct inst *r, unsigned yaml_line)
{
	char *model = y->accel_model;

	c->at_line = yaml_line;
	y->tsv_line = r->tsv_line;
	merge_enum(c, y, r, CATALOG_FIG_ACCEL, &y->accel, r->accel);
	merge_enum(c, y, r, CATALOG_FIG_ARCH, &y->arch, r->arch);
	merge_enum(c, y, r, CATALOG_FIG_EFA, &y->efa, r->efa);
	merge_number(c, y, r, CATALOG_FIG_ACCEL_MODEL, &model, r->accel_model);
	y->accel_model = model;
	merge_number(c, y, r, CATALOG_FIG_ACCEL_COUNT, &y->accel_count, r->accel_count);
	merge_number(c, y, r, CATALOG_FIG_NC_PHYS, &y->neuron_cores_physical, r->neuron_cores_physical);
	merge_number(c, y, r, CATALOG_FIG_VCPUS, &y->vcpus, r->vcpus);
	merge_number(c, y, r, CATALOG_FIG_MEM, &y->memory_mib, r->memory_mib);
	merge_number(c, y, r, CATALOG_FIG_MAX_EFA, &y->max_efa_interfaces, r->max_efa_interfaces);
	merge_number(c, y, r, CATALOG_FIG_GPU_MEM, &y->gpu_memory_mib, r->gpu_memory_mib);
	merge_number(c, y, r, CATALOG_FIG_EFA_GBPS, &y->efa_gbps, r->efa_gbps);
	merge_number(c, y, r, CATALOG_FIG_NET, &y->network_mbps, r->network_mbps);
	if (r->price == NULL)
		return;
	if (y->price == NULL)
		y->price = r->price;
	else if (y->price->usd_per_hour && strtod(y->price->usd_per_hour, NULL) != strtod(r->price->usd_per_hour, NULL))
		err_line(c, yaml_line, "%s: on-demand price %s here but %s in the EC2 table (line %u)",
			 y->name, y->price->usd_per_hour, r->price->usd_per_hour, r->tsv_line);
}

static int by_inst_name(const void *a, const void *b)
{
	return strcmp(((const struct inst *)a)->name, ((const struct inst *)b)->name);
}

/* The catalog's entries: every entry of the YAML, with what the table adds
 * to it, then every type of the table the YAML lacks. */
static void merge_table(struct ctx *c, struct doc *d, const struct table *t)
{
	unsigned n = d->instances_count;
	struct inst *all = arena_alloc((n + t->rows_count + 1) * sizeof *all);
	struct source *srcs = arena_alloc((d->sources_count + t->sources_count + 1) * sizeof *srcs);
	struct inst *rows = arena_alloc((t->rows_count + 1) * sizeof *rows);
	char p[64];

	memcpy(all, d->instances, n * sizeof *all);
	memcpy(srcs, d->sources, d->sources_count * sizeof *srcs);
	memcpy(srcs + d->sources_count, t->sources, t->sources_count * sizeof *srcs);
	d->sources = srcs;
	d->sources_count += t->sources_count;
	memcpy(rows, t->rows, t->rows_count * sizeof *rows);
	qsort(rows, t->rows_count, sizeof *rows, by_inst_name);
	c->at_file = c->file;
	for (unsigned i = 0; i < n; i++) {
		struct inst key = { .name = all[i].name }, *r;
		if (all[i].name == NULL)
			continue;
		r = bsearch(&key, rows, t->rows_count, sizeof *rows, by_inst_name);
		if (r == NULL)
			continue;
		snprintf(p, sizeof p, "instances[%u]", i);
		merge_entry(c, &all[i], r, line_of(c, p));
		r->tsv_line = 0; /* merged */
	}
	c->at_file = NULL;
	for (unsigned i = 0; i < t->rows_count; i++)
		if (rows[i].tsv_line != 0)
			all[n++] = rows[i];
	d->instances = all;
	d->instances_count = n;
}

/* ---------------------------------------- accelerator facts ---- */

static const struct accel_facts *accel_of(const struct doc *d, const char *model)
{
	for (unsigned i = 0; model != NULL && i < d->accelerators_count; i++)
		if (d->accelerators[i].model && strcmp(d->accelerators[i].model, model) == 0)
			return &d->accelerators[i];
	return NULL;
}

/* Adds the refs of a that back figure f (under name) to the entry. */
static void add_accel_refs(struct inst *in, const struct accel_facts *a, const char *name,
			   int f, const char *derived)
{
	for (unsigned j = 0; j < a->sources_count; j++)
		for (unsigned k = 0; k < a->sources[j].fields_count; k++)
			if (strcmp(a->sources[j].fields[k], name) == 0)
				add_ref_field(in, a->sources[j].ref,
					      derived ? derived : a->sources[j].derived, f);
}

static void check_accelerators(struct ctx *c, struct doc *d)
{
	static const char *const figs[] = { "accel_peak_bf16_tflops", "accel_memory_gib", "lnc_default" };

	for (unsigned i = 0; i < d->accelerators_count; i++) {
		const struct accel_facts *a = &d->accelerators[i];
		const char *given[3] = { a->peak_bf16_tflops, a->memory_gib, a->lnc_default };
		bool covered[3] = { false };
		char p[64];
		int v;

		snprintf(p, sizeof p, "accelerators[%u]", i);
		if (a->model == NULL || a->model[0] == '\0' || has_control(a->model))
			err_at(c, p, "an accelerator needs a one-line model name, as instances' accel_model spell it");
		else if (accel_of(d, a->model) != a)
			err_at(c, p, "accelerator '%s' is listed twice", a->model);
		if (a->peak_bf16_tflops && !valid_price(a->peak_bf16_tflops))
			err_at(c, p, "peak_bf16_tflops '%s' is not a positive decimal like 989.4", a->peak_bf16_tflops);
		if ((a->memory_gib && (!parse_count(a->memory_gib, &v) || v == 0)) ||
		    (a->lnc_default && (!parse_count(a->lnc_default, &v) || v < 1 || v > 2)))
			err_at(c, p, "memory_gib is a whole number of GiB and lnc_default 1 or 2");
		if (a->notes && has_control(a->notes))
			err_at(c, p, "notes have control characters");
		for (unsigned j = 0; j < a->sources_count; j++) {
			const struct ref *r = &a->sources[j];
			if (r->ref == NULL || !use_source(d, r->ref))
				err_at(c, p, "unknown source '%s'", r->ref ? r->ref : "");
			for (unsigned k = 0; k < r->fields_count; k++) {
				int f = 0;
				while (f < 3 && strcmp(figs[f], r->fields[k]) != 0)
					f++;
				if (f == 3 || given[f] == NULL)
					err_at(c, p, "source '%s' backs %s, which the accelerator does not have (accel_peak_bf16_tflops, accel_memory_gib, lnc_default)",
					       r->ref ? r->ref : "", r->fields[k]);
				else
					covered[f] = true;
			}
		}
		for (int f = 0; f < 3; f++)
			if (given[f] && !covered[f])
				err_at(c, p, "%s of %s has no source", figs[f], a->model ? a->model : "?");
	}
}

/* A chip's facts, for every entry with that chip that does not state
 * them itself: the peak; the default LNC (and the logical cores it makes)
 * of a Neuron chip; the memory of count chips. */
static void apply_accelerators(struct doc *d)
{
	for (unsigned i = 0; i < d->instances_count; i++) {
		struct inst *in = &d->instances[i];
		const struct accel_facts *a = accel_of(d, in->accel_model);
		int count, cores, lnc;

		if (a == NULL || in->accel == ACC_NONE)
			continue;
		if (in->accel_peak_bf16_tflops == NULL && a->peak_bf16_tflops != NULL) {
			in->accel_peak_bf16_tflops = a->peak_bf16_tflops;
			add_accel_refs(in, a, "accel_peak_bf16_tflops", CATALOG_FIG_PEAK, NULL);
		}
		if (is_neuron(in->accel) && in->lnc_default == NULL && a->lnc_default != NULL &&
		    in->neuron_cores_physical && parse_count(in->neuron_cores_physical, &cores) &&
		    parse_count(a->lnc_default, &lnc) && lnc > 0 && cores % lnc == 0) {
			in->lnc_default = a->lnc_default;
			in->neuron_cores_logical = arena_printf("%d", cores / lnc);
			add_accel_refs(in, a, "lnc_default", CATALOG_FIG_LNC, NULL);
			add_accel_refs(in, a, "lnc_default", CATALOG_FIG_NC_LOG, NULL);
		}
		if (in->accel_memory_gib == NULL && a->memory_gib != NULL && in->accel != ACC_NVIDIA &&
		    in->accel_count && parse_count(in->accel_count, &count) && count > 0) {
			int gib = atoi(a->memory_gib);
			in->accel_memory_gib = arena_printf("%d", count * gib);
			add_accel_refs(in, a, "accel_memory_gib", CATALOG_FIG_ACCEL_MEM,
				       arena_printf("%d chips x %d GiB", count, gib));
		}
	}
}

/* Why an entry's peak is unknown, when its chip's facts say. */
static const char *peak_note(const struct doc *d, const struct inst *in)
{
	const struct accel_facts *a = accel_of(d, in->accel_model);

	return in->accel_peak_bf16_tflops == NULL && a != NULL ? a->notes : NULL;
}

/* ------------------------------------------------------ emission ---- */

/* The string pool: each distinct string once, at an offset; offset 0 is
 * the empty string the pool starts with, and stands for NULL. */
struct pool {
	char *text;
	size_t len, cap;
	uint32_t *slots; /* open addressing: offset + 1, 0 empty */
	size_t nslots, used;
};

static uint32_t pool_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void pool_insert_slot(struct pool *p, uint32_t off)
{
	size_t i = pool_hash(p->text + off) & (p->nslots - 1);

	while (p->slots[i] != 0)
		i = (i + 1) & (p->nslots - 1);
	p->slots[i] = off + 1;
	p->used++;
}

static uint32_t pool_add(struct pool *p, const char *s)
{
	size_t n, i;

	if (s == NULL)
		return 0;
	if (p->used * 2 >= p->nslots) { /* grow and rehash */
		uint32_t *old = p->slots;
		size_t oldn = p->nslots;
		p->nslots = oldn ? 2 * oldn : 1024;
		p->slots = calloc(p->nslots, sizeof *p->slots);
		if (p->slots == NULL)
			die_oom();
		p->used = 0;
		for (size_t k = 0; k < oldn; k++)
			if (old[k] != 0)
				pool_insert_slot(p, old[k] - 1);
		free(old);
	}
	for (i = pool_hash(s) & (p->nslots - 1); p->slots[i] != 0; i = (i + 1) & (p->nslots - 1))
		if (strcmp(p->text + p->slots[i] - 1, s) == 0)
			return p->slots[i] - 1;
	n = strlen(s) + 1;
	if (p->len == 0)
		n += 1; /* the leading empty string */
	if (p->len + n > p->cap) {
		p->cap = (p->len + n) * 2;
		p->text = xrealloc_or_die(p->text, p->cap);
	}
	if (p->len == 0)
		p->text[p->len++] = '\0';
	memcpy(p->text + p->len, s, strlen(s) + 1);
	p->slots[i] = (uint32_t)p->len + 1;
	p->used++;
	p->len += strlen(s) + 1;
	return (uint32_t)(p->len - strlen(s) - 1);
}

static void put_str(FILE *o, const char *s)
{
	fputc('"', o);
	for (; *s != '\0'; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(o, "\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f || ch == '?') /* '?' dodges trigraphs */
			fprintf(o, "\\%03o", ch);
		else
			fputc(ch, o);
	}
	fputc('"', o);
}

static const char *tri_c(int v)
{
	return v == TRI_Y ? "TRI_YES" : v == TRI_N ? "TRI_NO" : "TRI_UNKNOWN";
}

/* "title <location> (date)" */
static const char *source_text(const struct doc *d, const char *id)
{
	const struct source *s = &d->sources[source_index(d, id)];

	return arena_printf("%s <%s> (%s)", s->title, s->location, s->date);
}

/* The source of one figure (the first ref that lists it), or NULL: the
 * planner shows it next to the figure. */
static const char *figure_source(const struct doc *d, const struct inst *in, int f)
{
	for (unsigned j = 0; j < in->sources_count; j++)
		for (unsigned k = 0; k < in->sources[j].fields_count; k++)
			if (strcmp(in->sources[j].fields[k], catalog_fig_name(f)) == 0)
				return source_text(d, in->sources[j].ref);
	return NULL;
}

/* Appends to a growing arena string. */
static char *cat(char *acc, const char *s)
{
	size_t a = acc ? strlen(acc) : 0, b = strlen(s);
	char *out = arena_alloc(a + b + 1);

	if (acc)
		memcpy(out, acc, a);
	memcpy(out + a, s, b + 1);
	return out;
}

/* "fields: title <location> (date); ..." */
static const char *entry_source(const struct doc *d, const struct inst *in)
{
	char *acc = arena_strndup("", 0);

	for (unsigned j = 0; j < in->sources_count; j++) {
		const struct ref *ref = &in->sources[j];
		if (j > 0)
			acc = cat(acc, "; ");
		for (unsigned k = 0; k < ref->fields_count; k++)
			acc = cat(cat(acc, k > 0 ? ", " : ""), ref->fields[k]);
		acc = cat(cat(acc, ": "), source_text(d, ref->ref));
	}
	return acc;
}

/* The DERIVED figures as a bit set over enum catalog_fig, and as
 * "fields: how (title <location> (date)); ..." for the plan to show. */
static const char *derived_note(const struct doc *d, const struct inst *in, unsigned *mask)
{
	char *acc = NULL;

	*mask = 0;
	for (unsigned j = 0; j < in->sources_count; j++) {
		const struct ref *r = &in->sources[j];
		if (r->derived == NULL)
			continue;
		acc = acc ? cat(acc, "; ") : arena_strndup("", 0);
		for (unsigned k = 0; k < r->fields_count; k++) {
			for (int f = 0; f < CATALOG_FIG__COUNT; f++)
				if (strcmp(r->fields[k], catalog_fig_name(f)) == 0)
					*mask |= 1u << f;
			acc = cat(cat(acc, k > 0 ? ", " : ""), r->fields[k]);
		}
		acc = cat(cat(cat(cat(cat(acc, ": "), r->derived), " ("), source_text(d, r->ref)), ")");
	}
	return acc;
}

/* Capacity Block rates in region, then date order, for the run time's
 * lookup by region and date. */
static int by_region_date(const void *a, const void *b)
{
	const struct price *x = a, *y = b;
	int c = strcmp(x->region, y->region);

	return c != 0 ? c : strcmp(x->date, y->date);
}

/* A price's members, or the unknown marks: the decimal text as written,
 * no float round trip. */
static void put_price(FILE *o, struct pool *pl, const struct doc *d, const struct price *pr,
		      const char *usd, const char *prefix)
{
	if (pr == NULL) {
		fprintf(o, " .%s = -1.0,", usd);
		return;
	}
	fprintf(o, " .%s = %s, .%s_region = %u, .%s_source = %u, .%s_date = %u,", usd,
		pr->usd_per_hour, prefix, pool_add(pl, pr->region), prefix,
		pool_add(pl, source_text(d, pr->source)), prefix, pool_add(pl, pr->date));
}

static const char *const accel_c[] = {
	"ACCEL_NONE", "ACCEL_NONE", "ACCEL_NVIDIA_GPU", "ACCEL_TRAINIUM", "ACCEL_TRAINIUM2",
	"ACCEL_INFERENTIA2", "ACCEL_TRAINIUM3", "ACCEL_INFERENTIA", "ACCEL_AMD_GPU", "ACCEL_OTHER",
};

static void emit_entry(FILE *o, struct pool *pl, const struct doc *d, const struct inst *in,
		       const struct resolved *r, unsigned *cb_next)
{
	const int *n = r->num;
	unsigned mask;
	const char *note = derived_note(d, in, &mask);

	fprintf(o, "\t{ /* %s */\n\t\t.accel_model = %u, .arch = %u, .provisional = %u,\n",
		in->name, pool_add(pl, in->accel_model),
		pool_add(pl, in->arch == ARCH_X86_64 ? "x86_64" : in->arch == ARCH_ARM64 ? "arm64" : NULL),
		pool_add(pl, in->provisional));
	fprintf(o, "\t\t.source = %u, .derived_note = %u, .derived = 0x%xu, .peak_note = %u,\n",
		pool_add(pl, entry_source(d, in)), pool_add(pl, note), mask,
		pool_add(pl, peak_note(d, in)));
	fprintf(o, "\t\t.accel_memory_source = %u, .gpu_memory_source = %u, .peak_source = %u, .efa_gbps_source = %u,\n",
		pool_add(pl, figure_source(d, in, CATALOG_FIG_ACCEL_MEM)),
		pool_add(pl, figure_source(d, in, CATALOG_FIG_GPU_MEM)),
		pool_add(pl, figure_source(d, in, CATALOG_FIG_PEAK)),
		pool_add(pl, figure_source(d, in, CATALOG_FIG_EFA_GBPS)));
	fprintf(o, "\t\t.accel = %s, .accel_count = %d, .nc_phys = %d, .nc_log = %d, .lnc = %d, .accel_memory_gib = %d,\n",
		accel_c[in->accel], n[CATALOG_FIG_ACCEL_COUNT], n[CATALOG_FIG_NC_PHYS],
		n[CATALOG_FIG_NC_LOG], n[CATALOG_FIG_LNC], n[CATALOG_FIG_ACCEL_MEM]);
	fprintf(o, "\t\t.vcpus = %d, .memory_mib = %d, .efa = %s, .max_efa = %d, .rdma = %s, .gdr = %s,\n",
		n[CATALOG_FIG_VCPUS], n[CATALOG_FIG_MEM], tri_c(r->efa), n[CATALOG_FIG_MAX_EFA],
		tri_c(r->rdma), tri_c(r->gdr));
	fprintf(o, "\t\t.gpu_memory_mib = %d, .efa_gbps = %d, .network_mbps = %d, .peak = %s,\n\t\t",
		n[CATALOG_FIG_GPU_MEM], n[CATALOG_FIG_EFA_GBPS], n[CATALOG_FIG_NET],
		in->accel_peak_bf16_tflops != NULL ? in->accel_peak_bf16_tflops : "-1.0");
	put_price(o, pl, d, in->price, "price_on_demand", "price");
	put_price(o, pl, d, in->price_spot, "price_spot", "spot");
	put_price(o, pl, d, in->price_reserved, "price_reserved", "reserved");
	fprintf(o, "\n\t\t.cb_first = %u, .cb_count = %u },\n", *cb_next, in->capacity_block_count);
	*cb_next += in->capacity_block_count;
}

static void emit(FILE *o, const char *file, const struct doc *d,
		 const struct resolved *res, const unsigned *order)
{
	struct pool pl = { 0 };
	unsigned cb_next = 0, cb_total = 0;
	FILE *rows = tmpfile();

	if (rows == NULL) {
		perror("catalog_gen: tmpfile");
		exit(2);
	}
	/* the rows first, into a temporary file: they fill the pool */
	for (unsigned i = 0; i < d->instances_count; i++)
		emit_entry(rows, &pl, d, &d->instances[order[i]], &res[order[i]], &cb_next);
	fprintf(o, "/* Generated by tools/catalog_gen from %s: do not edit.\n"
		" * %u instance types, sorted by name for catalog_find's binary search;\n"
		" * strings are offsets into catalog__pool (0: NULL). Unknown figures are\n"
		" * -1 or TRI_UNKNOWN; see core/facts/catalog.h and catalog_table.h. */\n"
		"#include <stddef.h>\n\n#include \"catalog_table.h\"\n\n",
		file, d->instances_count);
	fputs("const struct catalog_row catalog__rows[] = {\n", o);
	rewind(rows);
	for (int ch; (ch = getc(rows)) != EOF;)
		putc(ch, o);
	fclose(rows);
	fputs("};\n\nconst size_t catalog__rows_len = sizeof catalog__rows / sizeof catalog__rows[0];\n\n", o);
	fputs("const char catalog__names[][CATALOG_NAME_CAP] = {\n", o);
	for (unsigned i = 0; i < d->instances_count; i++) {
		fputs("\t", o);
		put_str(o, d->instances[order[i]].name);
		fputs(",\n", o);
	}
	fputs("};\n\nconst char catalog__name_index[][CATALOG_NAME_CAP] = {\n", o);
	for (unsigned i = 0; i < d->instances_count; i += CATALOG_NAME_BLOCK) {
		fputs("\t", o);
		put_str(o, d->instances[order[i]].name);
		fputs(",\n", o);
	}
	fputs("};\n\nconst size_t catalog__name_index_len =\n"
	      "\tsizeof catalog__name_index / sizeof catalog__name_index[0];\n\n", o);
	fputs("const struct catalog_cb_row catalog__cb[] = {\n", o);
	for (unsigned i = 0; i < d->instances_count; i++) {
		const struct inst *in = &d->instances[order[i]];
		if (in->capacity_block_count > 0)
			qsort(in->capacity_block, in->capacity_block_count,
			      sizeof *in->capacity_block, by_region_date);
		for (unsigned k = 0; k < in->capacity_block_count; k++) {
			const struct price *cb = &in->capacity_block[k];
			fprintf(o, "\t{ %s, %u, %u, %u }, /* %s %s %s */\n", cb->usd_per_hour,
				pool_add(&pl, cb->region), pool_add(&pl, cb->date),
				pool_add(&pl, source_text(d, cb->source)), in->name, cb->region, cb->date);
			cb_total++;
		}
	}
	if (cb_total == 0)
		fputs("\t{ -1.0, 0, 0, 0 },\n", o);
	fprintf(o, "};\n\nstruct instance_type catalog__cache[%u];\nstruct catalog_price catalog__cb_cache[%u];\n\n",
		d->instances_count, cb_total ? cb_total : 1);
	fputs("const char catalog__pool[] =\n\t\"\\0\"", o);
	for (size_t off = 1; off < pl.len; off += strlen(pl.text + off) + 1) {
		fputs("\n\t", o);
		put_str(o, pl.text + off);
		fputs(" \"\\0\"", o);
	}
	fputs(";\n", o);
	free(pl.text);
	free(pl.slots);
}

/* ---------------------------------------------------------- main ---- */

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;

	if (f == NULL)
		return NULL;
	buf = xrealloc_or_die(NULL, MAX_INPUT + 1);
	n = fread(buf, 1, MAX_INPUT + 1, f);
	if (ferror(f) || n > MAX_INPUT) {
		fclose(f);
		free(buf);
		*len = n;
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	struct ctx c = { 0 };
	struct cylog lg = { .have_msg = false };
	cyaml_config_t cfg = {
		.log_fn = cylog_fn,
		.log_ctx = &lg,
		.mem_fn = cyaml_mem,
		.log_level = CYAML_LOG_WARNING,
		.flags = CYAML_CFG_NO_ALIAS,
	};
	struct doc *d = NULL, loaded = { 0 };
	struct table table = { 0 };
	struct resolved *res = NULL;
	unsigned *order = NULL;
	cyaml_err_t rc;
	size_t len = 0;
	char *text;
	int status = 1;

	if (argc != 2 && argc != 3) {
		fputs("usage: catalog_gen CATALOG.yaml [EC2-TYPES.tsv] > catalog_data.c\n", stderr);
		return 2;
	}
	c.file = argv[1];
	text = read_file(c.file, &len);
	if (text == NULL) {
		if (len > MAX_INPUT)
			fprintf(stderr, "%s:1: error: larger than %u bytes\n", c.file, MAX_INPUT);
		else
			perror(c.file);
		return len > MAX_INPUT ? 1 : 2;
	}
	if (memchr(text, '\0', len) != NULL)
		err_line(&c, 1, "the file contains a NUL byte");
	else if (scan_positions(&c, text, len)) {
		rc = cyaml_load_data((const uint8_t *)text, len, &cfg, &doc_schema,
				     (cyaml_data_t **)&d, NULL);
		if (rc != CYAML_OK)
			report_cyaml(&c, &lg, rc);
		else if (d == NULL)
			err_line(&c, 1, "the catalog is empty");
	}
	if (c.errors == 0) {
		/* libcyaml frees what it loaded: the merge works on copies */
		loaded = *d;
		d->instances = arena_alloc((d->instances_count + 1) * sizeof *d->instances);
		memcpy(d->instances, loaded.instances, d->instances_count * sizeof *d->instances);
		if (argc == 3 && table_load(&c, &table, argv[2]))
			merge_table(&c, d, &table);
		check_accelerators(&c, d);
		apply_accelerators(d);
	}
	if (c.errors == 0) {
		res = calloc(d->instances_count + 1, sizeof *res);
		order = calloc(d->instances_count + 1, sizeof *order);
		if (res == NULL || order == NULL)
			die_oom();
		check_doc(&c, d, res, order);
	}
	if (c.errors == 0) {
		emit(stdout, c.file, d, res, order);
		status = fflush(stdout) == 0 && !ferror(stdout) ? 0 : 2;
	} else {
		fprintf(stderr, "%s: %u error%s; no table written\n", c.file,
			c.errors, c.errors == 1 ? "" : "s");
	}
	if (d != NULL) {
		if (loaded.instances != NULL || loaded.sources != NULL) {
			d->instances = loaded.instances;
			d->instances_count = loaded.instances_count;
			d->sources = loaded.sources;
			d->sources_count = loaded.sources_count;
		}
		cyaml_free(&cfg, &doc_schema, d, 0);
	}
	free(table.sources);
	free(table.rows);
	arena_free();
	for (size_t i = 0; i < c.npos; i++)
		free(c.pos[i].path);
	free(c.pos);
	free(res);
	free(order);
	free(text);
	return status;
}
