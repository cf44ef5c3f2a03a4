package io.gantry.dradriver.devices;

import com.google.common.collect.ImmutableList;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A GPU's architecture name (as nvidia-smi's {@code product_architecture} spells it) from its
 * product name. The device agent's discovery does not carry {@code product_architecture}, so the
 * driver derives it from the model number; a product no rule knows gets no {@code architecture}
 * attribute rather than a guess. Rules are tried in order; the first whose pattern occurs in the
 * upper-cased product name wins.
 */
public final class GpuArchitecture {
  private record Rule(Pattern model, String architecture) {}

  private static final ImmutableList<Rule> RULES =
      ImmutableList.of(
          rule("\\bG?B(100|200|300)\\b|RTX PRO|BLACKWELL", "Blackwell"),
          rule("\\bG?H(100|200|800|20)\\b", "Hopper"),
          rule("\\bL(4|20|40S?)\\b|RTX \\d{4} ADA|\\bRTX 40\\d0", "Ada Lovelace"),
          rule("\\bA(2|10G?|16|30|40|100|800)\\b|RTX A\\d{4}|\\bRTX 30\\d0", "Ampere"),
          rule("\\bT4\\b|QUADRO RTX|\\bRTX 20\\d0|TITAN RTX", "Turing"),
          rule("\\bV100\\b|TITAN V\\b", "Volta"),
          rule("\\bP(4|40|100)\\b", "Pascal"));

  private GpuArchitecture() {}

  private static Rule rule(String regex, String architecture) {
    return new Rule(Pattern.compile(regex), architecture);
  }

  /** The architecture of {@code productName}, for example Hopper for "NVIDIA H100 80GB HBM3". */
  public static Optional<String> of(String productName) {
    String name = productName.toUpperCase(Locale.ROOT);
    return RULES.stream()
        .filter(r -> r.model().matcher(name).find())
        .map(Rule::architecture)
        .findFirst();
  }
}
