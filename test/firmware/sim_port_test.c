/*
 * sim_port_test.c - the sim port as the twin uses it: register callbacks with a context, a
 * raw non-blocking PTY master as the UART, the monotonic clock. Built with hal_sim.c and
 * the real firmware; prints "sim-port: N passed, N failed" (a detail line, not the closing one).
 */
#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 600

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "hal_sim.h"
#include "ps_app.h"
#include "ps_assert.h"
#include "ps_cobs.h"
#include "ps_frame.h"
#include "ps_le.h"
#include "th.h"

typedef struct fake_bus {
    uint32_t regs[64];
    unsigned reads;
    unsigned writes;
} fake_bus_t;

static uint32_t bus_read(void *ctx, uint32_t offset)
{
    fake_bus_t *b = ctx;
    b->reads++;
    return offset < PS_REG_CNT_BASE ? b->regs[offset / 4u] : 0x1000u + offset;
}

static void bus_write(void *ctx, uint32_t offset, uint32_t value)
{
    fake_bus_t *b = ctx;
    b->writes++;
    if (offset < PS_REG_CNT_BASE) {
        b->regs[offset / 4u] = value;
    }
}

static fake_bus_t g_bus;
static ps_app_t g_app;

static void unbound_is_inert(void)
{
    ps_hal_sim_bind(NULL);
    uint8_t b[4];
    TH_EQ(ps_hal_reg_read(PS_REG_ID), 0);
    ps_hal_reg_write(PS_REG_CTRL, 1);
    TH_EQ(ps_hal_uart_read(b, sizeof b), 0);
    TH_EQ(ps_hal_uart_write(b, sizeof b), 0);
}

static void registers_reach_the_bus(void)
{
    memset(&g_bus, 0, sizeof g_bus);
    g_bus.regs[PS_REG_ID / 4u] = PS_ID_MAGIC;
    ps_sim_bus_t bus = {&g_bus, bus_read, bus_write, -1};
    ps_hal_sim_bind(&bus);
    memset(&bus, 0xEE, sizeof bus); /* bind copies: the caller's struct may go away */
    TH_EQ(ps_hal_reg_read(PS_REG_ID), PS_ID_MAGIC);
    ps_hal_reg_write(PS_REG_BAR_LATENCY, 300);
    TH_EQ(g_bus.regs[PS_REG_BAR_LATENCY / 4u], 300);
    TH_EQ(g_bus.reads, 1);
    TH_EQ(g_bus.writes, 1);
    uint8_t b[4];
    TH_EQ(ps_hal_uart_read(b, sizeof b), 0); /* no fd */
}

static void clock_is_monotonic_us(void)
{
    uint64_t a = ps_hal_time_us();
    struct timespec d = {0, 3000000};
    nanosleep(&d, NULL);
    uint64_t b = ps_hal_time_us();
    TH_CHECK(b - a >= 3000u);
    TH_CHECK(b - a < 2000000u);
}

/* Step the firmware until the slave side has a complete frame, or ~2 s pass. */
static size_t read_reply(int slave, uint8_t *buf, size_t cap)
{
    size_t len = 0;
    for (int i = 0; i < 2000 && (len == 0u || buf[len - 1u] != 0u); i++) {
        ps_app_step(&g_app);
        struct pollfd p = {slave, POLLIN, 0};
        if (poll(&p, 1, 1) > 0) {
            ssize_t n = read(slave, &buf[len], cap - len);
            if (n > 0) {
                len += (size_t)n;
            }
        }
    }
    return len;
}

static void ping_and_info_over_a_pty(void)
{
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    TH_CHECK(master >= 0);
    if (master < 0) {
        return;
    }
    TH_CHECK(grantpt(master) == 0 && unlockpt(master) == 0);
    int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
    TH_CHECK(slave >= 0);
    if (slave < 0) {
        close(master);
        return;
    }
    struct termios tio; /* raw both ways: no echo of our frames, no CR/LF rewriting */
    tcgetattr(slave, &tio);
    cfmakeraw(&tio);
    tcsetattr(slave, TCSANOW, &tio);
    fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);

    memset(&g_bus, 0, sizeof g_bus);
    g_bus.regs[PS_REG_ID / 4u] = PS_ID_MAGIC;
    g_bus.regs[PS_REG_CLK_HZ / 4u] = 250000000u;
    ps_app_init(&g_app); /* before binding, as the twin may do */
    ps_sim_bus_t bus = {&g_bus, bus_read, bus_write, master};
    ps_hal_sim_bind(&bus);

    for (int i = 0; i < 50; i++) { /* silent before the hello */
        ps_app_step(&g_app);
    }
    struct pollfd p = {slave, POLLIN, 0};
    TH_EQ(poll(&p, 1, 20), 0);

    uint8_t wire[PS_FRAME_MAX_ENCODED];
    uint8_t cmd[5] = {PS_CMD_PING};
    ps_put_u32le(&cmd[1], 0x0D0A000Au); /* bytes a cooked tty would mangle */
    ps_frame_result_t fr =
        ps_frame_build(wire, sizeof wire, PS_FRAME_COMMAND, 0x0A0D, cmd, sizeof cmd);
    TH_EQ(write(slave, wire, fr.len), (ssize_t)fr.len);
    uint8_t buf[512];
    size_t n = read_reply(slave, buf, sizeof buf);
    uint8_t raw[PS_FRAME_MAX_RAW];
    ps_frame_view_t v;
    TH_CHECK(n > 1u && buf[n - 1u] == 0u);
    ps_cobs_result_t d = ps_cobs_decode(raw, sizeof raw, buf, n - 1u);
    TH_EQ(d.status, PS_COBS_OK);
    TH_EQ(ps_frame_parse(raw, d.len, &v), PS_FRAME_OK);
    TH_EQ(v.type, PS_FRAME_RESPONSE);
    TH_EQ(ps_get_u16le(&v.payload[PS_RESPONSE_REQUEST_SEQ_OFFSET]), 0x0A0D);
    TH_EQ(ps_get_u32le(&v.payload[PS_RESPONSE_BYTES]), 0x0D0A000Au);

    cmd[0] = PS_CMD_INFO;
    fr = ps_frame_build(wire, sizeof wire, PS_FRAME_COMMAND, 2, cmd, 1);
    TH_EQ(write(slave, wire, fr.len), (ssize_t)fr.len);
    n = read_reply(slave, buf, sizeof buf);
    d = ps_cobs_decode(raw, sizeof raw, buf, n > 0u ? n - 1u : 0u);
    TH_EQ(ps_frame_parse(raw, d.len, &v), PS_FRAME_OK);
    TH_EQ(ps_get_u32le(&v.payload[PS_RESPONSE_BYTES + PS_CMD_INFO_REPLY_PROBE_ID_OFFSET]),
          PS_ID_MAGIC);
    TH_EQ(ps_get_u32le(&v.payload[PS_RESPONSE_BYTES + PS_CMD_INFO_REPLY_CLOCK_HZ_OFFSET]),
          250000000u);
    TH_EQ(g_app.stats.rx_bad_frames, 0);

    /* the host goes away: reads fail with EIO, the firmware shrugs */
    close(slave);
    for (int i = 0; i < 50; i++) {
        ps_app_step(&g_app);
    }
    uint8_t b[8];
    TH_EQ(ps_hal_uart_read(b, sizeof b), 0);
    close(master);
    ps_hal_sim_bind(NULL);
}

/* In a child: a failed assertion prints file:line and the condition to stderr, then aborts. */
static void assertion_prints_and_aborts(void)
{
    int fds[2];
    TH_CHECK(pipe(fds) == 0);
    fflush(stdout);
    pid_t pid = fork();
    TH_CHECK(pid >= 0);
    if (pid < 0) {
        return;
    }
    if (pid == 0) {
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        signal(SIGABRT, SIG_DFL);
        volatile int one = 1;
        PS_ASSERT(one == 2);
        _exit(0); /* not reached when the hook aborts */
    }
    close(fds[1]);
    char text[256] = {0};
    size_t len = 0;
    ssize_t n;
    while (len < sizeof text - 1u && (n = read(fds[0], &text[len], sizeof text - 1u - len)) > 0) {
        len += (size_t)n;
    }
    close(fds[0]);
    int status = 0;
    TH_EQ(waitpid(pid, &status, 0), pid);
    TH_CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
    TH_CHECK(strstr(text, "sim_port_test.c:") != NULL);
    TH_CHECK(strstr(text, "assertion failed: one == 2") != NULL);
}

void suite_uart_fault(void); /* sim_uart_fault_test.c */

int main(void)
{
    TH_RUN(unbound_is_inert);
    TH_RUN(registers_reach_the_bus);
    TH_RUN(clock_is_monotonic_us);
    TH_RUN(ping_and_info_over_a_pty);
    TH_RUN(assertion_prints_and_aborts);
    suite_uart_fault();
    return th_finish("sim-port: ");
}
