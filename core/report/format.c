#include "format.h"

#include <string.h>

#include "buf.h"
#include "format_internal.h"
#include "text.h"

static const char *const format_names[] = {
	[FMT_TEXT] = "text", [FMT_CONCISE] = "concise", [FMT_JSON] = "json",
	[FMT_JSONL] = "jsonl", [FMT_SARIF] = "sarif", [FMT_GITHUB] = "github",
	[FMT_CHECKSTYLE] = "checkstyle", [FMT_GITLAB] = "gitlab",
};

int format_parse(const char *s)
{
	for (int i = 0; i < (int)(sizeof format_names / sizeof format_names[0]); i++)
		if (strcmp(s, format_names[i]) == 0)
			return i;
	/* The names other linters use for the same shapes. */
	if (strcmp(s, "gcc") == 0)
		return FMT_CONCISE;
	if (strcmp(s, "json-lines") == 0)
		return FMT_JSONL;
	return -1;
}

static const char *const sev_color[] = {
	[SEV_INFO] = "\033[1;36m", [SEV_WARNING] = "\033[1;33m",
	[SEV_ERROR] = "\033[1;31m",
};

static void concise_line(struct buf *b, const struct diag *d, bool color)
{
	buf_printf(b, "%s:%u:%u: ", d->src->path, d->line, d->col);
	if (color)
		buf_puts(b, sev_color[d->sev]);
	buf_puts(b, severity_name(d->sev));
	if (color)
		buf_puts(b, "\033[0m");
	char id[8];
	buf_printf(b, ": %s [%s]\n", d->msg, diag_id(d, id));
}

/* The source line with a caret under the range; tabs in the prefix are
 * copied so the caret lines up in any terminal. */
static void text_excerpt(struct buf *b, const struct diag *d, bool color)
{
	size_t len;
	const char *line = source_line(d->src, d->line, &len);
	if (!line)
		return;
	char num[16];
	int w = snprintf(num, sizeof num, "%u", d->line);
	buf_printf(b, " %*s |\n %s | ", w, "", num);
	buf_put(b, line, len);
	buf_printf(b, "\n %*s | ", w, "");
	size_t start = utf8_offset_of_col(line, len, d->col);
	for (size_t i = 0; i < start; i++)
		if (line[i] == '\t')
			buf_putc(b, '\t');
		else if (((unsigned char)line[i] & 0xc0) != 0x80)
			buf_putc(b, ' ');
	size_t last = utf8_count(line, len) + 1;
	uint32_t end = d->end_line == d->line ? d->end_col : (uint32_t)last;
	if (end > last)
		end = (uint32_t)last;
	if (end <= d->col)
		end = d->col + 1;
	if (color)
		buf_puts(b, sev_color[d->sev]);
	for (uint32_t c = d->col; c < end; c++)
		buf_putc(b, '^');
	if (color)
		buf_puts(b, "\033[0m");
	buf_putc(b, '\n');
	if (d->help)
		buf_printf(b, " %*s = help: %s\n", w, "", d->help);
}

void format_json_str(struct buf *b, const char *s)
{
	if (!s) {
		buf_puts(b, "null");
		return;
	}
	buf_putc(b, '"');
	buf_put_json_utf8(b, s, strlen(s));
	buf_putc(b, '"');
}

static void json_diag(struct buf *b, const struct diag *d)
{
	const struct rule *r = &rule_table[d->rule];
	char id[8];
	buf_puts(b, "{\"path\":");
	format_json_str(b, d->src->path);
	buf_puts(b, ",\"kind\":");
	format_json_str(b, file_kind_name(d->src->kind));
	buf_printf(b, ",\"rule\":\"%s\",\"name\":\"%s\",\"severity\":\"%s\",\"message\":",
		   diag_id(d, id), r->name, severity_name(d->sev));
	format_json_str(b, d->msg);
	buf_printf(b, ",\"line\":%u,\"column\":%u,\"endLine\":%u,\"endColumn\":%u",
		   d->line, d->col, d->end_line, d->end_col);
	buf_puts(b, ",\"yamlPath\":");
	diag_write_path(d, b);
	buf_puts(b, ",\"help\":");
	format_json_str(b, d->help);
	buf_puts(b, ",\"fix\":");
	if (d->fix) {
		buf_printf(b, "{\"applicability\":\"%s\",\"edits\":[{", d->fix_safe ? "safe" : "unsafe");
		buf_printf(b, "\"line\":%u,\"column\":%u,\"endLine\":%u,\"endColumn\":%u,\"content\":",
			   d->fix_line, d->fix_col, d->fix_end_line, d->fix_end_col);
		format_json_str(b, d->fix);
		buf_puts(b, "}]}");
	} else {
		buf_puts(b, "null");
	}
	if (d->alt) { /* only when there is one: the unsafe fix beside a safe one */
		buf_printf(b, ",\"unsafeFix\":{\"applicability\":\"unsafe\",\"edits\":[{"
			   "\"line\":%u,\"column\":%u,\"endLine\":%u,\"endColumn\":%u,\"content\":",
			   d->alt->line, d->alt->col, d->alt->end_line, d->alt->end_col);
		format_json_str(b, d->alt->text);
		buf_puts(b, "}]}");
	}
	buf_putc(b, '}');
}

static void target_object(struct buf *b, const struct format_target *t)
{
	buf_puts(b, "{\"parallelcluster\":");
	format_json_str(b, t->parallelcluster);
	buf_puts(b, ",\"slurm\":");
	format_json_str(b, t->slurm);
	buf_putc(b, '}');
}

void format_run_properties(struct buf *b, const struct format_run *run)
{
	if (run->n_targets == 1) {
		buf_puts(b, "\"target\":");
		target_object(b, &run->targets[0]);
		buf_putc(b, ',');
	}
	buf_puts(b, "\"targets\":[");
	for (size_t i = 0; i < run->n_targets; i++) {
		if (i)
			buf_putc(b, ',');
		target_object(b, &run->targets[i]);
	}
	buf_putc(b, ']');
}

/* Thousands of findings on a large file are megabytes of text: what is
 * formatted goes out in pieces of this size rather than all at once. */
#define FLUSH_AT (64u * 1024)

static void flush_some(struct buf *b, FILE *out)
{
	if (b->len < FLUSH_AT)
		return;
	fwrite(b->p, 1, b->len, out);
	b->len = 0;
	b->p[0] = '\0';
}

/* The formats that are a sequence of lines, one or more per finding. */
static void write_lines(struct buf *b, FILE *out, enum format fmt,
			const struct diag_list *list, bool color, const struct format_run *run)
{
	if (fmt == FMT_JSON) {
		buf_printf(b, "{\"schemaVersion\":1,\"tool\":{\"name\":\"trainforge\",\"version\":\"%s\"},",
			   TF_VERSION);
		if (run) {
			buf_puts(b, "\"properties\":{");
			format_run_properties(b, run);
			buf_puts(b, "},");
		}
		buf_puts(b, "\"diagnostics\":[");
	}
	for (size_t i = 0; i < list->len; i++) {
		const struct diag *d = &list->v[i];
		flush_some(b, out);
		switch (fmt) {
		case FMT_CONCISE:
			concise_line(b, d, color);
			break;
		case FMT_TEXT:
			concise_line(b, d, color);
			text_excerpt(b, d, color);
			break;
		case FMT_JSON:
			if (i)
				buf_putc(b, ',');
			json_diag(b, d);
			break;
		case FMT_JSONL:
			json_diag(b, d);
			buf_putc(b, '\n');
			break;
		default:
			break;
		}
	}
	if (fmt == FMT_JSON)
		buf_puts(b, "]}\n");
}

void format_write(FILE *out, enum format fmt, const struct diag_list *list,
		  bool color)
{
	format_write_run(out, fmt, list, color, NULL);
}

void format_write_run(FILE *out, enum format fmt, const struct diag_list *list,
		      bool color, const struct format_run *run)
{
	struct buf b = BUF_INIT;
	switch (fmt) {
	case FMT_SARIF:
		format_sarif(&b, list, run);
		break;
	case FMT_GITHUB:
		format_github(&b, list);
		break;
	case FMT_CHECKSTYLE:
		format_checkstyle(&b, list);
		break;
	case FMT_GITLAB:
		format_gitlab(&b, list);
		break;
	default:
		write_lines(&b, out, fmt, list, color, run);
		break;
	}
	if (b.len)
		fwrite(b.p, 1, b.len, out);
	buf_free(&b);
}
