/* The integers a batch script computes, as the layout and port checks
 * read them: a word's value, a variable's value where it is used
 * (through the if and case branches that decide it, at each node count
 * the job can run with) and $(( )) arithmetic as an interval. Anything
 * the text cannot decide is unknown, never a guess. */
#include "sb.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool parse_int(const char *s, long long *out)
{
	if (!s || !*s)
		return false;
	errno = 0;
	char *end;
	long long v = strtoll(s, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

/* ---- integers the script computes ---- */

#define ARITH_DEPTH 8

static bool word_int(const struct sbc *c, const sb_word *w, const sb_cmd *at, unsigned depth,
		     long long *out);
static bool branch_int(const struct sbc *c, const char *name, const sb_cmd *at, unsigned depth,
		       long long *out);

/* What $SLURM_JOB_NUM_NODES and friends hold: the node count the
 * checks evaluate at, else the allocation's (in the batch step of a
 * heterogeneous job, component 0's alone; in a step, a script srun
 * starts on every node, the step's nodes). */
static long long slurm_nodes(const struct sbc *c)
{
	return c->eval_nodes ? c->eval_nodes : c->per_node ? c->nodes : c->batch_nodes;
}

static bool is_nodes_var(const char *v)
{
	return v && (!strcmp(v, "SLURM_JOB_NUM_NODES") || !strcmp(v, "SLURM_NNODES"));
}

/* A variable's integer value at a command, through the resolver. */
static bool var_int(const struct sbc *c, const char *name, const sb_cmd *at, unsigned depth,
		    long long *out)
{
	struct sb_resolved r;
	enum sb_res k = sb_resolve(c->m, name, at, &r);
	if (k == SB_RES_VALUE)
		return parse_int(r.value, out);
	if (k == SB_RES_ENV) {
		long long n = slurm_nodes(c);
		if (!is_nodes_var(r.var) || !n)
			return false;
		*out = n;
		return true;
	}
	if (k == SB_RES_WORD && r.assign && r.assign->value && !r.overridable)
		return word_int(c, r.assign->value, r.assign->cmd, depth + 1, out);
	return k == SB_RES_UNKNOWN && branch_int(c, name, at, depth, out);
}

/* A test command's outcome at the numbers the checks evaluate at:
 * [ A -op B ], test A -op B, [[ A -op B ]] with integer operands; -1
 * when it cannot be told. */
static int condition_holds(const struct sbc *c, const sb_cmd *cond, unsigned depth)
{
	static const char *const ops[] = { "-eq", "-ne", "-lt", "-le", "-gt", "-ge" };
	size_t n = sb_cmd_word_count(cond), first = 1;
	const char *w0 = n ? sb_word_value(sb_cmd_word(cond, 0)) : NULL;
	if (!w0)
		return -1;
	if (!strcmp(w0, "[") || !strcmp(w0, "[["))
		n--; /* the closing ] or ]] */
	else if (strcmp(w0, "test") != 0)
		return -1;
	if (n - first != 3)
		return -1;
	const char *op = sb_word_value(sb_cmd_word(cond, first + 1));
	long long a, b;
	if (!op || !word_int(c, sb_cmd_word(cond, first), cond, depth + 1, &a) ||
	    !word_int(c, sb_cmd_word(cond, first + 2), cond, depth + 1, &b))
		return -1;
	for (int i = 0; i < 6; i++)
		if (!strcmp(op, ops[i])) {
			bool r[] = { a == b, a != b, a < b, a <= b, a > b, a >= b };
			return r[i];
		}
	return -1;
}

/* Whether a number matches one item's patterns ("4|8", "*", '16'):
 * 1 or 0, -1 for a glob it cannot judge. */
static int item_matches(const char *pats, long long v)
{
	char buf[64];
	for (const char *p = pats;;) {
		size_t n = strcspn(p, "|"), k = 0;
		for (size_t i = 0; i < n && k + 1 < sizeof buf; i++)
			if (p[i] != ' ' && p[i] != '\t' && p[i] != '"' && p[i] != '\'')
				buf[k++] = p[i];
		buf[k] = '\0';
		long long x;
		if (!strcmp(buf, "*"))
			return 1;
		if (!parse_int(buf, &x))
			return -1;
		if (x == v)
			return 1;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

/* Whether the case item an assignment stands in is the one taken: its
 * patterns match the case's word and no earlier item's do; -1 when that
 * cannot be told. */
static int case_item_taken(const struct sbc *c, const struct sb_assign *a, const sb_cmd *at,
			   unsigned depth)
{
	const sb_word *subject;
	const char *pats[16];
	size_t n = sb_assign_case(c->m, a, at, &subject, pats, 16);
	long long v;
	if (n == SIZE_MAX || n == 0 || !word_int(c, subject, a->cmd, depth + 1, &v))
		return -1;
	for (size_t i = 0; i < n; i++) {
		int m = item_matches(pats[i], v);
		if (m != 0)
			return m < 0 ? -1 : i + 1 == n;
	}
	return 0;
}

/* A variable set in the branches of an if (PP=4 when there are 8 nodes
 * or more, else 2): the latest assignment whose branch the conditions
 * take, at the numbers the checks evaluate at. */
static bool branch_int(const struct sbc *c, const char *name, const sb_cmd *at, unsigned depth,
		       long long *out)
{
	const struct sb_assign *cand[16];
	bool base;
	size_t n = sb_assign_candidates(c->m, name, at, cand, 16, &base);
	if (n == SIZE_MAX || depth > ARITH_DEPTH)
		return false;
	for (size_t i = 0; i < n; i++) {
		const sb_cmd *conds[8];
		bool taken[8];
		size_t k = sb_assign_conditions(c->m, cand[i], at, conds, taken, 8);
		if (cand[i]->kind != SB_ASSIGN_PLAIN && cand[i]->kind != SB_ASSIGN_EXPORT)
			return false;
		bool runs = true;
		if (k == SIZE_MAX) {
			int h = case_item_taken(c, cand[i], at, depth);
			if (h < 0)
				return false;
			runs = h == 1;
		}
		for (size_t j = 0; k != SIZE_MAX && j < k && runs; j++) {
			int h = condition_holds(c, conds[j], depth);
			if (h < 0)
				return false;
			runs = (h == 1) == taken[j];
		}
		if (runs)
			return cand[i]->value && word_int(c, cand[i]->value, cand[i]->cmd, depth + 1, out);
	}
	return false;
}

/* Shell arithmetic, $(( )), for what layout sizes and ports use:
 * integers, variables (with or without $, ${NAME}), + - * / % and
 * parentheses, each value an interval: $RANDOM is 0 to 32767, anything
 * else one number. Anything more (a command substitution, a comparison)
 * makes the value unknown. */
struct span2 {
	long long lo, hi;
};

struct arith {
	const struct sbc *c;
	const sb_cmd *at;
	const char *s, *end;
	unsigned depth;
	bool ok;
	bool random;   /* $RANDOM read */
};

#define ARITH_BIG (1LL << 40)

static struct span2 one(long long v)
{
	return (struct span2){ v, v };
}

static void arith_blank(struct arith *a)
{
	while (a->s < a->end && (*a->s == ' ' || *a->s == '\t' || *a->s == '\n' || *a->s == '"'))
		a->s++;
}

static struct span2 arith_sum(struct arith *a, unsigned nest);

static struct span2 arith_name(struct arith *a)
{
	bool braced = false;
	if (*a->s == '$')
		a->s++;
	if (a->s < a->end && *a->s == '{')
		braced = true, a->s++;
	const char *n0 = a->s;
	while (a->s < a->end && (*a->s == '_' || (*a->s >= 'A' && *a->s <= 'Z') ||
				 (*a->s >= 'a' && *a->s <= 'z') || (a->s > n0 && *a->s >= '0' && *a->s <= '9')))
		a->s++;
	size_t n = (size_t)(a->s - n0);
	if (braced) {
		if (a->s < a->end && *a->s == '}')
			a->s++;
		else
			a->ok = false;
	}
	char name[64];
	long long v = 0;
	if (!n || n >= sizeof name) {
		a->ok = false;
		return one(0);
	}
	memcpy(name, n0, n);
	name[n] = '\0';
	if (!strcmp(name, "RANDOM")) {
		a->random = true;
		return (struct span2){ 0, 32767 };
	}
	if (!var_int(a->c, name, a->at, a->depth, &v))
		a->ok = false;
	return one(v);
}

static struct span2 arith_primary(struct arith *a, unsigned nest)
{
	arith_blank(a);
	if (a->s >= a->end || nest > 64) {
		a->ok = false;
		return one(0);
	}
	if (*a->s == '(') {
		a->s++;
		struct span2 v = arith_sum(a, nest + 1);
		arith_blank(a);
		if (a->s < a->end && *a->s == ')')
			a->s++;
		else
			a->ok = false;
		return v;
	}
	if (*a->s >= '0' && *a->s <= '9') {
		long long v = 0;
		while (a->s < a->end && *a->s >= '0' && *a->s <= '9' && v < ARITH_BIG)
			v = v * 10 + (*a->s++ - '0');
		return one(v);
	}
	return arith_name(a);
}

static struct span2 arith_unary(struct arith *a, unsigned nest)
{
	arith_blank(a);
	if (a->s < a->end && (*a->s == '-' || *a->s == '+')) {
		char op = *a->s++;
		struct span2 v = arith_unary(a, nest + 1);
		return op == '-' ? (struct span2){ -v.hi, -v.lo } : v;
	}
	return arith_primary(a, nest);
}

static bool small(struct span2 v)
{
	return v.lo > -ARITH_BIG && v.hi < ARITH_BIG;
}

static struct span2 arith_op(struct arith *a, char op, struct span2 l, struct span2 r)
{
	if (!small(l) || !small(r)) {
		a->ok = false;
		return one(0);
	}
	if (op == '*') {
		long long p[4] = { l.lo * r.lo, l.lo * r.hi, l.hi * r.lo, l.hi * r.hi };
		struct span2 v = { p[0], p[0] };
		for (int i = 1; i < 4; i++) {
			v.lo = p[i] < v.lo ? p[i] : v.lo;
			v.hi = p[i] > v.hi ? p[i] : v.hi;
		}
		return v;
	}
	/* a divisor must be one positive number, a dividend not negative */
	if (r.lo != r.hi || r.lo <= 0 || l.lo < 0) {
		a->ok = false; /* bash: division by 0 fails the statement */
		return one(0);
	}
	if (op == '/')
		return (struct span2){ l.lo / r.lo, l.hi / r.lo };
	if (l.hi - l.lo + 1 >= r.lo || l.lo % r.lo > l.hi % r.lo)
		return (struct span2){ 0, r.lo - 1 };
	return (struct span2){ l.lo % r.lo, l.hi % r.lo };
}

static struct span2 arith_product(struct arith *a, unsigned nest)
{
	struct span2 v = arith_unary(a, nest);
	for (;;) {
		arith_blank(a);
		if (a->s >= a->end || (*a->s != '*' && *a->s != '/' && *a->s != '%') ||
		    (a->s + 1 < a->end && a->s[1] == '*'))
			return v;
		char op = *a->s++;
		v = arith_op(a, op, v, arith_unary(a, nest));
	}
}

static struct span2 arith_sum(struct arith *a, unsigned nest)
{
	struct span2 v = arith_product(a, nest);
	for (;;) {
		arith_blank(a);
		if (a->s >= a->end || (*a->s != '+' && *a->s != '-'))
			return v;
		char op = *a->s++;
		struct span2 r = arith_product(a, nest);
		if (!small(v) || !small(r))
			a->ok = false;
		v = op == '+' ? (struct span2){ v.lo + r.lo, v.hi + r.hi }
			      : (struct span2){ v.lo - r.hi, v.hi - r.lo };
	}
}

/* The text of a word that is one $(( )) (quoted or not), or NULL. */
static const char *arith_text(const sb_word *w, size_t *len)
{
	size_t n;
	const char *raw = sb_word_raw(w, &n);
	if (n >= 2 && raw[0] == '"' && raw[n - 1] == '"')
		raw++, n -= 2;
	if (n < 5 || strncmp(raw, "$((", 3) != 0 || strncmp(raw + n - 2, "))", 2) != 0)
		return NULL;
	*len = n - 5;
	return raw + 3;
}

static bool word_int(const struct sbc *c, const sb_word *w, const sb_cmd *at, unsigned depth,
		     long long *out)
{
	if (!w || depth > ARITH_DEPTH)
		return false;
	if (parse_int(sb_word_value(w), out))
		return true;
	size_t len;
	const char *text = arith_text(w, &len);
	if (text) {
		struct arith a = { c, at, text, text + len, depth, true, false };
		struct span2 v = arith_sum(&a, 0);
		arith_blank(&a);
		if (!a.ok || a.s != a.end || v.lo != v.hi)
			return false;
		*out = v.lo;
		return true;
	}
	const char *var = sb_word_var(w);
	return var && var_int(c, var, at, depth, out);
}

bool sbc_word_int(const struct sbc *c, const sb_word *w, const sb_cmd *at, long long *out)
{
	return word_int(c, w, at, 0, out);
}

bool sbc_word_range(const struct sbc *c, const sb_word *w, const sb_cmd *at, long long *lo,
		    long long *hi, bool *random)
{
	const char *var = w ? sb_word_var(w) : NULL;
	*random = false;
	if (var && !strcmp(var, "RANDOM")) {
		*lo = 0, *hi = 32767, *random = true;
		return true;
	}
	size_t len;
	const char *text = w ? arith_text(w, &len) : NULL;
	if (!text) {
		long long v;
		if (!sbc_word_int(c, w, at, &v))
			return false;
		*lo = *hi = v;
		return true;
	}
	struct arith a = { c, at, text, text + len, 0, true, false };
	struct span2 v = arith_sum(&a, 0);
	arith_blank(&a);
	if (!a.ok || a.s != a.end)
		return false;
	*lo = v.lo, *hi = v.hi, *random = a.random;
	return true;
}

/* torchrun reads --nnodes as N or MIN:MAX (torch.distributed.run). */
bool sbc_nnodes(const struct sbc *c, const sb_part *torch, const sb_cmd *cmd, long long *min,
		long long *max)
{
	const sb_word *w = sb_flag(torch, "nnodes");
	long long n;
	if (!w)
		return false;
	if (sbc_word_int(c, w, cmd, &n)) {
		*min = *max = n;
		return true;
	}
	const char *text = sb_word_value(w);
	struct sb_resolved r;
	if (!text && sb_resolve_word(c->m, w, cmd, &r) == SB_RES_VALUE)
		text = r.value;
	const char *colon = text ? strchr(text, ':') : NULL;
	if (!colon)
		return false;
	char lo[32];
	size_t n_lo = (size_t)(colon - text);
	if (n_lo >= sizeof lo)
		return false;
	memcpy(lo, text, n_lo);
	lo[n_lo] = '\0';
	long long a, b;
	if (!parse_int(lo, &a) || !parse_int(colon + 1, &b) || a < 1 || b < a)
		return false;
	*min = a;
	*max = b;
	return true;
}

