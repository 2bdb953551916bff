//===- Specialize.cpp - kernel families to ordinary kernels ---------------===//
//
// tile-specialize: inlines helper calls, then turns every kernel family
// (a tile.kernel with params) into the kernels of its configurations, with
// static shapes, so that no later pass knows families exist. See the pass
// description (Passes.td) and docs/design.md, "Kernel families".
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILESPECIALIZE
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
/// Every parameter's value for one kernel of a family, in declaration order.
/// (An IntegerAttr of the parameter's type, or a TypeAttr for a type
/// parameter.)
using Assignment = SmallVector<std::pair<ParamAttr, Attribute>>;

/// Helpers calling helpers are inlined this deep at most (deeper: a cycle).
constexpr int kMaxHelperDepth = 64;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Replaces `call` with the body of its helper.
LogicalResult inlineHelper(func::CallOp call, SymbolTable &symbols) {
  auto helper = symbols.lookup<func::FuncOp>(call.getCallee());
  if (!helper)
    return call.emitOpError("calls @")
           << call.getCallee()
           << ", which is not a func.func of the module (a helper)";
  if (helper.isExternal())
    return call.emitOpError("calls helper @")
           << call.getCallee() << ", which has no body to inline";
  if (!llvm::hasSingleElement(helper.getBody()))
    return call.emitOpError("calls helper @")
           << call.getCallee()
           << ", which has several blocks; write its control flow with scf "
              "ops so that it inlines into a kernel body";
  Block &body = helper.getBody().front();
  IRMapping mapping;
  mapping.map(body.getArguments(), call.getOperands());
  OpBuilder b(call);
  for (Operation &op : body.without_terminator())
    b.clone(op, mapping);
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  for (auto [result, value] :
       llvm::zip_equal(call.getResults(), ret.getOperands()))
    result.replaceAllUsesWith(mapping.lookupOrDefault(value));
  call.erase();
  return success();
}

/// Inlines every helper call in the kernels, helpers calling helpers too.
LogicalResult inlineHelpers(ModuleOp module) {
  SymbolTable symbols(module);
  for (auto kernel : module.getOps<KernelOp>()) {
    for (int depth = 0;; ++depth) {
      SmallVector<func::CallOp> calls;
      kernel.walk([&](func::CallOp call) { calls.push_back(call); });
      if (calls.empty())
        break;
      if (depth == kMaxHelperDepth)
        return calls.front().emitOpError("calls helpers ")
               << kMaxHelperDepth
               << " deep: a helper calls itself, directly or through others";
      for (func::CallOp call : calls)
        if (failed(inlineHelper(call, symbols)))
          return failure();
    }
  }
  // Private helpers have served their purpose; kernels do not call public
  // functions any more either, but those stay for whoever else does.
  for (auto helper : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (helper.isPrivate() && SymbolTable::symbolKnownUseEmpty(helper, module))
      helper.erase();
  return success();
}

//===----------------------------------------------------------------------===//
// Specialisation
//===----------------------------------------------------------------------===//

/// A parameter's value as written: an integer (a flag as 0 or 1) or a type.
std::string valueText(Attribute value) {
  if (auto integer = dyn_cast<IntegerAttr>(value))
    return std::to_string(paramValue(integer));
  std::string text;
  llvm::raw_string_ostream os(text);
  os << cast<TypeAttr>(value).getValue();
  return text;
}

std::string formatAssignment(const Assignment &values) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "[";
  llvm::interleaveComma(values, os, [&](const auto &entry) {
    os << entry.first.getName().getValue() << " = " << valueText(entry.second);
  });
  os << "]";
  return text;
}

/// `<kernel>__<NAME><value>_...`: a C identifier, one per configuration (a
/// negative value as m<abs>, a type as its name: `T` bf16 is `Tbf16`).
std::string mangle(StringRef kernel, const Assignment &values) {
  std::string name = (kernel + "__").str();
  for (auto [i, entry] : llvm::enumerate(values)) {
    if (i)
      name += "_";
    name += entry.first.getName().getValue();
    std::string text = valueText(entry.second);
    if (!text.empty() && text[0] == '-')
      text = "m" + text.substr(1);
    for (char c : text)
      name += llvm::isAlnum(c) ? c : '_';
  }
  return name;
}

/// Each parameter's value: `overrides`, else the default. Fails with a
/// located error on a missing or disallowed value.
FailureOr<Assignment> assign(KernelOp kernel,
                             function_ref<Attribute(ParamAttr)> overrides,
                             StringRef source) {
  Assignment values;
  SmallVector<StringRef> missing;
  for (ParamAttr decl : kernel.getParamsAttr().getAsRange<ParamAttr>()) {
    Attribute value = overrides(decl);
    if (!value)
      value = decl.isTypeParam() ? Attribute(decl.getDefaultType())
                                 : Attribute(decl.getDefaultValue());
    if (!value) {
      missing.push_back(decl.getName().getValue());
      continue;
    }
    if (std::string why = decl.explainRejection(value); !why.empty())
      return kernel.emitOpError("cannot take ")
             << decl.getName().getValue() << " = " << valueText(value) << " ("
             << source << "): " << why;
    values.push_back({decl, value});
  }
  if (!missing.empty()) {
    InFlightDiagnostic diag =
        kernel.emitOpError("has parameters without a value (")
        << source << "): ";
    llvm::interleaveComma(missing, diag);
    diag << "; give them defaults, list configurations, or pass them to "
            "tile-specialize as values=NAME=VALUE,...";
    return failure();
  }
  return values;
}

/// Canonicalisation of the ops in `ops` and of those it creates: folds
/// what depends on parameters without touching the rest of the kernel.
LogicalResult foldOps(ArrayRef<Operation *> ops,
                      const FrozenRewritePatternSet &patterns) {
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  return applyOpPatternsGreedily(ops, patterns, config);
}

/// The ops that use `values`, transitively through their results (an
/// scf.if on a flag uses the flag itself).
SmallVector<Operation *> usersOf(ArrayRef<Value> values) {
  SetVector<Operation *> users;
  SmallVector<Value> worklist(values);
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers())
      if (users.insert(user))
        llvm::append_range(worklist, user->getResults());
  }
  return users.takeVector();
}

/// Gives `alloc` the static type its constant sizes say.
template <typename AllocOp>
LogicalResult makeStatic(AllocOp alloc, ShapedType type,
                         function_ref<Type(ArrayRef<int64_t>)> build) {
  SmallVector<int64_t> shape(type.getShape());
  unsigned next = 0;
  for (int64_t &dim : shape) {
    if (!ShapedType::isDynamic(dim))
      continue;
    Value size = alloc.getSizes()[next++];
    std::optional<int64_t> value = getConstantIntValue(size);
    if (!value)
      return alloc.emitOpError("has a size that is not a compile-time "
                               "constant after specialisation (dimension ")
             << next - 1
             << "); size tiles with parameters and arithmetic on them only";
    if (*value < 1)
      return alloc.emitOpError("gets a size of ")
             << *value << " for its `?` dimension " << next - 1
             << " in this configuration; sizes must be positive";
    dim = *value;
  }
  Type refined = build(shape);
  if (!refined)
    return failure();
  alloc.getSizesMutable().clear();
  Value(alloc.getResult()).setType(refined);
  return success();
}

/// Gives the views of a refined shared tile (memref.subview, through views
/// of views) the types their static source and constant operands say.
/// A view's type must be the one its source implies, so a `?` stride left
/// in place would not verify; and the copy lowerings need the static
/// strides to see a contiguous tile (a row of a parameter-sized buffer).
void refineViews(Value tile) {
  // Users that take a view of any static type: tile ops, views, sizes.
  auto takesAnyType = [](Operation *op) {
    return isa<TileDialect>(op->getDialect()) ||
           isa<memref::SubViewOp, memref::DimOp>(op);
  };
  SmallVector<Value> worklist{tile};
  while (!worklist.empty()) {
    Value source = worklist.pop_back_val();
    for (Operation *user : llvm::make_early_inc_range(source.getUsers())) {
      // A cast back to the `?` type that folding a view's constant sizes
      // left goes when its users take the static view itself.
      if (auto cast = dyn_cast<memref::CastOp>(user);
          cast && llvm::all_of(cast->getUsers(), takesAnyType)) {
        cast.getResult().replaceAllUsesWith(source);
        cast.erase();
        worklist.push_back(source);
        continue;
      }
      auto view = dyn_cast<memref::SubViewOp>(user);
      if (!view || view.getSource() != source)
        continue;
      auto folded = [](SmallVector<OpFoldResult> mixed) {
        for (OpFoldResult &entry : mixed)
          if (auto value = dyn_cast<Value>(entry))
            entry = getAsOpFoldResult(value);
        return mixed;
      };
      SmallVector<OpFoldResult> offsets = folded(view.getMixedOffsets());
      SmallVector<OpFoldResult> sizes = folded(view.getMixedSizes());
      SmallVector<OpFoldResult> strides = folded(view.getMixedStrides());
      llvm::SmallBitVector dropped = view.getDroppedDims();
      SmallVector<int64_t> shape;
      for (auto [dim, size] : llvm::enumerate(sizes))
        if (!dropped.test(dim))
          shape.push_back(
              getConstantIntValue(size).value_or(ShapedType::kDynamic));
      MemRefType type = memref::SubViewOp::inferRankReducedResultType(
          shape, view.getSourceType(), offsets, sizes, strides);
      OpBuilder builder(view);
      auto refined = memref::SubViewOp::create(builder, view.getLoc(), type,
                                               source, offsets, sizes, strides);
      view.getResult().replaceAllUsesWith(refined.getResult());
      view.erase();
      worklist.push_back(refined.getResult());
    }
  }
}

/// Gives every allocation with `?` dimensions the static type its folded
/// sizes say, and its views theirs; what read the sizes (memref.dim) then
/// folds too.
LogicalResult refineAllocations(KernelOp kernel,
                                const FrozenRewritePatternSet &patterns) {
  MLIRContext *ctx = kernel.getContext();
  SmallVector<Value> refined, sharedTiles;
  WalkResult walked = kernel.walk([&](Operation *op) {
    LogicalResult result = success();
    if (auto alloc = dyn_cast<AllocSharedOp>(op);
        alloc && !alloc.getSizes().empty()) {
      auto type = cast<MemRefType>(alloc.getType());
      result = makeStatic(alloc, type, [&](ArrayRef<int64_t> shape) -> Type {
        return MemRefType::getChecked([&] { return alloc.emitOpError(); },
                                      shape, type.getElementType(),
                                      type.getLayout(), type.getMemorySpace());
      });
      refined.push_back(alloc.getResult());
      sharedTiles.push_back(alloc.getResult());
    } else if (auto alloc = dyn_cast<AllocFragmentOp>(op);
               alloc && !alloc.getSizes().empty()) {
      FragmentType type = alloc.getType();
      result = makeStatic(alloc, type, [&](ArrayRef<int64_t> shape) -> Type {
        return FragmentType::getChecked([&] { return alloc.emitOpError(); },
                                        ctx, shape, type.getElementType(),
                                        type.getLayout());
      });
      refined.push_back(alloc.getResult());
    }
    return failed(result) ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (walked.wasInterrupted())
    return failure();
  for (Value tile : sharedTiles)
    refineViews(tile);
  if (!refined.empty())
    (void)foldOps(usersOf(refined), patterns);
  return success();
}

// Element-type parameters: every !tile.type_param of `kernel` becomes its
// type in `types`, and float constants of it are converted to that type's
// semantics; one left (undeclared) is an error.
static LogicalResult substituteTypeParams(KernelOp kernel,
                                         const llvm::StringMap<Type> &types) {
  if (!types.empty()) {
    AttrTypeReplacer replacer;
    replacer.addReplacement([&](TypeParamType param) -> std::optional<Type> {
      auto it = types.find(param.getName());
      if (it != types.end())
        return it->second;
      return std::nullopt;
    });
    replacer.addReplacement([&](FloatAttr attr) -> std::optional<Attribute> {
      auto param = dyn_cast<TypeParamType>(attr.getType());
      if (!param)
        return std::nullopt;
      auto it = types.find(param.getName());
      if (it == types.end())
        return std::nullopt;
      auto type = cast<FloatType>(it->second);
      APFloat value = attr.getValue();
      bool lost = false;
      value.convert(type.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &lost);
      return FloatAttr::get(type, value);
    });
    replacer.recursivelyReplaceElementsIn(kernel, /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
  }
  {
    WalkResult leftover = kernel.walk([&](Operation *op) {
      bool found = llvm::any_of(op->getResultTypes(), containsTypeParam);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          found |= llvm::any_of(block.getArgumentTypes(), containsTypeParam);
      if (!found)
        return WalkResult::advance();
      op->emitOpError("uses a type parameter that kernel @")
          << kernel.getSymName()
          << " does not declare as `NAME: type` in params(...)";
      return WalkResult::interrupt();
    });
    if (leftover.wasInterrupted())
      return failure();
  }

  return success();
}

/// Specialises `kernel` in place to `values`.
LogicalResult specialize(KernelOp kernel, const Assignment &values,
                         StringRef family,
                         const FrozenRewritePatternSet &patterns) {
  MLIRContext *ctx = kernel.getContext();
  llvm::StringMap<IntegerAttr> integers;
  llvm::StringMap<Type> types;
  SmallVector<NamedAttribute> config;
  for (auto [decl, value] : values) {
    if (auto type = dyn_cast<TypeAttr>(value))
      types[decl.getName().getValue()] = type.getValue();
    else
      integers[decl.getName().getValue()] = cast<IntegerAttr>(value);
    config.push_back({decl.getName(), value});
  }
  // threads(NAME), cluster(.., NAME, ..), stages(NAME) and pingpong(NAME)
  // name declared integer parameters (the verifiers check it).
  auto i32Value = [&](StringRef name) {
    IntegerAttr value = integers.lookup(name);
    return static_cast<int32_t>(std::clamp<int64_t>(
        value ? paramValue(value) : 0, INT32_MIN, INT32_MAX));
  };

  if (failed(substituteTypeParams(kernel, types)))
    return failure();

  if (std::optional<StringRef> name = kernel.getThreadsParam()) {
    kernel.setThreads(i32Value(*name));
    kernel.removeThreadsParamAttr();
  }
  if (ArrayAttr names = kernel.getClusterParamsAttr()) {
    SmallVector<int32_t> dims(*kernel.getCluster());
    for (auto [dim, name] :
         llvm::zip(dims, names.getAsValueRange<StringAttr>()))
      if (!name.empty())
        dim = i32Value(name);
    kernel.setCluster(dims);
    kernel.removeClusterParamsAttr();
    // A configuration of one CTA per cluster has no one to share a tile
    // with: its {multicast} copies are plain loads (so that one family
    // body serves both), and unless an op works at cluster level it is
    // launched without clusters.
    if (kernel.getClusterSize() == 1) {
      kernel.walk([](CopyOp copy) { copy.setMulticast(false); });
      bool clusterLevel = kernel
                              .walk([](Operation *op) {
                                auto level =
                                    op->getAttrOfType<LevelAttr>("level");
                                return level &&
                                               level.getValue() ==
                                                   Level::cluster
                                           ? WalkResult::interrupt()
                                           : WalkResult::advance();
                              })
                              .wasInterrupted();
      if (!clusterLevel)
        kernel.removeClusterAttr();
    }
  }
  kernel.walk([&](PipelinedForOp loop) {
    if (std::optional<StringRef> name = loop.getStagesParam()) {
      loop.setStages(i32Value(*name));
      loop.removeStagesParamAttr();
    }
    if (std::optional<StringRef> name = loop.getPingpongParam()) {
      loop.setPingpong(i32Value(*name) != 0);
      loop.removePingpongParamAttr();
    }
  });

  SmallVector<Value> constants;
  SmallVector<ParamOp> reads;
  kernel.walk([&](ParamOp read) { reads.push_back(read); });
  for (ParamOp read : reads) {
    OpBuilder b(read);
    Value constant = arith::ConstantOp::create(b, read.getLoc(),
                                               integers.lookup(read.getName()));
    read.replaceAllUsesWith(constant);
    read.erase();
    constants.push_back(constant);
  }
  SmallVector<Operation *> folded = usersOf(constants);
  for (Value constant : constants)
    folded.push_back(constant.getDefiningOp());
  (void)foldOps(folded, patterns);

  if (failed(refineAllocations(kernel, patterns)))
    return failure();

  kernel.removeParamsAttr();
  kernel.removeConfigsAttr();
  TileDialect::FamilyAttrHelper(ctx).setAttr(kernel,
                                             StringAttr::get(ctx, family));
  TileDialect::ConfigAttrHelper(ctx).setAttr(kernel,
                                             DictionaryAttr::get(ctx, config));
  return verify(kernel);
}

struct TileSpecializePass : tile::impl::TileSpecializeBase<TileSpecializePass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    // The canonicalisation patterns of every loaded op, as the
    // canonicalizer has them; applied only to what parameters reach.
    RewritePatternSet set(ctx);
    for (Dialect *dialect : ctx->getLoadedDialects())
      dialect->getCanonicalizationPatterns(set);
    for (RegisteredOperationName op : ctx->getRegisteredOperations())
      op.getCanonicalizationPatterns(set, ctx);
    patterns = FrozenRewritePatternSet(std::move(set));
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    given.clear();
    badValue = false;
    if (failed(parseValues(module)) || failed(inlineHelpers(module)) ||
        failed(checkValuesDeclared(module)))
      return signalPassFailure();
    // Kernels that are not families may still size tiles with constants.
    SmallVector<KernelOp> families;
    for (auto kernel : module.getOps<KernelOp>()) {
      if (kernel.getParamsAttr())
        families.push_back(kernel);
      else if (failed(refineAllocations(kernel, patterns)))
        return signalPassFailure();
    }
    SymbolTable symbols(module);
    for (KernelOp family : families)
      if (failed(specializeFamily(family, symbols)))
        return signalPassFailure();
  }

private:
  /// `values` (NAME=VALUE,...) into `given`.
  LogicalResult parseValues(ModuleOp module) {
    for (StringRef entry : values) {
      auto [name, text] = entry.split('=');
      name = name.trim();
      text = text.trim();
      if (name.empty() || text.empty())
        return module.emitError("tile-specialize: expects values as "
                                "NAME=VALUE (an integer, true/false, or a "
                                "type), got '")
               << entry << "'";
      given[name] = text.str();
    }
    return success();
  }

  /// Every name `values` sets is a parameter of some kernel.
  LogicalResult checkValuesDeclared(ModuleOp module) {
    llvm::StringSet<> declared;
    for (auto kernel : module.getOps<KernelOp>())
      if (ArrayAttr params = kernel.getParamsAttr())
        for (ParamAttr decl : params.getAsRange<ParamAttr>())
          declared.insert(decl.getName().getValue());
    for (const auto &entry : given)
      if (!declared.contains(entry.getKey()))
        return module.emitError("tile-specialize: values sets ")
               << entry.getKey()
               << ", which no kernel of the module declares as a parameter";
    return success();
  }

  /// The value `values` gives `decl` of `kernel` (an integer or flag, or a
  /// type); null when it gives none, or, with an error and `badValue` set,
  /// when it cannot be one.
  Attribute givenValue(KernelOp kernel, ParamAttr decl) {
    auto it = given.find(decl.getName().getValue());
    if (it == given.end())
      return {};
    StringRef text = it->second;
    if (Attribute value = paramValueFromText(decl, text))
      return value;
    kernel.emitOpError("cannot take ")
        << decl.getName().getValue() << " = '" << text
        << "' (tile-specialize's values): expected "
        << (decl.isTypeParam() ? "a type" : "an integer that fits its type");
    badValue = true;
    return {};
  }

  struct Planned {
    Assignment values;
    std::string symbol;
  };

  /// The kernels to make of `family`: one at `values` (or the defaults),
  /// or one per configuration, each with its name.
  FailureOr<SmallVector<Planned>> planKernels(KernelOp family) {
    StringRef name = family.getSymName();
    SmallVector<Planned> planned;
    if (!given.empty() || !family.getConfigsAttr()) {
      FailureOr<Assignment> assigned = assign(
          family, [&](ParamAttr decl) { return givenValue(family, decl); },
          given.empty() ? "the defaults" : "tile-specialize's values");
      if (failed(assigned) || badValue)
        return failure();
      planned.push_back({*assigned, name.str()});
      return planned;
    }
    for (auto [i, entry] : llvm::enumerate(
             family.getConfigsAttr().getAsRange<DictionaryAttr>())) {
      DictionaryAttr config = entry;
      FailureOr<Assignment> assigned = assign(
          family,
          [config](ParamAttr decl) -> Attribute {
            return config ? config.get(decl.getName()) : Attribute();
          },
          ("configuration " + std::to_string(i)));
      if (failed(assigned))
        return failure();
      planned.push_back({*assigned, mangle(name, *assigned)});
    }
    return planned;
  }

  /// Replaces `family` by its kernels. With skipInvalid, a configuration
  /// that fails is left out with one warning that names it.
  LogicalResult specializeFamily(KernelOp family, SymbolTable &symbols) {
    StringRef name = family.getSymName();
    FailureOr<SmallVector<Planned>> planned = planKernels(family);
    if (failed(planned))
      return failure();
    OpBuilder b(family);
    for (Planned &plan : *planned) {
      auto kernel = cast<KernelOp>(b.clone(*family));
      if (plan.symbol != name) {
        if (symbols.lookup(plan.symbol))
          return family.emitOpError("configuration ")
                 << formatAssignment(plan.values) << " would be named @"
                 << plan.symbol << ", which the module already defines";
        kernel.setSymName(plan.symbol);
      }
      if (!skipInvalid) {
        if (succeeded(specialize(kernel, plan.values, name, patterns)))
          continue;
        return family.emitOpError("fails to specialise for configuration ")
               << formatAssignment(plan.values) << " (@" << plan.symbol
               << "); the error above names what is wrong";
      }
      // The configuration's errors become one warning that names it.
      std::string errors;
      LogicalResult result = success();
      {
        ScopedDiagnosticHandler collect(&getContext(), [&](Diagnostic &diag) {
          if (diag.getSeverity() != DiagnosticSeverity::Error)
            return failure();
          errors += (errors.empty() ? "" : "; ") + diag.str();
          return success();
        });
        result = specialize(kernel, plan.values, name, patterns);
      }
      if (succeeded(result))
        continue;
      family.emitWarning("skips configuration ")
          << formatAssignment(plan.values) << " (@" << plan.symbol
          << "): " << errors;
      kernel.erase();
    }
    family.erase();
    return success();
  }

  /// This run's `values`, by name, and whether one of them could not be
  /// read as its parameter's value.
  llvm::StringMap<std::string> given;
  bool badValue = false;
  FrozenRewritePatternSet patterns;
};
} // namespace
