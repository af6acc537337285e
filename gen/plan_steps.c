/* What `gen` prints last: the commands that take the files it wrote to a
 * running job, in order, with the names and paths it chose
 * (docs/jobspec.md, "Next steps"). Each is a command a person can paste:
 * words with shell characters are quoted, and no path has a doubled
 * slash. */
#include "plan.h"

#include <string.h>

#include "buf.h"
#include "escape.h"
#include "neuron_pcluster.h"
#include "output.h"

/* One shell word, quoted only when it must be. */
static void word(struct buf *b, const char *s)
{
	bool plain = *s != '\0';
	for (const char *c = s; *c && plain; c++)
		plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
			strchr("_./:=@%+,-~", *c);
	if (plain)
		buf_puts(b, s);
	else
		esc_shell(b, s, strlen(s));
}

static void file_word(struct buf *b, const char *dir, const char *name)
{
	struct buf path = BUF_INIT;
	output_path(&path, dir, name);
	word(b, path.p);
	buf_free(&path);
}

/* "  N. text\n" */
static int step(struct buf *b, int n, const char *text)
{
	buf_printf(b, "  %d. %s\n", n, text);
	return n + 1;
}

static void command_start(struct buf *b)
{
	buf_puts(b, "       ");
}

static void region(struct buf *b, const struct plan *p)
{
	buf_puts(b, " --region ");
	word(b, p->job->cluster->region);
}

/* The uploads of gen's scripts to where the cluster fetches them. */
static int uploads(const struct plan *p, const char *dir, int n, struct buf *b)
{
	bool first = true;
	for (int s = 0; s < SCRIPT__COUNT; s++) {
		struct buf name = BUF_INIT, url = BUF_INIT;
		bool have = plan_script_name(p, s, &name);
		if (have && s == SCRIPT_WATCHER)
			buf_puts(&url, p->job->capacity->watcher->script_url);
		else if (have)
			plan_bootstrap_url(p, name.p, &url);
		if (have && url.p && !strncmp(url.p, "s3://", 5)) {
			if (first)
				n = step(b, n, "Upload the scripts the cluster's nodes run, where they only read:");
			first = false;
			command_start(b);
			buf_puts(b, "aws s3 cp ");
			file_word(b, dir, name.p);
			buf_putc(b, ' ');
			word(b, url.p);
			buf_putc(b, '\n');
		} else if (have && url.p) {
			buf_printf(b, "  %d. Publish ", n++);
			file_word(b, dir, name.p);
			buf_puts(b, " at ");
			word(b, url.p);
			buf_puts(b, ", where the cluster fetches it\n");
		}
		buf_free(&name);
		buf_free(&url);
	}
	return n;
}

static int image_steps(const struct plan *p, const char *dir, const char *spec_path, int n, struct buf *b)
{
	const struct job_spec *j = p->job;
	if (!p->cl.image)
		return n;
	struct buf id = BUF_INIT, file = BUF_INIT;
	plan_image_id(p, &id);
	buf_printf(&file, "%s-image.yaml", j->name);
	struct buf text = BUF_INIT;
	if (p->cl.route == ROUTE_PENDING)
		buf_printf(&text, "Build the compute nodes' AMI from the Neuron DLAMI %s (Neuron %s):",
			   j->software->neuron_image->parent, j->software->neuron);
	else
		buf_printf(&text, "Build the compute nodes' AMI from the Neuron DLAMI %s (Neuron %s), unless "
			   "cluster.ami %s is already its result:", j->software->neuron_image->parent,
			   j->software->neuron, j->cluster->ami);
	n = step(b, n, text.p);
	command_start(b);
	buf_puts(b, "pcluster build-image --image-configuration ");
	file_word(b, dir, file.p);
	buf_puts(b, " --image-id ");
	word(b, id.p);
	region(b, p);
	buf_putc(b, '\n');
	command_start(b);
	buf_puts(b, "pcluster describe-image --image-id ");
	word(b, id.p);
	region(b, p);
	buf_puts(b, " --query 'image.ec2AmiInfo.amiId'   # once imageBuildStatus is BUILD_COMPLETE\n");
	if (p->cl.route == ROUTE_PENDING) {
		buf_reset(&text);
		buf_puts(&text, "Set cluster.ami in ");
		buf_puts(&text, spec_path);
		buf_puts(&text, " to that AMI and run trainforge gen again: it then writes the cluster config "
			       "and prints the rest");
		n = step(b, n, text.p);
	}
	buf_free(&text);
	buf_free(&id);
	buf_free(&file);
	return n;
}

static int script_check(const struct plan *p, int n, struct buf *b)
{
	struct buf url = BUF_INIT;
	if (p->cl.extrapolated && plan_neuron_install(p, &url)) {
		n = step(b, n, "Check that Neuron's install script exists at the path no sample shows "
			       "(software.neuron_script: extrapolated):");
		command_start(b);
		buf_puts(b, "aws s3 ls ");
		word(b, url.p);
		buf_putc(b, '\n');
	}
	buf_free(&url);
	return n;
}

static void ssh(struct buf *b, const struct plan *p)
{
	struct buf key = BUF_INIT;
	buf_printf(&key, "~/.ssh/%s.pem", p->job->cluster->ssh_key);
	buf_puts(b, "pcluster ssh --cluster-name ");
	word(b, p->job->cluster->name);
	region(b, p);
	buf_puts(b, " -i ");
	word(b, key.p);
	buf_free(&key);
}

static int cluster_steps(const struct plan *p, const char *dir, int n, struct buf *b)
{
	const struct job_spec *j = p->job;
	struct buf text = BUF_INIT, file = BUF_INIT;
	buf_printf(&text, "Create the cluster (%s: its nodes' names stay within 63 characters; it may be up to "
		   "%zu long):", j->cluster->name, p->cl.name_max);
	n = step(b, n, text.p);
	buf_printf(&file, "%s-cluster.yaml", j->name);
	command_start(b);
	buf_puts(b, "pcluster create-cluster --cluster-name ");
	word(b, j->cluster->name);
	buf_puts(b, " --cluster-configuration ");
	file_word(b, dir, file.p);
	region(b, p);
	buf_putc(b, '\n');
	command_start(b);
	buf_puts(b, "pcluster describe-cluster --cluster-name ");
	word(b, j->cluster->name);
	region(b, p);
	buf_puts(b, " --query clusterStatus   # until CREATE_COMPLETE\n");
	buf_reset(&file);
	buf_printf(&file, "%s.sbatch", j->name);
	n = step(b, n, "Copy the batch script to the head node and submit it there:");
	command_start(b);
	ssh(b, p);
	buf_putc(b, ' ');
	struct buf remote = BUF_INIT;
	buf_puts(&remote, "cat > ");
	buf_puts(&remote, file.p);
	word(b, remote.p);
	buf_puts(b, " < ");
	file_word(b, dir, file.p);
	buf_putc(b, '\n');
	command_start(b);
	ssh(b, p);
	buf_puts(b, " sbatch ");
	word(b, file.p);
	buf_putc(b, '\n');
	buf_free(&remote);
	buf_free(&text);
	buf_free(&file);
	return n;
}

void plan_next_steps(const struct plan *p, const char *dir, const char *spec_path, struct buf *b)
{
	buf_puts(b, "next steps\n");
	int n = uploads(p, dir, 1, b);
	n = image_steps(p, dir, spec_path, n, b);
	if (p->cl.route == ROUTE_PENDING)
		return;
	n = script_check(p, n, b);
	cluster_steps(p, dir, n, b);
}
