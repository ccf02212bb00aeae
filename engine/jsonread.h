/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small JSON reader for the files dio reads back (a SARIF baseline): the
 * whole text becomes a tree of values. Depth and size are bounded; strings
 * are unescaped to UTF-8 (\u escapes included, surrogate pairs joined).
 */
#ifndef DIO_ENGINE_JSONREAD_H
#define DIO_ENGINE_JSONREAD_H

#include <stddef.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

/* 32 bytes: a tree of many small values stays within a few times its text */
struct json_value {
	enum json_type type;
	size_t n;		/* JSON_ARRAY, JSON_OBJECT: entries; JSON_STRING: length */
	union {
		double number;	/* JSON_NUMBER; JSON_BOOL: 0 or 1 */
		char *string;	/* JSON_STRING, NUL-terminated (may hold NULs before it) */
		struct {
			char **keys;	/* JSON_OBJECT: n keys; JSON_ARRAY: NULL */
			struct json_value *items;	/* JSON_ARRAY, JSON_OBJECT: n values */
		};
	};
};

/*
 * Parse len bytes of text. NULL on failure with "line N: what" in err (and
 * errno set: EINVAL for bad text, ENOMEM, E2BIG when the tree would take
 * more than 8 times the text and 1 MiB: what a file of many small values
 * would take is refused before it is taken). The text is not copied; the
 * tree is the caller's: json_free() it.
 */
struct json_value *json_parse(const char *text, size_t len, char *err, size_t errlen);
void json_free(struct json_value *v);

/* The member key of an object, or NULL (also when v is NULL or not an object). */
const struct json_value *json_get(const struct json_value *v, const char *key);
/* The string of v, or NULL when v is not a string. */
const char *json_str(const struct json_value *v);

#endif
