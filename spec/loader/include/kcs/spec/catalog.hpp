// The contract catalog as typed data: what spec/vN/*.yaml says, after the
// loader has checked it (spec/SCHEMA.md is the format, spec/SPEC.md the meaning).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <kcs/dtypes.hpp>
#include <nlohmann/json.hpp>

#include "kcs/spec/diagnostics.hpp"

namespace kcs::spec {

using Json = nlohmann::json;

// The element types the catalog and the adapter ABI know (kcs/dtypes.hpp).
inline const std::vector<std::string>& dtype_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> all;
        for (const auto& f : kDtypes) all.emplace_back(f.name);
        return all;
    }();
    return names;
}

struct Claim {
    std::string id;
    std::vector<std::string> values;
    std::string default_value;
    std::string description;
    // The operators whose behaviour the claim states; empty: every operator.
    // An adapter that declines all of them need not make the claim.
    std::vector<std::string> operators;
};

struct Depth {
    std::string id;
    int seeds = 0;
    bool certifiable = false;
    std::string description;
};

struct Implementation {
    std::string id;
    std::string kind;  // conforming | violating
    std::string description;
};

struct FunctionalTest {
    std::string id;
    std::string check;  // allclose
    double rtol = 0;
    double atol = 0;
    std::string distribution;  // normal(MEAN,STD) | uniform(LO,HI)
    std::string description;
    std::map<std::string, std::vector<long long>> shapes;  // operator id -> shape
    SourceLocation where;
};

struct Generator {
    std::string name;
    std::string description;
};

// One named parameter a class's measurement protocol takes.
struct Parameter {
    std::string name;
    std::string type;  // int | number | string | bool | int_list | number_list | string_list | shape_list
    bool required = false;
    std::string description;
};

struct Signature {
    std::string id;
    std::string text;
    // The evidence that selects it, stated as the probe tests it (the
    // figures it computes and the condition on them); empty where the
    // class does not state it yet.
    std::string selected_when;
};

struct Tolerance {
    std::string model;
    Json params = Json::object();
    std::string derivation;
};

struct ViolatorUse {
    std::string implementation;
    std::string signature;
    std::vector<std::string> operators;
    // The dtype configurations it is calibrated on (config ids such as
    // f32xf32-f32); empty: every configuration of the listed operators.
    std::vector<std::string> configs;
    // The members of a listed family it is calibrated on (function names
    // such as exp); empty: every function. A violation of one function
    // leaves the family's other members conforming.
    std::vector<std::string> functions;
    // Other classes the violation genuinely breaks too, each with why: its
    // FAILs there are not echoes of this class's (calibration's echo check).
    struct AlsoFails {
        std::string class_id;
        std::string why;
    };
    std::vector<AlsoFails> also_fails;
};

struct Calibration {
    std::vector<std::string> conforming;
    std::vector<ViolatorUse> violating;
    std::string functional_test;
};

// A precondition the plan decides from the catalog's data (SCHEMA.md,
// "requires"): where it does not hold, the instance is NOT_APPLICABLE with
// `reason`, in which "{output}" stands for the configuration's output dtype.
struct Requirement {
    std::string condition;               // one of requirement_conditions()
    std::vector<std::string> operators;  // where it applies; empty: the class's whole scope
    std::string reason;
};

// The conditions a requirement may name:
//   accumulator  the dtype configuration declares an accumulate dtype
//   conversion   the operator is cast, or its output dtype is narrower than f32
//   f32_output   the output dtype is f32
inline const std::vector<std::string>& requirement_conditions() {
    static const std::vector<std::string> names{"accumulator", "conversion", "f32_output"};
    return names;
}

struct Operator;
struct DtypeConfig;
// Whether `requirement` holds for one configuration of `op` (true where it
// does not apply to op).
bool requirement_holds(const Requirement& requirement, const Operator& op, const DtypeConfig& config);

struct ContractClass {
    // 1. identifier
    std::string id;
    std::string title;
    std::string family;     // precision | ordering | compiler | exceptional
    std::string primitive;  // path_dependence | domain_violation | resource_contention
    // 2. scope
    std::vector<std::string> scope_operators;
    std::optional<std::string> scope_claim;
    std::string scope_text;
    // 3.-8.
    std::string precondition;
    std::vector<Requirement> requirements;  // the part of the precondition the plan decides
    std::string postcondition;
    Tolerance tolerance;
    std::string reference_oracle;
    std::vector<std::string> measurement_protocol;
    std::vector<Signature> violation_signature;

    std::vector<Parameter> parameters;
    Calibration calibration;
    SourceLocation where;

    const Parameter* parameter(const std::string& name) const;
    const Signature* signature(const std::string& sig_id) const;
};

struct TensorSpec {
    std::string name;
    std::string shape;
    std::string description;
};

struct Attribute {
    std::string name;
    std::string type;  // bool | int | number | string | enum
    std::vector<std::string> values;  // enum only
    std::optional<Json> default_value;
    std::string description;
};

struct Function {
    std::string name;
    int arity = 0;
    std::string definition;
};

struct DtypeConfig {
    std::vector<std::string> inputs;
    std::string output;
    std::optional<std::string> accumulate;

    // "f16xf16-f32": the inputs joined by 'x', a dash, the output.
    std::string id() const;
};

// Parameter values of one (operator, class) pair, one value per depth id.
using DepthValues = std::map<std::string, Json>;
using ContractParameters = std::map<std::string, DepthValues>;

struct Operator {
    std::string id;
    std::string title;
    std::string definition;
    std::vector<TensorSpec> inputs;
    std::vector<TensorSpec> outputs;
    std::vector<Attribute> attributes;
    std::vector<Function> functions;
    std::vector<DtypeConfig> configs;
    std::map<std::string, ContractParameters> contracts;  // class id -> parameters
    SourceLocation where;
};

struct Profile {
    std::string id;
    std::string title;
    std::string description;
    std::map<std::string, std::string> classes;  // class id -> required | if_claimed
    std::map<std::string, std::vector<std::string>> claims;  // claim id -> accepted values
    SourceLocation where;
};

struct Incident {
    std::string id;
    std::string title;
    std::string summary;
    std::vector<std::string> references;
    std::string class_id;
    std::string signature;
    std::string violator;
    std::vector<std::string> operators;
    SourceLocation where;
};

struct Catalog {
    std::filesystem::path root;  // the folder holding catalog.yaml
    std::string spec_version;
    std::string title;
    Generator generator;
    std::vector<Claim> claims;
    std::vector<Depth> depths;
    std::vector<Implementation> implementations;
    std::vector<FunctionalTest> functional_tests;
    std::vector<ContractClass> classes;
    std::vector<Operator> operators;
    std::vector<Profile> profiles;
    std::vector<Incident> incidents;

    const ContractClass* find_class(const std::string& id) const;
    const Operator* find_operator(const std::string& id) const;
    const Profile* find_profile(const std::string& id) const;
    const Incident* find_incident(const std::string& id) const;
    const Claim* find_claim(const std::string& id) const;
    const Depth* find_depth(const std::string& id) const;
    const Implementation* find_implementation(const std::string& id) const;
    const FunctionalTest* find_functional_test(const std::string& id) const;
};

struct LoadResult {
    Catalog catalog;           // as much as could be read; trust it only when ok()
    Diagnostics diagnostics;   // every problem found, in file order

    bool ok() const { return diagnostics.empty(); }
};

// Reads DIR/catalog.yaml and every file it includes, checks the schema and
// every cross-reference, and reports all problems found in one pass.
LoadResult load_catalog(const std::filesystem::path& dir);

// The canonical serialization the digest is taken over (SCHEMA.md, "The digest").
std::string canonical_json(const Catalog& catalog);

// "sha256:" + 64 hex digits over canonical_json(catalog).
std::string catalog_digest(const Catalog& catalog);

}  // namespace kcs::spec
