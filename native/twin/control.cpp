#include "control.h"

#include <sstream>
#include <vector>

#include "cli.h"
#include "decimal.h"
#include "json.h"

namespace ps {

namespace {

std::vector<std::string> words(const std::string &line)
{
    std::istringstream in(line);
    std::vector<std::string> w;
    for (std::string s; in >> s;)
        w.push_back(s);
    return w;
}

ControlCommand error(const std::string &command, const std::string &message)
{
    ControlCommand c;
    c.kind = ControlCommand::Error;
    c.command = command;
    c.message = message;
    return c;
}

bool parse_u32(const std::string &s, uint32_t *out)
{
    uint64_t v = 0;
    if (!parse_u64_decimal(s, &v) || v > 0xFFFFFFFFull)
        return false;
    *out = (uint32_t)v;
    return true;
}

} // namespace

ControlCommand parse_control(const std::string &line)
{
    const std::vector<std::string> w = words(line);
    ControlCommand c;
    if (w.empty())
        return c;
    if (w[0] == "cancel") {
        if (w.size() != 2 || !parse_u64_decimal(w[1], &c.id))
            return error("cancel", "usage: cancel ID");
        c.kind = ControlCommand::Cancel;
        c.command = w[0];
        return c;
    }
    if (w[0] == "inject") {
        static const char *const kUsage =
            "usage: inject garbage|truncate|crc|skip-seq [COUNT [SEED]]";
        if (w.size() < 2 || w.size() > 4)
            return error("inject", kUsage);
        c.fault = w[1];
        if (c.fault != "garbage" && c.fault != "truncate" && c.fault != "crc"
            && c.fault != "skip-seq")
            return error("inject",
                         "inject: unknown fault '" + c.fault
                             + "' (garbage, truncate, crc, skip-seq)");
        if (w.size() > 2 && (!parse_u32(w[2], &c.count) || c.count == 0))
            return error("inject", "inject: COUNT must be a positive integer");
        if (w.size() > 3 && !parse_u32(w[3], &c.seed))
            return error("inject", "inject: SEED must be a 32-bit unsigned integer");
        c.kind = ControlCommand::Inject;
        c.command = w[0];
        return c;
    }
    return c;
}

std::string control_error_event(const std::string &command, const std::string &message,
                                const uint64_t *id)
{
    json::Writer w;
    w.begin_object().field("event", "error").field("command", command);
    if (id)
        w.field("id", *id);
    return w.field("message", message).end_object().text();
}

std::string injected_event(const ControlCommand &c)
{
    json::Writer w;
    w.begin_object().field("event", "injected").field("kind", c.fault);
    return w.field("count", c.count).field("seed", c.seed).end_object().text();
}

std::string cancelled(const std::string &done_line)
{
    if (done_line.empty() || done_line.back() != '}')
        return done_line;
    return done_line.substr(0, done_line.size() - 1) + ",\"cancelled\":true}";
}

} // namespace ps
