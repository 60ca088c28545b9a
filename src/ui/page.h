/*
 * page.h - the files of the single page, compiled into the binary.
 *
 * The Makefile turns every file of src/ui/page/ into bytes of a generated
 * C file (scripts/embed-page.sh), so the binary needs no data folder, no
 * network and no CDN to show the page.
 */
#ifndef RL_UI_PAGE_H
#define RL_UI_PAGE_H

#include <stddef.h>

struct ui_asset {
	const char *name; /* "index.html" */
	const unsigned char *data;
	size_t len;
};

extern const struct ui_asset ui_assets[];
extern const size_t ui_nassets;

#endif
