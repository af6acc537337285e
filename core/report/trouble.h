/* Trouble: what keeps the tool from doing its job (an input that cannot
 * be read, a settings file that is invalid, shellcheck that cannot run),
 * as opposed to findings in a file. Library code adds each message to a
 * sink; the CLI prints them to stderr and the language server logs them,
 * so nothing below cli/ prints. */
#ifndef TF_TROUBLE_H
#define TF_TROUBLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct trouble {
	char **msgs;      /* each a whole line, without the newline */
	size_t len, cap;
};

/* Appends one message (a NULL sink drops it). */
void trouble_add(struct trouble *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Writes every message to out, one per line, and empties the sink. */
void trouble_flush(struct trouble *t, FILE *out);
void trouble_free(struct trouble *t);

#endif
