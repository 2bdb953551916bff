//===- TileFamily.cpp - kernel families: parameters and configurations ----===//
//
// The parts of a tile.kernel that make it a family (docs/design.md,
// "Kernel families"): #tile.param, the params(...) and configs(...) syntax,
// and tile.param. tile-specialize (lib/Dialect/Tile/Transforms) turns a
// family into ordinary kernels.
//
//===----------------------------------------------------------------------===//

#include "TileOpsCommon.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::detail;

//===----------------------------------------------------------------------===//
// #tile.param
//===----------------------------------------------------------------------===//

/// Whether `value` fits the parameter's integer type (i1: 0 or 1).
static bool fitsType(Type type, int64_t value) {
  if (type.isIndex())
    return true;
  unsigned width = type.getIntOrFloatBitWidth();
  if (width == 1)
    return value == 0 || value == 1;
  if (width >= 64)
    return true;
  int64_t bound = int64_t(1) << (width - 1);
  return value >= -bound && value < bound;
}

/// Why `value` is not one a parameter of `type` with these constraints may
/// take (empty: it may).
static std::string explain(Type type, DenseI64ArrayAttr allowed,
                           IntegerAttr multipleOf, int64_t value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (!fitsType(type, value)) {
    os << value << " does not fit its type " << type;
    return text;
  }
  if (allowed && !llvm::is_contained(allowed.asArrayRef(), value)) {
    os << value << " is not one of its values [";
    llvm::interleaveComma(allowed.asArrayRef(), os);
    os << "]";
    return text;
  }
  if (multipleOf && value % multipleOf.getInt() != 0)
    os << value << " is not a multiple of " << multipleOf.getInt();
  return text;
}

std::string ParamAttr::explainRejection(int64_t value) const {
  return explain(getType(), getAllowed(), getMultipleOf(), value);
}

/// Why `value` is not one an element-type parameter allowing `allowed`
/// (any float type when null) may take (empty: it may).
static std::string explainType(ArrayAttr allowed, Type value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (!isa<FloatType>(value) || isa<TypeParamType>(value)) {
    os << value << " is not a floating-point type";
    return text;
  }
  if (allowed && !llvm::is_contained(allowed, TypeAttr::get(value))) {
    os << value << " is not one of its types [";
    llvm::interleaveComma(allowed, os, [&](Attribute type) {
      os << cast<TypeAttr>(type).getValue();
    });
    os << "]";
  }
  return text;
}

std::string ParamAttr::explainRejection(Attribute value) const {
  if (isTypeParam()) {
    auto type = dyn_cast<TypeAttr>(value);
    if (!type)
      return "a type parameter takes a type, not " +
             (value ? std::string("an integer") : std::string("nothing"));
    return explainType(getAllowedTypes(), type.getValue());
  }
  auto integer = dyn_cast_if_present<IntegerAttr>(value);
  if (!integer)
    return "an integer parameter takes an integer, not a type";
  return explainRejection(paramValue(integer));
}

LogicalResult ParamAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                StringAttr name, Type type,
                                IntegerAttr defaultValue,
                                DenseI64ArrayAttr allowed,
                                IntegerAttr multipleOf, TypeAttr defaultType,
                                ArrayAttr allowedTypes) {
  if (!name || name.getValue().empty())
    return emitError() << "a parameter needs a name";
  StringRef text = name.getValue();
  // The name becomes part of kernel symbols and of C++ launchers.
  if (!llvm::all_of(text,
                    [](char c) { return llvm::isAlnum(c) || c == '_'; }) ||
      llvm::isDigit(text.front()))
    return emitError() << "parameter name '" << text
                       << "' must be an identifier (letters, digits, '_', "
                          "not starting with a digit)";
  if (isa<NoneType>(type)) {
    // An element-type parameter.
    if (defaultValue || allowed || multipleOf)
      return emitError() << "type parameter " << text
                         << " takes types, not integers";
    if (allowedTypes) {
      if (allowedTypes.empty())
        return emitError() << "parameter " << text
                           << " lists no types: drop `in []` or name some";
      for (Attribute entry : allowedTypes) {
        auto listed = dyn_cast<TypeAttr>(entry);
        if (!listed)
          return emitError() << "parameter " << text << " lists " << entry
                             << ", which is not a type";
        if (std::string why = explainType({}, listed.getValue()); !why.empty())
          return emitError() << "parameter " << text << " lists a type it "
                             << "cannot take: " << why;
      }
    }
    if (defaultType)
      if (std::string why = explainType(allowedTypes, defaultType.getValue());
          !why.empty())
        return emitError() << "parameter " << text << " has a default it "
                           << "cannot take: " << why;
    return success();
  }
  if (defaultType || allowedTypes)
    return emitError() << "integer parameter " << text
                       << " takes integers, not types";
  if (!type.isIndex() && !type.isSignlessInteger())
    return emitError() << "parameter " << text
                       << " must be an integer (index, iN; i1 for a flag) or "
                          "`type`, got "
                       << type;
  if (multipleOf && multipleOf.getInt() < 1)
    return emitError() << "parameter " << text
                       << " expects a positive multiple_of, got "
                       << multipleOf.getInt();
  if (allowed) {
    if (allowed.empty())
      return emitError() << "parameter " << text
                         << " lists no values: drop `in []` or name some";
    for (int64_t value : allowed.asArrayRef())
      if (std::string why = explain(type, {}, multipleOf, value); !why.empty())
        return emitError() << "parameter " << text << " lists a value it "
                           << "cannot take: " << why;
  }
  if (defaultValue) {
    if (defaultValue.getType() != type)
      return emitError() << "parameter " << text << " of type " << type
                         << " has a default of type " << defaultValue.getType();
    if (std::string why =
            explain(type, allowed, multipleOf, paramValue(defaultValue));
        !why.empty())
      return emitError() << "parameter " << text << " has a default it cannot "
                         << "take: " << why;
  }
  return success();
}

/// A parameter's value as an integer (i1 as 0 or 1).
int64_t mlir::tile::paramValue(IntegerAttr value) {
  if (value.getType().isInteger(1))
    return value.getValue().getZExtValue();
  return value.getInt();
}

//===----------------------------------------------------------------------===//
// params(...) and configs(...)
//===----------------------------------------------------------------------===//

/// An integer, or `true` / `false` for a flag.
static ParseResult parseParamValue(OpAsmParser &parser, int64_t &value) {
  if (succeeded(parser.parseOptionalKeyword("true"))) {
    value = 1;
    return success();
  }
  if (succeeded(parser.parseOptionalKeyword("false"))) {
    value = 0;
    return success();
  }
  return parser.parseInteger(value);
}

static void printParamValue(OpAsmPrinter &p, IntegerAttr value) {
  if (value.getType().isInteger(1))
    p << (value.getValue().isZero() ? "false" : "true");
  else
    p << value.getInt();
}

/// Builds an IntegerAttr of `type`, refusing values that do not fit it.
static IntegerAttr parsedValueAttr(OpAsmParser &parser, SMLoc loc, Type type,
                                  StringRef name, int64_t value) {
  if (!fitsType(type, value)) {
    parser.emitError(loc) << "value " << value << " of parameter " << name
                          << " does not fit its type " << type;
    return {};
  }
  return mlir::tile::paramValueAttr(type, value);
}

ParseResult mlir::tile::detail::parseKernelParams(OpAsmParser &parser,
                                                  ArrayAttr &params) {
  MLIRContext *ctx = parser.getContext();
  SmallVector<Attribute> decls;
  auto parseOne = [&]() -> ParseResult {
    std::string name;
    Type type;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeywordOrString(&name) || parser.parseColon())
      return failure();
    auto emit = [&] { return parser.emitError(loc); };
    // `T: type = f32 in [f32, bf16]`: an element-type parameter.
    if (succeeded(parser.parseOptionalKeyword("type"))) {
      TypeAttr defaultType;
      ArrayAttr allowedTypes;
      Type value;
      if (succeeded(parser.parseOptionalEqual())) {
        if (parser.parseType(value))
          return failure();
        defaultType = TypeAttr::get(value);
      }
      if (succeeded(parser.parseOptionalKeyword("in"))) {
        SmallVector<Attribute> types;
        if (parser.parseCommaSeparatedList(
                OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
                  if (parser.parseType(value))
                    return failure();
                  types.push_back(TypeAttr::get(value));
                  return success();
                }))
          return failure();
        allowedTypes = ArrayAttr::get(ctx, types);
      }
      ParamAttr decl = ParamAttr::getChecked(
          emit, ctx, StringAttr::get(ctx, name), Type(NoneType::get(ctx)),
          IntegerAttr(), DenseI64ArrayAttr(), IntegerAttr(), defaultType,
          allowedTypes);
      if (!decl)
        return failure();
      decls.push_back(decl);
      return success();
    }
    if (parser.parseType(type))
      return failure();
    if (!type.isIndex() && !type.isSignlessInteger())
      return parser.emitError(loc)
             << "parameter " << name
             << " must be an integer (index, iN; i1 for a flag), got " << type;
    IntegerAttr defaultValue, multipleOf;
    DenseI64ArrayAttr allowed;
    if (succeeded(parser.parseOptionalEqual())) {
      int64_t value;
      SMLoc valueLoc = parser.getCurrentLocation();
      if (parseParamValue(parser, value))
        return failure();
      defaultValue = parsedValueAttr(parser, valueLoc, type, name, value);
      if (!defaultValue)
        return failure();
    }
    if (succeeded(parser.parseOptionalKeyword("in"))) {
      SmallVector<int64_t> values;
      if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&]() {
            return parseParamValue(parser, values.emplace_back());
          }))
        return failure();
      allowed = DenseI64ArrayAttr::get(ctx, values);
    }
    if (succeeded(parser.parseOptionalKeyword("multiple_of"))) {
      int64_t divisor;
      if (parser.parseInteger(divisor))
        return failure();
      multipleOf = IntegerAttr::get(IntegerType::get(ctx, 64), divisor);
    }
    ParamAttr decl = ParamAttr::getChecked(
        emit, ctx, StringAttr::get(ctx, name), type, defaultValue, allowed,
        multipleOf, TypeAttr(), ArrayAttr());
    if (!decl)
      return failure();
    decls.push_back(decl);
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren, parseOne))
    return failure();
  params = ArrayAttr::get(ctx, decls);
  return success();
}

void mlir::tile::detail::printKernelParams(OpAsmPrinter &p, ArrayAttr params) {
  p << "(";
  llvm::interleaveComma(params.getAsRange<ParamAttr>(), p, [&](ParamAttr decl) {
    if (decl.isTypeParam()) {
      p << decl.getName().getValue() << ": type";
      if (TypeAttr value = decl.getDefaultType())
        p << " = " << value.getValue();
      if (ArrayAttr types = decl.getAllowedTypes()) {
        p << " in [";
        llvm::interleaveComma(types, p, [&](Attribute type) {
          p << cast<TypeAttr>(type).getValue();
        });
        p << "]";
      }
      return;
    }
    p << decl.getName().getValue() << ": " << decl.getType();
    if (IntegerAttr value = decl.getDefaultValue()) {
      p << " = ";
      printParamValue(p, value);
    }
    if (DenseI64ArrayAttr allowed = decl.getAllowed()) {
      p << " in [";
      if (decl.getType().isInteger(1))
        llvm::interleaveComma(allowed.asArrayRef(), p,
                              [&](int64_t v) { p << (v ? "true" : "false"); });
      else
        llvm::interleaveComma(allowed.asArrayRef(), p);
      p << "]";
    }
    if (IntegerAttr divisor = decl.getMultipleOf())
      p << " multiple_of " << divisor.getInt();
  });
  p << ")";
}

ParseResult mlir::tile::detail::parseKernelConfigs(OpAsmParser &parser,
                                                   ArrayAttr params,
                                                   ArrayAttr &configs) {
  MLIRContext *ctx = parser.getContext();
  SmallVector<Attribute> list;
  auto parseConfig = [&]() -> ParseResult {
    NamedAttrList values;
    auto parseValue = [&]() -> ParseResult {
      std::string name;
      SMLoc loc = parser.getCurrentLocation();
      if (parser.parseKeywordOrString(&name) || parser.parseEqual())
        return failure();
      ParamAttr decl;
      if (params)
        for (ParamAttr candidate : params.getAsRange<ParamAttr>())
          if (candidate.getName().getValue() == name)
            decl = candidate;
      if (!decl)
        return parser.emitError(loc)
               << "configuration sets " << name
               << ", which is not a parameter of the kernel (declare it in "
                  "params(...) first)";
      Attribute attr;
      if (decl.isTypeParam()) {
        Type type;
        if (parser.parseType(type))
          return failure();
        attr = TypeAttr::get(type);
      } else {
        int64_t value;
        if (parseParamValue(parser, value))
          return failure();
        attr = parsedValueAttr(parser, loc, decl.getType(), name, value);
        if (!attr)
          return failure();
      }
      if (values.get(name))
        return parser.emitError(loc)
               << "configuration sets " << name << " twice";
      values.set(name, attr);
      return success();
    };
    if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square,
                                       parseValue))
      return failure();
    list.push_back(values.getDictionary(ctx));
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren,
                                     parseConfig))
    return failure();
  configs = ArrayAttr::get(ctx, list);
  return success();
}

void mlir::tile::detail::printKernelConfigs(OpAsmPrinter &p, ArrayAttr params,
                                            ArrayAttr configs) {
  p << "(";
  llvm::interleaveComma(
      configs.getAsRange<DictionaryAttr>(), p, [&](DictionaryAttr config) {
        p << "[";
        // In declaration order, as written.
        bool first = true;
        for (ParamAttr decl : params.getAsRange<ParamAttr>()) {
          Attribute value = config.get(decl.getName());
          if (!value)
            continue;
          if (!first)
            p << ", ";
          first = false;
          p << decl.getName().getValue() << " = ";
          if (auto type = dyn_cast<TypeAttr>(value))
            p << type.getValue();
          else
            printParamValue(p, cast<IntegerAttr>(value));
        }
        p << "]";
      });
  p << ")";
}

//===----------------------------------------------------------------------===//
// Kernel queries and rules
//===----------------------------------------------------------------------===//

Attribute mlir::tile::paramValueFromText(ParamAttr decl, StringRef text) {
  if (decl.isTypeParam()) {
    if (Type type = parseType(text, decl.getContext(), nullptr,
                              /*isKnownNullTerminated=*/false))
      return TypeAttr::get(type);
    return {};
  }
  int64_t value = 0;
  bool parsed = text == "true" || text == "false"
                    ? (value = text == "true", true)
                    : !text.getAsInteger(0, value);
  if (!parsed || !fitsType(decl.getType(), value))
    return {};
  return paramValueAttr(decl.getType(), value);
}

LogicalResult mlir::tile::setKernelConfigs(
    KernelOp kernel,
    ArrayRef<std::vector<std::pair<std::string, std::string>>> configs,
    bool append, function_ref<std::string(size_t)> origin) {
  ArrayAttr params = kernel.getParamsAttr();
  if (!params || params.empty())
    return kernel.emitOpError("is given configurations (")
           << origin(0) << ") but declares no parameters";
  // Every parameter's value in `config`, defaults counted: two
  // configurations with the same values are one kernel.
  auto effective = [&](DictionaryAttr config) {
    SmallVector<Attribute> values;
    for (ParamAttr decl : params.getAsRange<ParamAttr>()) {
      Attribute value = config.get(decl.getName());
      if (!value)
        value = decl.isTypeParam() ? Attribute(decl.getDefaultType())
                                   : Attribute(decl.getDefaultValue());
      values.push_back(value);
    }
    return values;
  };
  SmallVector<Attribute> list;
  SmallVector<SmallVector<Attribute>> seen;
  if (append && kernel.getConfigsAttr())
    for (DictionaryAttr config :
         kernel.getConfigsAttr().getAsRange<DictionaryAttr>()) {
      list.push_back(config);
      seen.push_back(effective(config));
    }
  for (auto [i, config] : llvm::enumerate(configs)) {
    NamedAttrList entries;
    for (const auto &[name, text] : config) {
      if (entries.get(name))
        return kernel.emitOpError("is given ")
               << name << " twice in one configuration (" << origin(i) << ")";
      ParamAttr decl = kernel.lookupParam(name);
      if (!decl)
        return kernel.emitOpError("has no parameter ")
               << name << " (" << origin(i) << ")";
      Attribute value = paramValueFromText(decl, text);
      std::string why =
          value ? decl.explainRejection(value)
                : "it is not " + std::string(decl.isTypeParam()
                                                 ? "a type"
                                                 : "an integer of its type");
      if (!why.empty())
        return kernel.emitOpError("cannot take ")
               << name << " = " << text << " (" << origin(i) << "): " << why;
      entries.set(StringAttr::get(kernel.getContext(), name), value);
    }
    DictionaryAttr dict = entries.getDictionary(kernel.getContext());
    for (ParamAttr decl : params.getAsRange<ParamAttr>())
      if (!decl.getDefaultValue() && !decl.getDefaultType() &&
          !dict.get(decl.getName()))
        return kernel.emitOpError("parameter ")
               << decl.getName().getValue() << " has no default and no value ("
               << origin(i) << ")";
    SmallVector<Attribute> values = effective(dict);
    if (llvm::is_contained(seen, values))
      continue;
    seen.push_back(values);
    list.push_back(dict);
  }
  kernel.setConfigsAttr(ArrayAttr::get(kernel.getContext(), list));
  return success();
}

ParamAttr KernelOp::lookupParam(StringRef name) {
  if (ArrayAttr params = getParamsAttr())
    for (ParamAttr decl : params.getAsRange<ParamAttr>())
      if (decl.getName().getValue() == name)
        return decl;
  return {};
}

bool KernelOp::isFamily() {
  if (getParamsAttr() && !getParamsAttr().empty())
    return true;
  return walk([](ParamOp) { return WalkResult::interrupt(); }).wasInterrupted();
}

LogicalResult mlir::tile::detail::verifyKernelFamily(KernelOp kernel) {
  ArrayAttr params = kernel.getParamsAttr();
  llvm::StringSet<> names;
  if (params)
    for (ParamAttr decl : params.getAsRange<ParamAttr>())
      if (!names.insert(decl.getName().getValue()).second)
        return kernel.emitOpError("declares parameter ")
               << decl.getName().getValue() << " twice";
  if (std::optional<StringRef> name = kernel.getThreadsParam())
    if (failed(verifyClauseParam(kernel, kernel, "threads", *name,
                                 /*flag=*/false)))
      return failure();
  if (ArrayAttr names = kernel.getClusterParamsAttr())
    for (StringRef name : names.getAsValueRange<StringAttr>())
      if (!name.empty() && failed(verifyClauseParam(kernel, kernel, "cluster",
                                                    name, /*flag=*/false)))
        return failure();
  if (ArrayAttr configs = kernel.getConfigsAttr()) {
    if (!params || params.empty())
      return kernel.emitOpError("lists configurations but declares no "
                                "parameters");
    for (auto [i, config] :
         llvm::enumerate(configs.getAsRange<DictionaryAttr>())) {
      for (NamedAttribute value : config) {
        ParamAttr decl = kernel.lookupParam(value.getName());
        if (!decl)
          return kernel.emitOpError("configuration ")
                 << i << " sets " << value.getName().getValue()
                 << ", which is not a parameter of the kernel";
        if (std::string why = decl.explainRejection(value.getValue());
            !why.empty()) {
          InFlightDiagnostic diag = kernel.emitOpError("configuration ")
                                    << i << " sets "
                                    << value.getName().getValue() << " = ";
          if (auto integer = dyn_cast<IntegerAttr>(value.getValue()))
            diag << paramValue(integer);
          else
            diag << value.getValue();
          return diag << ", but " << why;
        }
      }
      for (ParamAttr decl : params.getAsRange<ParamAttr>())
        if (!decl.getDefaultValue() && !decl.getDefaultType() &&
            !config.get(decl.getName()))
          return kernel.emitOpError("configuration ")
                 << i << " sets no value for " << decl.getName().getValue()
                 << ", which has no default; set it in every configuration "
                    "or give it a default";
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// tile.param
//===----------------------------------------------------------------------===//

LogicalResult ParamOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (!kernel)
    return emitOpError("must be nested in a 'tile.kernel' that declares ")
           << getName() << " (a helper takes the value as an argument)";
  ParamAttr decl = kernel.lookupParam(getName());
  if (!decl)
    return emitOpError("reads parameter ")
           << getName() << ", which kernel @" << kernel.getSymName()
           << " does not declare; declare it in params(...)";
  if (decl.isTypeParam())
    return emitOpError("reads type parameter ")
           << getName() << " as a value; write the type as "
           << "!tile.type_param<\"" << getName() << "\", ...>";
  if (decl.getType() != getType())
    return emitOpError("reads parameter ")
           << getName() << " of type " << decl.getType() << " as " << getType()
           << "; write `: " << decl.getType() << "`";
  return success();
}

LogicalResult mlir::tile::detail::verifyClauseParam(Operation *op,
                                                    KernelOp kernel,
                                                    StringRef clause,
                                                    StringRef name, bool flag) {
  ParamAttr decl = kernel ? kernel.lookupParam(name) : ParamAttr();
  if (!decl)
    return op->emitOpError("takes ")
           << clause << "(" << name << ") but "
           << (kernel && op == kernel.getOperation() ? "declares" :
                                           "the enclosing kernel declares")
           << " no parameter " << name << "; declare it in params(...)";
  bool isFlag = !decl.isTypeParam() && decl.getType().isInteger(1);
  if (!decl.isTypeParam() && isFlag == flag)
    return success();
  InFlightDiagnostic diag = op->emitOpError("takes ")
                            << clause << "(" << name << "), but parameter "
                            << name << " is ";
  if (decl.isTypeParam())
    diag << "an element type";
  else
    diag << "of type " << decl.getType();
  return diag << "; " << clause << " takes "
              << (flag ? "a flag (i1)" : "an integer (index or iN, not i1)");
}

bool mlir::tile::hasParameterizedShape(Operation *op, Type type) {
  return op->getParentOfType<KernelOp>() && hasParameterizedShape(type);
}

bool mlir::tile::hasParameterizedShape(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || shaped.hasStaticShape())
    return false;
  MemorySpace space = getMemorySpace(type);
  return space == MemorySpace::Fragment || space == MemorySpace::Shared;
}

//===----------------------------------------------------------------------===//
// !tile.type_param
//===----------------------------------------------------------------------===//

IntegerAttr mlir::tile::paramValueAttr(Type type, int64_t value) {
  if (type.isInteger(1))
    return IntegerAttr::get(type, APInt(1, value));
  return IntegerAttr::get(type, value);
}

bool mlir::tile::containsTypeParam(Type type) {
  bool found = false;
  type.walk([&](TypeParamType) { found = true; });
  return found;
}

Type mlir::tile::detail::verifiedAs(Type type) {
  if (auto param = dyn_cast<TypeParamType>(type))
    return param.getStandsFor();
  return type;
}

const llvm::fltSemantics &TypeParamType::getFloatSemantics() const {
  return getStandsFor().getFloatSemantics();
}
