/* YAML inputs as the checks read them (docs/design.md, "Real files are
 * messy"): a template's placeholders found and given their values, a
 * cluster config read as ParallelCluster reads it (PyYAML's YAML 1.1)
 * and, when it holds characters that only look like ASCII, with those
 * read as the ASCII they look like, so that each look-alike is one
 * finding and not also a wrong value everywhere it is used. */
#include <stdint.h>
#include <string.h>

#include "lint_internal.h"

/* Whether the text has a byte outside ASCII, eight at a time. */
static bool has_non_ascii(const char *p, size_t len)
{
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		uint64_t word;
		memcpy(&word, p + i, 8);
		if (word & UINT64_C(0x8080808080808080))
			return true;
	}
	for (; i < len; i++)
		if ((unsigned char)p[i] >= 0x80)
			return true;
	return false;
}

/* Whether the template reading took a $VAR or ${VAR} for a placeholder. */
static bool has_shell_placeholder(const struct tmpl *t)
{
	for (size_t i = 0; i < t->n_ph; i++)
		if (t->ph[i].style == TMPL_BRACED || t->ph[i].style == TMPL_BARE)
			return true;
	return false;
}

static void parse(struct lint_file *f, const struct tmpl_defs *defs, unsigned flags)
{
	tmpl_free(&f->yaml_tmpl);
	yamldoc_free(f->doc);
	tmpl_prepare(f->src->text, f->src->len, defs, flags | TMPL_WORDS, &f->yaml_tmpl);
	f->doc = yamldoc_parse_tmpl(&f->yaml_tmpl, NULL);
}

enum file_kind lint_parse_yaml(struct lint_run *run, struct lint_file *f, enum file_kind kind)
{
	const struct lint_options *opt = lint_options_of(run, f->src);
	parse(f, opt->defines, 0);
	if (kind == KIND_AUTO)
		kind = lint_classify_yaml(f->doc);
	if (kind == KIND_JOBSPEC && has_shell_placeholder(&f->yaml_tmpl))
		parse(f, opt->defines, TMPL_LITERAL_DOLLAR);
	if (kind != KIND_PCLUSTER)
		return kind;
	if (has_non_ascii(f->src->text, f->src->len)) {
		/* the document as written stays beside: whether ParallelCluster
		 * takes a look-alike's value depends on it */
		yamldoc *written = f->doc;
		struct tmpl written_tmpl = f->yaml_tmpl;
		f->doc = NULL;
		memset(&f->yaml_tmpl, 0, sizeof f->yaml_tmpl);
		parse(f, opt->defines, TMPL_FOLD);
		if (f->yaml_tmpl.n_folds) {
			f->as_written = written;
			yamldoc_set_pyyaml(written, true);
			tmpl_free(&written_tmpl);
		} else { /* none outside comments */
			yamldoc_free(f->doc);
			tmpl_free(&f->yaml_tmpl);
			f->doc = written;
			f->yaml_tmpl = written_tmpl;
		}
	}
	yamldoc_set_pyyaml(f->doc, true);
	return kind;
}
