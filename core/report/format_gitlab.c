/* GitLab Code Quality: a JSON array of issues, the subset of Code
 * Climate's issue format GitLab reads (docs.gitlab.com, "Code Quality",
 * "Code Quality report format"): description, check_name, fingerprint,
 * severity and location.path with location.lines.begin. The fingerprint
 * is what GitLab matches between the base and the head of a merge
 * request, so it leaves the line out: the file, the rule, the message
 * and which of the file's findings with those three it is. */
#include <stdlib.h>
#include <string.h>

#include "format_internal.h"
#include "text.h"
#include "xalloc.h"

/* GitLab's scale is info, minor, major, critical, blocker: an error is
 * major, so that it ranks above warnings in the merge request. */
static const char *const gitlab_severity[] = {
	[SEV_INFO] = "info", [SEV_WARNING] = "minor", [SEV_ERROR] = "major",
};

static uint64_t key_hash(const struct diag *d, const char *id)
{
	uint64_t h = text_hash(d->src->path, strlen(d->src->path), 0);
	h = text_hash(id, strlen(id), h);
	return text_hash(d->msg, strlen(d->msg), h);
}

void format_gitlab(struct buf *b, const struct diag_list *list)
{
	uint64_t *hash = xcalloc(list->len ? list->len : 1, sizeof *hash);
	for (size_t i = 0; i < list->len; i++) {
		char idbuf[8];
		hash[i] = key_hash(&list->v[i], diag_id(&list->v[i], idbuf));
	}
	buf_putc(b, '[');
	for (size_t i = 0; i < list->len; i++) {
		const struct diag *d = &list->v[i];
		char idbuf[8];
		const char *id = diag_id(d, idbuf);
		uint64_t h = hash[i];
		unsigned nth = 0;
		for (size_t k = 0; k < i; k++)
			nth += hash[k] == h;
		/* a path GitLab shows relative to the repository: no leading ./ */
		const char *path = d->src->path;
		while (path[0] == '.' && path[1] == '/')
			path += 2;
		if (i)
			buf_putc(b, ',');
		buf_puts(b, "\n  {\"description\":");
		struct buf text = BUF_INIT;
		buf_printf(&text, "%s [%s]", d->msg, id);
		format_json_str(b, text.p);
		buf_free(&text);
		buf_printf(b, ",\"check_name\":\"%s\",\"fingerprint\":\"%016llx%08x\",\"severity\":\"%s\","
			   "\"location\":{\"path\":", id, (unsigned long long)h, nth, gitlab_severity[d->sev]);
		format_json_str(b, path);
		buf_printf(b, ",\"lines\":{\"begin\":%u}}}", d->line ? d->line : 1);
	}
	buf_puts(b, list->len ? "\n]\n" : "]\n");
	free(hash);
}
