#include "render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets.h"
#include "buf.h"
#include "context.h"
#include "fileio.h"
#include "mustache.h"
#include "xalloc.h"

/* Which plans an output is written for. */
enum output_when {
	FOR_CLUSTER,     /* every plan whose compute nodes' AMI is known */
	FOR_EVERY,
	FOR_MIXED_FLEET, /* the spot watcher */
	FOR_CONTAINER,   /* Pyxis's set-up */
	FOR_IMAGE,       /* software.neuron_image */
};

/* Each output with its template and the escaper of its language. */
static const struct {
	const char *suffix;    /* appended to the job name */
	const char *template;
	esc_fn escaper;
	const char *kind;      /* "script" and "image" are not linted as a kind */
	enum output_when when;
} outputs[] = {
	{ "-cluster.yaml", "cluster.yaml.mustache", esc_yaml, "pcluster", FOR_CLUSTER },
	{ ".sbatch", "batch.sbatch.mustache", esc_shell, "sbatch", FOR_EVERY },
	{ "-spot-watcher.sh", "spot-watcher.sh.mustache", esc_shell, "script", FOR_MIXED_FLEET },
	{ "-pyxis-head.sh", "pyxis-head.sh.mustache", esc_shell, "script", FOR_CONTAINER },
	{ "-pyxis-compute.sh", "pyxis-compute.sh.mustache", esc_shell, "script", FOR_CONTAINER },
	{ "-image.yaml", "image.yaml.mustache", esc_yaml, "image", FOR_IMAGE },
};

static bool wanted(const struct plan *p, enum output_when when)
{
	switch (when) {
	case FOR_CLUSTER: return p->cl.route != ROUTE_PENDING;
	case FOR_EVERY: return true;
	case FOR_MIXED_FLEET: return p->fleet.mixed;
	case FOR_CONTAINER: return p->cl.pyxis;
	case FOR_IMAGE: return p->cl.image;
	}
	return false;
}

static const char *const partials[] = { "env-neuron", "env-gpu", "fleet" };

/* The text of a template: DIR/name when it exists, else the embedded
 * one. The caller frees *owned (NULL for embedded text). */
static const char *template_text(const char *dir, const char *name, size_t *len,
				 char **owned)
{
	*owned = NULL;
	if (dir) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, name);
		bool too_big;
		*owned = file_read(path, 1u << 22, len, &too_big);
		if (*owned)
			return *owned;
	}
	const struct asset *a = asset_find(name);
	if (!a)
		return NULL;
	*len = a->len;
	return a->text;
}

static bool load_partials(struct tpl_partials *ps, const char *dir, char *err, size_t cap)
{
	for (size_t i = 0; i < sizeof partials / sizeof partials[0]; i++) {
		char file[128];
		snprintf(file, sizeof file, "%s.mustache", partials[i]);
		size_t len;
		char *owned;
		const char *text = template_text(dir, file, &len, &owned);
		struct tpl_error e;
		bool ok = text && tpl_partials_add(ps, partials[i], text, len, &e);
		free(owned);
		if (!ok) {
			if (text)
				snprintf(err, cap, "%s:%u:%u: %s", e.name, e.line, e.col, e.msg);
			else
				snprintf(err, cap, "%s: template not found", file);
			return false;
		}
	}
	return true;
}

static bool render_one(size_t i, const struct tv *ctx, const struct tpl_partials *ps,
		       const char *dir, struct buf *out, char *err, size_t cap)
{
	size_t len;
	char *owned;
	const char *text = template_text(dir, outputs[i].template, &len, &owned);
	if (!text) {
		snprintf(err, cap, "%s: template not found", outputs[i].template);
		return false;
	}
	struct tpl_error e;
	struct tpl *t = tpl_compile(outputs[i].template, text, len, &e);
	free(owned);
	struct tpl_render_opts opts = { .strict = true, .escaper = outputs[i].escaper };
	bool ok = t && tpl_render(t, ctx, ps, &opts, out, &e);
	if (!ok)
		snprintf(err, cap, "%s:%u:%u: %s", e.name, e.line, e.col, e.msg);
	tpl_free(t);
	return ok;
}

bool render_all(const struct plan *p, const struct spec *spec, const char *spec_path,
		const char *templates_dir, struct gen_files *out, char *err, size_t cap)
{
	memset(out, 0, sizeof *out);
	struct tv *ctx = context_build(p, spec, spec_path);
	/* the config's name beside the script, for the script's pairing
	 * comment: relative, so that the two move together; none while the
	 * config waits for its image (a comment naming a file gen did not
	 * write would pair the script with nothing) */
	if (wanted(p, outputs[0].when)) {
		struct buf cluster_file = BUF_INIT;
		buf_printf(&cluster_file, "%s%s", p->job->name, outputs[0].suffix);
		tv_map_set(ctx, "cluster_file", tv_str(cluster_file.p));
		buf_free(&cluster_file);
	} else {
		tv_map_set(ctx, "cluster_file", tv_bool(false));
	}
	struct tpl_partials *ps = tpl_partials_new();
	bool ok = load_partials(ps, templates_dir, err, cap);
	for (size_t i = 0; ok && i < sizeof outputs / sizeof outputs[0]; i++) {
		if (!wanted(p, outputs[i].when))
			continue;
		struct buf b = BUF_INIT;
		ok = render_one(i, ctx, ps, templates_dir, &b, err, cap);
		if (!ok) {
			buf_free(&b);
			break;
		}
		struct gen_file *f = &out->v[out->len++];
		struct buf name = BUF_INIT;
		buf_printf(&name, "%s%s", p->job->name, outputs[i].suffix);
		f->name = buf_detach(&name);
		f->len = b.len;
		f->text = buf_detach(&b);
		f->kind = outputs[i].kind;
		f->template = outputs[i].template;
	}
	tpl_partials_free(ps);
	tv_free(ctx);
	if (!ok)
		gen_files_free(out);
	return ok;
}

void gen_files_free(struct gen_files *files)
{
	for (size_t i = 0; i < files->len; i++) {
		free(files->v[i].name);
		free(files->v[i].text);
	}
	files->len = 0;
}
