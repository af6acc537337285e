/* Batch-script checks: builds the model, learns what it can of the target
 * machine, and runs each rule family. */
#include "sb.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "text.h"
#include "values.h"
#include "xalloc.h"

/* An array spliced into two commands shows the same words twice; one
 * finding per place is enough. */
static struct diag *already(const struct sbc *c, enum rule_id rule, struct sb_span span)
{
	for (size_t i = c->first_diag; i < c->diags->len; i++) {
		struct diag *d = &c->diags->v[i];
		if (d->src == c->src && d->rule == rule && d->line == span.line && d->col == span.col)
			return d;
	}
	return NULL;
}

struct diag *sbc_report(const struct sbc *c, enum rule_id rule, struct sb_span span,
			const char *fmt, ...)
{
	struct diag *d = already(c, rule, span);
	if (d)
		return d;
	struct buf msg = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	d = diag_add(c->diags, c->src, rule, span.line, span.col,
		     span.end_line, span.end_col, "%s", msg.p);
	buf_free(&msg);
	return d;
}

const char *sbc_env_value(const struct sbc *c, const char *name, const struct sb_assign **where)
{
	struct sb_resolved r;
	if (sb_resolve(c->m, name, NULL, &r) != SB_RES_VALUE)
		return NULL;
	if (where)
		*where = r.assign;
	return r.value;
}

/* The accelerator the script runs on: the paired cluster's instance,
 * else the compiler's --target in NEURON_CC_FLAGS. */
bool sbc_neuron_accel(const struct sbc *c, enum accel_kind *accel, char *where, size_t cap)
{
	static const struct { const char *target; enum accel_kind accel; } targets[] = {
		{ "trn1", ACCEL_TRAINIUM }, { "trn2", ACCEL_TRAINIUM2 }, { "trn3", ACCEL_TRAINIUM3 },
		{ "inf2", ACCEL_INFERENTIA2 },
	};
	if (c->it) {
		*accel = c->it->accel;
		snprintf(where, cap, "%s", c->it->name);
		return true;
	}
	const char *flags = sbc_assign_value(sbc_assignment(c, "NEURON_CC_FLAGS"));
	const char *t = flags ? strstr(flags, "--target") : NULL;
	if (!t)
		return false;
	t += 8;
	t += strspn(t, "= ");
	for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
		if (!strncmp(t, targets[i].target, 4) && (t[4] == '\0' || t[4] == ' ' || t[4] == '"')) {
			*accel = targets[i].accel;
			snprintf(where, cap, "--target=%s in NEURON_CC_FLAGS", targets[i].target);
			return true;
		}
	return false;
}

const char *sbc_cluster_os(const struct sbc *c)
{
	if (!c->cluster)
		return NULL;
	const yamldoc *d = c->cluster->doc;
	return yd_str(d, yd_get(d, yd_get(d, yd_root(d), "Image"), "Os"), NULL);
}

const struct sb_assign *sbc_assignment(const struct sbc *c, const char *name)
{
	const struct sb_assign *last = NULL;
	for (size_t i = 0; i < sb_assign_count(c->m); i++) {
		const struct sb_assign *a = sb_assign_at(c->m, i);
		if (!strcmp(a->name, name) && a->kind != SB_ASSIGN_UNSET && a->kind != SB_ASSIGN_MARK)
			last = a;
	}
	return last;
}

const char *sbc_assign_value(const struct sb_assign *a)
{
	return a && a->value ? sb_word_value(a->value) : NULL;
}

/* A set of names (the model's strings), open addressing. */
struct sbc_names {
	const char **slot;
	size_t cap, len;
};

static bool names_has(const struct sbc_names *s, const char *name)
{
	size_t mask = s->cap - 1;
	for (size_t i = text_hash(name, strlen(name), 0) & mask; s->slot[i]; i = (i + 1) & mask)
		if (!strcmp(s->slot[i], name))
			return true;
	return false;
}

static bool names_add(struct sbc_names *s, const char *name)
{
	if (names_has(s, name))
		return false;
	if (2 * (s->len + 1) > s->cap) {
		struct sbc_names grown = { xcalloc(s->cap * 2, sizeof *grown.slot), s->cap * 2, 0 };
		for (size_t i = 0; i < s->cap; i++)
			if (s->slot[i])
				names_add(&grown, s->slot[i]);
		free(s->slot);
		*s = grown;
	}
	size_t mask = s->cap - 1, i = text_hash(name, strlen(name), 0) & mask;
	while (s->slot[i])
		i = (i + 1) & mask;
	s->slot[i] = name;
	s->len++;
	return true;
}

static bool starts_work(const sb_cmd *cmd)
{
	static const enum sb_prog kinds[] = {
		SB_PROG_SRUN, SB_PROG_MPIRUN, SB_PROG_TORCHRUN, SB_PROG_LAUNCHER, SB_PROG_PYTHON,
		SB_PROG_REMOTE,
	};
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (sb_cmd_find(cmd, kinds[i]))
			return true;
	return false;
}

static void add_refs(struct sbc_names *s, const sb_word *w)
{
	for (size_t r = 0; w && r < sb_word_ref_count(w); r++)
		names_add(s, sb_word_ref(w, r));
}

static struct sbc_names *names_new(void)
{
	struct sbc_names *s = xcalloc(1, sizeof *s);
	s->cap = 64;
	s->slot = xcalloc(s->cap, sizeof *s->slot);
	return s;
}

static void names_free(struct sbc_names *s)
{
	if (s)
		free(s->slot);
	free(s);
}

bool sbc_assigned(struct sbc *c, const char *name)
{
	if (!c->assigned) {
		c->assigned = names_new();
		for (size_t i = 0; i < sb_assign_count(c->m); i++)
			names_add(c->assigned, sb_assign_at(c->m, i)->name);
	}
	return names_has(c->assigned, name);
}

bool sbc_launchers_read(struct sbc *c, const char *name)
{
	if (!c->launch_names) {
		struct sbc_names *s = names_new();
		for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
			const sb_cmd *cmd = sb_cmd_at(c->m, i);
			for (size_t w = 0; starts_work(cmd) && w < sb_cmd_word_count(cmd); w++)
				add_refs(s, sb_cmd_word(cmd, w));
		}
		/* and what those are assigned from, three links deep */
		for (unsigned hop = 0; hop < 3; hop++) {
			size_t before = s->len;
			for (size_t i = 0; i < sb_assign_count(c->m); i++) {
				const struct sb_assign *a = sb_assign_at(c->m, i);
				if (!names_has(s, a->name))
					continue;
				add_refs(s, a->value);
				for (size_t e = 0; e < a->n_elems; e++)
					add_refs(s, a->elems[e]);
			}
			if (s->len == before)
				break;
		}
		c->launch_names = s;
	}
	return names_has(c->launch_names, name);
}

bool sbc_multi_node(const struct sbc *c)
{
	return c->nodes > 1;
}

/* --nodes=4 or 2-4 in each component; a heterogeneous job's node count
 * is the sum of its components'. A script started on every node by
 * another takes the caller's allocation. */
static void read_allocation(struct sbc *c, const sb_model *from)
{
	c->alloc = from;
	c->ncomp = sb_component_count(from);
	c->comp = xcalloc(c->ncomp, sizeof *c->comp);
	long long min = 0, max = 0;
	bool known = true;
	for (unsigned k = 0; k < c->ncomp; k++) {
		struct sbc_component *comp = &c->comp[k];
		comp->partition = sb_directive_find_in(from, k, "partition");
		comp->nodes = sb_directive_find_in(from, k, "nodes");
		uint64_t lo, hi;
		if (comp->nodes && comp->nodes->value &&
		    sbv_node_range(comp->nodes->value, &lo, &hi) && hi <= INT32_MAX) {
			comp->min_nodes = (long long)lo;
			comp->max_nodes = (long long)hi;
			min += comp->min_nodes;
			max += comp->max_nodes;
		} else {
			known = false;
		}
	}
	if (known) {
		c->nodes = min;
		c->nodes_max = max;
	}
	c->batch_nodes = c->comp[0].min_nodes;
	const struct sb_directive *d = sb_directive_find(from, "ntasks-per-node");
	if (d && d->value)
		c->tasks_per_node = strtoll(d->value, NULL, 10);
}

/* Without a cluster, the family shows in the variables the script sets. */
static enum sb_family family_from_script(const sb_model *m)
{
	for (size_t i = 0; i < sb_assign_count(m); i++) {
		const char *n = sb_assign_at(m, i)->name;
		if (!strncmp(n, "NEURON_", 7))
			return FAMILY_NEURON;
		if (!strncmp(n, "NCCL_", 5) || !strncmp(n, "CUDA_", 5))
			return FAMILY_GPU;
	}
	return FAMILY_UNKNOWN;
}

/* The queue a component lands in: its --partition, else the first queue
 * (Slurm's default partition on ParallelCluster); 0 when the partition
 * is not a queue. */
static yd_node component_queue(const struct cluster *cl, const struct sbc_component *comp)
{
	const struct sb_directive *part = comp->partition;
	yd_node queues = cluster_queues(cl);
	for (size_t i = 0; i < yd_len(cl->doc, queues); i++) {
		yd_node q = yd_item(cl->doc, queues, i);
		if (!part || !part->value ? i == 0
					  : yd_str_eq(cl->doc, yd_get(cl->doc, q, "Name"), part->value))
			return q;
	}
	return 0;
}

/* The one instance type of a queue's compute resources: false when they
 * have several, or one the catalog does not know. */
static bool queue_type(const struct cluster *cl, yd_node queue, const struct instance_type **only)
{
	yd_node crs = cluster_compute_resources(cl, queue);
	for (size_t i = 0; i < yd_len(cl->doc, crs); i++) {
		yd_node types[16];
		size_t n = cluster_instance_types(cl, yd_item(cl->doc, crs, i), types, 16);
		for (size_t k = 0; k < n; k++) {
			const struct instance_type *it = cluster_instance(cl, types[k]);
			if (!it || (*only && *only != it))
				return false;
			*only = it;
		}
	}
	return true;
}

/* Each component's queue; the machine is known when every component's
 * queue has the same single instance type. */
static void read_cluster(struct sbc *c)
{
	if (!c->cluster)
		return;
	const struct instance_type *only = NULL;
	bool one_type = true;
	for (unsigned k = 0; k < c->ncomp; k++) {
		c->comp[k].queue = component_queue(c->cluster, &c->comp[k]);
		one_type = one_type && queue_type(c->cluster, c->comp[k].queue, &only);
	}
	c->queue = c->comp[0].queue;
	c->it = one_type ? only : NULL;
}

bool sbatch_runs_launcher(const sb_model *m)
{
	for (size_t i = 0; i < sb_cmd_count(m); i++) {
		const sb_cmd *cmd = sb_cmd_at(m, i);
		if (sb_cmd_find(cmd, SB_PROG_TORCHRUN) || sb_cmd_find(cmd, SB_PROG_MPIRUN))
			return true;
		const sb_part *l = sb_cmd_find(cmd, SB_PROG_LAUNCHER);
		const char *name = l ? sb_part_name(l) : "";
		if (!strcmp(name, "accelerate") || !strcmp(name, "accelerate-launch") ||
		    !strcmp(name, "deepspeed") || (l && sb_part_entry(l) && !strcmp(name, "python") ))
			return true;
	}
	return false;
}

void sbatch_lint(struct source *script, const sb_model *m, const struct cluster *cluster,
		 const sb_model *caller, struct diag_list *diags)
{
	struct target t = target_default();
	sbatch_lint_at(script, m, cluster, caller, &t, diags);
}

void sbatch_lint_at(struct source *script, const sb_model *m, const struct cluster *cluster,
		    const sb_model *caller, const struct target *target, struct diag_list *diags)
{
	sbatch_lint_with(script, m, cluster, caller, target, NULL, diags);
}

void sbatch_lint_with(struct source *script, const sb_model *m, const struct cluster *cluster,
		      const sb_model *caller, const struct target *target,
		      const struct sb_programs *programs, struct diag_list *diags)
{
	sbatch_lint_in(script, m, cluster, caller, target, programs, NULL, diags);
}

void sbatch_lint_in(struct source *script, const sb_model *m, const struct cluster *cluster,
		    const sb_model *caller, const struct target *target,
		    const struct sb_programs *programs, const struct sb_world *world,
		    struct diag_list *diags)
{
	struct sbc c = { .src = script, .m = m, .diags = diags, .first_diag = diags->len,
			 .cluster = cluster, .family = FAMILY_UNKNOWN, .per_node = caller != NULL,
			 .target = target, .programs = programs, .world = world };
	read_allocation(&c, caller ? caller : m);
	read_cluster(&c);
	if (c.it)
		c.family = catalog_is_neuron(c.it) ? FAMILY_NEURON
			 : c.it->accel == ACCEL_NVIDIA_GPU ? FAMILY_GPU : FAMILY_UNKNOWN;
	else
		c.family = family_from_script(m);
	sbc_check_text(&c);
	sbc_check_hygiene(&c);
	sbc_check_options(&c);
	/* A syntax error leaves one statement out of the model, and that
	 * statement in as a command of no words whose assignments are
	 * unknown; the checks that prove an absence (no srun anywhere, a
	 * variable set nowhere) ask sb_complete themselves
	 * (docs/design.md, "Syntax errors cost one statement"). What
	 * reaches the workers (an export the broken statement may hold)
	 * and the program's flags are read on a whole script only. */
	sbc_check_launch(&c);
	sbc_check_order(&c);
	sbc_check_env(&c);
	sbc_check_neuron(&c);
	sbc_check_parallel(&c);
	sbc_check_elastic(&c);
	sbc_check_sizes(&c);
	sbc_check_rendezvous(&c);
	sbc_check_direct(&c);
	sbc_check_fabric(&c);
	sbc_check_neuron_cores(&c);
	sbc_check_world(&c);
	sbc_check_continuation(&c);
	sbc_check_survival(&c);
	if (sb_complete(m)) {
		/* what reaches the workers, and the program's own flags */
		sbc_check_reach(&c);
		sbc_check_program(&c);
		sbc_check_framework(&c);
	}
	sbc_check_cluster(&c);
	sbc_check_paired(&c);
	free(c.comp);
	names_free(c.launch_names);
	names_free(c.assigned);
}

void sbatch_lint_directives(struct source *script, const sb_model *m, const struct cluster *cluster,
			    const struct target *target, struct diag_list *diags)
{
	struct sbc c = { .src = script, .m = m, .diags = diags, .first_diag = diags->len,
			 .cluster = cluster, .family = FAMILY_UNKNOWN, .target = target };
	read_allocation(&c, m);
	read_cluster(&c);
	sbc_check_text(&c);
	sbc_check_options(&c);
	sbc_check_cluster(&c);
	free(c.comp);
}

yd_node sbatch_job_queue(const sb_model *m, const struct cluster *cl, bool *exclusive)
{
	struct sbc_component comp = { .partition = sb_directive_find_in(m, 0, "partition") };
	*exclusive = sb_directive_find(m, "exclusive") != NULL;
	return cl ? component_queue(cl, &comp) : 0;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

bool sbatch_calls_by_basename(const sb_model *caller, const char *path, const char **entry,
			      struct sb_span *at)
{
	for (size_t i = 0; i < sb_cmd_count(caller); i++) {
		const sb_cmd *cmd = sb_cmd_at(caller, i);
		const sb_part *run = sb_cmd_find(cmd, SB_PROG_SCRIPT);
		const char *e = run && sb_cmd_find(cmd, SB_PROG_SRUN)
			? sb_word_value(sb_part_entry(run)) : NULL;
		if (e && e[0] == '/' && !strcmp(base_name(e), base_name(path))) {
			*entry = e;
			*at = sb_word_span(sb_part_entry(run));
			return true;
		}
	}
	return false;
}

bool sbatch_calls_with_srun(const sb_model *caller, const char *caller_path, const char *path)
{
	char *dir = xstrdup(caller_path);
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[1] = '\0';
	else
		dir[0] = '\0';
	bool found = false;
	for (size_t i = 0; i < sb_cmd_count(caller) && !found; i++) {
		const sb_cmd *cmd = sb_cmd_at(caller, i);
		const sb_part *run = sb_cmd_find(cmd, SB_PROG_SCRIPT);
		const char *entry = run && sb_cmd_find(cmd, SB_PROG_SRUN)
			? sb_word_value(sb_part_entry(run)) : NULL;
		if (!entry)
			continue;
		struct buf want = BUF_INIT;
		if (entry[0] == '/')
			buf_puts(&want, entry);
		else
			buf_printf(&want, "%s%s", dir, strncmp(entry, "./", 2) ? entry : entry + 2);
		const char *p = strncmp(path, "./", 2) ? path : path + 2;
		found = !strcmp(want.p, p);
		buf_free(&want);
	}
	free(dir);
	return found;
}
