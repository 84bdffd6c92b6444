// The wire format of PROTOCOL.md: headers, fields and operations round-trip;
// malformed bytes are refused with a ProtocolError, never read past.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "frames.hpp"
#include "operation_codec.hpp"
#include "payload_codec.hpp"

namespace kcs::host {
namespace {

TEST(Protocol, RequestHeaderRoundTripsAndStartsWithKcsq) {
    const RequestHeader h{RequestType::write, 0x0102030405060708ull, 1ull << 33};
    const auto bytes = encode(h);
    EXPECT_EQ(std::memcmp(bytes.data(), "KCSQ", 4), 0);
    const auto back = decode_request_header(bytes);
    EXPECT_EQ(back.type, RequestType::write);
    EXPECT_EQ(back.call_id, h.call_id);
    EXPECT_EQ(back.payload_size, h.payload_size);
}

TEST(Protocol, ReplyHeaderRoundTripsAndStartsWithKcsr) {
    ReplyHeader h;
    h.origin = ReplyOrigin::abi_violation;
    h.call_id = 77;
    h.status = -5;
    h.message_size = 12;
    h.payload_size = 1024;
    const auto bytes = encode(h);
    EXPECT_EQ(std::memcmp(bytes.data(), "KCSR", 4), 0);
    const auto back = decode_reply_header(bytes);
    EXPECT_EQ(back.origin, ReplyOrigin::abi_violation);
    EXPECT_EQ(back.call_id, 77u);
    EXPECT_EQ(back.status, -5);
    EXPECT_EQ(back.message_size, 12u);
    EXPECT_EQ(back.payload_size, 1024u);
}

TEST(Protocol, MalformedHeadersAreRefused) {
    auto request = encode(RequestHeader{RequestType::run, 1, 0});
    request[0] = std::byte{'X'};
    EXPECT_THROW(decode_request_header(request), ProtocolError);
    request = encode(RequestHeader{static_cast<RequestType>(99), 1, 0});
    EXPECT_THROW(decode_request_header(request), ProtocolError);

    ReplyHeader h;
    h.message_size = max_message_size + 1;
    EXPECT_THROW(decode_reply_header(encode(h)), ProtocolError);
    h.message_size = 0;
    h.origin = static_cast<ReplyOrigin>(17);
    EXPECT_THROW(decode_reply_header(encode(h)), ProtocolError);
}

TEST(Protocol, FieldsRoundTripLittleEndian) {
    PayloadWriter w;
    w.u32(0x11223344u);
    w.i64(-2);
    w.f64(-0.0);
    w.string("héllo");
    w.u8(7);
    EXPECT_EQ(w.bytes()[0], std::byte{0x44});
    PayloadReader r(w.bytes());
    EXPECT_EQ(r.u32(), 0x11223344u);
    EXPECT_EQ(r.i64(), -2);
    const double z = r.f64();
    EXPECT_TRUE(z == 0.0 && std::signbit(z));
    EXPECT_EQ(r.string(), "héllo");
    EXPECT_EQ(r.u8(), 7);
    EXPECT_NO_THROW(r.expect_end());
    EXPECT_THROW(r.u8(), ProtocolError);
}

TEST(Protocol, AStringLongerThanThePayloadIsRefused) {
    PayloadWriter w;
    w.u32(1000);
    w.u8('x');
    PayloadReader r(w.bytes());
    EXPECT_THROW(r.string(), ProtocolError);
}

Operation sample_op() {
    Operation op;
    op.name = "matmul";
    op.accumulate = KCS_DTYPE_F32;
    op.attributes = {{"transpose_b", true},
                     {"k", std::int64_t{-3}},
                     {"eps", 1e-5},
                     {"a_very_long_attribute_name_beyond_small_strings", std::string("a long string value, on the heap")}};
    op.inputs = {{{5, 1}, 64, KCS_DTYPE_F16, {2, 3, 4}, {}}, {{6, 1}, 0, KCS_DTYPE_F16, {4, 5}, {1, 4}}};
    op.outputs = {{{7, 1}, 8, KCS_DTYPE_F32, {}, {}}};
    return op;
}

TEST(Protocol, AnOperationArrivesAsTheKcsOpItDescribes) {
    PayloadWriter w;
    encode_operation(sample_op(), w);
    PayloadReader r(w.bytes());
    const DecodedOperation decoded(r);
    r.expect_end();
    const kcs_op& op = decoded.op();
    EXPECT_EQ(op.struct_size, sizeof(kcs_op));
    EXPECT_STREQ(op.name, "matmul");
    EXPECT_EQ(op.function, nullptr);
    EXPECT_EQ(op.accumulate, KCS_DTYPE_F32);
    ASSERT_EQ(op.attribute_count, 4u);
    EXPECT_STREQ(op.attributes[0].name, "transpose_b");
    EXPECT_EQ(op.attributes[0].type, KCS_ATTR_BOOL);
    EXPECT_EQ(op.attributes[0].int_value, 1);
    EXPECT_EQ(op.attributes[0].string_value, nullptr);
    EXPECT_EQ(op.attributes[1].type, KCS_ATTR_INT);
    EXPECT_EQ(op.attributes[1].int_value, -3);
    EXPECT_EQ(op.attributes[2].type, KCS_ATTR_FLOAT);
    EXPECT_EQ(op.attributes[2].float_value, 1e-5);
    EXPECT_EQ(op.attributes[3].type, KCS_ATTR_STRING);
    EXPECT_STREQ(op.attributes[3].name, "a_very_long_attribute_name_beyond_small_strings");
    EXPECT_STREQ(op.attributes[3].string_value, "a long string value, on the heap");

    ASSERT_EQ(op.input_count, 2u);
    const kcs_tensor& a = op.inputs[0];
    EXPECT_EQ(a.buffer, 5u);
    EXPECT_EQ(a.offset, 64u);
    EXPECT_EQ(a.dtype, KCS_DTYPE_F16);
    ASSERT_EQ(a.rank, 3u);
    EXPECT_EQ(a.shape[2], 4);
    // No strides given: row-major contiguous.
    EXPECT_EQ(a.strides[0], 12);
    EXPECT_EQ(a.strides[1], 4);
    EXPECT_EQ(a.strides[2], 1);
    EXPECT_EQ(op.inputs[1].strides[0], 1);
    EXPECT_EQ(op.inputs[1].strides[1], 4);
    ASSERT_EQ(op.output_count, 1u);
    EXPECT_EQ(op.outputs[0].rank, 0u);
    EXPECT_EQ(op.outputs[0].offset, 8u);
}

TEST(Protocol, AFunctionNameTravels) {
    Operation op;
    op.name = "unary";
    op.function = "exp";
    PayloadWriter w;
    encode_operation(op, w);
    PayloadReader r(w.bytes());
    const DecodedOperation decoded(r);
    EXPECT_STREQ(decoded.op().function, "exp");
    EXPECT_EQ(decoded.op().input_count, 0u);
}

TEST(Protocol, TruncatedOrInflatedOperationsAreRefused) {
    PayloadWriter w;
    encode_operation(sample_op(), w);
    const auto full = w.bytes();
    for (std::size_t cut = 0; cut < full.size(); cut += 7) {
        PayloadReader r(full.first(cut));
        EXPECT_THROW(DecodedOperation{r}, ProtocolError) << "cut at " << cut;
    }
    // A huge attribute count must be refused before anything is reserved.
    PayloadWriter huge;
    huge.string("x");
    huge.u8(0);
    huge.u32(0);
    huge.u32(0xffffffffu);
    PayloadReader r(huge.bytes());
    EXPECT_THROW(DecodedOperation{r}, ProtocolError);
}

}  // namespace
}  // namespace kcs::host
