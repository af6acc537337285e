/* The Python programs batch scripts start, read on demand: when a
 * script's torchrun, srun or python names a .py entry point, the file is
 * looked up among the inputs (the path, or for an absolute entry the one
 * input of that basename), then at the path the script names, relative
 * to the script's directory; each is read once per run
 * (docs/design.md, "Layout": lint/program). Nothing is read for a script
 * that names no .py file. */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fileio.h"
#include "lint_internal.h"
#include "pyargs.h"
#include "xalloc.h"

struct lint_program {
	char *path;
	bool read;             /* false: not there, or not readable */
	struct py_args args;
};

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* A .py input by path, or, for an absolute entry, the only one of its
 * basename. */
static const struct lint_file *program_input(const struct lint_run *run, const char *path,
					     const char *entry)
{
	const struct lint_file *by_name = NULL;
	size_t names = 0;
	for (size_t i = 0; i < run->n_files; i++) {
		const struct lint_file *f = run->files[i];
		if (!f->program)
			continue;
		if (!strcmp(f->src->path, path))
			return f;
		if (entry[0] == '/' && !strcmp(base_name(f->src->path), base_name(entry))) {
			by_name = f;
			names++;
		}
	}
	return names == 1 ? by_name : NULL;
}

static struct lint_program *cached(struct lint_run *run, const char *path)
{
	for (size_t i = 0; i < run->n_programs; i++)
		if (!strcmp(run->programs[i].path, path))
			return &run->programs[i];
	run->programs = xgrow(run->programs, &run->cap_programs, run->n_programs + 1,
			      sizeof *run->programs);
	struct lint_program *p = &run->programs[run->n_programs++];
	memset(p, 0, sizeof *p);
	p->path = xstrdup(path);
	return p;
}

bool lint_program_was_read(const struct lint_run *run, const char *path)
{
	for (size_t i = 0; i < run->n_programs; i++)
		if (!strcmp(run->programs[i].path, path))
			return run->programs[i].read;
	return false;
}

const struct py_args *lint_program_find(struct lint_run *run, const char *script,
					const char *entry, const char **path)
{
	struct buf full = BUF_INIT;
	if (entry[0] == '/') {
		buf_puts(&full, entry);
	} else {
		char *copy = xstrdup(script);
		const char *dir = dirname(copy);
		buf_printf(&full, "%s/%s", strcmp(dir, ".") ? dir : ".",
			   strncmp(entry, "./", 2) ? entry : entry + 2);
		free(copy);
	}
	const char *want = strncmp(full.p, "./", 2) ? full.p : full.p + 2;
	const struct lint_file *in = program_input(run, want, entry);
	struct lint_program *p = cached(run, in ? in->src->path : want);
	buf_free(&full);
	if (!p->read && !p->args.why) {
		if (in) {
			py_args_read(in->src->text, in->src->len, &p->args);
			p->read = true;
		} else if (entry[0] != '/') {
			size_t len;
			bool too_big;
			char *text = file_read(p->path, PY_MAX_BYTES, &len, &too_big);
			if (text && !too_big) {
				py_args_read(text, len, &p->args);
				p->read = true;
			}
			free(text);
			if (!p->read)
				p->args.why = "unreadable"; /* tried once */
		} else {
			p->args.why = "not an input"; /* an absolute path on this machine is not the cluster's */
		}
	}
	*path = p->path;
	return p->read ? &p->args : NULL;
}

void lint_programs_free(struct lint_run *run)
{
	for (size_t i = 0; i < run->n_programs; i++) {
		py_args_free(&run->programs[i].args);
		free(run->programs[i].path);
	}
	free(run->programs);
}
