/* sbatch values with a grammar of their own: job arrays, dependencies,
 * dates and times, signals, task distributions, GPU and memory binding,
 * CPU and GPU frequencies, node shapes, switches, accounting, profiles,
 * rlimits, priorities, licenses. See sbatch_values.c for the verdicts. */
#include "values.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* 0-15:4%2 or 1,3,5-7, optionally in brackets. */
enum sbopt_verdict sbv_check_array(struct val *v)
{
	struct piece p = sbv_whole(v), item;
	if (p.n >= 2 && p.p[0] == '[' && p.p[p.n - 1] == ']')
		p.p++, p.n -= 2;
	const char *pct = memchr(p.p, '%', p.n);
	if (pct) {
		struct piece lim = { pct + 1, p.n - (size_t)(pct - p.p) - 1 };
		if (!sbv_digits(lim))
			return BAD("the limit after %% must be a number");
		p.n = (size_t)(pct - p.p);
	}
	if (!p.n)
		return BAD("no array indexes");
	size_t pos = 0;
	while (sbv_next_item(p, &pos, ',', &item)) {
		const char *colon = memchr(item.p, ':', item.n);
		struct piece range = { item.p, colon ? (size_t)(colon - item.p) : item.n };
		const char *dash = memchr(range.p, '-', range.n);
		struct piece a = { range.p, dash ? (size_t)(dash - range.p) : range.n };
		struct piece b = dash ? (struct piece){ dash + 1, range.n - a.n - 1 } : a;
		if (!item.n)
			return ODD("an empty index in the list");
		if (!sbv_digits(a) || !sbv_digits(b))
			return BAD("'%.*s' is not an index or a range N-M", (int)item.n, item.p);
		if (sbv_num(b) < sbv_num(a))
			return BAD("'%.*s' runs backwards", (int)range.n, range.p);
		if (colon) {
			struct piece step = { colon + 1, item.n - range.n - 1 };
			if (!sbv_digits(step) || sbv_num(step) == 0)
				return BAD("the step in '%.*s' must be a positive number", (int)item.n, item.p);
			if (!dash)
				return ODD("a step on a single index");
		}
	}
	return SBOPT_OK;
}

static const char *const dep_types[] = {
	"after", "afterany", "afterburstbuffer", "aftercorr", "afternotok", "afterok", NULL
};

static bool job_id(struct piece p, bool allow_time)
{
	const char *plus = allow_time ? memchr(p.p, '+', p.n) : NULL;
	if (plus) {
		struct piece t = { plus + 1, p.n - (size_t)(plus - p.p) - 1 };
		if (!sbv_digits(t))
			return false;
		p.n = (size_t)(plus - p.p);
	}
	const char *us = memchr(p.p, '_', p.n);
	if (us) {
		struct piece idx = { us + 1, p.n - (size_t)(us - p.p) - 1 };
		if (!sbv_digits(idx) && !sbv_eq(idx, "*"))
			return false;
		p.n = (size_t)(us - p.p);
	}
	return sbv_digits(p);
}

enum sbopt_verdict sbv_check_dependency(struct val *v)
{
	struct piece p = sbv_whole(v), item;
	if (!p.n)
		return ODD("an empty dependency");
	bool comma = memchr(p.p, ',', p.n), quest = memchr(p.p, '?', p.n);
	if (comma && quest)
		return BAD("use either ',' (all) or '?' (any) between dependencies, not both");
	size_t pos = 0;
	while (sbv_next_item(p, &pos, quest ? '?' : ',', &item)) {
		if (sbv_eq(item, "singleton"))
			continue;
		const char *colon = memchr(item.p, ':', item.n);
		if (!colon) {
			if (job_id(item, false))
				continue; /* a bare job ID means afterany */
			return BAD("'%.*s' is not type:jobid or singleton", (int)item.n, item.p);
		}
		struct piece type = { item.p, (size_t)(colon - item.p) }, id;
		if (!sbv_in_choices(type, dep_types, false))
			return BAD("unknown dependency type '%.*s'", (int)type.n, type.p);
		struct piece ids = { colon + 1, item.n - type.n - 1 };
		size_t ip = 0;
		while (sbv_next_item(ids, &ip, ':', &id))
			if (!job_id(id, sbv_eq(type, "after")))
				return BAD("'%.*s' is not a job ID", (int)id.n, id.p);
	}
	return SBOPT_OK;
}

static bool is_hhmm(struct piece p)
{
	/* HH:MM[:SS] optionally followed by AM or PM. */
	if (p.n >= 2 && (strncasecmp(p.p + p.n - 2, "AM", 2) == 0 ||
			 strncasecmp(p.p + p.n - 2, "PM", 2) == 0))
		p.n -= 2;
	struct piece f;
	size_t pos = 0, nf = 0;
	while (sbv_next_item(p, &pos, ':', &f)) {
		if (f.n < 1 || f.n > 2 || !sbv_digits(f) || ++nf > 3)
			return false;
		if (sbv_num(f) > (nf == 1 ? 23u : 59u))
			return false;
	}
	return nf >= 2;
}

static bool is_date(struct piece p)
{
	struct piece f[3];
	size_t nf = 0, pos = 0;
	char sep = memchr(p.p, '-', p.n) ? '-' : memchr(p.p, '/', p.n) ? '/' : '.';
	if (sbv_digits(p) && (p.n == 4 || p.n == 6))
		return sbv_num((struct piece){ p.p, 2 }) - 1 < 12; /* MMDD[YY] */
	while (nf < 3 && sbv_next_item(p, &pos, sep, &f[nf]))
		nf++;
	if (pos <= p.n || nf < 2)
		return false;
	for (size_t i = 0; i < nf; i++)
		if (!sbv_digits(f[i]))
			return false;
	if (sep == '-') /* YYYY-MM-DD */
		return nf == 3 && f[0].n == 4 && sbv_num(f[1]) - 1 < 12 && sbv_num(f[2]) - 1 < 31;
	return sbv_num(f[0]) - 1 < 12 && sbv_num(f[1]) - 1 < 31; /* MM/DD[/YY] */
}

static const char *const time_units[] = {
	"second", "seconds", "minute", "minutes", "hour", "hours", "day", "days",
	"week", "weeks", NULL
};

/* --begin and --deadline. */
enum sbopt_verdict sbv_check_datetime(struct val *v)
{
	static const char *const words[] = {
		"now", "today", "tomorrow", "midnight", "noon", "fika", "teatime", NULL
	};
	struct piece p = sbv_whole(v);
	if (!p.n)
		return BAD("an empty time");
	if (p.n > 3 && strncasecmp(p.p, "now", 3) == 0 && (p.p[3] == '+' || p.p[3] == '-')) {
		struct piece rest = { p.p + 4, p.n - 4 };
		size_t i = 0;
		while (i < rest.n && isdigit((unsigned char)rest.p[i]))
			i++;
		struct piece unit = { rest.p + i, rest.n - i };
		if (i && (!unit.n || sbv_in_choices(unit, time_units, true)))
			return SBOPT_OK;
		return BAD("'%.*s' is not now+count[seconds|minutes|hours|days|weeks]", (int)p.n, p.p);
	}
	if (sbv_in_choices(p, words, true))
		return SBOPT_OK;
	const char *t = memchr(p.p, 'T', p.n);
	const char *dash = memchr(p.p, '-', p.n);
	if (t && dash && t > dash) {
		struct piece d = { p.p, (size_t)(t - p.p) }, tm = { t + 1, p.n - d.n - 1 };
		if (is_date(d) && is_hhmm(tm))
			return SBOPT_OK;
	}
	if (memchr(p.p, '/', p.n) && dash) { /* MM/DD[/YY]-HH:MM[:SS] */
		struct piece d = { p.p, (size_t)(dash - p.p) }, tm = { dash + 1, p.n - d.n - 1 };
		if (is_date(d) && is_hhmm(tm))
			return SBOPT_OK;
	}
	if (is_hhmm(p) || is_date(p))
		return SBOPT_OK;
	return BAD("'%.*s' is not a date or time sbatch understands (HH:MM[:SS], now+1hour, YYYY-MM-DD[THH:MM[:SS]], MM/DD[/YY], midnight...)",
		   (int)p.n, p.p);
}

static const char *const signals[] = {
	"HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV",
	"USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN",
	"TTOU", "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "POLL", "PWR", "SYS", NULL
};

enum sbopt_verdict sbv_check_signal(struct val *v)
{
	struct piece p = sbv_whole(v);
	const char *colon = memchr(p.p, ':', p.n);
	if (colon) {
		for (const char *c = p.p; c < colon; c++)
			if (*c != 'R' && *c != 'B')
				return BAD("only R and B may come before ':'");
		p.n -= (size_t)(colon - p.p) + 1;
		p.p = colon + 1;
	}
	const char *at = memchr(p.p, '@', p.n);
	struct piece sig = { p.p, at ? (size_t)(at - p.p) : p.n };
	if (at) {
		struct piece t = { at + 1, p.n - sig.n - 1 };
		if (!sbv_digits(t) || sbv_num(t) > 65535)
			return BAD("the time after @ must be 0-65535 seconds");
	}
	if (sig.n > 3 && strncasecmp(sig.p, "SIG", 3) == 0)
		sig.p += 3, sig.n -= 3;
	if (sbv_digits(sig) && sbv_num(sig) > 64)
		return ODD("signal %.*s is above the real-time signal range", (int)sig.n, sig.p);
	if (sbv_digits(sig) ? sbv_num(sig) >= 1 : sbv_in_choices(sig, signals, true))
		return SBOPT_OK;
	return BAD("'%.*s' is not a signal number or name", (int)sig.n, sig.p);
}

enum sbopt_verdict sbv_check_distribution(struct val *v)
{
	static const char *const node[] = { "*", "block", "cyclic", "arbitrary", NULL };
	static const char *const cpu[] = { "*", "block", "cyclic", "fcyclic", NULL };
	static const char *const pack[] = { "Pack", "NoPack", NULL };
	struct piece p = sbv_whole(v), f;
	const char *comma = memchr(p.p, ',', p.n);
	if (comma) {
		struct piece opt = { comma + 1, p.n - (size_t)(comma - p.p) - 1 };
		if (!sbv_in_choices(opt, pack, true))
			return BAD("after ',' only Pack or NoPack");
		p.n = (size_t)(comma - p.p);
	}
	if (sbv_in_choices(p, pack, true))
		return SBOPT_OK;
	size_t pos = 0, nf = 0;
	while (sbv_next_item(p, &pos, ':', &f)) {
		if (nf == 0 && f.n > 6 && strncasecmp(f.p, "plane=", 6) == 0) {
			if (!sbv_digits((struct piece){ f.p + 6, f.n - 6 }))
				return BAD("plane=<size> needs a number");
		} else if (nf == 0 && sbv_eq(f, "plane")) {
			return BAD("plane needs a size: plane=<size>");
		} else if (!sbv_in_choices(f, nf == 0 ? node : cpu, true)) {
			return BAD("'%.*s' is not a distribution method", (int)f.n, f.p);
		}
		if (++nf > 3)
			return BAD("at most three methods separated by ':'");
	}
	return SBOPT_OK;
}

/* map_x:<list> and mask_x:<list> entries: numbers or hex, with *count. */
static bool bind_list(struct piece p)
{
	struct piece item;
	size_t pos = 0;
	if (!p.n)
		return false;
	while (sbv_next_item(p, &pos, ',', &item)) {
		const char *star = memchr(item.p, '*', item.n);
		if (star) {
			if (!sbv_digits((struct piece){ star + 1, item.n - (size_t)(star - item.p) - 1 }))
				return false;
			item.n = (size_t)(star - item.p);
		}
		if (item.n > 2 && item.p[0] == '0' && (item.p[1] == 'x' || item.p[1] == 'X'))
			item.p += 2, item.n -= 2;
		if (!item.n)
			return false;
		for (size_t i = 0; i < item.n; i++)
			if (!isxdigit((unsigned char)item.p[i]))
				return false;
	}
	return true;
}

static bool prefixed(struct piece p, const char *prefix, struct piece *rest)
{
	size_t n = strlen(prefix);
	if (p.n < n || strncasecmp(p.p, prefix, n) != 0)
		return false;
	*rest = (struct piece){ p.p + n, p.n - n };
	return true;
}

enum sbopt_verdict sbv_check_gpu_bind(struct val *v)
{
	struct piece p = sbv_whole(v), rest;
	if (prefixed(p, "verbose,", &rest))
		p = rest;
	if (sbv_eq(p, "closest") || sbv_eq(p, "none"))
		return SBOPT_OK;
	if (prefixed(p, "map_gpu:", &rest) || prefixed(p, "mask_gpu:", &rest))
		return bind_list(rest) ? SBOPT_OK : BAD("bad GPU list in '%.*s'", (int)p.n, p.p);
	if (prefixed(p, "per_task:", &rest) || prefixed(p, "single:", &rest))
		return sbv_digits(rest) ? SBOPT_OK : BAD("'%.*s' needs a number", (int)p.n, p.p);
	return BAD("'%.*s' is not closest, none, map_gpu:, mask_gpu:, per_task: or single:", (int)p.n, p.p);
}

enum sbopt_verdict sbv_check_mem_bind(struct val *v)
{
	static const char *const words[] = {
		"q", "quiet", "v", "verbose", "no", "none", "local", "rank", "sort",
		"p", "prefer", "help", NULL
	};
	struct piece p = sbv_whole(v), item, rest;
	size_t pos = 0;
	if (!p.n)
		return BAD("empty");
	while (sbv_next_item(p, &pos, ',', &item)) {
		if (prefixed(item, "map_mem:", &rest) || prefixed(item, "mask_mem:", &rest)) {
			/* The list itself holds commas: it runs to the end. */
			rest.n = p.n - (size_t)(rest.p - p.p);
			return bind_list(rest) ? SBOPT_OK : BAD("bad NUMA list");
		}
		if (!sbv_in_choices(item, words, true))
			return BAD("'%.*s' is not a --mem-bind type", (int)item.n, item.p);
	}
	return SBOPT_OK;
}

enum sbopt_verdict sbv_check_cpu_freq(struct val *v)
{
	static const char *const gov[] = {
		"conservative", "ondemand", "performance", "powersave", "userspace", "schedutil", NULL
	};
	static const char *const lvl[] = { "low", "medium", "high", "highm1", NULL };
	struct piece p = sbv_whole(v);
	const char *colon = memchr(p.p, ':', p.n);
	if (colon) {
		struct piece g = { colon + 1, p.n - (size_t)(colon - p.p) - 1 };
		if (!sbv_in_choices(g, gov, true))
			return BAD("'%.*s' is not a CPU governor", (int)g.n, g.p);
		p.n = (size_t)(colon - p.p);
	}
	const char *dash = memchr(p.p, '-', p.n);
	struct piece a = { p.p, dash ? (size_t)(dash - p.p) : p.n };
	if (!(sbv_digits(a) || sbv_in_choices(a, lvl, true) || (!dash && !colon && sbv_in_choices(a, gov, true))))
		return BAD("'%.*s' is not a frequency, low, medium, high, highm1 or a governor", (int)a.n, a.p);
	if (dash) {
		struct piece b = { dash + 1, p.n - a.n - 1 };
		if (!(sbv_digits(b) || sbv_in_choices(b, lvl, true)))
			return BAD("'%.*s' is not a frequency, medium, high or highm1", (int)b.n, b.p);
	}
	return SBOPT_OK;
}

enum sbopt_verdict sbv_check_gpu_freq(struct val *v)
{
	static const char *const lvl[] = { "low", "medium", "high", "highm1", NULL };
	struct piece p = sbv_whole(v), item;
	size_t pos = 0;
	while (sbv_next_item(p, &pos, ',', &item)) {
		if (sbv_eq(item, "verbose"))
			continue;
		const char *e = memchr(item.p, '=', item.n);
		struct piece val = item;
		if (e) {
			struct piece type = { item.p, (size_t)(e - item.p) };
			if (!sbv_eq(type, "memory") && !sbv_eq(type, "graphics"))
				return BAD("'%.*s' is not memory=", (int)type.n, type.p);
			val = (struct piece){ e + 1, item.n - type.n - 1 };
		}
		if (!sbv_digits(val) && !sbv_in_choices(val, lvl, true))
			return BAD("'%.*s' is not low, medium, high, highm1 or MHz", (int)val.n, val.p);
	}
	return SBOPT_OK;
}

enum sbopt_verdict sbv_check_extra_node_info(struct val *v)
{
	struct piece p = sbv_whole(v), f;
	size_t pos = 0, nf = 0;
	if (!p.n)
		return ODD("empty");
	while (sbv_next_item(p, &pos, ':', &f)) {
		const char *dash = memchr(f.p, '-', f.n);
		struct piece a = { f.p, dash ? (size_t)(dash - f.p) : f.n };
		struct piece b = dash ? (struct piece){ dash + 1, f.n - a.n - 1 } : a;
		if (!sbv_eq(f, "*") && !(sbv_digits(a) && sbv_digits(b)))
			return BAD("'%.*s' is not a count, MIN-MAX or *", (int)f.n, f.p);
		nf++;
	}
	if (nf > 3)
		return ODD("only sockets:cores:threads are read; the rest is ignored");
	return SBOPT_OK;
}

enum sbopt_verdict sbv_check_switches(struct val *v)
{
	struct piece p = sbv_whole(v);
	const char *at = memchr(p.p, '@', p.n);
	struct piece c = { p.p, at ? (size_t)(at - p.p) : p.n };
	if (!sbv_digits(c))
		return BAD("'%.*s' is not a switch count", (int)c.n, c.p);
	if (at) {
		struct val t = { at + 1, p.n - c.n - 1, v->why, v->cap };
		if (sbv_check_time(&t) == SBOPT_BAD)
			return ODD("the wait time is not a time; sbatch ignores it");
	}
	return SBOPT_OK;
}

enum sbopt_verdict sbv_check_acctg_freq(struct val *v)
{
	static const char *const types[] = { "task", "energy", "network", "filesystem", NULL };
	struct piece p = sbv_whole(v), item;
	size_t pos = 0;
	if (sbv_digits(p))
		return SBOPT_OK;
	while (sbv_next_item(p, &pos, ',', &item)) {
		const char *e = memchr(item.p, '=', item.n);
		struct piece type = { item.p, e ? (size_t)(e - item.p) : item.n };
		if (!e || !sbv_in_choices(type, types, true) ||
		    !sbv_digits((struct piece){ e + 1, item.n - type.n - 1 }))
			return BAD("'%.*s' is not task=, energy=, network= or filesystem=<seconds>",
				   (int)item.n, item.p);
	}
	return SBOPT_OK;
}

enum sbopt_verdict sbv_check_get_user_env(struct val *v)
{
	struct piece p = sbv_whole(v);
	size_t i = 0;
	while (i < p.n && isdigit((unsigned char)p.p[i]))
		i++;
	if (i < p.n && (p.p[i] == 'S' || p.p[i] == 'L'))
		i++;
	return i == p.n ? SBOPT_OK : BAD("'%.*s' is not [timeout][S|L]", (int)p.n, p.p);
}

enum sbopt_verdict sbv_check_profile(struct val *v)
{
	static const char *const types[] = { "all", "none", "energy", "task", "lustre", "network", NULL };
	struct piece p = sbv_whole(v), item;
	size_t pos = 0, n = 0;
	bool alone = false;
	while (sbv_next_item(p, &pos, ',', &item)) {
		if (!sbv_in_choices(item, types, true))
			return BAD("'%.*s' is not all, none, energy, task, lustre or network", (int)item.n, item.p);
		alone |= sbv_eq(item, "all") || sbv_eq(item, "none");
		n++;
	}
	if (alone && n > 1)
		return ODD("all and none cannot be combined with other types");
	return SBOPT_OK;
}

enum sbopt_verdict sbv_check_propagate(struct val *v)
{
	static const char *const limits[] = {
		"ALL", "NONE", "AS", "CORE", "CPU", "DATA", "FSIZE", "MEMLOCK", "NOFILE",
		"NPROC", "RSS", "STACK", NULL
	};
	struct piece p = sbv_whole(v), item;
	size_t pos = 0;
	while (p.n && sbv_next_item(p, &pos, ',', &item)) {
		/* sbatch matches rlimit names case-sensitively. */
		if (!sbv_in_choices(item, limits, false))
			return BAD("'%.*s' is not an rlimit name (upper case: ALL, NONE, AS, CORE, STACK...)",
				   (int)item.n, item.p);
	}
	return SBOPT_OK;
}

enum sbopt_verdict sbv_check_priority(struct val *v)
{
	struct piece p = sbv_whole(v);
	if (sbv_eq(p, "TOP") || sbv_digits(p))
		return SBOPT_OK;
	if (p.n && p.p[0] == '-')
		return BAD("priority must be >= 0");
	return ODD("'%.*s' is not a number or TOP; sbatch reads it as 0", (int)p.n, p.p);
}

enum sbopt_verdict sbv_check_licenses(struct val *v)
{
	struct piece p = sbv_whole(v), item;
	size_t pos = 0;
	if (!p.n)
		return ODD("no licenses named");
	while (sbv_next_item(p, &pos, ',', &item)) {
		const char *colon = memchr(item.p, ':', item.n);
		struct piece name = { item.p, colon ? (size_t)(colon - item.p) : item.n };
		if (!name.n)
			return BAD("a license without a name");
		if (colon && !sbv_digits((struct piece){ colon + 1, item.n - name.n - 1 }))
			return ODD("the count in '%.*s' is not a number", (int)item.n, item.p);
	}
	return SBOPT_OK;
}
