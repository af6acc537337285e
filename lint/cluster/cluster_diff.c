/* The walk behind cluster_diff: both trees at once, along the rows of
 * the update-policy table, as ParallelCluster walks the fields of its
 * schema (docs/updates.md, "How changes are found"). The recursion
 * follows table rows only, so its depth is the table's. */
#include "cluster_diff.h"

#include <stdlib.h>
#include <string.h>

#include "cluster_match.h"
#include "xalloc.h"

struct walk {
	const yamldoc *od, *nd;
	int version;
	struct cdiff *out;
	struct buf pattern;          /* the table path: SlurmQueues[].Name */
	struct buf path;             /* the shown path: SlurmQueues[train] */
	struct cdiff_scope scope[CDIFF_MAX_SCOPE];
	size_t n_scope;
};

/* Where findings go: a node of each file near the current key. */
struct anchor {
	yd_node n, o;
};

static void walk_section(struct walk *w, yd_node om, yd_node nm, struct anchor at);

static struct cdiff_change *add(struct walk *w, enum cdiff_op op, const struct up_entry *e,
				const char *key, yd_node ov, yd_node nv, yd_node at, yd_node old_at)
{
	struct cdiff *out = w->out;
	out->v = xgrow(out->v, &out->cap, out->len + 1, sizeof *out->v);
	struct cdiff_change *ch = &out->v[out->len++];
	*ch = (struct cdiff_change){
		.op = op, .entry = e, .path = xstrdup(w->path.p ? w->path.p : ""),
		.key = xstrdup(key), .old_value = ov, .new_value = nv, .at = at, .old_at = old_at,
		.n_scope = w->n_scope,
	};
	memcpy(ch->scope, w->scope, w->n_scope * sizeof *w->scope);
	return ch;
}

static void compare_value(struct walk *w, const struct up_entry *e, const char *key,
			  yd_node ov, yd_node nv, struct anchor at, struct anchor keys)
{
	if (cluster_value_eq(w->od, ov, w->nd, nv))
		return;
	bool gone = cluster_value_absent(w->nd, nv), fresh = cluster_value_absent(w->od, ov);
	enum cdiff_op op = fresh ? CDIFF_ADDED : gone ? CDIFF_REMOVED : CDIFF_MODIFIED;
	add(w, op, e, key, ov, nv, op == CDIFF_MODIFIED ? nv : gone ? at.n : keys.n,
	    fresh ? at.o : ov);
}

/* Into a section (or list item) under key; shown as key or key[name]. */
static void descend(struct walk *w, const char *shown, size_t len, yd_node om, yd_node nm,
		    struct anchor at)
{
	size_t mark = w->path.len;
	if (mark)
		buf_putc(&w->path, '.');
	buf_put(&w->path, shown, len);
	walk_section(w, om, nm, at);
	w->path.len = mark;
	w->path.p[mark] = '\0';
}

static void compare_section(struct walk *w, const struct up_entry *e, const char *key,
			    yd_node ov, yd_node nv, struct anchor at, struct anchor keys)
{
	bool to = cluster_value_truthy(w->od, ov), tn = cluster_value_truthy(w->nd, nv);
	bool maps = (!to || yd_kind(w->od, ov) == YD_MAPPING) &&
		    (!tn || yd_kind(w->nd, nv) == YD_MAPPING);
	struct anchor inner = { keys.n ? keys.n : at.n, keys.o ? keys.o : at.o };
	if (!maps) /* not what the schema allows: compared as values */
		compare_value(w, e, key, ov, nv, at, keys);
	else if (to && tn)
		descend(w, key, strlen(key), ov, nv, inner);
	else if ((to || tn) && e->policy == UP_IGNORED) /* the keys inside decide */
		descend(w, key, strlen(key), to ? ov : 0, tn ? nv : 0, inner);
	else if (to || tn)
		add(w, tn ? CDIFF_ADDED : CDIFF_REMOVED, e, key, ov, nv, tn ? keys.n : at.n,
		    to ? ov : at.o);
}

/* An item's name in the shown path, as ParallelCluster prints it. */
static void item_name(const yamldoc *d, yd_node key, struct buf *out)
{
	if (cluster_value_absent(d, key))
		buf_puts(out, "None");
	else
		cluster_value_text(d, key, out);
}

static void compare_item(struct walk *w, const struct up_entry *e, const char *key,
			 yd_node oi, yd_node ni, struct anchor list)
{
	yd_node ok = yd_get(w->od, oi, e->update_key), nk = yd_get(w->nd, ni, e->update_key);
	struct anchor at = { nk ? nk : ni, ok ? ok : oi };
	bool pushed = w->n_scope < CDIFF_MAX_SCOPE;
	if (pushed)
		w->scope[w->n_scope++] = (struct cdiff_scope){ key, oi, ni };
	if (yd_kind(w->od, oi) != YD_MAPPING || yd_kind(w->nd, ni) != YD_MAPPING) {
		/* not what the schema allows: the items compared as values */
		compare_value(w, e, key, oi, ni, list, at);
	} else {
		struct buf shown = BUF_INIT;
		buf_printf(&shown, "%s[", key);
		item_name(w->nd, nk, &shown);
		buf_putc(&shown, ']');
		size_t mark = w->pattern.len;
		buf_puts(&w->pattern, "[]");
		descend(w, shown.p, shown.len, oi, ni, at);
		w->pattern.len = mark;
		w->pattern.p[mark] = '\0';
		buf_free(&shown);
	}
	w->n_scope -= pushed;
}

/* A whole item added or removed: its scope is the list's. */
static void item_change(struct walk *w, enum cdiff_op op, const struct up_entry *e,
			const char *key, yd_node oi, yd_node ni, struct anchor list)
{
	const yamldoc *d = op == CDIFF_ADDED ? w->nd : w->od;
	yd_node item = op == CDIFF_ADDED ? ni : oi;
	yd_node name = yd_get(d, item, e->update_key);
	struct cdiff_change *ch = add(w, op, e, key, oi, ni, op == CDIFF_ADDED ? (name ? name : ni) : list.n,
				      op == CDIFF_ADDED ? list.o : (name ? name : oi));
	ch->item = true;
}

static void compare_list(struct walk *w, const struct up_entry *e, const char *key,
			 yd_node ov, yd_node nv, struct anchor at, struct anchor keys)
{
	bool so = cluster_value_absent(w->od, ov) || yd_kind(w->od, ov) == YD_SEQUENCE;
	bool sn = cluster_value_absent(w->nd, nv) || yd_kind(w->nd, nv) == YD_SEQUENCE;
	if (!so || !sn) { /* not lists: compared as values */
		compare_value(w, e, key, ov, nv, at, keys);
		return;
	}
	struct anchor list = { keys.n ? keys.n : at.n, keys.o ? keys.o : at.o };
	size_t n_old = cluster_value_absent(w->od, ov) ? 0 : yd_len(w->od, ov);
	size_t n_new = cluster_value_absent(w->nd, nv) ? 0 : yd_len(w->nd, nv);
	struct cluster_match m;
	cluster_match_init(&m, w->od, ov, n_old, e->update_key);
	bool *seen = xcalloc(n_old ? n_old : 1, sizeof *seen);
	for (size_t i = 0; i < n_new; i++) {
		yd_node ni = yd_item(w->nd, nv, i);
		size_t j = cluster_match_find(&m, w->nd, yd_get(w->nd, ni, e->update_key));
		if (j < n_old) {
			seen[j] = true;
			compare_item(w, e, key, yd_item(w->od, ov, j), ni, list);
		} else {
			item_change(w, CDIFF_ADDED, e, key, 0, ni, list);
		}
	}
	for (size_t j = 0; j < n_old; j++)
		if (!seen[j])
			item_change(w, CDIFF_REMOVED, e, key, yd_item(w->od, ov, j), 0, list);
	free(seen);
	cluster_match_free(&m);
}

static void walk_key(struct walk *w, const char *key, yd_node om, yd_node nm, struct anchor at)
{
	size_t mark = w->pattern.len;
	if (mark)
		buf_putc(&w->pattern, '.');
	buf_puts(&w->pattern, key);
	const struct up_entry *e = update_policy_find(w->pattern.p, w->pattern.len, w->version);
	yd_node ov = yd_get(w->od, om, key), nv = yd_get(w->nd, nm, key);
	struct anchor keys = { yd_get_key(w->nd, nm, key), yd_get_key(w->od, om, key) };
	if (e && e->kind == UP_SECTION)
		compare_section(w, e, key, ov, nv, at, keys);
	else if (e && e->kind == UP_LIST)
		compare_list(w, e, key, ov, nv, at, keys);
	else
		compare_value(w, e, key, ov, nv, at, keys);
	w->pattern.len = mark;
	w->pattern.p[mark] = '\0';
}

/* The keys of the new mapping in its order, then those only the old has. */
static void walk_section(struct walk *w, yd_node om, yd_node nm, struct anchor at)
{
	bool old_map = yd_kind(w->od, om) == YD_MAPPING, new_map = yd_kind(w->nd, nm) == YD_MAPPING;
	for (size_t i = 0; new_map && i < yd_len(w->nd, nm); i++) {
		const char *key = yd_str(w->nd, yd_key(w->nd, nm, i), NULL);
		if (key && yd_get_key(w->nd, nm, key) == yd_key(w->nd, nm, i)) /* a duplicate: once */
			walk_key(w, key, om, nm, at);
	}
	for (size_t i = 0; old_map && i < yd_len(w->od, om); i++) {
		const char *key = yd_str(w->od, yd_key(w->od, om, i), NULL);
		if (key && !yd_get_key(w->nd, nm, key) && yd_get_key(w->od, om, key) == yd_key(w->od, om, i))
			walk_key(w, key, om, nm, at);
	}
}

void cluster_diff(const struct cluster *old, const struct cluster *new, int version,
		  struct cdiff *out)
{
	struct walk w = { .od = old->doc, .nd = new->doc, .version = version, .out = out };
	walk_section(&w, old->root, new->root, (struct anchor){ new->root, old->root });
	buf_free(&w.pattern);
	buf_free(&w.path);
}

void cdiff_free(struct cdiff *d)
{
	for (size_t i = 0; i < d->len; i++) {
		free(d->v[i].path);
		free(d->v[i].key);
	}
	free(d->v);
	*d = (struct cdiff){ 0 };
}

yd_node cdiff_scope_item(const struct cdiff_change *ch, const char *list, int which)
{
	for (size_t i = ch->n_scope; i-- > 0;)
		if (!strcmp(ch->scope[i].list, list))
			return which ? ch->scope[i].new_item : ch->scope[i].old_item;
	return 0;
}
