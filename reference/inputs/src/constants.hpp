// The constants of the fast ln and cos paths (correctly_rounded.cpp),
// computed with MPFR at 300 bits. constants_test.cpp recomputes every one
// and checks the properties the error analyses rely on, bit for bit.
#pragma once

#include <array>

#include "double_word.hpp"

namespace kcs::ref::inputs_detail {

// ln 2 = kLn2Hi + kLn2Lo + O(2^-101); kLn2Hi has 47 significant bits, so
// e·kLn2Hi is exact for |e| <= 53.
inline constexpr double kLn2Hi = 0x1.62e42fefa39cp-1;
inline constexpr double kLn2Lo = 0x1.79abc9e3b398p-48;

// π/2 = P1 + P2 + P3 + O(2^-159), P1 of 50 significant bits, P2 of 43 and
// P3 of 53: k·P1 and k·P2 are exact for k <= 5.
inline constexpr double kPiOver2Part1 = 0x1.921fb54442d18p+0;
inline constexpr double kPiOver2Part2 = 0x1.1a62633145cp-54;
inline constexpr double kPiOver2Part3 = 0x1.b839a252049c1p-104;
inline constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;  // RN(2/π); any approximation works

// 1/n as double words (hi = RN(1/n), lo = RN(1/n - hi)).
inline constexpr DoubleWord kInv3{0x1.5555555555555p-2, 0x1.5555555555555p-56};
inline constexpr DoubleWord kInv6{0x1.5555555555555p-3, 0x1.5555555555555p-57};
inline constexpr DoubleWord kInv24{0x1.5555555555555p-5, 0x1.5555555555555p-59};
inline constexpr DoubleWord kInv120{0x1.1111111111111p-7, 0x1.1111111111111p-63};
inline constexpr DoubleWord kInv720{0x1.6c16c16c16c17p-10, -0x1.f49f49f49f49fp-65};
inline constexpr DoubleWord kInv5040{0x1.a01a01a01a01ap-13, 0x1.a01a01a01a01ap-73};
inline constexpr DoubleWord kInv40320{0x1.a01a01a01a01ap-16, 0x1.a01a01a01a01ap-76};

// -ln(RN(64/j)) for j = 45 .. 91 as double words. Entry j = 64 is unused
// (c = 1, ln c = 0).
inline constexpr int kLogTableFirst = 45;
inline constexpr int kLogTableLast = 91;

inline constexpr std::array<DoubleWord, kLogTableLast - kLogTableFirst + 1> kLogOfInverse{{
    {-0x1.68ac83e9c6a15p-2, 0x1.acd8a9145ff44p-57},  // j = 45
    {-0x1.522ae0738a3d7p-2, -0x1.3840b263acb43p-56},  // j = 46
    {-0x1.3c25277333183p-2, -0x1.152d81af5713ap-56},  // j = 47
    {-0x1.269621134db91p-2, -0x1.e0efadd9db02ap-56},  // j = 48
    {-0x1.1178e8227e47ap-2, -0x1.b8ce2d07f1cb7p-56},  // j = 49
    {-0x1.f991c6cb3b37ap-3, -0x1.ecca0cdf30143p-58},  // j = 50
    {-0x1.d1037f2655e7bp-3, 0x1.3f3adb7b71cbcp-58},  // j = 51
    {-0x1.a93ed3c8ad9e5p-3, -0x1.bcafa9de97202p-57},  // j = 52
    {-0x1.823c16551a3cp-3, -0x1.6dcd318f4187ep-57},  // j = 53
    {-0x1.5bf406b543dbp-3, 0x1.1f5b44c0df7f7p-61},  // j = 54
    {-0x1.365fcb0159014p-3, -0x1.bea08d2dca256p-57},  // j = 55
    {-0x1.1178e8227e47ap-3, 0x1.0e63a5f01c693p-58},  // j = 56
    {-0x1.da7276384469ep-4, -0x1.401fa71733017p-58},  // j = 57
    {-0x1.9335e5d594988p-4, 0x1.478a85704ccb7p-58},  // j = 58
    {-0x1.4d3115d207eacp-4, -0x1.da7d0b1e10b2fp-60},  // j = 59
    {-0x1.08598b59e3a06p-4, 0x1.dd7009902bf32p-58},  // j = 60
    {-0x1.894aa149fb34bp-5, 0x1.2ba0b44cfaee5p-59},  // j = 61
    {-0x1.0415d89e7444p-5, -0x1.c05cf1d753621p-59},  // j = 62
    {-0x1.0205658935837p-6, -0x1.27c8e8416e717p-60},  // j = 63
    {0x0p+0, 0x0p+0},  // j = 64
    {0x1.fc0a8b0fc03c4p-7, -0x1.83092c5964281p-62},  // j = 65
    {0x1.f829b0e7832f8p-6, 0x1.33e3f04f1ef25p-60},  // j = 66
    {0x1.77458f632dcffp-5, 0x1.8d3ca87b92968p-63},  // j = 67
    {0x1.f0a30c01162a8p-5, 0x1.85f325c5bbacdp-59},  // j = 68
    {0x1.341d7961bd1dp-4, -0x1.3599f227becbbp-58},  // j = 69
    {0x1.6f0d28ae56b4ep-4, -0x1.20db323097324p-59},  // j = 70
    {0x1.a926d3a4ad562p-4, -0x1.d7a16eab1e2adp-59},  // j = 71
    {0x1.e27076e2af2eap-4, -0x1.61578001e015ap-60},  // j = 72
    {0x1.0d77e7cd08e5bp-3, 0x1.9a5dc5e9030adp-57},  // j = 73
    {0x1.29552f81ff521p-3, 0x1.301771c407dcp-57},  // j = 74
    {0x1.44d2b6ccb7d1cp-3, 0x1.7d3d950f87e23p-59},  // j = 75
    {0x1.5ff3070a793d6p-3, -0x1.bc60efafc6f6cp-58},  // j = 76
    {0x1.7ab890210d907p-3, -0x1.1072534a57e7dp-57},  // j = 77
    {0x1.9525a9cf456b6p-3, -0x1.26fb3e2b1d1dap-57},  // j = 78
    {0x1.af3c94e80bff3p-3, 0x1.a3398064df33ep-57},  // j = 79
    {0x1.c8ff7c79a9a2p-3, -0x1.4f689f8434011p-57},  // j = 80
    {0x1.e27076e2af2e8p-3, -0x1.61578001e015ep-59},  // j = 81
    {0x1.fb9186d5e3e29p-3, 0x1.355519b0de535p-57},  // j = 82
    {0x1.0a324e27390e2p-2, 0x1.bdcfde8061c03p-56},  // j = 83
    {0x1.1675cababa60fp-2, 0x1.ce63eab883727p-61},  // j = 84
    {0x1.22941fbcf7966p-2, -0x1.dbd7ac258a2bdp-58},  // j = 85
    {0x1.2e8e2bae11d31p-2, -0x1.1e99b72bd7bf2p-57},  // j = 86
    {0x1.3a64c556945eap-2, 0x1.cbcd735d03424p-60},  // j = 87
    {0x1.4618bc21c5ec2p-2, -0x1.7a42642661c62p-61},  // j = 88
    {0x1.51aad872df82ep-2, -0x1.d8db0a7cc1543p-56},  // j = 89
    {0x1.5d1bdbf5809cap-2, -0x1.7dc9c7c23801fp-56},  // j = 90
    {0x1.686c81e9b14adp-2, 0x1.710af840538e3p-56},  // j = 91
}};

}  // namespace kcs::ref::inputs_detail
