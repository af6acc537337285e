/* A finished lint run as a tool's result: the JSON format's object,
 * with a summary and the messages that are not findings, and the text
 * format with the summary line `trainforge lint` prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "lint.h"
#include "lint_cli.h"
#include "mcp.h"

enum { MAX_TARGETS = 16 };

void mcp_report(const struct lint_run *run, const struct target *base, const struct trouble *more,
		struct buf *json, struct buf *text)
{
	struct format_target targets[MAX_TARGETS];
	struct format_run props = { targets, lint_cli_targets(run, base, targets, MAX_TARGETS),
				    lint_cli_docs_url(run) };
	char *p = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&p, &len);
	format_write_run(f, FMT_JSON, &run->diags, false, &props);
	fclose(f);
	while (len && (p[len - 1] == '\n' || p[len - 1] == ' '))
		len--;
	buf_put(json, p, len ? len - 1 : 0); /* the object without its closing brace */
	free(p);
	size_t count[3] = { 0 };
	for (size_t i = 0; i < run->diags.len; i++)
		count[run->diags.v[i].sev]++;
	buf_printf(json, ",\"summary\":{\"errors\":%zu,\"warnings\":%zu,\"info\":%zu,\"files\":%zu},"
		   "\"messages\":[", count[SEV_ERROR], count[SEV_WARNING], count[SEV_INFO],
		   run->files_checked);
	const struct trouble *both[2] = { more, &run->trouble };
	bool first = true;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; both[k] && i < both[k]->len; i++) {
			buf_puts(json, first ? "" : ",");
			first = false;
			json_put_str(json, both[k]->msgs[i], strlen(both[k]->msgs[i]));
		}
	buf_puts(json, "]}");
	if (!text)
		return;
	f = open_memstream(&p, &len);
	format_write(f, FMT_TEXT, &run->diags, false);
	lint_cli_summary(run, f);
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; both[k] && i < both[k]->len; i++)
			fprintf(f, "%s\n", both[k]->msgs[i]);
	fclose(f);
	buf_put(text, p, len);
	free(p);
}
