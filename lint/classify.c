/* What kind of file an input is (docs/design.md, "Kinds"): a cluster
 * config has top-level HeadNode and Scheduling; a job spec has
 * `trainforge:` (its format version); a batch script is a shell script
 * with #SBATCH lines or a batch-script name. A top-level key that is a
 * near miss of a kind's marker (Headnode, Schedulling, trainforg) makes
 * the file that kind too: a typo must not turn a broken config into a
 * file of no kind that passes (its schema then reports the key, with a
 * did-you-mean). */
#include <string.h>

#include "lint_internal.h"
#include "text.h"

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
