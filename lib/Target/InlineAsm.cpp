//===- InlineAsm.cpp - inline PTX templates LLVM's printer can print ------===//
//
// LLVM's AsmPrinter aborts (report_fatal_error) or exits on an inline-asm
// operand reference it cannot print; translateToNVPTXModule asks this
// first, so that a bad template is a located error.
//
//===----------------------------------------------------------------------===//

#include "tile/Target/InlineAsm.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

// Why `text`, an inline-PTX template with `operands` operands (outputs,
// then inputs), would stop LLVM's printer (which aborts, or exits, on a bad
// reference), or the empty string: operands are $N or ${N} with N below
// `operands`, $$ is a dollar sign, $( $| $) mark variants (not nested),
// and ${:uid}, ${:comment}, ${:private} are the printer's specials
// (LLVM's AsmPrinter::EmitInlineAsm, GCC dialect). Operand modifiers
// (${N:c}) depend on the operand's kind and are refused.
static std::string badInlineAsmReference(StringRef text, unsigned operands) {
  bool inVariant = false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$')
      continue;
    StringRef rest = text.drop_front(i + 1);
    if (rest.consume_front("$") || rest.consume_front("|")) {
      i = text.size() - rest.size() - 1;
      continue;
    }
    if (rest.consume_front("(")) {
      if (inVariant)
        return "nests a variant '$(' in another";
      inVariant = true;
      i = text.size() - rest.size() - 1;
      continue;
    }
    if (rest.consume_front(")")) {
      inVariant = false;
      i = text.size() - rest.size() - 1;
      continue;
    }
    bool braces = rest.consume_front("{");
    if (braces && rest.consume_front(":")) {
      size_t end = rest.find('}');
      if (end == StringRef::npos)
        return "has an unterminated '${:' reference";
      StringRef special = rest.take_front(end);
      if (special != "uid" && special != "comment" && special != "private")
        return ("has an unknown special '${:" + special + "}'").str();
      i = text.size() - rest.size() + end;
      continue;
    }
    size_t digits = 0;
    while (digits < rest.size() && llvm::isDigit(rest[digits]))
      ++digits;
    unsigned number = 0;
    if (digits == 0 || rest.take_front(digits).getAsInteger(10, number))
      return ("has a '$' followed by '" + rest.take_front(1) +
              "', neither an operand number nor one of $$ $( $| $) ${")
          .str();
    if (number >= operands)
      return ("refers to operand $" + Twine(number) + " of " +
              Twine(operands) + " (numbered from $0)")
          .str();
    rest = rest.drop_front(digits);
    if (braces && !rest.consume_front("}"))
      return ("writes operand " + Twine(number) +
              " as '${...' without its closing '}' (operand modifiers such "
              "as ${0:c} are not taken)")
          .str();
    i = text.size() - rest.size() - 1;
  }
  return "";
}

LogicalResult mlir::tile::checkInlineAsm(Operation *device) {
  WalkResult result = device->walk([](LLVM::InlineAsmOp op) {
    unsigned operands = 0;
    for (StringRef constraint : llvm::split(op.getConstraints(), ','))
      if (!constraint.trim().starts_with("~"))
        ++operands;
    std::string why = badInlineAsmReference(op.getAsmString(), operands);
    if (why.empty())
      return WalkResult::advance();
    op.emitOpError("template ")
        << why << ": write operands as $0, $1, ... or ${0}, and a dollar "
           "sign as $$";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}
