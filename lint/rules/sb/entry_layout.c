/* SB2615: the parallel sizes an entry point is given, by flags that say
 * what they are (--data-parallel-size, --pipeline-model-parallel-size,
 * --tensor-parallel-size, --tp, pp_size...), held to the world torchrun
 * starts, for an entry point whose framework the flag tables do not
 * know (a known one is layout.c's, SB2201 and SB2202). Every framework
 * that takes such flags builds DP x PP x TP (x CP) = world ranks: with
 * all given, their product must be the world; without DP, the rest must
 * divide it. The program may be on the line after the launcher's, when
 * that line lost its backslash (continuation.c): the sizes are still
 * the ones that launcher's world would run. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sb.h"

enum size_kind { SZ_DP, SZ_TP, SZ_PP, SZ_CP, SZ__COUNT };

static const char *const size_names[SZ__COUNT] = { "DP", "TP", "PP", "CP" };

/* Spellings, normalized: no leading dashes, '_' as '-', lower case. */
static const struct {
	const char *flag;
	enum size_kind kind;
} spellings[] = {
	{ "data-parallel-size", SZ_DP }, { "data-parallel-degree", SZ_DP }, { "dp-size", SZ_DP },
	{ "dp-degree", SZ_DP }, { "dp", SZ_DP }, { "data-parallel", SZ_DP },
	{ "tensor-model-parallel-size", SZ_TP }, { "tensor-parallel-size", SZ_TP },
	{ "tensor-parallel-degree", SZ_TP }, { "tp-size", SZ_TP }, { "tp-degree", SZ_TP },
	{ "tp", SZ_TP }, { "tensor-parallel", SZ_TP }, { "model-parallel-size", SZ_TP },
	{ "pipeline-model-parallel-size", SZ_PP }, { "pipeline-parallel-size", SZ_PP },
	{ "pipeline-parallel-degree", SZ_PP }, { "pipe-parallel-size", SZ_PP }, { "pp-size", SZ_PP },
	{ "pp-degree", SZ_PP }, { "pp", SZ_PP }, { "pipeline-parallel", SZ_PP },
	{ "context-parallel-size", SZ_CP }, { "context-parallel-degree", SZ_CP },
	{ "cp-size", SZ_CP }, { "cp", SZ_CP },
};

static bool size_of_flag(const char *raw, size_t len, enum size_kind *kind)
{
	char norm[64];
	size_t n = 0, i = 0;
	while (i < len && raw[i] == '-')
		i++;
	if (i == 0)
		return false;
	for (; i < len && raw[i] != '=' && n + 1 < sizeof norm; i++)
		norm[n++] = raw[i] == '_' ? '-' : (char)tolower((unsigned char)raw[i]);
	norm[n] = '\0';
	for (size_t k = 0; k < sizeof spellings / sizeof spellings[0]; k++)
		if (!strcmp(norm, spellings[k].flag)) {
			*kind = spellings[k].kind;
			return true;
		}
	return false;
}

bool sbc_size_flag(const char *raw, size_t len)
{
	enum size_kind k;
	return size_of_flag(raw, len, &k);
}

struct sizes {
	long long v[SZ__COUNT];       /* 0: not given (or not a number) */
	bool given[SZ__COUNT];
	struct sb_span at[SZ__COUNT];
};

/* The sizes among the words of cmd from index first on: --flag=N or
 * --flag N, the last one winning, as argparse does. */
static void read_sizes(const struct sbc *c, const sb_cmd *cmd, size_t first, struct sizes *s)
{
	memset(s, 0, sizeof *s);
	size_t n = sb_cmd_word_count(cmd);
	for (size_t i = first; i < n; i++) {
		const sb_word *w = sb_cmd_word(cmd, i);
		size_t len;
		const char *raw = sb_word_raw(w, &len);
		enum size_kind k;
		if (!raw || !size_of_flag(raw, len, &k))
			continue;
		const char *eq = memchr(raw, '=', len);
		const sb_word *vw = eq ? w : i + 1 < n ? sb_cmd_word(cmd, i + 1) : NULL;
		long long v = 0;
		bool ok;
		if (eq) {
			const char *val = sb_word_value(w);
			const char *e = val ? strchr(val, '=') : NULL;
			char *end = NULL;
			v = e ? strtoll(e + 1, &end, 10) : 0;
			ok = e && end && *end == '\0' && e[1];
		} else {
			ok = vw && sbc_word_int(c, vw, cmd, &v);
		}
		s->given[k] = true;
		s->v[k] = ok && v > 0 ? v : 0;
		s->at[k] = sb_word_span(vw ? vw : w);
	}
}

/* The index of word w among cmd's words, or SIZE_MAX. */
static size_t word_index(const sb_cmd *cmd, const sb_word *w)
{
	for (size_t i = 0; w && i < sb_cmd_word_count(cmd); i++)
		if (sb_cmd_word(cmd, i) == w)
			return i;
	return SIZE_MAX;
}

/* The world torchrun starts: --nnodes (one number) x --nproc-per-node. */
static long long torchrun_world(const struct sbc *c, const sb_cmd *cmd, const sb_part *torch,
				long long *nodes, long long *ppn)
{
	long long min, max;
	if (!sbc_nnodes(c, torch, cmd, &min, &max) || min != max || min < 1)
		return 0;
	if (!sbc_word_int(c, sb_flag(torch, "nproc-per-node"), cmd, ppn) || *ppn < 1)
		return 0;
	*nodes = min;
	return min * *ppn;
}

/* SB2615 layout-flags-world */
static void layout_flags_world(struct sbc *c, const sb_cmd *cmd)
{
	const sb_cmd *launch = cmd;
	const sb_part *torch = sb_cmd_find(cmd, SB_PROG_TORCHRUN);
	size_t first;
	if (torch) {
		struct sbc_layout known;
		const sb_part *entry = sb_cmd_find(cmd, SB_PROG_PYTHON);
		first = entry ? word_index(cmd, sb_part_entry(entry)) : SIZE_MAX;
		if (first == SIZE_MAX || sbc_read_layout(c, cmd, &known))
			return; /* no program; or the framework tables know it */
		first++;
	} else {
		const sb_part *l;
		if (!(launch = sbc_lost_program_of(c, cmd, &l)) || sb_part_kind(l) != SB_PROG_TORCHRUN)
			return;
		torch = l;
		first = 1;
	}
	long long nodes, ppn;
	long long world = torchrun_world(c, launch, torch, &nodes, &ppn);
	struct sizes s;
	read_sizes(c, cmd, first, &s);
	if (!world || (!s.v[SZ_TP] && !s.v[SZ_PP] && !s.v[SZ_DP]))
		return;
	for (int k = 0; k < SZ__COUNT; k++)
		if (s.given[k] && !s.v[k])
			return; /* a size it cannot read: nothing to hold */
	long long model = 1;
	char text[160] = "";
	for (int k = SZ_TP; k < SZ__COUNT; k++)
		if (s.given[k]) {
			model *= s.v[k];
			size_t len = strlen(text);
			snprintf(text + len, sizeof text - len, "%s%s %lld", len ? " x " : "", size_names[k], s.v[k]);
		}
	if (s.given[SZ_DP]) {
		long long all = model * s.v[SZ_DP];
		if (all == world)
			return;
		sbc_report(c, R_SB2615, s.at[SZ_DP],
			   "DP %lld%s%s = %lld ranks, but torchrun starts %lld nodes x %lld processes = %lld: the program's process groups do not cover the world it runs in",
			   s.v[SZ_DP], text[0] ? " x " : "", text, all, nodes, ppn, world);
		return;
	}
	if (world % model == 0)
		return;
	enum size_kind at = s.given[SZ_TP] ? SZ_TP : SZ_PP;
	sbc_report(c, R_SB2615, s.at[at],
		   "%s = %lld does not divide the world of %lld nodes x %lld processes = %lld, so no data-parallel size fits",
		   text, model, nodes, ppn, world);
}

void sbc_check_world(struct sbc *c)
{
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		if (!(sb_cmd_context(cmd) & SB_CTX_NESTED))
			layout_flags_world(c, cmd);
	}
}
