/* Linked only into the static wsh (scripts/build-release). Debian's libxml2 is built with ICU and
 * refers to 7 of ICU's converter functions; linking the real ones statically adds ICU's 30 MB of data.
 * These stand-ins make ucnv_open fail, so libxml2 keeps its built-in decoders (UTF-8, UTF-16,
 * ISO-8859-1, ASCII) and uses glibc's iconv for every other encoding a body declares.
 * ICU suffixes its symbols with its major version: build-release passes it as ICU_MAJOR, read from
 * the symbols libxml2.a needs, so another Debian release links the same way. */
#ifndef ICU_MAJOR
#error "compile with -DICU_MAJOR=<ICU major version>, e.g. 72 on Debian 12"
#endif
#define WSH_PASTE2(name, version) name##_##version
#define WSH_PASTE(name, version) WSH_PASTE2(name, version)
#define ICU(name) WSH_PASTE(name, ICU_MAJOR)

typedef int UErrorCode;
enum { U_UNSUPPORTED_ERROR = 16 };

void *ICU(ucnv_open)(const char *name, UErrorCode *error) {
    (void)name;
    if (error != 0) *error = U_UNSUPPORTED_ERROR;
    return 0;
}
/* Never reached while ucnv_open fails; defined so the link resolves. */
void ICU(ucnv_close)(void *converter) { (void)converter; }
void ICU(ucnv_setToUCallBack)(void) {}
void ICU(ucnv_setFromUCallBack)(void) {}
void ICU(ucnv_convertEx)(void) {}
void ICU(UCNV_TO_U_CALLBACK_STOP)(void) {}
void ICU(UCNV_FROM_U_CALLBACK_STOP)(void) {}
