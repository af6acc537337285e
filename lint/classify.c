/* What kind of file an input is (docs/design.md, "Kinds"): a cluster
 * config has top-level HeadNode and Scheduling; a job spec has
 * `trainforge:` (its format version); a batch script is a shell script
 * with #SBATCH lines or a batch-script name. */
#include <string.h>

#include "lint_internal.h"

static bool has_suffix(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

bool lint_yaml_name(const char *path)
{
	return has_suffix(path, ".yaml") || has_suffix(path, ".yml");
}

bool lint_script_name(const char *path)
{
	return has_suffix(path, ".sbatch") || has_suffix(path, ".slurm");
}

bool lint_shell_name(const char *path)
{
	return has_suffix(path, ".sh") || has_suffix(path, ".bash");
}

bool lint_candidate(const char *path)
{
	return lint_yaml_name(path) || lint_script_name(path) || lint_shell_name(path);
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

/* A Jinja or Mustache template of a script: by its name, or by a tag
 * ({{ ... }}, {% ... %}) closed on its line. Its tags are words whose
 * value is unknown (sb_parse's SB_PARSE_TEMPLATE). */
bool lint_template(const struct source *src)
{
	static const char *const names[] = { ".j2", ".jinja", ".jinja2", ".template", ".tmpl",
					     ".mustache" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (src->path && has_suffix(src->path, names[i]))
			return true;
	const char *p = src->text, *end = src->text + src->len;
	while (p + 1 < end && (p = memchr(p, '{', (size_t)(end - p - 1))) != NULL) {
		char close = p[1] == '{' ? '}' : p[1] == '%' ? '%' : 0;
		for (const char *q = p + 2; close && q + 1 < end && *q != '\n'; q++)
			if (q[0] == close && q[1] == '}')
				return true;
		p++;
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
	return KIND_UNKNOWN;
}
