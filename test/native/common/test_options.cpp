// native/common/options.h: the table-driven parser with the wording the native programs' tests
// pin (the twin: "unknown option", "needs a non-negative integer", "--tags must be 1..256"; the
// GPU runner: "unknown argument", "--repeats needs an integer in 0..1000").
#include <string>
#include <vector>

#include "harness.h"
#include "options.h"

using ps::cli::OptionDef;
using ps::cli::Parsed;
using ps::cli::Value;

namespace {

enum {
    kHelp,
    kTags,
    kSplit,
    kMode,
    kLink,
    kRepeats
};

const OptionDef kDefs[] = {
    {kHelp, "--help", "-h", Value::None, 0, 0, {}, 0, {}, 0, ""},
    {kTags, "--tags", nullptr, Value::Uint, 1, 256, {}, 0, {}, 0, "--tags must be 1..256"},
    {kSplit,
     "--cpl-split",
     nullptr,
     Value::Uint,
     0,
     0,
     {0, 64, 128},
     3,
     {},
     0,
     "--cpl-split must be 0, 64 or 128"},
    {kMode,
     "--mode",
     nullptr,
     Value::Text,
     0,
     0,
     {},
     0,
     {"switch", "endpoint"},
     2,
     "--mode needs endpoint or switch"},
    {kLink, "--link", nullptr, Value::Text, 0, 0, {}, 0, {}, 0, "--link needs genGxL or ideal"},
    {kRepeats, "--repeats", nullptr, Value::Uint, 0, 1000, {}, 0, {}, 0, ""},
};

struct Result {
    bool ok;
    std::string err;
    std::vector<Parsed> seen;
};

// the twin's wording unless `runner`
Result parse(std::vector<const char *> args, bool runner = false)
{
    args.insert(args.begin(), "prog");
    ps::cli::Messages m;
    if (runner)
        m.unknown = "unknown argument ";
    else
        m.not_number = " needs a non-negative integer";
    Result r;
    r.ok = ps::cli::parse((int)args.size(), const_cast<char **>(args.data()), kDefs,
                          sizeof kDefs / sizeof kDefs[0], m,
                          [&](const Parsed &p, std::string *) {
                              r.seen.push_back(p);
                              return true;
                          },
                          &r.err);
    return r;
}

} // namespace

TEST(options_hand_each_option_over_in_order)
{
    const Result r = parse({"--tags", "8", "-h", "--mode", "endpoint", "--cpl-split", "128",
                            "--link", "gen4x8", "--repeats", "0"});
    CHECK(r.ok);
    CHECK_EQ(r.seen.size(), (size_t)6);
    if (r.seen.size() != 6)
        return;
    CHECK_EQ(r.seen[0].def->id, (int)kTags);
    CHECK_EQ(r.seen[0].number, (uint64_t)8);
    CHECK_EQ(r.seen[1].def->id, (int)kHelp);
    CHECK_EQ(r.seen[2].text, std::string("endpoint"));
    CHECK_EQ(r.seen[3].number, (uint64_t)128);
    CHECK_EQ(r.seen[4].text, std::string("gen4x8"));
    CHECK_EQ(r.seen[5].number, (uint64_t)0);
    CHECK(parse({}).ok);
}

TEST(options_unknown_option)
{
    CHECK_EQ(parse({"--tags", "8", "--bogus"}).err, std::string("unknown option --bogus"));
    CHECK_EQ(parse({"--bogus"}, true).err, std::string("unknown argument --bogus"));
    // a value is not an option, nor is a flag's prefix
    CHECK_EQ(parse({"8"}).err, std::string("unknown option 8"));
    CHECK_EQ(parse({"--tag", "8"}).err, std::string("unknown option --tag"));
}

TEST(options_missing_or_malformed_value)
{
    CHECK_EQ(parse({"--tags"}).err, std::string("--tags needs a non-negative integer"));
    CHECK_EQ(parse({"--tags", "-1"}).err, std::string("--tags needs a non-negative integer"));
    CHECK_EQ(parse({"--tags", "+8"}).err, std::string("--tags needs a non-negative integer"));
    CHECK_EQ(parse({"--tags", "8x"}).err, std::string("--tags needs a non-negative integer"));
    CHECK_EQ(parse({"--tags", "18446744073709551616"}).err,
             std::string("--tags needs a non-negative integer"));
    CHECK_EQ(parse({"--repeats"}, true).err, std::string("--repeats needs an integer in 0..1000"));
    CHECK_EQ(parse({"--mode"}).err, std::string("--mode needs endpoint or switch"));
    CHECK_EQ(parse({"--link", ""}).err, std::string("--link needs genGxL or ideal"));
}

TEST(options_range_and_allowed_values)
{
    CHECK_EQ(parse({"--tags", "0"}).err, std::string("--tags must be 1..256"));
    CHECK_EQ(parse({"--tags", "257"}).err, std::string("--tags must be 1..256"));
    CHECK(parse({"--tags", "1"}).ok);
    CHECK(parse({"--tags", "256"}).ok);
    CHECK_EQ(parse({"--cpl-split", "32"}).err, std::string("--cpl-split must be 0, 64 or 128"));
    CHECK_EQ(parse({"--repeats", "1001"}, true).err,
             std::string("--repeats needs an integer in 0..1000"));
    CHECK_EQ(parse({"--mode", "bridge"}).err, std::string("--mode needs endpoint or switch"));
    CHECK_EQ(ps::cli::value_error(kDefs[5]), std::string("--repeats needs an integer in 0..1000"));
}

TEST(options_program_refusal_stops_the_parse)
{
    int calls = 0;
    std::string err;
    const char *args[] = {"prog", "--tags", "8", "--tags", "9"};
    const bool ok = ps::cli::parse(
        5, const_cast<char **>(args), kDefs, sizeof kDefs / sizeof kDefs[0], ps::cli::Messages{},
        [&](const Parsed &, std::string *e) {
            *e = "no";
            return ++calls > 1;
        },
        &err);
    CHECK(!ok);
    CHECK_EQ(calls, 1);
    CHECK_EQ(err, std::string("no"));
}

TEST(options_parse_u64)
{
    uint64_t v = 0;
    CHECK(ps::cli::parse_u64("18446744073709551615", &v));
    CHECK_EQ(v, UINT64_MAX);
    CHECK(!ps::cli::parse_u64("", &v));
    CHECK(!ps::cli::parse_u64(" 1", &v));
    CHECK(!ps::cli::parse_u64("00000000000000000000001", &v));
}
