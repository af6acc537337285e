/* SB2606-SB2610: values that break the fabric or the environment the
 * job runs in: a libfabric provider that does not exist, a library
 * path that drops the old one, an export that exports nothing, an NCCL
 * algorithm list that takes away what NVLS was turned on for, and a
 * trap that waits for a signal nobody sends. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sb.h"

/* libfabric's providers and utility providers, as FI_PROVIDER names
 * them (fi_provider(7) of libfabric 1.22, "CORE PROVIDERS" and "UTILITY
 * PROVIDERS"; `fi_info -l` lists those a build has). */
static const char *const fi_providers[] = {
	"efa", "tcp", "udp", "verbs", "shm", "sm2", "sockets", "psm2", "psm3", "opx", "cxi",
	"usnic", "ucx", "lpp", "lnx", "net", "rxm", "rxd", "mrail", "ofi_rxm", "ofi_rxd",
	"ofi_mrail", "gni", "bgq", "netdir", "rstream", "mlx", "perf", "trace", "profile",
	"hook_debug", "hook_hmem", "dmabuf_peer_mem", "ofi_hook_noop",
};

static bool fi_provider_known(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof fi_providers / sizeof fi_providers[0]; i++)
		if (strlen(fi_providers[i]) == n && !strncasecmp(s, fi_providers[i], n))
			return true;
	return false;
}

/* SB2606 fi-provider-unknown: FI_PROVIDER is a list (a,b), each item
 * a provider or a layering (tcp;ofi_rxm), the whole list negated by a
 * leading ^. */
static void fi_provider_unknown(struct sbc *c)
{
	for (size_t i = 0; i < sb_assign_count(c->m); i++) {
		const struct sb_assign *a = sb_assign_at(c->m, i);
		const char *v = strcmp(a->name, "FI_PROVIDER") ? NULL : sbc_assign_value(a);
		if (!v || !*v)
			continue;
		const char *p = v + (v[0] == '^');
		while (*p) {
			size_t n = strcspn(p, ",; \t\r");
			if (n && !fi_provider_known(p, n)) {
				struct diag *g = sbc_report(c, R_SB2606, a->span,
					"FI_PROVIDER=%s: libfabric has no provider %.*s, so it finds no fabric and the collectives fail or fall back to sockets",
					v, (int)n, p);
				diag_set_help(g, "on EFA the provider is efa; fi_info -l lists the providers a node has");
				break;
			}
			p += n + (p[n] != '\0');
			p += strspn(p, " \t\r");
		}
	}
}

static bool word_reads(const sb_word *w, const char *name)
{
	for (size_t r = 0; w && r < sb_word_ref_count(w); r++)
		if (!strcmp(sb_word_ref(w, r), name))
			return true;
	return false;
}

/* SB2607 library-path-replaced: the old value holds what the login
 * environment, the AMI and module load put there (/opt/amazon/efa/lib,
 * the aws-ofi-nccl plugin, CUDA); without it NCCL does not find its
 * network plugin and runs over sockets, or a library is not found. */
static void library_path_replaced(struct sbc *c)
{
	for (size_t i = 0; i < sb_assign_count(c->m); i++) {
		const struct sb_assign *a = sb_assign_at(c->m, i);
		if (strcmp(a->name, "LD_LIBRARY_PATH") || !a->value || a->append ||
		    a->kind == SB_ASSIGN_DEFAULT || word_reads(a->value, "LD_LIBRARY_PATH"))
			continue;
		if (sb_cmd_context(a->cmd) & (SB_CTX_NESTED | SB_CTX_CMDSUB))
			continue;
		struct diag *g = sbc_report(c, R_SB2607, a->span,
			"LD_LIBRARY_PATH is replaced, not extended: the libraries the environment had (EFA's, the NCCL network plugin's, CUDA's) are no longer found, and NCCL falls back to sockets or the program fails to load");
		diag_set_help(g, "append the old value: LD_LIBRARY_PATH=/new/lib:$LD_LIBRARY_PATH");
	}
}

/* SB2608 export-alone: `export` with no name prints the environment.
 * Alone on its line before assignments, it is a lost continuation
 * (export \ NAME=... lost its backslash): the names are set in the
 * batch shell only, and no process it starts sees them. */
static void export_alone(struct sbc *c)
{
	for (size_t i = 0; i + 1 < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		const char *w0 = sb_cmd_word_count(cmd) == 1 ? sb_word_value(sb_cmd_word(cmd, 0)) : NULL;
		if (!w0 || strcmp(w0, "export") || sb_cmd_assign_count(cmd) ||
		    (sb_cmd_context(cmd) & (SB_CTX_PIPELINE | SB_CTX_CMDSUB | SB_CTX_NESTED)))
			continue;
		uint32_t line = sb_cmd_span(cmd).end_line;
		const struct sb_assign *first = NULL, *last = NULL;
		size_t count = 0;
		for (size_t k = i + 1; k < sb_cmd_count(c->m); k++) {
			const sb_cmd *next = sb_cmd_at(c->m, k);
			if (sb_cmd_span(next).line != line + 1 || sb_cmd_word_count(next) ||
			    sb_cmd_assign_count(next) != 1 ||
			    sb_cmd_assign(next, 0)->kind != SB_ASSIGN_PLAIN)
				break;
			last = sb_cmd_assign(next, 0);
			first = first ? first : last;
			count++;
			line = sb_cmd_span(next).end_line;
		}
		if (!first)
			continue;
		struct sb_span at = sb_word_span(sb_cmd_word(cmd, 0));
		at.end_line = last->span.end_line;
		at.end_col = last->span.end_col;
		at.end = last->span.end;
		struct diag *g = sbc_report(c, R_SB2608, at,
			"export alone prints the environment and exports nothing: %s%s on the line%s after it %s set in the batch shell only, and no program it starts sees %s",
			first->name, count > 1 ? " and the rest" : "", count > 1 ? "s" : "",
			count > 1 ? "are" : "is", count > 1 ? "them" : "it");
		diag_set_help(g, "write export before each name (export %s=...), or end the export line with ' \\'", first->name);
	}
}

/* Whether an NCCL_ALGO value lets NCCL use NVLS: a list of algorithms
 * (Ring,Tree,NVLS...), ^ excluding the ones after it, or since NCCL
 * 2.24 per-collective lists (allreduce:ring,nvls;...), read as a whole. */
static bool algo_allows_nvls(const char *v)
{
	bool negated = v[0] == '^';
	bool names = false;
	for (const char *p = v; (p = strcasestr(p, "nvls")); p += 4)
		names = true;
	return negated ? !names : names;
}

/* SB2609 nccl-algo-excludes-nvls */
static void nccl_algo_excludes_nvls(struct sbc *c)
{
	const struct sb_assign *algo, *on;
	const char *a = sbc_env_value(c, "NCCL_ALGO", &algo);
	const char *e = sbc_env_value(c, "NCCL_NVLS_ENABLE", &on);
	if (!a || !*a || !e || atoi(e) < 1 || algo_allows_nvls(a))
		return;
	struct diag *g = sbc_report(c, R_SB2609, algo->span,
		"NCCL_ALGO=%s leaves NVLS out, while NCCL_NVLS_ENABLE=%s (line %u) turns it on: NCCL reserves NVLink SHARP buffers it never uses, and the collectives that were to run over NVLS run over the listed algorithms",
		a, e, on->span.line);
	diag_set_help(g, "drop NCCL_ALGO (NCCL picks NVLS where it is fastest), or list NVLS in it");
}

/* A signal's name as trap and --signal write it, without SIG: "USR1";
 * a number as its name on Linux. */
static void signal_name(const char *s, char *out, size_t cap)
{
	static const struct { int n; const char *name; } numbers[] = {
		{ 1, "HUP" }, { 2, "INT" }, { 3, "QUIT" }, { 10, "USR1" }, { 12, "USR2" },
		{ 14, "ALRM" }, { 15, "TERM" }, { 18, "CONT" }, { 23, "URG" },
	};
	if (!strncasecmp(s, "SIG", 3))
		s += 3;
	if (isdigit((unsigned char)*s)) {
		int n = atoi(s);
		for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++)
			if (numbers[i].n == n) {
				snprintf(out, cap, "%s", numbers[i].name);
				return;
			}
	}
	size_t k = 0;
	for (; s[k] && k + 1 < cap; k++)
		out[k] = (char)toupper((unsigned char)s[k]);
	out[k] = '\0';
}

/* The signals only a sender chosen by the job delivers: Slurm's
 * --signal, or scancel --signal. TERM, INT, HUP and the shell's own
 * EXIT, ERR, DEBUG and RETURN come anyway. */
static bool needs_sender(const char *sig)
{
	static const char *const sent[] = { "USR1", "USR2", "ALRM", "URG", "CONT", "XCPU", "PWR" };
	for (size_t i = 0; i < sizeof sent / sizeof sent[0]; i++)
		if (!strcmp(sig, sent[i]))
			return true;
	return false;
}

/* SB2610 trap-signal-not-sent: --signal=[R:|B:]SIG[@TIME] sends SIG to
 * the job's steps, and with B: to the batch shell alone (sbatch(1)). A
 * trap in the batch script hears it only with B:; a script srun starts
 * on each node is a step, and hears it without. */
static void trap_signal_not_sent(struct sbc *c)
{
	const struct sb_directive *d = sb_directive_find(c->alloc, "signal");
	char want[16] = "";
	bool batch_only = false;
	if (d && d->value) {
		const char *v = d->value;
		const char *colon = strchr(v, ':');
		if (colon && colon - v <= 2) {
			batch_only = memchr(v, 'B', (size_t)(colon - v)) != NULL;
			v = colon + 1;
		}
		char sig[16];
		snprintf(sig, sizeof sig, "%.*s", (int)strcspn(v, "@"), v);
		signal_name(sig, want, sizeof want);
	}
	bool reaches = c->per_node ? !batch_only : batch_only;
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		size_t n = sb_cmd_word_count(cmd);
		const char *w0 = n > 2 ? sb_word_value(sb_cmd_word(cmd, 0)) : NULL;
		if (!w0 || strcmp(w0, "trap") || (sb_cmd_context(cmd) & SB_CTX_NESTED))
			continue;
		for (size_t k = 2; k < n; k++) {
			const char *s = sb_word_value(sb_cmd_word(cmd, k));
			char sig[16];
			if (!s)
				continue;
			signal_name(s, sig, sizeof sig);
			if (!needs_sender(sig) || (!strcmp(sig, want) && reaches))
				continue;
			struct diag *g;
			if (!strcmp(sig, want))
				g = sbc_report(c, R_SB2610, sb_word_span(sb_cmd_word(cmd, k)),
					"trap on %s, but --signal=%s (line %u) sends it to the job's %s, not to %s: the handler never runs before the time limit",
					s, d->value, d->line, batch_only ? "batch shell" : "steps",
					c->per_node ? "the tasks srun starts" : "the batch shell");
			else
				g = sbc_report(c, R_SB2610, sb_word_span(sb_cmd_word(cmd, k)),
					"trap on %s, but no #SBATCH --signal sends %s%s: unless sbatch's command line or an scancel --signal does, the handler never runs before the time limit",
					s, sig, d ? " (it sends another)" : "");
			diag_set_help(g, c->per_node ? "#SBATCH --signal=%s@120 sends it to the steps"
						     : "#SBATCH --signal=B:%s@120 sends it to the batch shell two minutes before the end",
				      sig);
		}
	}
}

void sbc_check_fabric(struct sbc *c)
{
	fi_provider_unknown(c);
	library_path_replaced(c);
	export_alone(c);
	nccl_algo_excludes_nvls(c);
	trap_signal_not_sent(c);
}
