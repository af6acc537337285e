#include "explain.h"

#include <stdio.h>
#include <string.h>

#include "rules.h"
#include "text.h"

/* Entries for rules without an explanation stay zero: explain_find then
 * returns NULL, and tests/docs/run.sh fails for the rule. The table is
 * filled by code on first use, not initialised as data: a static table
 * of pointers is relocated at every start, and a lint never reads it. */
static struct explain explain_table[RULE__COUNT];

static void fill(void)
{
#define EXPLAIN(id, why, bad, good, validators) \
	explain_table[R_##id] = (struct explain){ why, bad, good, sizeof(bad) - 1, sizeof(good) - 1, \
						  validators, NULL, NULL, 0, 0 };
#define EXPLAIN_CHANGE(id, why, bad_old, bad, good_old, good, validators) \
	explain_table[R_##id] = (struct explain){ why, bad, good, sizeof(bad) - 1, sizeof(good) - 1, \
						  validators, bad_old, good_old, sizeof(bad_old) - 1, \
						  sizeof(good_old) - 1 };
#include "explain.def"
#undef EXPLAIN_CHANGE
#undef EXPLAIN
}

const struct explain *explain_find(int rule)
{
	static bool filled;
	if (!filled) {
		fill();
		filled = true;
	}
	if (rule < 0 || rule >= RULE__COUNT || !explain_table[rule].why)
		return NULL;
	return &explain_table[rule];
}

/* ---- grouping ------------------------------------------------------- */

/* The docs order of the families; within one, rules go by ID, and the
 * areas of rules.def are ranges of IDs. */
static const char *const family_order[] = {
	"ParallelCluster config", "Batch scripts", "Job specs", "The linter itself",
};

int explain_family_rank(int rule)
{
	const char *family = area_table[rule_area_of((enum rule_id)rule)].family;
	int n = (int)(sizeof family_order / sizeof family_order[0]);
	for (int i = 0; i < n; i++)
		if (strcmp(family, family_order[i]) == 0)
			return i;
	return n;
}

const char *explain_family(int rule)
{
	return area_table[rule_area_of((enum rule_id)rule)].family;
}

const char *explain_area(int rule)
{
	return area_table[rule_area_of((enum rule_id)rule)].title;
}

bool explain_is_shell(int rule)
{
	return strncmp(rule_table[rule].id, "SB", 2) == 0 ||
	       strncmp(rule_table[rule].id, "SC", 2) == 0;
}

/* shellcheck's findings, reported under their own SC codes. */
static bool is_shellcheck(int rule)
{
	return strcmp(rule_table[rule].id, "SC0000") == 0;
}

/* Examples that hold this directive are checked against sb_cluster. */
static const char pair_directive[] = "# trainforge cluster=cluster.yaml\n";
static const char sb_cluster[] = EX_SB_CLUSTER;

const char *explain_cluster(int rule, size_t *len)
{
	const struct explain *e = explain_find(rule);
	if (!e || (!memmem(e->bad, e->bad_len, pair_directive, sizeof pair_directive - 1) &&
		   !memmem(e->good, e->good_len, pair_directive, sizeof pair_directive - 1)))
		return NULL;
	*len = sizeof sb_cluster - 1;
	return sb_cluster;
}

/* Findings about directives are made by the suppression pass itself, and
 * the byte checks stop a file before any of its comments is read. */
static const char *why_unsuppressible(int rule)
{
	switch (rule) {
	case R_LN0001:
	case R_LN0002:
	case R_LN0003:
		return "findings about directives come from the suppression pass itself";
	case R_LN1002:
	case R_LN1003:
	case R_LN1004:
	case R_LN1005:
		return "trainforge stops before it reads any comment of the file";
	default:
		return NULL;
	}
}

bool explain_suppressible(int rule)
{
	return why_unsuppressible(rule) == NULL;
}

/* ---- writing -------------------------------------------------------- */

/* Appends text wrapped at width columns, each line indented. */
static void put_wrapped(struct buf *b, const char *s, int indent, int width)
{
	int col = 0;
	while (*s) {
		while (*s == ' ')
			s++;
		size_t n = strcspn(s, " ");
		if (!n)
			break;
		int w = (int)utf8_count(s, n);
		if (col && col + 1 + w > width) {
			buf_putc(b, '\n');
			col = 0;
		}
		if (!col) {
			buf_printf(b, "%*s", indent, "");
			col = indent;
		} else {
			buf_putc(b, ' ');
			col++;
		}
		buf_put(b, s, n);
		col += w;
		s += n;
	}
	buf_putc(b, '\n');
}

/* Appends an example's text, each line after prefix. Bytes that are not
 * printable UTF-8 appear as \xHH; returns whether any did. */
static bool put_example(struct buf *b, const char *s, size_t len, const char *prefix)
{
	bool escaped = false, line_start = true;
	size_t i = 0;
	while (i < len) {
		if (line_start && s[i] != '\n')
			buf_puts(b, prefix);
		line_start = false;
		unsigned char c = (unsigned char)s[i];
		if (c == '\n') {
			buf_putc(b, '\n');
			line_start = true;
			i++;
			continue;
		}
		size_t adv;
		int32_t cp = utf8_decode(s + i, len - i, &adv);
		if (cp < 0 || (cp < 0x20 && cp != '\t') || cp == 0x7f) {
			buf_printf(b, "\\x%02X", c);
			escaped = true;
			i++;
			continue;
		}
		buf_put(b, s + i, adv);
		i += adv;
	}
	if (!line_start)
		buf_putc(b, '\n');
	return escaped;
}

/* Markdown text outside code: characters that would start markup. */
static void put_md(struct buf *b, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\`*<>", *s))
			buf_putc(b, '\\');
		buf_putc(b, *s);
	}
}

/* A level to show in the --severity example: one the rule does not have. */
static const char *other_level(enum severity level)
{
	return level == SEV_WARNING ? "error" : "warning";
}

static const char *const own_line_yaml = "the next YAML node and everything under it";
static const char *const own_line_shell =
	"the next #SBATCH line or command, with its continuation lines";

/* ---- text ------------------------------------------------------------ */

/* Both examples of a change rule change the same old version. */
static bool same_old(const struct explain *e)
{
	return e->bad_old_len == e->good_old_len && !memcmp(e->bad_old, e->good_old, e->bad_old_len);
}

static void text_examples(struct buf *b, int rule, const struct explain *e)
{
	const char *ex[2] = { e->bad, e->good };
	size_t ex_len[2] = { e->bad_len, e->good_len };
	const char *old[2] = { e->bad_old, e->good_old };
	size_t old_len[2] = { e->bad_old_len, e->good_old_len };
	bool shared = old[0] && same_old(e);
	if (shared) {
		buf_puts(b, "\nThe old version (both examples change it):\n");
		put_example(b, old[0], old_len[0], "    ");
	}
	for (int k = 0; k < 2; k++) {
		if (old[k] && !shared) {
			buf_printf(b, "\n%s, the old version:\n", k ? "Good" : "Bad");
			put_example(b, old[k], old_len[k], "    ");
		}
		buf_printf(b, "\n%s%s:\n", k ? "Good" : "Bad", old[k] ? ", the new version" : "");
		if (!ex_len[k])
			buf_puts(b, "    (an empty file)\n");
		else if (put_example(b, ex[k], ex_len[k], "    "))
			buf_puts(b, "  (\\xHH stands for one byte that cannot be shown as text.)\n");
	}
	size_t len;
	const char *cluster = explain_cluster(rule, &len);
	if (cluster) {
		buf_puts(b, "\nThe paired cluster config (cluster.yaml):\n");
		put_example(b, cluster, len, "    ");
	}
}

static void text_suppress(struct buf *b, int rule)
{
	const char *id = rule_table[rule].id, *no = why_unsuppressible(rule);
	buf_puts(b, "\nSuppress one finding:\n");
	if (is_shellcheck(rule)) {
		buf_puts(b, "  # shellcheck disable=SC2155\n");
		put_wrapped(b, "shellcheck's own directive, on the line above the command; "
			    "trainforge directives take trainforge IDs, not SC codes", 6, 78);
	} else if (no) {
		char line[200];
		snprintf(line, sizeof line, "A directive cannot suppress this rule: %s. "
			 "Use trainforge lint --ignore %s.", no, id);
		put_wrapped(b, line, 2, 78);
	} else {
		buf_printf(b, "  # trainforge disable=%s # reason\n", id);
		buf_printf(b, "      on its own line: %s\n",
			   explain_is_shell(rule) ? own_line_shell : own_line_yaml);
		buf_printf(b, "  ...  # trainforge disable=%s # reason\n", id);
		buf_puts(b, "      at the end of a line: that line\n");
		buf_printf(b, "  # trainforge disable-file=%s # reason\n", id);
		buf_puts(b, "      anywhere: the whole file\n");
	}
}

static void text_select(struct buf *b, const struct rule *r)
{
	char cmd[96], more[160];
	buf_puts(b, "\nSelect or ignore:\n");
	snprintf(cmd, sizeof cmd, "trainforge lint --select %s PATH", r->id);
	buf_printf(b, "  %-46s only this rule\n", cmd);
	snprintf(cmd, sizeof cmd, "trainforge lint --ignore %s PATH", r->id);
	buf_printf(b, "  %-46s every rule but this one\n", cmd);
	snprintf(cmd, sizeof cmd, "trainforge lint --severity %s=%s PATH", r->id,
		 other_level(r->level));
	buf_printf(b, "  %-46s another level\n", cmd);
	snprintf(more, sizeof more,
		 "The name %s and prefixes such as %.4s work wherever the ID does.", r->name, r->id);
	put_wrapped(b, more, 2, 78);
}

/* "PC1004 stands for PC0005 ... on the same value": the implications
 * (rules.def, IMPLIES) that involve rule, one sentence. */
static void implications_of(struct buf *b, int rule)
{
	static const char *const where[] = {
		[IMPLIES_SPAN] = "on the same value", [IMPLIES_LINE] = "on the same line",
		[IMPLIES_FILE] = "in the same file",
	};
	size_t start = b->len;
	for (enum implies_scope sc = IMPLIES_SPAN; sc <= IMPLIES_FILE; sc++) {
		bool any = false;
		for (size_t i = 0; i < n_implications; i++) {
			if (implications[i].cause != (enum rule_id)rule || implications[i].scope != sc)
				continue;
			buf_printf(b, "%s%s", any ? ", " : b->len > start ? "; and " :
				   "One root cause, one finding: this finding stands for ",
				   rule_table[implications[i].effect].id);
			any = true;
		}
		if (any)
			buf_printf(b, " %s", where[sc]);
	}
	if (b->len > start)
		buf_putc(b, '.');
	for (size_t i = 0; i < n_implications; i++)
		if (implications[i].effect == (enum rule_id)rule)
			buf_printf(b, "%sWhen %s finds its cause %s, it reports this finding %s.",
				   b->len > start ? " " : "", rule_table[implications[i].cause].id,
				   where[implications[i].scope],
				   implications[i].told == IMPLIES_HELP ? "in its help, with this ID"
									 : "itself");
}

static void write_text(struct buf *b, int rule)
{
	const struct rule *r = &rule_table[rule];
	const struct explain *e = explain_find(rule);

	buf_printf(b, "%s  %s  (%s by default)\n", r->id, r->name, severity_name(r->level));
	put_wrapped(b, r->summary, 0, 78);
	buf_printf(b, "%s, %s\n", explain_family(rule), explain_area(rule));
	if (!e) {
		buf_puts(b, "\nThis rule has no explanation yet.\n");
		return;
	}
	buf_puts(b, "\nWhy it matters:\n");
	put_wrapped(b, e->why, 2, 78);
	struct buf imp = BUF_INIT;
	implications_of(&imp, rule);
	if (imp.len) {
		buf_putc(b, '\n');
		put_wrapped(b, imp.p, 2, 78);
	}
	buf_free(&imp);
	if (e->validators) {
		buf_printf(b, "\nParallelCluster validator:\n  %s\n", e->validators);
		put_wrapped(b, "(pcluster create-cluster --suppress-validators type:NAME skips it "
			    "in pcluster; trainforge still reports it)", 2, 78);
	}
	text_examples(b, rule, e);
	text_suppress(b, rule);
	text_select(b, r);
}

/* ---- Markdown -------------------------------------------------------- */

/* A code fence longer than any run of backticks in the text. */
static void put_fence(struct buf *b, const char *s, size_t len, const char *lang)
{
	size_t run = 0, longest = 0;
	for (size_t i = 0; i < len; i++) {
		run = s[i] == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	for (size_t i = 0; i < (longest >= 3 ? longest + 1 : 3); i++)
		buf_putc(b, '`');
	buf_printf(b, "%s\n", lang);
}

/* Returns whether any byte had to be shown as \xHH. */
static bool md_code(struct buf *b, const char *s, size_t len, const char *lang)
{
	put_fence(b, s, len, lang);
	bool escaped = put_example(b, s, len, "");
	put_fence(b, s, len, "");
	buf_putc(b, '\n');
	return escaped;
}

static void md_examples(struct buf *b, int rule, const struct explain *e)
{
	const char *lang = explain_is_shell(rule) ? "bash" : "yaml";
	const char *ex[2] = { e->bad, e->good };
	size_t ex_len[2] = { e->bad_len, e->good_len };
	const char *old[2] = { e->bad_old, e->good_old };
	size_t old_len[2] = { e->bad_old_len, e->good_old_len };
	bool shared = old[0] && same_old(e);
	if (shared) {
		buf_puts(b, "The old version (both examples change it):\n\n");
		md_code(b, old[0], old_len[0], lang);
	}
	for (int k = 0; k < 2; k++) {
		if (old[k] && !shared) {
			buf_printf(b, "%s, the old version:\n\n", k ? "Good" : "Bad");
			md_code(b, old[k], old_len[k], lang);
		}
		buf_printf(b, "%s%s:\n\n", k ? "Good" : "Bad", old[k] ? ", the new version" : "");
		if (!ex_len[k])
			buf_puts(b, "(an empty file)\n\n");
		else if (md_code(b, ex[k], ex_len[k], lang))
			buf_puts(b, "(`\\xHH` stands for one byte that cannot be shown as text.)\n\n");
	}
	size_t len;
	const char *cluster = explain_cluster(rule, &len);
	if (cluster) {
		buf_puts(b, "The paired cluster config (`cluster.yaml`):\n\n");
		md_code(b, cluster, len, "yaml");
	}
}

static void md_suppress_select(struct buf *b, int rule)
{
	const struct rule *r = &rule_table[rule];
	const char *no = why_unsuppressible(rule);
	if (is_shellcheck(rule))
		buf_puts(b, "Suppress with shellcheck's own directive on the line above the command, "
			    "`# shellcheck disable=SC2155`; trainforge directives take trainforge IDs, "
			    "not SC codes.");
	else if (no)
		buf_printf(b, "A directive cannot suppress this rule (%s); use `--ignore %s`.",
			   no, r->id);
	else
		buf_printf(b, "Suppress with `# trainforge disable=%s # reason`: on its own line it "
			   "covers %s, at the end of a line that line; `# trainforge disable-file=%s "
			   "# reason` covers the file.", r->id,
			   explain_is_shell(rule) ? own_line_shell : own_line_yaml, r->id);
	buf_printf(b, " Select or ignore with `--select %s`, `--ignore %s` (or the name `%s`); "
		   "`--severity %s=%s` changes its level.\n",
		   r->id, r->id, r->name, r->id, other_level(r->level));
}

static void write_markdown(struct buf *b, int rule, int heading)
{
	const struct rule *r = &rule_table[rule];
	const struct explain *e = explain_find(rule);

	heading = heading < 1 ? 1 : heading > 6 ? 6 : heading;
	buf_printf(b, "%.*s %s %s\n\n", heading, "######", r->id, r->name);
	/* The summary as a sentence. */
	if (r->summary[0] >= 'a' && r->summary[0] <= 'z') {
		buf_putc(b, (char)(r->summary[0] - 'a' + 'A'));
		put_md(b, r->summary + 1);
	} else {
		put_md(b, r->summary);
	}
	buf_printf(b, ".\n\nDefault level: **%s**.", severity_name(r->level));
	if (e && e->validators)
		buf_printf(b, " ParallelCluster validator: `%s`.", e->validators);
	buf_puts(b, "\n\n");
	if (!e) {
		buf_puts(b, "This rule has no explanation yet.\n");
		return;
	}
	put_md(b, e->why);
	buf_puts(b, "\n\n");
	struct buf imp = BUF_INIT;
	implications_of(&imp, rule);
	if (imp.len) {
		put_md(b, imp.p);
		buf_puts(b, "\n\n");
	}
	buf_free(&imp);
	md_examples(b, rule, e);
	md_suppress_select(b, rule);
}

void explain_write(struct buf *b, int rule, enum explain_format fmt, int heading)
{
	if (rule < 0 || rule >= RULE__COUNT)
		return;
	if (fmt == EXPLAIN_MARKDOWN)
		write_markdown(b, rule, heading);
	else
		write_text(b, rule);
}
