#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "pty.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

namespace ps {

bool open_pty(Pty *p, std::string *err)
{
    const int m = posix_openpt(O_RDWR | O_NOCTTY);
    if (m < 0) {
        *err = std::string("posix_openpt: ") + strerror(errno);
        return false;
    }
    if (grantpt(m) != 0 || unlockpt(m) != 0) {
        *err = std::string("grantpt/unlockpt: ") + strerror(errno);
        close(m);
        return false;
    }
    char name[128];
    if (ptsname_r(m, name, sizeof name) != 0) {
        *err = std::string("ptsname_r: ") + strerror(errno);
        close(m);
        return false;
    }
    const int s = open(name, O_RDWR | O_NOCTTY);
    if (s < 0) {
        *err = std::string("open ") + name + ": " + strerror(errno);
        close(m);
        return false;
    }
    // Raw before the path is published: no XON/XOFF, no CR/LF mapping, no echo, no line buffer.
    struct termios tio;
    if (tcgetattr(s, &tio) != 0) {
        *err = std::string("tcgetattr: ") + strerror(errno);
        close(s);
        close(m);
        return false;
    }
    cfmakeraw(&tio);
    tio.c_cc[VMIN] = 1;
    tio.c_cc[VTIME] = 0;
    if (tcsetattr(s, TCSANOW, &tio) != 0) {
        *err = std::string("tcsetattr: ") + strerror(errno);
        close(s);
        close(m);
        return false;
    }
    const int fl = fcntl(m, F_GETFL);
    if (fl < 0 || fcntl(m, F_SETFL, fl | O_NONBLOCK) != 0) {
        *err = std::string("fcntl O_NONBLOCK: ") + strerror(errno);
        close(s);
        close(m);
        return false;
    }
    fcntl(m, F_SETFD, FD_CLOEXEC);
    fcntl(s, F_SETFD, FD_CLOEXEC);
    p->master = m;
    p->slave = s;
    p->path = name;
    return true;
}

void close_pty(Pty *p)
{
    if (p->master >= 0)
        close(p->master);
    if (p->slave >= 0)
        close(p->slave);
    p->master = p->slave = -1;
}

} // namespace ps
