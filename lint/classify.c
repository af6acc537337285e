/* What kind of file an input is (docs/design.md, "Kinds"): a cluster
 * config has top-level HeadNode and Scheduling; a job spec has
 * `trainforge:` (its format version); a batch script is a shell script
 * with #SBATCH lines or a batch-script name. A file in another language
 * (by its name or its #! line) is no batch script, whatever text it
 * holds: Python that writes batch scripts carries #SBATCH lines in its
 * strings. A template (train.sbatch.j2) is the kind of the name under
 * its template suffix; its tags are masked for the model (template.c).
 * A top-level key that is a near miss of a kind's marker (Headnode,
 * Schedulling, trainforg) makes the file that kind too: a typo must not
 * turn a broken config into a file of no kind that passes (its schema
 * then reports the key, with a did-you-mean). A YAML file of no kind
 * whose keys are ParallelCluster keys under one of their parents is a
 * fragment of a cluster config (lint_fragment_of). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lint_internal.h"
#include "schema.h"
#include "text.h"
#include "xalloc.h"

/* Template suffixes; the name under one decides the kind. */
static const char *const template_suffixes[] = {
	".j2", ".jinja", ".jinja2", ".template", ".tmpl", ".tpl",
};

/* Names of files in languages other than the shell's. */
static const struct {
	const char *suffix, *language;
} other_languages[] = {
	{ ".py", "Python" }, { ".pyw", "Python" }, { ".pl", "Perl" }, { ".pm", "Perl" },
	{ ".rb", "Ruby" }, { ".jl", "Julia" }, { ".R", "R" }, { ".lua", "Lua" },
	{ ".js", "JavaScript" }, { ".ts", "TypeScript" },
};

/* Interpreters whose scripts are shell scripts the model reads: sh and
 * its relatives, which accept the sh and bash constructs batch scripts
 * use. csh and fish are shells of another syntax. */
static const char *const shells[] = {
	"sh", "bash", "dash", "ash", "ksh", "ksh93", "mksh", "pdksh", "zsh",
};

/* env options that take the next word as their argument. */
static const char *const env_options_with_argument[] = {
	"-u", "--unset", "-C", "--chdir", "-P",
};

#define COUNT(a) (sizeof (a) / sizeof (a)[0])

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t b = strlen(suffix);
	return len >= b && memcmp(s + len - b, suffix, b) == 0;
}

static size_t template_suffix(const char *path, size_t len)
{
	for (size_t i = 0; i < COUNT(template_suffixes); i++)
		if (ends_with(path, len, template_suffixes[i]))
			return strlen(template_suffixes[i]);
	return 0;
}

/* The length of path without its template suffix, if it has one. */
static size_t name_len(const char *path)
{
	size_t len = strlen(path);
	return len - template_suffix(path, len);
}

static bool has_suffix(const char *s, const char *suffix)
{
	return ends_with(s, strlen(s), suffix);
}

/* A YAML template is not taken by its name: its {% %} lines are not
 * YAML until rendered. */
bool lint_yaml_name(const char *path)
{
	return has_suffix(path, ".yaml") || has_suffix(path, ".yml");
}

bool lint_settings_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	return !strcmp(base, ".trainforge.yaml") || !strcmp(base, ".trainforge.yml");
}

bool lint_script_name(const char *path)
{
	size_t len = name_len(path);
	return ends_with(path, len, ".sbatch") || ends_with(path, len, ".slurm");
}

bool lint_shell_name(const char *path)
{
	size_t len = name_len(path);
	return ends_with(path, len, ".sh") || ends_with(path, len, ".bash");
}

bool lint_python_name(const char *path)
{
	return has_suffix(path, ".py");
}

/* The language a name says the file is in, or NULL. */
static const char *other_language(const char *path, const char **suffix)
{
	size_t len = name_len(path);
	for (size_t i = 0; i < COUNT(other_languages); i++)
		if (ends_with(path, len, other_languages[i].suffix)) {
			*suffix = other_languages[i].suffix;
			return other_languages[i].language;
		}
	return NULL;
}

/* A template is looked at unless the name under it is YAML or another
 * language: it is a batch script when its text has #SBATCH lines. */
bool lint_candidate(const char *path)
{
	const char *suffix;
	size_t len = strlen(path), base = len - template_suffix(path, len);
	bool template = base < len && !ends_with(path, base, ".yaml") &&
			!ends_with(path, base, ".yml") && !other_language(path, &suffix);
	return lint_yaml_name(path) || lint_script_name(path) || lint_shell_name(path) || template;
}

bool lint_has_sbatch_line(const struct source *src)
{
	const char *p = src->text, *end = src->text + src->len;
	while (p < end) {
		if (end - p >= 7 && memcmp(p, "#SBATCH", 7) == 0)
			return true;
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		p = nl ? nl + 1 : end;
	}
	return false;
}

bool lint_batch_head(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	bool shebang = len >= 2 && !memcmp(text, "#!", 2), command = false;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *q = p;
		while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r'))
			q++;
		if (eol - p >= 7 && !memcmp(p, "#SBATCH", 7))
			return shebang || !command;
		if (q < eol && *q != '#')
			command = true;
		p = nl ? nl + 1 : end;
	}
	return false;
}

char *lint_csh_mask(const struct source *src)
{
	char *t = xmalloc(src->len + 1);
	memcpy(t, src->text, src->len);
	t[src->len] = '\0';
	for (size_t i = 0; i < src->len;) {
		size_t eol = i;
		while (eol < src->len && t[eol] != '\n')
			eol++;
		size_t q = i;
		while (q < eol && (t[q] == ' ' || t[q] == '\t' || t[q] == '\r'))
			q++;
		if (q < eol && t[q] != '#') {
			t[q] = ':';
			for (size_t k = q + 1; k < eol; k++)
				if (t[k] != '\r')
					t[k] = ' ';
		}
		i = eol + 1;
	}
	return t;
}

/* ---- the #! line ----------------------------------------------------- */

struct words {
	const char *p, *end;
};

/* The next word of the line (blanks separate), or false at its end. */
static bool next_word(struct words *w, const char **start, size_t *len)
{
	while (w->p < w->end && (*w->p == ' ' || *w->p == '\t'))
		w->p++;
	if (w->p == w->end)
		return false;
	*start = w->p;
	while (w->p < w->end && *w->p != ' ' && *w->p != '\t')
		w->p++;
	*len = (size_t)(w->p - *start);
	return true;
}

static bool word_is(const char *s, size_t len, const char *what)
{
	return strlen(what) == len && memcmp(s, what, len) == 0;
}

static bool word_in(const char *s, size_t len, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (word_is(s, len, list[i]))
			return true;
	return false;
}

static void base_name(const char **s, size_t *len)
{
	const char *slash = NULL;
	for (const char *p = *s; p < *s + *len; p++)
		if (*p == '/')
			slash = p;
	if (slash) {
		*len -= (size_t)(slash + 1 - *s);
		*s = slash + 1;
	}
}

/* The command env runs: the first word after its options and NAME=VALUE
 * assignments (-S splits the rest of the line into words, as here). */
static bool env_command(struct words *w, const char **s, size_t *len)
{
	while (next_word(w, s, len)) {
		if (*len > 2 && !memcmp(*s, "-S", 2)) {
			*s += 2, *len -= 2; /* -Sbash */
			return true;
		}
		if (*len > 15 && !memcmp(*s, "--split-string=", 15)) {
			*s += 15, *len -= 15;
			return true;
		}
		if (word_in(*s, *len, env_options_with_argument, COUNT(env_options_with_argument))) {
			const char *arg;
			size_t arg_len;
			if (!next_word(w, &arg, &arg_len))
				return false;
			continue;
		}
		if (**s == '-' || memchr(*s, '=', *len))
			continue;
		return true;
	}
	return false;
}

/* The program the first line's #! runs, by its base name; false when
 * there is no #! line, it names nothing, or it holds a template tag
 * (#!{{ shell }}), which says nothing until rendered. */
static bool shebang_program(const struct source *src, const char **s, size_t *len)
{
	const char *p = src->text, *end = src->text + src->len;
	if (end - p >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
		p += 3;
	if (end - p < 2 || memcmp(p, "#!", 2) != 0)
		return false;
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	struct words w = { p + 2, nl ? nl : end };
	if (w.end > w.p && w.end[-1] == '\r')
		w.end--;
	for (const char *q = w.p; q + 1 < w.end; q++)
		if (q[0] == '{' && (q[1] == '{' || q[1] == '%'))
			return false;
	if (!next_word(&w, s, len))
		return false;
	base_name(s, len);
	if (word_is(*s, *len, "env") && !env_command(&w, s, len))
		return false;
	base_name(s, len);
	return *len > 0;
}

bool lint_csh(const struct source *src)
{
	const char *prog;
	size_t len;
	return shebang_program(src, &prog, &len) &&
	       (word_is(prog, len, "csh") || word_is(prog, len, "tcsh"));
}

bool lint_not_shell(const struct source *src, char *why, size_t size)
{
	const char *suffix, *language = other_language(src->path, &suffix), *prog;
	size_t len;
	if (language) {
		snprintf(why, size, "a %s file is %s", suffix, language);
		return true;
	}
	if (!shebang_program(src, &prog, &len) || word_in(prog, len, shells, COUNT(shells)))
		return false;
	snprintf(why, size, "its #! line runs %.*s", (int)(len > 40 ? 40 : len), prog);
	return true;
}

enum { NEAR_MISS = 2 }; /* edits, ASCII case folded: Headnode, Schedulling */

/* Whether a top-level key is marker or a near miss of it. The scan is
 * bounded: markers are looked for among the first keys only. */
static bool has_marker(const yamldoc *doc, yd_node root, const char *marker)
{
	if (yd_get_key(doc, root, marker))
		return true;
	size_t ml = strlen(marker);
	for (size_t i = 0; i < yd_len(doc, root) && i < 64; i++) {
		size_t len;
		const char *k = yd_str(doc, yd_key(doc, root, i), &len);
		if (k && len + NEAR_MISS >= ml && len <= ml + NEAR_MISS &&
		    text_edit_distance(k, len, marker, ml, NEAR_MISS) <= NEAR_MISS)
			return true;
	}
	return false;
}

enum file_kind lint_classify_yaml(const yamldoc *doc)
{
	yd_node root = yd_root(doc);
	if (yd_kind(doc, root) != YD_MAPPING)
		return KIND_UNKNOWN;
	if (yd_get_key(doc, root, "HeadNode") && yd_get_key(doc, root, "Scheduling"))
		return KIND_PCLUSTER;
	if (yd_get_key(doc, root, "trainforge"))
		return KIND_JOBSPEC;
	if (has_marker(doc, root, "HeadNode") && has_marker(doc, root, "Scheduling"))
		return KIND_PCLUSTER;
	if (has_marker(doc, root, "trainforge"))
		return KIND_JOBSPEC;
	return KIND_UNKNOWN;
}

/* ---- fragments of a cluster config ------------------------------------ */

/* Keys ParallelCluster shares with other AWS and YAML formats (a
 * CloudFormation resource, a tool's settings): alone they say nothing of
 * the file. A fragment has one key of ParallelCluster's own vocabulary
 * at least (HeadNode, SlurmQueues, InstanceType, MinCount, Efa...). */
static const char *const shared_keys[] = {
	"Name", "Enabled", "Tags", "Key", "Value", "Region", "Image", "Size", "Port",
	"Script", "Args", "Encrypted", "Proxy", "KmsKeyId", "Iops", "Throughput",
	"DeletionPolicy", "VolumeType", "CloudWatch", "Iam", "Database", "Dns",
	"Timeouts", "Cookbook",
};

enum {
	FRAGMENT_KEYS = 64,   /* keys of one mapping looked at */
	FRAGMENT_ITEMS = 16,  /* items of a top-level list looked at */
	NEAR_MISS_LEN = 6,    /* shorter keys must match exactly */
};

struct key_score {
	size_t exact, near, shared;
	bool other;
};

/* How key (len bytes) fits the properties of object schema sn. */
static void score_key(schema *s, yd_node sn, const char *key, size_t len, struct key_score *k)
{
	if (schema_has_property(s, sn, key, len)) {
		k->exact++;
		k->shared += word_in(key, len, shared_keys, COUNT(shared_keys));
		return;
	}
	for (size_t i = 0; len >= NEAR_MISS_LEN && i < schema_property_count(s, sn); i++) {
		size_t pl;
		const char *p = schema_property_name(s, sn, i, &pl);
		if (p && text_edit_distance(key, len, p, pl, NEAR_MISS) <= NEAR_MISS) {
			k->near++;
			return;
		}
	}
	k->other = true;
}

static void score_mapping(schema *s, yd_node sn, const yamldoc *doc, yd_node map,
			  struct key_score *k)
{
	for (size_t i = 0; i < yd_len(doc, map) && i < FRAGMENT_KEYS && !k->other; i++) {
		yd_node key = yd_key(doc, map, i);
		size_t len;
		const char *name = yd_str(doc, key, &len);
		if (yd_type(doc, key) == YD_T_UNKNOWN)
			continue; /* a placeholder may be any key */
		if (!name || !len)
			k->other = true;
		else
			score_key(s, sn, name, len, k);
	}
}

/* What the walk from place sn finds in the document, the keys a
 * fragment does not hold aside: of two places its top-level keys fit
 * alike (Networking is the head node's, a queue's and a compute
 * resource's), the one that fits the keys under them. */
static size_t fragment_errors(schema *s, const yamldoc *doc, yd_node sn)
{
	struct schema_errors errs = { 0 };
	yd_node root = yd_root(doc);
	if (yd_kind(doc, root) == YD_SEQUENCE)
		for (size_t i = 0; i < yd_len(doc, root) && i < FRAGMENT_ITEMS; i++)
			schema_validate_at(s, doc, yd_item(doc, root, i), sn, NULL, &errs);
	else
		schema_validate_at(s, doc, root, sn, NULL, &errs);
	size_t n = 0;
	for (size_t i = 0; i < errs.len; i++)
		n += errs.v[i].fault != SF_MISSING;
	schema_errors_free(&errs);
	return n;
}

const struct schema_place *lint_fragment_of(const yamldoc *doc)
{
	yd_node root = yd_root(doc);
	enum yd_kind kind = yd_kind(doc, root);
	if ((kind != YD_MAPPING && kind != YD_SEQUENCE) || !yd_len(doc, root))
		return NULL;
	for (size_t i = 0; kind == YD_SEQUENCE && i < yd_len(doc, root); i++)
		if (yd_kind(doc, yd_item(doc, root, i)) != YD_MAPPING)
			return NULL;
	schema *s = schema_embedded("parallelcluster.schema.json");
	if (!s)
		return NULL;
	const struct schema_places *places = schema_places(s);
	const struct schema_place *best = NULL;
	struct key_score best_k = { 0 };
	size_t best_errors = SIZE_MAX;
	for (size_t p = 0; p < places->len; p++) {
		const struct schema_place *at = &places->v[p];
		if (kind == YD_SEQUENCE && !at->item)
			continue; /* a top-level list is a list's items */
		struct key_score k = { 0 };
		if (kind == YD_MAPPING)
			score_mapping(s, at->schema, doc, root, &k);
		for (size_t i = 0; kind == YD_SEQUENCE && i < yd_len(doc, root) && i < FRAGMENT_ITEMS; i++)
			score_mapping(s, at->schema, doc, yd_item(doc, root, i), &k);
		/* every key a property or a near miss of one, more of them
		 * exact than not, one of ParallelCluster's own */
		if (k.other || !k.exact || k.near > k.exact || k.shared == k.exact)
			continue;
		bool tie = best && k.exact == best_k.exact && k.near == best_k.near;
		if (tie) { /* Networking: the place whose walk fits the rest */
			size_t e = fragment_errors(s, doc, at->schema);
			if (best_errors == SIZE_MAX)
				best_errors = fragment_errors(s, doc, best->schema);
			if (e < best_errors) {
				best = at;
				best_errors = e;
			}
			continue;
		}
		if (!best || k.exact > best_k.exact || (k.exact == best_k.exact && k.near < best_k.near)) {
			best = at;
			best_k = k;
			best_errors = SIZE_MAX; /* not counted until a tie needs it */
		}
	}
	return best;
}
