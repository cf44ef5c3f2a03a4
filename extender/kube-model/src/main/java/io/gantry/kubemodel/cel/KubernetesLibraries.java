package io.gantry.kubemodel.cel;

import com.google.common.collect.ImmutableList;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import java.math.BigDecimal;

/**
 * Kubernetes' CEL semver and quantity libraries (protocols.md §4.4), which CEL-Java lacks: {@code
 * semver}, {@code isSemver}, {@code quantity}, {@code isQuantity} and their member functions.
 */
final class KubernetesLibraries {
  private KubernetesLibraries() {}

  static ImmutableList<CelFunctionDecl> declarations(OpaqueType semver, OpaqueType quantity) {
    return ImmutableList.of(
        CelFunctionDecl.newFunctionDeclaration(
            "semver",
            CelOverloadDecl.newGlobalOverload("semver_string", semver, SimpleType.STRING),
            CelOverloadDecl.newGlobalOverload(
                "semver_string_bool", semver, SimpleType.STRING, SimpleType.BOOL)),
        CelFunctionDecl.newFunctionDeclaration(
            "isSemver",
            CelOverloadDecl.newGlobalOverload(
                "is_semver_string", SimpleType.BOOL, SimpleType.STRING),
            CelOverloadDecl.newGlobalOverload(
                "is_semver_string_bool", SimpleType.BOOL, SimpleType.STRING, SimpleType.BOOL)),
        CelFunctionDecl.newFunctionDeclaration(
            "major", CelOverloadDecl.newMemberOverload("semver_major", SimpleType.INT, semver)),
        CelFunctionDecl.newFunctionDeclaration(
            "minor", CelOverloadDecl.newMemberOverload("semver_minor", SimpleType.INT, semver)),
        CelFunctionDecl.newFunctionDeclaration(
            "patch", CelOverloadDecl.newMemberOverload("semver_patch", SimpleType.INT, semver)),
        CelFunctionDecl.newFunctionDeclaration(
            "isGreaterThan",
            CelOverloadDecl.newMemberOverload(
                "semver_is_greater_than", SimpleType.BOOL, semver, semver),
            CelOverloadDecl.newMemberOverload(
                "quantity_is_greater_than", SimpleType.BOOL, quantity, quantity)),
        CelFunctionDecl.newFunctionDeclaration(
            "isLessThan",
            CelOverloadDecl.newMemberOverload(
                "semver_is_less_than", SimpleType.BOOL, semver, semver),
            CelOverloadDecl.newMemberOverload(
                "quantity_is_less_than", SimpleType.BOOL, quantity, quantity)),
        CelFunctionDecl.newFunctionDeclaration(
            "compareTo",
            CelOverloadDecl.newMemberOverload("semver_compare_to", SimpleType.INT, semver, semver),
            CelOverloadDecl.newMemberOverload(
                "quantity_compare_to", SimpleType.INT, quantity, quantity)),
        CelFunctionDecl.newFunctionDeclaration(
            "quantity",
            CelOverloadDecl.newGlobalOverload("quantity_string", quantity, SimpleType.STRING)),
        CelFunctionDecl.newFunctionDeclaration(
            "isQuantity",
            CelOverloadDecl.newGlobalOverload(
                "is_quantity_string", SimpleType.BOOL, SimpleType.STRING)),
        CelFunctionDecl.newFunctionDeclaration(
            "sign", CelOverloadDecl.newMemberOverload("quantity_sign", SimpleType.INT, quantity)),
        CelFunctionDecl.newFunctionDeclaration(
            "asApproximateFloat",
            CelOverloadDecl.newMemberOverload(
                "quantity_as_approximate_float", SimpleType.DOUBLE, quantity)),
        CelFunctionDecl.newFunctionDeclaration(
            "asInteger",
            CelOverloadDecl.newMemberOverload("quantity_as_integer", SimpleType.INT, quantity)),
        CelFunctionDecl.newFunctionDeclaration(
            "isInteger",
            CelOverloadDecl.newMemberOverload("quantity_is_integer", SimpleType.BOOL, quantity)),
        CelFunctionDecl.newFunctionDeclaration(
            "add",
            CelOverloadDecl.newMemberOverload("quantity_add", quantity, quantity, quantity),
            CelOverloadDecl.newMemberOverload(
                "quantity_add_int", quantity, quantity, SimpleType.INT)),
        CelFunctionDecl.newFunctionDeclaration(
            "sub",
            CelOverloadDecl.newMemberOverload("quantity_sub", quantity, quantity, quantity),
            CelOverloadDecl.newMemberOverload(
                "quantity_sub_int", quantity, quantity, SimpleType.INT)));
  }

  static ImmutableList<CelFunctionBinding> bindings() {
    return ImmutableList.of(
        CelFunctionBinding.from("semver_string", String.class, s -> Semver.parse(s, false)),
        CelFunctionBinding.from("semver_string_bool", String.class, Boolean.class, Semver::parse),
        CelFunctionBinding.from("is_semver_string", String.class, s -> Semver.isValid(s, false)),
        CelFunctionBinding.from(
            "is_semver_string_bool", String.class, Boolean.class, Semver::isValid),
        CelFunctionBinding.from("semver_major", Semver.class, Semver::major),
        CelFunctionBinding.from("semver_minor", Semver.class, Semver::minor),
        CelFunctionBinding.from("semver_patch", Semver.class, Semver::patch),
        CelFunctionBinding.from(
            "semver_is_greater_than", Semver.class, Semver.class, (a, b) -> a.compareTo(b) > 0),
        CelFunctionBinding.from(
            "semver_is_less_than", Semver.class, Semver.class, (a, b) -> a.compareTo(b) < 0),
        CelFunctionBinding.from(
            "semver_compare_to",
            Semver.class,
            Semver.class,
            (a, b) -> (long) Integer.signum(a.compareTo(b))),
        CelFunctionBinding.from("quantity_string", String.class, CelQuantity::parse),
        CelFunctionBinding.from("is_quantity_string", String.class, CelQuantity::isValid),
        CelFunctionBinding.from(
            "quantity_is_greater_than",
            CelQuantity.class,
            CelQuantity.class,
            (a, b) -> a.compareTo(b) > 0),
        CelFunctionBinding.from(
            "quantity_is_less_than",
            CelQuantity.class,
            CelQuantity.class,
            (a, b) -> a.compareTo(b) < 0),
        CelFunctionBinding.from(
            "quantity_compare_to",
            CelQuantity.class,
            CelQuantity.class,
            (a, b) -> (long) Integer.signum(a.compareTo(b))),
        CelFunctionBinding.from("quantity_sign", CelQuantity.class, q -> (long) q.value().signum()),
        CelFunctionBinding.from(
            "quantity_as_approximate_float", CelQuantity.class, q -> q.value().doubleValue()),
        CelFunctionBinding.from("quantity_as_integer", CelQuantity.class, CelQuantity::asInteger),
        CelFunctionBinding.from("quantity_is_integer", CelQuantity.class, CelQuantity::isInteger),
        CelFunctionBinding.from(
            "quantity_add", CelQuantity.class, CelQuantity.class, (a, b) -> a.plus(b.value())),
        CelFunctionBinding.from(
            "quantity_add_int",
            CelQuantity.class,
            Long.class,
            (a, b) -> a.plus(BigDecimal.valueOf(b))),
        CelFunctionBinding.from(
            "quantity_sub",
            CelQuantity.class,
            CelQuantity.class,
            (a, b) -> a.plus(b.value().negate())),
        CelFunctionBinding.from(
            "quantity_sub_int",
            CelQuantity.class,
            Long.class,
            (a, b) -> a.plus(BigDecimal.valueOf(-b))));
  }
}
