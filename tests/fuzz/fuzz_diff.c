/* The change review on two documents from one input, split at its first
 * NUL byte (old before it, new after; without one, the input against
 * itself): the change finder both ways, every judgement, the PC5 rules,
 * and the cost figures. Contracts: a change sits on a node of the new
 * document (the old one for where it was), its scope items belong to
 * their documents, a document compared with itself has no change but
 * those ParallelCluster would find too (list items sharing a Name: each
 * new one pairs with the first old one), and every finding has a
 * position. The release judged for is one of four the size picks (3.11,
 * 3.14, 3.15 where rows change, the newest). */
#include <stdbool.h>
#include <string.h>

#include "cluster_diff.h"
#include "cluster_update.h"
#include "diag.h"
#include "fuzz.h"
#include "pcluster.h"
#include "update_policy.h"

static void check_change(const yamldoc *od, const yamldoc *nd, const struct cdiff_change *ch)
{
	FUZZ_CHECK(ch->path && ch->key);
	FUZZ_CHECK(ch->at < yamldoc_node_count(nd) + 1);
	FUZZ_CHECK(ch->old_at < yamldoc_node_count(od) + 1);
	FUZZ_CHECK(ch->op != CDIFF_MODIFIED || (ch->old_value && ch->new_value));
	FUZZ_CHECK(!ch->item || ch->entry);
	for (size_t i = 0; i < ch->n_scope; i++) {
		FUZZ_CHECK(ch->scope[i].list != NULL);
		FUZZ_CHECK(ch->scope[i].old_item < yamldoc_node_count(od) + 1);
		FUZZ_CHECK(ch->scope[i].new_item < yamldoc_node_count(nd) + 1);
	}
}

/* A change of a document against itself that ParallelCluster would
 * find as well: items sharing their update key pair up crosswise. */
static bool explained(const struct cdiff_change *ch)
{
	bool crossed = ch->item;
	for (size_t i = 0; i < ch->n_scope; i++)
		crossed |= ch->scope[i].old_item != ch->scope[i].new_item;
	return crossed;
}

static const struct version releases[] = {
	VERSION_LINE(3, 11), VERSION_LINE(3, 14), VERSION_AT(3, 15, 0), { 0 },
};

static void changes(const yamldoc *od, const yamldoc *nd, bool self, struct version pc)
{
	struct cluster old = cluster_of(NULL, od), new = cluster_of(NULL, nd);
	struct cdiff d = { 0 };
	cluster_diff(&old, &new, update_policy_version(pc), &d);
	struct cupd_context ctx;
	cupd_context_init(&ctx, &old, &new, &d);
	for (size_t i = 0; i < d.len; i++) {
		check_change(od, nd, &d.v[i]);
		FUZZ_CHECK(!self || explained(&d.v[i]));
		struct cupd_verdict v = cluster_update_judge(&ctx, &d.v[i]);
		FUZZ_CHECK(v.outcome <= CUPD_TERMINATE);
	}
	cdiff_free(&d);
}


static void review(const char *text, size_t len, const yamldoc *od, const yamldoc *nd,
		   struct version pc)
{
	struct source *src = source_new("new.yaml", strndup(text, len), len);
	struct diag_list diags = { 0 };
	struct pc_base base = { od, "old.yaml" };
	struct target t = target_default();
	if (version_is_set(pc))
		t.pc = pc;
	struct pc_settings set = { &t, 0, NULL }; /* every idle cost a warning */
	pcluster_review(src, nd, &base, &set, &diags);
	pcluster_lint_with(src, nd, &set, &diags);
	for (size_t i = 0; i < diags.len; i++) {
		const struct diag *g = &diags.v[i];
		FUZZ_CHECK(g->msg != NULL && g->line >= 1 && g->col >= 1);
		FUZZ_CHECK((unsigned)g->rule < RULE__COUNT);
	}
	diag_list_free(&diags);
	source_free(src);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *nul = memchr(text, '\0', size);
	size_t old_len = nul ? (size_t)(nul - text) : size;
	const char *new_text = nul ? nul + 1 : text;
	size_t new_len = nul ? size - old_len - 1 : size;
	yamldoc *od = yamldoc_parse(text, old_len, NULL);
	yamldoc *nd = yamldoc_parse(new_text, new_len, NULL);
	if (!yamldoc_broken(od) && !yamldoc_broken(nd)) {
		struct version pc = releases[size % (sizeof releases / sizeof releases[0])];
		changes(od, nd, false, pc);
		changes(nd, od, false, pc);
		changes(nd, nd, true, pc);
		review(new_text, new_len, od, nd, pc);
	}
	yamldoc_free(od);
	yamldoc_free(nd);
	return 0;
}
