// The twin's serial port: a raw pseudo-terminal (docs/host-notes.md, serial ports).
#ifndef PCIE_SCOPE_TWIN_PTY_H
#define PCIE_SCOPE_TWIN_PTY_H

#include <string>

namespace ps {

struct Pty {
    int master = -1;  // O_NONBLOCK; the firmware's UART
    int slave = -1;   // kept open so the master never reads EOF/EIO while no host is attached
    std::string path; // /dev/pts/N, raw before anyone sees it
};

// Opens a raw PTY; false with a message on failure.
bool open_pty(Pty *out, std::string *err);
void close_pty(Pty *p);

} // namespace ps

#endif
