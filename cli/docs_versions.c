/* trainforge docs versions: docs/versions-table.md, every release fact
 * the tool encodes, made from the tables themselves (the release table,
 * the schemas' release tags, the sbatch option table and the Slurm
 * change table), so that tests/versions can hold them against the
 * sourced facts of docs/versions-data.tsv. */
#include "docs.h"

#include <stdio.h>
#include <string.h>

#include "assets.h"
#include "changes.h"
#include "options.h"
#include "releases.h"
#include "yamldoc.h"

enum { WALK_MAX_DEPTH = 48 };

static const char *const how_names[] = {
	[RELEASE_SOURCED] = "sourced", [RELEASE_DERIVED] = "derived",
	[RELEASE_THIRD_PARTY] = "third-party",
};

static void write_releases(struct buf *b)
{
	buf_puts(b, "## ParallelCluster releases\n\n"
		    "The Slurm each release installs (docs/versions.md, \"pc-releases\"); releases "
		    "whose Slurm no source gives are not listed. `--target parallelcluster=3.11` "
		    "to `3.16` (a line: its newest release here) or one of the releases from 3.11.0.\n\n"
		    "| ParallelCluster | Slurm | how known |\n|---|---|---|\n");
	for (size_t i = 0; i < pc_release_count(); i++) {
		const struct pc_release *r = pc_release_at(i);
		buf_printf(b, "| %s | %s | %s |\n", PC_TEXT(r->pc), SLURM_TEXT(r->slurm),
			   how_names[r->how]);
	}
}

/* ---- the schemas' release tags --------------------------------------- */

struct walk {
	const yamldoc *d;
	struct buf *b;
	char path[512];
};

static yd_node deref(const yamldoc *d, yd_node s)
{
	for (int hops = 0; hops < 8 && yd_kind(d, s) == YD_MAPPING; hops++) {
		const char *ref = yd_str(d, yd_get(d, s, "$ref"), NULL);
		if (!ref || strncmp(ref, "#/$defs/", 8) != 0)
			break;
		s = yd_get(d, yd_get(d, yd_root(d), "$defs"), ref + 8);
	}
	return s;
}

static void tag_row(struct walk *w, const char *value, yd_node since, yd_node until)
{
	const char *a = yd_str(w->d, since, NULL), *r = yd_str(w->d, until, NULL);
	if (!a && !r)
		return;
	buf_printf(w->b, "| `%s%s%s` | %s | %s |\n", w->path, value ? "=" : "", value ? value : "",
		   a ? a : "", r ? r : "");
}

static void walk_schema(struct walk *w, yd_node s, unsigned depth);

static void walk_properties(struct walk *w, yd_node props, unsigned depth)
{
	size_t len = strlen(w->path);
	for (size_t i = 0; i < yd_len(w->d, props); i++) {
		const char *k = yd_str(w->d, yd_key(w->d, props, i), NULL);
		yd_node ps = yd_value(w->d, props, i);
		if (!k || len + strlen(k) + 4 >= sizeof w->path)
			continue;
		snprintf(w->path + len, sizeof w->path - len, "%s%s", len ? "/" : "", k);
		if (yd_kind(w->d, yd_get(w->d, ps, "x-since")) == YD_SCALAR ||
		    yd_kind(w->d, yd_get(w->d, ps, "x-until")) == YD_SCALAR)
			tag_row(w, NULL, yd_get(w->d, ps, "x-since"), yd_get(w->d, ps, "x-until"));
		walk_schema(w, ps, depth + 1);
		w->path[len] = '\0';
	}
}

/* Every key path under s, in schema order: the tagged keys, and the
 * tagged values beside their enums. */
static void walk_schema(struct walk *w, yd_node s, unsigned depth)
{
	const yamldoc *d = w->d;
	s = deref(d, s);
	if (depth > WALK_MAX_DEPTH || yd_kind(d, s) != YD_MAPPING)
		return;
	yd_node enm = yd_get(d, s, "enum");
	for (size_t i = 0; i < yd_len(d, enm); i++) {
		const char *v = yd_str(d, yd_item(d, enm, i), NULL);
		yd_node since = yd_get(d, yd_get(d, s, "x-since"), v ? v : "");
		yd_node until = yd_get(d, yd_get(d, s, "x-until"), v ? v : "");
		if (v && (yd_kind(d, yd_get(d, s, "x-since")) == YD_MAPPING ||
			  yd_kind(d, yd_get(d, s, "x-until")) == YD_MAPPING))
			tag_row(w, v, since, until);
	}
	walk_properties(w, yd_get(d, s, "properties"), depth);
	yd_node items = yd_get(d, s, "items");
	size_t len = strlen(w->path);
	if (items && len + 3 < sizeof w->path) {
		strcat(w->path, "[]");
		walk_schema(w, items, depth + 1);
		w->path[len] = '\0';
	}
}

static void write_schema(struct buf *b, const char *title, const char *asset)
{
	const struct asset *a = asset_find(asset);
	if (!a)
		return;
	yamldoc *d = yamldoc_parse(a->text, a->len, NULL);
	buf_printf(b, "\n## %s\n\n| key or value | added in | removed in |\n|---|---|---|\n", title);
	struct walk w = { d, b, "" };
	walk_schema(&w, yd_root(d), 0);
	yamldoc_free(d);
}

/* ---- Slurm ----------------------------------------------------------- */

static void version_cell(struct buf *b, struct version v)
{
	if (version_is_set(v))
		buf_puts(b, SLURM_RELEASE_TEXT(v));
}

static void write_sbatch(struct buf *b)
{
	buf_puts(b, "\n## sbatch options\n\n"
		    "Options added or removed since 22.05 (docs/versions.md, \"slurm-options-sbatch\"). "
		    "first known: the release that added it is not known, only that 22.05 lacks it.\n\n"
		    "| option | added in | removed in | notes |\n|---|---|---|---|\n");
	for (size_t i = 0; i < sbopt_count(); i++) {
		const struct sbopt *o = sbopt_at(i);
		if (!version_is_set(o->since) && !version_is_set(o->until))
			continue;
		buf_printf(b, "| `--%s` | ", o->name);
		version_cell(b, o->since);
		buf_puts(b, " | ");
		version_cell(b, o->until);
		buf_printf(b, " | %s%s%s |\n", o->flags & SBOPT_UNSURE ? "first known" : "",
			   (o->flags & SBOPT_UNSURE) && (o->flags & SBOPT_BLOCK) ? "; " : "",
			   o->flags & SBOPT_BLOCK ? "topology/block" : "");
	}
}

static void write_changes(struct buf *b)
{
	buf_puts(b, "\n## srun options, and values of both commands\n\n"
		    "(docs/versions.md, \"slurm-options-srun\" and \"slurm-options-values\")\n\n"
		    "| command | option or value | added in | removed in | notes |\n"
		    "|---|---|---|---|---|\n");
	for (size_t i = 0; i < slurm_change_count(); i++) {
		const struct slurm_change *c = slurm_change_at_index(i);
		const char *cmds = c->cmds == (SLURM_SBATCH | SLURM_SRUN) ? "sbatch, srun"
				 : c->cmds == SLURM_SRUN ? "srun" : "sbatch";
		if (c->flags & SLURM_CHANGE_FORM)
			buf_printf(b, "| %s | `--%s` (%s) | ", cmds, c->option, c->value);
		else
			buf_printf(b, "| %s | `--%s%s%s` | ", cmds, c->option, c->value ? "=" : "",
				   c->value ? c->value : "");
		version_cell(b, c->since);
		buf_puts(b, " | ");
		version_cell(b, c->until);
		buf_printf(b, " | %s%s%s |\n", c->flags & SLURM_CHANGE_UNSURE ? "first known" : "",
			   (c->flags & SLURM_CHANGE_UNSURE) && (c->flags & SLURM_CHANGE_BLOCK) ? "; " : "",
			   c->flags & SLURM_CHANGE_BLOCK ? "topology/block" : "");
	}
}

void docs_write_versions(struct buf *b)
{
	buf_puts(b, "# Versions: what each release adds or removes\n\n"
		    "<!-- Generated by `trainforge docs versions` from core/facts/releases.c, the schemas' "
		    "release tags,\n     lint/slurm/options.c and lint/slurm/changes.c. Edit those, then run: "
		    "trainforge docs versions > docs/versions-table.md -->\n\n"
		    "Every version fact trainforge checks against the target (`--target`, `target:` "
		    "in .trainforge.yaml). The sources of each are in [versions.md](versions.md).\n\n");
	write_releases(b);
	write_schema(b, "Cluster-config keys and values", "parallelcluster.schema.json");
	write_schema(b, "Job spec values (as the cluster config's)", "jobspec.schema.json");
	write_sbatch(b);
	write_changes(b);
}
