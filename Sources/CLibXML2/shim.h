// The parts of the system's libxml2 (Debian: libxml2-dev) that the xpath filter uses.
// Debian's libxml2 is built with ICU, and encoding.h then includes the system's <unicode/ucnv.h>,
// whose UErrorCode clashes with Foundation's own ICU in any Swift module that sees both (a fresh
// build of WeatherShell failed so). Nothing here uses ICU: only pointers to the encoding handler
// (whose ICU fields come last) reach Swift, so the headers are read without it.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <libxml/SAX2.h>

// xmlFree is a macro in thread-enabled builds; Swift cannot call it directly.
static inline void wsh_xml_free(void *pointer) { xmlFree(pointer); }

static inline void wsh_xml_ignore_generic(void *context, const char *message, ...) { (void)context; (void)message; }
static inline void wsh_xml_ignore_structured(void *context, xmlErrorPtr error) { (void)context; (void)error; }

// libxml2 prints its errors and some XPath diagnostics to stderr unless the calling thread's
// handlers are replaced; the errors are still recorded (xmlGetLastError, a parser's lastError).
// The generic handler is variadic, which Swift cannot write, hence this helper.
static inline void wsh_xml_silence_errors_on_this_thread(void) {
    xmlSetGenericErrorFunc(NULL, wsh_xml_ignore_generic);
    xmlSetStructuredErrorFunc(NULL, wsh_xml_ignore_structured);
}
