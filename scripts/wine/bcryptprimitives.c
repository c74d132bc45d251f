/* Debian 12's Wine (8.0) has no bcryptprimitives.dll, whose ProcessPrng Rust's standard library
   (1.78 and later) imports on Windows; Windows 10 and later, and Wine 9 and later, have it.
   scripts/windows-check.sh puts this one beside the binary it runs under such a Wine, and
   only there: it is never shipped. ProcessPrng through advapi32's RtlGenRandom. */
#include <windows.h>
#include <ntsecapi.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG chunk = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!RtlGenRandom(data, chunk)) return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
