/* What the plan's text, JSON and SVG writers share: one way
 * to print money, memory and an unknown figure, and JSON members whose
 * unknown values are null. */
#ifndef TF_PLAN_OUT_H
#define TF_PLAN_OUT_H

#include <stdbool.h>

#include "buf.h"

#define PLAN_GIB 1073741824.0

/* "$1234567" from $1000 up, else "$12.34"; unknown (< 0) as `unknown`. */
void out_money(struct buf *b, double usd, const char *unknown);
/* "22.09 GiB", or "unknown". */
void out_gib(struct buf *b, double bytes);
/* ,"key":value with a leading comma unless first; < 0 or not finite is null. */
void out_jnum(struct buf *b, const char *key, double v);
void out_jint(struct buf *b, const char *key, long long v);
void out_jstr(struct buf *b, const char *key, const char *v);
void out_jbool(struct buf *b, const char *key, bool v);
/* A tri-state: 1 true, 0 false, < 0 null. */
void out_jtri(struct buf *b, const char *key, int v);
/* ,"key":{ and ,"key":[ (the caller closes them). */
void out_jobj(struct buf *b, const char *key);
void out_jarr(struct buf *b, const char *key);
/* Text for XML content and attribute values. */
void out_xml(struct buf *b, const char *s);

#endif
