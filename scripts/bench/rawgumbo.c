/* rawgumbo — the baseline for scripts/bench-parse.sh: the least work a
 * gumbo-based parser can do over a file of fetch records.
 *
 * Reads the whole records file into memory, and for each record parses
 * `body` with gumbo (explicit length), walks every node once (counting
 * nodes and text bytes, so the walk cannot be optimised away), and frees
 * the tree.  No charset decoding, no output.  parse does all of this plus
 * its real work, so parse/raw shows what that work costs.
 *
 *     cc -O2 -o rawgumbo rawgumbo.c $(pkg-config --cflags --libs gumbo msgpack)
 *     ./rawgumbo records.mp
 */
#include <gumbo.h>
#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Walks n's subtree iteratively (as parse does); returns the node count
 * and adds text bytes to *text. */
static size_t
walk(const GumboNode *root, size_t *text)
{
	size_t nodes = 0;
	const GumboNode *n = root;
	for (;;) {
		nodes++;
		const GumboVector *kids = NULL;
		if (n->type == GUMBO_NODE_ELEMENT || n->type == GUMBO_NODE_TEMPLATE)
			kids = &n->v.element.children;
		else if (n->type == GUMBO_NODE_DOCUMENT)
			kids = &n->v.document.children;
		else
			*text += strlen(n->v.text.text);
		if (kids && kids->length) {
			n = kids->data[0];
			continue;
		}
		for (;;) {
			if (n == root)
				return nodes;
			const GumboNode *p = n->parent;
			const GumboVector *sib = p->type == GUMBO_NODE_DOCUMENT ?
				&p->v.document.children : &p->v.element.children;
			if (n->index_within_parent + 1 < sib->length) {
				n = sib->data[n->index_within_parent + 1];
				break;
			}
			n = p;
		}
	}
}

int
main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: rawgumbo RECORDS\n");
		return 64;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 66;
	}
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)size);
	if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
		perror("read");
		return 74;
	}
	fclose(f);

	msgpack_unpacked u;
	msgpack_unpacked_init(&u);
	size_t off = 0, pages = 0, bytes = 0, nodes = 0, text = 0;
	while (msgpack_unpack_next(&u, buf, (size_t)size, &off) == MSGPACK_UNPACK_SUCCESS) {
		const msgpack_object *m = &u.data;
		if (m->type != MSGPACK_OBJECT_MAP)
			continue;
		for (uint32_t i = 0; i < m->via.map.size; i++) {
			const msgpack_object *k = &m->via.map.ptr[i].key;
			const msgpack_object *v = &m->via.map.ptr[i].val;
			if (k->type != MSGPACK_OBJECT_STR || k->via.str.size != 4 ||
			    memcmp(k->via.str.ptr, "body", 4) != 0 || v->type != MSGPACK_OBJECT_BIN)
				continue;
			GumboOutput *g = gumbo_parse_with_options(&kGumboDefaultOptions,
								  v->via.bin.ptr, v->via.bin.size);
			nodes += walk(g->document, &text);
			gumbo_destroy_output(&kGumboDefaultOptions, g);
			pages++;
			bytes += v->via.bin.size;
		}
	}
	msgpack_unpacked_destroy(&u);
	free(buf);
	printf("pages %zu bytes %zu nodes %zu text %zu\n", pages, bytes, nodes, text);
	return 0;
}
