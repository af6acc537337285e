/* Value checks for sbatch options, one checker per syntax (the table in
 * sbatch_options.c names the syntax). Each mirrors what sbatch 22.05
 * parses on the client side, so BAD means sbatch refuses the job; where
 * only the controller parses (arrays, dependencies), the man page's
 * grammar decides. Site facts (partition names, GRES types) are not
 * known here and never make a value bad. */
#include "values.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

enum sbopt_verdict sbv_say(struct val *v, enum sbopt_verdict r, const char *fmt, ...)
{
	if (v->why && v->cap) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(v->why, v->cap, fmt, ap);
		va_end(ap);
	}
	return r;
}


bool sbv_digits(struct piece p)
{
	if (!p.n)
		return false;
	for (size_t i = 0; i < p.n; i++)
		if (!isdigit((unsigned char)p.p[i]))
			return false;
	return true;
}

/* Value of a digit run, saturating at UINT64_MAX / 10 so that huge
 * numbers compare as huge instead of wrapping. */
uint64_t sbv_num(struct piece p)
{
	uint64_t x = 0;
	for (size_t i = 0; i < p.n && isdigit((unsigned char)p.p[i]); i++) {
		if (x > UINT64_MAX / 100)
			return UINT64_MAX / 10;
		x = x * 10 + (uint64_t)(p.p[i] - '0');
	}
	return x;
}

bool sbv_eq(struct piece p, const char *word)
{
	return strlen(word) == p.n && strncasecmp(p.p, word, p.n) == 0;
}

/* Splits at the first `sep` at or after *pos; returns false at the end. */
bool sbv_next_item(struct piece all, size_t *pos, char sep, struct piece *out)
{
	if (*pos > all.n)
		return false;
	const char *start = all.p + *pos;
	const char *end = memchr(start, sep, all.n - *pos);
	size_t len = end ? (size_t)(end - start) : all.n - *pos;
	*out = (struct piece){ start, len };
	*pos += len + 1;
	return true;
}

struct piece sbv_whole(const struct val *v)
{
	return (struct piece){ v->s, v->n };
}

/* Is p one of the choices? Which release has a value is changes.c's. */
bool sbv_in_choices(struct piece p, const char *const *choices, bool nocase)
{
	for (size_t i = 0; choices && choices[i]; i++) {
		const char *c = choices[i];
		size_t len = strlen(c);
		if (len == p.n && (nocase ? strncasecmp(c, p.p, len) : strncmp(c, p.p, len)) == 0)
			return true;
	}
	return false;
}

static void list_choices(const char *const *choices, char *out, size_t cap)
{
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; choices[i] && used + 2 < cap; i++) {
		int w = snprintf(out + used, cap - used, "%s%s", i ? ", " : "", choices[i]);
		if (w < 0 || (size_t)w >= cap - used)
			break;
		used += (size_t)w;
	}
}

/* Values that only srun takes: sbatch 25.11.7 refuses them in so many
 * words (docs/versions.md, "slurm-options-values"). */
static const struct {
	const char *option, *value, *why;
} srun_only[] = {
	{ "gres-flags", "allow-task-sharing",
	  "sbatch rejects it (\"--gres-flags=allow-task-sharing is only used with srun.\"); give it to srun" },
};

static enum sbopt_verdict check_enum_item(struct val *v, struct piece p,
					  const struct sbopt *o, bool nocase)
{
	if (sbv_in_choices(p, o->choices, nocase))
		return SBOPT_OK;
	for (size_t i = 0; i < sizeof srun_only / sizeof srun_only[0]; i++)
		if (!strcmp(o->name, srun_only[i].option) && sbv_eq(p, srun_only[i].value))
			return BAD("'%.*s' is srun's alone: %s", (int)p.n, p.p, srun_only[i].why);
	char names[256];
	list_choices(o->choices, names, sizeof names);
	/* sbatch 25.11 compares --requeue's argument with expedite and
	 * reads anything else as a plain --requeue */
	if (!strcmp(o->name, "requeue"))
		return ODD("sbatch reads '%.*s' as a plain --requeue; the only argument is expedite",
			   (int)p.n, p.p);
	return BAD("'%.*s' is not one of: %s", (int)p.n, p.p, names);
}

static enum sbopt_verdict check_enum(struct val *v, const struct sbopt *o)
{
	struct piece p = sbv_whole(v);
	if (!p.n && o->arg == SBOPT_ARG_OPTIONAL)
		return ODD("an empty value is the same as giving no value");
	/* sbatch reads --open-mode by its first letter only. */
	if (strcmp(o->name, "open-mode") == 0 && p.n &&
	    strchr("aAtT", p.p[0]) && !sbv_in_choices(p, o->choices, true))
		return ODD("sbatch reads only the first letter; write 'append' or 'truncate'");
	return check_enum_item(v, p, o, true);
}

static enum sbopt_verdict check_enum_list(struct val *v, const struct sbopt *o)
{
	struct piece all = sbv_whole(v), item;
	size_t pos = 0;
	if (!all.n)
		return BAD("empty list");
	enum sbopt_verdict worst = SBOPT_OK;
	while (sbv_next_item(all, &pos, ',', &item)) {
		if (!item.n)
			continue; /* sbatch skips empty items */
		enum sbopt_verdict r = check_enum_item(v, item, o, true);
		if (r == SBOPT_BAD)
			return r;
		if (r > worst)
			worst = r;
	}
	return worst;
}

/* Slurm time: minutes, M:S, H:M:S, D-H, D-H:M, D-H:M:S, or unlimited. */
enum sbopt_verdict sbv_check_time(struct val *v)
{
	struct piece p = sbv_whole(v);
	if (sbv_eq(p, "-1") || sbv_eq(p, "INFINITE") || sbv_eq(p, "UNLIMITED"))
		return SBOPT_OK;
	if (p.n > 1 && p.p[0] == '-' && sbv_digits((struct piece){ p.p + 1, p.n - 1 }))
		return ODD("a negative time limit; use UNLIMITED for no limit");
	/* The field grammar of Slurm's time parser: digits, at most one
	 * '-' right after the first number, at most two ':'. */
	uint64_t f[4] = { 0 };
	size_t nf = 0, colons = 0;
	bool dash = false, digit = false;
	for (size_t i = 0; i < p.n; i++) {
		char c = p.p[i];
		if (isdigit((unsigned char)c)) {
			if (!digit)
				nf++;
			if (nf > 4)
				return BAD("too many fields");
			if (f[nf - 1] < 1000000000)
				f[nf - 1] = f[nf - 1] * 10 + (uint64_t)(c - '0');
			digit = true;
		} else if (c == '-' && digit && !dash && !colons) {
			dash = true, digit = false;
		} else if (c == ':' && digit) {
			colons++, digit = false;
		} else {
			return BAD("'%.*s' is not a time (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS or UNLIMITED)",
				   (int)p.n, p.p);
		}
	}
	/* Only "D-" may end without a number. */
	if (!nf || colons > 2 || (!digit && p.p[p.n - 1] != '-'))
		return BAD("'%.*s' is not a time (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS or UNLIMITED)",
			   (int)p.n, p.p);
	/* Field roles by form: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S. */
	size_t none = SIZE_MAX, h, m, s;
	if (dash) {
		h = nf > 1 ? 1 : none;
		m = colons >= 1 ? 2 : none;
		s = colons == 2 ? 3 : none;
	} else {
		h = colons == 2 ? 0 : none;
		m = colons == 2 ? 1 : none; /* a lone minutes field may be large */
		s = colons == 2 ? 2 : colons == 1 ? 1 : none;
	}
	if (dash && h != none && f[h] >= 24)
		return ODD("%llu hours after a day count; 0-23 is what D-HH means",
			   (unsigned long long)f[h]);
	if (m != none && f[m] >= 60)
		return ODD("%llu minutes after an hours field; sbatch carries them into hours",
			   (unsigned long long)f[m]);
	if (s != none && f[s] >= 60)
		return ODD("%llu seconds; sbatch carries them into minutes", (unsigned long long)f[s]);
	return SBOPT_OK;
}

/* Sizes: digits and an optional K/M/G/T (then an optional B). */
static enum sbopt_verdict check_mem(struct val *v)
{
	struct piece p = sbv_whole(v);
	if (p.n > 1 && p.p[0] == '+')
		p.p++, p.n--;
	size_t i = 0;
	while (i < p.n && isdigit((unsigned char)p.p[i]))
		i++;
	if (!i)
		return BAD("'%.*s' is not a size: digits with an optional K, M, G or T (megabytes by default)",
			   (int)p.n, p.p);
	if (i < p.n && strchr("KkMmGgTt", p.p[i]))
		i++;
	else if (i < p.n && strchr("Pp", p.p[i]))
		return BAD("sbatch does not take the P suffix: use T");
	if (i < p.n && (p.p[i] == 'B' || p.p[i] == 'b') && i > 0 && !isdigit((unsigned char)p.p[i - 1]))
		i++;
	if (i != p.n)
		return BAD("'%.*s' is not a size: digits with an optional K, M, G or T (megabytes by default)",
			   (int)p.n, p.p);
	if (isdigit((unsigned char)p.p[p.n - 1]) && sbv_num(p) > 0 && sbv_num(p) < 16)
		return ODD("%.*s megabytes: no unit means MB", (int)p.n, p.p);
	return SBOPT_OK;
}

/* One node count: digits with an optional k or m multiplier. */
static bool node_count(struct piece p, uint64_t *out)
{
	uint64_t mult = 1;
	if (p.n && strchr("kKmM", p.p[p.n - 1])) {
		mult = strchr("kK", p.p[p.n - 1]) ? 1024 : 1024 * 1024;
		p.n--;
	}
	if (!sbv_digits(p))
		return false;
	*out = sbv_num(p) * mult;
	return true;
}

bool sbv_node_range(const char *value, uint64_t *min, uint64_t *max)
{
	struct piece p = { value, strlen(value) };
	const char *dash = memchr(p.p, '-', p.n);
	struct piece lo = { p.p, dash ? (size_t)(dash - p.p) : p.n };
	if (!node_count(lo, min))
		return false;
	*max = *min;
	if (!dash)
		return true;
	struct piece hi = { dash + 1, p.n - lo.n - 1 };
	return node_count(hi, max) && *max >= *min;
}

/* One item of a --nodes size list: N, MIN-MAX or MIN-MAX:STEP. */
static bool node_size_item(struct piece p)
{
	const char *colon = memchr(p.p, ':', p.n);
	struct piece range = { p.p, colon ? (size_t)(colon - p.p) : p.n };
	const char *dash = memchr(range.p, '-', range.n);
	struct piece lo = { range.p, dash ? (size_t)(dash - range.p) : range.n };
	uint64_t a, b;
	if (!node_count(lo, &a))
		return false;
	if (dash) {
		struct piece hi = { dash + 1, range.n - lo.n - 1 };
		if (!node_count(hi, &b) || b < a)
			return false;
	}
	if (!colon)
		return true;
	struct piece st = { colon + 1, p.n - range.n - 1 };
	return dash && sbv_digits(st) && sbv_num(st) >= 1;
}

bool sbopt_nodes_size_list(const char *value)
{
	return value && strpbrk(value, ",:");
}

static enum sbopt_verdict check_nodes(struct val *v)
{
	struct piece p = sbv_whole(v);
	if (sbv_eq(p, "-1"))
		return ODD("-1 nodes");
	if (memchr(p.p, ',', p.n) || memchr(p.p, ':', p.n)) {
		/* a size list (23.02): "2,4,8", "1-15:4" = 1,5,9,13 */
		struct piece item;
		size_t pos = 0;
		while (sbv_next_item(p, &pos, ',', &item))
			if (!node_size_item(item))
				return BAD("'%.*s' is not a node count list (N, MIN-MAX or MIN-MAX:STEP, comma-separated)",
					   (int)item.n, item.p);
		return SBOPT_OK;
	}
	const char *dash = memchr(p.p, '-', p.n);
	struct piece lo = { p.p, dash ? (size_t)(dash - p.p) : p.n };
	uint64_t a, b;
	if (!node_count(lo, &a))
		return BAD("'%.*s' is not a node count (N or MIN-MAX)", (int)p.n, p.p);
	if (dash) {
		struct piece hi = { dash + 1, p.n - lo.n - 1 };
		if (!node_count(hi, &b))
			return BAD("'%.*s' is not a node range (MIN-MAX)", (int)p.n, p.p);
		if (b < a)
			return BAD("the maximum node count %llu is less than the minimum %llu",
				   (unsigned long long)b, (unsigned long long)a);
	}
	if (a == 0 && !dash)
		return ODD("zero nodes");
	return SBOPT_OK;
}

static enum sbopt_verdict check_count(struct val *v, uint64_t min)
{
	struct piece p = sbv_whole(v);
	if (p.n && p.p[0] == '+')
		p.p++, p.n--;
	if (!sbv_digits(p))
		return BAD("'%.*s' is not a whole number", (int)v->n, v->s);
	if (sbv_num(p) > INT32_MAX)
		return BAD("%.*s is too large", (int)p.n, p.p);
	if (sbv_num(p) < min)
		return BAD("must be at least %llu", (unsigned long long)min);
	return SBOPT_OK;
}

static enum sbopt_verdict check_int(struct val *v)
{
	struct piece p = sbv_whole(v);
	if (p.n && (p.p[0] == '-' || p.p[0] == '+'))
		p.p++, p.n--;
	if (!sbv_digits(p))
		return ODD("'%.*s' is not a number; sbatch reads it as 0", (int)v->n, v->s);
	if (sbv_num(p) > 2147483645)
		return BAD("out of range (+/- 2147483645)");
	return SBOPT_OK;
}

/* [type:]count[,...] for the --gpus family. */
static enum sbopt_verdict check_tres(struct val *v)
{
	struct piece all = sbv_whole(v), item;
	size_t pos = 0;
	if (!all.n)
		return ODD("an empty GPU request");
	while (sbv_next_item(all, &pos, ',', &item)) {
		const char *colon = memchr(item.p, ':', item.n);
		struct piece type = { item.p, colon ? (size_t)(colon - item.p) : 0 };
		struct piece cnt = colon ? (struct piece){ colon + 1, item.n - type.n - 1 } : item;
		if (colon && (!type.n || memchr(cnt.p, ':', cnt.n)))
			return BAD("'%.*s' is not [type:]count", (int)item.n, item.p);
		if (!sbv_digits(cnt))
			return ODD("'%.*s' has no count: sbatch reads it as one GPU of type '%.*s'",
				   (int)item.n, item.p, (int)item.n, item.p);
		if (sbv_eq(type, "gpu"))
			return ODD("'gpu:' here names a GPU type called gpu; write the count alone");
	}
	return SBOPT_OK;
}

/* name[[:type]:count][,...]; the count may carry K/M/G/T/P. */
static enum sbopt_verdict check_gres(struct val *v)
{
	struct piece all = sbv_whole(v), item;
	size_t pos = 0;
	if (!all.n)
		return ODD("an empty GRES request");
	while (sbv_next_item(all, &pos, ',', &item)) {
		struct piece f[4], tmp;
		size_t nf = 0, ip = 0;
		while (sbv_next_item(item, &ip, ':', &tmp)) {
			if (nf == 3)
				return BAD("'%.*s' is not name[[:type]:count]", (int)item.n, item.p);
			f[nf++] = tmp;
		}
		for (size_t i = 0; i < nf; i++)
			if (!f[i].n)
				return BAD("'%.*s' has an empty field", (int)item.n, item.p);
		if (nf == 3) {
			struct piece c = f[2];
			if (c.n && strchr("kKmMgGtTpP", c.p[c.n - 1]))
				c.n--;
			if (!sbv_digits(c))
				return BAD("the count in '%.*s' is not a number", (int)item.n, item.p);
		}
	}
	return SBOPT_OK;
}

static enum sbopt_verdict check_pattern(struct val *v)
{
	struct piece p = sbv_whole(v);
	if (!p.n)
		return ODD("an empty file name");
	for (size_t i = 0; i < p.n; i++) {
		if (p.p[i] == '\\')
			return SBOPT_OK; /* a backslash turns replacement off */
		if (p.p[i] != '%')
			continue;
		size_t j = i + 1;
		while (j < p.n && isdigit((unsigned char)p.p[j]))
			j++;
		if (j >= p.n)
			return ODD("a '%%' at the end is kept as is");
		if (!strchr("%AaJjNnstuxb", p.p[j]))
			return ODD("'%%%c' is not a replacement symbol; it is kept as is", p.p[j]);
		i = j;
	}
	return SBOPT_OK;
}

static enum sbopt_verdict check_syntax(struct val *v, const struct sbopt *o)
{
	switch (o->syntax) {
	case SBV_NONE:
		return v->n ? BAD("--%s takes no value", o->name) : SBOPT_OK;
	case SBV_TEXT:
		return v->n ? SBOPT_OK : ODD("an empty value");
	case SBV_PATTERN:
		return check_pattern(v);
	case SBV_TIME:
		return sbv_check_time(v);
	case SBV_MEM:
		return check_mem(v);
	case SBV_NODES:
		return check_nodes(v);
	case SBV_COUNT:
		return check_count(v, 1);
	case SBV_COUNT0:
		return check_count(v, 0);
	case SBV_INT:
		return check_int(v);
	case SBV_ENUM:
		return check_enum(v, o);
	case SBV_ENUM_LIST:
		return check_enum_list(v, o);
	case SBV_TRES:
		return check_tres(v);
	case SBV_GRES:
		return check_gres(v);
	case SBV_ARRAY:
		return sbv_check_array(v);
	case SBV_DEPENDENCY:
		return sbv_check_dependency(v);
	case SBV_DATETIME:
		return sbv_check_datetime(v);
	case SBV_SIGNAL:
		return sbv_check_signal(v);
	case SBV_DISTRIBUTION:
		return sbv_check_distribution(v);
	case SBV_GPU_BIND:
		return sbv_check_gpu_bind(v);
	case SBV_MEM_BIND:
		return sbv_check_mem_bind(v);
	case SBV_CPU_FREQ:
		return sbv_check_cpu_freq(v);
	case SBV_GPU_FREQ:
		return sbv_check_gpu_freq(v);
	case SBV_EXTRA_NODE_INFO:
		return sbv_check_extra_node_info(v);
	case SBV_SWITCHES:
		return sbv_check_switches(v);
	case SBV_ACCTG_FREQ:
		return sbv_check_acctg_freq(v);
	case SBV_GET_USER_ENV:
		return sbv_check_get_user_env(v);
	case SBV_PROFILE:
		return sbv_check_profile(v);
	case SBV_PROPAGATE:
		return sbv_check_propagate(v);
	case SBV_PRIORITY:
		return sbv_check_priority(v);
	case SBV_LICENSES:
		return sbv_check_licenses(v);
	case SBV_BOOL01:
		return (v->n == 1 && (v->s[0] == '0' || v->s[0] == '1')) ? SBOPT_OK
			: BAD("'%.*s' is not 0 or 1", (int)v->n, v->s);
	}
	return SBOPT_OK;
}

/* "$HOME/logs" in a directive: sbatch reads directives itself and
 * expands nothing, so the job gets a directory literally named $HOME. */
static bool shell_expansion(const char *s, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++)
		if (s[i] == '$' && (s[i + 1] == '{' || s[i + 1] == '(' || s[i + 1] == '_' ||
				    isalpha((unsigned char)s[i + 1])))
			return true;
	return false;
}

enum sbopt_verdict sbopt_check_value(const struct sbopt *opt, const char *value,
				     size_t len, char *why, size_t cap)
{
	struct val v = { value ? value : "", value ? len : 0, why, cap };
	if (why && cap)
		why[0] = '\0';
	if (!opt)
		return SBOPT_OK;
	enum sbopt_verdict r = check_syntax(&v, opt);
	if (r == SBOPT_OK && shell_expansion(v.s, v.n))
		return sbv_say(&v, SBOPT_SUSPECT,
			   "sbatch does not expand shell variables or commands in #SBATCH lines");
	return r;
}
