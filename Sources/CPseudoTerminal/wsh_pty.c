#define _XOPEN_SOURCE 600
#define _DEFAULT_SOURCE
#include "wsh_pty.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int wsh_pty_open(char *path, int path_size) {
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0) return -1;
    if (grantpt(master) != 0 || unlockpt(master) != 0) { close(master); return -1; }
    const char *name = ptsname(master);
    if (name == NULL || (int)strlen(name) >= path_size) { close(master); return -1; }
    strcpy(path, name);
    struct winsize size = { .ws_row = 30, .ws_col = 100 };
    ioctl(master, TIOCSWINSZ, &size);
    fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
    return master;
}
