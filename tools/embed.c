/* Build-time program: embeds files into the binary. Every file comes as
 * its text; YAML and JSON files also as a parsed yamldoc image (its node
 * cells as the reader uses them, and their spans), so that lint reads
 * them without parsing; JSON Schemas (*.schema.json) also as the table of
 * their compiled schema objects and patterns, so that a run compiles
 * nothing: a pattern is read back from PCRE2's encoding when a value
 * first reaches it (schema.c), and one that does not compile fails the
 * build. Usage: embed FILE... > assets.c */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regex.h"
#include "schema_internal.h"
#include "yamldoc.h"
#include "yamldoc_image.h"
#include "yamldoc_internal.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *p = malloc(cap);
	size_t got;
	while (p && (got = fread(p + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap)
			p = realloc(p, cap *= 2);
	}
	fclose(f);
	*len = n;
	return p;
}

static void put_bytes(const char *name, const char *p, size_t len)
{
	printf("static const char %s[%zu] = {", name, len + 1);
	for (size_t i = 0; i < len; i++)
		printf("%s%d,", i % 24 ? "" : "\n", (signed char)p[i]);
	printf("0};\n");
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool has_tree(const char *path)
{
	return ends_with(path, ".json") || ends_with(path, ".yaml");
}

/* ---- the tree ---------------------------------------------------------- */

static void put_image(int ix, const yamldoc *doc, const struct yd_image *im)
{
	size_t n_strings = 0;
	printf("static const struct yd_rec nodes_%d[] = {\n", ix);
	for (uint32_t i = 0; i < im->n_nodes; i++) {
		const struct yd_rec *r = &im->nodes[i];
		printf("{%u,%u,%u,%u,%u,%u,%u,%u,%u,%u},\n", r->kind, r->type, r->quoted, r->flags,
		       r->line, r->col, r->end_line, r->end_col, r->off, r->len);
		if (r->kind == YD_SCALAR && r->off + r->len + 1 > n_strings)
			n_strings = r->off + r->len + 1;
	}
	/* the cells as a loaded document holds them: wrapping the image
	 * copies nothing */
	printf("};\nstatic const struct yd_cell cells_%d[] = {\n", ix);
	for (uint32_t i = 0; i < im->n_nodes; i++) {
		const struct yd_cell *c = &doc->cells[i];
		printf("{.kind=%u,.type=%u,.quoted=%u,.line=%u,.off=%u,.len=%u},\n", c->kind, c->type,
		       c->quoted, c->line, c->off, c->len);
	}
	printf("};\nstatic const uint32_t kids_%d[] = {", ix);
	size_t n_kids = 0;
	for (uint32_t i = 0; i < im->n_nodes; i++)
		if ((im->nodes[i].kind == YD_MAPPING || im->nodes[i].kind == YD_SEQUENCE) &&
		    im->nodes[i].off + im->nodes[i].len > n_kids)
			n_kids = im->nodes[i].off + im->nodes[i].len;
	for (size_t i = 0; i < n_kids; i++)
		printf("%s%u,", i % 16 ? "" : "\n", im->kids[i]);
	printf("0};\n");
	char name[64];
	snprintf(name, sizeof name, "strings_%d", ix);
	put_bytes(name, im->strings ? im->strings : "", im->strings ? n_strings : 0);
	printf("static const struct yd_image image_%d = { nodes_%d, cells_%d, %u, kids_%d, strings_%d, %u };\n",
	       ix, ix, ix, im->n_nodes, ix, ix, im->root);
}

/* ---- the compiled schema ----------------------------------------------- */

static void put_compiled(const struct compiled *c)
{
	printf("{.kw={");
	for (int w = 0; w < KW__COUNT; w++)
		printf("%s%u", w ? "," : "", c->kw[w]);
	printf("},.ref=%u,.types=%u,.checks=%u,.bad=%d,.boolean=%d,.allow=%d,", c->ref, c->types,
	       c->checks, c->bad, c->boolean, c->allow);
	printf(".props=%u,.n_props=%u,.required=%u,.n_required=%u,", c->props, c->n_props,
	       c->required, c->n_required);
	printf(".extra=%u,.closed=%d,", c->extra, c->closed);
	const struct sch_int *ints[] = { &c->min_length, &c->max_length, &c->min_items, &c->max_items };
	const char *names[] = { "min_length", "max_length", "min_items", "max_items" };
	for (int i = 0; i < 4; i++)
		printf(".%s={%d,%lldLL},", names[i], ints[i]->set, ints[i]->v);
	printf(".bound={");
	for (int b = 0; b <= KW_XMAXIMUM - KW_MINIMUM; b++)
		printf("%s{%d,%a}", b ? "," : "", c->bound[b].set, c->bound[b].v);
	printf("}},\n");
}

struct code {
	yd_node node;
	size_t len;
};

static int code_cmp(const void *pa, const void *pb)
{
	const struct code *a = pa, *b = pb;
	return (a->node > b->node) - (a->node < b->node);
}

/* Compiles every schema object of doc (a mapping, or true and false) and
 * writes the table: numbers only (indices and offsets into the image's
 * text), so the loader has nothing to relocate. A pattern that does not
 * compile fails the build. */
static int put_schema(int ix, const char *path, const yamldoc *doc)
{
	size_t n = yamldoc_node_count(doc) + 1, n_objects = 1;
	struct compiled *v = calloc(n + 1, sizeof *v);
	uint32_t *index = calloc(n, sizeof *index);
	struct sch_lists lists = { 0 };
	int bad = 0;
	struct code *codes = calloc(n, sizeof *codes);
	size_t n_codes = 0;
	for (yd_node sn = 1; sn < n; sn++) {
		bool b;
		if (yd_kind(doc, sn) != YD_MAPPING && !(yd_kind(doc, sn) == YD_SCALAR && yd_bool(doc, sn, &b)))
			continue;
		struct compiled *c = &v[n_objects];
		sch_compile_node(doc, sn, c, &lists);
		index[sn] = (uint32_t)n_objects++;
		size_t len;
		const char *pat = c->kw[KW_PATTERN] ? yd_str(doc, c->kw[KW_PATTERN], &len) : NULL;
		char err[256];
		struct regex *re = pat ? regex_new(pat, len, err, sizeof err) : NULL;
		if (pat && !re) {
			struct yd_span s = yd_span(doc, c->kw[KW_PATTERN]);
			fprintf(stderr, "%s:%u:%u: the pattern does not compile: %s\n", path, s.line, s.col, err);
			bad = 1;
		}
		size_t bl = 0;
		unsigned char *bytes = re ? regex_encode(re, &bl) : NULL;
		if (bytes) {
			printf("static _Alignas(16) const unsigned char code_%d_%u[%zu] = {", ix,
			       c->kw[KW_PATTERN], bl);
			for (size_t i = 0; i < bl; i++)
				printf("%s%u,", i % 24 ? "" : "\n", bytes[i]);
			printf("};\n");
			codes[n_codes].node = c->kw[KW_PATTERN];
			codes[n_codes++].len = bl;
		}
		regex_bytes_free(bytes);
		regex_free(re);
	}
	printf("static const struct sch_prop props_%d[] = {\n", ix);
	for (size_t i = 0; i < lists.n_props; i++)
		printf("{%u,%u,%u},%s", lists.props[i].name, lists.props[i].len, lists.props[i].schema,
		       i % 8 == 7 ? "\n" : "");
	printf("{0,0,0}};\nstatic const uint32_t required_%d[] = {", ix);
	for (size_t i = 0; i < lists.n_required; i++)
		printf("%s%u,", i % 16 ? "" : "\n", lists.required[i]);
	printf("0};\nstatic const struct compiled compiled_%d[] = {\n", ix);
	for (size_t i = 0; i < n_objects; i++)
		put_compiled(&v[i]);
	printf("};\nstatic const uint32_t compiled_index_%d[] = {", ix);
	for (size_t i = 0; i < n; i++)
		printf("%s%u,", i % 16 ? "" : "\n", index[i]);
	/* sorted by node, which schema.c searches by */
	qsort(codes, n_codes, sizeof *codes, code_cmp);
	printf("};\nstatic const struct sch_code codes_%d[] = {", ix);
	for (size_t i = 0; i < n_codes; i++)
		printf("\n{%u,code_%d_%u,%zu},", codes[i].node, ix, codes[i].node, codes[i].len);
	printf("{0,0,0}};\n");
	printf("static const struct sch_table table_%d = { compiled_%d, compiled_index_%d, %zu, props_%d, required_%d, codes_%d, %zu };\n",
	       ix, ix, ix, n, ix, ix, ix, n_codes);
	free(codes);
	sch_lists_free(&lists);
	free(v);
	free(index);
	return bad;
}

static int embed_one(int ix, const char *path)
{
	size_t len;
	char *text = slurp(path, &len);
	if (!text) {
		fprintf(stderr, "%s: cannot read\n", path);
		return 1;
	}
	char name[64];
	snprintf(name, sizeof name, "text_%d", ix);
	if (!has_tree(path)) {
		put_bytes(name, text, len);
		free(text);
		return 0;
	}
	yamldoc *doc = yamldoc_parse(text, len, NULL);
	int bad = 0;
	for (size_t i = 0; i < yamldoc_issue_count(doc); i++) {
		const struct yd_issue *is = yamldoc_issue(doc, i);
		fprintf(stderr, "%s:%u:%u: %s\n", path, is->span.line, is->span.col, is->msg);
		bad = 1;
	}
	if (!bad) {
		put_bytes(name, text, len);
		struct yd_image im;
		yamldoc_image_of(doc, &im);
		put_image(ix, doc, &im);
		if (ends_with(path, ".schema.json"))
			bad = put_schema(ix, path, doc);
	}
	yamldoc_free(doc);
	free(text);
	return bad;
}

int main(int argc, char **argv)
{
	printf("/* Generated by tools/embed.c from the files below; do not edit. */\n");
	printf("#include <stdint.h>\n#include <string.h>\n#include \"assets.h\"\n"
	       "#include \"schema_internal.h\"\n#include \"yamldoc_image.h\"\n"
	       "#include \"yamldoc_internal.h\"\n\n");
	int bad = 0;
	for (int i = 1; i < argc; i++)
		bad |= embed_one(i, argv[i]);
	if (bad)
		return 1;
	printf("\nconst struct asset assets[] = {\n");
	for (int i = 1; i < argc; i++) {
		const char *base = strrchr(argv[i], '/');
		base = base ? base + 1 : argv[i];
		if (ends_with(argv[i], ".schema.json"))
			printf("\t{ \"%s\", text_%d, sizeof text_%d - 1, &image_%d, &table_%d },\n",
			       base, i, i, i, i);
		else if (has_tree(argv[i]))
			printf("\t{ \"%s\", text_%d, sizeof text_%d - 1, &image_%d, NULL },\n",
			       base, i, i, i);
		else
			printf("\t{ \"%s\", text_%d, sizeof text_%d - 1, NULL, NULL },\n", base, i, i);
	}
	printf("};\nconst size_t assets_count = %d;\n\n", argc - 1);
	printf("const struct asset *asset_find(const char *name)\n{\n"
	       "\tfor (size_t i = 0; i < assets_count; i++)\n"
	       "\t\tif (strcmp(assets[i].name, name) == 0)\n"
	       "\t\t\treturn &assets[i];\n\treturn NULL;\n}\n");
	return 0;
}
