#ifndef WSH_PTY_H
#define WSH_PTY_H

/// Opens a new pseudo-terminal master (non-blocking) with a 100x30 window; writes the
/// slave's path into `path`. Returns the master fd, or -1.
int wsh_pty_open(char *path, int path_size);

#endif
