#ifndef FEEDS_CLIBXML2_SHIM_H
#define FEEDS_CLIBXML2_SHIM_H
/* Debian's libxml2 headers pull in ICU, whose types clash with the ICU inside Foundation.
   Read the version header first and switch ICU off before anything else is included. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/tree.h>
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlsave.h>
#include <libxml/entities.h>
#include <libxml/encoding.h>

/* xmlFree is a global function-pointer variable, which Swift 6 rejects as shared mutable state. */
static inline void cxml_free(void *p) { xmlFree(p); }

/* Silence libxml2's default error printer (it writes to stderr from inside the parser). */
static void cxml_ignore_error(void *ctx, const char *msg, ...) { (void)ctx; (void)msg; }
static inline void cxml_silence_errors(void) {
    xmlSetGenericErrorFunc(NULL, cxml_ignore_error);
}
#endif
