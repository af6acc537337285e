/* The data the templates render from, built from the plan. Every number
 * in it comes from the plan; every user string goes through the escaper
 * of its output when the template uses {{name}}. */
#ifndef TF_CONTEXT_H
#define TF_CONTEXT_H

#include "plan.h"
#include "tvalue.h"

/* spec_path is shown in the generated files' headers. */
struct tv *context_build(const struct plan *p, const struct spec *spec,
			 const char *spec_path);

#endif
