/* #SBATCH directives, read the way sbatch 22.05 reads them (checked
 * against its behaviour): lines that start with "#SBATCH" (or "#SLURM")
 * in column 1, until the first line whose first non-blank character is
 * not '#'; each line split into arguments with sbatch's own quoting
 * (quotes removed, backslash escapes a non-blank, an unquoted '#' ends
 * the line); all arguments of a job component handed to getopt_long as
 * one argv, so "--nodes" may take its value from the next #SBATCH line
 * and a unique prefix such as "--partit" selects --partition.
 *
 * A line whose first word is "hetjob" (or the older "packjob"), in any
 * case and unquoted, starts the next component of a heterogeneous job;
 * the rest of that line is ignored. The same word later on a line ends
 * the line: sbatch drops it and every word after it (sbatch 22.05.8 -v
 * shows both; "--job-name=hetjob-x" and a quoted "hetjob" are ordinary
 * words).
 *
 * Directives after the first command are recorded too, marked
 * after_command, so rules can say they are ignored; only lines bash sees
 * as comments count there (not here-document or string lines). */
#include "internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xalloc.h"

struct darg {
	char *text;      /* after quote removal */
	size_t len;
	size_t *raw;     /* raw offset of each byte of text, and one past */
	uint32_t line;
	bool slurm;      /* from a #SLURM line */
	bool tag;        /* holds a template tag ({{ n }}): its value is unknown */
};

struct argv {
	VEC(struct darg) a;
};

static void free_args(struct argv *v)
{
	for (size_t i = 0; i < v->a.len; i++) {
		free(v->a.v[i].text);
		free(v->a.v[i].raw);
	}
	v->a.len = 0;
}

/* The component separator word at s[p..end): hetjob or packjob, any
 * case, unquoted, followed by a blank or the end of the line. */
static bool hetjob_word(const char *s, size_t p, size_t end)
{
	static const char *const words[] = { "hetjob", "packjob" };
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		size_t n = strlen(words[i]);
		if (end - p >= n && strncasecmp(s + p, words[i], n) == 0 &&
		    (p + n == end || isspace((unsigned char)s[p + n])))
			return true;
	}
	return false;
}

/* Splits one directive line's text [p, end) into arguments. Returns false
 * on an unmatched quote (sbatch stops with a fatal error). With
 * separator non-NULL (lines sbatch reads as directives), a hetjob word
 * ends the line, and *separator tells whether it was the line's first. */
static bool split_line(sb_model *m, size_t p, size_t end, uint32_t line, bool slurm,
		       struct argv *out, bool *separator)
{
	const char *s = m->text;
	size_t before = out->a.len;
	for (;;) {
		while (p < end && isspace((unsigned char)s[p]))
			p++;
		if (p >= end || s[p] == '#')
			return true;
		if (separator && hetjob_word(s, p, end)) {
			*separator = out->a.len == before;
			return true;
		}
		struct darg a = { 0 };
		a.text = xmalloc(end - p + 1);
		a.raw = xmalloc((end - p + 1) * sizeof *a.raw);
		a.line = line;
		a.slurm = slurm;
		bool escape = false, comment = false;
		char quote = 0;
		size_t open = p;
		while (p < end && (quote || !isspace((unsigned char)s[p]))) {
			char c = s[p];
			if (escape) {
				escape = false;
			} else if (c == '\\') {
				escape = true;
				p++;
				continue;
			} else if (quote) {
				if (c == quote) {
					quote = 0;
					p++;
					continue;
				}
			} else if (c == '"' || c == '\'') {
				quote = c;
				open = p;
				p++;
				continue;
			} else if (c == '#') {
				comment = true;
				break;
			} else if (m->templates && c == '{' && p + 1 < end && strchr("{%", s[p + 1])) {
				/* a template tag is one piece of the argument, spaces and all */
				char close = s[p + 1] == '{' ? '}' : '%';
				size_t q = p + 2;
				while (q + 1 < end && !(s[q] == close && s[q + 1] == '}'))
					q++;
				if (q + 1 < end) {
					for (; p < q + 2; p++) {
						a.raw[a.len] = p;
						a.text[a.len++] = s[p];
					}
					a.tag = true;
					continue;
				}
			}
			a.raw[a.len] = p;
			a.text[a.len++] = c;
			p++;
		}
		if (quote) {
			sbm_problem_in(m, SB_SCOPE_DIRECTIVE, SB_PROB_UNTERMINATED_QUOTE, open, open + 1,
				       "unmatched quote in an #SBATCH line: sbatch refuses the script");
			free(a.text);
			free(a.raw);
			return false;
		}
		a.raw[a.len] = p;
		a.text[a.len] = '\0';
		if (a.len)
			VEC_PUSH(out->a, a);
		else {
			free(a.text);
			free(a.raw);
		}
		if (comment || !a.len)
			return true;
	}
}

static struct sb_directive *add(sb_model *m, const struct darg *a, size_t from, size_t to,
				unsigned component, bool after)
{
	struct sb_directive d = { 0 };
	d.name_span = sbm_span(m, a->raw[from], to > from ? a->raw[to - 1] + 1 : a->raw[from]);
	d.span = d.name_span;
	d.name = sbm_strndup(m, a->text + from, to - from);
	d.line = a->line;
	d.component = component;
	d.after_command = after;
	d.slurm_prefix = a->slurm;
	VEC_PUSH(m->directives, d);
	return &m->directives.v[m->directives.len - 1];
}

static void set_value(sb_model *m, struct sb_directive *d, const struct darg *a, size_t from)
{
	d->value = a->tag ? NULL : sbm_strndup(m, a->text + from, a->len - from);
	d->placeholder = a->tag;
	size_t ro = a->raw[from], re = a->len > from ? a->raw[a->len - 1] + 1 : a->raw[from];
	d->value_span = sbm_span(m, ro, re);
	if (re > d->span.end)
		d->span = sbm_span(m, d->span.off, re);
}

static void set_opt(struct sb_directive *d, const struct sbopt *o)
{
	d->opt = o;
	d->long_name = o ? (o->alias_of ? o->alias_of : o->name) : NULL;
}

/* getopt_long over one component's arguments. */
static void run_getopt(sb_model *m, struct argv *v, unsigned component, bool after)
{
	bool stop = false;
	for (size_t i = 0; i < v->a.len; i++) {
		const struct darg *a = &v->a.v[i];
		const char *t = a->text;
		if (!stop && strcmp(t, "--") == 0) {
			stop = true;
			continue;
		}
		if (a->tag && (stop || t[0] != '-'))
			continue; /* {{ more_options }}: options unknown here */
		if (stop || t[0] != '-' || a->len == 1) {
			struct sb_directive *d = add(m, a, 0, a->len, component, after);
			d->form = SB_DFORM_STRAY;
			continue;
		}
		if (t[1] == '-') {
			size_t n = strcspn(t + 2, "=");
			bool ambiguous;
			const struct sbopt *o = sbopt_match(t + 2, n, &ambiguous);
			struct sb_directive *d = add(m, a, 0, 2 + n, component, after);
			set_opt(d, o);
			d->ambiguous = ambiguous;
			d->abbreviated = o && strlen(o->name) != n;
			if (t[2 + n] == '=') {
				d->form = SB_DFORM_EQ;
				set_value(m, d, a, 3 + n);
			} else if (o && o->arg == SBOPT_ARG_REQUIRED) {
				if (i + 1 < v->a.len) {
					d->form = SB_DFORM_SPACE;
					set_value(m, d, &v->a.v[++i], 0);
				} else {
					d->missing_value = true;
				}
			} else {
				d->form = SB_DFORM_FLAG;
			}
			continue;
		}
		/* A bundle of short options: -HN2, -N 2. */
		for (size_t k = 1; k < a->len; k++) {
			const struct sbopt *o = sbopt_find_n((char[]){ '-', t[k] }, 2);
			/* The first letter's span takes the dash with it. */
			struct sb_directive *d = add(m, a, k == 1 ? 0 : k, k + 1, component, after);
			d->name = sbm_strndup(m, (char[]){ '-', t[k] }, 2);
			set_opt(d, o);
			d->form = SB_DFORM_FLAG;
			if (!o || o->arg == SBOPT_ARG_NONE)
				continue;
			if (k + 1 < a->len) {
				d->form = SB_DFORM_SHORT_JOINED;
				set_value(m, d, a, k + 1);
			} else if (o->arg == SBOPT_ARG_REQUIRED) {
				if (i + 1 < v->a.len) {
					d->form = SB_DFORM_SHORT_SPACE;
					set_value(m, d, &v->a.v[++i], 0);
				} else {
					d->missing_value = true;
				}
			}
			break;
		}
	}
	free_args(v);
}

void sbd_scan(sb_model *m)
{
	struct argv comp = { 0 }, line = { 0 };
	unsigned component = 0;
	bool stopped = false;
	for (size_t li = 0; li < m->line_start.len; li++) {
		size_t start = m->line_start.v[li];
		size_t end = li + 1 < m->line_start.len ? m->line_start.v[li + 1] - 1 : m->len;
		const char *s = m->text + start;
		size_t n = end - start;
		bool sbatch = n >= 7 && memcmp(s, "#SBATCH", 7) == 0;
		bool slurm = !sbatch && n >= 6 && memcmp(s, "#SLURM", 6) == 0;
		uint32_t lineno = (uint32_t)li + 1;
		if (!sbatch && !slurm) {
			if (stopped)
				continue;
			size_t i = 0;
			while (i < n && isspace((unsigned char)s[i]))
				i++;
			if (i < n && s[i] != '#') {
				stopped = true;
				m->first_cmd_line = lineno;
				run_getopt(m, &comp, component, false);
			}
			continue;
		}
		if (stopped && m->line_kind[lineno] != SB_LINE_COMMENT)
			continue;
		sbm_mark_line(m, lineno, SB_LINE_DIRECTIVE);
		/* On an unmatched quote the arguments before it still count:
		 * the problem record says sbatch refuses the script. */
		bool separator = false;
		split_line(m, start + (sbatch ? 7 : 6), end, lineno, slurm, &line,
			   stopped ? NULL : &separator);
		if (separator) {
			run_getopt(m, &comp, component, false);
			component++;
			free_args(&line);
			continue;
		}
		if (stopped) {
			run_getopt(m, &line, 0, true);
		} else {
			for (size_t i = 0; i < line.a.len; i++)
				VEC_PUSH(comp.a, line.a.v[i]);
			line.a.len = 0;
		}
	}
	if (!stopped)
		run_getopt(m, &comp, component, false);
	m->components = component + 1;
	sbh_index(m);
	free_args(&line);
	free(comp.a.v);
	free(line.a.v);

	/* Number the options of each line. */
	for (size_t i = 0; i < m->directives.len;) {
		size_t j = i;
		while (j < m->directives.len && m->directives.v[j].line == m->directives.v[i].line)
			j++;
		for (size_t k = i; k < j; k++) {
			m->directives.v[k].index_on_line = (unsigned)(k - i);
			m->directives.v[k].count_on_line = (unsigned)(j - i);
		}
		i = j;
	}
}
