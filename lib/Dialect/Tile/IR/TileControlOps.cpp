//===- TileControlOps.cpp - pipelined loops and warp roles ----------------===//
//
// tile.pipelined_for and tile.warp_specialize: their syntax (roles with
// warp counts, register budgets and teams) and verifiers. Split from
// TileOps.cpp by concern.
//
//===----------------------------------------------------------------------===//

#include "TileOpsCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::detail;

//===----------------------------------------------------------------------===//
// PipelinedForOp
//===----------------------------------------------------------------------===//

ParseResult PipelinedForOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::Argument iv;
  OpAsmParser::UnresolvedOperand lb, ub, step;
  int32_t stages = 0;
  Type index = parser.getBuilder().getIndexType();
  iv.type = index;
  if (parser.parseArgument(iv) || parser.parseEqual() ||
      parser.parseOperand(lb) || parser.parseKeyword("to") ||
      parser.parseOperand(ub) || parser.parseKeyword("step") ||
      parser.parseOperand(step) || parser.parseKeyword("stages") ||
      parser.parseLParen())
    return failure();
  // stages(N), or stages(NAME) in a family: 2, valid in every mode, stands
  // in until tile-specialize sets it.
  OptionalParseResult number = parser.parseOptionalInteger(stages);
  if (number.has_value()) {
    if (failed(*number))
      return failure();
  } else {
    std::string name;
    if (parser.parseKeywordOrString(&name))
      return failure();
    stages = 2;
    result.addAttribute(getStagesParamAttrName(result.name),
                        parser.getBuilder().getStringAttr(name));
  }
  if (parser.parseRParen() ||
      parser.resolveOperands({lb, ub, step}, index, result.operands))
    return failure();
  result.addAttribute(getStagesAttrName(result.name),
                      parser.getBuilder().getI32IntegerAttr(stages));
  if (succeeded(parser.parseOptionalKeyword("warp_specialized")))
    result.addAttribute(getWarpSpecializedAttrName(result.name),
                        parser.getBuilder().getUnitAttr());
  // pingpong, or pingpong(NAME) in a family: off until tile-specialize
  // reads the flag.
  if (succeeded(parser.parseOptionalKeyword("pingpong"))) {
    if (succeeded(parser.parseOptionalLParen())) {
      std::string name;
      if (parser.parseKeywordOrString(&name) || parser.parseRParen())
        return failure();
      result.addAttribute(getPingpongParamAttrName(result.name),
                          parser.getBuilder().getStringAttr(name));
    } else {
      result.addAttribute(getPingpongAttrName(result.name),
                          parser.getBuilder().getUnitAttr());
    }
  }
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, {iv}))
    return failure();
  PipelinedForOp::ensureTerminator(*body, parser.getBuilder(), result.location);
  return success();
}

void PipelinedForOp::print(OpAsmPrinter &p) {
  p << ' ' << getInductionVar() << " = " << getLowerBound() << " to "
    << getUpperBound() << " step " << getStep() << " stages(";
  if (std::optional<StringRef> name = getStagesParam())
    p << *name << ")";
  else
    p << getStages() << ")";
  if (getWarpSpecialized())
    p << " warp_specialized";
  if (std::optional<StringRef> name = getPingpongParam())
    p << " pingpong(" << *name << ")";
  else if (getPingpong())
    p << " pingpong";
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getStagesAttrName(), getWarpSpecializedAttrName(), getPingpongAttrName(),
       getStagesParamAttrName(), getPingpongParamAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

LogicalResult PipelinedForOp::verify() {
  if (std::optional<StringRef> name = getStagesParam())
    if (failed(verifyClauseParam(*this, (*this)->getParentOfType<KernelOp>(),
                                 "stages", *name, /*flag=*/false)))
      return failure();
  if (std::optional<StringRef> name = getPingpongParam())
    if (failed(verifyClauseParam(*this, (*this)->getParentOfType<KernelOp>(),
                                 "pingpong", *name, /*flag=*/true)))
      return failure();
  int64_t stages = getStagesAttr().getInt();
  if (stages < 1 || stages > 16)
    return emitOpError("expects stages in [1, 16], got ") << stages;
  if (getWarpSpecialized() && stages < 2)
    return emitOpError("with warp_specialized expects at least 2 stages");
  if (getPingpong() && !getWarpSpecialized())
    return emitOpError("takes pingpong only with warp_specialized (the "
                       "teams are consumers of a producer warp)");
  APInt step;
  if (matchPattern(getStep(), m_ConstantInt(&step)) && !step.isStrictlyPositive())
    return emitOpError("expects a positive step, got ") << step.getSExtValue();
  Block &body = getBody().front();
  if (body.getNumArguments() != 1 || !body.getArgument(0).getType().isIndex())
    return emitOpError("expects one index induction variable");
  return verifyInKernel(*this);
}

SmallVector<Region *> PipelinedForOp::getLoopRegions() { return {&getBody()}; }

std::optional<SmallVector<Value>> PipelinedForOp::getLoopInductionVars() {
  return SmallVector<Value>{getInductionVar()};
}

std::optional<SmallVector<OpFoldResult>> PipelinedForOp::getLoopLowerBounds() {
  return SmallVector<OpFoldResult>{OpFoldResult(getLowerBound())};
}

std::optional<SmallVector<OpFoldResult>> PipelinedForOp::getLoopUpperBounds() {
  return SmallVector<OpFoldResult>{OpFoldResult(getUpperBound())};
}

std::optional<SmallVector<OpFoldResult>> PipelinedForOp::getLoopSteps() {
  return SmallVector<OpFoldResult>{OpFoldResult(getStep())};
}


//===----------------------------------------------------------------------===//
// WarpSpecializeOp
//===----------------------------------------------------------------------===//

WarpSpecializeOp WarpSpecializeOp::getEnclosing(Operation *op,
                                                Region **region) {
  for (Region *r = op->getParentRegion(); r; r = r->getParentRegion()) {
    if (auto ws = dyn_cast<WarpSpecializeOp>(r->getParentOp())) {
      if (region)
        *region = r;
      return ws;
    }
  }
  return {};
}

WarpSpecializeOp WarpSpecializeOp::createWithRoles(OpBuilder &b, Location loc,
                                                   ArrayRef<Role> roles) {
  SmallVector<StringRef> names;
  SmallVector<int32_t> warps, registers, teams;
  for (const Role &role : roles) {
    names.push_back(role.name);
    warps.push_back(role.warps);
    registers.push_back(role.registers.value_or(0));
    teams.push_back(role.teams);
  }
  auto op = WarpSpecializeOp::create(b, loc, b.getStrArrayAttr(names), warps,
                                     registers, teams, roles.size());
  OpBuilder::InsertionGuard guard(b);
  for (auto [role, region] : llvm::zip(roles, op.getRoles())) {
    Block *block = b.createBlock(&region);
    if (role.teams > 1)
      block->addArgument(b.getIndexType(), loc);
    YieldOp::create(b, loc);
  }
  return op;
}

WarpSpecializeOp::Role WarpSpecializeOp::getRole(unsigned role) {
  int32_t registers = getRoleRegisters()[role];
  return {getRoleName(role).str(), getRoleWarps()[role],
          registers ? std::optional<int64_t>(registers) : std::nullopt,
          getRoleTeams()[role]};
}

// Roles in order from warp 0; a role of whole warpgroups or with a register
// budget starts on a warpgroup boundary, and one with a budget ends on one.
SmallVector<WarpSpecializeOp::Placement> WarpSpecializeOp::getPlacement() {
  auto alignUp = [](int64_t x) {
    return llvm::alignTo(x, static_cast<uint64_t>(kWarpgroupThreads));
  };
  SmallVector<Placement> placement;
  int64_t next = 0;
  for (unsigned i = 0, e = getNumRoles(); i < e; ++i) {
    Role role = getRole(i);
    int64_t begin = next;
    if (role.registers || role.warps % 4 == 0)
      begin = alignUp(begin);
    if (!placement.empty())
      placement.back().end = begin;
    int64_t active = begin + role.warps * kWarpThreads;
    next = role.registers ? alignUp(active) : active;
    placement.push_back({begin, active, next});
  }
  return placement;
}

// A role's register budget as setmaxnreg takes it; `error` starts the
// message (at the role when parsing, at the op when verifying).
template <typename ErrorFn>
static LogicalResult checkRegisterBudget(int64_t budget, ErrorFn error) {
  if (budget >= 24 && budget <= 256 && budget % 8 == 0)
    return success();
  int64_t instead = budget > 256 ? 256 : std::max<int64_t>(24, (budget + 7) / 8 * 8);
  return error() << "asks for " << budget
                 << " registers; setmaxnreg takes a multiple of 8 in [24, "
                    "256] (write registers("
                 << instead << "))";
}

// Syntax: `{ role "name" (warps(N) | warpgroups(N)) (registers(R))?
// (teams(T) as %team)? region ... }` and the attribute dictionary.
ParseResult WarpSpecializeOp::parse(OpAsmParser &parser,
                                    OperationState &result) {
  Builder &builder = parser.getBuilder();
  SmallVector<Attribute> names;
  SmallVector<int32_t> warps, registers, teams;
  if (parser.parseLBrace())
    return failure();
  while (succeeded(parser.parseOptionalKeyword("role"))) {
    std::string name;
    int32_t count = 0, budget = 0, teamCount = 1;
    if (parser.parseString(&name))
      return failure();
    bool groups = succeeded(parser.parseOptionalKeyword("warpgroups"));
    if (!groups && parser.parseKeyword("warps", " or 'warpgroups'"))
      return failure();
    SMLoc countLoc = parser.getCurrentLocation();
    if (parser.parseLParen() || parser.parseInteger(count) ||
        parser.parseRParen())
      return failure();
    // Counted in warps from here on: 4 x N must not overflow.
    if (groups && (count < 1 || count > 8))
      return parser.emitError(countLoc)
             << "warpgroups(" << count
             << ") is not a number of warpgroups a CTA holds: write "
                "warpgroups(N) with N in [1, 8] (1024 threads)";
    SMLoc budgetLoc = parser.getCurrentLocation();
    if (succeeded(parser.parseOptionalKeyword("registers"))) {
      if (parser.parseLParen() || parser.parseInteger(budget) ||
          parser.parseRParen())
        return failure();
      // Refused here, at the role, rather than by the verifier at the op.
      if (failed(checkRegisterBudget(budget, [&] {
            return parser.emitError(budgetLoc)
                   << "role '" << name << "' ";
          })))
        return failure();
    }
    SmallVector<OpAsmParser::Argument> args;
    if (succeeded(parser.parseOptionalKeyword("teams"))) {
      if (parser.parseLParen() || parser.parseInteger(teamCount) ||
          parser.parseRParen())
        return failure();
      if (succeeded(parser.parseOptionalKeyword("as"))) {
        OpAsmParser::Argument &team = args.emplace_back();
        if (parser.parseArgument(team))
          return failure();
        team.type = builder.getIndexType();
      }
    }
    Region *region = result.addRegion();
    if (parser.parseRegion(*region, args))
      return failure();
    ensureTerminator(*region, builder, result.location);
    names.push_back(builder.getStringAttr(name));
    warps.push_back(groups ? count * 4 : count);
    registers.push_back(budget);
    teams.push_back(teamCount);
  }
  if (parser.parseRBrace() ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  result.addAttribute(getRoleNamesAttrName(result.name),
                      builder.getArrayAttr(names));
  result.addAttribute(getRoleWarpsAttrName(result.name),
                      builder.getDenseI32ArrayAttr(warps));
  result.addAttribute(getRoleRegistersAttrName(result.name),
                      builder.getDenseI32ArrayAttr(registers));
  result.addAttribute(getRoleTeamsAttrName(result.name),
                      builder.getDenseI32ArrayAttr(teams));
  return success();
}

void WarpSpecializeOp::print(OpAsmPrinter &p) {
  p << " {";
  p.increaseIndent();
  for (unsigned i = 0, e = getNumRoles(); i < e; ++i) {
    Role role = getRole(i);
    Region &region = getRoles()[i];
    p.printNewline();
    p << "role ";
    p.printString(role.name);
    if (role.warps % 4 == 0)
      p << " warpgroups(" << role.warps / 4 << ")";
    else
      p << " warps(" << role.warps << ")";
    if (role.registers)
      p << " registers(" << *role.registers << ")";
    if (role.teams != 1) {
      p << " teams(" << role.teams << ")";
      if (!region.empty() && region.getNumArguments() == 1) {
        p << " as ";
        p.printRegionArgument(region.getArgument(0), {}, /*omitType=*/true);
      }
    }
    p << ' ';
    p.printRegion(region, /*printEntryBlockArgs=*/false,
                  /*printBlockTerminators=*/false);
  }
  p.decreaseIndent();
  p.printNewline();
  p << "}";
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getRoleNamesAttrName(), getRoleWarpsAttrName(),
                           getRoleRegistersAttrName(), getRoleTeamsAttrName()});
}

// One role's own rules: a positive warp count that its teams divide, the
// team's index as its only argument with teams, a legal setmaxnreg budget
// and a wait for its asynchronous TMA stores.
static LogicalResult verifyRole(WarpSpecializeOp op, unsigned i) {
  WarpSpecializeOp::Role role = op.getRole(i);
  auto error = [&]() {
    return op.emitOpError("role '") << role.name << "' ";
  };
  if (role.warps <= 0)
    return error() << "expects a positive warp count, got " << role.warps
                   << "; write warps(N) with N >= 1";
  if (role.teams < 1 || role.warps % role.teams != 0)
    return error() << "has " << role.warps << " warp(s), which teams("
                   << role.teams
                   << ") does not divide; give it a multiple of the team "
                      "count in warps";
  Block &block = op.getRoles()[i].front();
  if (role.teams > 1 && (block.getNumArguments() != 1 ||
                         !block.getArgument(0).getType().isIndex()))
    return error() << "expects the team's index as its only argument "
                      "(write `teams("
                   << role.teams << ") as %team`)";
  if (role.teams == 1 && block.getNumArguments() != 0)
    return error() << "takes no arguments without teams (write `teams(T) as "
                      "%team` for a team index)";
  if (role.registers && failed(checkRegisterBudget(*role.registers, error)))
    return failure();
  // Only the thread that issued an asynchronous TMA store can wait for it:
  // a role that issues them waits in the same role.
  bool stores = false, waits = false;
  op.getRoles()[i].walk([&](Operation *inner) {
    if (auto copy = dyn_cast<CopyOp>(inner))
      stores |= copy.getAsync() && copy.getTma();
    waits |= isa<WaitTmaStoresOp>(inner);
  });
  if (stores && !waits)
    return error() << "has asynchronous TMA stores but no "
                      "tile.wait_tma_stores (only the threads that issue "
                      "them can wait; add one in this role)";
  return success();
}

// The roles' threads against the kernel's, and the registers they ask for
// against what the CTA holds.
static LogicalResult verifyRoleThreads(WarpSpecializeOp op, int64_t threads) {
  SmallVector<WarpSpecializeOp::Placement> placement = op.getPlacement();
  int64_t placed = placement.back().end;
  if (placed != threads)
    return op.emitOpError("places its roles on ")
           << placed << " threads (warpgroup alignment included) but the "
           << "kernel has " << threads << "; write threads(" << placed
           << ") on the kernel or change the roles' warp counts";
  if (!op.setsRegisters())
    return success();
  int64_t entry = WarpSpecializeOp::entryRegisters(threads);
  int64_t asked = 0;
  for (unsigned i = 0, e = op.getNumRoles(); i < e; ++i) {
    int64_t span = placement[i].end - placement[i].begin;
    asked += span * op.getRole(i).registers.value_or(entry);
  }
  if (asked > threads * entry)
    return op.emitOpError("asks for ")
           << asked << " registers; the CTA holds " << threads * entry << " ("
           << threads << " threads x " << entry
           << "); lower some role's registers(...)";
  return success();
}

LogicalResult WarpSpecializeOp::verify() {
  if (!isa_and_present<KernelOp, gpu::GPUFuncOp>((*this)->getParentOp()))
    return emitOpError("must be directly in a 'tile.kernel' body");
  unsigned roles = getNumRoles();
  if (roles == 0)
    return emitOpError("expects at least one role (`role \"name\" warps(N) "
                       "{ ... }`)");
  if (getRoleNames().size() != roles || getRoleWarps().size() != roles ||
      getRoleRegisters().size() != roles || getRoleTeams().size() != roles)
    return emitOpError("expects a name, warp count, register budget and team "
                       "count per role (")
           << roles << " roles)";
  for (unsigned i = 0; i < roles; ++i) {
    if (llvm::any_of(llvm::seq(0u, i),
                     [&](unsigned j) { return getRoleName(j) == getRoleName(i); }))
      return emitOpError("has two roles named '")
             << getRoleName(i) << "'; give each role its own name";
    if (failed(verifyRole(*this, i)))
      return failure();
  }
  int64_t threads = getThreadsRunning(*this);
  return threads ? verifyRoleThreads(*this, threads) : success();
}
